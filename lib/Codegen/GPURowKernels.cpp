//===- GPURowKernels.cpp - graph-gpu-row-kernels --------------------------===//
//
// Softmax along the last axis, layer normalization over the trailing dims
// and RMS normalization (matched in its decomposed form: there is no graph
// op) are, once decomposed, a chain of reductions and elementwise ops:
// softmax 6 kernels (two fills, the max, exp(x - max) written out, the
// sum, the division), layer norm 5 and a copy, RMS norm 3, each a pass over
// memory.
// Here, on CUDA, each becomes one kernel with a warp per row: the row is
// read once to reduce (softmax: the running maximum and the sum of
// exponentials rescaled to it, combined across the warp's lanes by a
// shuffle butterfly; layer norm: the mean, then the squared deviations;
// RMS norm: the sum of squares),
// then read again to write the result. The graph op is replaced by a
// `gpu.launch` on the buffers of its operands and result
// (`bufferization.to_buffer` / `to_tensor`), which bufferization keeps.
//
//===----------------------------------------------------------------------===//

#include "GPUUtils.h"
#include "graphopt/Codegen/Passes.h"
#include "graphopt/Dialect/Graph/IR/GraphOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

#include <cmath>

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHGPUROWKERNELSPASS
#include "graphopt/Codegen/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;
using namespace mlir::graphopt;
namespace g = mlir::graphopt::graph;

namespace {

using graphopt::kWarpSize;
using graphopt::shuffleXor;

/// f32, f16 or bf16 with a static shape of at least one element: the
/// element types the kernels read (computing in f32).
bool isRowKernelTensor(Type t) {
  auto tt = dyn_cast<RankedTensorType>(t);
  if (!tt || !tt.hasStaticShape() || tt.getNumElements() == 0)
    return false;
  Type e = tt.getElementType();
  return e.isF32() || e.isF16() || e.isBF16();
}

/// `m` (identity layout) as one dimension.
Value asVector(OpBuilder &b, Location loc, Value m) {
  auto mt = cast<MemRefType>(m.getType());
  if (mt.getRank() == 1)
    return m;
  ReassociationIndices all;
  for (int64_t d = 0; d < mt.getRank(); ++d)
    all.push_back(d);
  return memref::CollapseShapeOp::create(b, loc, m,
                                         ArrayRef<ReassociationIndices>{all});
}

/// `m` (identity layout) as [rows, cols]: the dims before `split` collapsed
/// into rows (one row where there are none), the others into cols.
Value asRows(OpBuilder &b, Location loc, Value m, int64_t split) {
  auto mt = cast<MemRefType>(m.getType());
  int64_t rank = mt.getRank();
  if (split == 0) {
    Value v = asVector(b, loc, m);
    return memref::ExpandShapeOp::create(
        b, loc, MemRefType::get({1, mt.getNumElements()}, mt.getElementType()),
        v, ArrayRef<ReassociationIndices>{{0, 1}});
  }
  if (rank == 2 && split == 1)
    return m;
  ReassociationIndices lead, trail;
  for (int64_t d = 0; d < split; ++d)
    lead.push_back(d);
  for (int64_t d = split; d < rank; ++d)
    trail.push_back(d);
  return memref::CollapseShapeOp::create(
      b, loc, m, ArrayRef<ReassociationIndices>{lead, trail});
}

Value indexConst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value f32Const(OpBuilder &b, Location loc, double v) {
  return arith::ConstantOp::create(b, loc, b.getF32Type(),
                                   b.getF32FloatAttr(static_cast<float>(v)));
}

/// `memref[indices]` as f32.
Value loadF32(OpBuilder &b, Location loc, Value memref, ValueRange indices) {
  Value v = memref::LoadOp::create(b, loc, memref, indices);
  if (!v.getType().isF32())
    v = arith::ExtFOp::create(b, loc, b.getF32Type(), v);
  return v;
}

/// Stores the f32 `v` into `memref[indices]`, rounded to its element type.
void storeF32(OpBuilder &b, Location loc, Value v, Value memref,
              ValueRange indices) {
  Type e = cast<MemRefType>(memref.getType()).getElementType();
  if (!e.isF32())
    v = arith::TruncFOp::create(b, loc, e, v);
  memref::StoreOp::create(b, loc, v, memref, indices);
}

/// A launch of ceil(rows / warps) blocks of 32 x `warps` threads; warp
/// `threadIdx.y` of block `blockIdx.x` owns row `blockIdx.x * warps +
/// threadIdx.y` and calls `body(builder, row, lane)` for it when the row
/// exists (a condition uniform across the warp, so its shuffles are
/// convergent). graph-gpu-map-reductions builds the same launch with rows
/// known at run time.
void buildRowLaunch(OpBuilder &b, Location loc, int64_t rows, int64_t warps,
                    llvm::function_ref<void(OpBuilder &, Value, Value)> body) {
  Value c1 = indexConst(b, loc, 1);
  auto launch = gpu::LaunchOp::create(
      b, loc, indexConst(b, loc, llvm::divideCeil(rows, warps)), c1, c1,
      indexConst(b, loc, kWarpSize), indexConst(b, loc, warps), c1);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launch.getBody().front());
  Value lane = launch.getThreadIds().x;
  Value row = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, launch.getBlockIds().x,
                            indexConst(b, loc, warps)),
      launch.getThreadIds().y);
  Value inRows = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row,
                                       indexConst(b, loc, rows));
  auto ifInRows = scf::IfOp::create(b, loc, inRows, /*withElseRegion=*/false);
  gpu::TerminatorOp::create(b, loc);
  b.setInsertionPointToStart(ifInRows.thenBlock());
  body(b, row, lane);
}

