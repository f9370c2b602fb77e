//===- NNOps.cpp - lowering of the neural-network graph ops ---------------===//
//
// conv2d (for groups = 1: Winograd F(2x2, 3x3) for 3x3 stride-1 ones with
// constant weights when enabled (Winograd.cpp), tap matmuls on the padded
// image, or on its phase images for stride 2, or im2col + the tiled matmul;
// linalg's depthwise and grouped convolutions otherwise), pooling, gather,
// dynamic_update_slice, pad, argmax and cumsum, to linalg/tensor/scf on
// tensors.
//
// Convolutions and pooling need static spatial dims (H, W); the batch dim
// may be dynamic.
//
//===----------------------------------------------------------------------===//

#include "GraphToLinalgUtils.h"

#include "graphopt/Codegen/Parallel.h"
#include "graphopt/Dialect/Graph/IR/GraphOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::graphopt;
using namespace mlir::graphopt::graph;
using namespace mlir::graphopt::lowering;

namespace {

Value indexConst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// Replaces `op` by `r`, cast to the op's (written) result type if needed.
void replaceWithCast(PatternRewriter &b, Operation *op, Value r) {
  Type want = op->getResult(0).getType();
  if (r.getType() != want)
    r = tensor::CastOp::create(b, op->getLoc(), want, r);
  b.replaceOp(op, r);
}

/// The lowest value of `t` (-inf for floats): the identity of max.
TypedAttr lowestAttr(OpBuilder &b, Type t) {
  if (auto ft = dyn_cast<FloatType>(t))
    return b.getFloatAttr(
        ft, APFloat::getInf(ft.getFloatSemantics(), /*Negative=*/true));
  return b.getIntegerAttr(
      t, APInt::getSignedMinValue(t.getIntOrFloatBitWidth()));
}

Value fill(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes, Type t,
           TypedAttr value) {
  Value init = emptyTensor(b, loc, sizes, t);
  Value c = arith::ConstantOp::create(b, loc, value);
  return linalg::FillOp::create(b, loc, c, init).getResult(0);
}

/// Pads the spatial dims (2, 3) of an NCHW tensor with `value`.
Value padSpatial(OpBuilder &b, Location loc, Value x, int64_t top,
                 int64_t left, int64_t bottom, int64_t right,
                 TypedAttr value) {
  if (!top && !left && !bottom && !right)
    return x;
  RankedTensorType t = tensorTypeOf(x);
  SmallVector<int64_t> shape(t.getShape());
  shape[2] += top + bottom;
  shape[3] += left + right;
  // An empty image (a static 0 dim): all padding. (As a pad, its
  // bufferization would copy the source through a subview at an offset
  // the verifier rejects on the empty dim.)
  if (llvm::is_contained(t.getShape(), 0)) {
    SmallVector<OpFoldResult> sizes = dimSizes(b, loc, x);
    sizes[2] = b.getIndexAttr(shape[2]);
    sizes[3] = b.getIndexAttr(shape[3]);
    return fill(b, loc, sizes, t.getElementType(), value);
  }
  SmallVector<OpFoldResult> low = {b.getIndexAttr(0), b.getIndexAttr(0),
                                   b.getIndexAttr(top), b.getIndexAttr(left)};
  SmallVector<OpFoldResult> high = {b.getIndexAttr(0), b.getIndexAttr(0),
                                    b.getIndexAttr(bottom),
                                    b.getIndexAttr(right)};
  Value pad = arith::ConstantOp::create(b, loc, value);
  return tensor::PadOp::create(b, loc, t.clone(shape), x, low, high, pad);
}

/// Output sizes [N, C or F, OH, OW], N read from `x` when dynamic.
SmallVector<OpFoldResult> nchwSizes(OpBuilder &b, Location loc, Value x,
                                    RankedTensorType out) {
  SmallVector<OpFoldResult> sizes = dimSizes(b, loc, x);
  for (int d = 1; d < 4; ++d)
    sizes[d] = b.getIndexAttr(out.getDimSize(d));
  return sizes;
}

LogicalResult needStaticSpatial(PatternRewriter &rewriter, Operation *op,
                                RankedTensorType in, RankedTensorType out) {
  for (int d = 1; d < 4; ++d)
    if (in.isDynamicDim(d) || out.isDynamicDim(d))
      return op->emitOpError()
             << "the CPU lowering needs static channel and spatial dims "
                "(only the batch dim may be dynamic), got input "
             << in << " and result " << out;
  return success();
}

/// True for the convolutions `implicitGemmConv` lowers: f32, static
/// batch, stride 1, no dilation, a kernel larger than 1x1, and outputs wide
/// enough that computing the padded columns too wastes at most a quarter of
/// the work (14 columns with a 3x3 kernel: 16 computed; 7 columns would be
/// 9, and im2col is faster there: ResNet-18's last stage, 11 ms against 13).
bool isImplicitGemmConv(RankedTensorType x, RankedTensorType w,
                        RankedTensorType out, ArrayRef<int64_t> strides,
                        ArrayRef<int64_t> dil, ArrayRef<int64_t> pad) {
  int64_t paddedWidth = x.getDimSize(3) + pad[1] + pad[3];
  return x.getElementType().isF32() && !x.isDynamicDim(0) &&
         strides[0] == 1 && strides[1] == 1 && dil[0] == 1 && dil[1] == 1 &&
         w.getDimSize(2) * w.getDimSize(3) > 1 &&
         4 * paddedWidth <= 5 * out.getDimSize(3);
}

/// The padded rows and columns of the phase images of a stride-2
/// convolution (`phaseGemmConv`): Hq = OH + (KH - 1) / 2 + 1 rows (one
/// extra zero row keeps the last tap's slice in bounds) and Wq = OW + (KW -
/// 1) / 2 columns per phase.
std::pair<int64_t, int64_t> phaseExtent(int64_t oh, int64_t ow, int64_t kh,
                                        int64_t kw) {
  return {oh + (kh - 1) / 2 + 1, ow + (kw - 1) / 2};
}

/// True for the convolutions `phaseGemmConv` lowers: as for
/// `isImplicitGemmConv` but stride 2 in both dims, where the phase images
/// cover the padded input (the padding they add at the bottom and right is
/// not negative) and their rows waste at most a quarter of the work, with
/// outputs at least 56 pixels wide: measured one by one (graph-run, one
/// thread), ResNet-18's 7x7 stem went from 2.04 to 1.32 ms against im2col,
/// while its 3x3 stride-2 convolutions were no faster at 28 output columns
/// (0.90 / 0.88 ms) and slower at 14 (0.72 / 0.89 ms: the pixel-rows
/// matmul im2col feeds is better there).
bool isPhaseGemmConv(RankedTensorType x, RankedTensorType w,
                     RankedTensorType out, ArrayRef<int64_t> strides,
                     ArrayRef<int64_t> dil, ArrayRef<int64_t> pad) {
  if (!x.getElementType().isF32() || x.isDynamicDim(0) || strides[0] != 2 ||
      strides[1] != 2 || dil[0] != 1 || dil[1] != 1 ||
      w.getDimSize(2) * w.getDimSize(3) <= 1)
    return false;
  int64_t oh = out.getDimSize(2), ow = out.getDimSize(3);
  auto [hq, wq] = phaseExtent(oh, ow, w.getDimSize(2), w.getDimSize(3));
  return ow >= 56 && 2 * hq >= x.getDimSize(2) + pad[0] + pad[2] &&
         2 * wq >= x.getDimSize(3) + pad[1] + pad[3] && 4 * wq <= 5 * ow;
}

/// `[rows, cols]` slice of a 2-D tensor at (`row`, `col`).
Value slice2D(OpBuilder &b, Location loc, Value v, int64_t row, int64_t col,
              int64_t rows, int64_t cols) {
  Type et = tensorTypeOf(v).getElementType();
  return tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get({rows, cols}, et), v,
      ArrayRef<OpFoldResult>{b.getIndexAttr(row), b.getIndexAttr(col)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(rows), b.getIndexAttr(cols)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
}

/// Image `n` of a static-shape NCHW-like tensor `v` ([N, d1, d2, ...]),
/// without the batch dim.
Value image(OpBuilder &b, Location loc, Value v, Value n) {
  RankedTensorType t = tensorTypeOf(v);
  SmallVector<OpFoldResult> offsets(t.getRank(), b.getIndexAttr(0)),
      sizes, strides(t.getRank(), b.getIndexAttr(1));
  offsets[0] = n;
  sizes.push_back(b.getIndexAttr(1));
  for (int64_t d = 1; d < t.getRank(); ++d)
    sizes.push_back(b.getIndexAttr(t.getDimSize(d)));
  auto type = RankedTensorType::get(t.getShape().drop_front(),
                                    t.getElementType());
  return tensor::ExtractSliceOp::create(b, loc, type, v, offsets, sizes,
                                        strides);
}

/// The transpose of a static 2-D tensor (linalg.transpose).
Value transpose2D(OpBuilder &b, Location loc, Value v) {
  RankedTensorType t = tensorTypeOf(v);
  Value init = tensor::EmptyOp::create(
      b, loc, ArrayRef<int64_t>{t.getDimSize(1), t.getDimSize(0)},
      t.getElementType());
  return linalg::TransposeOp::create(b, loc, v, init, ArrayRef<int64_t>{1, 0})
      ->getResult(0);
}

/// Calls `perImage(n)` (which returns image n of the result, without the
/// batch dim) for each image of a static batch of `batch` and assembles
/// [batch, ...]: directly for one image, in an scf.for otherwise, so that
/// the per-image code (a matmul) exists once in the IR.
Value forEachImage(OpBuilder &b, Location loc, int64_t batch,
                   RankedTensorType imageType,
                   function_ref<Value(OpBuilder &, Location, Value)> perImage) {
  SmallVector<int64_t> shape = {batch};
  llvm::append_range(shape, imageType.getShape());
  auto type = RankedTensorType::get(shape, imageType.getElementType());
  SmallVector<ReassociationIndices> re = {{0, 1}};
  for (int64_t d = 1; d < imageType.getRank(); ++d)
    re.push_back({d + 1});
  if (batch == 1)
    return tensor::ExpandShapeOp::create(b, loc, type,
                                         perImage(b, loc, indexConst(b, loc, 0)),
                                         re);
  Value init = tensor::EmptyOp::create(b, loc, shape,
                                       imageType.getElementType());
  auto loop = scf::ForOp::create(
      b, loc, indexConst(b, loc, 0), indexConst(b, loc, batch),
      indexConst(b, loc, 1), ValueRange{init},
      [&](OpBuilder &nb, Location nl, Value n, ValueRange acc) {
        Value y = perImage(nb, nl, n);
        SmallVector<OpFoldResult> offsets(shape.size(), nb.getIndexAttr(0)),
            sizes, strides(shape.size(), nb.getIndexAttr(1));
        offsets[0] = n;
        for (int64_t s : shape)
          sizes.push_back(nb.getIndexAttr(s));
        sizes[0] = nb.getIndexAttr(1);
        Value r = tensor::InsertSliceOp::create(nb, nl, y, acc[0], offsets,
                                                sizes, strides);
        scf::YieldOp::create(nb, nl, r);
      });
  // Images are independent (graph-cpu-parallelize).
  graphopt::markParallelLoop(loop);
  return loop.getResult(0);
}

/// The taps of an implicit-GEMM convolution over the flattened image `xf`
/// ([C, L]): tap (i, j) is a [F, C] x [C, OH * pitch] matmul whose right
/// operand is the slice `xf[:, offset(i, j) : + OH * pitch]`, all
/// accumulating into one output whose rows are `pitch` columns apart, the
/// first OW of them valid. The matmuls take the packed kernel (the
/// weight's taps packed at compile time when constant), or the direct
/// kernel (lib/Codegen/CPUConv.cpp). Returns [F, OH, OW].
Value tapChainConv(OpBuilder &b, Location loc, Value xf, Value weight,
                   int64_t oh, int64_t ow, int64_t pitch,
                   function_ref<int64_t(int64_t, int64_t)> offset) {
  RankedTensorType w = tensorTypeOf(weight);
  int64_t f = w.getDimSize(0), c = w.getDimSize(1), kh = w.getDimSize(2),
          kw = w.getDimSize(3);
  Type et = w.getElementType();
  int64_t cols = oh * pitch;
  Value acc = fill(b, loc, {b.getIndexAttr(f), b.getIndexAttr(cols)}, et,
                   b.getZeroAttr(et));
  auto one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  for (int64_t i = 0; i < kh; ++i)
    for (int64_t j = 0; j < kw; ++j) {
      Value tap = tensor::ExtractSliceOp::create(
          b, loc, RankedTensorType::get({f, c}, et), weight,
          ArrayRef<OpFoldResult>{zero, zero, b.getIndexAttr(i),
                                 b.getIndexAttr(j)},
          ArrayRef<OpFoldResult>{b.getIndexAttr(f), b.getIndexAttr(c), one,
                                 one},
          ArrayRef<OpFoldResult>{one, one, one, one});
      Value shifted = slice2D(b, loc, xf, 0, offset(i, j), c, cols);
      acc = linalg::MatmulOp::create(b, loc, TypeRange{acc.getType()},
                                     ValueRange{tap, shifted}, ValueRange{acc})
                .getResult(0);
    }
  Value rows = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({f, oh, pitch}, et), acc,
      SmallVector<ReassociationIndices>{{0}, {1, 2}});
  return tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get({f, oh, ow}, et), rows,
      ArrayRef<OpFoldResult>{zero, zero, zero},
      ArrayRef<OpFoldResult>{b.getIndexAttr(f), b.getIndexAttr(oh),
                             b.getIndexAttr(ow)},
      ArrayRef<OpFoldResult>{one, one, one});
}

