//===- FusionAttention.cpp - convert-fusion-attention ---------------------===//
//
// fusion.attention -> a flash-attention loop nest on tensors that never
// materializes the [L, S] score matrix. For every batch index and every block
// of Br query rows, the key/value blocks of Bc positions are visited with an
// online softmax: a running row max m, a running row sum l and an [Br, Dv]
// accumulator O, rescaled whenever m grows:
//
//   S  = (Q_blk * scale) K_blk^T  (+ mask; causal and padding: -inf)
//   m' = max(m, rowmax S)    a = exp(m - m')    P = exp(S - m')
//   l' = a l + rowsum P      O' = a O + P V_blk
//   result rows = O / l
//
// The scores are computed transposed, S^T = K_blk (Q_blk * scale)^T
// ([Bc, Br]: keys down, queries across), so that the row statistics are
// reductions across the rows of S^T: elementwise vector max and add over
// vectors of queries, with no horizontal reduction per query row (a NaN-aware
// horizontal maximum costs ~50 instructions a row on x86: a fifth of the
// kernel's time at sequence 2048). P^T is then the left operand of P V as a
// transposed-A matmul, the layout the register kernel broadcasts from; Q is
// transposed once per query block.
//
// Blocks are static-shaped, so graph-cpu-tile-and-vectorize register-blocks
// both matmuls and vectorizes the softmax arithmetic of every block. Lengths
// that blocks do not divide are padded (Q per block, K^T and V per batch
// index with zeros, the mask once); padded key positions are masked with
// -inf and padded query rows are never written out. With `causal`, key
// blocks entirely above the diagonal are skipped, and only the blocks that
// cross the diagonal (or hold padded keys) compute the index mask: the key
// loop is split into an unmasked and a masked part.
//
// A row whose scores are all -inf (fully masked) has m = -inf: exponents are
// then taken against 0 instead of m, so that the row contributes nothing
// rather than NaN to later blocks, and its result is 0/0 = NaN, as the
// op's definition (a softmax over -inf only) gives.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Codegen/Parallel.h"
#include "graphopt/Conversion/Passes.h"
#include "graphopt/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace mlir::graphopt {
#define GEN_PASS_DEF_CONVERTFUSIONATTENTIONPASS
#include "graphopt/Conversion/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;
using namespace mlir::graphopt;

namespace {

using fusion::AttentionOp;

RankedTensorType tensorOf(Value v) {
  return cast<RankedTensorType>(v.getType());
}

Value negInfConstant(OpBuilder &b, Location loc, Type t) {
  return arith::ConstantOp::create(
      b, loc, t,
      b.getFloatAttr(t, APFloat::getInf(cast<FloatType>(t).getFloatSemantics(),
                                        /*Negative=*/true)));
}

/// exp(x - m), with m = -inf (a row masked so far) read as 0, so that
/// masked scores give 0 instead of NaN.
Value expShifted(OpBuilder &b, Location loc, Value x, Value m) {
  Type t = m.getType();
  Value isInf = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, m,
                                      negInfConstant(b, loc, t));
  Value zero = arith::ConstantOp::create(b, loc, t, b.getFloatAttr(t, 0.0));
  Value safe = arith::SelectOp::create(b, loc, isInf, zero, m);
  return math::ExpOp::create(b, loc, arith::SubFOp::create(b, loc, x, safe));
}

/// The block size for a dim of `size`: one block of exactly `size` when it
/// fits, else blocks of at most `block` that split `size` evenly, rounded up
/// to `multiple` (so the padding is less than one `multiple` per block
/// rather than up to a whole block). Dynamic sizes get `block`.
int64_t chooseBlock(int64_t size, int64_t block, int64_t multiple) {
  if (ShapedType::isDynamic(size))
    return block;
  if (size <= block)
    return std::max<int64_t>(size, 1);
  int64_t blocks = llvm::divideCeil(size, block);
  int64_t even = llvm::alignTo(llvm::divideCeil(size, blocks), multiple);
  return std::min(block, even);
}