/// `scf.for k = lane to cols step 32` carrying `init`; `step(b, k, args)`
/// returns the next values.
SmallVector<Value>
laneLoop(OpBuilder &b, Location loc, Value lane, int64_t cols, ValueRange init,
         llvm::function_ref<SmallVector<Value>(OpBuilder &, Value, ValueRange)>
             step) {
  auto loop = scf::ForOp::create(
      b, loc, lane, indexConst(b, loc, cols), indexConst(b, loc, kWarpSize),
      init, [&](OpBuilder &lb, Location, Value k, ValueRange args) {
        scf::YieldOp::create(lb, loc, step(lb, k, args));
      });
  return SmallVector<Value>(loop.getResults());
}

/// The sum of `v` over the warp's 32 lanes, in every lane.
Value warpSum(OpBuilder &b, Location loc, Value v) {
  for (int64_t offset = kWarpSize / 2; offset > 0; offset /= 2)
    v = arith::AddFOp::create(b, loc, v, shuffleXor(b, loc, v, offset));
  return v;
}

/// The mean of `term(k)` over the row's `cols` elements, in every lane: each
/// lane sums its elements (lane, lane + 32, ...), the warp's sums are added
/// by a butterfly, then divided by `cols`.
Value rowMean(OpBuilder &b, Location loc, Value lane, int64_t cols,
              llvm::function_ref<Value(OpBuilder &, Value)> term) {
  Value sum = laneLoop(b, loc, lane, cols, ValueRange{f32Const(b, loc, 0.0)},
                       [&](OpBuilder &b, Value k, ValueRange args) {
                         return SmallVector<Value>{arith::AddFOp::create(
                             b, loc, args[0], term(b, k))};
                       })[0];
  return arith::DivFOp::create(b, loc, warpSum(b, loc, sum),
                               f32Const(b, loc, static_cast<double>(cols)));
}

/// What the row-kernel patterns share: the warps (rows) per block, the
/// result's buffer, and the op's replacement by that buffer as a tensor.
template <typename OpT>
struct RowKernelPattern : OpRewritePattern<OpT> {
  RowKernelPattern(MLIRContext *ctx, unsigned warps)
      : OpRewritePattern<OpT>(ctx), warps(warps) {}

