//===- CPUConv.cpp - direct stride-1 convolution kernel for the CPU -------===//
//
// convert-graph-to-linalg lowers a stride-1 convolution of one image as a
// chain of matmuls, one per kernel tap t, on shifted slices of the padded
// image flattened to xf[C][L]:
//
//   o = W_0 x xf[:, o_0 : o_0 + P] + ... + W_{T-1} x xf[:, o_{T-1} : ...]
//
// As separate matmuls each tap reloads and stores the whole output (K = C
// per tap: 3 for an RGB input). Here the chain becomes one loop nest that
// keeps an mr x nr block of the output in registers across every tap and
// channel, K = T * C steps of
//
//   acc[r] += broadcast(Wp[f / mr][t * C + c][r]) * xf[c, p + o_t : +nr]
//
// with the taps' weights packed at compile time into [F/mr][T*C][mr]
// micro-panels. The image is read in place: each step is one contiguous
// nr-float row segment.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Codegen/CPUConv.h"
#include "graphopt/Codegen/CPUMatmul.h"
#include "graphopt/Codegen/ConstantView.h"
#include "graphopt/Codegen/LaneWiseEpilogue.h"
#include "graphopt/Codegen/Parallel.h"
#include "graphopt/Dialect/Graph/IR/HeapConstants.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::graphopt;

namespace {

/// A chain of matmuls accumulating shifted slices of one image.
struct TapChain {
  /// The matmuls, first to last.
  SmallVector<linalg::MatmulOp> matmuls;
  /// Each tap's weight, [F][C], evaluated.
  SmallVector<ConstantView> weights;
  /// Each tap's column offset into the image.
  SmallVector<int64_t> offsets;
  /// The flattened image, [C][L], and the chain's initial output, [F][P].
  Value image, init;
  int64_t f = 0, c = 0, p = 0;
};

/// The tap of `matmul`: its B operand is a [C, P] slice at (0, offset) of
/// a 2-D image, its A operand a constant [F, C] weight.
std::optional<std::tuple<Value, int64_t, ConstantView>>
matchTap(linalg::MatmulOp matmul) {
  if (matmul.hasUserDefinedMaps() || !matmul.hasPureTensorSemantics())
    return std::nullopt;
  auto slice =
      matmul.getDpsInputOperand(1)->get().getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice || slice.getSourceType().getRank() != 2 ||
      slice.getResultType().getRank() != 2 ||
      !slice.getSourceType().hasStaticShape() ||
      !slice.getResultType().getElementType().isF32())
    return std::nullopt;
  ArrayRef<int64_t> offsets = slice.getStaticOffsets();
  if (ShapedType::isDynamic(offsets[0]) || ShapedType::isDynamic(offsets[1]) ||
      offsets[0] != 0 ||
      !llvm::all_of(slice.getStaticStrides(), [](int64_t s) { return s == 1; }) ||
      slice.getStaticSizes()[0] != slice.getSourceType().getDimSize(0))
    return std::nullopt;
  ConstantView weight = ConstantView::of(matmul.getDpsInputOperand(0)->get());
  if (!weight)
    return std::nullopt;
  return std::make_tuple(slice.getSource(), offsets[1], weight);
}

/// The chain ending at `last` (whose result is not accumulated further),
/// with at least two taps of one image.
std::optional<TapChain> matchChain(linalg::MatmulOp last) {
  TapChain chain;
  linalg::MatmulOp m = last;
  while (m) {
    auto tap = matchTap(m);
    if (!tap)
      return std::nullopt;
    auto [image, offset, weight] = *tap;
    if (chain.image && image != chain.image)
      return std::nullopt;
    chain.image = image;
    chain.matmuls.push_back(m);
    chain.offsets.push_back(offset);
    chain.weights.push_back(weight);
    Value init = m.getDpsInitOperand(0)->get();
    auto prev = init.getDefiningOp<linalg::MatmulOp>();
    if (prev && prev->hasOneUse()) {
      m = prev;
      continue;
    }
    chain.init = init;
    break;
  }
  if (chain.matmuls.size() < 2)
    return std::nullopt;
  std::reverse(chain.matmuls.begin(), chain.matmuls.end());
  std::reverse(chain.offsets.begin(), chain.offsets.end());
  std::reverse(chain.weights.begin(), chain.weights.end());
  auto outType = cast<RankedTensorType>(chain.init.getType());
  auto imageType = cast<RankedTensorType>(chain.image.getType());
  chain.f = outType.getDimSize(0);
  chain.p = outType.getDimSize(1);
  chain.c = imageType.getDimSize(0);
  return chain;
}

/// Weights of every tap packed into [F/mr][T*C][mr]: row k = t * C + c.
Value packWeights(RewriterBase &rewriter, Location loc, const TapChain &chain,
                  int64_t mr) {
  int64_t taps = chain.weights.size(), k = taps * chain.c;
  auto type = RankedTensorType::get({chain.f / mr, k, mr},
                                    rewriter.getF32Type());
  ElementsAttr packed = makeHeapConstant(type, [&](float *out) {
    for (int64_t fb = 0; fb < chain.f / mr; ++fb)
      for (int64_t t = 0; t < taps; ++t) {
        const ConstantView &w = chain.weights[t];
        for (int64_t c = 0; c < chain.c; ++c)
          for (int64_t r = 0; r < mr; ++r)
            *out++ = w.at(fb * mr + r, c);
      }
  });
  return arith::ConstantOp::create(rewriter, loc, type, packed);
}

Value index(RewriterBase &rewriter, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(rewriter, loc, v);
}