/// Builds the loop nest of one fusion.attention op.
class FlashAttentionBuilder {
public:
  FlashAttentionBuilder(RewriterBase &b, AttentionOp op, int64_t blockRows,
                        int64_t blockCols)
      : b(b), loc(op.getLoc()), op(op) {
    auto q = tensorOf(op.getQuery()), k = tensorOf(op.getKey());
    et = q.getElementType();
    ct = (et.isF16() || et.isBF16()) ? b.getF32Type() : et;
    int64_t l = q.getDimSize(q.getRank() - 2),
            s = k.getDimSize(k.getRank() - 2);
    br = chooseBlock(l, blockRows, /*multiple=*/8);
    bc = chooseBlock(s, blockCols, /*multiple=*/16);
    padRows = ShapedType::isDynamic(l) || l % br != 0;
    padKeys = ShapedType::isDynamic(s) || s % bc != 0;
    int64_t d = q.getShape().back();
    scale = op.getScale() ? op.getScale()->convertToDouble()
                          : 1.0 / std::sqrt((double)d);
  }

  /// Emits the loop nest; returns the result, of the op's type.
  Value build();

private:
  /// The sizes of the result's batch dims (from q, k, v: a dynamic one from
  /// an operand whose aligned dim is not a static 1).
  SmallVector<OpFoldResult> batchSizes(RankedTensorType resultType);
  /// Offsets of `v`'s leading (batch) dims for the result batch index `ivs`:
  /// 0 where `v` broadcasts.
  SmallVector<OpFoldResult> batchOffsets(Value v, ValueRange ivs);
  /// The 2-D slice [off0 : off0 + size0, off1 : off1 + size1] of the last two
  /// dims of `v` at batch index `ivs`.
  Value slice2D(Value v, ValueRange ivs, OpFoldResult off0, OpFoldResult off1,
                OpFoldResult size0, OpFoldResult size1);
  /// `v` inserted into `dest` at `offsets` (same rank).
  Value insertAt(Value v, Value dest, ArrayRef<OpFoldResult> offsets);
  /// `v` copied into the leading corner of a zero tensor of `sizes`.
  Value padWithZeros(Value v, ArrayRef<OpFoldResult> sizes);
  /// The mask as a rank >= 2 tensor, padded to the padded lengths where it
  /// does not broadcast, with its last two dims swapped ([.., S, L], the
  /// layout of the transposed score blocks); a boolean mask as i8 (one
  /// conversion, so that the blocks that read it vectorize: i1 tensors stay
  /// scalar).
  Value prepareMask();

  /// One query block: rows [i0, i0 + br) at batch index `ivs`, written into
  /// `out`.
  Value buildQueryBlock(ValueRange ivs, Value i0, Value q2, Value keys,
                        Value v2, Value mask, Value out);
  /// Key/value blocks [lb, ub) (step bc), carrying (m, l, acc). `indexMask`
  /// applies the causal and key-padding masks.
  ValueRange buildKeyLoop(OpFoldResult lb, OpFoldResult ub, Value i0,
                          ValueRange ivs, Value qsT, Value keys, Value v2,
                          Value mask, ValueRange carried, bool indexMask);
  /// One key/value block at j0: returns the new (m, l, acc).
  SmallVector<Value> buildKeyBlock(Value j0, Value i0, ValueRange ivs,
                                   Value qsT, Value keys, Value v2, Value mask,
                                   ValueRange carried, bool indexMask);

  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value constant(Type t, double v) {
    return arith::ConstantOp::create(b, loc, t, b.getFloatAttr(t, v));
  }
  Value negInf() { return negInfConstant(b, loc, ct); }
  Value filled(ArrayRef<OpFoldResult> sizes, Type t, Value value) {
    Value init = tensor::EmptyOp::create(b, loc, sizes, t);
    return linalg::FillOp::create(b, loc, value, init).getResult(0);
  }
  OpFoldResult mixedDim(Value v, int64_t fromEnd) {
    return tensor::getMixedSize(b, loc, v, tensorOf(v).getRank() - fromEnd);
  }
  /// Padded length: `size` rounded up to a multiple of `block`.
  OpFoldResult padded(OpFoldResult size, int64_t block) {
    AffineExpr s0 = b.getAffineSymbolExpr(0);
    return affine::makeComposedFoldedAffineApply(
        b, loc, s0.ceilDiv(block) * block, {size});
  }

  RewriterBase &b;
  Location loc;
  AttentionOp op;
  Type et, ct;
  int64_t br, bc;
  bool padRows, padKeys;
  double scale;
  // Set by build().
  OpFoldResult seqL, seqS, headD, headDv, paddedL, paddedS;
};

