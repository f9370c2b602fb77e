//===- Decompose.cpp - composite graph ops to simpler graph ops -----------===//
//
// Each composite op is defined by a small graph of primitive ops; these
// patterns build that graph. They keep the op's location, so diagnostics
// and fusion reports still point at the user's code.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Dialect/Graph/IR/GraphOps.h"
#include "graphopt/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace mlir::graphopt::graph {
#define GEN_PASS_DEF_GRAPHDECOMPOSEPASS
#include "graphopt/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::graphopt::graph

using namespace mlir;
using namespace mlir::graphopt::graph;

namespace {

RankedTensorType tensorOf(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// A rank-0 constant of element type `t`.
Value scalar(PatternRewriter &b, Location loc, Type t, double v) {
  auto type = RankedTensorType::get({}, t);
  Attribute a = isa<FloatType>(t)
                    ? Attribute(b.getFloatAttr(t, v))
                    : Attribute(b.getIntegerAttr(t, (int64_t)v));
  return ConstantOp::create(b, loc, type, DenseElementsAttr::get(type, a));
}

/// (x - mean) * (weight * rsqrt(var + eps)) + bias, with the per-channel
/// terms reshaped to [C, 1, ..., 1] so they broadcast along axis 1.
struct DecomposeBatchNorm : OpRewritePattern<BatchNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BatchNormOp op,
                                PatternRewriter &b) const override {
    Location loc = op.getLoc();
    RankedTensorType x = tensorOf(op.getInput());
    Type et = x.getElementType();
    Value eps = scalar(b, loc, et, op.getEpsilon().convertToDouble());
    Value inv = RsqrtOp::create(
        b, loc, AddOp::create(b, loc, op.getVariance(), eps));
    Value scale = MulOp::create(b, loc, op.getWeight(), inv);
    Value shift = SubOp::create(b, loc, op.getBias(),
                                MulOp::create(b, loc, op.getMean(), scale));
    SmallVector<int64_t> shape(x.getRank() - 1, 1);
    shape[0] = -1;
    Value s = ReshapeOp::create(b, loc, scale, shape);
    Value t = ReshapeOp::create(b, loc, shift, shape);
    Value y = AddOp::create(b, loc, MulOp::create(b, loc, op.getInput(), s), t);
    b.replaceOp(op, y);
    return success();
  }
};

/// mean and biased variance over the trailing dims, then scale and shift.
struct DecomposeLayerNorm : OpRewritePattern<LayerNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LayerNormOp op,
                                PatternRewriter &b) const override {
    Location loc = op.getLoc();
    RankedTensorType x = tensorOf(op.getInput());
    int64_t k = tensorOf(op.getWeight()).getRank();
    SmallVector<int64_t> axes;
    for (int64_t d = x.getRank() - k; d < x.getRank(); ++d)
      axes.push_back(d);
    Value mean = ReduceOp::create(b, loc, ReduceKind::Mean, op.getInput(), axes,
                                  /*keepdims=*/true);
    Value xc = SubOp::create(b, loc, op.getInput(), mean);
    Value var = ReduceOp::create(b, loc, ReduceKind::Mean,
                                 MulOp::create(b, loc, xc, xc), axes,
                                 /*keepdims=*/true);
    Value eps = scalar(b, loc, x.getElementType(),
                       op.getEpsilon().convertToDouble());
    Value inv = RsqrtOp::create(b, loc, AddOp::create(b, loc, var, eps));
    Value y = MulOp::create(b, loc, MulOp::create(b, loc, xc, inv),
                            op.getWeight());
    b.replaceOp(op, AddOp::create(b, loc, y, op.getBias()).getResult());
    return success();
  }
};

/// softmax(q k^T * scale + mask) v.
struct DecomposeAttention : OpRewritePattern<ScaledDotProductAttentionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ScaledDotProductAttentionOp op,
                                PatternRewriter &b) const override {
    Location loc = op.getLoc();
    RankedTensorType q = tensorOf(op.getQuery()), k = tensorOf(op.getKey());
    Type et = q.getElementType();
    int64_t rk = k.getRank();
    if (ShapedType::isDynamic(q.getShape().back()) && !op.getScale())
      return b.notifyMatchFailure(op, "dynamic embedding dim needs a scale");
    SmallVector<int64_t> perm;
    for (int64_t d = 0; d < rk; ++d)
      perm.push_back(d);
    std::swap(perm[rk - 1], perm[rk - 2]);
    Value kt = TransposeOp::create(b, loc, op.getKey(), perm);
    Value s = MatMulOp::create(b, loc, op.getQuery(), kt);
    double scale = op.getScale() ? op.getScale()->convertToDouble()
                                 : 1.0 / std::sqrt((double)q.getShape().back());
    s = MulOp::create(b, loc, s, scalar(b, loc, et, scale));
    Value negInf = scalar(b, loc, et, -INFINITY);
    if (Value m = op.getMask()) {
      if (tensorOf(m).getElementType().isInteger(1))
        s = SelectOp::create(b, loc, m, s, negInf);
      else
        s = AddOp::create(b, loc, s, m);
    }
    if (op.getIsCausal()) {
      int64_t l = q.getShape()[q.getRank() - 2], n = k.getShape()[rk - 2];
      auto mt = RankedTensorType::get({l, n}, b.getI1Type());
      SmallVector<bool> keep(l * n);
      for (int64_t i = 0; i < l; ++i)
        for (int64_t j = 0; j < n; ++j)
          keep[i * n + j] = j <= i;
      Value mask = ConstantOp::create(b, loc, mt,
                                      DenseElementsAttr::get(mt, keep));
      s = SelectOp::create(b, loc, mask, s, negInf);
    }
    auto st = tensorOf(s);
    Value p = SoftmaxOp::create(b, loc, s, st.getRank() - 1);
    b.replaceOp(op, MatMulOp::create(b, loc, p, op.getValue()).getResult());
    return success();
  }
};