/// The `mr x nr` output block at channels [fRow, fRow + mr) and flat pixel
/// `p` after every tap and input channel, accumulated in registers from
/// zeros (`zeroInit`: the chain started from a zero fill, which is then
/// never written) or from `init`'s block: each row as nr / `width` vectors
/// of `width` lanes, row-major (mr x 3 vectors of 16 rather than mr
/// vector<48>s, which LLVM legalizes into 4-lane pieces and spills).
SmallVector<Value> accumulateTaps(RewriterBase &rewriter, Location loc,
                                  const TapChain &chain, Value weights,
                                  Value init, bool zeroInit, int64_t mr,
                                  int64_t nr, int64_t width, Value fb,
                                  Value fRow, Value p) {
  Type f32 = rewriter.getF32Type();
  int64_t pieces = nr / width;
  auto rowType = VectorType::get({width}, f32);
  auto panelType = VectorType::get({mr}, f32);
  Value zero = index(rewriter, loc, 0), one = index(rewriter, loc, 1);
  Value pad =
      arith::ConstantOp::create(rewriter, loc, rewriter.getF32FloatAttr(0));
  SmallVector<Value> rows;
  if (zeroInit)
    rows.assign(mr * pieces,
                arith::ConstantOp::create(rewriter, loc, rowType,
                                          rewriter.getZeroAttr(rowType)));
  for (int64_t r = 0; r < mr && !zeroInit; ++r) {
    Value f = arith::AddIOp::create(rewriter, loc, fRow, index(rewriter, loc, r));
    for (int64_t j = 0; j < pieces; ++j) {
      Value column =
          arith::AddIOp::create(rewriter, loc, p, index(rewriter, loc, j * width));
      rows.push_back(vector::TransferReadOp::create(
          rewriter, loc, rowType, init, ValueRange{f, column}, pad,
          ArrayRef<bool>{true}));
    }
  }
  // The taps are a loop over a constant table of their column offsets,
  // each tap a loop over the input channels. Unrolled taps (49 of 3
  // channels for a 7x7 RGB stem) made one basic block of ~5,800 LLVM
  // instructions, a quarter of ResNet-50's code generation time, and
  // bought nothing: consecutive taps depend on each other through the
  // accumulators anyway.
  int64_t taps = chain.offsets.size();
  Value offsetTable = arith::ConstantOp::create(
      rewriter, loc,
      DenseElementsAttr::get(
          RankedTensorType::get({taps}, rewriter.getIndexType()),
          llvm::map_to_vector(chain.offsets, [&](int64_t o) {
            return cast<Attribute>(rewriter.getIndexAttr(o));
          })));
  auto tLoop = scf::ForOp::create(rewriter, loc, zero,
                                  index(rewriter, loc, taps), one, rows);
  {
    OpBuilder::InsertionGuard tapGuard(rewriter);
    rewriter.setInsertionPointToStart(tLoop.getBody());
    Value t = tLoop.getInductionVar();
    Value column = arith::AddIOp::create(
        rewriter, loc, p,
        tensor::ExtractOp::create(rewriter, loc, offsetTable, t));
    Value kBase =
        arith::MulIOp::create(rewriter, loc, t, index(rewriter, loc, chain.c));
    auto cLoop =
        scf::ForOp::create(rewriter, loc, zero, index(rewriter, loc, chain.c),
                           one, tLoop.getRegionIterArgs());
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(cLoop.getBody());
    Value c = cLoop.getInductionVar();
    Value k = arith::AddIOp::create(rewriter, loc, c, kBase);
    SmallVector<Value> b;
    for (int64_t j = 0; j < pieces; ++j) {
      Value at = j == 0 ? column
                        : arith::AddIOp::create(rewriter, loc, column,
                                                index(rewriter, loc, j * width))
                              .getResult();
      b.push_back(vector::TransferReadOp::create(rewriter, loc, rowType,
                                                 chain.image, ValueRange{c, at},
                                                 pad, ArrayRef<bool>{true}));
    }
    Value a = vector::TransferReadOp::create(
        rewriter, loc, panelType, weights, ValueRange{fb, k, zero}, pad,
        ArrayRef<bool>{true});
    SmallVector<Value> next;
    for (int64_t r = 0; r < mr; ++r) {
      Value ar = vector::ExtractOp::create(rewriter, loc, a, r);
      Value bcast = vector::BroadcastOp::create(rewriter, loc, rowType, ar);
      for (int64_t j = 0; j < pieces; ++j)
        next.push_back(vector::FMAOp::create(
            rewriter, loc, bcast, b[j],
            cLoop.getRegionIterArgs()[r * pieces + j]));
    }
    scf::YieldOp::create(rewriter, loc, next);
    rewriter.setInsertionPointAfter(cLoop);
    scf::YieldOp::create(rewriter, loc, cLoop.getResults());
  }
  rows.assign(tLoop.getResults().begin(), tLoop.getResults().end());
  return rows;
}

/// Adds the kernel's loops for output columns [start, start + count),
/// in blocks of `nr` (which divides `count`), to `out`; returns the result.
Value buildColumns(RewriterBase &rewriter, Location loc, const TapChain &chain,
                   Value weights, Value out, bool zeroInit, int64_t mr,
                   int64_t start, int64_t count, int64_t nr,
                   int64_t vectorWidth) {
  Value zero = index(rewriter, loc, 0);
  auto fLoop = scf::ForOp::create(rewriter, loc, zero, index(rewriter, loc, chain.f / mr),
                                  index(rewriter, loc, 1), ValueRange{out});
  rewriter.setInsertionPointToStart(fLoop.getBody());
  Value fb = fLoop.getInductionVar();
  Value fRow = arith::MulIOp::create(rewriter, loc, fb, index(rewriter, loc, mr));
  auto pLoop = scf::ForOp::create(
      rewriter, loc, index(rewriter, loc, start),
      index(rewriter, loc, start + count), index(rewriter, loc, nr),
      ValueRange{fLoop.getRegionIterArg(0)});
  // Output-channel blocks and pixel blocks are independent.
  markParallelLoop(fLoop);
  markParallelLoop(pLoop);
  rewriter.setInsertionPointToStart(pLoop.getBody());
  Value p = pLoop.getInductionVar();
  Value acc = pLoop.getRegionIterArg(0);
  // The output block's rows, in registers for the whole reduction.
  int64_t width = std::min(nr, vectorWidth), pieces = nr / width;
  SmallVector<Value> rows =
      accumulateTaps(rewriter, loc, chain, weights, acc, zeroInit, mr, nr,
                     width, fb, fRow, p);
  for (int64_t r = 0; r < mr; ++r) {
    Value f = arith::AddIOp::create(rewriter, loc, fRow, index(rewriter, loc, r));
    for (int64_t j = 0; j < pieces; ++j) {
      Value column =
          arith::AddIOp::create(rewriter, loc, p, index(rewriter, loc, j * width));
      acc = vector::TransferWriteOp::create(rewriter, loc, rows[r * pieces + j],
                                            acc, ValueRange{f, column},
                                            ArrayRef<bool>{true})
                .getResult();
    }
  }
  scf::YieldOp::create(rewriter, loc, acc);
  rewriter.setInsertionPointAfter(pLoop);
  scf::YieldOp::create(rewriter, loc, pLoop.getResult(0));
  rewriter.setInsertionPointAfter(fLoop);
  return fLoop.getResult(0);
}

/// An elementwise epilogue (bias, activation, residual: a linalg.generic)
/// on the chain's result, read as [..., F, OH, OW]: the flat [F, P] result
/// expanded to rows of the padded pitch, [F, OH, Wp], the padded columns
/// sliced off, unit dims added.
struct Epilogue : LaneWiseEpilogue {
  /// The reshapes and slice between the chain and the generic, in order.
  SmallVector<Operation *> views;
  int64_t oh = 0, ow = 0, pitch = 0;
  /// A 2x2, stride-2 max pooling of the epilogue's result, when the
  /// epilogue's tile is inserted into the image loop's result and that
  /// feeds only the pooling: the kernel then pools in registers and the
  /// epilogue's result is never stored.
  linalg::PoolingNchwMaxOp pool;
  tensor::InsertSliceOp insert;
  scf::ForOp loop;
};

