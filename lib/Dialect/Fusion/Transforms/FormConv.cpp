//===- FormConv.cpp - fusion-form-conv ------------------------------------===//
//
// conv2d [+ batch_norm with constant statistics] [+ bias add] [+ activation]
// -> fusion.conv2d. The batch norm is folded into the weight and bias at
// compile time:
//   scale[f] = gamma[f] / sqrt(var[f] + eps)
//   W'[f]    = W[f] * scale[f]
//   b'[f]    = (b[f] - mean[f]) * scale[f] + beta[f]
// which needs the convolution's weight (and bias) to be f32 constants.
// C++ rather than DRR/PDLL: the fold computes new constants.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Dialect/Fusion/IR/FusionOps.h"
#include "graphopt/Dialect/Fusion/Transforms/Passes.h"
#include "graphopt/Dialect/Graph/IR/GraphOps.h"
#include "graphopt/Dialect/Graph/IR/HeapConstants.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace mlir::graphopt::fusion {
#define GEN_PASS_DEF_FUSIONFORMCONVPASS
#include "graphopt/Dialect/Fusion/Transforms/Passes.h.inc"
} // namespace mlir::graphopt::fusion

using namespace mlir;
using namespace mlir::graphopt;
using namespace mlir::graphopt::fusion;

namespace {

/// The f32 values of a constant tensor, or nothing.
/// (A weight may be a constant kept out of the context: HeapConstants.h.)
std::optional<std::vector<float>> constantValues(Value v) {
  Attribute attr;
  std::vector<float> splat;
  if (!matchPattern(v, m_Constant(&attr)))
    return std::nullopt;
  std::optional<ArrayRef<float>> values = f32ConstantValues(attr, splat);
  if (!values)
    return std::nullopt;
  return std::vector<float>(values->begin(), values->end());
}

/// (Large ones are heap constants: HeapConstants.h.)
Value f32Constant(PatternRewriter &b, Location loc, ArrayRef<int64_t> shape,
                  ArrayRef<float> values) {
  auto type = RankedTensorType::get(shape, b.getF32Type());
  return graph::ConstantOp::create(
      b, loc, type, makeHeapConstant(type, [&](float *out) {
        std::copy(values.begin(), values.end(), out);
      }));
}

/// A graph.conv2d or a plain fusion.conv2d: its operands and attributes.
struct ConvParts {
  Operation *op;
  Value input, weight, bias;
  DenseI64ArrayAttr strides, padding, dilations;
  IntegerAttr groups;
};

std::optional<ConvParts> matchConv(Value v) {
  if (auto c = v.getDefiningOp<graph::Conv2DOp>())
    return ConvParts{c, c.getInput(), c.getWeight(), c.getBias(),
                     c.getStridesAttr(), c.getPaddingAttr(),
                     c.getDilationsAttr(), c.getGroupsAttr()};
  if (auto c = v.getDefiningOp<Conv2DOp>())
    if (c.getActivation() == Activation::None)
      return ConvParts{c, c.getInput(), c.getWeight(), c.getBias(),
                       c.getStridesAttr(), c.getPaddingAttr(),
                       c.getDilationsAttr(), c.getGroupsAttr()};
  return std::nullopt;
}

Value createConv(PatternRewriter &b, Location loc, Type type,
                 const ConvParts &c, Value weight, Value bias) {
  return Conv2DOp::create(b, loc, type, c.input, weight, bias, c.strides,
                          c.padding, c.dilations, c.groups,
                          ActivationAttr::get(b.getContext(), Activation::None));
}

/// batch_norm(conv(x, W, b)) with constant W, b and statistics.
struct FoldBatchNorm : OpRewritePattern<graph::BatchNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(graph::BatchNormOp bn,
                                PatternRewriter &b) const override {
    auto conv = matchConv(bn.getInput());
    if (!conv || !conv->op->hasOneUse())
      return b.notifyMatchFailure(bn, "input is not a single-use conv");
    // The weight is read in place (it may be a model's whole weight).
    Attribute wAttr;
    std::vector<float> wSplat;
    std::optional<ArrayRef<float>> w;
    if (matchPattern(conv->weight, m_Constant(&wAttr)))
      w = f32ConstantValues(wAttr, wSplat);
    auto mean = constantValues(bn.getMean()), var = constantValues(bn.getVariance()),
         gamma = constantValues(bn.getWeight()), beta = constantValues(bn.getBias());
    if (!w || !mean || !var || !gamma || !beta)
      return b.notifyMatchFailure(bn, "weight or statistics not f32 constants");
    int64_t f = mean->size();
    std::vector<float> bias(f, 0.f);
    if (conv->bias) {
      auto cb = constantValues(conv->bias);
      if (!cb)
        return b.notifyMatchFailure(bn, "conv bias is not constant");
      bias = *cb;
    }
    auto wType = cast<RankedTensorType>(conv->weight.getType());
    if ((int64_t)w->size() % f != 0)
      return failure();
    int64_t perFilter = w->size() / f;
    double eps = bn.getEpsilon().convertToDouble();
    std::vector<double> scales(f);
    std::vector<float> newB(f);
    for (int64_t i = 0; i < f; ++i) {
      scales[i] = double((*gamma)[i]) / std::sqrt(double((*var)[i]) + eps);
      newB[i] = float((double(bias[i]) - (*mean)[i]) * scales[i] + (*beta)[i]);
    }
    Location loc = bn.getLoc();
    // A folded weight as large as the original is a heap constant, freed
    // once code generation has packed it (graph-release-heap-constants).
    Value nw = graph::ConstantOp::create(
        b, loc, wType, makeHeapConstant(wType, [&](float *out) {
          for (int64_t i = 0; i < f; ++i)
            for (int64_t j = 0; j < perFilter; ++j)
              out[i * perFilter + j] =
                  float((*w)[i * perFilter + j] * scales[i]);
        }));
    Value nb = f32Constant(b, loc, {f}, newB);
    b.replaceOp(bn, createConv(b, FusedLoc::get(getContext(),
                                                {conv->op->getLoc(), loc}),
                               bn.getType(), *conv, nw, nb));
    return success();
  }
};