/// One image of a stride-1 convolution as KH x KW matmuls on the padded
/// input, with no im2col copy. With the padded image `xp` ([C, Hp, Wp], one
/// extra zero row at the bottom) flattened to `xf[c][y * Wp + x]`, the
/// output computed at every padded column, `o[f][p]` for p = y * Wp + x, is
///   o[f][p] = sum over (i, j) of W[f, :, i, j] x xf[:, p + i * Wp + j],
/// so tap (i, j) reads `xf` at offset i * Wp + j. The columns x >= OW are
/// discarded; the extra zero row keeps the last tap's slice in bounds.
Value implicitGemmConv(OpBuilder &b, Location loc, Value xp, Value weight,
                       int64_t oh, int64_t ow) {
  RankedTensorType xpType = tensorTypeOf(xp);
  int64_t c = xpType.getDimSize(0), hp = xpType.getDimSize(1),
          wp = xpType.getDimSize(2);
  Value xf = tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({c, hp * wp}, xpType.getElementType()),
      xp, SmallVector<ReassociationIndices>{{0}, {1, 2}});
  return tapChainConv(b, loc, xf, weight, oh, ow, wp,
                      [&](int64_t i, int64_t j) { return i * wp + j; });
}

/// One image of a stride-2 convolution as the same tap chain over its four
/// phase images: with the padded image `xp` ([C, 2 Hq, 2 Wq]),
///   q[c][a][e][y][x] = xp[c][2y + a][2x + e]     (a, e in {0, 1})
/// flattened to [C, 4 Hq Wq], output pixel (y, x) is
///   sum over (i, j) of W[:, :, i, j] x q[:, i % 2, j % 2, y + i / 2, x + j / 2]
/// so tap (i, j) is a [F, C] x [C, OH * Wq] matmul on the slice at offset
/// (2 (i % 2) + j % 2) Hq Wq + (i / 2) Wq + j / 2: stride 1 within one phase
/// image. The direct kernel then computes it as it does a stride-1
/// convolution; the only copy is the phase split (the size of the input,
/// where im2col copies KH x KW / 4 times that). Returns [F, OH, OW].
Value phaseGemmConv(OpBuilder &b, Location loc, Value xp, Value weight,
                    int64_t oh, int64_t ow) {
  RankedTensorType xpType = tensorTypeOf(xp);
  RankedTensorType w = tensorTypeOf(weight);
  Type et = xpType.getElementType();
  int64_t c = xpType.getDimSize(0);
  // (Plain copies, not structured bindings: the tap offsets capture them.)
  std::pair<int64_t, int64_t> extent =
      phaseExtent(oh, ow, w.getDimSize(2), w.getDimSize(3));
  int64_t hq = extent.first, wq = extent.second;
  Value phases = phaseImages(b, loc, xp, hq, wq);
  Value xf = tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({c, 4 * hq * wq}, et), phases,
      SmallVector<ReassociationIndices>{{0}, {1, 2, 3, 4}});
  return tapChainConv(b, loc, xf, weight, oh, ow, wq,
                      [&](int64_t i, int64_t j) {
                        return (2 * (i % 2) + j % 2) * hq * wq + (i / 2) * wq +
                               j / 2;
                      });
}