/// The 2x2, stride-2 max pooling that is the only user of the image loop
/// result into which `generic`'s tile is inserted; null otherwise.
std::tuple<linalg::PoolingNchwMaxOp, tensor::InsertSliceOp, scf::ForOp>
matchPool(linalg::GenericOp generic) {
  Value tile = generic->getResult(0);
  if (!tile.hasOneUse())
    return {};
  auto insert = dyn_cast<tensor::InsertSliceOp>(*tile.getUsers().begin());
  auto loop = dyn_cast_if_present<scf::ForOp>(generic->getParentOp());
  if (!insert || !loop || !insert->hasOneUse() ||
      insert->getBlock() != generic->getBlock() ||
      !isa<scf::YieldOp>(*insert->getUsers().begin()))
    return {};
  auto iterArg = dyn_cast<BlockArgument>(insert.getDest());
  if (!iterArg || iterArg.getOwner() != loop.getBody() ||
      iterArg.getArgNumber() == 0)
    return {};
  unsigned index = iterArg.getArgNumber() - 1;
  if (loop.getYieldedValues()[index] != insert.getResult())
    return {};
  Value result = loop.getResult(index);
  if (!result.hasOneUse())
    return {};
  auto pool = dyn_cast<linalg::PoolingNchwMaxOp>(*result.getUsers().begin());
  if (!pool || !pool.hasPureTensorSemantics() ||
      pool.getDpsInputOperand(0)->get() != result)
    return {};
  auto window =
      cast<RankedTensorType>(pool.getDpsInputOperand(1)->get().getType());
  auto out = cast<RankedTensorType>(pool.getDpsInitOperand(0)->get().getType());
  auto in = cast<RankedTensorType>(result.getType());
  if (window.getShape() != ArrayRef<int64_t>{2, 2} ||
      !llvm::all_of(pool.getStrides().getValues<int64_t>(),
                    [](int64_t v) { return v == 2; }) ||
      !llvm::all_of(pool.getDilations().getValues<int64_t>(),
                    [](int64_t v) { return v == 1; }) ||
      !out.hasStaticShape() || !in.hasStaticShape() ||
      out.getDimSize(2) != in.getDimSize(2) / 2 ||
      out.getDimSize(3) != in.getDimSize(3) / 2)
    return {};
  // Its initial value: -inf, which the maximum over the window ignores.
  auto fill = pool.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
  FloatAttr value;
  if (!fill || !matchPattern(fill.getInputs()[0], m_Constant(&value)) ||
      !value.getValue().isInfinity() || !value.getValue().isNegative())
    return {};
  return {pool, insert, loop};
}

std::optional<Epilogue> matchEpilogue(const TapChain &chain) {
  Epilogue e;
  Value v = chain.matmuls.back()->getResult(0);
  auto soleUser = [](Value value) -> Operation * {
    return value.hasOneUse() ? *value.getUsers().begin() : nullptr;
  };
  auto rows = dyn_cast_if_present<tensor::ExpandShapeOp>(soleUser(v));
  if (!rows || rows.getResultType().getRank() != 3 ||
      !rows.getResultType().hasStaticShape() ||
      rows.getResultType().getDimSize(0) != chain.f)
    return std::nullopt;
  e.pitch = rows.getResultType().getDimSize(2);
  e.views.push_back(rows);
  auto slice = dyn_cast_if_present<tensor::ExtractSliceOp>(
      soleUser(rows.getResult()));
  if (!slice || !slice.hasUnitStride() || !slice.hasZeroOffset() ||
      slice.getResultType().getRank() != 3 ||
      !slice.getResultType().hasStaticShape() ||
      slice.getResultType().getDimSize(0) != chain.f)
    return std::nullopt;
  e.oh = slice.getResultType().getDimSize(1);
  e.ow = slice.getResultType().getDimSize(2);
  e.views.push_back(slice);
  v = slice.getResult();
  while (auto expand =
             dyn_cast_if_present<tensor::ExpandShapeOp>(soleUser(v))) {
    ArrayRef<int64_t> shape = expand.getResultType().getShape();
    if (!expand.getResultType().hasStaticShape() ||
        shape.take_back(3) != ArrayRef<int64_t>{chain.f, e.oh, e.ow} ||
        llvm::any_of(shape.drop_back(3), [](int64_t d) { return d != 1; }))
      return std::nullopt;
    e.views.push_back(expand);
    v = expand.getResult();
  }
  if (!matchLaneWiseUser(v, e))
    return std::nullopt;
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getRank() == 4 && type.getDimSize(0) == 1)
    std::tie(e.pool, e.insert, e.loop) = matchPool(e.op);
  return e;
}

/// The epilogue's result for output channel `f`, row `oh`, columns
/// [ow, ow + nr), from the convolution's `value` there.
/// `n` is the image (index 0 when null); row segments are read in bounds
/// unless `rowInBounds` is false (a last, masked chunk of a row).
Value applyEpilogue(RewriterBase &rewriter, Location loc, const Epilogue &e,
                    Value value, Value f, Value oh, Value ow, int64_t nr,
                    Value n = {}, bool rowInBounds = true) {
  // Loops [..., n, f, oh, ow]; any before them have size 1.
  int64_t rank = linalg::GenericOp(e.op).getNumLoops();
  Value zero = index(rewriter, loc, 0);
  SmallVector<Value> all(std::max<int64_t>(rank - 4, 0), zero);
  all.append({n ? n : zero, f, oh, ow});
  return applyLaneWiseEpilogue(rewriter, loc, e, value,
                               ArrayRef<Value>(all).take_back(rank), nr,
                               rowInBounds);
}

/// The `mr x nr` register block of the convolution at output channels
/// [fRow, fRow + mr), row `oh`, columns [ow, ow + nr), with the epilogue
/// applied: one vector per channel.
SmallVector<Value> convolutionBlock(RewriterBase &rewriter, Location loc,
                                   const TapChain &chain, const Epilogue &e,
                                   Value weights, Value init, bool zeroInit,
                                   int64_t mr, int64_t nr, Value fb,
                                   Value fRow, Value oh, Value ow) {
  Value p = arith::AddIOp::create(
      rewriter, loc,
      arith::MulIOp::create(rewriter, loc, oh, index(rewriter, loc, e.pitch)),
      ow);
  SmallVector<Value> rows = accumulateTaps(rewriter, loc, chain, weights, init,
                                           zeroInit, mr, nr, nr, fb, fRow, p);
  for (int64_t r = 0; r < mr; ++r) {
    Value f = arith::AddIOp::create(rewriter, loc, fRow, index(rewriter, loc, r));
    rows[r] = applyEpilogue(rewriter, loc, e, rows[r], f, oh, ow, nr);
  }
  return rows;
}