/// add(conv(x, W[, b]), c) with c a constant [F], [F,1,1] or [1,F,1,1].
struct FoldBiasAdd : OpRewritePattern<graph::AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(graph::AddOp add,
                                PatternRewriter &b) const override {
    Value convValue = add.getLhs(), other = add.getRhs();
    auto conv = matchConv(convValue);
    if (!conv) {
      std::swap(convValue, other);
      conv = matchConv(convValue);
    }
    if (!conv || !conv->op->hasOneUse() || add.getType() != convValue.getType())
      return b.notifyMatchFailure(add, "no single-use conv operand");
    auto c = constantValues(other);
    auto ct = cast<RankedTensorType>(other.getType());
    auto yt = cast<RankedTensorType>(convValue.getType());
    int64_t f = yt.getDimSize(1);
    if (!c || ShapedType::isDynamic(f) || (int64_t)c->size() != f)
      return b.notifyMatchFailure(add, "not a constant per-channel bias");
    // The channel must line up with dim 1 of the NCHW result.
    ArrayRef<int64_t> s = ct.getShape();
    bool perChannel = (s.size() == 3 && s[1] == 1 && s[2] == 1) ||
                      (s.size() == 4 && s[0] == 1 && s[2] == 1 && s[3] == 1);
    if (!perChannel)
      return b.notifyMatchFailure(add, "bias does not broadcast per channel");
    std::vector<float> bias(*c);
    if (conv->bias) {
      auto cb = constantValues(conv->bias);
      if (!cb)
        return failure();
      for (int64_t i = 0; i < f; ++i)
        bias[i] += (*cb)[i];
    }
    Value nb = f32Constant(b, add.getLoc(), {f}, bias);
    b.replaceOp(add, createConv(b, conv->op->getLoc(), add.getType(), *conv,
                                conv->weight, nb));
    return success();
  }
};

/// activation(conv) -> fusion.conv2d with the activation.
template <typename ActOp>
struct AbsorbActivation : OpRewritePattern<ActOp> {
  using OpRewritePattern<ActOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(ActOp act,
                                PatternRewriter &b) const override {
    auto conv = matchConv(act.getInput());
    if (!conv || !conv->op->hasOneUse() ||
        act.getType() != act.getInput().getType())
      return b.notifyMatchFailure(act, "no plain single-use conv");
    Activation k = *getAbsorbableActivation(act);
    auto op = Conv2DOp::create(b, conv->op->getLoc(), act.getType(),
                               conv->input, conv->weight, conv->bias,
                               conv->strides, conv->padding, conv->dilations,
                               conv->groups,
                               ActivationAttr::get(b.getContext(), k));
    b.replaceOp(act, op.getResult());
    return success();
  }
};

struct FusionFormConvPass
    : mlir::graphopt::fusion::impl::FusionFormConvPassBase<FusionFormConvPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateFormConvPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    getOperation()->walk([&](Conv2DOp) { ++numFormed; });
  }
};

} // namespace

void mlir::graphopt::fusion::populateFormConvPatterns(
    RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<FoldBatchNorm, FoldBiasAdd>(ctx, /*benefit=*/2);
  patterns.add<AbsorbActivation<graph::ReluOp>>(ctx);
  patterns.add<AbsorbActivation<graph::GeluOp>>(ctx);
  patterns.add<AbsorbActivation<graph::SiluOp>>(ctx);
  patterns.add<AbsorbActivation<graph::SigmoidOp>>(ctx);
  patterns.add<AbsorbActivation<graph::TanhOp>>(ctx);
}