/// `y + bias`, the [F] bias reshaped to F followed by `trailingOnes` unit
/// dims (the layout of the channel dim in `y`); `y` when there is no bias.
Value addBias(OpBuilder &b, Location loc, Value y, Value bias, int64_t f,
              int64_t trailingOnes) {
  if (!bias)
    return y;
  SmallVector<int64_t> shape = {f};
  shape.append(trailingOnes, 1);
  return AddOp::create(b, loc, y, ReshapeOp::create(b, loc, bias, shape));
}

struct Conv2DLowering : OpRewritePattern<Conv2DOp> {
  Conv2DLowering(MLIRContext *ctx, bool winograd)
      : OpRewritePattern(ctx), winograd(winograd) {}
  bool winograd;
  LogicalResult matchAndRewrite(Conv2DOp op,
                                PatternRewriter &b) const override {
    Location loc = op.getLoc();
    RankedTensorType x = tensorTypeOf(op.getInput());
    RankedTensorType w = tensorTypeOf(op.getWeight());
    RankedTensorType out = op.getType();
    if (failed(needStaticSpatial(b, op, x, out)))
      return failure();
    if (!w.hasStaticShape())
      return op.emitOpError() << "the CPU lowering needs a static weight "
                                 "shape, got "
                              << w;
    Type et = x.getElementType();
    ArrayRef<int64_t> pad = op.getPadding(), strides = op.getStrides(),
                      dil = op.getDilations();
    int64_t groups = op.getGroups();
    int64_t c = x.getDimSize(1), f = w.getDimSize(0), kh = w.getDimSize(2),
            kw = w.getDimSize(3), oh = out.getDimSize(2),
            ow = out.getDimSize(3);
    MLIRContext *ctx = b.getContext();

    // No input channels, an empty kernel or an empty image (every tap
    // reads padding), or no outputs at all (an empty batch): every output
    // is the bias, or zero; the strategies below would slice out of an
    // empty operand.
    if (w.getDimSize(1) == 0 || kh == 0 || kw == 0 || x.getDimSize(2) == 0 ||
        x.getDimSize(3) == 0 || llvm::is_contained(out.getShape(), 0)) {
      Value r = fill(b, loc, nchwSizes(b, loc, op.getInput(), out), et,
                     b.getZeroAttr(et));
      r = addBias(b, loc, r, op.getBias(), f, 2);
      replaceWithCast(b, op, r);
      return success();
    }

    // Winograd F(2x2, 3x3) (Winograd.cpp): the image padded to whole 2x2
    // output tiles plus the kernel's halo, [C, 2 th + 2, 2 tw + 2].
    if (winograd && groups == 1 && isWinogradConv(x, w, out, strides, dil)) {
      if (ElementsAttr weight = constantWeight(op.getWeight())) {
        int64_t th = (oh + 1) / 2, tw = (ow + 1) / 2;
        Value xpe = padSpatial(b, loc, op.getInput(), pad[0], pad[1],
                               2 * th + 2 - x.getDimSize(2) - pad[0],
                               2 * tw + 2 - x.getDimSize(3) - pad[1],
                               b.getZeroAttr(et));
        Value r = forEachImage(
            b, loc, x.getDimSize(0), RankedTensorType::get({f, oh, ow}, et),
            [&](OpBuilder &nb, Location nl, Value n) -> Value {
              Value y =
                  winogradConv(nb, nl, image(nb, nl, xpe, n), weight, th, tw);
              if (oh == 2 * th && ow == 2 * tw)
                return y;
              auto one = nb.getIndexAttr(1), zero = nb.getIndexAttr(0);
              return tensor::ExtractSliceOp::create(
                         nb, nl, RankedTensorType::get({f, oh, ow}, et), y,
                         ArrayRef<OpFoldResult>{zero, zero, zero},
                         ArrayRef<OpFoldResult>{nb.getIndexAttr(f),
                                                nb.getIndexAttr(oh),
                                                nb.getIndexAttr(ow)},
                         ArrayRef<OpFoldResult>{one, one, one})
                  .getResult();
            });
        r = addBias(b, loc, r, op.getBias(), f, 2);
        replaceWithCast(b, op, r);
        return success();
      }
    }

    // Tap chains: stride 1 on the padded image (one extra zero row at the
    // bottom), stride 2 on its phase images (padded to whole phases).
    bool stride1 = isImplicitGemmConv(x, w, out, strides, dil, pad);
    if (groups == 1 &&
        (stride1 || isPhaseGemmConv(x, w, out, strides, dil, pad))) {
      int64_t bottom = pad[2] + 1, right = pad[3];
      if (!stride1) {
        auto [hq, wq] = phaseExtent(oh, ow, kh, kw);
        bottom = 2 * hq - x.getDimSize(2) - pad[0];
        right = 2 * wq - x.getDimSize(3) - pad[1];
      }
      Value xpe = padSpatial(b, loc, op.getInput(), pad[0], pad[1], bottom,
                             right, b.getZeroAttr(et));
      Value weight = op.getWeight();
      Value r = forEachImage(
          b, loc, x.getDimSize(0), RankedTensorType::get({f, oh, ow}, et),
          [&](OpBuilder &nb, Location nl, Value n) {
            Value img = image(nb, nl, xpe, n);
            return stride1 ? implicitGemmConv(nb, nl, img, weight, oh, ow)
                           : phaseGemmConv(nb, nl, img, weight, oh, ow);
          });
      r = addBias(b, loc, r, op.getBias(), f, 2);
      replaceWithCast(b, op, r);
      return success();
    }

    Value xp = padSpatial(b, loc, op.getInput(), pad[0], pad[1], pad[2],
                          pad[3], b.getZeroAttr(et));
    SmallVector<OpFoldResult> outSizes = nchwSizes(b, loc, op.getInput(), out);
    // The im2col copies read the padded rows and columns the windows reach,
    // cut to that extent: with a row or column the windows never reach
    // (stride 2 over an even extent, one output column of a wider input),
    // folding a unit output dim would leave the copy indexing a dim by the
    // kernel offset alone, over fewer elements than the dim holds, which
    // linalg rejects.
    if (groups == 1 && !ShapedType::isDynamic(oh) &&
        !ShapedType::isDynamic(ow) && oh > 0 && ow > 0) {
      auto xpType = tensorTypeOf(xp);
      int64_t needH = (oh - 1) * strides[0] + (kh - 1) * dil[0] + 1,
              needW = (ow - 1) * strides[1] + (kw - 1) * dil[1] + 1;
      if (!xpType.isDynamicDim(2) && !xpType.isDynamicDim(3) &&
          (xpType.getDimSize(2) > needH || xpType.getDimSize(3) > needW)) {
        SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, xp);
        sizes[2] = b.getIndexAttr(needH);
        sizes[3] = b.getIndexAttr(needW);
        SmallVector<OpFoldResult> zeros(4, b.getIndexAttr(0)),
            ones(4, b.getIndexAttr(1));
        xp = tensor::ExtractSliceOp::create(b, loc, xp, zeros, sizes, ones);
      }
    }