/// The kernel in output rows: register blocks of mr channels by nr columns
/// of one row (the row's last block shifted left to end at the row's end,
/// recomputing a few columns), the epilogue applied in registers and the
/// final values stored once into `out`, [..., F, OH, OW]. With a pooling,
/// each step computes the blocks of two rows, takes their maximum, then
/// the maximum of each pair of lanes, and stores the pooled block into
/// `out`, [1, F, OH / 2, OW / 2]. Returns the new value of `out`.
Value buildRows(RewriterBase &rewriter, Location loc, const TapChain &chain,
                const Epilogue &e, Value weights, Value init, bool zeroInit,
                int64_t mr, int64_t nr, Value out) {
  Value zero = index(rewriter, loc, 0), one = index(rewriter, loc, 1);
  int64_t rank = cast<RankedTensorType>(out.getType()).getRank();
  bool pooled = static_cast<bool>(e.pool);
  // Output rows and columns of the loops: pooled ones with a pooling.
  int64_t rows = pooled ? e.oh / 2 : e.oh, cols = pooled ? e.ow / 2 : e.ow;
  int64_t width = pooled ? nr / 2 : nr;
  auto fLoop = scf::ForOp::create(rewriter, loc, zero,
                                  index(rewriter, loc, chain.f / mr), one,
                                  ValueRange{out});
  rewriter.setInsertionPointToStart(fLoop.getBody());
  Value fb = fLoop.getInductionVar();
  Value fRow = arith::MulIOp::create(rewriter, loc, fb, index(rewriter, loc, mr));
  auto hLoop = scf::ForOp::create(rewriter, loc, zero, index(rewriter, loc, rows),
                                  one, ValueRange{fLoop.getRegionIterArg(0)});
  rewriter.setInsertionPointToStart(hLoop.getBody());
  Value h = hLoop.getInductionVar();
  int64_t blocks = (cols + width - 1) / width;
  auto wLoop = scf::ForOp::create(rewriter, loc, zero, index(rewriter, loc, blocks),
                                  one, ValueRange{hLoop.getRegionIterArg(0)});
  // Channel blocks and rows are independent; a row's blocks may overlap
  // (its last one), so they stay in one thread.
  markParallelLoop(fLoop);
  markParallelLoop(hLoop);
  rewriter.setInsertionPointToStart(wLoop.getBody());
  Value w = arith::MinSIOp::create(
      rewriter, loc,
      arith::MulIOp::create(rewriter, loc, wLoop.getInductionVar(),
                            index(rewriter, loc, width)),
      index(rewriter, loc, cols - width));
  Value acc = wLoop.getRegionIterArg(0);
  SmallVector<Value> results;
  if (!pooled) {
    results = convolutionBlock(rewriter, loc, chain, e, weights, init,
                               zeroInit, mr, nr, fb, fRow, h, w);
  } else {
    Value two = index(rewriter, loc, 2);
    Value top = arith::MulIOp::create(rewriter, loc, h, two);
    Value bottom = arith::AddIOp::create(rewriter, loc, top, one);
    Value ow = arith::MulIOp::create(rewriter, loc, w, two);
    SmallVector<Value> upper = convolutionBlock(
        rewriter, loc, chain, e, weights, init, zeroInit, mr, nr, fb, fRow,
        top, ow);
    SmallVector<Value> lower = convolutionBlock(
        rewriter, loc, chain, e, weights, init, zeroInit, mr, nr, fb, fRow,
        bottom, ow);
    SmallVector<int64_t> even, odd;
    for (int64_t l = 0; l < width; ++l) {
      even.push_back(2 * l);
      odd.push_back(2 * l + 1);
    }
    for (int64_t r = 0; r < mr; ++r) {
      Value m = arith::MaximumFOp::create(rewriter, loc, upper[r], lower[r]);
      Value left = vector::ShuffleOp::create(
          rewriter, loc, m, m, rewriter.getDenseI64ArrayAttr(even));
      Value right = vector::ShuffleOp::create(
          rewriter, loc, m, m, rewriter.getDenseI64ArrayAttr(odd));
      results.push_back(arith::MaximumFOp::create(rewriter, loc, left, right));
    }
  }
  for (int64_t r = 0; r < mr; ++r) {
    Value f = arith::AddIOp::create(rewriter, loc, fRow, index(rewriter, loc, r));
    SmallVector<Value> indices(rank - 3, zero);
    indices.append({f, h, w});
    acc = vector::TransferWriteOp::create(rewriter, loc, results[r], acc,
                                          indices, ArrayRef<bool>{true})
              .getResult();
  }
  scf::YieldOp::create(rewriter, loc, acc);
  rewriter.setInsertionPointAfter(wLoop);
  scf::YieldOp::create(rewriter, loc, wLoop.getResult(0));
  rewriter.setInsertionPointAfter(hLoop);
  scf::YieldOp::create(rewriter, loc, hLoop.getResult(0));
  rewriter.setInsertionPointAfter(fLoop);
  return fLoop.getResult(0);
}

/// The flattened image without the rows of zero padding past its end that
/// only the padded-row kernel reads (its last pixels' shifted reads run past
/// the image): `chain.image` as a collapse of a slice of a tensor.pad that
/// pads nothing else, rebuilt on the unpadded tensor when no read of the
/// row kernel reaches past `lastRead` (a flat index) of it. Null otherwise.
Value unpaddedImage(RewriterBase &rewriter, const TapChain &chain,
                    int64_t lastRead) {
  auto collapse = chain.image.getDefiningOp<tensor::CollapseShapeOp>();
  if (!collapse)
    return {};
  auto slice = collapse.getSrc().getDefiningOp<tensor::ExtractSliceOp>();
  // One whole image: [n, 0, 0, 0] of the padded batch.
  if (!slice || !slice.hasUnitStride() ||
      llvm::any_of(slice.getStaticOffsets().drop_front(),
                   [](int64_t o) { return o != 0; }))
    return {};
  auto pad = slice.getSource().getDefiningOp<tensor::PadOp>();
  if (!pad || !pad.hasZeroLowPad() || !pad.getResultType().hasStaticShape())
    return {};
  auto sourceType = cast<RankedTensorType>(pad.getSource().getType());
  int64_t rank = sourceType.getRank();
  if (rank != 4 || !sourceType.hasStaticShape() ||
      llvm::any_of(pad.getStaticHigh().take_front(2),
                   [](int64_t h) { return h != 0; }) ||
      pad.getStaticHigh()[3] != 0 ||
      sourceType.getDimSize(2) * sourceType.getDimSize(3) <= lastRead)
    return {};
  // The same slice of the unpadded tensor: [C, H, W] of image n.
  SmallVector<OpFoldResult> sizes = slice.getMixedSizes();
  sizes[2] = rewriter.getIndexAttr(sourceType.getDimSize(2));
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(collapse);
  auto sliceType = RankedTensorType::get(
      {sourceType.getDimSize(1), sourceType.getDimSize(2),
       sourceType.getDimSize(3)},
      sourceType.getElementType());
  if (slice.getResultType().getRank() != 3)
    return {};
  Value image = tensor::ExtractSliceOp::create(
      rewriter, slice.getLoc(), sliceType, pad.getSource(),
      slice.getMixedOffsets(), sizes, slice.getMixedStrides());
  return tensor::CollapseShapeOp::create(rewriter, collapse.getLoc(), image,
                                         collapse.getReassociationIndices());
}

/// Erases what a row kernel replaced: the epilogue's views of the chain's
/// result, then the chain's matmuls (the epilogue itself is replaced or
/// erased by the caller first).
void eraseReplacedChain(RewriterBase &rewriter, const TapChain &chain,
                        const Epilogue &e) {
  for (Operation *view : llvm::reverse(e.views))
    rewriter.eraseOp(view);
  for (linalg::MatmulOp m : llvm::reverse(chain.matmuls))
    rewriter.eraseOp(m);
}