SmallVector<OpFoldResult>
FlashAttentionBuilder::batchSizes(RankedTensorType resultType) {
  int64_t nb = resultType.getRank() - 2;
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < nb; ++d) {
    if (!resultType.isDynamicDim(d)) {
      sizes.push_back(b.getIndexAttr(resultType.getDimSize(d)));
      continue;
    }
    OpFoldResult size = b.getIndexAttr(1);
    for (Value v : {op.getQuery(), op.getKey(), op.getValue()}) {
      auto t = tensorOf(v);
      int64_t od = d - (nb - (t.getRank() - 2));
      if (od < 0 || t.getDimSize(od) == 1)
        continue;
      size = tensor::getMixedSize(b, loc, v, od);
      break;
    }
    sizes.push_back(size);
  }
  return sizes;
}

SmallVector<OpFoldResult> FlashAttentionBuilder::batchOffsets(Value v,
                                                              ValueRange ivs) {
  auto t = tensorOf(v);
  int64_t lead = t.getRank() - 2, nb = ivs.size();
  SmallVector<OpFoldResult> offsets;
  for (int64_t d = 0; d < lead; ++d) {
    if (t.getDimSize(d) == 1)
      offsets.push_back(b.getIndexAttr(0));
    else
      offsets.push_back(ivs[d + nb - lead]);
  }
  return offsets;
}

Value FlashAttentionBuilder::slice2D(Value v, ValueRange ivs, OpFoldResult off0,
                                     OpFoldResult off1, OpFoldResult size0,
                                     OpFoldResult size1) {
  auto t = tensorOf(v);
  SmallVector<OpFoldResult> offsets = batchOffsets(v, ivs);
  SmallVector<OpFoldResult> sizes(offsets.size(), b.getIndexAttr(1));
  offsets.append({off0, off1});
  sizes.append({size0, size1});
  SmallVector<OpFoldResult> strides(t.getRank(), b.getIndexAttr(1));
  auto type =
      tensor::ExtractSliceOp::inferCanonicalRankReducedResultType(2, t, sizes);
  return tensor::ExtractSliceOp::create(b, loc, type, v, offsets, sizes,
                                        strides);
}

Value FlashAttentionBuilder::insertAt(Value v, Value dest,
                                      ArrayRef<OpFoldResult> offsets) {
  SmallVector<OpFoldResult> strides(offsets.size(), b.getIndexAttr(1));
  return tensor::InsertSliceOp::create(
      b, loc, v, dest, offsets, tensor::getMixedSizes(b, loc, v), strides);
}

Value FlashAttentionBuilder::padWithZeros(Value v,
                                          ArrayRef<OpFoldResult> sizes) {
  Type t = tensorOf(v).getElementType();
  Value zero = arith::ConstantOp::create(b, loc, t, b.getZeroAttr(t));
  SmallVector<OpFoldResult> offsets(sizes.size(), b.getIndexAttr(0));
  return insertAt(v, filled(sizes, t, zero), offsets);
}

Value FlashAttentionBuilder::prepareMask() {
  Value mask = op.getMask();
  auto t = tensorOf(mask);
  if (t.getRank() < 2) {
    // [S] or a scalar: leading unit dims make it [1, S] or [1, 1].
    SmallVector<int64_t> shape(2 - t.getRank(), 1);
    llvm::append_range(shape, t.getShape());
    SmallVector<ReassociationIndices> re;
    if (t.getRank() == 1)
      re.push_back({0, 1});
    mask = tensor::ExpandShapeOp::create(b, loc, t.clone(shape), mask, re);
    t = tensorOf(mask);
  }
  int64_t r = t.getRank();
  if (t.getElementType().isInteger(1)) {
    MLIRContext *ctx = b.getContext();
    AffineMap id = AffineMap::getMultiDimIdentityMap(r, ctx);
    Type i8 = b.getI8Type();
    mask =
        linalg::GenericOp::create(
            b, loc, TypeRange{t.clone(i8)}, ValueRange{mask},
            ValueRange{tensor::EmptyOp::create(
                b, loc, tensor::getMixedSizes(b, loc, mask), i8)},
            ArrayRef<AffineMap>{id, id},
            SmallVector<utils::IteratorType>(r, utils::IteratorType::parallel),
            [&](OpBuilder &nb, Location nl, ValueRange a) {
              linalg::YieldOp::create(
                  nb, nl, arith::ExtUIOp::create(nb, nl, i8, a[0]).getResult());
            })
            .getResult(0);
    t = tensorOf(mask);
  }
  bool rowsVary = t.getDimSize(r - 2) != 1, colsVary = t.getDimSize(r - 1) != 1;
  if ((padRows && rowsVary) || (padKeys && colsVary)) {
    SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, mask);
    if (padRows && rowsVary)
      sizes[r - 2] = paddedL;
    if (padKeys && colsVary)
      sizes[r - 1] = paddedS;
    mask = padWithZeros(mask, sizes);
  }
  // Transposed once, so that every block reads its [Bc, Br] slice by rows.
  SmallVector<int64_t> perm = llvm::to_vector(llvm::seq<int64_t>(0, r));
  std::swap(perm[r - 2], perm[r - 1]);
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, mask);
  std::swap(sizes[r - 2], sizes[r - 1]);
  Value init = tensor::EmptyOp::create(b, loc, sizes,
                                       tensorOf(mask).getElementType());
  return linalg::TransposeOp::create(b, loc, mask, init, perm).getResult()[0];
}