  /// `op` becomes `out`, which the launch writes, as a tensor.
  static void replaceByBuffer(PatternRewriter &rewriter, Operation *op,
                              RankedTensorType t, Value out) {
    rewriter.replaceOp(op, bufferAsTensor(rewriter, op->getLoc(), t, out));
  }

  unsigned warps;
};

/// softmax(x) along the last axis: per row, the running maximum m and the
/// sum s of exp(x - m) rescaled whenever m grows (s * exp(m - m')), the
/// lanes' (m, s) pairs combined the same way, then exp(x - m) / s. While
/// the maximum is -inf (a row that starts with masked -inf entries) the
/// exponentials are taken against 0, not -inf, so that -inf - -inf gives
/// no NaN: such terms are 0 either way.
struct SoftmaxToRowKernel : RowKernelPattern<g::SoftmaxOp> {
  using RowKernelPattern::RowKernelPattern;

  LogicalResult matchAndRewrite(g::SoftmaxOp op,
                                PatternRewriter &rewriter) const override {
    auto t = dyn_cast<RankedTensorType>(op.getInput().getType());
    if (!t || !isRowKernelTensor(t) || op.getType() != t)
      return rewriter.notifyMatchFailure(
          op, "not a static f32/f16/bf16 tensor of the result's type");
    int64_t rank = t.getRank();
    if (static_cast<int64_t>(op.getAxis()) != rank - 1)
      return rewriter.notifyMatchFailure(op, "not along the last axis");
    int64_t cols = t.getShape().back();
    int64_t rows = t.getNumElements() / cols;

    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Value x = asRows(b, loc, toBuffer(b, loc, op.getInput()), rank - 1);
    Value out = resultBuffer(b, loc, t);
    Value y = asRows(b, loc, out, rank - 1);
    buildRowLaunch(
        b, loc, rows, warps, [&](OpBuilder &b, Value row, Value lane) {
          Value negInf = f32Const(b, loc, -INFINITY);
          Value zero = f32Const(b, loc, 0.0);
          // exp(v - m) with m taken as 0 where it is -inf.
          auto safe = [&](OpBuilder &b, Value m) {
            Value isNegInf = arith::CmpFOp::create(
                b, loc, arith::CmpFPredicate::OEQ, m, negInf);
            return arith::SelectOp::create(b, loc, isNegInf, zero, m)
                .getResult();
          };
          auto expMinus = [&](OpBuilder &b, Value v, Value m) {
            return math::ExpOp::create(b, loc,
                                       arith::SubFOp::create(b, loc, v, m))
                .getResult();
          };
          // (m, s) and (m2, s2) -> (max, s * exp(m - max) + s2 * exp(m2 -
          // max)).
          auto merge = [&](OpBuilder &b, Value m, Value s, Value m2, Value s2) {
            Value mx = arith::MaximumFOp::create(b, loc, m, m2);
            Value ms = safe(b, mx);
            Value sum = arith::AddFOp::create(
                b, loc, arith::MulFOp::create(b, loc, s, expMinus(b, m, ms)),
                arith::MulFOp::create(b, loc, s2, expMinus(b, m2, ms)));
            return std::make_pair(mx, sum);
          };
          SmallVector<Value> ms = laneLoop(
              b, loc, lane, cols, ValueRange{negInf, zero},
              [&](OpBuilder &b, Value k, ValueRange args) {
                Value v = loadF32(b, loc, x, ValueRange{row, k});
                Value mx = arith::MaximumFOp::create(b, loc, args[0], v);
                Value safeMax = safe(b, mx);
                Value s = arith::AddFOp::create(
                    b, loc,
                    arith::MulFOp::create(b, loc, args[1],
                                          expMinus(b, args[0], safeMax)),
                    expMinus(b, v, safeMax));
                return SmallVector<Value>{mx, s};
              });
          Value m = ms[0], s = ms[1];
          for (int64_t offset = kWarpSize / 2; offset > 0; offset /= 2)
            std::tie(m, s) = merge(b, m, s, shuffleXor(b, loc, m, offset),
                                   shuffleXor(b, loc, s, offset));
          laneLoop(b, loc, lane, cols, ValueRange{},
                   [&](OpBuilder &b, Value k, ValueRange) {
                     Value v = loadF32(b, loc, x, ValueRange{row, k});
                     Value r =
                         arith::DivFOp::create(b, loc, expMinus(b, v, m), s);
                     storeF32(b, loc, r, y, ValueRange{row, k});
                     return SmallVector<Value>{};
                   });
        });
    replaceByBuffer(rewriter, op, t, out);
    return success();
  }
};