    if (groups == 1 && !x.isDynamicDim(0)) {
      // Per image (forEachImage): im2col, cols[c, i, j, p, q] =
      // xp[c, p*sh + i*dh, q*sw + j*dw], then [F, C*KH*KW] x
      // [C*KH*KW, OH*OW] with the tiled matmul; the result is already NCHW.
      // A 1x1, stride-1 conv skips the copy. The weight is the matmul's
      // operand itself (packed at compile time when it is a constant).
      int64_t k = c * kh * kw, pixels = oh * ow;
      bool pointwise = kh == 1 && kw == 1 && strides[0] == 1 &&
                       strides[1] == 1;
      // Few output pixels and many channels (ResNet's 14x14 and 7x7
      // stages): the pixels are the matmul's rows and the channels its
      // columns, [OH*OW, K] x [K, F], then the [OH*OW, F] result is
      // transposed. Otherwise 49 or 196 columns split into whole vector
      // blocks and narrow remainders, each streaming the whole weight.
      bool pixelRows = pixels % 32 != 0 && pixels < f;
      Value w2 = tensor::CollapseShapeOp::create(
          b, loc, RankedTensorType::get({f, k}, et), op.getWeight(),
          SmallVector<ReassociationIndices>{{0}, {1, 2, 3}});
      if (pixelRows)
        w2 = transpose2D(b, loc, w2);
      // Each image's [F, OH*OW] result is expanded to [F, OH, OW] inside
      // the loop, so that the loop yields NCHW and an elementwise epilogue
      // can be fused into it (fusion-tile-and-fuse's fuseIntoImageLoop).
      auto perImage = [&](OpBuilder &nb, Location nl, Value n) -> Value {
        Value img = image(nb, nl, xp, n);
        Value cols;
        if (pointwise) {
          cols = tensor::CollapseShapeOp::create(
              nb, nl, RankedTensorType::get({k, pixels}, et), img,
              SmallVector<ReassociationIndices>{{0}, {1, 2}});
          if (pixelRows)
            cols = transpose2D(nb, nl, cols);
        } else {
          // cols[c, i, j, p, q] (or [p, q, c, i, j] with pixel rows)
          // = xp[c, p*sh + i*dh, q*sw + j*dw].
          AffineExpr ci, i, j, p, q;
          bindDims(ctx, ci, i, j, p, q);
          auto inMap = AffineMap::get(
              5, 0,
              {ci, p * strides[0] + i * dil[0], q * strides[1] + j * dil[1]},
              ctx);
          auto outMap = pixelRows ? AffineMap::get(5, 0, {p, q, ci, i, j}, ctx)
                                  : AffineMap::getMultiDimIdentityMap(5, ctx);
          SmallVector<int64_t> shape =
              pixelRows ? SmallVector<int64_t>{oh, ow, c, kh, kw}
                        : SmallVector<int64_t>{c, kh, kw, oh, ow};
          Value init = tensor::EmptyOp::create(nb, nl, shape, et);
          SmallVector<utils::IteratorType> its(5,
                                               utils::IteratorType::parallel);
          cols =
              linalg::GenericOp::create(
                  nb, nl, TypeRange{init.getType()}, ValueRange{img},
                  ValueRange{init}, SmallVector<AffineMap>{inMap, outMap}, its,
                  [](OpBuilder &bb, Location bl, ValueRange args) {
                    linalg::YieldOp::create(bb, bl, args[0]);
                  })
                  .getResult(0);
          SmallVector<ReassociationIndices> re =
              pixelRows ? SmallVector<ReassociationIndices>{{0, 1}, {2, 3, 4}}
                        : SmallVector<ReassociationIndices>{{0, 1, 2}, {3, 4}};
          cols = tensor::CollapseShapeOp::create(
              nb, nl,
              pixelRows ? RankedTensorType::get({pixels, k}, et)
                        : RankedTensorType::get({k, pixels}, et),
              cols, re);
        }
        if (pixelRows)
          return transpose2D(nb, nl, MatMulOp::create(nb, nl, cols, w2));
        return MatMulOp::create(nb, nl, w2, cols);
      };
      Value r = forEachImage(
          b, loc, x.getDimSize(0), RankedTensorType::get({f, oh, ow}, et),
          [&](OpBuilder &nb, Location nl, Value n) -> Value {
            return tensor::ExpandShapeOp::create(
                nb, nl, RankedTensorType::get({f, oh, ow}, et),
                perImage(nb, nl, n),
                SmallVector<ReassociationIndices>{{0}, {1, 2}});
          });
      r = addBias(b, loc, r, op.getBias(), f, 2);
      replaceWithCast(b, op, r);
      return success();
    }

    if (groups == 1) {
      // Dynamic batch: im2col over the batch, cols[n, c, i, j, p, q] =
      // xp[n, c, p*sh + i*dh, q*sw + j*dw], then [F, C*KH*KW] x
      // [N, C*KH*KW, OH*OW] (a batch_matmul); the result is already NCHW.
      // A 1x1, stride-1 conv skips the copy.
      Value cols;
      bool pointwise = kh == 1 && kw == 1 && strides[0] == 1 &&
                       strides[1] == 1;
      if (pointwise) {
        cols = xp;
      } else {
        SmallVector<OpFoldResult> colSizes = {
            outSizes[0],        b.getIndexAttr(c),  b.getIndexAttr(kh),
            b.getIndexAttr(kw), b.getIndexAttr(oh), b.getIndexAttr(ow)};
        Value init = emptyTensor(b, loc, colSizes, et);
        AffineExpr n, ci, i, j, p, q;
        bindDims(ctx, n, ci, i, j, p, q);
        auto inMap = AffineMap::get(
            6, 0,
            {n, ci, p * strides[0] + i * dil[0], q * strides[1] + j * dil[1]},
            ctx);
        SmallVector<AffineMap> maps = {inMap,
                                       AffineMap::getMultiDimIdentityMap(6, ctx)};
        SmallVector<utils::IteratorType> its(6, utils::IteratorType::parallel);
        cols = linalg::GenericOp::create(
                   b, loc, TypeRange{init.getType()}, ValueRange{xp},
                   ValueRange{init}, maps, its,
                   [](OpBuilder &nb, Location nl, ValueRange args) {
                     linalg::YieldOp::create(nb, nl, args[0]);
                   })
                   .getResult(0);
      }
      int64_t k = c * kh * kw;
      Value cols3 = ReshapeOp::create(b, loc, cols,
                                      ArrayRef<int64_t>{-1, k, oh * ow});
      Value w2 = ReshapeOp::create(b, loc, op.getWeight(),
                                   ArrayRef<int64_t>{f, k});
      Value y = MatMulOp::create(b, loc, w2, cols3);
      y = addBias(b, loc, y, op.getBias(), f, 1);
      Value r = ReshapeOp::create(b, loc, y,
                                  ArrayRef<int64_t>{-1, f, oh, ow});
      replaceWithCast(b, op, r);
      return success();
    }

    // Grouped and depthwise convolutions: the bias (or zero) is the init.
    // f16 and bf16 accumulate in f32 (linalg's convolutions extend their
    // operands to the init's type) and the sum is rounded once at the end.
    Type acc = computeType(et);
    Value init;
    if (Value bias = op.getBias()) {
      Value e = emptyTensor(b, loc, outSizes, acc);
      AffineMap biasMap = AffineMap::get(4, 0, {getAffineDimExpr(1, ctx)}, ctx);
      SmallVector<AffineMap> maps = {biasMap,
                                     AffineMap::getMultiDimIdentityMap(4, ctx)};
      SmallVector<utils::IteratorType> its(4, utils::IteratorType::parallel);
      init = linalg::GenericOp::create(
                 b, loc, TypeRange{e.getType()}, ValueRange{bias},
                 ValueRange{e}, maps, its,
                 [](OpBuilder &nb, Location nl, ValueRange args) {
                   linalg::YieldOp::create(nb, nl, toCompute(nb, nl, args[0]));
                 })
                 .getResult(0);
    } else {
      init = fill(b, loc, outSizes, acc, b.getZeroAttr(acc));
    }
    auto stridesAttr = b.getI64VectorAttr(strides);
    auto dilAttr = b.getI64VectorAttr(dil);
    Value r;
    if (groups == c && groups == f) {
      // Depthwise, multiplier 1: weight [C, 1, KH, KW] -> [C, KH, KW].
      Value w3 = tensor::CollapseShapeOp::create(
          b, loc, op.getWeight(),
          SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}});
      r = linalg::DepthwiseConv2DNchwChwOp::create(
              b, loc, TypeRange{init.getType()}, ValueRange{xp, w3},
              ValueRange{init}, stridesAttr, dilAttr)
              .getResult(0);
    } else {
      // [N, G, C/G, H, W] x [G, F/G, C/G, KH, KW] -> [N, G, F/G, OH, OW].
      auto expand = [&](Value v, int64_t dim, int64_t g) {
        RankedTensorType t = tensorTypeOf(v);
        SmallVector<int64_t> shape(t.getShape());
        shape[dim] = t.getDimSize(dim) / g;
        shape.insert(shape.begin() + dim, g);
        SmallVector<ReassociationIndices> re;
        for (int64_t d = 0; d < t.getRank(); ++d) {
          if (d < dim)
            re.push_back({d});
          else if (d == dim)
            re.push_back({d, d + 1});
          else
            re.push_back({d + 1});
        }
        SmallVector<OpFoldResult> sizes = dimSizes(b, loc, v);
        sizes[dim] = b.getIndexAttr(shape[dim + 1]);
        sizes.insert(sizes.begin() + dim, b.getIndexAttr(g));
        return tensor::ExpandShapeOp::create(b, loc, t.clone(shape), v, re,
                                             sizes)
            .getResult();
      };
      Value x5 = expand(xp, 1, groups);
      Value w5 = expand(op.getWeight(), 0, groups);
      Value i5 = expand(init, 1, groups);
      Value r5 = linalg::Conv2DNgchwGfchwOp::create(
                     b, loc, TypeRange{i5.getType()}, ValueRange{x5, w5},
                     ValueRange{i5}, stridesAttr, dilAttr)
                     .getResult(0);
      r = tensor::CollapseShapeOp::create(
          b, loc, r5, SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
    }
    if (acc != et)
      r = CastOp::create(b, loc, r, et);
    replaceWithCast(b, op, r);
    return success();
  }
};

