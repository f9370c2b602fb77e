//===- FoldEmptyTensors.cpp - graph-fold-empty-tensors --------------------===//
//
// Tensors with no elements that side-effect-free ops compute become
// tensor.empty before bufferization (see the pass description in
// Passes.td).
//
//===----------------------------------------------------------------------===//

#include "graphopt/Codegen/Passes.h"
#include "graphopt/Codegen/Patterns.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHFOLDEMPTYTENSORSPASS
#include "graphopt/Codegen/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;

namespace {

/// A statically shaped result with a zero-size dim of an op that computes
/// only its results (pure, a pad, or a linalg op on tensors) -> a
/// tensor.empty of its type; the op goes when nothing else uses it.
struct EmptyZeroSizeResults : RewritePattern {
  explicit EmptyZeroSizeResults(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (isa<tensor::EmptyOp>(op) || op->getNumResults() == 0)
      return failure();
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      if (!linalgOp.hasPureTensorSemantics())
        return failure();
    } else if (!isa<tensor::PadOp>(op) &&
               (op->getNumRegions() > 0 || !isPure(op))) {
      return failure();
    }
    bool changed = false;
    for (Value result : op->getResults()) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      if (!type || !type.hasStaticShape() || type.getNumElements() != 0 ||
          result.use_empty())
        continue;
      Value empty = tensor::EmptyOp::create(
          rewriter, op->getLoc(), type.getShape(), type.getElementType());
      rewriter.replaceAllUsesWith(result, empty);
      changed = true;
    }
    if (!changed)
      return failure();
    if (op->use_empty())
      rewriter.eraseOp(op);
    return success();
  }
};

struct GraphFoldEmptyTensorsPass
    : public graphopt::impl::GraphFoldEmptyTensorsPassBase<
          GraphFoldEmptyTensorsPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    graphopt::populateFoldEmptyTensorsPatterns(patterns);
    if (failed(
            graphopt::applyPatternsOnly(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace

void mlir::graphopt::populateFoldEmptyTensorsPatterns(
    RewritePatternSet &patterns) {
  patterns.add<EmptyZeroSizeResults>(patterns.getContext());
}
