//===- FuseElementwise.cpp - graph-fuse-elementwise -----------------------===//

#include "graphopt/Codegen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHFUSEELEMENTWISEPASS
#include "graphopt/Codegen/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;

namespace {

bool isKernel(Operation *op) {
  auto l = dyn_cast_or_null<linalg::LinalgOp>(op);
  return l && (linalg::isaContractionOpInterface(l) ||
               linalg::isaConvolutionOpInterface(l));
}

/// Fuse a producer into its only user, unless that user is a contraction or
/// a convolution (the tiled kernels must still recognize it).
bool shouldFuse(OpOperand *fused) {
  Operation *producer = fused->get().getDefiningOp();
  if (!producer || !producer->hasOneUse())
    return false;
  return !isKernel(fused->getOwner());
}

/// Propagate a reshape through a linalg op by expanding the op's loops,
/// unless the op is a contraction or a convolution: an expanded batch_matmul
/// becomes a generic loop nest the matmul kernel no longer recognizes.
bool shouldPropagateReshape(OpOperand *fused) {
  Operation *producer = fused->get().getDefiningOp();
  if (!producer || !producer->hasOneUse())
    return false;
  return !isKernel(fused->getOwner()) && !isKernel(producer);
}

struct GraphFuseElementwisePass
    : graphopt::impl::GraphFuseElementwisePassBase<GraphFuseElementwisePass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    linalg::populateElementwiseOpsFusionPatterns(patterns, shouldFuse);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns,
                                                      shouldPropagateReshape);
    tensor::populateBubbleUpExpandShapePatterns(patterns);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, ctx);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
    ctx->getLoadedDialect<linalg::LinalgDialect>()->getCanonicalizationPatterns(
        patterns);
    linalg::populateConstantFoldLinalgOperations(patterns, shouldFuse);
    if (failed(applyPatternsGreedily(
            getOperation(), std::move(patterns),
            GreedyRewriteConfig().setUseTopDownTraversal())))
      signalPassFailure();
  }
};

} // namespace