/// Extra bottom/right padding that ceil_mode needs so that every window the
/// output size counts lies inside the padded input.
int64_t ceilExtra(int64_t in, int64_t padBefore, int64_t padAfter,
                  int64_t out, int64_t kernel, int64_t stride,
                  int64_t dilation) {
  int64_t needed = (out - 1) * stride + dilation * (kernel - 1) + 1;
  return std::max<int64_t>(0, needed - (in + padBefore + padAfter));
}

struct MaxPool2DLowering : OpRewritePattern<MaxPool2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MaxPool2DOp op,
                                PatternRewriter &b) const override {
    Location loc = op.getLoc();
    RankedTensorType x = tensorTypeOf(op.getInput());
    RankedTensorType out = op.getType();
    if (failed(needStaticSpatial(b, op, x, out)))
      return failure();
    ArrayRef<int64_t> k = op.getKernel(), pad = op.getPadding(),
                      dil = op.getDilations();
    ArrayRef<int64_t> s = op.getStrides() ? *op.getStrides() : k;
    Type et = x.getElementType();
    int64_t eh = ceilExtra(x.getDimSize(2), pad[0], pad[2], out.getDimSize(2),
                           k[0], s[0], dil[0]);
    int64_t ew = ceilExtra(x.getDimSize(3), pad[1], pad[3], out.getDimSize(3),
                           k[1], s[1], dil[1]);
    TypedAttr lowest = lowestAttr(b, et);
    // Unsigned integers: pool the values with their sign bit flipped (the
    // unsigned order becomes the signed one), flip the result back.
    bool flip = isUnsignedOp(op) && isa<IntegerType>(et);
    auto flipSign = [&](Value v) {
      RankedTensorType vt = tensorTypeOf(v);
      return buildElementwise(
          b, loc, vt, {v}, [&](OpBuilder &nb, Location nl, ValueRange a) {
            Value sign = arith::ConstantOp::create(
                nb, nl, et,
                nb.getIntegerAttr(
                    et, APInt::getSignedMinValue(et.getIntOrFloatBitWidth())));
            return arith::XOrIOp::create(nb, nl, a[0], sign);
          });
    };
    Value input = flip ? flipSign(op.getInput()) : op.getInput();
    Value xp = padSpatial(b, loc, input, pad[0], pad[1], pad[2] + eh,
                          pad[3] + ew, lowest);
    SmallVector<OpFoldResult> sizes = nchwSizes(b, loc, op.getInput(), out);
    Value init = fill(b, loc, sizes, et, lowest);
    Value window = tensor::EmptyOp::create(b, loc, k, et);
    Value r = linalg::PoolingNchwMaxOp::create(
                  b, loc, TypeRange{init.getType()}, ValueRange{xp, window},
                  ValueRange{init}, b.getI64VectorAttr(s),
                  b.getI64VectorAttr(dil))
                  .getResult(0);
    if (flip)
      r = flipSign(r);
    replaceWithCast(b, op, r);
    return success();
  }
};

struct AvgPool2DLowering : OpRewritePattern<AvgPool2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AvgPool2DOp op,
                                PatternRewriter &b) const override {
    Location loc = op.getLoc();
    RankedTensorType x = tensorTypeOf(op.getInput());
    RankedTensorType out = op.getType();
    if (failed(needStaticSpatial(b, op, x, out)))
      return failure();
    ArrayRef<int64_t> k = op.getKernel(), pad = op.getPadding();
    ArrayRef<int64_t> s = op.getStrides() ? *op.getStrides() : k;
    Type et = x.getElementType();
    Type ct = computeType(et);
    int64_t h = x.getDimSize(2), w = x.getDimSize(3);
    int64_t oh = out.getDimSize(2), ow = out.getDimSize(3);
    int64_t eh = ceilExtra(h, pad[0], pad[2], oh, k[0], s[0], 1);
    int64_t ew = ceilExtra(w, pad[1], pad[3], ow, k[1], s[1], 1);
    // Sum in the compute type over the zero-padded input.
    Value in = op.getInput();
    if (ct != et)
      in = buildElementwise(b, loc, x.clone(ct), {in},
                            [&](OpBuilder &nb, Location nl, ValueRange a) {
                              return castBody(nb, nl, a[0], ct);
                            });
    Value xp = padSpatial(b, loc, in, pad[0], pad[1], pad[2] + eh,
                          pad[3] + ew, b.getZeroAttr(ct));
    SmallVector<OpFoldResult> sizes = nchwSizes(b, loc, op.getInput(), out);
    Value init = fill(b, loc, sizes, ct, b.getZeroAttr(ct));
    Value window = tensor::EmptyOp::create(b, loc, k, ct);
    Value sum = linalg::PoolingNchwSumOp::create(
                    b, loc, TypeRange{init.getType()}, ValueRange{xp, window},
                    ValueRange{init}, b.getI64VectorAttr(s),
                    b.getI64VectorAttr({1, 1}))
                    .getResult(0);
    // The divisor per output position, PyTorch's rule (ONNX agrees).
    SmallVector<float> divisor(oh * ow);
    for (int64_t i = 0; i < oh; ++i)
      for (int64_t j = 0; j < ow; ++j) {
        int64_t hs = i * s[0] - pad[0], ws = j * s[1] - pad[1];
        int64_t he = std::min(hs + k[0], h + pad[2]);
        int64_t we = std::min(ws + k[1], w + pad[3]);
        int64_t count = (he - hs) * (we - ws);
        if (!op.getCountIncludePad()) {
          hs = std::max<int64_t>(hs, 0);
          ws = std::max<int64_t>(ws, 0);
          he = std::min(he, h);
          we = std::min(we, w);
          count = (he - hs) * (we - ws);
        }
        divisor[i * ow + j] = 1.0f / float(std::max<int64_t>(count, 1));
      }
    auto dt = RankedTensorType::get({oh, ow}, b.getF32Type());
    Value inv = arith::ConstantOp::create(
        b, loc, dt, DenseElementsAttr::get(dt, ArrayRef<float>(divisor)));
    Value r = buildElementwise(
        b, loc, out, {sum, inv}, [&](OpBuilder &nb, Location nl, ValueRange a) {
          Value m = a[1];
          if (ct != m.getType())
            m = castBody(nb, nl, m, ct);
          Value v = arith::MulFOp::create(nb, nl, a[0], m);
          return fromCompute(nb, nl, v, et);
        });
    b.replaceOp(op, r);
    return success();
  }
};

/// Clamps a run-time index into [0, size), counting negatives from the end.
Value normalizeIndex(OpBuilder &b, Location loc, Value idx, Value size) {
  Value zero = indexConst(b, loc, 0);
  Value isNeg =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, idx, zero);
  idx = arith::SelectOp::create(b, loc, isNeg,
                                arith::AddIOp::create(b, loc, idx, size), idx);
  Value last = arith::SubIOp::create(b, loc, size, indexConst(b, loc, 1));
  idx = arith::MaxSIOp::create(b, loc, idx, zero);
  return arith::MinSIOp::create(b, loc, idx, last);
}

Value dimValue(OpBuilder &b, Location loc, Value v, int64_t d) {
  RankedTensorType t = tensorTypeOf(v);
  if (!t.isDynamicDim(d))
    return indexConst(b, loc, t.getDimSize(d));
  return tensor::DimOp::create(b, loc, v, d);
}