/// The row kernel with the pooling of `e` fused: the image loop gets the
/// pooled result as a new loop-carried tensor (starting from the pooling's
/// empty output: every element is written), the kernel stores each image's
/// pooled tile into it, and the epilogue's tile, the loop's old result and
/// the pooling are erased.
bool fusePooledRows(RewriterBase &rewriter, Location loc,
                    const TapChain &chain, Epilogue e, Value weights,
                    Value init, bool zeroInit, int64_t mr, int64_t nr) {
  linalg::PoolingNchwMaxOp pool = e.pool;
  auto pooledType =
      cast<RankedTensorType>(pool.getDpsInitOperand(0)->get().getType());
  rewriter.setInsertionPoint(e.loop);
  Value pooledInit = tensor::EmptyOp::create(
      rewriter, loc, pooledType.getShape(), pooledType.getElementType());
  unsigned oldIndex =
      cast<BlockArgument>(e.insert.getDest()).getArgNumber() - 1;
  FailureOr<LoopLikeOpInterface> grown =
      cast<LoopLikeOpInterface>(e.loop.getOperation())
          .replaceWithAdditionalYields(
              rewriter, ValueRange{pooledInit},
              /*replaceInitOperandUsesInLoop=*/false,
              [](OpBuilder &, Location, ArrayRef<BlockArgument> args) {
                return SmallVector<Value>(args.begin(), args.end());
              });
  if (failed(grown))
    return false;
  auto loop = cast<scf::ForOp>(grown->getOperation());
  BlockArgument pooledArg = loop.getRegionIterArgs().back();
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  // The image index: the offset of the epilogue's tile in the loop result
  // (read now: the loop's block arguments were replaced).
  OpFoldResult image = e.insert.getMixedOffsets()[0];
  rewriter.setInsertionPoint(e.insert);
  SmallVector<OpFoldResult> offsets(4, rewriter.getIndexAttr(0)),
      sizes, strides(4, rewriter.getIndexAttr(1));
  offsets[0] = image;
  sizes.push_back(rewriter.getIndexAttr(1));
  for (int64_t d = 1; d < 4; ++d)
    sizes.push_back(rewriter.getIndexAttr(pooledType.getDimSize(d)));
  Value tile = tensor::ExtractSliceOp::create(rewriter, loc, pooledArg,
                                              offsets, sizes, strides);
  Value pooled = buildRows(rewriter, loc, chain, e, weights, init, zeroInit,
                           mr, nr, tile);
  Value inserted = tensor::InsertSliceOp::create(rewriter, loc, pooled,
                                                 pooledArg, offsets, sizes,
                                                 strides);
  rewriter.modifyOpInPlace(yield, [&] {
    yield->setOperand(yield->getNumOperands() - 1, inserted);
    // The epilogue's own result is no longer computed.
    yield->setOperand(oldIndex, loop.getRegionIterArgs()[oldIndex]);
  });
  rewriter.replaceOp(pool, loop.getResults().back());
  rewriter.eraseOp(e.insert);
  rewriter.eraseOp(e.op);
  eraseReplacedChain(rewriter, chain, e);
  return true;
}

} // namespace

bool mlir::graphopt::fuseConvolutionTaps(RewriterBase &rewriter,
                                         linalg::LinalgOp op,
                                         int64_t vectorWidth) {
  auto last = dyn_cast<linalg::MatmulOp>(op.getOperation());
  if (!last)
    return false;
  // Only the end of a chain: a matmul whose result feeds another tap is
  // handled from that one.
  for (Operation *user : last->getUsers())
    if (auto next = dyn_cast<linalg::MatmulOp>(user))
      if (next.getDpsInitOperand(0)->get() == last->getResult(0))
        return false;
  std::optional<TapChain> chain = matchChain(last);
  if (!chain)
    return false;
  // Output channels per register block: 8 with AVX-512's 32 vector
  // registers, 4 with AVX2's 16 (whose 8 x 2 blocks would spill).
  int64_t registers = vectorRegisters(vectorWidth);
  int64_t mr = largestDivisor(chain->f, registers / 4);
  Location loc = last.getLoc();
  rewriter.setInsertionPoint(chain->matmuls.front());
  Value weights = packWeights(rewriter, loc, *chain, mr);
  rewriter.setInsertionPoint(last);
  // Whole blocks of 2 vectors, then narrower power-of-two blocks. A zero
  // fill as the initial output is not materialized: the blocks start from
  // zero registers and are written once.
  Value out = chain->init;
  bool zeroInit = false;
  if (auto fill = out.getDefiningOp<linalg::FillOp>()) {
    if (matchPattern(fill.getInputs()[0], m_AnyZeroFloat())) {
      out = fill.getOutputs()[0];
      zeroInit = true;
    }
  }
  // With an epilogue, rows wide enough for a register block are computed
  // row by row, the epilogue applied in registers and its result stored
  // once: when that computes few columns more than the padded rows do, or
  // when the convolution is too short (few input channels) for its stores
  // and the epilogue's extra pass over them to be hidden behind its FMAs.
  if (std::optional<Epilogue> epilogue = matchEpilogue(*chain)) {
    int64_t nr = epilogue->ow >= 2 * vectorWidth ? 2 * vectorWidth
                                                  : vectorWidth;
    int64_t computed = (epilogue->ow + nr - 1) / nr * nr;
    int64_t k = static_cast<int64_t>(chain->offsets.size()) * chain->c;
    // Pooled rows need a whole block of pooled columns.
    if (epilogue->pool && (epilogue->ow / 2 < vectorWidth ||
                           nr != 2 * vectorWidth))
      epilogue->pool = {};
    if (epilogue->ow >= nr &&
        (computed * 20 <= epilogue->pitch * 21 || k <= 64)) {
      // Row blocks never read past the last output pixel's taps: the
      // padded rows the flat kernel needs are not read (nor copied).
      int64_t lastRead = (epilogue->oh - 1) * epilogue->pitch + epilogue->ow -
                         1 + *llvm::max_element(chain->offsets);
      if (Value image = unpaddedImage(rewriter, *chain, lastRead))
        chain->image = image;
      if (epilogue->pool)
        return fusePooledRows(rewriter, loc, *chain, *epilogue, weights, out,
                              zeroInit, mr, nr);
      // Where the epilogue's operands (its output tile) are all defined.
      rewriter.setInsertionPoint(epilogue->op);
      Value result = buildRows(rewriter, loc, *chain, *epilogue, weights, out,
                               zeroInit, mr, nr,
                               epilogue->op.getDpsInitOperand(0)->get());
      rewriter.replaceOp(epilogue->op, result);
      eraseReplacedChain(rewriter, *chain, *epilogue);
      return true;
    }
  }
  // Padded rows: the widest register block the vector registers hold
  // (mr x nv accumulators, nv image vectors and a broadcast weight), at
  // most 3 vectors, so that few columns are left for the narrower blocks
  // after it (3248 = 67 x 48 + 32 pixels at 56 x 56, 840 = 17 x 48 + 24 at
  // 28 x 28). With AVX-512's 32 registers and mr = 8 that is 8 x 3: 24
  // accumulators, where 8 x 2 leaves 14 registers idle; a C model of the
  // two blocks on 3x3 convolutions measured 188 against 170 GFLOP/s at
  // 64 channels x 56 x 56 and 172 against 157 at 128 x 28 x 28
  // (docs/Performance.md). The remaining columns run in blocks of 2, 1,
  // 1/2, ... vectors.
  int64_t nv = std::clamp<int64_t>((registers - 1) / (mr + 1), 1, 3);
  int64_t start = 0, nr = nv * vectorWidth;
  while (start < chain->p) {
    int64_t count = (chain->p - start) / nr * nr;
    if (count > 0) {
      out = buildColumns(rewriter, loc, *chain, weights, out, zeroInit, mr,
                         start, count, nr, vectorWidth);
      start += count;
    }
    nr = nr > 2 * vectorWidth ? 2 * vectorWidth : nr / 2;
    if (nr == 0)
      break;
  }
  rewriter.replaceOp(last, out);
  for (auto it = chain->matmuls.rbegin() + 1; it != chain->matmuls.rend(); ++it)
    rewriter.eraseOp(*it);
  return true;
}

