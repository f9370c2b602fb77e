//===- FormAttention.cpp - fusion-form-attention --------------------------===//
//
// A C++ pattern: the match walks a chain with optional links (scaling, two
// mask forms) and checks permutations, axes and splat values, which DRR
// would need one pattern per combination for.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Dialect/Fusion/IR/FusionOps.h"
#include "graphopt/Dialect/Fusion/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::graphopt::fusion {
#define GEN_PASS_DEF_FUSIONFORMATTENTIONPASS
#include "graphopt/Dialect/Fusion/Transforms/Passes.h.inc"
} // namespace mlir::graphopt::fusion

using namespace mlir;
using namespace mlir::graphopt;
using namespace mlir::graphopt::fusion;

namespace {

/// The value of a splat float constant, if `v` is one.
std::optional<double> splatValue(Value v) {
  DenseElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.isSplat() ||
      !isa<FloatType>(attr.getElementType()))
    return std::nullopt;
  return attr.getSplatValue<APFloat>().convertToDouble();
}

bool singleUse(Value v) { return v.hasOneUse(); }

struct SoftmaxMatMulToAttention : OpRewritePattern<graph::MatMulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(graph::MatMulOp out,
                                PatternRewriter &rewriter) const override {
    auto softmax = out.getLhs().getDefiningOp<graph::SoftmaxOp>();
    if (!softmax || !singleUse(softmax.getResult()))
      return rewriter.notifyMatchFailure(out,
                                         "lhs is not a single-use softmax");
    auto st = cast<RankedTensorType>(softmax.getType());
    if ((int64_t)softmax.getAxis() != st.getRank() - 1 || st.getRank() < 2)
      return rewriter.notifyMatchFailure(out,
                                         "softmax is not on the last axis");

    Value scores = softmax.getInput();
    // Optional mask.
    Value mask;
    if (auto add = scores.getDefiningOp<graph::AddOp>()) {
      if (!singleUse(scores))
        return failure();
      mask = add.getRhs();
      scores = add.getLhs();
    } else if (auto sel = scores.getDefiningOp<graph::SelectOp>()) {
      std::optional<double> fill = splatValue(sel.getOnFalse());
      if (!singleUse(scores) || !fill || !std::isinf(*fill) || *fill > 0)
        return rewriter.notifyMatchFailure(out, "select is not a -inf mask");
      mask = sel.getCondition();
      scores = sel.getOnTrue();
    }
    // Optional scaling by a splat constant.
    double scale = 1.0;
    if (auto mul = scores.getDefiningOp<graph::MulOp>()) {
      std::optional<double> c = splatValue(mul.getRhs());
      if (!c || !singleUse(scores))
        return rewriter.notifyMatchFailure(out, "scaling is not by a splat");
      scale = *c;
      scores = mul.getLhs();
    } else if (auto div = scores.getDefiningOp<graph::DivOp>()) {
      std::optional<double> c = splatValue(div.getRhs());
      if (!c || *c == 0 || !singleUse(scores))
        return rewriter.notifyMatchFailure(out, "scaling is not by a splat");
      scale = 1.0 / *c;
      scores = div.getLhs();
    }
    if (!(scale > 0))
      return rewriter.notifyMatchFailure(out, "non-positive scale");
    auto qk = scores.getDefiningOp<graph::MatMulOp>();
    if (!qk || !singleUse(scores))
      return rewriter.notifyMatchFailure(out,
                                         "scores are not a single-use matmul");
    auto kt = qk.getRhs().getDefiningOp<graph::TransposeOp>();
    if (!kt || !singleUse(qk.getRhs()))
      return rewriter.notifyMatchFailure(out, "no single-use transpose of k");
    ArrayRef<int64_t> perm = kt.getPermutation();
    int64_t r = perm.size();
    if (r < 2 || perm[r - 1] != r - 2 || perm[r - 2] != r - 1)
      return rewriter.notifyMatchFailure(
          out, "transpose does not swap the last two dims");
    for (int64_t i = 0; i < r - 2; ++i)
      if (perm[i] != i)
        return rewriter.notifyMatchFailure(out, "transpose moves batch dims");

    FloatAttr scaleAttr = rewriter.getF64FloatAttr(scale);
    auto attention = AttentionOp::create(
        rewriter, out.getLoc(), out.getType(), qk.getLhs(), kt.getInput(),
        out.getRhs(), mask, UnitAttr(), scaleAttr);
    SmallVector<RankedTensorType> inferred;
    if (failed(graph::inferResultTypes(attention, inferred)) ||
        !graph::areCompatibleTensorTypes(inferred[0], out.getType())) {
      rewriter.eraseOp(attention);
      return rewriter.notifyMatchFailure(out, "operands do not form attention");
    }
    rewriter.replaceOp(out, attention.getResult());
    return success();
  }
};

/// graph.scaled_dot_product_attention has fusion.attention's semantics
/// (docs/Dialects/Graph.md and Fusion.md): the same operands, a mask that is
/// i1 (keep) or additive, a scale defaulting to 1/sqrt(E), and top-left
/// aligned causal masking. fusion.attention requires a positive scale (C8).
struct SdpaToAttention : OpRewritePattern<graph::ScaledDotProductAttentionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(graph::ScaledDotProductAttentionOp op,
                                PatternRewriter &rewriter) const override {
    if (std::optional<APFloat> scale = op.getScale();
        scale && !(scale->convertToDouble() > 0))
      return rewriter.notifyMatchFailure(op, "non-positive scale");
    auto attention = AttentionOp::create(
        rewriter, op.getLoc(), op.getType(), op.getQuery(), op.getKey(),
        op.getValue(), op.getMask(),
        op.getIsCausal() ? rewriter.getUnitAttr() : UnitAttr(),
        op.getScaleAttr());
    SmallVector<RankedTensorType> inferred;
    if (failed(graph::inferResultTypes(attention, inferred)) ||
        !graph::areCompatibleTensorTypes(inferred[0], op.getType())) {
      rewriter.eraseOp(attention);
      return rewriter.notifyMatchFailure(op, "operands do not form attention");
    }
    rewriter.replaceOp(op, attention.getResult());
    return success();
  }
};

struct FusionFormAttentionPass
    : public mlir::graphopt::fusion::impl::FusionFormAttentionPassBase<
          FusionFormAttentionPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateFormAttentionPatterns(patterns);
    int64_t before = 0, after = 0;
    getOperation()->walk([&](AttentionOp) { ++before; });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    getOperation()->walk([&](AttentionOp) { ++after; });
    numFormed += after - before;
  }
};

} // namespace

void mlir::graphopt::fusion::populateFormAttentionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<SoftmaxMatMulToAttention, SdpaToAttention>(
      patterns.getContext());
}