/// layer_norm(x, w, b) over the trailing w.rank dims: per row the mean,
/// then the mean of the squared deviations (two passes, as the
/// decomposition computes them), then (x - mean) * rsqrt(var + eps) * w + b.
struct LayerNormToRowKernel : RowKernelPattern<g::LayerNormOp> {
  using RowKernelPattern::RowKernelPattern;

  LogicalResult matchAndRewrite(g::LayerNormOp op,
                                PatternRewriter &rewriter) const override {
    auto t = dyn_cast<RankedTensorType>(op.getInput().getType());
    auto wt = dyn_cast<RankedTensorType>(op.getWeight().getType());
    auto bt = dyn_cast<RankedTensorType>(op.getBias().getType());
    if (!t || !wt || !bt || !isRowKernelTensor(t) || !isRowKernelTensor(wt) ||
        !isRowKernelTensor(bt) || op.getType() != t)
      return rewriter.notifyMatchFailure(
          op, "not static f32/f16/bf16 tensors, the result of the input's "
              "type");
    int64_t rank = t.getRank(), normRank = wt.getRank();
    if (normRank < 1 || normRank > rank || bt.getShape() != wt.getShape() ||
        t.getShape().take_back(normRank) != wt.getShape())
      return rewriter.notifyMatchFailure(
          op, "weight and bias are not the input's trailing shape");
    int64_t cols = wt.getNumElements();
    int64_t rows = t.getNumElements() / cols;
    double eps = op.getEpsilon().convertToDouble();

    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    int64_t split = rank - normRank;
    Value x = asRows(b, loc, toBuffer(b, loc, op.getInput()), split);
    Value w = asVector(b, loc, toBuffer(b, loc, op.getWeight()));
    Value bias = asVector(b, loc, toBuffer(b, loc, op.getBias()));
    Value out = resultBuffer(b, loc, t);
    Value y = asRows(b, loc, out, split);
    buildRowLaunch(
        b, loc, rows, warps, [&](OpBuilder &b, Value row, Value lane) {
          Value mean =
              rowMean(b, loc, lane, cols, [&](OpBuilder &b, Value k) -> Value {
                return loadF32(b, loc, x, ValueRange{row, k});
              });
          Value var =
              rowMean(b, loc, lane, cols, [&](OpBuilder &b, Value k) -> Value {
                Value d = arith::SubFOp::create(
                    b, loc, loadF32(b, loc, x, ValueRange{row, k}), mean);
                return arith::MulFOp::create(b, loc, d, d);
              });
          Value inv = math::RsqrtOp::create(
              b, loc,
              arith::AddFOp::create(b, loc, var, f32Const(b, loc, eps)));
          laneLoop(b, loc, lane, cols, ValueRange{},
                   [&](OpBuilder &b, Value k, ValueRange) {
                     Value d = arith::SubFOp::create(
                         b, loc, loadF32(b, loc, x, ValueRange{row, k}), mean);
                     Value r = arith::MulFOp::create(
                         b, loc, arith::MulFOp::create(b, loc, d, inv),
                         loadF32(b, loc, w, ValueRange{k}));
                     r = arith::AddFOp::create(
                         b, loc, r, loadF32(b, loc, bias, ValueRange{k}));
                     storeF32(b, loc, r, y, ValueRange{row, k});
                     return SmallVector<Value>{};
                   });
        });
    replaceByBuffer(rewriter, op, t, out);
    return success();
  }
};