namespace {

/// How a window's taps combine: multiply-add with a per-channel weight
/// (depthwise convolution), maximum or sum (pooling).
enum class Combine { Fma, Max, Sum };

/// Code generation state of one window op (vectorizeWindowOp).
struct WindowKernel {
  Combine combine;
  /// The input read (the unpadded source where the op's input was a
  /// tensor.pad by the combination's identity), [N, C, H, W].
  Value source;
  int64_t h = 0, w = 0, padTop = 0, padLeft = 0;
  int64_t kh = 0, kw = 0, sh = 1, sw = 1, dh = 1, dwid = 1;
  int64_t oh = 0, ow = 0;
  /// Lanes per vector register of the element type (16 f32, 64 i8 with
  /// 512-bit vectors).
  int64_t vectorWidth = 16;
  /// f32, or a signless integer for the maximum (signed).
  Type elementType;
  /// The identity of the combination (0, -inf or the smallest integer for
  /// the maximum): the value of the padding that is not materialized.
  TypedAttr identity;
  /// How each output block starts: a constant, one value per channel
  /// (`initBroadcast`'s input at the indices the image and channel give)
  /// or the output's own values.
  std::optional<Attribute> initValue;
  linalg::GenericOp initBroadcast;
  /// A lane-wise consumer applied in registers before the one store.
  std::optional<Epilogue> epilogue;
};

/// The values the rows of a window read for one tap column: lane `l` is the
/// source's element at column `first + sw * l` (the identity where that
/// column lies in the padding), from one or two reads and, for stride 2 or
/// a window overlapping the left padding, one shuffle.
Value windowVector(RewriterBase &rewriter, Location loc, const WindowKernel &k,
                   ValueRange rowIndices, int64_t first, int64_t lanes) {
  auto vecType = VectorType::get({lanes}, k.elementType);
  Value padVec = arith::ConstantOp::create(
      rewriter, loc, vecType, DenseElementsAttr::get(vecType, k.identity));
  Value padScalar = arith::ConstantOp::create(rewriter, loc, k.identity);
  auto read = [&](int64_t col) -> Value {
    if (col >= k.w)
      return padVec;
    SmallVector<Value> indices(rowIndices);
    indices.push_back(index(rewriter, loc, col));
    return vector::TransferReadOp::create(
        rewriter, loc, vecType, k.source, indices, padScalar,
        ArrayRef<bool>{col + lanes <= k.w});
  };
  int64_t start = std::max<int64_t>(first, 0);
  Value v0 = read(start);
  if (k.sw == 1 && first >= 0)
    return v0;
  int64_t last = first + k.sw * (lanes - 1) - start;
  Value v1 = last >= lanes ? read(start + lanes) : v0;
  SmallVector<int64_t> mask;
  SmallVector<bool> padded;
  for (int64_t l = 0; l < lanes; ++l) {
    int64_t q = first + k.sw * l - start;
    mask.push_back(std::max<int64_t>(q, 0));
    padded.push_back(q < 0);
  }
  Value x = vector::ShuffleOp::create(rewriter, loc, v0, v1,
                                      rewriter.getDenseI64ArrayAttr(mask));
  if (first < 0) {
    auto maskType = VectorType::get({lanes}, rewriter.getI1Type());
    Value select = arith::ConstantOp::create(
        rewriter, loc, maskType, DenseElementsAttr::get(maskType, padded));
    x = arith::SelectOp::create(rewriter, loc, select, padVec, x);
  }
  return x;
}

/// Output rows [row0, row0 + rows) of image `n`, channel `c`, every column:
/// the rows' accumulators for one chunk of columns live in registers while
/// each input row the block needs is read once per tap column and combined
/// into every output row that uses it. `staticRow0` is row0 when known at
/// compile time; input rows in the padding are then skipped (the identity
/// combines to nothing). Without it every input row must lie in the source.
Value windowRows(RewriterBase &rewriter, Location loc, const WindowKernel &k,
                 Value n, Value c, ArrayRef<Value> taps, Value out,
                 Value row0, std::optional<int64_t> staticRow0, int64_t rows) {
  Type elementType = k.elementType;
  Value zero = index(rewriter, loc, 0);
  Value firstInputRow = arith::MulIOp::create(rewriter, loc, row0,
                                              index(rewriter, loc, k.sh));
  int64_t span = k.sh * (rows - 1) + (k.kh - 1) * k.dh + 1;
  for (int64_t col = 0; col < k.ow;) {
    int64_t width = std::min(k.vectorWidth, k.ow - col);
    int64_t lanes = std::min<int64_t>(k.vectorWidth, llvm::PowerOf2Ceil(width));
    bool full = col + lanes <= k.ow;
    auto vecType = VectorType::get({lanes}, elementType);
    Value colIndex = index(rewriter, loc, col);
    SmallVector<Value> rowIndex, acc;
    for (int64_t r = 0; r < rows; ++r) {
      rowIndex.push_back(
          arith::AddIOp::create(rewriter, loc, row0, index(rewriter, loc, r)));
      if (k.initValue) {
        acc.push_back(arith::ConstantOp::create(
            rewriter, loc, vecType,
            DenseElementsAttr::get(vecType, cast<TypedAttr>(*k.initValue))));
      } else if (k.initBroadcast) {
        linalg::GenericOp gen = k.initBroadcast;
        OpOperand *in = gen.getDpsInputOperand(0);
        SmallVector<Value> indices;
        for (AffineExpr e : gen.getMatchingIndexingMap(in).getResults()) {
          auto d = dyn_cast<AffineDimExpr>(e);
          indices.push_back(!d ? zero : d.getPosition() == 0 ? n : c);
        }
        acc.push_back(vector::BroadcastOp::create(
            rewriter, loc, vecType,
            tensor::ExtractOp::create(rewriter, loc, in->get(), indices)));
      } else {
        acc.push_back(vector::TransferReadOp::create(
            rewriter, loc, vecType, out,
            ValueRange{n, c, rowIndex.back(), colIndex},
            arith::ConstantOp::create(
                rewriter, loc,
                cast<TypedAttr>(rewriter.getZeroAttr(elementType))),
            ArrayRef<bool>{full}));
      }
    }
    for (int64_t p = 0; p < span; ++p) {
      // The (output row, kernel row) pairs that read input row p.
      SmallVector<std::pair<int64_t, int64_t>> users;
      for (int64_t r = 0; r < rows; ++r) {
        int64_t d = p - k.sh * r;
        if (d >= 0 && d % k.dh == 0 && d / k.dh < k.kh)
          users.push_back({r, d / k.dh});
      }
      if (users.empty())
        continue;
      if (staticRow0) {
        int64_t sourceRow = k.sh * *staticRow0 + p - k.padTop;
        if (sourceRow < 0 || sourceRow >= k.h)
          continue;
      }
      Value sourceRow = arith::AddIOp::create(
          rewriter, loc, firstInputRow, index(rewriter, loc, p - k.padTop));
      for (int64_t j = 0; j < k.kw; ++j) {
        Value x = windowVector(rewriter, loc, k, ValueRange{n, c, sourceRow},
                               col * k.sw + j * k.dwid - k.padLeft, lanes);
        for (auto [r, i] : users) {
          switch (k.combine) {
          case Combine::Fma:
            acc[r] = vector::FMAOp::create(
                rewriter, loc,
                vector::BroadcastOp::create(rewriter, loc, vecType,
                                            taps[i * k.kw + j]),
                x, acc[r]);
            break;
          case Combine::Max:
            acc[r] = isa<FloatType>(elementType)
                         ? arith::MaximumFOp::create(rewriter, loc, acc[r], x)
                               .getResult()
                         : arith::MaxSIOp::create(rewriter, loc, acc[r], x)
                               .getResult();
            break;
          case Combine::Sum:
            acc[r] = arith::AddFOp::create(rewriter, loc, acc[r], x);
            break;
          }
        }
      }
    }
    for (int64_t r = 0; r < rows; ++r) {
      Value v = acc[r];
      if (k.epilogue)
        v = applyEpilogue(rewriter, loc, *k.epilogue, v, c, rowIndex[r],
                          colIndex, lanes, n, full);
      out = vector::TransferWriteOp::create(
                rewriter, loc, v, out,
                ValueRange{n, c, rowIndex[r], colIndex}, ArrayRef<bool>{full})
                .getResult();
    }
    col += width;
  }
  return out;
}

} // namespace