Value FlashAttentionBuilder::build() {
  Value q = op.getQuery(), k = op.getKey(), v = op.getValue();
  SmallVector<RankedTensorType> inferred;
  (void)graph::inferResultTypes(op, inferred);
  RankedTensorType resultType = inferred.front();
  int64_t rank = resultType.getRank();
  seqL = mixedDim(q, 2);
  seqS = mixedDim(k, 2);
  headD = mixedDim(q, 1);
  headDv = mixedDim(v, 1);
  paddedL = padRows ? padded(seqL, br) : seqL;
  paddedS = padKeys ? padded(seqS, bc) : seqS;
  Value mask = op.getMask() ? prepareMask() : Value();

  SmallVector<OpFoldResult> outSizes = batchSizes(resultType);
  outSizes.append({seqL, headDv});
  Value out = tensor::EmptyOp::create(b, loc, outSizes, et);

  SmallVector<Value> lbs, ubs, steps;
  for (int64_t d = 0; d < rank - 2; ++d) {
    lbs.push_back(index(0));
    ubs.push_back(getValueOrCreateConstantIndexOp(b, loc, outSizes[d]));
    steps.push_back(index(1));
  }
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lbs, ubs, steps, ValueRange{out},
      [&](OpBuilder &, Location, ValueRange ivs,
          ValueRange args) -> scf::ValueVector {
        // Per batch index: K [Sp, D] and V [Sp, Dv], zero-padded to whole
        // blocks (both matmuls read them by rows).
        OpFoldResult zero = b.getIndexAttr(0);
        Value q2 = slice2D(q, ivs, zero, zero, seqL, headD);
        Value k2 = slice2D(k, ivs, zero, zero, seqS, headD);
        Value v2 = slice2D(v, ivs, zero, zero, seqS, headDv);
        if (padKeys) {
          k2 = padWithZeros(k2, {paddedS, headD});
          v2 = padWithZeros(v2, {paddedS, headDv});
        }
        auto blocks = scf::ForOp::create(
            b, loc, index(0), getValueOrCreateConstantIndexOp(b, loc, paddedL),
            index(br), args,
            [&](OpBuilder &, Location, Value i0, ValueRange inner) {
              Value r = buildQueryBlock(ivs, i0, q2, k2, v2, mask, inner[0]);
              scf::YieldOp::create(b, loc, r);
            });
        // Query blocks write disjoint rows of the output.
        graphopt::markParallelLoop(blocks);
        return {blocks.getResult(0)};
      });
  // So do the batch and head loops (graph-cpu-parallelize picks the
  // outermost with enough work).
  for (scf::ForOp loop : nest.loops)
    graphopt::markParallelLoop(loop);
  Value result = nest.results.front();
  if (result.getType() != op.getType())
    result = tensor::CastOp::create(b, loc, op.getType(), result);
  return result;
}