/// RMS normalization as the importers and torch.export leave it (there is
/// no graph op): `x * rsqrt(mean(x * x, trailing dims, keepdims) + eps)`,
/// the factors in either order, optionally times a weight `w` of the
/// trailing shape (either side). What `matchRMSNorm` finds.
struct RMSNormMatch {
  Value x, weight; // weight: null when there is none
  double eps = 0;
  int64_t split = 0; // the normalized dims are [split, rank)
};

/// A scalar f32/f16/bf16 constant (a splat of any shape) as a double.
std::optional<double> scalarConstant(Value v) {
  auto c = v.getDefiningOp<g::ConstantOp>();
  auto dense = c ? dyn_cast<DenseFPElementsAttr>(c.getValue()) : nullptr;
  if (!dense || !dense.isSplat())
    return std::nullopt;
  return dense.getSplatValue<APFloat>().convertToDouble();
}

/// `v` = x * rsqrt(mean(x * x) + eps) (either order of each binary op),
/// every intermediate used once, x of v's type.
std::optional<RMSNormMatch> matchRMSNormCore(Value v) {
  auto mul = v.getDefiningOp<g::MulOp>();
  if (!mul)
    return std::nullopt;
  for (auto [x, inv] : {std::pair(mul.getLhs(), mul.getRhs()),
                        std::pair(mul.getRhs(), mul.getLhs())}) {
    if (x.getType() != v.getType())
      continue;
    auto rsqrt = inv.getDefiningOp<g::RsqrtOp>();
    auto add = rsqrt ? rsqrt.getInput().getDefiningOp<g::AddOp>() : nullptr;
    if (!add || !inv.hasOneUse() || !rsqrt.getInput().hasOneUse())
      continue;
    for (auto [ms, epsValue] : {std::pair(add.getLhs(), add.getRhs()),
                                std::pair(add.getRhs(), add.getLhs())}) {
      std::optional<double> eps = scalarConstant(epsValue);
      auto mean = ms.getDefiningOp<g::ReduceOp>();
      if (!eps || !mean || mean.getKind() != g::ReduceKind::Mean ||
          !mean.getKeepdims() || !ms.hasOneUse() ||
          ms.getType() != add.getType())
        continue;
      auto square = mean.getInput().getDefiningOp<g::MulOp>();
      if (!square || square.getLhs() != x || square.getRhs() != x ||
          !mean.getInput().hasOneUse())
        continue;
      // The reduced dims: the trailing ones, in order.
      auto t = cast<RankedTensorType>(x.getType());
      ArrayRef<int64_t> axes = mean.getAxes();
      int64_t split = t.getRank() - static_cast<int64_t>(axes.size());
      if (axes.empty())
        continue;
      bool trailing = true;
      for (auto [i, a] : llvm::enumerate(axes))
        trailing &= a == split + static_cast<int64_t>(i);
      if (!trailing)
        continue;
      return RMSNormMatch{x, Value(), *eps, split};
    }
  }
  return std::nullopt;
}

/// `v` is an RMS normalization, with its weight if `v` multiplies a core
/// (used only there) by a tensor of the normalized dims' shape.
std::optional<RMSNormMatch> matchRMSNorm(Value v) {
  auto mul = v.getDefiningOp<g::MulOp>();
  if (!mul)
    return std::nullopt;
  for (auto [core, w] : {std::pair(mul.getLhs(), mul.getRhs()),
                         std::pair(mul.getRhs(), mul.getLhs())}) {
    std::optional<RMSNormMatch> m = matchRMSNormCore(core);
    auto wt = dyn_cast<RankedTensorType>(w.getType());
    if (!m || !core.hasOneUse() || !wt || core.getType() != v.getType())
      continue;
    auto t = cast<RankedTensorType>(v.getType());
    if (wt.getShape() != t.getShape().drop_front(m->split) ||
        wt.getElementType() != t.getElementType())
      continue;
    m->weight = w;
    return m;
  }
  return matchRMSNormCore(v);
}