bool mlir::graphopt::vectorizeWindowOp(RewriterBase &rewriter,
                                       linalg::LinalgOp op,
                                       int64_t vectorWidth) {
  WindowKernel k;
  k.vectorWidth = vectorWidth;
  Value weight;
  DenseIntElementsAttr stridesAttr, dilationsAttr;
  if (auto dw = dyn_cast<linalg::DepthwiseConv2DNchwChwOp>(op.getOperation())) {
    k.combine = Combine::Fma;
    weight = dw.getDpsInputOperand(1)->get();
    stridesAttr = dw.getStrides();
    dilationsAttr = dw.getDilations();
  } else if (auto max = dyn_cast<linalg::PoolingNchwMaxOp>(op.getOperation())) {
    k.combine = Combine::Max;
    stridesAttr = max.getStrides();
    dilationsAttr = max.getDilations();
  } else if (auto sum = dyn_cast<linalg::PoolingNchwSumOp>(op.getOperation())) {
    k.combine = Combine::Sum;
    stridesAttr = sum.getStrides();
    dilationsAttr = sum.getDilations();
  } else {
    return false;
  }
  if (!op.hasPureTensorSemantics())
    return false;
  Value input = op.getDpsInputOperand(0)->get();
  Value init = op.getDpsInitOperand(0)->get();
  auto inType = cast<RankedTensorType>(input.getType());
  auto windowType =
      cast<RankedTensorType>(op.getDpsInputOperand(1)->get().getType());
  auto outType = cast<RankedTensorType>(init.getType());
  // f32, or integers for the maximum (signed: an unsigned pool reaches
  // here with its sign bits flipped). 8-bit lanes fill a vector register
  // four times as densely as f32 ones.
  k.elementType = inType.getElementType();
  auto intType = dyn_cast<IntegerType>(k.elementType);
  bool integerMax = k.combine == Combine::Max && intType &&
                    intType.isSignless() &&
                    llvm::is_contained({8u, 16u, 32u}, intType.getWidth());
  if (!inType.hasStaticShape() || !windowType.hasStaticShape() ||
      !outType.hasStaticShape() || !(k.elementType.isF32() || integerMax) ||
      windowType.getElementType() != k.elementType ||
      outType.getElementType() != k.elementType)
    return false;
  if (integerMax)
    k.vectorWidth = vectorWidth * 32 / intType.getWidth();
  SmallVector<int64_t> strides(stridesAttr.getValues<int64_t>());
  SmallVector<int64_t> dilations(dilationsAttr.getValues<int64_t>());
  k.sh = strides[0];
  k.sw = strides[1];
  k.dh = dilations[0];
  k.dwid = dilations[1];
  if (k.sw > 2)
    return false;
  // The window: the weight's [C, KH, KW] or the pooling's [KH, KW] shape.
  int64_t rankW = windowType.getRank();
  int64_t n = outType.getDimSize(0), c = outType.getDimSize(1);
  k.oh = outType.getDimSize(2);
  k.ow = outType.getDimSize(3);
  k.kh = windowType.getDimSize(rankW - 2);
  k.kw = windowType.getDimSize(rankW - 1);
  // windowRows unrolls each block of rows across the whole output width:
  // past 16 vectors per row (256 f32 columns with 512-bit vectors; CNN
  // feature maps are narrower) the code grows with the width and
  // bufferization time with its square (a 961-wide average pool: 65 s to
  // compile). Wider windows take the generic tiled path.
  if (k.ow > 16 * k.vectorWidth)
    return false;
  if (integerMax)
    k.identity = rewriter.getIntegerAttr(
        k.elementType, APInt::getSignedMinValue(intType.getWidth()));
  else
    k.identity =
        k.combine == Combine::Max
            ? rewriter.getF32FloatAttr(-std::numeric_limits<float>::infinity())
            : rewriter.getF32FloatAttr(0);
  // An input padded on its rows and columns with the identity is read
  // through: padding rows are skipped and padding columns are lanes of the
  // identity, so the padded image is never written.
  k.source = input;
  if (auto pad = input.getDefiningOp<tensor::PadOp>()) {
    std::optional<SmallVector<int64_t>> lows =
        getConstantIntValues(pad.getMixedLowPad());
    std::optional<SmallVector<int64_t>> highs =
        getConstantIntValues(pad.getMixedHighPad());
    auto nonNegative = [](ArrayRef<int64_t> v) {
      return llvm::all_of(v, [](int64_t x) { return x >= 0; });
    };
    TypedAttr value;
    Value padValue = pad.getConstantPaddingValue();
    auto sourceType = pad.getSourceType();
    if (lows && highs && padValue &&
        matchPattern(padValue, m_Constant(&value)) && value == k.identity &&
        sourceType.hasStaticShape() && sourceType.getRank() == 4 &&
        (*lows)[0] == 0 && (*lows)[1] == 0 && (*highs)[0] == 0 &&
        (*highs)[1] == 0 && nonNegative(*lows) && nonNegative(*highs)) {
      k.source = pad.getSource();
      k.padTop = (*lows)[2];
      k.padLeft = (*lows)[3];
    }
  }
  auto sourceType = cast<RankedTensorType>(k.source.getType());
  k.h = sourceType.getDimSize(2);
  k.w = sourceType.getDimSize(3);
  // How each output block starts: a constant fill (pooling's -inf or 0;
  // a fill, or the fill-like generic a fused group's tile makes of one) or
  // a per-channel broadcast (a depthwise convolution's bias) starts in a
  // register; otherwise the output is read.
  Value out = init;
  Value fillValue, filled;
  if (auto fill = init.getDefiningOp<linalg::FillOp>()) {
    fillValue = fill.getInputs()[0];
    filled = fill.getOutputs()[0];
  } else if (auto gen = init.getDefiningOp<linalg::GenericOp>()) {
    if (std::optional<Value> value = linalg::isaFillOpInterface(gen)) {
      fillValue = *value;
      filled = gen.getDpsInitOperand(0)->get();
    } else if (gen.getNumDpsInputs() == 1 && gen.getNumDpsInits() == 1 &&
               gen.getNumLoops() == 4 &&
               gen.getNumParallelLoops() == gen.getNumLoops() &&
               gen.getDpsInitOperand(0)->get().getType() == outType) {
      // yield of the input, which depends on the image and channel only.
      Block *body = gen.getBody();
      auto yield = cast<linalg::YieldOp>(body->getTerminator());
      OpOperand *in = gen.getDpsInputOperand(0);
      AffineMap map = gen.getMatchingIndexingMap(in);
      bool perChannel =
          body->getOperations().size() == 1 &&
          yield.getOperand(0) == body->getArgument(0) &&
          cast<ShapedType>(in->get().getType()).getElementType().isF32() &&
          llvm::all_of(map.getResults(), [](AffineExpr e) {
            if (auto d = dyn_cast<AffineDimExpr>(e))
              return d.getPosition() <= 1;
            auto cst = dyn_cast<AffineConstantExpr>(e);
            return cst && cst.getValue() == 0;
          });
      if (perChannel) {
        k.initBroadcast = gen;
        out = gen.getDpsInitOperand(0)->get();
      }
    }
  }
  Attribute value;
  if (fillValue && matchPattern(fillValue, m_Constant(&value))) {
    k.initValue = value;
    out = filled;
  }
  // A lane-wise consumer (an activation) is applied in registers and its
  // output written instead.
  Epilogue e;
  if (matchLaneWiseUser(op->getResult(0), e) &&
      e.op.getNumLoops() == 4) {
    k.epilogue = e;
    out = e.op.getDpsInitOperand(0)->get();
    rewriter.setInsertionPoint(e.op);
  } else {
    rewriter.setInsertionPoint(op);
  }
  Location loc = op.getLoc();
  Value zero = index(rewriter, loc, 0), one = index(rewriter, loc, 1);
  // Loops over images, channels and blocks of output rows.
  auto nLoop = scf::ForOp::create(rewriter, loc, zero, index(rewriter, loc, n),
                                  one, ValueRange{out});
  rewriter.setInsertionPointToStart(nLoop.getBody());
  auto cLoop = scf::ForOp::create(rewriter, loc, zero, index(rewriter, loc, c),
                                  one, ValueRange{nLoop.getRegionIterArg(0)});
  markParallelLoop(nLoop);
  markParallelLoop(cLoop);
  rewriter.setInsertionPointToStart(cLoop.getBody());
  Value ni = nLoop.getInductionVar(), ci = cLoop.getInductionVar();
  out = cLoop.getRegionIterArg(0);
  // The channel's taps (convolution), read once per channel.
  SmallVector<Value> taps;
  if (k.combine == Combine::Fma)
    for (int64_t i = 0; i < k.kh; ++i)
      for (int64_t j = 0; j < k.kw; ++j)
        taps.push_back(tensor::ExtractOp::create(
            rewriter, loc, weight,
            ValueRange{ci, index(rewriter, loc, i), index(rewriter, loc, j)}));
  // Output rows whose every window row lies in the source (the interior)
  // run in a loop of blocks of `block` rows; the rows above and below it
  // and what is left of the interior are blocks unrolled at compile time
  // (every row of a small image: 7 or 14 rows).
  const int64_t block = 4;
  auto staticRows = [&](int64_t from, int64_t to) {
    for (int64_t r = from; r < to; r += block)
      out = windowRows(rewriter, loc, k, ni, ci, taps, out,
                       index(rewriter, loc, r), r,
                       std::min(block, to - r));
  };
  int64_t interiorBegin = std::min(k.oh, (k.padTop + k.sh - 1) / k.sh);
  int64_t lastRow = k.h - 1 + k.padTop - (k.kh - 1) * k.dh;
  int64_t interiorEnd =
      lastRow < 0 ? interiorBegin
                  : std::clamp<int64_t>(lastRow / k.sh + 1, interiorBegin, k.oh);
  int64_t blocks = (interiorEnd - interiorBegin) / block;
  if (k.oh <= 4 * block || blocks < 2) {
    staticRows(0, k.oh);
  } else {
    staticRows(0, interiorBegin);
    auto rowLoop = scf::ForOp::create(rewriter, loc, zero,
                                      index(rewriter, loc, blocks), one,
                                      ValueRange{out});
    markParallelLoop(rowLoop);
    rewriter.setInsertionPointToStart(rowLoop.getBody());
    Value row0 = arith::AddIOp::create(
        rewriter, loc, index(rewriter, loc, interiorBegin),
        arith::MulIOp::create(rewriter, loc, rowLoop.getInductionVar(),
                              index(rewriter, loc, block)));
    Value rowsOut =
        windowRows(rewriter, loc, k, ni, ci, taps, rowLoop.getRegionIterArg(0),
                   row0, std::nullopt, block);
    scf::YieldOp::create(rewriter, loc, rowsOut);
    rewriter.setInsertionPointAfter(rowLoop);
    out = rowLoop.getResult(0);
    staticRows(interiorBegin + blocks * block, k.oh);
  }
  scf::YieldOp::create(rewriter, loc, out);
  rewriter.setInsertionPointAfter(cLoop);
  scf::YieldOp::create(rewriter, loc, cLoop.getResult(0));
  rewriter.setInsertionPointAfter(nLoop);
  if (k.epilogue) {
    rewriter.replaceOp(k.epilogue->op, nLoop.getResult(0));
    rewriter.eraseOp(op);
  } else {
    rewriter.replaceOp(op, nLoop.getResult(0));
  }
  return true;
}
