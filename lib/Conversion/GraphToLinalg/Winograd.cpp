//===- Winograd.cpp - 3x3 convolutions as Winograd F(2x2, 3x3) ------------===//
//
// A 3x3, stride-1 convolution with constant weights, computed with
// Winograd's minimal filtering algorithm F(2x2, 3x3) (Lavin and Gray, "Fast
// Algorithms for Convolutional Neural Networks", 2016). Each 2x2 tile of
// the output comes from the 4x4 input tile d under it:
//
//   Y = A^T [ sum over channels c of (G g_c G^T) . (B^T d_c B) ] A
//
// where `.` is the elementwise product of 4x4 matrices. For a fixed position
// (xi, nu) of the 4x4 transformed domain the sum over channels is a matrix
// product over all T tiles of the image:
//
//   M[xi, nu] = U[xi, nu] x V[xi, nu]       [F, C] x [C, T] -> [F, T]
//
// (with fewer than 64 tiles, transposed: M^T = V^T U^T, [T, C] x [C, F],
// so that the weights are the wide operand: ResNet's 14x14 and 7x7 layers,
// 49 and 16 tiles)
//
// so the convolution is 16 matmuls with 16 F C T multiply-adds, where the
// direct convolution does 9 per output pixel, 36 F C T: 2.25x fewer. U
// (the transformed weights) is computed here, at compile time; V (the
// input transform) and the output transform are elementwise ops on whole
// vectors of tiles; the matmuls take the packed kernel
// (lib/Codegen/CPUMatmul.cpp) with U packed at compile time.
//
// The input is read through its four phase images (the padded image's
// even/odd rows and columns, as stride-2 convolutions are), so that tile
// (ti, tj)'s element (r, s), xp[c][2 ti + r][2 tj + s], is phase
// (r % 2, s % 2) at (ti + r / 2, tj + s / 2): consecutive tiles are
// consecutive elements, and every transform reads and writes contiguous
// vectors. The four output phases are interleaved by one transpose.
//
// Rounding: the transforms' coefficients are 0, +-1 and +-1/2 (exact in
// f32), and the products are summed in f32 in another order than the direct
// convolution's, which test/Integration/winograd.mlir bounds against NumPy's
// float64 result (1e-5 relative for sums of 576 products of O(1) values).
//
//===----------------------------------------------------------------------===//

#include "GraphToLinalgUtils.h"

#include "graphopt/Dialect/Fusion/IR/FusionOps.h"
#include "graphopt/Dialect/Graph/IR/HeapConstants.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Matchers.h"

#include <array>

using namespace mlir;
using namespace mlir::graphopt;
using namespace mlir::graphopt::lowering;