Value FlashAttentionBuilder::buildQueryBlock(ValueRange ivs, Value i0, Value q2,
                                             Value keys, Value v2, Value mask,
                                             Value out) {
  MLIRContext *ctx = b.getContext();
  AffineExpr d0 = b.getAffineDimExpr(0), s0 = b.getAffineSymbolExpr(0);
  // Valid rows of this block: min(br, L - i0).
  OpFoldResult rows = b.getIndexAttr(br);
  if (padRows)
    rows = affine::makeComposedFoldedAffineMin(
        b, loc,
        AffineMap::get(1, 1, {b.getAffineConstantExpr(br), s0 - d0}, ctx),
        {i0, seqL});
  Value qBlock = slice2D(q2, {}, i0, b.getIndexAttr(0), rows, headD);
  if (padRows)
    qBlock = padWithZeros(qBlock, {b.getIndexAttr(br), headD});

  // (Q * scale)^T [D, Br] in the compute type, once per query block.
  AffineMap id2 = AffineMap::getMultiDimIdentityMap(2, ctx);
  AffineMap row = AffineMap::get(2, 0, {d0}, ctx);
  AffineMap swap = AffineMap::get(2, 0, {b.getAffineDimExpr(1), d0}, ctx);
  SmallVector<utils::IteratorType> par2(2, utils::IteratorType::parallel);
  auto qType = tensorOf(qBlock);
  Value qsT =
      linalg::GenericOp::create(
          b, loc,
          TypeRange{RankedTensorType::get(
              {qType.getDimSize(1), qType.getDimSize(0)}, ct)},
          ValueRange{qBlock},
          ValueRange{tensor::EmptyOp::create(
              b, loc,
              {tensor::getMixedSize(b, loc, qBlock, 1),
               tensor::getMixedSize(b, loc, qBlock, 0)},
              ct)},
          ArrayRef<AffineMap>{swap, id2}, par2,
          [&](OpBuilder &nb, Location nl, ValueRange a) {
            Value x = a[0];
            if (x.getType() != ct)
              x = arith::ExtFOp::create(nb, nl, ct, x);
            Value c = arith::ConstantOp::create(nb, nl, ct,
                                                nb.getFloatAttr(ct, scale));
            linalg::YieldOp::create(
                nb, nl, arith::MulFOp::create(nb, nl, x, c).getResult());
          })
          .getResult(0);

  OpFoldResult blockRows = b.getIndexAttr(br);
  SmallVector<Value> carried = {
      filled({blockRows}, ct, negInf()),
      filled({blockRows}, ct, constant(ct, 0.0)),
      filled({blockRows, headDv}, ct, constant(ct, 0.0))};

  // Key blocks [0, end): with `causal`, only those at or left of the
  // diagonal of the valid rows.
  OpFoldResult end = paddedS;
  if (op.getCausal()) {
    OpFoldResult lastRow = affine::makeComposedFoldedAffineMin(
        b, loc, AffineMap::get(1, 1, {d0 + br, s0}, ctx), {i0, seqL});
    OpFoldResult diag = affine::makeComposedFoldedAffineApply(
        b, loc, s0.ceilDiv(bc) * bc, {lastRow});
    end = affine::makeComposedFoldedAffineMin(
        b, loc, AffineMap::get(0, 2, {s0, b.getAffineSymbolExpr(1)}, ctx),
        {paddedS, diag});
  }
  // Blocks before `split` need no index mask: all their keys are valid and,
  // with `causal`, at or below the diagonal for every row of the block.
  OpFoldResult split = end;
  if (op.getCausal()) {
    OpFoldResult below = affine::makeComposedFoldedAffineApply(
        b, loc, (d0 + 1).floorDiv(bc) * bc, {i0});
    split = affine::makeComposedFoldedAffineMin(
        b, loc, AffineMap::get(0, 2, {s0, b.getAffineSymbolExpr(1)}, ctx),
        {split, below});
  }
  if (padKeys) {
    OpFoldResult whole = affine::makeComposedFoldedAffineApply(
        b, loc, s0.floorDiv(bc) * bc, {seqS});
    split = affine::makeComposedFoldedAffineMin(
        b, loc, AffineMap::get(0, 2, {s0, b.getAffineSymbolExpr(1)}, ctx),
        {split, whole});
  }
  ValueRange state = buildKeyLoop(b.getIndexAttr(0), split, i0, ivs, qsT,
                                  keys, v2, mask, carried, /*indexMask=*/false);
  if (op.getCausal() || padKeys)
    state = buildKeyLoop(split, end, i0, ivs, qsT, keys, v2, mask, state,
                         /*indexMask=*/true);
  Value l = state[1], acc = state[2];

  // O / l, in the result element type.
  Value o = linalg::GenericOp::create(
                b, loc,
                TypeRange{RankedTensorType::get(tensorOf(acc).getShape(), et)},
                ValueRange{acc, l},
                ValueRange{tensor::EmptyOp::create(
                    b, loc, tensor::getMixedSizes(b, loc, acc), et)},
                ArrayRef<AffineMap>{id2, row, id2}, par2,
                [&](OpBuilder &nb, Location nl, ValueRange a) {
                  Value x = arith::DivFOp::create(nb, nl, a[0], a[1]);
                  if (et != ct)
                    x = arith::TruncFOp::create(nb, nl, et, x);
                  linalg::YieldOp::create(nb, nl, x);
                })
                .getResult(0);
  if (padRows)
    o = slice2D(o, {}, b.getIndexAttr(0), b.getIndexAttr(0), rows, headDv);

  int64_t rank = tensorOf(out).getRank();
  SmallVector<OpFoldResult> offsets(ivs.begin(), ivs.end());
  SmallVector<OpFoldResult> sizes(rank - 2, b.getIndexAttr(1));
  offsets.append({i0, b.getIndexAttr(0)});
  sizes.append({rows, headDv});
  SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
  return tensor::InsertSliceOp::create(b, loc, o, out, offsets, sizes, strides);
}

