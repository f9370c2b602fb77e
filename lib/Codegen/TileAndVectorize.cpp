//===- TileAndVectorize.cpp - graph-cpu-tile-and-vectorize ----------------===//
//
// The CPU code generation strategy, on tensors (before bufferization):
//
//  * Matmul-class ops (linalg.matmul, linalg.batch_matmul) are tiled to an
//    `mr x nr` register block with a reduction step of 1 (loop order:
//    column blocks, row blocks, k, so a K x nr panel of B stays in cache). The
//    block is vectorized into a vector.contract that is lowered to outer
//    products (per k: broadcasts of A and FMAs into mr x nr/vw accumulator
//    vectors), and the accumulator is hoisted out of the k loop, so it lives in
//    registers for the whole reduction. A lane-wise consumer of the matmul
//    in the same fused tile (bias, activation, residual add) is applied to
//    the finished block in registers, in the last reduction block, and the
//    block is stored once, into the consumer's output.
//  * Other linalg ops (elementwise, broadcasts, reductions, fills,
//    transposes) are tiled to 1 in every dim but the innermost, which is
//    tiled to the largest divisor of its size up to the vector width and
//    vectorized. Dynamic sizes stay scalar loops.
//
// Ops that fail any step stay as they are and become scalar loops later
// (counted by the `not-vectorized-ops` statistic).
//
//===----------------------------------------------------------------------===//

#include "graphopt/Codegen/CPUConv.h"
#include "graphopt/Codegen/CPUMatmul.h"
#include "graphopt/Codegen/ConstantView.h"
#include "graphopt/Codegen/LaneWiseEpilogue.h"
#include "graphopt/Codegen/Parallel.h"
#include "graphopt/Codegen/Passes.h"
#include "graphopt/Codegen/Patterns.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SubsetOpInterface.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHCPUTILEANDVECTORIZEPASS
#include "graphopt/Codegen/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;

namespace {

/// Tiles `op` with `sizes` (0 = not tiled) into scf.for loops and replaces
/// it. Returns the tiled op and the loops, outermost first.
FailureOr<scf::SCFTilingResult> tile(RewriterBase &rewriter, TilingInterface op,
                                     ArrayRef<int64_t> sizes,
                                     ArrayRef<int64_t> interchange = {}) {
  scf::SCFTilingOptions options;
  if (!interchange.empty())
    options.setInterchange(interchange);
  SmallVector<OpFoldResult> tileSizes;
  for (int64_t s : sizes)
    tileSizes.push_back(rewriter.getIndexAttr(s));
  options.setTileSizes(tileSizes);
  options.setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> result =
      scf::tileUsingSCF(rewriter, op, options);
  if (failed(result))
    return failure();
  graphopt::markParallelTileLoops(result->loops, op, sizes, interchange);
  rewriter.replaceOp(op, result->replacements);
  return result;
}

/// A tile of a copy-like op (one input, one init) and the tile's input and
/// init values.
struct CopyTile {
  linalg::LinalgOp op;
  Value in, out;
};

/// Tiles the copy-like `op` by `sizes`.
FailureOr<CopyTile> tileCopy(RewriterBase &rewriter, linalg::LinalgOp op,
                             ArrayRef<int64_t> sizes) {
  auto tiled = tile(rewriter, cast<TilingInterface>(op.getOperation()), sizes);
  if (failed(tiled))
    return failure();
  auto inner = cast<linalg::LinalgOp>(tiled->tiledOps.front());
  return CopyTile{inner, inner.getDpsInputOperand(0)->get(),
                  inner.getDpsInitOperand(0)->get()};
}

/// Vectorizes `op` (to `vectorSizes` when given) and replaces it.
/// True when `op` has reduction loops and some value it combines into a
/// reduction output does not vary along them (`out + 4` summed over the
/// reduced dim: what elementwise fusion makes of the sum of a broadcast
/// constant). MLIR 22's linalg vectorizer gets these wrong: it combines the
/// invariant once per output element instead of once per iteration
/// (fuzz seed 2026120411, test/Integration/fuzz-regressions.mlir). Such ops
/// stay scalar loops.
static bool combinesInvariantAlongReduction(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() == 0)
    return false;
  SmallVector<unsigned> reductionDims;
  op.getReductionDims(reductionDims);
  Block *body = op.getBlock();
  llvm::SmallPtrSet<Value, 16> varying;
  for (OpOperand *in : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(in);
    if (llvm::any_of(reductionDims,
                     [&](unsigned d) { return map.isFunctionOfDim(d); }))
      varying.insert(op.getMatchingBlockArgument(in));
  }
  for (Operation &inner : body->without_terminator()) {
    auto index = dyn_cast<linalg::IndexOp>(inner);
    bool varies =
        (index && llvm::is_contained(reductionDims, index.getDim())) ||
        llvm::any_of(inner.getOperands(),
                     [&](Value v) { return varying.contains(v); });
    if (varies)
      for (Value r : inner.getResults())
        varying.insert(r);
  }
  for (auto [init, yielded] : llvm::zip(op.getDpsInitsMutable(),
                                        body->getTerminator()->getOperands())) {
    if (yielded == op.getMatchingBlockArgument(&init))
      continue; // the output unchanged
    if (!varying.contains(yielded))
      return true;
  }
  return false;
}

LogicalResult vectorizeAndReplace(RewriterBase &rewriter, linalg::LinalgOp op,
                                  ArrayRef<int64_t> vectorSizes,
                                  bool createNamedContraction = false) {
  if (combinesInvariantAlongReduction(op))
    return failure();
  rewriter.setInsertionPoint(op);
  // Upstream reads one scalable flag per vector size: pass them explicitly.
  SmallVector<bool> scalable(vectorSizes.size(), false);
  FailureOr<linalg::VectorizationResult> result = linalg::vectorize(
      rewriter, op, vectorSizes, scalable,
      /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
      /*assumeDynamicDimsMatchVecSizes=*/false, createNamedContraction);
  if (failed(result))
    return failure();
  rewriter.replaceOp(op, result->replacements);
  return success();
}

/// LLVM packs vectors of i1 into bits in memory, while memrefs of i1 hold
/// one byte per element: ops reading or writing i1 tensors stay scalar.
bool touchesI1(linalg::LinalgOp op) {
  return llvm::any_of(op->getOperandTypes(), [](Type t) {
    return getElementTypeOrSelf(t).isInteger(1);
  });
}

/// The largest d <= limit dividing `size`; `limit` for a dynamic size.
int64_t largestDivisor(int64_t size, int64_t limit) {
  if (ShapedType::isDynamic(size))
    return limit;
  return graphopt::largestDivisor(size, limit);
}

/// True when every loop dim of `op` has a static size.
bool hasStaticLoops(linalg::LinalgOp op) {
  return llvm::none_of(op.getStaticLoopRanges(), ShapedType::isDynamic);
}

/// True when some loop dim of `op` has static size 0.
bool hasEmptyIterationSpace(linalg::LinalgOp op) {
  return llvm::is_contained(op.getStaticLoopRanges(), 0);
}

