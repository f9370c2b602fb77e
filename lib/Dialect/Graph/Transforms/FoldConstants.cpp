//===- FoldConstants.cpp - graph-fold-constants ---------------------------===//

#include "graphopt/Dialect/Graph/IR/ConstantEval.h"
#include "graphopt/Dialect/Graph/IR/GraphOps.h"
#include "graphopt/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::graphopt::graph {
#define GEN_PASS_DEF_GRAPHFOLDCONSTANTSPASS
#include "graphopt/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::graphopt::graph

using namespace mlir;
using namespace mlir::graphopt::graph;

namespace {
/// Replaces a graph op whose operands are all constants by its value.
struct FoldConstantOperands : RewritePattern {
  FoldConstantOperands(MLIRContext *ctx, int64_t sizeLimit)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx),
        sizeLimit(sizeLimit) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<GraphDialect>(op->getDialect()) || isa<ConstantOp>(op) ||
        op->getNumResults() != 1 || op->getNumOperands() == 0)
      return rewriter.notifyMatchFailure(op, "not a foldable graph op");
    SmallVector<Attribute> operands;
    for (Value v : op->getOperands()) {
      Attribute a;
      if (!matchPattern(v, m_Constant(&a)))
        return rewriter.notifyMatchFailure(op, "operand is not constant");
      operands.push_back(a);
    }
    DenseElementsAttr value = evaluateConstantOp(op, operands, sizeLimit);
    if (!value)
      return rewriter.notifyMatchFailure(
          op, "unsupported op or type, or result over the size limit");
    rewriter.replaceOpWithNewOp<ConstantOp>(op, value.getType(), value);
    return success();
  }
  int64_t sizeLimit;
};

struct GraphFoldConstantsPass
    : public mlir::graphopt::graph::impl::GraphFoldConstantsPassBase<
          GraphFoldConstantsPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateFoldConstantsPatterns(patterns, sizeLimit);
    int64_t opsBefore = 0;
    getOperation()->walk([&](Operation *op) {
      opsBefore += isa<GraphDialect>(op->getDialect()) && !isa<ConstantOp>(op);
    });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    int64_t opsAfter = 0;
    getOperation()->walk([&](Operation *op) {
      opsAfter += isa<GraphDialect>(op->getDialect()) && !isa<ConstantOp>(op);
    });
    numFolded += opsBefore - opsAfter;
  }
};
} // namespace

void mlir::graphopt::graph::populateFoldConstantsPatterns(
    RewritePatternSet &patterns, int64_t sizeLimit) {
  patterns.add<FoldConstantOperands>(patterns.getContext(), sizeLimit);
}