/// One graph.slice per piece.
struct DecomposeSplit : OpRewritePattern<SplitOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SplitOp op, PatternRewriter &b) const override {
    RankedTensorType t = tensorOf(op.getInput());
    int64_t axis = op.getAxis();
    // Slice limits of a dynamic dim other than `axis` are unknown statically.
    for (int64_t d = 0; d < t.getRank(); ++d)
      if (d != axis && t.isDynamicDim(d))
        return b.notifyMatchFailure(op, "dynamic non-split dim");
    SmallVector<Value> pieces;
    int64_t offset = 0;
    for (int64_t size : op.getSizes()) {
      SmallVector<int64_t> start(t.getRank(), 0), limit(t.getShape()),
          step(t.getRank(), 1);
      start[axis] = offset;
      limit[axis] = offset + size;
      pieces.push_back(
          SliceOp::create(b, op.getLoc(), op.getInput(), start, limit, step));
      offset += size;
    }
    b.replaceOp(op, pieces);
    return success();
  }
};

/// Global pooling is a mean; evenly dividing windows an avg_pool2d; any
/// other size two matmuls with constant averaging matrices:
/// out = P x Q^T, P[i, h] = 1/len_i for h in window i.
struct DecomposeAdaptiveAvgPool : OpRewritePattern<AdaptiveAvgPool2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AdaptiveAvgPool2DOp op,
                                PatternRewriter &b) const override {
    Location loc = op.getLoc();
    RankedTensorType t = tensorOf(op.getInput());
    ArrayRef<int64_t> out = op.getOutputSize();
    if (out[0] == 1 && out[1] == 1) {
      b.replaceOp(op, ReduceOp::create(b, loc, ReduceKind::Mean, op.getInput(),
                                       ArrayRef<int64_t>{2, 3}, true)
                          .getResult());
      return success();
    }
    int64_t h = t.getDimSize(2), w = t.getDimSize(3);
    if (ShapedType::isDynamic(h) || ShapedType::isDynamic(w))
      return failure();
    if (h % out[0] == 0 && w % out[1] == 0) {
      SmallVector<int64_t> kernel = {h / out[0], w / out[1]};
      auto pool = AvgPool2DOp::create(
          b, loc, op.getInput(), b.getDenseI64ArrayAttr(kernel),
          b.getDenseI64ArrayAttr(kernel), b.getDenseI64ArrayAttr({0, 0, 0, 0}),
          /*ceil_mode=*/false, /*count_include_pad=*/true);
      b.replaceOp(op, pool.getResult());
      return success();
    }
    Type et = t.getElementType();
    auto matrix = [&](int64_t o, int64_t n, bool transposed) {
      SmallVector<float> m(o * n, 0.f);
      for (int64_t i = 0; i < o; ++i) {
        int64_t start = (i * n) / o, end = ((i + 1) * n + o - 1) / o;
        for (int64_t j = start; j < end; ++j)
          m[transposed ? j * o + i : i * n + j] = 1.f / float(end - start);
      }
      auto type = transposed ? RankedTensorType::get({n, o}, b.getF32Type())
                             : RankedTensorType::get({o, n}, b.getF32Type());
      Value c = ConstantOp::create(
          b, loc, type, DenseElementsAttr::get(type, ArrayRef<float>(m)));
      if (!et.isF32())
        c = CastOp::create(b, loc, c, et);
      return c;
    };
    Value rows = MatMulOp::create(b, loc, matrix(out[0], h, false),
                                  op.getInput());
    Value y = MatMulOp::create(b, loc, rows, matrix(out[1], w, true));
    b.replaceOp(op, y);
    return success();
  }
};

struct GraphDecomposePass
    : mlir::graphopt::graph::impl::GraphDecomposePassBase<GraphDecomposePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateGraphDecompositionPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::graphopt::graph::populateGraphDecompositionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeBatchNorm, DecomposeLayerNorm, DecomposeAttention,
               DecomposeSplit, DecomposeAdaptiveAvgPool>(
      patterns.getContext());
}
