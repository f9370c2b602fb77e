//===- FuseElementwise.cpp - graph-fuse-elementwise -----------------------===//

#include "graphopt/Codegen/ConstantView.h"
#include "graphopt/Codegen/Passes.h"
#include "graphopt/Codegen/Patterns.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"

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

/// True when a group of `reassociation` spans more than one dynamic dim of
/// `expanded`, the reshape's expanded side.
bool hasDynamicGroup(ArrayRef<ReassociationIndices> reassociation,
                     ShapedType expanded) {
  return llvm::any_of(reassociation, [&](const ReassociationIndices &group) {
    return llvm::count_if(group, [&](int64_t d) {
             return expanded.isDynamicDim(d);
           }) > 1;
  });
}

/// Propagate a reshape through a linalg op by expanding the op's loops,
/// unless the op is a contraction or a convolution (an expanded batch_matmul
/// becomes a generic loop nest the matmul kernel no longer recognizes), or
/// the reshape splits one dim into several dynamic ones: the expanded
/// operands then need memref.expand_shapes with two dynamic sizes in a
/// group, on which MLIR 22's expand-strided-metadata crashes (a dynamic
/// ?x? -> ? reshape feeding a broadcast, found by scripts/fuzz_graph.py),
/// and such a loop nest gains nothing from the expansion.
bool shouldPropagateReshape(OpOperand *fused) {
  Operation *producer = fused->get().getDefiningOp();
  if (!producer || !producer->hasOneUse())
    return false;
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(producer))
    if (hasDynamicGroup(collapse.getReassociationIndices(),
                        collapse.getSrcType()))
      return false;
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(fused->getOwner()))
    if (hasDynamicGroup(expand.getReassociationIndices(),
                        expand.getResultType()))
      return false;
  return !isKernel(fused->getOwner()) && !isKernel(producer);
}

/// A transpose of an f32 constant (a weight laid out for a matmul) folded
/// into the transposed constant from the raw floats (ConstantView).
/// Linalg's generic constant folder, kept for the other element types,
/// goes through an APFloat per element: 0.24 s of ResNet-50's compile for
/// its three transposed classifier and projection weights (3.3 M floats).
struct FoldConstantTranspose : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() ||
        !matchPattern(op.getInput(), m_Constant()))
      return failure();
    graphopt::ConstantView folded =
        graphopt::ConstantView::of(op->getResult(0));
    if (!folded)
      return failure();
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, folded.toAttr());
    return success();
  }
};

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
    patterns.add<FoldConstantTranspose>(ctx, /*benefit=*/2);
    linalg::populateConstantFoldLinalgOperations(patterns, shouldFuse);
    if (failed(graphopt::applyPatternsOnly(
            getOperation(), std::move(patterns),
            GreedyRewriteConfig().setUseTopDownTraversal())))
      signalPassFailure();
  }
};

} // namespace