namespace {

/// B^T: row xi of the input transform, over the tile's rows (or columns) r.
constexpr int kBT[4][4] = {
    {1, 0, -1, 0}, {0, 1, 1, 0}, {0, -1, 1, 0}, {0, 1, 0, -1}};
/// G: row xi of the filter transform, over the kernel's rows (or columns).
constexpr double kG[4][3] = {
    {1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}};
/// A^T: row i of the output transform, over the transformed positions xi.
constexpr int kAT[2][4] = {{1, 1, 1, 0}, {0, 1, -1, -1}};

/// Tiles (2x2 output pixels) per image from which the tiles are the
/// matmuls' columns, [F, C] x [C, T]: two whole 32-column register blocks.
/// With fewer they are the rows, [T, C] x [C, F], and the weights the wide,
/// packed operand, as in the direct convolutions with pixels as rows: as
/// columns, 49 tiles are a 32-column block and two 16-column ones (the
/// second overlapping the first), which run the 8 x 32 register kernel at
/// half width; 16 tiles only the latter. Measured on Zen 4 (one 256-channel
/// 3x3 convolution + ReLU at 14x14, graph-run, fastest of 200 calls, 4
/// alternating runs): 1.30-1.32 ms as columns, 1.17-1.21 as rows; at 28x28
/// (196 tiles, 6 whole blocks and an overlapping one), columns stay ahead:
/// 1.16-1.20 against 1.41-1.45 ms (128 channels).
constexpr int64_t kTilesAsColumns = 64;
/// The fewest tiles for which the Winograd form is chosen.
constexpr int64_t kMinTiles = 8;
/// The fewest input and output channels: the matmuls' K and M (an RGB stem
/// has 3 input channels, a K too short for the packed kernel; the direct
/// kernel runs all taps and channels as one K of 27).
constexpr int64_t kMinChannels = 16;

/// `sum over terms of sign * value` with adds and subtracts.
Value signedSum(OpBuilder &b, Location loc,
                ArrayRef<std::pair<int, Value>> terms) {
  Value acc;
  for (auto [sign, v] : terms) {
    if (!acc)
      acc = sign > 0 ? v : arith::NegFOp::create(b, loc, v).getResult();
    else if (sign > 0)
      acc = arith::AddFOp::create(b, loc, acc, v);
    else
      acc = arith::SubFOp::create(b, loc, acc, v);
  }
  return acc;
}

/// The 16 transformed weights U[xi * 4 + nu] = (G g G^T)[xi][nu] of a
/// [F, C, 3, 3] weight g, each [F, C], or [C, F] when `transposed` (the
/// tiles as the matmuls' rows), computed in double and rounded once; heap
/// constants (HeapConstants.h) when large, freed once packed.
SmallVector<ElementsAttr> transformedWeights(ElementsAttr weight,
                                             bool transposed) {
  auto type = cast<RankedTensorType>(weight.getShapedType());
  int64_t f = type.getDimSize(0), c = type.getDimSize(1);
  std::vector<float> splat;
  ArrayRef<float> g = *f32ConstantValues(weight, splat);
  // t = G k (4x3) for every (fi, ci), then u = t G^T (4x4) per (xi, nu).
  std::vector<std::array<double, 12>> t(f * c);
  for (int64_t fi = 0; fi < f; ++fi)
    for (int64_t ci = 0; ci < c; ++ci) {
      const float *k = &g[(fi * c + ci) * 9];
      std::array<double, 12> &tk = t[fi * c + ci];
      tk.fill(0);
      for (int xi = 0; xi < 4; ++xi)
        for (int col = 0; col < 3; ++col)
          for (int row = 0; row < 3; ++row)
            tk[xi * 3 + col] += kG[xi][row] * k[row * 3 + col];
    }
  auto uType = RankedTensorType::get(transposed ? ArrayRef<int64_t>{c, f}
                                                : ArrayRef<int64_t>{f, c},
                                     type.getElementType());
  SmallVector<ElementsAttr> result;
  for (int xi = 0; xi < 4; ++xi)
    for (int nu = 0; nu < 4; ++nu)
      result.push_back(makeHeapConstant(uType, [&](float *u) {
        for (int64_t fi = 0; fi < f; ++fi)
          for (int64_t ci = 0; ci < c; ++ci) {
            const std::array<double, 12> &tk = t[fi * c + ci];
            double s = 0;
            for (int col = 0; col < 3; ++col)
              s += tk[xi * 3 + col] * kG[nu][col];
            u[transposed ? ci * f + fi : fi * c + ci] = static_cast<float>(s);
          }
      }));
  return result;
}

} // namespace

bool lowering::isWinogradConv(RankedTensorType x, RankedTensorType w,
                              RankedTensorType out, ArrayRef<int64_t> strides,
                              ArrayRef<int64_t> dil) {
  if (!x.getElementType().isF32() || x.isDynamicDim(0) || !w.hasStaticShape() ||
      w.getDimSize(2) != 3 || w.getDimSize(3) != 3 || strides[0] != 1 ||
      strides[1] != 1 || dil[0] != 1 || dil[1] != 1 || out.isDynamicDim(2) ||
      out.isDynamicDim(3))
    return false;
  int64_t tiles = ((out.getDimSize(2) + 1) / 2) * ((out.getDimSize(3) + 1) / 2);
  return w.getDimSize(0) >= kMinChannels && w.getDimSize(1) >= kMinChannels &&
         tiles >= kMinTiles;
}

ElementsAttr lowering::constantWeight(Value v) {
  // Inside a fusion.group the weight is a block argument: look at the
  // group's operand.
  if (auto arg = dyn_cast<BlockArgument>(v))
    if (auto group =
            dyn_cast_if_present<fusion::GroupOp>(arg.getOwner()->getParentOp()))
      v = group.getInputs()[arg.getArgNumber()];
  Attribute attr;
  std::vector<float> splat;
  if (!matchPattern(v, m_Constant(&attr)) || !f32ConstantValues(attr, splat))
    return {};
  return cast<ElementsAttr>(attr);
}

