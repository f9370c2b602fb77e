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
class FuncDialect;
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
class GPUModuleOp;
}
namespace memref {
class MemRefDialect;
}
namespace bufferization {
class BufferizationDialect;
}
namespace amx {
class AMXDialect;
}
namespace LLVM {
class LLVMDialect;
}
class RewritePatternSet;
} // namespace mlir

namespace mlir::graphopt {

#define GEN_PASS_DECL
#include "graphopt/Codegen/Passes.h.inc"

/// Adds the pattern of `graph-gpu-map-reductions`: a `linalg.generic` on
/// memrefs that reduces along its innermost loop with one 32-bit combiner
/// becomes a `gpu.launch` with one warp per output row (`warpsPerBlock` rows
/// per block) and a `gpu.shuffle xor` butterfly across the warp.
void populateGPUMapReductionsPatterns(RewritePatternSet &patterns,
                                      unsigned warpsPerBlock);

/// Adds the patterns of `graph-gpu-row-kernels`: `graph.softmax` along the
/// last axis and `graph.layer_norm` on static f32/f16/bf16 tensors become a
/// `gpu.launch` each, one warp per row (`warpsPerBlock` rows per block).
void populateGPURowKernelsPatterns(RewritePatternSet &patterns,
                                   unsigned warpsPerBlock);

/// Adds the pattern of `graph-gpu-split-reductions`: a full reduction (a
/// rank-0 output) of at least 2^14 contiguous elements becomes a reduction
/// of rows of C elements into R = N / C partial values, then one of those.
void populateGPUSplitReductionsPatterns(RewritePatternSet &patterns);

/// Adds the pattern of `graph-fold-empty-tensors`: a statically shaped
/// tensor without elements computed by a side-effect-free op becomes a
/// `tensor.empty`.
void populateFoldEmptyTensorsPatterns(RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "graphopt/Codegen/Passes.h.inc"

} // namespace mlir::graphopt

#endif // GRAPHOPT_CODEGEN_PASSES_H