/// The slice of `t` of size 1 along `axis` at the run-time index held by
/// the rank-0 tensor `index` (normalized as normalizeIndex does).
struct AxisSlice {
  SmallVector<OpFoldResult> offsets, sizes, strides;
};
AxisSlice sliceAtIndex(OpBuilder &b, Location loc, Value t, int64_t axis,
                       Value index) {
  int64_t rank = tensorTypeOf(t).getRank();
  Value idx = tensor::ExtractOp::create(b, loc, index, ValueRange{});
  idx = arith::IndexCastOp::create(b, loc, b.getIndexType(), idx);
  idx = normalizeIndex(b, loc, idx, dimValue(b, loc, t, axis));
  AxisSlice s;
  s.offsets.assign(rank, b.getIndexAttr(0));
  s.offsets[axis] = idx;
  s.sizes = dimSizes(b, loc, t);
  s.sizes[axis] = b.getIndexAttr(1);
  s.strides.assign(rank, b.getIndexAttr(1));
  return s;
}

struct GatherLowering : OpRewritePattern<GatherOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GatherOp op,
                                PatternRewriter &b) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = b.getContext();
    RankedTensorType in = tensorTypeOf(op.getInput());
    RankedTensorType idxT = tensorTypeOf(op.getIndices());
    RankedTensorType out = op.getType();
    int64_t axis = op.getAxis(), ir = idxT.getRank();
    // One index that the host knows (a graph.loop's counter, a scalar made
    // into a tensor, a constant): a slice at that offset, which later passes
    // read in place and vectorize (a recurrent loop's gather of its step's
    // input), rather than an element-wise gather. Other rank-0 indices stay
    // element-wise: on CUDA their tensor lives in device memory.
    if (ir == 0 && op->hasAttr(kHostIndexAttr)) {
      AxisSlice slice =
          sliceAtIndex(b, loc, op.getInput(), axis, op.getIndices());
      SmallVector<int64_t> shape(in.getShape());
      shape.erase(shape.begin() + axis);
      auto sliceType = RankedTensorType::get(shape, in.getElementType());
      Value r = tensor::ExtractSliceOp::create(b, loc, sliceType, op.getInput(),
                                               slice.offsets, slice.sizes,
                                               slice.strides);
      replaceWithCast(b, op, r);
      return success();
    }
    // Result sizes: input[:axis] + indices + input[axis+1:].
    SmallVector<OpFoldResult> inSizes = dimSizes(b, loc, op.getInput());
    SmallVector<OpFoldResult> idxSizes = dimSizes(b, loc, op.getIndices());
    SmallVector<OpFoldResult> sizes(inSizes.begin(), inSizes.begin() + axis);
    llvm::append_range(sizes, idxSizes);
    sizes.append(inSizes.begin() + axis + 1, inSizes.end());
    Value init = emptyTensor(b, loc, sizes, out.getElementType());
    SmallVector<AffineExpr> idxExprs;
    for (int64_t d = 0; d < ir; ++d)
      idxExprs.push_back(getAffineDimExpr(axis + d, ctx));
    SmallVector<AffineMap> maps = {
        AffineMap::get(out.getRank(), 0, idxExprs, ctx),
        AffineMap::getMultiDimIdentityMap(out.getRank(), ctx)};
    SmallVector<utils::IteratorType> its(out.getRank(),
                                         utils::IteratorType::parallel);
    Value input = op.getInput();
    Value axisSize = dimValue(b, loc, input, axis);
    Value r = linalg::GenericOp::create(
                  b, loc, TypeRange{init.getType()},
                  ValueRange{op.getIndices()}, ValueRange{init}, maps, its,
                  [&](OpBuilder &nb, Location nl, ValueRange args) {
                    Value i = arith::IndexCastOp::create(
                        nb, nl, nb.getIndexType(), args[0]);
                    i = normalizeIndex(nb, nl, i, axisSize);
                    SmallVector<Value> coords;
                    for (int64_t d = 0; d < axis; ++d)
                      coords.push_back(linalg::IndexOp::create(nb, nl, d));
                    coords.push_back(i);
                    for (int64_t d = axis + 1; d < in.getRank(); ++d)
                      coords.push_back(
                          linalg::IndexOp::create(nb, nl, d - 1 + ir));
                    Value v = tensor::ExtractOp::create(nb, nl, input, coords);
                    linalg::YieldOp::create(nb, nl, v);
                  })
                  .getResult(0);
    replaceWithCast(b, op, r);
    return success();
  }
};

/// graph.gather_elements as a linalg.generic over the indices: each index
/// converted, wrapped, clamped and used in a tensor.extract of the input.
/// Dynamic dims other than the axis that the indices exceed are clamped
/// too (the static ones are checked by the verifier).
struct GatherElementsLowering : OpRewritePattern<GatherElementsOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GatherElementsOp op,
                                PatternRewriter &b) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = b.getContext();
    Value input = op.getInput(), indices = op.getIndices();
    RankedTensorType in = tensorTypeOf(input);
    int64_t axis = op.getAxis(), rank = in.getRank();
    Value init =
        emptyTensor(b, loc, dimSizes(b, loc, indices), in.getElementType());
    SmallVector<AffineMap> maps(2,
                                AffineMap::getMultiDimIdentityMap(rank, ctx));
    SmallVector<utils::IteratorType> its(rank, utils::IteratorType::parallel);
    SmallVector<Value> sizes;
    for (int64_t d = 0; d < rank; ++d)
      sizes.push_back(dimValue(b, loc, input, d));
    Value r =
        linalg::GenericOp::create(
            b, loc, TypeRange{init.getType()}, ValueRange{indices},
            ValueRange{init}, maps, its,
            [&](OpBuilder &nb, Location nl, ValueRange args) {
              SmallVector<Value> coords;
              for (int64_t d = 0; d < rank; ++d) {
                if (d == axis) {
                  Value i = arith::IndexCastOp::create(
                      nb, nl, nb.getIndexType(), args[0]);
                  coords.push_back(normalizeIndex(nb, nl, i, sizes[d]));
                  continue;
                }
                Value c = linalg::IndexOp::create(nb, nl, d);
                if (in.isDynamicDim(d) || tensorTypeOf(indices).isDynamicDim(d))
                  c = arith::MinSIOp::create(
                      nb, nl, c,
                      arith::SubIOp::create(nb, nl, sizes[d],
                                            indexConst(nb, nl, 1)));
                coords.push_back(c);
              }
              Value v = tensor::ExtractOp::create(nb, nl, input, coords);
              linalg::YieldOp::create(nb, nl, v);
            })
            .getResult(0);
    replaceWithCast(b, op, r);
    return success();
  }
};

/// graph.scatter as a loop nest over the indices carrying the result: per
/// position, read the index and the update, combine with the element it
/// lands on (reductions), insert. Bufferization makes the carried tensor
/// one buffer (a copy of `data` unless `data` dies here) written in place.
/// The loops stop at the data's extent in the dims other than the axis,
/// and do nothing along an empty axis, so no index writes out of bounds.
struct ScatterLowering : OpRewritePattern<ScatterOp> {
  using OpRewritePattern::OpRewritePattern;

  static Value combine(OpBuilder &b, Location loc, ScatterReduction r,
                       Value cur, Value upd, bool isUnsigned) {
    Type et = cur.getType();
    if (isa<FloatType>(et)) {
      Value x = toCompute(b, loc, cur), y = toCompute(b, loc, upd), v;
      switch (r) {
      case ScatterReduction::Add:
        v = arith::AddFOp::create(b, loc, x, y);
        break;
      case ScatterReduction::Mul:
        v = arith::MulFOp::create(b, loc, x, y);
        break;
      case ScatterReduction::Max:
        v = arith::MaximumFOp::create(b, loc, x, y);
        break;
      case ScatterReduction::Min:
        v = arith::MinimumFOp::create(b, loc, x, y);
        break;
      case ScatterReduction::None:
        return upd;
      }
      return fromCompute(b, loc, v, et);
    }
    bool i1 = et.isInteger(1);
    switch (r) {
    case ScatterReduction::Add:
      return arith::AddIOp::create(b, loc, cur, upd);
    case ScatterReduction::Mul:
      return arith::MulIOp::create(b, loc, cur, upd);
    case ScatterReduction::Max:
      if (i1)
        return arith::OrIOp::create(b, loc, cur, upd);
      return isUnsigned ? Value(arith::MaxUIOp::create(b, loc, cur, upd))
                        : Value(arith::MaxSIOp::create(b, loc, cur, upd));
    case ScatterReduction::Min:
      if (i1)
        return arith::AndIOp::create(b, loc, cur, upd);
      return isUnsigned ? Value(arith::MinUIOp::create(b, loc, cur, upd))
                        : Value(arith::MinSIOp::create(b, loc, cur, upd));
    case ScatterReduction::None:
      break;
    }
    return upd;
  }

