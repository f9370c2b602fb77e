//===- Passes.h - fusion dialect passes -------------------------*- C++ -*-===//
//
/// \file
/// Fusion passes and their public pattern sets.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_DIALECT_FUSION_TRANSFORMS_PASSES_H
#define GRAPHOPT_DIALECT_FUSION_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
namespace scf {
class SCFDialect;
}
namespace tensor {
class TensorDialect;
}
namespace linalg {
class LinalgDialect;
}
} // namespace mlir

namespace mlir::graphopt::graph {
class GraphDialect;
} // namespace mlir::graphopt::graph

namespace mlir::graphopt::fusion {
class FusionDialect;

#define GEN_PASS_DECL
#include "graphopt/Dialect/Fusion/Transforms/Passes.h.inc"

/// matmul (+ transpose of the weight) + bias add (+ activation) ->
/// fusion.linear.
void populateFormLinearPatterns(RewritePatternSet &patterns);

/// softmax(q k^T * scale [+ mask]) v -> fusion.attention.
void populateFormAttentionPatterns(RewritePatternSet &patterns);

void populateFormConvPatterns(RewritePatternSet &patterns);

/// fusion.linear / fusion.attention -> graph ops; fusion.group inlined.
void populateExpandFusionPatterns(RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "graphopt/Dialect/Fusion/Transforms/Passes.h.inc"

} // namespace mlir::graphopt::fusion

#endif // GRAPHOPT_DIALECT_FUSION_TRANSFORMS_PASSES_H
