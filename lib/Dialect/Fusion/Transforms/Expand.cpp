//===- Expand.cpp - fusion-expand -----------------------------------------===//
//
// The definitions of the fused kernels, as graph ops. The CPU pipeline runs
// this first, so every fusion op compiles and computes what its
// specification says; fused code generation for a kernel replaces its
// expansion without changing its meaning.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Dialect/Fusion/IR/FusionOps.h"
#include "graphopt/Dialect/Fusion/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

#include <cmath>

namespace mlir::graphopt::fusion {
#define GEN_PASS_DEF_FUSIONEXPANDPASS
#include "graphopt/Dialect/Fusion/Transforms/Passes.h.inc"
} // namespace mlir::graphopt::fusion

using namespace mlir;
using namespace mlir::graphopt;
using namespace mlir::graphopt::fusion;

namespace {

RankedTensorType tensorOf(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// The graph op computing `activation` of `x`.
Value applyActivation(OpBuilder &b, Location loc, Activation activation,
                      Value x) {
  Type t = x.getType();
  switch (activation) {
  case Activation::None:
    return x;
  case Activation::Relu:
    return graph::ReluOp::create(b, loc, t, x);
  case Activation::Gelu:
    return graph::GeluOp::create(b, loc, t, x, graph::GeluApproximation::None);
  case Activation::GeluTanh:
    return graph::GeluOp::create(b, loc, t, x, graph::GeluApproximation::Tanh);
  case Activation::Silu:
    return graph::SiluOp::create(b, loc, t, x);
  case Activation::Sigmoid:
    return graph::SigmoidOp::create(b, loc, t, x);
  case Activation::Tanh:
    return graph::TanhOp::create(b, loc, t, x);
  }
  llvm_unreachable("unknown activation");
}

struct ExpandLinear : OpRewritePattern<LinearOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LinearOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value w = op.getWeight();
    if (op.getTransposeWeight()) {
      auto wt = tensorOf(w);
      w = graph::TransposeOp::create(
          rewriter, loc,
          RankedTensorType::get({wt.getDimSize(1), wt.getDimSize(0)},
                                wt.getElementType()),
          w, ArrayRef<int64_t>{1, 0});
    }
    Value y =
        graph::MatMulOp::create(rewriter, loc, op.getType(), op.getInput(), w);
    if (Value bias = op.getBias())
      y = graph::AddOp::create(rewriter, loc, op.getType(), y, bias);
    rewriter.replaceOp(op,
                       applyActivation(rewriter, loc, op.getActivation(), y));
    return success();
  }
};

struct ExpandConv2D : OpRewritePattern<Conv2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Conv2DOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value y = graph::Conv2DOp::create(
        rewriter, loc, op.getType(), op.getInput(), op.getWeight(),
        op.getBias(), op.getStridesAttr(), op.getPaddingAttr(),
        op.getDilationsAttr(), op.getGroupsAttr());
    rewriter.replaceOp(op,
                       applyActivation(rewriter, loc, op.getActivation(), y));
    return success();
  }
};

struct ExpandAttention : OpRewritePattern<AttentionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AttentionOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    auto q = tensorOf(op.getQuery()), k = tensorOf(op.getKey());
    Type et = q.getElementType();
    // k^T over the last two dims.
    SmallVector<int64_t> perm =
        llvm::to_vector(llvm::seq<int64_t>(0, k.getRank()));
    std::swap(perm[k.getRank() - 1], perm[k.getRank() - 2]);
    SmallVector<int64_t> ktShape;
    for (int64_t p : perm)
      ktShape.push_back(k.getDimSize(p));
    Value kt = graph::TransposeOp::create(
        b, loc, RankedTensorType::get(ktShape, et), op.getKey(), perm);
    auto inferMatmul = [&](Value l, Value r) {
      SmallVector<Type> types;
      (void)graph::MatMulOp::inferReturnTypes(
          b.getContext(), loc, graph::MatMulOp::Adaptor(ValueRange{l, r}),
          types);
      return graph::MatMulOp::create(b, loc, types[0], l, r).getResult();
    };
    Value scores = inferMatmul(op.getQuery(), kt);
    auto st = tensorOf(scores);
    double scale = op.getScale() ? op.getScale()->convertToDouble()
                                 : 1.0 / std::sqrt((double)q.getShape().back());
    if (op.getScale() == std::nullopt &&
        ShapedType::isDynamic(q.getShape().back()))
      return rewriter.notifyMatchFailure(op, "default scale needs a static D");
    auto scalarType = RankedTensorType::get({}, et);
    Value s = graph::ConstantOp::create(
        b, loc, scalarType,
        DenseElementsAttr::get(scalarType,
                               b.getFloatAttr(et, scale).getValue()));
    scores = graph::MulOp::create(b, loc, st, scores, s);
    Value negInf = graph::ConstantOp::create(
        b, loc, scalarType,
        DenseElementsAttr::get(
            scalarType,
            APFloat::getInf(cast<FloatType>(et).getFloatSemantics(), true)));
    if (Value mask = op.getMask()) {
      if (tensorOf(mask).getElementType().isInteger(1))
        scores = graph::SelectOp::create(b, loc, st, mask, scores, negInf);
      else
        scores = graph::AddOp::create(b, loc, st, scores, mask);
    }
    if (op.getCausal()) {
      int64_t l = st.getDimSize(st.getRank() - 2), n = st.getShape().back();
      if (ShapedType::isDynamic(l) || ShapedType::isDynamic(n))
        return rewriter.notifyMatchFailure(op, "causal needs static L and S");
      auto maskType = RankedTensorType::get({l, n}, b.getI1Type());
      SmallVector<bool> keep;
      for (int64_t i = 0; i < l; ++i)
        for (int64_t j = 0; j < n; ++j)
          keep.push_back(j <= i);
      Value causal = graph::ConstantOp::create(
          b, loc, maskType, DenseElementsAttr::get(maskType, keep));
      scores = graph::SelectOp::create(b, loc, st, causal, scores, negInf);
    }
    Value p = graph::SoftmaxOp::create(b, loc, st, scores, st.getRank() - 1);
    Value out = inferMatmul(p, op.getValue());
    if (out.getType() != op.getType())
      out = graph::ReshapeOp::create(
          b, loc, op.getType(), out,
          llvm::to_vector(cast<RankedTensorType>(op.getType()).getShape()));
    rewriter.replaceOp(op, out);
    return success();
  }
};

struct InlineGroup : OpRewritePattern<GroupOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GroupOp op,
                                PatternRewriter &rewriter) const override {
    Block &body = op.getBody().front();
    auto yield = cast<YieldOp>(body.getTerminator());
    SmallVector<Value> results(yield.getValues());
    rewriter.inlineBlockBefore(&body, op, op.getInputs());
    rewriter.eraseOp(yield);
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct FusionExpandPass
    : public mlir::graphopt::fusion::impl::FusionExpandPassBase<
          FusionExpandPass> {
  using Base::Base;
  void runOnOperation() override {
    ConversionTarget target(getContext());
    target.addIllegalDialect<FusionDialect>();
    if (!inlineGroups)
      target.addLegalOp<GroupOp, YieldOp>();
    // External kernels have no graph expansion: they are lowered to calls.
    target.addLegalOp<CustomCallOp>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    RewritePatternSet patterns(&getContext());
    populateExpandFusionPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::graphopt::fusion::populateExpandFusionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ExpandLinear, ExpandConv2D, ExpandAttention, InlineGroup>(
      patterns.getContext());
}
