//===- Patterns.h - applying rewrite patterns in codegen passes -*- C++ -*-===//
//
/// \file
/// The greedy pattern driver as the code generation passes use it: the
/// patterns only, without the region simplification that
/// `applyPatternsGreedily` runs by default after every iteration (region
/// DCE and block merging over the whole function, "aggressive"). These
/// passes rewrite ops and leave control flow to the canonicalizer; on
/// ResNet-50 the simplification was ~0.1 s of the lowering and changed
/// nothing in the output.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_CODEGEN_PATTERNS_H
#define GRAPHOPT_CODEGEN_PATTERNS_H

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::graphopt {

/// `applyPatternsGreedily(op, patterns, config)` with region
/// simplification disabled.
inline LogicalResult applyPatternsOnly(Operation *op,
                                       const FrozenRewritePatternSet &patterns,
                                       GreedyRewriteConfig config = {}) {
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  return applyPatternsGreedily(op, patterns, config);
}

} // namespace mlir::graphopt

#endif // GRAPHOPT_CODEGEN_PATTERNS_H
