//===- Passes.h - graphopt code generation passes ---------------*- C++ -*-===//
//
/// \file
/// Target code generation passes that work on linalg (tiling, vectorization).
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_CODEGEN_PASSES_H
#define GRAPHOPT_CODEGEN_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace func {
class FuncOp;
}
namespace scf {
class SCFDialect;
}
namespace vector {
class VectorDialect;
}
namespace tensor {
class TensorDialect;
}
namespace affine {
class AffineDialect;
}
namespace arith {
class ArithDialect;
}
namespace linalg {
class LinalgDialect;
}
namespace gpu {
class GPUDialect;
}
namespace memref {
class MemRefDialect;
}
} // namespace mlir

namespace mlir::graphopt {

#define GEN_PASS_DECL
#include "graphopt/Codegen/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "graphopt/Codegen/Passes.h.inc"

} // namespace mlir::graphopt

#endif // GRAPHOPT_CODEGEN_PASSES_H
