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
#include "graphopt/Codegen/Parallel.h"
#include "graphopt/Codegen/CPUMatmul.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::graphopt;

namespace {

/// A chain of matmuls accumulating shifted slices of one image.
struct TapChain {
  /// The matmuls, first to last.
  SmallVector<linalg::MatmulOp> matmuls;
  /// Each tap's weight, [F][C], evaluated.
  SmallVector<DenseElementsAttr> weights;
  /// Each tap's column offset into the image.
  SmallVector<int64_t> offsets;
  /// The flattened image, [C][L], and the chain's initial output, [F][P].
  Value image, init;
  int64_t f = 0, c = 0, p = 0;
};

/// The tap of `matmul`: its B operand is a [C, P] slice at (0, offset) of
/// a 2-D image, its A operand a constant [F, C] weight.
std::optional<std::tuple<Value, int64_t, DenseElementsAttr>>
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
  DenseElementsAttr weight = evaluateConstant(matmul.getDpsInputOperand(0)->get());
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
  std::vector<float> packed(static_cast<size_t>(chain.f) * k);
  float *out = packed.data();
  for (int64_t fb = 0; fb < chain.f / mr; ++fb)
    for (int64_t t = 0; t < taps; ++t) {
      DenseElementsAttr w = chain.weights[t];
      const float *values =
          reinterpret_cast<const float *>(w.getRawData().data());
      bool splat = w.isSplat();
      for (int64_t c = 0; c < chain.c; ++c)
        for (int64_t r = 0; r < mr; ++r)
          *out++ = splat ? values[0] : values[(fb * mr + r) * chain.c + c];
    }
  auto type = RankedTensorType::get({chain.f / mr, k, mr},
                                    rewriter.getF32Type());
  return arith::ConstantOp::create(
      rewriter, loc, type, DenseElementsAttr::get(type, ArrayRef<float>(packed)));
}

Value index(RewriterBase &rewriter, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(rewriter, loc, v);
}