/// An scf.for over the positions of dims of sizes `extents` (row-major,
/// their product iterations), carrying `init`: `body` gets each dim's index
/// at the position (null where the extent is 1) and the carried value, and
/// returns its next value.
static scf::ForOp forEachPosition(
    OpBuilder &builder, Location loc, ArrayRef<int64_t> extents, Value init,
    function_ref<Value(OpBuilder &, Location, ArrayRef<Value>, Value)> body) {
  auto c = [&](OpBuilder &b, int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  int64_t count = 1;
  for (int64_t e : extents)
    count *= e;
  return scf::ForOp::create(
      builder, loc, c(builder, 0), c(builder, count), c(builder, 1),
      ValueRange{init},
      [&](OpBuilder &b, Location l, Value iv, ValueRange iter) {
        SmallVector<Value> indices(extents.size());
        Value rest = iv;
        for (int64_t k = extents.size() - 1; k >= 0; --k) {
          if (extents[k] == 1)
            continue;
          indices[k] = rest;
          if (llvm::any_of(extents.take_front(k),
                           [](int64_t v) { return v > 1; })) {
            indices[k] = arith::RemUIOp::create(b, l, rest, c(b, extents[k]));
            rest = arith::DivUIOp::create(b, l, rest, c(b, extents[k]));
          }
        }
        scf::YieldOp::create(b, l, body(b, l, indices, iter[0]));
      });
}

/// Fills the slab of `dest` at offsets `o`, sizes `sz` with `value`, one
/// [1, ..., 1, sz[d], ...] piece per position of the dims before `d`, in an
/// scf.for over them.
static Value fillSlabRows(OpBuilder &builder, Location loc, Value value,
                          Value dest, ArrayRef<int64_t> o, ArrayRef<int64_t> sz,
                          int64_t d) {
  int64_t rank = sz.size();
  auto loop = forEachPosition(
      builder, loc, sz.take_front(d), dest,
      [&](OpBuilder &b, Location l, ArrayRef<Value> indices, Value iter) {
        SmallVector<OpFoldResult> offsets, sizes,
            strides(rank, b.getIndexAttr(1));
        for (int64_t k = 0; k < rank; ++k) {
          if (k >= d || !indices[k]) {
            offsets.push_back(b.getIndexAttr(o[k]));
            sizes.push_back(b.getIndexAttr(sz[k]));
            continue;
          }
          offsets.push_back(
              o[k]
                  ? OpFoldResult(arith::AddIOp::create(
                                     b, l, indices[k],
                                     arith::ConstantIndexOp::create(b, l, o[k]))
                                     .getResult())
                  : OpFoldResult(indices[k]));
          sizes.push_back(b.getIndexAttr(1));
        }
        Value slab =
            tensor::ExtractSliceOp::create(b, l, iter, offsets, sizes, strides);
        Value filled = linalg::FillOp::create(b, l, value, slab).getResult(0);
        return tensor::InsertSliceOp::create(b, l, filled, iter, offsets, sizes,
                                             strides)
            .getResult();
      });
  return loop.getResult(0);
}

/// Fills the padding of `result` (static shape `resShape`: a source of
/// shape `srcShape` at offsets `low`, `high` more after it) with `value`:
/// one linalg.fill per padded side of each dim, on a slice.
static Value fillBorders(OpBuilder &b, Location loc, Value value, Value result,
                         ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                         ArrayRef<int64_t> srcShape,
                         ArrayRef<int64_t> resShape) {
  int64_t rank = resShape.size();
  auto attrs = [&](ArrayRef<int64_t> v) {
    return getAsIndexOpFoldResult(b.getContext(), v);
  };
  SmallVector<int64_t> ones(rank, 1), offsets(rank, 0), sizes(resShape);
  for (int64_t d = 0; d < rank; ++d) {
    for (bool isHigh : {false, true}) {
      int64_t n = isHigh ? high[d] : low[d];
      if (n == 0)
        continue;
      // The slab on this side of dim d, across the interior of the dims
      // before it (their slabs are filled already) and all of those after.
      SmallVector<int64_t> o = offsets, sz = sizes;
      o[d] = isHigh ? low[d] + srcShape[d] : 0;
      sz[d] = n;
      int64_t outer = 1;
      for (int64_t k = 0; k < d; ++k)
        outer *= sz[k];
      if (outer > 1) {
        // One fill per position of the dims before d ([1, 1, 1, n] of a
        // padded image's rows), in a loop: filled in one piece, the
        // slab's fill becomes loops that LLVM unrolls, one memset or
        // masked scatter each (ResNet-18 at batch 8: 12,000 of them in the
        // entry function, most of its LLVM time).
        result = fillSlabRows(b, loc, value, result, o, sz, d);
        continue;
      }
      Value slab = tensor::ExtractSliceOp::create(b, loc, result, attrs(o),
                                                  attrs(sz), attrs(ones));
      Value filled = linalg::FillOp::create(b, loc, value, slab).getResult(0);
      result = tensor::InsertSliceOp::create(b, loc, filled, result, attrs(o),
                                             attrs(sz), attrs(ones));
    }
    offsets[d] = low[d];
    sizes[d] = srcShape[d];
  }
  return result;
}

/// Rewrites a tensor.pad of static shapes by a constant as the source
/// inserted into an empty tensor whose padding regions are then filled (one
/// linalg.fill per padded side of each dim, on a slice): bufferized
/// as a whole, a pad fills every element and then copies the source over
/// the interior, writing most of the buffer twice (ResNet-18's padded
/// images: about 0.6 ms of zero fills per call). Where the leading dims are
/// not padded (an NCHW image's N and C), the fills are one loop over their
/// positions, each iteration filling the border of its own image: one
/// kernel. (One loop per border, each a memset of a row or two per
/// channel, stayed in the caller, below the outlining's size, where LLVM
/// unrolled them into blocks of thousands of stores: ResNet-50's entry
/// function spent 0.6 s in the machine scheduler.) Returns false and
/// changes nothing otherwise.
static bool fillPadBorders(RewriterBase &rewriter, tensor::PadOp pad) {
  RankedTensorType srcType = pad.getSourceType(), resType = pad.getResultType();
  Value value = pad.getConstantPaddingValue();
  if (!srcType.hasStaticShape() || !resType.hasStaticShape() || !value)
    return false;
  std::optional<SmallVector<int64_t>> lows =
      getConstantIntValues(pad.getMixedLowPad());
  std::optional<SmallVector<int64_t>> highs =
      getConstantIntValues(pad.getMixedHighPad());
  if (!lows || !highs || llvm::any_of(llvm::concat<int64_t>(*lows, *highs),
                                      [](int64_t v) { return v < 0; }))
    return false;
  ArrayRef<int64_t> low = *lows, high = *highs;
  Location loc = pad.getLoc();
  rewriter.setInsertionPoint(pad);
  // A constant yielded from inside the pad's region is recreated outside.
  if (Operation *def = value.getDefiningOp();
      def && pad.getRegion().isAncestor(def->getParentRegion()))
    value = rewriter.clone(*def)->getResult(0);
  int64_t rank = resType.getRank();
  Value result = tensor::EmptyOp::create(rewriter, loc, resType.getShape(),
                                         resType.getElementType());
  // The source first: the fills then depend on it, so that CSE cannot
  // merge the border fills of two pads of the same shape into one tensor
  // (which bufferization would then copy for each).
  // (An empty source is not inserted: the fills below then cover the
  // whole result, and a slice at an offset into an empty dim is rejected.)
  if (srcType.getNumElements() > 0) {
    SmallVector<int64_t> ones(rank, 1);
    result = tensor::InsertSliceOp::create(
        rewriter, loc, pad.getSource(), result,
        getAsIndexOpFoldResult(rewriter.getContext(), low),
        getAsIndexOpFoldResult(rewriter.getContext(), srcType.getShape()),
        getAsIndexOpFoldResult(rewriter.getContext(), ones));
  }
  // The leading dims without padding, and their positions.
  int64_t lead = 0, outer = 1;
  while (lead < rank && low[lead] == 0 && high[lead] == 0)
    outer *= resType.getDimSize(lead++);
  if (lead == rank) {
    rewriter.replaceOp(pad, result);
    return true;
  }
  if (outer <= 1 || srcType.getNumElements() == 0) {
    rewriter.replaceOp(pad,
                       fillBorders(rewriter, loc, value, result, low, high,
                                   srcType.getShape(), resType.getShape()));
    return true;
  }
  SmallVector<int64_t> srcImage(srcType.getShape()),
      resImage(resType.getShape());
  std::fill_n(srcImage.begin(), lead, 1);
  std::fill_n(resImage.begin(), lead, 1);
  auto loop = forEachPosition(
      rewriter, loc, resType.getShape().take_front(lead), result,
      [&](OpBuilder &b, Location l, ArrayRef<Value> indices, Value iter) {
        SmallVector<OpFoldResult> offsets, sizes,
            strides(rank, b.getIndexAttr(1));
        for (int64_t k = 0; k < rank; ++k) {
          offsets.push_back(k < lead && indices[k]
                                ? OpFoldResult(indices[k])
                                : OpFoldResult(b.getIndexAttr(0)));
          sizes.push_back(b.getIndexAttr(resImage[k]));
        }
        Value image =
            tensor::ExtractSliceOp::create(b, l, iter, offsets, sizes, strides);
        image = fillBorders(b, l, value, image, low, high, srcImage, resImage);
        return tensor::InsertSliceOp::create(b, l, image, iter, offsets, sizes,
                                             strides)
            .getResult();
      });
  graphopt::markParallelLoop(loop);
  rewriter.replaceOp(pad, loop.getResult(0));
  return true;
}

/// transpose(broadcast(v : vector<n> to vector<m x n>)) is every row of an
/// n x m tile holding one element of v: broadcast(v as vector<n x 1>).
/// Lowered as a transpose, it was one shuffle of all m * n lanes (a
/// per-channel bias in an epilogue that reads its matmul's [pixels]
/// [channels] result as NCHW: 16 x 7 lanes, 6x slower than the matmul).
struct TransposeOfRowBroadcast : OpRewritePattern<vector::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransposeOp t,
                                PatternRewriter &rewriter) const override {
    VectorType result = t.getResultVectorType();
    if (result.getRank() != 2 || result.isScalable() ||
        t.getPermutation() != ArrayRef<int64_t>{1, 0})
      return failure();
    // Replaces the transpose with `row` (vector<n>) broadcast along dim 1.
    auto broadcastAsColumn = [&](Value row) {
      Value column = vector::ShapeCastOp::create(
          rewriter, t.getLoc(),
          VectorType::get({result.getDimSize(0), 1}, result.getElementType()),
          row);
      rewriter.replaceOpWithNewOp<vector::BroadcastOp>(t, result, column);
      return success();
    };
    // The same broadcast still as a read with a broadcasting map,
    // (d) -> (0, d), which the transfer lowering turns into read +
    // broadcast.
    if (auto read = t.getVector().getDefiningOp<vector::TransferReadOp>()) {
      AffineMap map = read.getPermutationMap();
      auto zero = map.getNumResults() == 2
                      ? dyn_cast<AffineConstantExpr>(map.getResult(0))
                      : AffineConstantExpr();
      if (!zero || zero.getValue() != 0 || read.getMask() ||
          map.getResult(1) !=
              getAffineDimExpr(map.getNumDims() - 1, t.getContext()))
        return failure();
      auto rowType =
          VectorType::get({result.getDimSize(0)}, result.getElementType());
      Value row = vector::TransferReadOp::create(
          rewriter, read.getLoc(), rowType, read.getBase(), read.getIndices(),
          AffineMap::getMinorIdentityMap(map.getNumDims(), 1, t.getContext()),
          read.getPadding(), /*mask=*/Value(),
          rewriter.getBoolArrayAttr({read.isDimInBounds(1)}));
      return broadcastAsColumn(row);
    }
    auto b = t.getVector().getDefiningOp<vector::BroadcastOp>();
    if (!b)
      return failure();
    auto source = dyn_cast<VectorType>(b.getSourceType());
    if (!source) {
      // A scalar splat: the same in every layout.
      rewriter.replaceOpWithNewOp<vector::BroadcastOp>(t, result,
                                                       b.getSource());
      return success();
    }
    if (source.getRank() != 1 || source.getDimSize(0) != result.getDimSize(0))
      return failure();
    return broadcastAsColumn(b.getSource());
  }
};

