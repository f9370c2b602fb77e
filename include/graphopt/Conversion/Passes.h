//===- Passes.h - graphopt conversion passes --------------------*- C++ -*-===//
//
/// \file
/// Lowerings out of the graphopt dialects, and their public pattern sets.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_CONVERSION_PASSES_H
#define GRAPHOPT_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
class ConversionTarget;
namespace affine {
class AffineDialect;
}
namespace arith {
class ArithDialect;
}
namespace linalg {
class LinalgDialect;
}
namespace math {
class MathDialect;
}
namespace tensor {
class TensorDialect;
}
namespace scf {
class SCFDialect;
}
namespace bufferization {
class BufferizationDialect;
}
namespace memref {
class MemRefDialect;
}
namespace func {
class FuncDialect;
}
} // namespace mlir

namespace mlir::graphopt {

#define GEN_PASS_DECL
#include "graphopt/Conversion/Passes.h.inc"

/// Patterns lowering every `graph` op to linalg/tensor/arith/math on tensors;
/// `winograd`: 3x3 convolutions with constant weights as Winograd F(2x2,
/// 3x3) where it is chosen (see the pass's `winograd` option).
void populateGraphToLinalgConversionPatterns(RewritePatternSet &patterns,
                                             bool winograd = false);

/// Patterns lowering `fusion.attention` to a flash-attention loop nest (scf
/// loops over blocks of `blockRows` query rows and `blockCols` key/value
/// positions, linalg on tensors inside, online softmax).
void populateFusionAttentionLoweringPatterns(RewritePatternSet &patterns,
                                             int64_t blockRows = 64,
                                             int64_t blockCols = 64);

#define GEN_PASS_REGISTRATION
#include "graphopt/Conversion/Passes.h.inc"

} // namespace mlir::graphopt

#endif // GRAPHOPT_CONVERSION_PASSES_H