ValueRange FlashAttentionBuilder::buildKeyLoop(OpFoldResult lb, OpFoldResult ub,
                                               Value i0, ValueRange ivs,
                                               Value qsT, Value keys, Value v2,
                                               Value mask, ValueRange carried,
                                               bool indexMask) {
  auto loop = scf::ForOp::create(
      b, loc, getValueOrCreateConstantIndexOp(b, loc, lb),
      getValueOrCreateConstantIndexOp(b, loc, ub), index(bc), carried,
      [&](OpBuilder &, Location, Value j0, ValueRange state) {
        SmallVector<Value> next =
            buildKeyBlock(j0, i0, ivs, qsT, keys, v2, mask, state, indexMask);
        scf::YieldOp::create(b, loc, next);
      });
  return loop.getResults();
}

SmallVector<Value>
FlashAttentionBuilder::buildKeyBlock(Value j0, Value i0, ValueRange ivs,
                                     Value qsT, Value keys, Value v2,
                                     Value mask, ValueRange carried,
                                     bool indexMask) {
  MLIRContext *ctx = b.getContext();
  Value m = carried[0], l = carried[1], acc = carried[2];
  OpFoldResult zero = b.getIndexAttr(0), rowsB = b.getIndexAttr(br),
               colsB = b.getIndexAttr(bc);
  AffineExpr d0 = b.getAffineDimExpr(0), d1 = b.getAffineDimExpr(1);
  AffineMap id1 = AffineMap::getMultiDimIdentityMap(1, ctx);
  AffineMap id2 = AffineMap::getMultiDimIdentityMap(2, ctx);
  // Scores are transposed: [Bc, Br], key j0 + d0 against query i0 + d1.
  AffineMap col = AffineMap::get(2, 0, {d1}, ctx);
  AffineMap row = AffineMap::get(2, 0, {d0}, ctx);
  auto par = utils::IteratorType::parallel,
       red = utils::IteratorType::reduction;

  // S^T = K_blk (Q_blk * scale)^T.
  Value kBlock = slice2D(keys, {}, j0, zero, colsB, headD);
  Value vBlock = slice2D(v2, {}, j0, zero, colsB, headDv);
  Value scores = filled({colsB, rowsB}, ct, constant(ct, 0.0));
  scores = linalg::MatmulOp::create(b, loc, TypeRange{scores.getType()},
                                    ValueRange{kBlock, qsT}, ValueRange{scores})
               .getResult(0);

  // The mask and, in blocks that need them, the causal and padding masks,
  // applied in place.
  if (mask || indexMask) {
    SmallVector<Value> ins;
    SmallVector<AffineMap> maps;
    bool boolMask = false;
    if (mask) {
      auto mt = tensorOf(mask);
      int64_t r = mt.getRank();
      // Transposed (prepareMask): [.., keys, queries].
      bool colsVary = mt.getDimSize(r - 2) != 1,
           rowsVary = mt.getDimSize(r - 1) != 1;
      ins.push_back(slice2D(mask, ivs, colsVary ? OpFoldResult(j0) : zero,
                            rowsVary ? OpFoldResult(i0) : zero,
                            colsVary ? colsB : b.getIndexAttr(1),
                            rowsVary ? rowsB : b.getIndexAttr(1)));
      maps.push_back(
          AffineMap::get(2, 0,
                         {colsVary ? d0 : b.getAffineConstantExpr(0),
                          rowsVary ? d1 : b.getAffineConstantExpr(0)},
                         ctx));
      boolMask = isa<IntegerType>(mt.getElementType());
    }
    maps.push_back(id2);
    Value keyCount = indexMask && padKeys
                         ? getValueOrCreateConstantIndexOp(b, loc, seqS)
                         : Value();
    bool causal = indexMask && op.getCausal();
    scores = linalg::GenericOp::create(
                 b, loc, TypeRange{scores.getType()}, ins, ValueRange{scores},
                 maps, {par, par},
                 [&](OpBuilder &nb, Location nl, ValueRange a) {
                   Value x = a.back();
                   Value minusInf = negInfConstant(nb, nl, ct);
                   if (mask && boolMask) {
                     Value zero = arith::ConstantOp::create(
                         nb, nl, a[0].getType(),
                         nb.getIntegerAttr(a[0].getType(), 0));
                     Value keep = arith::CmpIOp::create(
                         nb, nl, arith::CmpIPredicate::ne, a[0], zero);
                     x = arith::SelectOp::create(nb, nl, keep, x, minusInf);
                   } else if (mask) {
                     Value mv = a[0];
                     if (mv.getType() != ct)
                       mv = arith::ExtFOp::create(nb, nl, ct, mv);
                     x = arith::AddFOp::create(nb, nl, x, mv);
                   }
                   if (indexMask) {
                     Value j = arith::AddIOp::create(
                         nb, nl, j0, linalg::IndexOp::create(nb, nl, 0));
                     Value keep;
                     if (causal) {
                       Value i = arith::AddIOp::create(
                           nb, nl, i0, linalg::IndexOp::create(nb, nl, 1));
                       keep = arith::CmpIOp::create(
                           nb, nl, arith::CmpIPredicate::ule, j, i);
                     }
                     if (keyCount) {
                       Value valid = arith::CmpIOp::create(
                           nb, nl, arith::CmpIPredicate::ult, j, keyCount);
                       keep = keep ? arith::AndIOp::create(nb, nl, keep, valid)
                                         .getResult()
                                   : valid;
                     }
                     x = arith::SelectOp::create(nb, nl, keep, x, minusInf);
                   }
                   linalg::YieldOp::create(nb, nl, x);
                 })
                 .getResult(0);
  }

  // Row max of the block (a column max of S^T).
  Value rowMax = filled({rowsB}, ct, negInf());
  rowMax = linalg::GenericOp::create(
               b, loc, TypeRange{rowMax.getType()}, ValueRange{scores},
               ValueRange{rowMax}, ArrayRef<AffineMap>{id2, col}, {red, par},
               [&](OpBuilder &nb, Location nl, ValueRange a) {
                 linalg::YieldOp::create(
                     nb, nl,
                     arith::MaximumFOp::create(nb, nl, a[0], a[1]).getResult());
               })
               .getResult(0);
  // m' = max(m, rowmax), l * a and a = exp(m - m'), in place of m, l and
  // the row max.
  auto stats = linalg::GenericOp::create(
      b, loc, TypeRange{m.getType(), l.getType(), rowMax.getType()},
      ValueRange{}, ValueRange{m, l, rowMax},
      ArrayRef<AffineMap>{id1, id1, id1}, {par},
      [&](OpBuilder &nb, Location nl, ValueRange a) {
        Value mNew = arith::MaximumFOp::create(nb, nl, a[0], a[2]);
        Value alpha = expShifted(nb, nl, a[0], mNew);
        Value lScaled = arith::MulFOp::create(nb, nl, a[1], alpha);
        linalg::YieldOp::create(nb, nl, ValueRange{mNew, lScaled, alpha});
      });
  Value mNew = stats.getResult(0), lScaled = stats.getResult(1),
        alpha = stats.getResult(2);
  // P^T = exp(S^T - m'), in place of S^T.
  Value p =
      linalg::GenericOp::create(
          b, loc, TypeRange{scores.getType()}, ValueRange{mNew},
          ValueRange{scores}, ArrayRef<AffineMap>{col, id2}, {par, par},
          [&](OpBuilder &nb, Location nl, ValueRange a) {
            linalg::YieldOp::create(nb, nl, expShifted(nb, nl, a[1], a[0]));
          })
          .getResult(0);
  // l' = l * a + rowsum P (a column sum of P^T).
  Value lNew =
      linalg::GenericOp::create(
          b, loc, TypeRange{lScaled.getType()}, ValueRange{p},
          ValueRange{lScaled}, ArrayRef<AffineMap>{id2, col}, {red, par},
          [&](OpBuilder &nb, Location nl, ValueRange a) {
            linalg::YieldOp::create(
                nb, nl, arith::AddFOp::create(nb, nl, a[0], a[1]).getResult());
          })
          .getResult(0);
  // O' = O * a + P V_blk.
  Value accScaled =
      linalg::GenericOp::create(
          b, loc, TypeRange{acc.getType()}, ValueRange{alpha}, ValueRange{acc},
          ArrayRef<AffineMap>{row, id2}, {par, par},
          [&](OpBuilder &nb, Location nl, ValueRange a) {
            linalg::YieldOp::create(
                nb, nl, arith::MulFOp::create(nb, nl, a[1], a[0]).getResult());
          })
          .getResult(0);
  // P V_blk with P given transposed: acc[i, :] += P^T[j, i] V[j, :].
  auto pv = linalg::MatmulOp::create(b, loc, TypeRange{acc.getType()},
                                     ValueRange{p, vBlock},
                                     ValueRange{accScaled});
  AffineExpr dm, dn, dk;
  bindDims(ctx, dm, dn, dk);
  pv.setIndexingMapsAttr(b.getAffineMapArrayAttr(
      {AffineMap::get(3, 0, {dk, dm}, ctx), AffineMap::get(3, 0, {dk, dn}, ctx),
       AffineMap::get(3, 0, {dm, dn}, ctx)}));
  Value accNew = pv.getResult(0);
  return {mNew, lNew, accNew};
}