struct GraphCPUTileAndVectorizePass
    : public graphopt::impl::GraphCPUTileAndVectorizePassBase<
          GraphCPUTileAndVectorizePass> {
  using Base::Base;

  /// The cache sizes blocking is planned for.
  graphopt::CPUCacheSizes caches;
  /// Ops erased while others were rewritten (zero fills that matmuls no
  /// longer read, epilogues applied in registers), not to be visited
  /// again.
  llvm::DenseSet<Operation *> erased;

  /// Matmul: register blocking with a hoisted accumulator.
  LogicalResult tileMatmul(RewriterBase &rewriter, linalg::LinalgOp op) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    bool batched = isa<linalg::BatchMatmulOp>(op);
    // Mixed-precision batched contractions (f16/bf16 operands, f32
    // accumulator) vectorize to a vector.contract MLIR 22 does not lower
    // with a unit batch dim: keep those scalar.
    if (batched && llvm::any_of(op->getOperandTypes(), [](Type t) {
          return !getElementTypeOrSelf(t).isF32();
        }))
      return failure();
    if (!batched && succeeded(streamRowsOfB(rewriter, op)))
      return success();
    int64_t nDim = batched ? 2 : 1;
    int64_t nCols = ranges[nDim];
    // A column count that is not whole register blocks (196 = 6 x 32 + 4:
    // a conv with 14x14 outputs; 3248 = 101 x 32 + 16) is split into the
    // whole-block part, which gets the full kernel, and a narrow remainder;
    // otherwise the block would be a divisor like 28 whose odd vectors are
    // ~20x slower, or a single vector, which halves the FMAs per load.
    int64_t block = matmulTileNVectors * vectorWidth;
    if (ShapedType::isDynamic(nCols) || nCols <= block || nCols % block == 0)
      block = vectorWidth;
    if (!ShapedType::isDynamic(nCols) && nCols > block &&
        nCols % block != 0) {
      int64_t main = nCols / block * block;
      if (succeeded(overlapNarrowTail(rewriter, op, main)))
        return success();
      // A lane-wise consumer is split at the same column, so that each
      // half of the matmul can apply its half in registers.
      linalg::GenericOp epilogueHalves[2];
      graphopt::LaneWiseEpilogue e;
      if (fuseMatmulEpilogues && !batched &&
          zeroFillOf(op.getDpsInitOperand(0)->get()) &&
          graphopt::matchLaneWiseUser(op->getResult(0), e) &&
          e.op->getBlock() == op->getBlock()) {
        rewriter.setInsertionPoint(e.op);
        auto [h, t] = linalg::splitOp(
            rewriter, cast<TilingInterface>(e.op.getOperation()), 1,
            rewriter.getIndexAttr(main));
        epilogueHalves[0] = dyn_cast_if_present<linalg::GenericOp>(
            h ? h.getOperation() : nullptr);
        epilogueHalves[1] = dyn_cast_if_present<linalg::GenericOp>(
            t ? t.getOperation() : nullptr);
      }
      rewriter.setInsertionPoint(op);
      Value zeroFilled = op.getDpsInitOperand(0)->get();
      auto [head, tail] = linalg::splitOp(
          rewriter, cast<TilingInterface>(op.getOperation()), nDim,
          rewriter.getIndexAttr(main));
      if (head && tail) {
        Operation *halves[2] = {head.getOperation(), tail.getOperation()};
        // Each half's output starts as its slice of the zero fill: a fill
        // of its own, which the half then takes over.
        if (linalg::FillOp fill = zeroFillOf(zeroFilled)) {
          for (Operation *half : halves) {
            OpOperand *init = cast<linalg::LinalgOp>(half).getDpsInitOperand(0);
            auto slice = init->get().getDefiningOp<tensor::ExtractSliceOp>();
            if (!slice)
              continue;
            // The tail's slice is of the fill with the head inserted, at
            // columns the head does not cover.
            Value source = slice.getSource();
            tensor::InsertSliceOp headInserted;
            if (auto insert = source.getDefiningOp<tensor::InsertSliceOp>();
                insert && insert.getSource() == halves[0]->getResult(0) &&
                getConstantIntValue(slice.getMixedOffsets()[nDim]) == main) {
              source = insert.getDest();
              headInserted = insert;
            }
            if (source != fill.getResult(0))
              continue;
            // The tail's output is a slice of the tensor the head is
            // inserted into (whose dest becomes the unfilled tensor below),
            // not of that tensor before the insertion: one-shot
            // bufferization would then see the tail written into an older
            // version of the head's buffer, and copy the head out of it.
            // (Not with a split epilogue, whose halves are the results:
            // the matmul halves' results must stay its only readers.)
            rewriter.setInsertionPoint(half);
            Value dest = tensor::ExtractSliceOp::create(
                rewriter, slice.getLoc(),
                headInserted && !epilogueHalves[0] ? headInserted.getResult()
                                                   : fill.getOutputs()[0],
                slice.getMixedOffsets(), slice.getMixedSizes(),
                slice.getMixedStrides());
            Value filled = linalg::FillOp::create(rewriter, fill.getLoc(),
                                                  fill.getInputs()[0], dest)
                               .getResult(0);
            rewriter.modifyOpInPlace(half, [&] { init->set(filled); });
            if (slice->use_empty())
              rewriter.eraseOp(slice);
          }
          // The two halves cover the whole output: the head is inserted
          // into the unfilled tensor, not the zero fill.
          for (OpOperand &use :
               llvm::make_early_inc_range(fill.getResult(0).getUses()))
            if (auto insert = dyn_cast<tensor::InsertSliceOp>(use.getOwner()))
              if (insert.getSource() == halves[0]->getResult(0) &&
                  &use == &insert.getDestMutable())
                rewriter.modifyOpInPlace(
                    insert, [&] { use.set(fill.getOutputs()[0]); });
          eraseIfUnused(rewriter, fill);
        }
        if (epilogueHalves[0] && epilogueHalves[1]) {
          // Each epilogue half reads its matmul half directly (not a slice
          // of the two halves' combined result, which is then unused).
          Value combined;
          for (int i = 0; i < 2; ++i) {
            OpOperand &use = epilogueHalves[i]->getOpOperand(e.operand);
            auto slice = use.get().getDefiningOp<tensor::ExtractSliceOp>();
            rewriter.modifyOpInPlace(epilogueHalves[i],
                                     [&] { use.set(halves[i]->getResult(0)); });
            if (slice) {
              combined = slice.getSource();
              if (slice->use_empty())
                rewriter.eraseOp(slice);
            }
          }
          while (combined && combined.use_empty()) {
            auto insert = combined.getDefiningOp<tensor::InsertSliceOp>();
            if (!insert)
              break;
            combined = insert.getDest();
            rewriter.eraseOp(insert);
          }
        }
        LogicalResult a =
            tileMatmul(rewriter, cast<linalg::LinalgOp>(head.getOperation()));
        LogicalResult b =
            tileMatmul(rewriter, cast<linalg::LinalgOp>(tail.getOperation()));
        return success(succeeded(a) && succeeded(b));
      }
    }
    // Rows by the vector registers unless given: 8 x 2 vectors of
    // accumulators leave AVX-512's 32 registers room for the B vectors and
    // the broadcast, but would take all of AVX2's 16 (4 of them spilled
    // and reloaded every k step); 6 x 2 fits there.
    int64_t registers = graphopt::vectorRegisters(vectorWidth);
    int64_t mr = matmulTileM > 0 ? matmulTileM : (registers >= 32 ? 8 : 6);
    int64_t nr = matmulTileNVectors * vectorWidth;
    // Static sizes: shrink the block to the largest that divides them, so
    // every tile is full and vectorizes without masks (a prime dim degrades
    // to thin blocks, still correct). Dynamic sizes tile with the full
    // block; their tiles stay scalar.
    int64_t m = ranges[batched ? 1 : 0], n = ranges[batched ? 2 : 1];
    mr = largestDivisor(m, mr);
    // The column block should be whole vectors (784 columns: 16, not 28,
    // whose 28-lane vectors LLVM splits badly: 8x slower).
    if (!ShapedType::isDynamic(n) && n % vectorWidth == 0)
      nr = largestDivisor(n / vectorWidth, matmulTileNVectors) * vectorWidth;
    else
      nr = largestDivisor(n, nr);
    // Large matmuls: packed B panels and cache blocking (CPUMatmul.h);
    // the inner block matmul then gets the register kernel below.
    // (Not a matmul given with its own maps, such as attention's P^T V:
    // packing reads the operands in the standard layout.)
    if (packMatmuls && !batched && hasStaticLoops(op) &&
        nr % vectorWidth == 0 && !op.hasUserDefinedMaps()) {
      int64_t k = ranges[2];
      graphopt::CPUMatmulBlocking blocking =
          graphopt::chooseMatmulBlocking(m, n, k, mr, nr, caches, threads);
      if (graphopt::shouldPackMatmul(m, n, k, blocking)) {
        // An output that starts as a zero fill is not filled as a whole:
        // each register block's tile is zeroed in the first reduction
        // block, in cache, right before its k loop (saving a pass that
        // writes the whole output).
        OpOperand *init = op.getDpsInitOperand(0);
        linalg::FillOp fill = zeroFillOf(init->get());
        Value original = init->get();
        std::optional<graphopt::LaneWiseEpilogue> epilogue;
        if (fill) {
          epilogue = takeOverEpilogue(rewriter, op);
          Value start = epilogue ? epilogue->op.getDpsInitOperand(0)->get()
                                 : fill.getOutputs()[0];
          rewriter.modifyOpInPlace(op, [&] { init->set(start); });
        }
        SmallVector<linalg::LinalgOp> packOps;
        Value firstKBlock, lastKBlock;
        bool bPacked = false;
        FailureOr<linalg::LinalgOp> inner =
            graphopt::packAndBlockMatmul(rewriter, op, blocking, packOps,
                                         &firstKBlock, &bPacked, &lastKBlock);
        if (succeeded(inner)) {
          ++numPacked;
          if (fill)
            eraseIfUnused(rewriter, fill);
          for (linalg::LinalgOp pack : packOps)
            (void)tileInnermost(rewriter, pack);
          if (fill)
            fillInitWhere(rewriter, *inner, firstKBlock);
          // The next B panel's rows are prefetched while this one's are
          // computed (graph-cpu-prefetch): K rows further on.
          return registerTile(rewriter, *inner, mr, nr, bPacked ? ranges[2] : 0,
                              epilogue ? &*epilogue : nullptr, lastKBlock);
        }
        if (fill)
          rewriter.modifyOpInPlace(op, [&] { init->set(original); });
      }
    }
    // Unpacked, an output that starts as a zero fill: each register block
    // is zeroed right before its k loop (its accumulators start at zero in
    // registers) instead of the whole fill being written, then read back
    // by every block (attention's score block: a 16 KB zero tile copied in
    // per key block).
    if (!batched && hasStaticLoops(op)) {
      OpOperand *init = op.getDpsInitOperand(0);
      if (linalg::FillOp fill = zeroFillOf(init->get())) {
        std::optional<graphopt::LaneWiseEpilogue> epilogue =
            takeOverEpilogue(rewriter, op);
        Value start = epilogue ? epilogue->op.getDpsInitOperand(0)->get()
                               : fill.getOutputs()[0];
        rewriter.modifyOpInPlace(op, [&] { init->set(start); });
        eraseIfUnused(rewriter, fill);
        // Register blocks with the whole k range, column blocks outermost
        // (as registerTile orders them), each zero-filled, then the k loop.
        auto blocks = tile(rewriter, cast<TilingInterface>(op.getOperation()),
                           {mr, nr, 0}, {1, 0, 2});
        if (failed(blocks))
          return failure();
        auto block = cast<linalg::LinalgOp>(blocks->tiledOps.front());
        Value yes = arith::ConstantOp::create(rewriter, block.getLoc(),
                                              rewriter.getBoolAttr(true));
        fillInitWhere(rewriter, block, yes);
        return registerTile(rewriter, block, mr, nr, 0,
                            epilogue ? &*epilogue : nullptr, yes);
      }
    }
    return registerTile(rewriter, op, mr, nr);
  }

  /// A matmul whose columns after the whole blocks (`main`) are fewer than
  /// a vector (49 = 32 + 16 + 1 tiles of a Winograd convolution on a 14x14
  /// image; 196 = 6 x 32 + 4 pixels) computes them as one whole vector
  /// ending at the last column, overlapping the block before it: the
  /// overlapped columns are computed twice, to the same values. As blocks
  /// of their own, one column ran the register kernel at a sixteenth of
  /// its rate, from an A it did not pack (the 1-column remainder of a
  /// [256 x 256] x [256 x 49] matmul took as long as its 32-column block).
  /// Only for an output that starts as a zero fill (the result does not
  /// depend on what is overwritten) with no lane-wise consumer (whose
  /// epilogue the split matmul would apply in registers).
  LogicalResult overlapNarrowTail(RewriterBase &rewriter, linalg::LinalgOp op,
                                  int64_t main) {
    auto matmul = dyn_cast<linalg::MatmulOp>(op.getOperation());
    if (!matmul || matmul.hasUserDefinedMaps() || !hasStaticLoops(op) ||
        !op.hasPureTensorSemantics())
      return failure();
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    int64_t m = ranges[0], n = ranges[1], k = ranges[2];
    if (main <= 0 || n - main >= vectorWidth || n < vectorWidth)
      return failure();
    linalg::FillOp fill = zeroFillOf(op.getDpsInitOperand(0)->get());
    graphopt::LaneWiseEpilogue e;
    if (!fill || (fuseMatmulEpilogues &&
                  graphopt::matchLaneWiseUser(op->getResult(0), e)))
      return failure();
    Location loc = op.getLoc();
    Value a = op.getDpsInputOperand(0)->get();
    Value b = op.getDpsInputOperand(1)->get();
    Value zero = fill.getInputs()[0];
    auto columns = [&](Value v, int64_t col, int64_t rows, int64_t cols) {
      auto type = cast<RankedTensorType>(v.getType());
      return tensor::ExtractSliceOp::create(
                 rewriter, loc,
                 RankedTensorType::get({rows, cols}, type.getElementType()), v,
                 ArrayRef<OpFoldResult>{rewriter.getIndexAttr(0),
                                        rewriter.getIndexAttr(col)},
                 ArrayRef<OpFoldResult>{rewriter.getIndexAttr(rows),
                                        rewriter.getIndexAttr(cols)},
                 ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1),
                                        rewriter.getIndexAttr(1)})
          .getResult();
    };
    auto part = [&](Value dest, int64_t col,
                    int64_t cols) -> std::pair<linalg::MatmulOp, Value> {
      Value out = linalg::FillOp::create(rewriter, loc, zero,
                                         columns(dest, col, m, cols))
                      .getResult(0);
      auto mm = linalg::MatmulOp::create(
          rewriter, loc, TypeRange{out.getType()},
          ValueRange{a, columns(b, col, k, cols)}, ValueRange{out});
      Value inserted = tensor::InsertSliceOp::create(
          rewriter, loc, mm.getResult(0), dest,
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(0),
                                 rewriter.getIndexAttr(col)},
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(m),
                                 rewriter.getIndexAttr(cols)},
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1),
                                 rewriter.getIndexAttr(1)});
      return {mm, inserted};
    };
    rewriter.setInsertionPoint(op);
    // The tail's output is a slice of the tensor the head is inserted
    // into, so that both are written in place in one buffer.
    auto [head, withHead] = part(fill.getOutputs()[0], 0, main);
    auto [tail, whole] = part(withHead, n - vectorWidth, vectorWidth);
    rewriter.replaceOp(op, whole);
    eraseIfUnused(rewriter, fill);
    LogicalResult h = tileMatmul(rewriter, head);
    LogicalResult t = tileMatmul(rewriter, tail);
    return success(succeeded(h) && succeeded(t));
  }

  /// A single-row matmul (a matrix-vector product: a classifier or a
  /// batch-1 linear layer) whose B does not fit in L1 streams B's rows in
  /// order: blocks of `kb` rows, each swept in `nb`-column pieces that add
  /// `kb` broadcast-times-row products into the output row, which stays
  /// in L1; columns that are not whole vectors are the sweep's last piece
  /// (in the same k block, so that each row is read once, in order). The
  /// register kernel's order instead reads B in column panels, a short
  /// piece of every row per panel: one or two cache lines a page apart,
  /// which neither the prefetchers nor the page walker keep up with when
  /// B comes from L3 or memory (MobileNetV3's 1024 x 1000 classifier: 4 MB
  /// at ~10 GB/s on a Zen 4, where NumPy's row order reads at ~70). The
  /// output's zero fill and epilogue stay separate ops (a pass over a row).
  LogicalResult streamRowsOfB(RewriterBase &rewriter, linalg::LinalgOp op) {
    if (!isa<linalg::MatmulOp>(op.getOperation()) || op.hasUserDefinedMaps() ||
        !hasStaticLoops(op))
      return failure();
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    int64_t m = ranges[0], n = ranges[1], k = ranges[2];
    if (m != 1 || k * n * 4 <= caches.l1 ||
        !getElementTypeOrSelf(op->getOperand(1).getType()).isF32())
      return failure();
    // The k blocks: the outer loop.
    int64_t kb = largestDivisor(k, 8);
    auto blocks =
        tile(rewriter, cast<TilingInterface>(op.getOperation()), {0, 0, kb});
    if (failed(blocks))
      return failure();
    // (Tiled, the op is gone: from here a piece that does not vectorize
    // stays scalar.)
    auto block = cast<linalg::LinalgOp>(blocks->tiledOps.front());
    SmallVector<linalg::LinalgOp> pieces = {block};
    int64_t main = n / vectorWidth * vectorWidth;
    if (main > 0 && main < n) {
      rewriter.setInsertionPoint(block);
      auto [head, tail] =
          linalg::splitOp(rewriter, cast<TilingInterface>(block.getOperation()),
                          1, rewriter.getIndexAttr(main));
      if (!head || !tail)
        return success();
      pieces = {cast<linalg::LinalgOp>(head.getOperation()),
                cast<linalg::LinalgOp>(tail.getOperation())};
    }
    bool vectorized = false;
    for (linalg::LinalgOp piece : pieces) {
      int64_t cols = piece.getStaticLoopRanges()[1];
      // Whole vectors: 1, 2 or 4 of them per piece (LLVM splits a
      // power-of-two multiple of the register cleanly, not 3 or 7 of
      // them); the remainder is one piece.
      if (cols % vectorWidth == 0) {
        int64_t nb = vectorWidth;
        while (nb < 4 * vectorWidth && cols % (2 * nb) == 0)
          nb *= 2;
        auto tiled = tile(rewriter, cast<TilingInterface>(piece.getOperation()),
                          {1, nb, 0});
        if (failed(tiled))
          continue;
        piece = cast<linalg::LinalgOp>(tiled->tiledOps.front());
      }
      if (hasStaticLoops(piece) &&
          succeeded(vectorizeAndReplace(rewriter, piece, /*vectorSizes=*/{},
                                        /*createNamedContraction=*/true)))
        vectorized = true;
    }
    if (vectorized)
      ++numRowStreamed;
    return success();
  }

  /// The lane-wise consumer of the 2-D matmul `op` (bias, activation,
  /// residual add: what fusion left after it in the same tile) when the
  /// register kernel can apply it to each finished block before the block's
  /// one store. The matmul is moved right before the consumer, whose output
  /// it is about to write (its other operands are defined by then). The
  /// consumer is replaced once the kernel applies it (registerTile).
  std::optional<graphopt::LaneWiseEpilogue>
  takeOverEpilogue(RewriterBase &rewriter, linalg::LinalgOp op) {
    graphopt::LaneWiseEpilogue e;
    if (!fuseMatmulEpilogues || !isa<linalg::MatmulOp>(op.getOperation()) ||
        !graphopt::matchLaneWiseUser(op->getResult(0), e) ||
        e.op->getBlock() != op->getBlock())
      return std::nullopt;
    rewriter.moveOpBefore(op, e.op);
    return e;
  }

  /// The zero fill that produces `v`, if it is one.
  static linalg::FillOp zeroFillOf(Value v) {
    auto fill = v.getDefiningOp<linalg::FillOp>();
    return fill && matchPattern(fill.getInputs()[0], m_AnyZeroFloat())
               ? fill
               : linalg::FillOp();
  }

  /// Erases `fill`, which a matmul has taken over, unless something else
  /// still reads it.
  void eraseIfUnused(RewriterBase &rewriter, linalg::FillOp fill) {
    if (!fill->use_empty())
      return;
    rewriter.eraseOp(fill);
  }

  /// Zero-fills the output operand of `op` where `cond` holds (an scf.if
  /// around the fill); the fill is vectorized when its shape is static.
  void fillInitWhere(RewriterBase &rewriter, linalg::LinalgOp op, Value cond) {
    rewriter.setInsertionPoint(op);
    Location loc = op.getLoc();
    OpOperand *init = op.getDpsInitOperand(0);
    Value current = init->get();
    Value zero = arith::ConstantOp::create(
        rewriter, loc, rewriter.getZeroAttr(getElementTypeOrSelf(current)));
    auto makeFill = [&]() -> Value {
      auto fill = linalg::FillOp::create(rewriter, loc, zero, current);
      Value result = fill.getResult(0);
      auto type = cast<RankedTensorType>(result.getType());
      if (!type.hasStaticShape())
        return result;
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(fill);
      SmallVector<bool> scalable(type.getRank(), false);
      FailureOr<linalg::VectorizationResult> vectorized = linalg::vectorize(
          rewriter, fill, type.getShape(), scalable);
      if (failed(vectorized) || vectorized->replacements.size() != 1)
        return result;
      rewriter.replaceOp(fill, vectorized->replacements);
      return vectorized->replacements.front();
    };
    auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{current.getType()},
                                  cond, /*withElseRegion=*/true);
    rewriter.setInsertionPointToStart(ifOp.thenBlock());
    scf::YieldOp::create(rewriter, loc, makeFill());
    rewriter.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(rewriter, loc, current);
    rewriter.modifyOpInPlace(op, [&] { init->set(ifOp.getResult(0)); });
  }

  /// The register kernel: `mr x nr` blocks over a unit k step, vectorized
  /// into outer products with the accumulator hoisted out of the k loop.
  /// `prefetchPanelRows` > 0: the B operand is a packed panel whose next
  /// panel lies that many rows further on; the k loop is marked for
  /// graph-cpu-prefetch.
  /// `epilogue`: the matmul's output operand is the epilogue's output; the
  /// epilogue is applied to each block where `lastKBlock` holds (null:
  /// always) before the block is stored, and then replaced by the matmul.
  LogicalResult
  registerTile(RewriterBase &rewriter, linalg::LinalgOp op, int64_t mr,
               int64_t nr, int64_t prefetchPanelRows = 0,
               const graphopt::LaneWiseEpilogue *epilogue = nullptr,
               Value lastKBlock = {}) {
    // The tensor the epilogue's loops index: its output, which the matmul
    // (before tiling) took as its own.
    Value root =
        epilogue ? linalg::GenericOp(epilogue->op).getDpsInitOperand(0)->get()
                 : Value();
    bool batched = isa<linalg::BatchMatmulOp>(op);
    SmallVector<int64_t> sizes = batched ? SmallVector<int64_t>{1, mr, nr, 1}
                                         : SmallVector<int64_t>{mr, nr, 1};
    // Column blocks outermost: one B panel (K x nr) stays in cache while
    // every row block of A streams past it.
    SmallVector<int64_t> order = batched ? SmallVector<int64_t>{0, 2, 1, 3}
                                         : SmallVector<int64_t>{1, 0, 2};
    auto tiled =
        tile(rewriter, cast<TilingInterface>(op.getOperation()), sizes, order);
    if (failed(tiled))
      return failure();
    auto inner = cast<linalg::LinalgOp>(tiled->tiledOps.front());
    if (!hasStaticLoops(inner))
      return success(); // Tiled; partial blocks stay scalar.
    if (failed(vectorizeAndReplace(rewriter, inner, /*vectorSizes=*/{},
                                   /*createNamedContraction=*/true)))
      return failure();
    // Keep the accumulator tile in registers across the k loop: hoist the
    // read/write of the C block (a subset of the loop-carried tensor).
    auto kLoop = cast<LoopLikeOpInterface>(tiled->loops.back().getOperation());
    kLoop = hoistLoopInvariantSubsets(rewriter, kLoop);
    // Once more for the vector read/write of the tile the first hoisting
    // made loop-carried: the loop then yields the accumulator.
    if (epilogue) {
      moveLoopInvariantCode(kLoop); // the transfers' constant indices
      kLoop = hoistLoopInvariantSubsets(rewriter, kLoop);
    }
    if (prefetchPanelRows > 0)
      kLoop->setAttr(graphopt::kPrefetchPanelRowsAttr,
                     rewriter.getI64IntegerAttr(prefetchPanelRows));
    if (epilogue && !batched &&
        succeeded(applyBlockEpilogue(rewriter, kLoop.getOperation(), root,
                                     *epilogue, lastKBlock))) {
      ++numEpilogues;
      // The matmul's result now holds the epilogue's values.
      rewriter.replaceOp(epilogue->op,
                         epilogue->op->getOperand(epilogue->operand));
    }
    return success();
  }

  /// Offsets of `tile` in `root`, through the slices and loop-carried
  /// values that tiling put between them (and the scf.if that zero-fills a
  /// block in its first reduction block, fillInitWhere). Built at the
  /// rewriter's insertion point.
  static std::optional<SmallVector<OpFoldResult>>
  tileOffsets(RewriterBase &rewriter, Location loc, Value tile, Value root) {
    MLIRContext *ctx = rewriter.getContext();
    auto type = dyn_cast<RankedTensorType>(root.getType());
    if (!type)
      return std::nullopt;
    SmallVector<OpFoldResult> offsets(type.getRank(), rewriter.getIndexAttr(0));
    AffineExpr d0, d1;
    bindDims(ctx, d0, d1);
    for (int steps = 0; tile != root; ++steps) {
      if (steps > 64)
        return std::nullopt;
      if (auto slice = tile.getDefiningOp<tensor::ExtractSliceOp>()) {
        if (slice.getSourceType().getRank() != type.getRank() ||
            slice.getResultType().getRank() != type.getRank() ||
            !slice.hasUnitStride())
          return std::nullopt;
        for (auto [o, s] : llvm::zip(offsets, slice.getMixedOffsets()))
          o = affine::makeComposedFoldedAffineApply(rewriter, loc, d0 + d1,
                                                    {o, s});
        tile = slice.getSource();
        continue;
      }
      if (auto arg = dyn_cast<BlockArgument>(tile)) {
        auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
        OpOperand *init = loop ? loop.getTiedLoopInit(arg) : nullptr;
        if (!init)
          return std::nullopt;
        tile = init->get();
        continue;
      }
      if (auto loop = tile.getDefiningOp<scf::ForOp>()) {
        // A value the loop carries through unchanged (the output tile of the
        // k loop once its accumulator is hoisted).
        unsigned i = cast<OpResult>(tile).getResultNumber();
        if (loop.getYieldedValues()[i] != loop.getRegionIterArgs()[i])
          return std::nullopt;
        tile = loop.getInits()[i];
        continue;
      }
      if (auto ifOp = tile.getDefiningOp<scf::IfOp>()) {
        // fillInitWhere: the else branch yields the block unchanged.
        if (ifOp.getElseRegion().empty())
          return std::nullopt;
        tile = ifOp.elseYield()->getOperand(
            cast<OpResult>(tile).getResultNumber());
        continue;
      }
      return std::nullopt;
    }
    return offsets;
  }

  /// Applies `e` to the accumulator block that `kLoop` (the register
  /// kernel's k loop, accumulator hoisted) yields, where `lastKBlock` holds,
  /// before the block's store.
  LogicalResult applyBlockEpilogue(RewriterBase &rewriter, Operation *kLoop,
                                   Value root,
                                   const graphopt::LaneWiseEpilogue &e,
                                   Value lastKBlock) {
    vector::TransferWriteOp write;
    for (OpResult r : kLoop->getResults())
      for (Operation *user : r.getUsers())
        if (auto w = dyn_cast<vector::TransferWriteOp>(user))
          if (w.getVector() == r)
            write = w;
    if (!write || !write.getPermutationMap().isMinorIdentity() ||
        write.getVectorType().getRank() != 2 || write.hasOutOfBoundsDim() ||
        write.getMask() || linalg::GenericOp(e.op).getNumLoops() != 2)
      return failure();
    Location loc = write.getLoc();
    rewriter.setInsertionPoint(write);
    std::optional<SmallVector<OpFoldResult>> offsets =
        tileOffsets(rewriter, loc, write.getBase(), root);
    if (!offsets)
      return failure();
    AffineExpr d0, d1;
    bindDims(rewriter.getContext(), d0, d1);
    SmallVector<Value> at;
    for (auto [o, i] : llvm::zip(*offsets, write.getIndices()))
      at.push_back(
          getValueOrCreateConstantIndexOp(rewriter, loc,
                                          affine::makeComposedFoldedAffineApply(
                                              rewriter, loc, d0 + d1, {o, i})));
    VectorType type = write.getVectorType();
    int64_t rows = type.getDimSize(0), lanes = type.getDimSize(1);
    Value acc = write.getVector();
    auto build = [&]() {
      Value result = acc;
      for (int64_t r = 0; r < rows; ++r) {
        Value row = vector::ExtractOp::create(rewriter, loc, acc, r);
        Value index = getValueOrCreateConstantIndexOp(
            rewriter, loc,
            affine::makeComposedFoldedAffineApply(
                rewriter, loc, d0 + r, ArrayRef<OpFoldResult>{at[0]}));
        Value v = graphopt::applyLaneWiseEpilogue(
            rewriter, loc, e, row, ArrayRef<Value>{index, at[1]}, lanes);
        result = vector::InsertOp::create(rewriter, loc, v, result, r);
      }
      return result;
    };
    Value finished;
    if (!lastKBlock || matchPattern(lastKBlock, m_One())) {
      finished = build();
    } else {
      auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{type}, lastKBlock,
                                    /*withElseRegion=*/true);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
      scf::YieldOp::create(rewriter, loc, build());
      rewriter.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(rewriter, loc, acc);
      finished = ifOp.getResult(0);
    }
    rewriter.modifyOpInPlace(
        write, [&] { write.getValueToStoreMutable().set(finished); });
    return success();
  }

  /// Gives every matmul that starts from a shared zero fill a fill of its
  /// own, of a tensor.empty of its own. CSE merges the identical fills
  /// of same-shaped outputs (the 16 matmuls of a Winograd convolution, a
  /// layer's Q, K and V projections); a matmul then takes the fill over
  /// (its register blocks start from zero) and inserts its result into the
  /// fill's empty tensor, which the others insert into too: one-shot
  /// bufferization then writes all but one of them into buffers of their
  /// own and copies them back, element by element.
  void unshareFills(RewriterBase &rewriter, func::FuncOp fn) {
    SmallVector<linalg::FillOp> fills;
    fn.walk([&](linalg::FillOp fill) {
      if (fill.hasPureTensorSemantics() && !fill->getResult(0).hasOneUse() &&
          fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>())
        fills.push_back(fill);
    });
    for (linalg::FillOp fill : fills) {
      auto empty = fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>();
      SmallVector<OpOperand *> inits;
      for (OpOperand &use : fill->getResult(0).getUses())
        if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(use.getOwner()) &&
            cast<linalg::LinalgOp>(use.getOwner()).isDpsInit(&use))
          inits.push_back(&use);
      if (inits.size() < 2)
        continue;
      // The first keeps the original.
      for (OpOperand *init : llvm::drop_begin(inits)) {
        Operation *user = init->getOwner();
        rewriter.setInsertionPoint(user);
        auto ownEmpty = tensor::EmptyOp::create(
            rewriter, empty.getLoc(), empty.getType(), empty.getDynamicSizes());
        auto ownFill =
            linalg::FillOp::create(rewriter, fill.getLoc(), fill.getInputs(),
                                   ValueRange{ownEmpty.getResult()});
        rewriter.modifyOpInPlace(user,
                                 [&] { init->set(ownFill.getResult(0)); });
      }
    }
  }

  /// A copy whose input index along some dim is the innermost loop (times
  /// 1 or 2) plus other loops (`q + j`, `2q + j`: the im2col of a stride-1
  /// or stride-2 convolution) reads `vw` consecutive (or every other)
  /// elements per tile, though its maps are not projected permutations
  /// (which linalg's vectorizer needs). Tiled to `vw` along the innermost
  /// loop and 1 elsewhere, each tile is one transfer_read (two and a
  /// shuffle for stride 2) and one transfer_write.
  LogicalResult vectorizeShiftedCopy(RewriterBase &rewriter,
                                     linalg::LinalgOp op, int64_t vw) {
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic || !generic.isSingleYieldOp() || !hasStaticLoops(op))
      return failure();
    int64_t rank = op.getNumLoops();
    AffineExpr innerDim = getAffineDimExpr(rank - 1, op->getContext());
    // The position of the one result of `map` that moves with the innermost
    // loop at stride `stride` (`stride * innermost + terms of other loops`).
    auto stridedResult = [&](AffineMap map,
                             int64_t stride) -> std::optional<unsigned> {
      std::optional<unsigned> pos;
      for (auto [i, e] : llvm::enumerate(map.getResults())) {
        if (!e.isFunctionOfDim(rank - 1))
          continue;
        AffineExpr rest = simplifyAffineExpr(
            e - innerDim * stride, map.getNumDims(), map.getNumSymbols());
        if (pos || rest.isFunctionOfDim(rank - 1))
          return std::nullopt;
        pos = i;
      }
      return pos;
    };
    AffineMap inMap = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
    // Stride 2 (the im2col of a stride-2 convolution): two overlapping
    // vectors of input, their even elements shuffled together.
    int64_t stride = 1;
    std::optional<unsigned> inPos = stridedResult(inMap, 1);
    if (!inPos && vw % 2 == 0) {
      inPos = stridedResult(inMap, 2);
      stride = 2;
    }
    std::optional<unsigned> outPos =
        stridedResult(op.getMatchingIndexingMap(op.getDpsInitOperand(0)), 1);
    if (!inPos || !outPos)
      return failure();
    SmallVector<int64_t> sizes(rank, 1);
    sizes.back() = vw;
    FailureOr<CopyTile> tiled = tileCopy(rewriter, op, sizes);
    if (failed(tiled))
      return failure();
    auto [inner, in, out] = *tiled;
    auto inType = cast<RankedTensorType>(in.getType());
    auto outType = cast<RankedTensorType>(out.getType());
    if (!inType.hasStaticShape() ||
        inType.getDimSize(*inPos) != (vw - 1) * stride + 1 ||
        outType.getDimSize(*outPos) != vw)
      return failure();
    rewriter.setInsertionPoint(inner);
    Location loc = inner.getLoc();
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    auto vecType = VectorType::get({vw}, inType.getElementType());
    auto readMap = AffineMap::get(inType.getRank(), 0,
                                  getAffineDimExpr(*inPos, op->getContext()));
    auto writeMap = AffineMap::get(outType.getRank(), 0,
                                   getAffineDimExpr(*outPos, op->getContext()));
    SmallVector<Value> indices(inType.getRank(), zero);
    Value vec = vector::TransferReadOp::create(
        rewriter, loc, vecType, in, indices, std::nullopt, readMap,
        ArrayRef<bool>{true});
    if (stride == 2) {
      // Elements 0, 2, ..., 2vw - 2: the even lanes of [0, vw) and of
      // [vw - 1, 2vw - 1) (odd lanes there), both in bounds.
      indices[*inPos] = arith::ConstantIndexOp::create(rewriter, loc, vw - 1);
      Value high = vector::TransferReadOp::create(
          rewriter, loc, vecType, in, indices, std::nullopt, readMap,
          ArrayRef<bool>{true});
      SmallVector<int64_t> mask;
      for (int64_t i = 0; i < vw; ++i)
        mask.push_back(2 * i < vw ? 2 * i : 2 * i + 1);
      vec = vector::ShuffleOp::create(rewriter, loc, vec, high,
                                      rewriter.getDenseI64ArrayAttr(mask));
    }
    auto write = vector::TransferWriteOp::create(
        rewriter, loc, vec, out, SmallVector<Value>(outType.getRank(), zero),
        writeMap, ArrayRef<bool>{true});
    rewriter.replaceOp(inner, write->getResults());
    return success();
  }

  /// The phase split of a padded image (`phaseImages`, ahead of a stride-2
  /// or Winograd convolution): out[c, py, px, i, j] = in[c, 2i + py,
  /// 2j + px], [C, 2 Hq, 2 Wq] -> [C, 2, 2, Hq, Wq]. Its phase width is
  /// often prime (29 for a 56-wide image), which leaves the generic tiling
  /// no vector width: it stayed a scalar loop nest in the caller, which
  /// LLVM unrolled into blocks of 1,400 loads and stores (a third of a
  /// ResNet-50's machine-code time went to scheduling them). Tiled per
  /// input row instead: each row is read as vectors of 2 vw elements and
  /// split into its even and odd elements by two shuffles, written as vw
  /// elements of the px = 0 and px = 1 phases; a last partial chunk is
  /// masked.
  LogicalResult vectorizePhaseSplit(RewriterBase &rewriter,
                                    linalg::LinalgOp op) {
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic || !generic.isSingleYieldOp() || op.getNumDpsInputs() != 1 ||
        op.getNumDpsInits() != 1 || op.getNumLoops() != 5 ||
        !hasStaticLoops(op))
      return failure();
    MLIRContext *ctx = op->getContext();
    AffineExpr c, py, px, i, j;
    bindDims(ctx, c, py, px, i, j);
    if (op.getMatchingIndexingMap(op.getDpsInputOperand(0)) !=
            AffineMap::get(5, 0, {c, i * 2 + py, j * 2 + px}, ctx) ||
        !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
      return failure();
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    int64_t wq = ranges[4];
    auto sourceType =
        dyn_cast<RankedTensorType>(op.getDpsInputOperand(0)->get().getType());
    if (ranges[1] != 2 || ranges[2] != 2 || !sourceType ||
        sourceType.getDimSize(2) != 2 * wq)
      return failure();
    // Each tile: one input row, [1, 1, 2 Wq], and its [1, 1, 2, 1, Wq]
    // phase rows.
    FailureOr<CopyTile> tiled = tileCopy(rewriter, op, {1, 1, 2, 1, wq});
    if (failed(tiled))
      return failure();
    // (Named, not bound: the chunk lambda below captures `in`.)
    linalg::LinalgOp inner = tiled->op;
    Value in = tiled->in, out = tiled->out;
    auto inType = cast<RankedTensorType>(in.getType());
    assert(inType.hasStaticShape() && inType.getDimSize(2) == 2 * wq &&
           "a tile is one whole input row");
    // vw: the vector width, or the least power of two covering a narrower
    // row.
    int64_t vw = std::min<int64_t>(vectorWidth, llvm::PowerOf2Ceil(wq));
    Type et = inType.getElementType();
    auto rowType = VectorType::get({2 * vw}, et);
    auto readMap = AffineMap::get(3, 0, getAffineDimExpr(2, ctx));
    auto writeMap = AffineMap::get(5, 0, getAffineDimExpr(4, ctx));
    SmallVector<int64_t> even, odd;
    for (int64_t k = 0; k < vw; ++k) {
      even.push_back(2 * k);
      odd.push_back(2 * k + 1);
    }
    Location loc = inner.getLoc();
    rewriter.setInsertionPoint(inner);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    // Columns [j0, j0 + vw) of both phases from input columns [2 j0,
    // 2 j0 + 2 vw).
    auto chunk = [&](OpBuilder &b, Value j0, Value dest, bool inBounds) {
      Value col = arith::AddIOp::create(b, loc, j0, j0);
      Value row = vector::TransferReadOp::create(
          b, loc, rowType, in, ValueRange{zero, zero, col}, std::nullopt,
          readMap, ArrayRef<bool>{inBounds});
      for (auto [phase, mask] : {std::pair{zero, ArrayRef<int64_t>(even)},
                                 std::pair{one, ArrayRef<int64_t>(odd)}}) {
        Value v = vector::ShuffleOp::create(b, loc, row, row,
                                            b.getDenseI64ArrayAttr(mask));
        dest = vector::TransferWriteOp::create(
                   b, loc, v, dest, ValueRange{zero, zero, phase, zero, j0},
                   writeMap, ArrayRef<bool>{inBounds})
                   .getResult();
      }
      return dest;
    };
    int64_t full = wq / vw * vw;
    if (full > 0) {
      auto loop = scf::ForOp::create(
          rewriter, loc, zero,
          arith::ConstantIndexOp::create(rewriter, loc, full),
          arith::ConstantIndexOp::create(rewriter, loc, vw), ValueRange{out},
          [&](OpBuilder &b, Location, Value j0, ValueRange args) {
            scf::YieldOp::create(b, loc, chunk(b, j0, args[0], true));
          });
      out = loop.getResult(0);
    }
    if (full < wq)
      out = chunk(rewriter, arith::ConstantIndexOp::create(rewriter, loc, full),
                  out, false);
    rewriter.replaceOp(inner, out);
    return success();
  }

  /// A transpose whose input is contiguous along another loop than the
  /// output's innermost one (the packing of a matmul's A operand, an NCHW
  /// <-> NHWC relayout): tiled to `vw` along both of those loops and 1
  /// elsewhere, each tile reads `vw` contiguous vectors of the input,
  /// transposes them in registers (shuffles) and writes `vw` contiguous
  /// vectors. Tiled along the output's innermost loop alone, every element
  /// would be a scalar load.
  LogicalResult vectorizeTranspose(RewriterBase &rewriter, linalg::LinalgOp op) {
    if (op.getNumDpsInits() != 1 || !hasStaticLoops(op) ||
        op.getNumReductionLoops() != 0 ||
        !isa<linalg::TransposeOp, linalg::GenericOp>(op.getOperation()))
      return failure();
    int64_t rank = op.getNumLoops();
    AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    if (rank < 2 || !outMap.isIdentity())
      return failure();
    // The first input read transposed: a permutation whose innermost
    // result is another loop than the output's innermost. (Elementwise
    // ops with such an input too: a transpose that elementwise fusion
    // merged into its consumer, like a convolution's epilogue reading the
    // [pixels][channels] matmul result as NCHW.)
    std::optional<unsigned> inInner;
    for (OpOperand *in : op.getDpsInputOperands()) {
      Type elt = getElementTypeOrSelf(in->get().getType());
      if (!elt.isIntOrFloat() || (elt.getIntOrFloatBitWidth() != 32 &&
                                  elt.getIntOrFloatBitWidth() != 8))
        return failure();
      AffineMap map = op.getMatchingIndexingMap(in);
      if (inInner || !map.isPermutation())
        continue;
      unsigned d = cast<AffineDimExpr>(map.getResults().back()).getPosition();
      if (d != rank - 1)
        inInner = d;
    }
    if (!inInner)
      return failure();
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    int64_t tOut = largestDivisor(ranges[rank - 1], vectorWidth);
    int64_t tIn = largestDivisor(ranges[*inInner], vectorWidth);
    // Narrower than 4 lanes either way, the shuffles do not pay. A width
    // that is not a power of two (196 pixels: 14) is fine: the rows are
    // still whole vectors' worth of consecutive elements.
    if (tOut < 4 || tIn < 4)
      return failure();
    SmallVector<int64_t> sizes(rank, 1);
    sizes[rank - 1] = tOut;
    sizes[*inInner] = tIn;
    linalg::LinalgOp inner = op;
    if (ranges != ArrayRef<int64_t>(sizes)) {
      auto tiled = tile(rewriter, cast<TilingInterface>(op.getOperation()), sizes);
      if (failed(tiled))
        return failure();
      inner = cast<linalg::LinalgOp>(tiled->tiledOps.front());
    }
    if (failed(linalg::vectorizeOpPrecondition(inner, {})))
      return failure();
    return vectorizeAndReplace(rewriter, inner, {});
  }

  /// A copy whose output dims are a permutation of its loops (the im2col
  /// of a convolution whose pixels are the matmul's rows: out[oh][ow][c]
  /// [kh][kw] = in[c][oh + kh][ow + kw]) gets its loops in the output's
  /// order, so that the innermost loop writes consecutive elements; in the
  /// input's order every element went to another cache line (4608 floats
  /// apart for a 512-channel 3x3 convolution: 23% of that layer's time).
  linalg::LinalgOp loopsInOutputOrder(RewriterBase &rewriter,
                                      linalg::LinalgOp op) {
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic || !generic.isSingleYieldOp() ||
        op.getNumReductionLoops() != 0)
      return op;
    AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    if (!outMap.isPermutation() || outMap.isIdentity())
      return op;
    SmallVector<unsigned> order;
    for (AffineExpr e : outMap.getResults())
      order.push_back(cast<AffineDimExpr>(e).getPosition());
    FailureOr<linalg::GenericOp> interchanged =
        linalg::interchangeGenericOp(rewriter, generic, order);
    if (failed(interchanged))
      return op;
    return cast<linalg::LinalgOp>(interchanged->getOperation());
  }

  /// Everything else: vectorize along the innermost dim.
  LogicalResult tileInnermost(RewriterBase &rewriter, linalg::LinalgOp op) {
    int64_t rank = op.getNumLoops();
    if (rank == 0 || touchesI1(op))
      return failure();
    op = loopsInOutputOrder(rewriter, op);
    if (succeeded(vectorizePhaseSplit(rewriter, op)))
      return success();
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    int64_t innermost = ranges.back();
    if (ShapedType::isDynamic(innermost))
      return failure();
    // A static innermost dim is tiled by the largest divisor that fits a
    // vector, so every tile is full and no masks are needed.
    int64_t vw = largestDivisor(innermost, vectorWidth);
    if (vw == 1)
      return failure(); // Nothing to gain; the scalar loop is simpler.
    // LLVM splits odd-sized vectors into power-of-two pieces (14 lanes: 8 +
    // 4 + 2): a power-of-two divisor at least half as wide does as well
    // with whole registers (56 columns: 7 x 8 rather than 4 x 14).
    if (!llvm::isPowerOf2_64(vw)) {
      int64_t pow2 = innermost & -innermost;
      if (pow2 >= 2 && pow2 < vw && 2 * pow2 >= vw)
        vw = pow2;
    }
    // An operand read with a stride along the innermost loop (an im2col
    // copy of a strided convolution: `2 * d5 + d3`) would vectorize into
    // gathers over 1-element tiles: the plain scalar loop nest is faster.
    AffineExpr innerDim = getAffineDimExpr(rank - 1, op->getContext());
    for (AffineMap map : op.getIndexingMapsArray())
      for (AffineExpr e : map.getResults())
        if (e.isFunctionOfDim(rank - 1) && e != innerDim)
          return vectorizeShiftedCopy(rewriter, op, vw);
    if (succeeded(vectorizeTranspose(rewriter, op)))
      return success();
    SmallVector<int64_t> sizes(rank, 1);
    sizes.back() = vw;
    linalg::LinalgOp inner = op;
    bool alreadyTiled = llvm::all_of(llvm::enumerate(ranges), [&](auto it) {
      return it.value() == sizes[it.index()];
    });
    if (!alreadyTiled) {
      auto tiled =
          tile(rewriter, cast<TilingInterface>(op.getOperation()), sizes);
      if (failed(tiled))
        return failure();
      inner = cast<linalg::LinalgOp>(tiled->tiledOps.front());
    }
    // Partial tiles (dynamic sizes) stay scalar: masked vectorization in
    // MLIR 22 produces multi-op vector.mask regions for many of our ops.
    if (!hasStaticLoops(inner))
      return failure();
    ArrayRef<int64_t> vectorSizes;
    if (failed(linalg::vectorizeOpPrecondition(inner, vectorSizes)))
      return failure();
    return vectorizeAndReplace(rewriter, inner, vectorSizes);
  }

  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    caches = graphopt::getHostCacheSizes();
    if (l1CacheBytes > 0)
      caches.l1 = l1CacheBytes;
    if (l2CacheBytes > 0)
      caches.l2 = l2CacheBytes;
    // Every op a rewrite erases (a zero fill a matmul takes over, the
    // activation a window op applies in registers) is recorded so that the
    // walk below does not visit it.
    struct RecordErased : RewriterBase::Listener {
      llvm::DenseSet<Operation *> &set;
      explicit RecordErased(llvm::DenseSet<Operation *> &set) : set(set) {}
      void notifyOperationErased(Operation *op) override { set.insert(op); }
    } record(erased);
    IRRewriter rewriter(&getContext(), &record);
    // Counted while loops (a recurrent model's steps) become for loops,
    // whose carried state one-shot bufferization updates in place: an
    // scf.while's is copied into new buffers every step (the LSTM: two
    // 8 x 256 allocations and copies per step).
    {
      RewritePatternSet uplift(&getContext());
      scf::populateUpliftWhileToForPatterns(uplift);
      if (failed(graphopt::applyPatternsOnly(fn, std::move(uplift))))
        return signalPassFailure();
    }
    unshareFills(rewriter, fn);
    // Slices of constants that matmuls read (a convolution's weight taps)
    // become constants, which the packed kernel packs at compile time.
    {
      RewritePatternSet folds(&getContext());
      tensor::populateFoldConstantExtractSlicePatterns(
          folds, [](tensor::ExtractSliceOp slice) {
            return llvm::any_of(slice->getUsers(), [](Operation *user) {
              return isa<linalg::MatmulOp>(user);
            });
          });
      if (failed(graphopt::applyPatternsOnly(fn, std::move(folds))))
        return signalPassFailure();
      // Stride-1 convolutions (chains of tap matmuls): the direct kernel.
      // Chain ends only: rewriting a chain erases its other matmuls.
      SmallVector<linalg::MatmulOp> ends;
      fn.walk([&](linalg::MatmulOp m) {
        bool accumulated = llvm::any_of(m->getUses(), [](OpOperand &use) {
          auto next = dyn_cast<linalg::MatmulOp>(use.getOwner());
          return next && use.get() == next.getDpsInitOperand(0)->get();
        });
        if (!accumulated && !hasEmptyIterationSpace(m))
          ends.push_back(m);
      });
      for (linalg::MatmulOp m : ends)
        if (graphopt::fuseConvolutionTaps(rewriter, m, vectorWidth))
          ++numDirectConvs;
    }
    // Matmuls first: one whose output starts as a zero fill takes the fill
    // over (its register blocks start from zero) before the fill would be
    // vectorized on its own.
    // So do depthwise convolutions and pooling (vectorizeWindowOp), whose
    // constant initial value is then a register, not a vectorized fill
    // written and read back.
    SmallVector<linalg::LinalgOp> ops, others;
    fn.walk([&](linalg::LinalgOp op) {
      if (!op.hasPureTensorSemantics())
        return;
      bool first = isa<linalg::MatmulOp, linalg::BatchMatmulOp,
                       linalg::DepthwiseConv2DNchwChwOp,
                       linalg::PoolingNchwMaxOp, linalg::PoolingNchwSumOp>(op);
      (first ? ops : others).push_back(op);
    });
    ops.append(others.begin(), others.end());
    erased.clear();
    for (linalg::LinalgOp op : ops) {
      if (erased.contains(op))
        continue;
      // A zero-size dim: the loops run no iteration; nothing to tile.
      if (hasEmptyIterationSpace(op)) {
        ++numNotVectorized;
        continue;
      }
      if (graphopt::vectorizeWindowOp(rewriter, op, vectorWidth)) {
        ++numVectorized;
        continue;
      }
      // A transpose of a constant (a weight laid out for a matmul) is
      // evaluated here, after the matmuls: those that pack it read it
      // through a ConstantView and leave it unused, and only what the code
      // still reads becomes a constant.
      if (auto transpose = dyn_cast<linalg::TransposeOp>(op.getOperation())) {
        if (transpose->use_empty()) {
          rewriter.eraseOp(transpose);
          continue;
        }
        if (graphopt::ConstantView view =
                graphopt::ConstantView::of(transpose->getResult(0))) {
          rewriter.setInsertionPoint(transpose);
          rewriter.replaceOpWithNewOp<arith::ConstantOp>(transpose,
                                                         view.toAttr());
          continue;
        }
      }
      bool isMatmul = isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op);
      LogicalResult r =
          isMatmul ? tileMatmul(rewriter, op) : tileInnermost(rewriter, op);
      if (succeeded(r))
        ++numVectorized;
      else
        ++numNotVectorized;
    }

    // Padding that is still materialized (a convolution's padded image,
    // read by the im2col or the direct kernel): only its border is filled.
    SmallVector<tensor::PadOp> pads;
    fn.walk([&](tensor::PadOp pad) { pads.push_back(pad); });
    for (tensor::PadOp pad : pads)
      fillPadBorders(rewriter, pad);

    // Lower the vector ops the strategy relies on while the IR is on
    // tensors: contractions to outer products (FMAs), transfers.
    RewritePatternSet patterns(&getContext());
    patterns.add<TransposeOfRowBroadcast>(&getContext(), /*benefit=*/2);
    vector::populateVectorContractLoweringPatterns(
        patterns, vector::VectorContractLowering::OuterProduct);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    // In-register transposes (vectorizeTranspose) as one shuffle, which
    // the x86 backend lowers to unpack/permute instructions.
    vector::populateVectorTransposeLoweringPatterns(
        patterns, vector::VectorTransposeLowering::Shuffle1D);
    vector::populateVectorReductionToContractPatterns(patterns);
    vector::populateVectorMultiReductionLoweringPatterns(
        patterns, vector::VectorMultiReductionLowering::InnerReduction);
    // A read whose elements are only used one by one (the register
    // kernel's row of A, each broadcast against B's vectors) as scalar
    // loads, which x86 folds into broadcasts from memory: read as one
    // vector of mr floats, LLVM split a 7-float row into loads of 4, 2 and
    // 1 and extracted with shuffles on the FMA port (one core of the Xeon:
    // ResNet-50's 49 x 256 x 256 Winograd matmul 44.2 -> 42.8 us, the
    // whole model 65.5 -> 64.2 ms).
    vector::populateScalarVectorTransferLoweringPatterns(
        patterns, /*benefit=*/1, /*allowMultipleUses=*/true);
    vector::TransferReadOp::getCanonicalizationPatterns(patterns,
                                                        &getContext());
    vector::TransferWriteOp::getCanonicalizationPatterns(patterns,
                                                         &getContext());
    if (failed(graphopt::applyPatternsOnly(fn, std::move(patterns))))
      return signalPassFailure();
    // The accumulator reads/writes are loop-invariant subsets of the k
    // loops' carried tensors once the vector ops are lowered: hoist them so
    // the accumulators stay in registers. Only a loop with a subset
    // extraction directly in its body has a pair to hoist (a nested loop's
    // are hoisted from that loop): the others are skipped, whose check
    // walked all their nested loops and compared their slices (ResNet-50:
    // 0.19 -> 0.07 s, the same IR).
    SmallVector<scf::ForOp> loops;
    fn.walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      if (llvm::any_of(loop.getBody()->getOperations(), [](Operation &op) {
            return isa<SubsetExtractionOpInterface>(op);
          }))
        hoistLoopInvariantSubsets(rewriter, loop);

    // Every tensor.empty an allocation of its own (bufferization.
    // alloc_tensor, which CSE does not merge): merged, the same-shaped
    // outputs of independent ops (the 16 matmuls of a Winograd
    // convolution, a layer's Q, K and V projections) are slices of one
    // tensor, and one-shot bufferization writes all but one of them into a
    // buffer of their own and copies them over, element by element.
    SmallVector<tensor::EmptyOp> empties;
    fn.walk([&](tensor::EmptyOp e) { empties.push_back(e); });
    for (tensor::EmptyOp e : empties) {
      rewriter.setInsertionPoint(e);
      rewriter.replaceOpWithNewOp<bufferization::AllocTensorOp>(
          e, e.getType(), e.getDynamicSizes());
    }
  }
};

} // namespace
