//===- Passes.h - graph dialect passes --------------------------*- C++ -*-===//
//
/// \file
/// Graph-level passes (shape refinement, constant folding, the fixed-point
/// optimizer, rewrite rules) and the public pattern sets they are built from.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_DIALECT_GRAPH_TRANSFORMS_PASSES_H
#define GRAPHOPT_DIALECT_GRAPH_TRANSFORMS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
namespace func {
class FuncDialect;
} // namespace func
} // namespace mlir

namespace mlir::graphopt::graph {

#define GEN_PASS_DECL
#include "graphopt/Dialect/Graph/Transforms/Passes.h.inc"

/// Patterns that evaluate graph ops with constant operands whose result has
/// at most `sizeLimit` elements, replacing them by `graph.constant`.
void populateFoldConstantsPatterns(RewritePatternSet &patterns,
                                   int64_t sizeLimit);

/// Refines the result types of graph ops in `module` to the most static type
/// inference gives, and updates function signatures to match. Returns the
/// number of values refined.
int64_t refineShapes(ModuleOp module);

/// Patterns that rewrite composite graph ops (batch_norm, layer_norm,
/// scaled_dot_product_attention, split, adaptive_avg_pool2d, resize) into
/// simpler graph ops; what `graph-decompose` applies.
void populateGraphDecompositionPatterns(RewritePatternSet &patterns);

/// Patterns that recognize decomposed SiLU, GELU and layer norm and rewrite
/// them into graph.silu, graph.gelu and graph.layer_norm; what
/// `graph-raise-composites` applies. Written in PDLL, compiled at build time.
void populateRaiseCompositesPatterns(RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "graphopt/Dialect/Graph/Transforms/Passes.h.inc"

} // namespace mlir::graphopt::graph

#endif // GRAPHOPT_DIALECT_GRAPH_TRANSFORMS_PASSES_H