/// RMS normalization (matchRMSNorm) over the trailing dims: per row the
/// sum of squares, then x * rsqrt(sum / n + eps) (* w), in f32. The
/// decomposition took 3 kernels (the square and its mean, the scaling; f16:
/// rounded in between); this is one. A core whose one use is the product
/// with its weight is left to that product's match.
struct RMSNormToRowKernel : RowKernelPattern<g::MulOp> {
  using RowKernelPattern::RowKernelPattern;

  LogicalResult matchAndRewrite(g::MulOp op,
                                PatternRewriter &rewriter) const override {
    auto t = dyn_cast<RankedTensorType>(op.getType());
    if (!t || !isRowKernelTensor(t))
      return rewriter.notifyMatchFailure(op, "not a static f32/f16/bf16 "
                                             "tensor");
    std::optional<RMSNormMatch> m = matchRMSNorm(op.getResult());
    if (!m)
      return rewriter.notifyMatchFailure(op, "not an RMS normalization");
    if (!m->weight && op->hasOneUse())
      if (auto user = dyn_cast<g::MulOp>(*op->getUsers().begin());
          user && matchRMSNorm(user.getResult()))
        return rewriter.notifyMatchFailure(op, "the weighted form matches");
    if (m->weight && !isRowKernelTensor(m->weight.getType()))
      return rewriter.notifyMatchFailure(op, "a weight of another kind");
    int64_t cols = 1;
    for (int64_t d : t.getShape().drop_front(m->split))
      cols *= d;
    int64_t rows = t.getNumElements() / cols;

    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Value x = asRows(b, loc, toBuffer(b, loc, m->x), m->split);
    Value w =
        m->weight ? asVector(b, loc, toBuffer(b, loc, m->weight)) : Value();
    Value out = resultBuffer(b, loc, t);
    Value y = asRows(b, loc, out, m->split);
    buildRowLaunch(
        b, loc, rows, warps, [&](OpBuilder &b, Value row, Value lane) {
          Value meanSq =
              rowMean(b, loc, lane, cols, [&](OpBuilder &b, Value k) -> Value {
                Value v = loadF32(b, loc, x, ValueRange{row, k});
                return arith::MulFOp::create(b, loc, v, v);
              });
          Value inv = math::RsqrtOp::create(
              b, loc,
              arith::AddFOp::create(b, loc, meanSq, f32Const(b, loc, m->eps)));
          laneLoop(b, loc, lane, cols, ValueRange{},
                   [&](OpBuilder &b, Value k, ValueRange) {
                     Value r = arith::MulFOp::create(
                         b, loc, loadF32(b, loc, x, ValueRange{row, k}), inv);
                     if (w)
                       r = arith::MulFOp::create(
                           b, loc, r, loadF32(b, loc, w, ValueRange{k}));
                     storeF32(b, loc, r, y, ValueRange{row, k});
                     return SmallVector<Value>{};
                   });
        });
    replaceByBuffer(rewriter, op, t, out);
    return success();
  }
};

struct GraphGPURowKernelsPass
    : graphopt::impl::GraphGPURowKernelsPassBase<GraphGPURowKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(graphopt::checkWarpsPerBlock(getOperation(), warpsPerBlock)))
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    graphopt::populateGPURowKernelsPatterns(patterns, warpsPerBlock);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace

void mlir::graphopt::populateGPURowKernelsPatterns(RewritePatternSet &patterns,
                                                   unsigned warpsPerBlock) {
  patterns.add<SoftmaxToRowKernel, LayerNormToRowKernel, RMSNormToRowKernel>(
      patterns.getContext(), warpsPerBlock);
}