  LogicalResult matchAndRewrite(ScatterOp op,
                                PatternRewriter &b) const override {
    Location loc = op.getLoc();
    Value data = op.getData(), indices = op.getIndices(),
          updates = op.getUpdates();
    RankedTensorType dt = tensorTypeOf(data), it = tensorTypeOf(indices);
    int64_t axis = op.getAxis(), rank = dt.getRank();
    ScatterReduction red = op.getReduction();
    Value zero = indexConst(b, loc, 0), one = indexConst(b, loc, 1);
    Value axisSize = dimValue(b, loc, data, axis);
    RankedTensorType ut = tensorTypeOf(updates);
    SmallVector<Value> lbs(rank, zero), steps(rank, one), ubs;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t a = it.getDimSize(d), n = dt.getDimSize(d);
      if (d == axis) {
        // Nothing lands in an empty axis.
        if (n == 0)
          ubs.push_back(zero);
        else if (!ShapedType::isDynamic(n))
          ubs.push_back(dimValue(b, loc, indices, d));
        else
          ubs.push_back(arith::SelectOp::create(
              b, loc,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, axisSize,
                                    zero),
              zero, dimValue(b, loc, indices, d)));
      } else if (!ShapedType::isDynamic(a) && !ShapedType::isDynamic(n)) {
        ubs.push_back(indexConst(b, loc, std::min(a, n)));
      } else {
        ubs.push_back(arith::MinSIOp::create(
            b, loc, dimValue(b, loc, indices, d), dimValue(b, loc, data, d)));
      }
      // Updates of a dynamic size smaller than the indices at run time:
      // read none beyond them.
      if (ut.isDynamicDim(d) || it.isDynamicDim(d))
        ubs.back() = arith::MinSIOp::create(b, loc, ubs.back(),
                                            dimValue(b, loc, updates, d));
    }
    scf::LoopNest nest = scf::buildLoopNest(
        b, loc, lbs, ubs, steps, ValueRange{data},
        [&](OpBuilder &nb, Location nl, ValueRange ivs,
            ValueRange iter) -> scf::ValueVector {
          Value i = tensor::ExtractOp::create(nb, nl, indices, ivs);
          i = arith::IndexCastOp::create(nb, nl, nb.getIndexType(), i);
          i = normalizeIndex(nb, nl, i, axisSize);
          SmallVector<Value> coords(ivs);
          coords[axis] = i;
          Value u = tensor::ExtractOp::create(nb, nl, updates, ivs);
          if (red != ScatterReduction::None)
            u = combine(nb, nl, red,
                        tensor::ExtractOp::create(nb, nl, iter[0], coords), u,
                        isUnsignedOp(op));
          return {tensor::InsertOp::create(nb, nl, u, iter[0], coords)};
        });
    replaceWithCast(b, op, nest.results.front());
    return success();
  }
};

struct DynamicUpdateSliceLowering : OpRewritePattern<DynamicUpdateSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DynamicUpdateSliceOp op,
                                PatternRewriter &b) const override {
    Location loc = op.getLoc();
    Value dest = op.getDest();
    RankedTensorType dt = tensorTypeOf(dest);
    int64_t axis = op.getAxis();
    AxisSlice slice = sliceAtIndex(b, loc, dest, axis, op.getIndex());
    // The update has rank - 1 dims: insert_slice drops the unit axis.
    Value update = op.getUpdate();
    RankedTensorType ut = tensorTypeOf(update);
    SmallVector<int64_t> expected(dt.getShape());
    expected.erase(expected.begin() + axis);
    if (ut.getShape() != ArrayRef<int64_t>(expected))
      update = tensor::CastOp::create(b, loc, ut.clone(expected), update);
    Value r = tensor::InsertSliceOp::create(b, loc, update, dest, slice.offsets,
                                            slice.sizes, slice.strides);
    replaceWithCast(b, op, r);
    return success();
  }
};

struct PadLowering : OpRewritePattern<PadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(PadOp op, PatternRewriter &b) const override {
    Location loc = op.getLoc();
    Type et = op.getType().getElementType();
    double v = op.getValue().convertToDouble();
    TypedAttr value;
    if (auto ft = dyn_cast<FloatType>(et))
      value = b.getFloatAttr(ft, v);
    else if (et.isInteger(1))
      value = b.getIntegerAttr(et, v != 0);
    else
      value = b.getIntegerAttr(et, (int64_t)v);
    SmallVector<OpFoldResult> low, high;
    for (int64_t l : op.getLow())
      low.push_back(b.getIndexAttr(l));
    for (int64_t h : op.getHigh())
      high.push_back(b.getIndexAttr(h));
    Value c = arith::ConstantOp::create(b, loc, value);
    Value r = tensor::PadOp::create(b, loc, op.getType(), op.getInput(), low,
                                    high, c);
    b.replaceOp(op, r);
    return success();
  }
};

struct ArgMaxLowering : OpRewritePattern<ArgMaxOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ArgMaxOp op,
                                PatternRewriter &b) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = b.getContext();
    RankedTensorType in = tensorTypeOf(op.getInput());
    int64_t axis = op.getAxis(), rank = in.getRank();
    Type et = in.getElementType();
    SmallVector<OpFoldResult> inSizes = dimSizes(b, loc, op.getInput());
    SmallVector<OpFoldResult> sizes;
    SmallVector<AffineExpr> outExprs;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis) {
        sizes.push_back(inSizes[d]);
        outExprs.push_back(getAffineDimExpr(d, ctx));
      }
    Value vals = fill(b, loc, sizes, et, lowestAttr(b, et));
    Value idxs = fill(b, loc, sizes, b.getI64Type(), b.getI64IntegerAttr(0));
    AffineMap outMap = AffineMap::get(rank, 0, outExprs, ctx);
    SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(rank, ctx),
                                   outMap, outMap};
    SmallVector<utils::IteratorType> its(rank, utils::IteratorType::parallel);
    its[axis] = utils::IteratorType::reduction;
    auto generic = linalg::GenericOp::create(
        b, loc, TypeRange{vals.getType(), idxs.getType()},
        ValueRange{op.getInput()}, ValueRange{vals, idxs}, maps, its,
        [&](OpBuilder &nb, Location nl, ValueRange a) {
          Value x = a[0], best = a[1], bestIdx = a[2];
          Value i = arith::IndexCastOp::create(
              nb, nl, nb.getI64Type(), linalg::IndexOp::create(nb, nl, axis));
          Value take;
          if (isa<FloatType>(et)) {
            // Strictly greater keeps the first maximum; a NaN wins (and the
            // first NaN stays).
            Value gt = arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::OGT,
                                             x, best);
            Value xNaN = arith::CmpFOp::create(
                nb, nl, arith::CmpFPredicate::UNO, x, x);
            Value bestNaN = arith::CmpFOp::create(
                nb, nl, arith::CmpFPredicate::UNO, best, best);
            Value notBestNaN = arith::XOrIOp::create(
                nb, nl, bestNaN,
                arith::ConstantOp::create(nb, nl, nb.getBoolAttr(true)));
            take = arith::OrIOp::create(
                nb, nl, gt, arith::AndIOp::create(nb, nl, xNaN, notBestNaN));
          } else {
            take = arith::CmpIOp::create(nb, nl,
                                         isUnsignedOp(op)
                                             ? arith::CmpIPredicate::ugt
                                             : arith::CmpIPredicate::sgt,
                                         x, best);
          }
          // The first element always wins (handles all -inf / INT_MIN).
          Value first = arith::CmpIOp::create(
              nb, nl, arith::CmpIPredicate::eq, i,
              arith::ConstantOp::create(nb, nl, nb.getI64IntegerAttr(0)));
          take = arith::OrIOp::create(nb, nl, take, first);
          Value nv = arith::SelectOp::create(nb, nl, take, x, best);
          Value ni = arith::SelectOp::create(nb, nl, take, i, bestIdx);
          linalg::YieldOp::create(nb, nl, ValueRange{nv, ni});
        });
    Value r = generic.getResult(1);
    if (op.getKeepdims()) {
      RankedTensorType rt = op.getType();
      SmallVector<ReassociationIndices> re;
      for (int64_t d = 0; d < rank; ++d)
        if (d != axis)
          re.push_back({d});
      // Attach the unit axis to a neighbour group.
      if (re.empty()) {
        r = tensor::ExpandShapeOp::create(b, loc, rt, r,
                                          SmallVector<ReassociationIndices>{});
      } else {
        if (axis == 0)
          re.front().insert(re.front().begin(), 0);
        else
          re[axis - 1].push_back(axis);
        SmallVector<OpFoldResult> outSizes = dimSizes(b, loc, op.getInput());
        outSizes[axis] = b.getIndexAttr(1);
        r = tensor::ExpandShapeOp::create(b, loc, rt, r, re, outSizes);
      }
    }
    replaceWithCast(b, op, r);
    return success();
  }
};