Value lowering::winogradConv(OpBuilder &b, Location loc, Value xp,
                             ElementsAttr weight, int64_t th, int64_t tw) {
  MLIRContext *ctx = b.getContext();
  RankedTensorType xpType = tensorTypeOf(xp);
  Type et = xpType.getElementType();
  int64_t c = xpType.getDimSize(0);
  int64_t f = weight.getShapedType().getDimSize(0);
  int64_t tiles = th * tw;
  // Few tiles (ResNet's 7x7 layers: 16): the tiles are the matmuls' rows,
  // M^T = V^T U^T, [T, C] x [C, F]; every [F, T] below is then [T, F].
  bool rows = tiles < kTilesAsColumns;
  SmallVector<ElementsAttr> u = transformedWeights(weight, rows);
  Value q = phaseImages(b, loc, xp, th + 1, tw + 1);

  // V[xi, nu][c][ti][tj] = sum over (r, s) of B^T[xi][r] B^T[nu][s] *
  // q[c][r % 2][s % 2][ti + r / 2][tj + s / 2]: four terms each, each a
  // slice of one phase image.
  auto vType = RankedTensorType::get({c, th, tw}, et);
  auto id3 = AffineMap::getMultiDimIdentityMap(3, ctx);
  auto one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  // q[:, r % 2, s % 2, r / 2 :+ th, s / 2 :+ tw], [C, th, tw].
  auto phaseSlice = [&](int r, int s) -> Value {
    return tensor::ExtractSliceOp::create(
        b, loc, vType, q,
        ArrayRef<OpFoldResult>{zero, b.getIndexAttr(r % 2),
                               b.getIndexAttr(s % 2), b.getIndexAttr(r / 2),
                               b.getIndexAttr(s / 2)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(c), one, one, b.getIndexAttr(th),
                               b.getIndexAttr(tw)},
        ArrayRef<OpFoldResult>(SmallVector<OpFoldResult>(5, one)));
  };
  // All 16 V[xi, nu] in one loop nest over the 16 distinct slices of the
  // tile, d[r][s] (as 16 loops each read four of them 64 slice reads, not
  // 16, and as 16 kernels under the threshold for threads each ran on one
  // thread), separably: t[xi][s] = sum over r of B^T[xi][r] d[r][s], then
  // V[xi, nu] = sum over s of B^T[nu][s] t[xi][s] (32 adds, not 48).
  SmallVector<Value> slices;
  for (int r = 0; r < 4; ++r)
    for (int s = 0; s < 4; ++s)
      slices.push_back(phaseSlice(r, s));
  RankedTensorType outType = vType;
  SmallVector<AffineMap> vMaps(32, id3);
  if (rows) {
    // V^T[ti][tj][c]: the slices read transposed.
    outType = RankedTensorType::get({th, tw, c}, et);
    AffineExpr dt, dj, dc;
    bindDims(ctx, dt, dj, dc);
    for (int i = 0; i < 16; ++i)
      vMaps[i] = AffineMap::get(3, 0, {dc, dt, dj}, ctx);
  }
  SmallVector<Value> vInits;
  for (int i = 0; i < 16; ++i)
    vInits.push_back(tensor::EmptyOp::create(b, loc, outType.getShape(), et));
  auto transform = linalg::GenericOp::create(
      b, loc, SmallVector<Type>(16, outType), slices, vInits, vMaps,
      SmallVector<utils::IteratorType>(3, utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location nl, ValueRange a) {
        auto combine = [&](const int *coef, auto value) {
          SmallVector<std::pair<int, Value>> terms;
          for (int k = 0; k < 4; ++k)
            if (coef[k])
              terms.push_back({coef[k], value(k)});
          return signedSum(nb, nl, terms);
        };
        Value t[4][4];
        for (int xi = 0; xi < 4; ++xi)
          for (int s = 0; s < 4; ++s)
            t[xi][s] = combine(kBT[xi], [&](int r) { return a[r * 4 + s]; });
        SmallVector<Value> vs;
        for (int xi = 0; xi < 4; ++xi)
          for (int nu = 0; nu < 4; ++nu)
            vs.push_back(combine(kBT[nu], [&](int s) { return t[xi][s]; }));
        linalg::YieldOp::create(nb, nl, vs);
      });
  SmallVector<Value> m;
  for (int xi = 0; xi < 4; ++xi)
    for (int nu = 0; nu < 4; ++nu) {
      Value v = transform.getResult(xi * 4 + nu);
      Value v2 = tensor::CollapseShapeOp::create(
          b, loc,
          RankedTensorType::get(rows ? ArrayRef<int64_t>{tiles, c}
                                     : ArrayRef<int64_t>{c, tiles},
                                et),
          v,
          rows ? SmallVector<ReassociationIndices>{{0, 1}, {2}}
               : SmallVector<ReassociationIndices>{{0}, {1, 2}});
      Value uk =
          arith::ConstantOp::create(b, loc, cast<TypedAttr>(u[xi * 4 + nu]));
      Value init =
          linalg::FillOp::create(
              b, loc,
              ValueRange{arith::ConstantOp::create(b, loc, b.getZeroAttr(et))},
              ValueRange{
                  tensor::EmptyOp::create(b, loc,
                                          rows ? ArrayRef<int64_t>{tiles, f}
                                               : ArrayRef<int64_t>{f, tiles},
                                          et)})
              .getResult(0);
      m.push_back(linalg::MatmulOp::create(b, loc, TypeRange{init.getType()},
                                           rows ? ValueRange{v2, uk}
                                                : ValueRange{uk, v2},
                                           ValueRange{init})
                      .getResult(0));
    }

  // The four output phases, Y[i, j] = sum over (xi, nu) of A^T[i][xi] *
  // A^T[j][nu] * M[xi, nu], in one loop that reads each M once (as four
  // separate sums the Ms were read 36 times, not 16): S[xi][j] = sum over nu
  // of A^T[j][nu] M[xi, nu], then Y[i][j] = sum over xi of A^T[i][xi]
  // S[xi][j]. Written into the slices (i, j) of one [2, 2, F, T] tensor.
  int64_t yRows = rows ? tiles : f, yCols = rows ? f : tiles;
  auto phasesType = RankedTensorType::get({2, 2, yRows, yCols}, et);
  Value phases = tensor::EmptyOp::create(b, loc, phasesType.getShape(), et);
  auto yType = RankedTensorType::get({yRows, yCols}, et);
  auto sliceAt = [&](int i, int j) {
    return SmallVector<OpFoldResult>{b.getIndexAttr(i), b.getIndexAttr(j), zero,
                                     zero};
  };
  SmallVector<OpFoldResult> ySizes = {one, one, b.getIndexAttr(yRows),
                                      b.getIndexAttr(yCols)};
  SmallVector<OpFoldResult> yStrides(4, one);
  SmallVector<Value> dests;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      dests.push_back(tensor::ExtractSliceOp::create(
          b, loc, yType, phases, sliceAt(i, j), ySizes, yStrides));
  SmallVector<AffineMap> maps(16 + 4,
                              AffineMap::getMultiDimIdentityMap(2, ctx));
  auto outputs = linalg::GenericOp::create(
      b, loc, SmallVector<Type>(4, yType), m, dests, maps,
      SmallVector<utils::IteratorType>(2, utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location nl, ValueRange a) {
        auto combine = [&](const int *coef, ArrayRef<Value> values) {
          SmallVector<std::pair<int, Value>> terms;
          for (int k = 0; k < 4; ++k)
            if (coef[k])
              terms.push_back({coef[k], values[k]});
          return signedSum(nb, nl, terms);
        };
        Value s[4][2];
        for (int xi = 0; xi < 4; ++xi)
          for (int j = 0; j < 2; ++j)
            s[xi][j] = combine(kAT[j], llvm::to_vector(a.slice(xi * 4, 4)));
        SmallVector<Value> ys;
        for (int i = 0; i < 2; ++i)
          for (int j = 0; j < 2; ++j)
            ys.push_back(combine(kAT[i], SmallVector<Value>{s[0][j], s[1][j],
                                                            s[2][j], s[3][j]}));
        linalg::YieldOp::create(nb, nl, ys);
      });
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      phases = tensor::InsertSliceOp::create(
          b, loc, outputs.getResult(i * 2 + j), phases, sliceAt(i, j), ySizes,
          yStrides);

  // out[f][2 ti + i][2 tj + j] = phases[i][j][f][ti][tj] (tiles as rows:
  // phases[i][j][ti][tj][f]).
  Value expanded = tensor::ExpandShapeOp::create(
      b, loc,
      RankedTensorType::get(rows ? ArrayRef<int64_t>{2, 2, th, tw, f}
                                 : ArrayRef<int64_t>{2, 2, f, th, tw},
                            et),
      phases,
      rows ? SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}, {4}}
           : SmallVector<ReassociationIndices>{{0}, {1}, {2}, {3, 4}});
  Value interleaved = linalg::TransposeOp::create(
                          b, loc, expanded,
                          tensor::EmptyOp::create(
                              b, loc, ArrayRef<int64_t>{f, th, 2, tw, 2}, et),
                          rows ? ArrayRef<int64_t>{4, 2, 0, 3, 1}
                               : ArrayRef<int64_t>{2, 3, 0, 4, 1})
                          ->getResult(0);
  return tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({f, 2 * th, 2 * tw}, et), interleaved,
      SmallVector<ReassociationIndices>{{0}, {1, 2}, {3, 4}});
}