/// Adds the kernel's loops for output columns [start, start + count),
/// in blocks of `nr` (which divides `count`), to `out`; returns the result.
Value buildColumns(RewriterBase &rewriter, Location loc, const TapChain &chain,
                   Value weights, Value out, bool zeroInit, int64_t mr,
                   int64_t start, int64_t count, int64_t nr) {
  Type f32 = rewriter.getF32Type();
  auto rowType = VectorType::get({nr}, f32);
  auto panelType = VectorType::get({mr}, f32);
  Value zero = index(rewriter, loc, 0);
  Value pad = arith::ConstantOp::create(rewriter, loc, rewriter.getF32FloatAttr(0));
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
  // The output block's rows, in registers for the whole reduction; zeros
  // when the chain started from a zero fill (which is then never written).
  SmallVector<Value> rows;
  Value zeros;
  if (zeroInit)
    zeros = arith::ConstantOp::create(rewriter, loc, rowType,
                                      rewriter.getZeroAttr(rowType));
  for (int64_t r = 0; r < mr; ++r) {
    if (zeroInit) {
      rows.push_back(zeros);
      continue;
    }
    Value f = arith::AddIOp::create(rewriter, loc, fRow, index(rewriter, loc, r));
    rows.push_back(vector::TransferReadOp::create(
        rewriter, loc, rowType, acc, ValueRange{f, p}, pad,
        ArrayRef<bool>{true}));
  }
  for (auto [t, offset] : llvm::enumerate(chain.offsets)) {
    Value column = arith::AddIOp::create(rewriter, loc, p,
                                         index(rewriter, loc, offset));
    auto cLoop = scf::ForOp::create(rewriter, loc, zero,
                                    index(rewriter, loc, chain.c),
                                    index(rewriter, loc, 1), rows);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(cLoop.getBody());
    Value c = cLoop.getInductionVar();
    Value k = arith::AddIOp::create(
        rewriter, loc, c, index(rewriter, loc, static_cast<int64_t>(t) * chain.c));
    Value b = vector::TransferReadOp::create(rewriter, loc, rowType,
                                             chain.image, ValueRange{c, column},
                                             pad, ArrayRef<bool>{true});
    Value a = vector::TransferReadOp::create(
        rewriter, loc, panelType, weights, ValueRange{fb, k, zero}, pad,
        ArrayRef<bool>{true});
    SmallVector<Value> next;
    for (int64_t r = 0; r < mr; ++r) {
      Value ar = vector::ExtractOp::create(rewriter, loc, a, r);
      Value bcast = vector::BroadcastOp::create(rewriter, loc, rowType, ar);
      next.push_back(vector::FMAOp::create(rewriter, loc, bcast, b,
                                           cLoop.getRegionIterArgs()[r]));
    }
    scf::YieldOp::create(rewriter, loc, next);
    rows.assign(cLoop.getResults().begin(), cLoop.getResults().end());
  }
  for (int64_t r = 0; r < mr; ++r) {
    Value f = arith::AddIOp::create(rewriter, loc, fRow, index(rewriter, loc, r));
    acc = vector::TransferWriteOp::create(rewriter, loc, rows[r], acc,
                                          ValueRange{f, p}, ArrayRef<bool>{true})
              .getResult();
  }
  scf::YieldOp::create(rewriter, loc, acc);
  rewriter.setInsertionPointAfter(pLoop);
  scf::YieldOp::create(rewriter, loc, pLoop.getResult(0));
  rewriter.setInsertionPointAfter(fLoop);
  return fLoop.getResult(0);
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
  int64_t mr = largestDivisor(chain->f, 8);
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
  int64_t start = 0, nr = 2 * vectorWidth;
  while (start < chain->p) {
    int64_t count = (chain->p - start) / nr * nr;
    if (count > 0) {
      out = buildColumns(rewriter, loc, *chain, weights, out, zeroInit, mr,
                         start, count, nr);
      start += count;
    }
    nr /= 2;
    if (nr == 0)
      break;
  }
  rewriter.replaceOp(last, out);
  for (auto it = chain->matmuls.rbegin() + 1; it != chain->matmuls.rend(); ++it)
    rewriter.eraseOp(*it);
  return true;
}