/// cumsum and cumprod: an scf.for over the positions along the axis
/// carrying the result tensor and the running sum/product (a
/// rank-preserving unit slice, 0 or 1 to start), inserted at each step.
template <typename ScanOp, bool Product>
struct ScanLowering : OpRewritePattern<ScanOp> {
  using OpRewritePattern<ScanOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(ScanOp op, PatternRewriter &b) const override {
    Location loc = op.getLoc();
    Value x = op.getInput();
    RankedTensorType t = tensorTypeOf(x);
    int64_t axis = op.getAxis(), rank = t.getRank();
    Type et = t.getElementType();
    SmallVector<OpFoldResult> sizes = dimSizes(b, loc, x);
    SmallVector<OpFoldResult> sliceSizes(sizes);
    sliceSizes[axis] = b.getIndexAttr(1);
    SmallVector<int64_t> sliceShape(t.getShape());
    sliceShape[axis] = 1;
    auto sliceType = t.clone(sliceShape);
    SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
    // The running total is kept in the compute type (f32 for f16/bf16) and
    // each prefix rounded once when stored.
    Type ct = computeType(et);
    Value result = emptyTensor(b, loc, sizes, et);
    Value acc = fill(b, loc, sliceSizes, ct,
                     Product ? b.getOneAttr(ct) : b.getZeroAttr(ct));
    auto accType = cast<RankedTensorType>(acc.getType());
    Value n = dimValue(b, loc, x, axis);
    auto loop = scf::ForOp::create(
        b, loc, indexConst(b, loc, 0), n, indexConst(b, loc, 1),
        ValueRange{result, acc},
        [&](OpBuilder &nb, Location nl, Value iv, ValueRange iter) {
          SmallVector<OpFoldResult> offsets(rank, nb.getIndexAttr(0));
          offsets[axis] = iv;
          Value slice = tensor::ExtractSliceOp::create(
              nb, nl, sliceType, x, offsets, sliceSizes, strides);
          // acc += slice (acc *= slice), in place in the carried
          // accumulator.
          MLIRContext *ctx = nb.getContext();
          bool widened = ct != et;
          SmallVector<AffineMap> maps(
              widened ? 3 : 2, AffineMap::getMultiDimIdentityMap(rank, ctx));
          SmallVector<utils::IteratorType> its(rank,
                                               utils::IteratorType::parallel);
          SmallVector<Value> outs = {iter[1]};
          SmallVector<Type> outTypes = {accType};
          if (widened) {
            outs.push_back(emptyTensor(nb, nl, sliceSizes, et));
            outTypes.push_back(sliceType);
          }
          auto step = linalg::GenericOp::create(
              nb, nl, outTypes, ValueRange{slice}, outs, maps, its,
              [&](OpBuilder &bb, Location bl, ValueRange a) {
                Value s;
                if (isa<FloatType>(et)) {
                  Value r = toCompute(bb, bl, a[0]);
                  s = Product ? Value(arith::MulFOp::create(bb, bl, a[1], r))
                              : Value(arith::AddFOp::create(bb, bl, a[1], r));
                } else {
                  s = Product
                          ? Value(arith::MulIOp::create(bb, bl, a[1], a[0]))
                          : Value(arith::AddIOp::create(bb, bl, a[1], a[0]));
                }
                SmallVector<Value> yields = {s};
                if (widened)
                  yields.push_back(fromCompute(bb, bl, s, et));
                linalg::YieldOp::create(bb, bl, yields);
              });
          Value sum = step.getResult(0);
          Value stored = step.getResult(widened ? 1 : 0);
          Value updated = tensor::InsertSliceOp::create(
              nb, nl, stored, iter[0], offsets, sliceSizes, strides);
          scf::YieldOp::create(nb, nl, ValueRange{updated, sum});
        });
    Value r = loop.getResult(0);
    replaceWithCast(b, op, r);
    return success();
  }
};

/// One tensor.extract_slice per piece; handles dynamic dims (the
/// decomposition into graph.slice needs static ones).
struct SplitLowering : OpRewritePattern<SplitOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SplitOp op, PatternRewriter &b) const override {
    Location loc = op.getLoc();
    Value x = op.getInput();
    int64_t rank = tensorTypeOf(x).getRank(), axis = op.getAxis();
    SmallVector<OpFoldResult> sizes = dimSizes(b, loc, x);
    SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
    SmallVector<Value> pieces;
    int64_t offset = 0;
    for (auto [size, type] : llvm::zip(op.getSizes(), op.getResultTypes())) {
      SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
      offsets[axis] = b.getIndexAttr(offset);
      SmallVector<OpFoldResult> pieceSizes(sizes);
      pieceSizes[axis] = b.getIndexAttr(size);
      Value p = tensor::ExtractSliceOp::create(
          b, loc, cast<RankedTensorType>(type), x, offsets, pieceSizes,
          strides);
      pieces.push_back(p);
      offset += size;
    }
    b.replaceOp(op, pieces);
    return success();
  }
};

} // namespace

Value mlir::graphopt::lowering::phaseImages(OpBuilder &b, Location loc,
                                            Value xp, int64_t hq, int64_t wq) {
  RankedTensorType xpType = tensorTypeOf(xp);
  Type et = xpType.getElementType();
  int64_t c = xpType.getDimSize(0);
  MLIRContext *ctx = b.getContext();
  AffineExpr d0, d1, d2, d3, d4;
  bindDims(ctx, d0, d1, d2, d3, d4);
  auto phasesType = RankedTensorType::get({c, 2, 2, hq, wq}, et);
  return linalg::GenericOp::create(
             b, loc, TypeRange{phasesType}, ValueRange{xp},
             ValueRange{
                 tensor::EmptyOp::create(b, loc, phasesType.getShape(), et)},
             ArrayRef<AffineMap>{
                 AffineMap::get(5, 0, {d0, d3 * 2 + d1, d4 * 2 + d2}, ctx),
                 AffineMap::getMultiDimIdentityMap(5, ctx)},
             SmallVector<utils::IteratorType>(5, utils::IteratorType::parallel),
             [](OpBuilder &nb, Location nl, ValueRange a) {
               linalg::YieldOp::create(nb, nl, a[0]);
             })
      .getResult(0);
}

void mlir::graphopt::lowering::markHostIndexGathers(Operation *root) {
  root->walk([](GatherOp op) {
    Value index = op.getIndices();
    if (tensorTypeOf(index).getRank() != 0)
      return;
    bool host = false;
    if (auto arg = dyn_cast<BlockArgument>(index))
      host = arg.getArgNumber() == 0 &&
             isa_and_nonnull<LoopOp>(arg.getOwner()->getParentOp());
    else
      host = index.getDefiningOp<tensor::FromElementsOp>() ||
             matchPattern(index, m_Constant());
    if (host)
      op->setAttr(kHostIndexAttr, UnitAttr::get(op.getContext()));
  });
}

void mlir::graphopt::lowering::populateNNLoweringPatterns(
    RewritePatternSet &patterns, bool winograd) {
  patterns.add<Conv2DLowering>(patterns.getContext(), winograd);
  patterns
      .add<MaxPool2DLowering, AvgPool2DLowering, GatherLowering,
           GatherElementsLowering, ScatterLowering, DynamicUpdateSliceLowering,
           PadLowering, ArgMaxLowering, ScanLowering<CumSumOp, false>,
           ScanLowering<CumProdOp, true>, SplitLowering>(patterns.getContext());
}