struct AttentionLowering : OpRewritePattern<AttentionOp> {
  AttentionLowering(MLIRContext *ctx, int64_t blockRows, int64_t blockCols)
      : OpRewritePattern(ctx), blockRows(blockRows), blockCols(blockCols) {}

  LogicalResult matchAndRewrite(AttentionOp op,
                                PatternRewriter &rewriter) const override {
    auto q = tensorOf(op.getQuery());
    if (!op.getScale() && q.isDynamicDim(q.getRank() - 1))
      return rewriter.notifyMatchFailure(op, "default scale needs a static D");
    SmallVector<RankedTensorType> inferred;
    if (failed(graph::inferResultTypes(op, inferred)))
      return rewriter.notifyMatchFailure(op, "invalid operands");
    // The mask may not broadcast the batch (C7 allows [2, L, S] against a
    // batch of 1); the loop nest covers the result's batch only.
    if (Value mask = op.getMask()) {
      auto mt = tensorOf(mask);
      ArrayRef<int64_t> out = inferred.front().getShape();
      int64_t off = (int64_t)out.size() - mt.getRank();
      for (int64_t d = 0; d < mt.getRank() - 2; ++d)
        if (mt.getDimSize(d) != 1 && out[d + off] == 1)
          return rewriter.notifyMatchFailure(
              op, "the mask broadcasts the batch dims");
    }
    FlashAttentionBuilder builder(rewriter, op, blockRows, blockCols);
    rewriter.replaceOp(op, builder.build());
    return success();
  }

  int64_t blockRows, blockCols;
};

struct ConvertFusionAttentionPass
    : public graphopt::impl::ConvertFusionAttentionPassBase<
          ConvertFusionAttentionPass> {
  using Base::Base;
  void runOnOperation() override {
    if (blockRows < 1 || blockCols < 1) {
      getOperation()->emitError("convert-fusion-attention: block sizes must "
                                "be positive, got ")
          << blockRows.getValue() << "x" << blockCols.getValue();
      return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    populateFusionAttentionLoweringPatterns(patterns, blockRows, blockCols);
    int64_t before = 0, after = 0;
    getOperation()->walk([&](AttentionOp) { ++before; });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    getOperation()->walk([&](AttentionOp) { ++after; });
    numLowered += before - after;
  }
};

} // namespace

void mlir::graphopt::populateFusionAttentionLoweringPatterns(
    RewritePatternSet &patterns, int64_t blockRows, int64_t blockCols) {
  patterns.add<AttentionLowering>(patterns.getContext(), blockRows, blockCols);
}