bool mlir::graphopt::vectorizeDepthwiseConv(RewriterBase &rewriter,
                                            linalg::LinalgOp op,
                                            int64_t vectorWidth) {
  auto dw = dyn_cast<linalg::DepthwiseConv2DNchwChwOp>(op.getOperation());
  if (!dw || !dw.hasPureTensorSemantics())
    return false;
  Value input = dw.getDpsInputOperand(0)->get();
  Value weight = dw.getDpsInputOperand(1)->get();
  Value init = dw.getDpsInitOperand(0)->get();
  auto inType = cast<RankedTensorType>(input.getType());
  auto wType = cast<RankedTensorType>(weight.getType());
  auto outType = cast<RankedTensorType>(init.getType());
  if (!inType.hasStaticShape() || !wType.hasStaticShape() ||
      !outType.hasStaticShape() || !inType.getElementType().isF32() ||
      !wType.getElementType().isF32() || !outType.getElementType().isF32())
    return false;
  SmallVector<int64_t> strides(dw.getStrides().getValues<int64_t>());
  SmallVector<int64_t> dilations(dw.getDilations().getValues<int64_t>());
  int64_t sh = strides[0], sw = strides[1], dh = dilations[0],
          dwid = dilations[1];
  if (sw > 2)
    return false;
  int64_t n = outType.getDimSize(0), c = outType.getDimSize(1),
          oh = outType.getDimSize(2), ow = outType.getDimSize(3),
          kh = wType.getDimSize(1), kw = wType.getDimSize(2);
  Location loc = dw.getLoc();
  Type f32 = rewriter.getF32Type();
  rewriter.setInsertionPoint(dw);
  Value zero = index(rewriter, loc, 0), one = index(rewriter, loc, 1);
  Value pad = arith::ConstantOp::create(rewriter, loc, rewriter.getF32FloatAttr(0));
  // Loops over images, channels and output rows; each row in chunks of a
  // vector, every chunk accumulating all KH x KW taps in a register.
  auto nLoop = scf::ForOp::create(rewriter, loc, zero, index(rewriter, loc, n),
                                  one, ValueRange{init});
  rewriter.setInsertionPointToStart(nLoop.getBody());
  auto cLoop = scf::ForOp::create(rewriter, loc, zero, index(rewriter, loc, c),
                                  one, ValueRange{nLoop.getRegionIterArg(0)});
  rewriter.setInsertionPointToStart(cLoop.getBody());
  Value ni = nLoop.getInductionVar(), ci = cLoop.getInductionVar();
  // The channel's taps, broadcast once per channel.
  SmallVector<Value> taps;
  for (int64_t i = 0; i < kh; ++i)
    for (int64_t j = 0; j < kw; ++j)
      taps.push_back(tensor::ExtractOp::create(
          rewriter, loc, weight,
          ValueRange{ci, index(rewriter, loc, i), index(rewriter, loc, j)}));
  auto hLoop = scf::ForOp::create(rewriter, loc, zero, index(rewriter, loc, oh),
                                  one, ValueRange{cLoop.getRegionIterArg(0)});
  markParallelLoop(nLoop);
  markParallelLoop(cLoop);
  markParallelLoop(hLoop);
  rewriter.setInsertionPointToStart(hLoop.getBody());
  Value hi = hLoop.getInductionVar();
  Value out = hLoop.getRegionIterArg(0);
  Value rowBase =
      arith::MulIOp::create(rewriter, loc, hi, index(rewriter, loc, sh));
  for (int64_t start = 0; start < ow;) {
    int64_t width = std::min(vectorWidth, ow - start);
    auto vecType = VectorType::get({width}, f32);
    Value col = index(rewriter, loc, start);
    Value acc = vector::TransferReadOp::create(
        rewriter, loc, vecType, out, ValueRange{ni, ci, hi, col}, pad,
        ArrayRef<bool>{true});
    for (int64_t i = 0; i < kh; ++i) {
      Value row = arith::AddIOp::create(rewriter, loc, rowBase,
                                        index(rewriter, loc, i * dh));
      for (int64_t j = 0; j < kw; ++j) {
        int64_t first = start * sw + j * dwid;
        Value x = vector::TransferReadOp::create(
            rewriter, loc, vecType, input,
            ValueRange{ni, ci, row, index(rewriter, loc, first)}, pad,
            ArrayRef<bool>{true});
        if (sw == 2) {
          // Every other element: the even lanes of two overlapping reads.
          Value high = vector::TransferReadOp::create(
              rewriter, loc, vecType, input,
              ValueRange{ni, ci, row, index(rewriter, loc, first + width - 1)},
              pad, ArrayRef<bool>{true});
          SmallVector<int64_t> mask;
          for (int64_t l = 0; l < width; ++l)
            mask.push_back(2 * l < width ? 2 * l : 2 * l + 1);
          x = vector::ShuffleOp::create(rewriter, loc, x, high,
                                        rewriter.getDenseI64ArrayAttr(mask));
        }
        Value w = vector::BroadcastOp::create(rewriter, loc, vecType,
                                              taps[i * kw + j]);
        acc = vector::FMAOp::create(rewriter, loc, w, x, acc);
      }
    }
    out = vector::TransferWriteOp::create(rewriter, loc, acc, out,
                                          ValueRange{ni, ci, hi, col},
                                          ArrayRef<bool>{true})
              .getResult();
    start += width;
  }
  scf::YieldOp::create(rewriter, loc, out);
  rewriter.setInsertionPointAfter(hLoop);
  scf::YieldOp::create(rewriter, loc, hLoop.getResult(0));
  rewriter.setInsertionPointAfter(cLoop);
  scf::YieldOp::create(rewriter, loc, cLoop.getResult(0));
  rewriter.replaceOp(dw, nLoop.getResult(0));
  return true;
}
