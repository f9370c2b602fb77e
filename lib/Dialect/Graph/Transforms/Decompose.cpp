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

#include <algorithm>
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

/// The composites below are defined in f32 for f16 and bf16 operands, as
/// the dialect computes every f16/bf16 op (docs/Dialects/Graph.md,
/// "Numerics"): their operands are cast to f32 here and the result rounded
/// once, so the decomposition's intermediates (mean, variance, the folded
/// scale) are not rounded to 16 bits.
bool isHalfWidth(Type t) { return t.isF16() || t.isBF16(); }

Value toF32(PatternRewriter &b, Location loc, Value v) {
  if (!isHalfWidth(tensorOf(v).getElementType()))
    return v;
  return CastOp::create(b, loc, v, b.getF32Type());
}

/// `y` (computed in f32 for a half-width `et`) rounded back to `et`.
Value fromF32(PatternRewriter &b, Location loc, Value y, Type et) {
  if (!isHalfWidth(et))
    return y;
  return CastOp::create(b, loc, y, et);
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
    Value input = toF32(b, loc, op.getInput());
    Value eps = scalar(b, loc, tensorOf(input).getElementType(),
                       op.getEpsilon().convertToDouble());
    Value inv = RsqrtOp::create(
        b, loc, AddOp::create(b, loc, toF32(b, loc, op.getVariance()), eps));
    Value scale = MulOp::create(b, loc, toF32(b, loc, op.getWeight()), inv);
    Value shift = SubOp::create(
        b, loc, toF32(b, loc, op.getBias()),
        MulOp::create(b, loc, toF32(b, loc, op.getMean()), scale));
    SmallVector<int64_t> shape(x.getRank() - 1, 1);
    shape[0] = -1;
    Value s = ReshapeOp::create(b, loc, scale, shape);
    Value t = ReshapeOp::create(b, loc, shift, shape);
    Value y = AddOp::create(b, loc, MulOp::create(b, loc, input, s), t);
    b.replaceOp(op, fromF32(b, loc, y, et));
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
    Value input = toF32(b, loc, op.getInput());
    Value mean = ReduceOp::create(b, loc, ReduceKind::Mean, input, axes,
                                  /*keepdims=*/true);
    Value xc = SubOp::create(b, loc, input, mean);
    Value var = ReduceOp::create(b, loc, ReduceKind::Mean,
                                 MulOp::create(b, loc, xc, xc), axes,
                                 /*keepdims=*/true);
    Value eps = scalar(b, loc, tensorOf(input).getElementType(),
                       op.getEpsilon().convertToDouble());
    Value inv = RsqrtOp::create(b, loc, AddOp::create(b, loc, var, eps));
    Value y = MulOp::create(b, loc, MulOp::create(b, loc, xc, inv),
                            toF32(b, loc, op.getWeight()));
    y = AddOp::create(b, loc, y, toF32(b, loc, op.getBias()));
    b.replaceOp(op, fromF32(b, loc, y, x.getElementType()));
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

/// One resized dim of graph.resize: for output index o, `n` input indices
/// idx[o * n + t] (clamped into the dim) with weights w[o * n + t], plus
/// extra[o] (the extrapolation value where tf_crop_and_resize maps o
/// outside the input). ONNX's reference (onnx.reference's Resize, separable
/// form) is followed step by step: the coordinate, the ratio in (0, 1], the
/// coefficients, the window of the n nearest indices (ties to the smaller),
/// exclude_outside, clamping.
struct ResizeTaps {
  int64_t n = 0;
  SmallVector<int64_t> idx;
  SmallVector<double> w;
  SmallVector<double> extra;
};

static SmallVector<double> resizeCoeffs(ResizeOp op, double ratio,
                                        double scale) {
  StringRef mode = op.getMode();
  if (mode == "nearest") {
    if (ratio == 1.0)
      return {0, 1};
    StringRef nm = op.getNearestMode();
    bool up = nm == "ceil" || (nm == "round_prefer_floor" && ratio > 0.5) ||
              (nm == "round_prefer_ceil" && ratio >= 0.5);
    return {up ? 0.0 : 1.0, up ? 1.0 : 0.0};
  }
  double a = op.getCubicCoeffA().convertToDouble();
  SmallVector<double> c;
  if (!op.getAntialias()) {
    if (mode == "linear")
      return {1 - ratio, ratio};
    double r1 = ratio + 1, q = 1 - ratio, q1 = q + 1;
    return {((a * r1 - 5 * a) * r1 + 8 * a) * r1 - 4 * a,
            ((a + 2) * ratio - (a + 3)) * ratio * ratio + 1,
            ((a + 2) * q - (a + 3)) * q * q + 1,
            ((a * q1 - 5 * a) * q1 + 8 * a) * q1 - 4 * a};
  }
  // Antialias: the filter widened by 1 / scale when downsampling.
  double s = std::min(scale, 1.0), sum = 0;
  if (mode == "linear") {
    int64_t start = static_cast<int64_t>(std::floor(-1 / s)) + 1;
    for (int64_t i = start; i < start + 2 - 2 * start; ++i)
      c.push_back(std::clamp(1 - std::fabs((i - ratio) * s), 0.0, 1.0));
  } else {
    int64_t start = static_cast<int64_t>(std::floor(-2 / s)) + 1;
    for (int64_t i = start; i < 2 - start; ++i) {
      double x = std::fabs(s * (i - ratio)), x2 = x * x, x3 = x2 * x;
      c.push_back(x <= 1  ? (a + 2) * x3 - (a + 3) * x2 + 1
                  : x < 2 ? a * x3 - 5 * a * x2 + 8 * a * x - 4 * a
                          : 0.0);
    }
  }
  for (double v : c)
    sum += v;
  for (double &v : c)
    v /= sum;
  return c;
}

static ResizeTaps resizeTaps(ResizeOp op, int64_t dim, int64_t in,
                             int64_t out) {
  StringRef ctm = op.getCoordinateTransformationMode();
  double scale = op.getScales()[dim];
  double width = scale * static_cast<double>(in);
  ResizeTaps taps;
  taps.extra.assign(out, 0.0);
  for (int64_t o = 0; o < out; ++o) {
    double x = static_cast<double>(o), xo;
    bool outside = false;
    if (ctm == "align_corners") {
      xo = width == 1 ? 0.0 : x * (in - 1) / (width - 1);
    } else if (ctm == "asymmetric") {
      xo = x / scale;
    } else if (ctm == "tf_crop_and_resize") {
      ArrayRef<double> roi = *op.getRoi();
      double r0 = roi[dim], r1 = roi[roi.size() / 2 + dim];
      xo = width == 1 ? (r1 - r0) * (in - 1) / 2
                      : x * (r1 - r0) * (in - 1) / (width - 1);
      xo += r0 * (in - 1);
      outside = xo < 0 || xo > in - 1;
    } else if (ctm == "pytorch_half_pixel") {
      xo = width == 1 ? -0.5 : (x + 0.5) / scale - 0.5;
    } else if (ctm == "half_pixel_symmetric") {
      double adjustment = static_cast<double>(out) / width;
      double offset = static_cast<double>(in) / 2 * (1 - adjustment);
      xo = offset + (x + 0.5) / scale - 0.5;
    } else { // half_pixel
      xo = (x + 0.5) / scale - 0.5;
    }
    double floorXo = std::floor(xo);
    double ratio = xo == floorXo ? 1.0 : xo - floorXo;
    SmallVector<double> c = resizeCoeffs(op, ratio, scale);
    int64_t n = c.size();
    if (taps.n == 0) {
      taps.n = n;
      taps.idx.reserve(out * n);
      taps.w.reserve(out * n);
    }
    int64_t pad = (n + 1) / 2;
    double xp = xo + pad, p = std::floor(xp), frac = xp - p;
    int64_t offset;
    if (n % 2 == 0)
      offset = frac == 0 ? -(n / 2) : -(n / 2) + 1;
    else
      offset = frac <= 0.5 ? -((n - 1) / 2) : -((n - 1) / 2) + 1;
    int64_t start = static_cast<int64_t>(p) + offset - pad;
    if (op.getExcludeOutside()) {
      double sum = 0;
      for (int64_t t = 0; t < n; ++t) {
        if (start + t < 0 || start + t >= in)
          c[t] = 0;
        sum += c[t];
      }
      for (double &v : c)
        v /= sum == 0 ? 1.0 : sum;
    }
    for (int64_t t = 0; t < n; ++t) {
      taps.idx.push_back(std::clamp<int64_t>(start + t, 0, in - 1));
      taps.w.push_back(outside ? 0.0 : c[t]);
    }
    if (outside)
      taps.extra[o] = op.getExtrapolationValue().convertToDouble();
  }
  return taps;
}

/// graph.resize, one resized dim at a time: per tap a graph.gather of the
/// dim at constant indices, times a constant weight per output index
/// (broadcast along the other dims), summed. Taps are compacted first (per
/// output index only the nonzero weights), so nearest is one gather and
/// linear upsampling two.
struct DecomposeResize : OpRewritePattern<ResizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ResizeOp op,
                                PatternRewriter &b) const override {
    Location loc = op.getLoc();
    Value x = op.getInput();
    int64_t rank = tensorOf(x).getRank();
    Type et = tensorOf(x).getElementType();
    for (int64_t d = 0; d < rank; ++d) {
      int64_t size = op.getSizes()[d];
      int64_t in = tensorOf(x).getDimSize(d);
      // A kept dim, or one resampled at its own coordinates (ONNX's
      // reference skips these too).
      std::optional<ArrayRef<double>> roi = op.getRoi();
      bool wholeRoi = !roi || ((*roi)[d] == 0.0 && (*roi)[rank + d] == 1.0);
      if (size == -1 ||
          (size == in && std::fabs(op.getScales()[d] - 1) <= 1e-9 && wholeRoi))
        continue;
      ResizeTaps taps = resizeTaps(op, d, in, size);
      // Compact: per output index, the taps of nonzero weight.
      SmallVector<SmallVector<std::pair<int64_t, double>>> live(size);
      int64_t width = 0;
      for (int64_t o = 0; o < size; ++o) {
        for (int64_t t = 0; t < taps.n; ++t)
          if (taps.w[o * taps.n + t] != 0)
            live[o].push_back(
                {taps.idx[o * taps.n + t], taps.w[o * taps.n + t]});
        width = std::max<int64_t>(width, live[o].size());
      }
      SmallVector<int64_t> bshape(rank, 1);
      bshape[d] = size;
      auto constantOf = [&](ArrayRef<float> values) -> Value {
        auto type = RankedTensorType::get(bshape, b.getF32Type());
        Value c = ConstantOp::create(b, loc, type,
                                     DenseElementsAttr::get(type, values));
        if (!et.isF32())
          c = CastOp::create(b, loc, c, et);
        return c;
      };
      // At least one tap: where every output index is extrapolated (no
      // live tap), a gather of index 0 times weight 0 gives the zeros the
      // extrapolation values are added to.
      Value sum;
      for (int64_t t = 0; t < std::max<int64_t>(width, 1); ++t) {
        SmallVector<int64_t> idx(size, 0);
        SmallVector<float> w(size, 0.f);
        bool ones = true;
        for (int64_t o = 0; o < size; ++o) {
          if (t < static_cast<int64_t>(live[o].size())) {
            idx[o] = live[o][t].first;
            w[o] = static_cast<float>(live[o][t].second);
          }
          ones &= w[o] == 1.f;
        }
        auto idxType = RankedTensorType::get({size}, b.getI64Type());
        Value indices = ConstantOp::create(
            b, loc, idxType, DenseElementsAttr::get(idxType, ArrayRef(idx)));
        Value g = GatherOp::create(b, loc, x, indices, d);
        if (!ones)
          g = MulOp::create(b, loc, g, constantOf(w));
        sum = sum ? AddOp::create(b, loc, sum, g).getResult() : g;
      }
      if (llvm::any_of(taps.extra, [](double v) { return v != 0; })) {
        SmallVector<float> e(taps.extra.begin(), taps.extra.end());
        sum = AddOp::create(b, loc, sum, constantOf(e));
      }
      x = sum;
    }
    b.replaceOp(op, x);
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
               DecomposeSplit, DecomposeAdaptiveAvgPool, DecomposeResize>(
      patterns.getContext());
}
