//===- CPUMatmul.cpp - cache-blocked, packed matmul for the CPU -----------===//
//
// Loop nest built for C[M,N] += A[M,K] * B[K,N] (BLIS order):
//
//   Bp = pack(B)                       [N/nr][K][nr], once (or a constant)
//   for pc in 0..K step kc             reduction blocks
//     for ic in 0..M step mc           row blocks
//       Ap = pack(A[ic:mc, pc:kc])     [mc/mr][kc][mr], in L2
//       for jr in 0..N step nr         column panels: Bp[jr/nr, pc:kc], in L2
//         for ir in 0..mc step mr      row micro-panels
//           C[ic+ir:mr, jr:nr] += Ap[ir/mr]^T * Bp[jr/nr, pc:kc, :]
//
// The innermost statement is a linalg.matmul (A stored transposed) that the
// register kernel of graph-cpu-tile-and-vectorize turns into a k loop of
// broadcasts and FMAs on an mr x nr accumulator.
// Unpacked, a K x nr panel of B is K rows a whole row of B apart: with N a
// multiple of 1024 every row maps to the same L1 set and the panel is
// re-read from L2 or beyond on every row block; packed, it is one
// contiguous kc * nr * 4-byte stream.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Codegen/CPUMatmul.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include <fstream>

using namespace mlir;
using namespace mlir::graphopt;

/// Reads a sysfs cache size such as "48K" or "2048K"; 0 when unreadable.
static int64_t readCacheSize(const std::string &path) {
  std::ifstream in(path);
  std::string text;
  if (!(in >> text) || text.empty())
    return 0;
  int64_t scale = 1;
  char unit = text.back();
  if (unit == 'K')
    scale = 1024;
  else if (unit == 'M')
    scale = 1024 * 1024;
  if (scale != 1)
    text.pop_back();
  try {
    return std::stoll(text) * scale;
  } catch (...) {
    return 0;
  }
}

CPUCacheSizes mlir::graphopt::getHostCacheSizes() {
  CPUCacheSizes sizes;
  const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index";
  for (int i = 0; i < 8; ++i) {
    std::string base = dir + std::to_string(i) + "/";
    std::ifstream levelIn(base + "level"), typeIn(base + "type");
    int level = 0;
    std::string type;
    if (!(levelIn >> level) || !(typeIn >> type))
      break;
    if (type == "Instruction")
      continue;
    int64_t size = readCacheSize(base + "size");
    if (size <= 0)
      continue;
    if (level == 2)
      sizes.l2 = size;
  }
  return sizes;
}

/// The largest divisor of `size` that is at most `limit` and a multiple of
/// `multiple` (which divides `size`); `multiple` when none is larger.
static int64_t largestDivisor(int64_t size, int64_t limit, int64_t multiple) {
  for (int64_t d = std::min(size, limit) / multiple * multiple; d > multiple;
       d -= multiple)
    if (size % d == 0)
      return d;
  return multiple;
}

CPUMatmulBlocking
mlir::graphopt::chooseMatmulBlocking(int64_t m, int64_t n, int64_t k,
                                     int64_t mr, int64_t nr,
                                     const CPUCacheSizes &caches) {
  CPUMatmulBlocking b;
  b.mr = mr;
  b.nr = nr;
  // The kernel streams both operands from L2 (per k step: nr floats of B,
  // mr of A, for mr * nr / vw FMAs: 160 bytes per 16 FMAs with AVX-512),
  // so kc is as long as L2 allows, which keeps C-tile reloads (once per kc
  // steps) rare: a kc x nr panel of B in 1/16 of L2. Measured on a Xeon
  // with 2 MiB of L2 (2048^3): kc = 128 ran at 0.5x the speed of kc = 1024.
  int64_t kcLimit = std::max<int64_t>(64, caches.l2 / 16 / (nr * 4));
  b.kc = largestDivisor(k, kcLimit, 1);
  // An awkward K (2 x a prime) must not degrade to tiny blocks: then the
  // whole K is one block.
  if (b.kc < 32 && k <= 4 * kcLimit)
    b.kc = k;
  // An mc x kc block of A in half of L2.
  int64_t mcLimit = std::max<int64_t>(mr, caches.l2 / 2 / (b.kc * 4));
  b.mc = largestDivisor(m, mcLimit, mr);
  return b;
}

bool mlir::graphopt::shouldPackMatmul(int64_t m, int64_t n, int64_t k,
                                      const CPUMatmulBlocking &blocking) {
  return m >= 4 * blocking.mr && m * n * k >= (int64_t(1) << 18) &&
         n % blocking.nr == 0;
}

/// True when `ofr` is known to be a multiple of `factor`: a constant, or the
/// induction variable of an scf.for whose lower bound and step are constant
/// multiples of it.
static bool isMultipleOf(OpFoldResult ofr, int64_t factor) {
  if (std::optional<int64_t> c = getConstantIntValue(ofr))
    return *c % factor == 0;
  auto arg = dyn_cast_if_present<BlockArgument>(dyn_cast<Value>(ofr));
  if (!arg)
    return false;
  auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
  if (!loop || loop.getInductionVar() != arg)
    return false;
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  return lb && step && *lb % factor == 0 && *step % factor == 0;
}

namespace {
/// Where B's columns come from: `source` (a K x N' tensor defined outside
/// the loops that sliced it), starting at column `column`.
struct BSource {
  Value source;
  OpFoldResult column;
};
} // namespace

/// Follows unit-stride, full-height column slices of B back to the tensor
/// they were cut from (a weight that fusion tiling sliced per output tile),
/// so that it is packed once, not once per tile. Stops at the first slice
/// whose column offset is not known to be a multiple of `nr`.
static BSource findBSource(RewriterBase &rewriter, Value b, int64_t nr) {
  BSource src{b, rewriter.getIndexAttr(0)};
  while (auto slice = src.source.getDefiningOp<tensor::ExtractSliceOp>()) {
    auto srcType = slice.getSourceType();
    if (srcType.getRank() != 2 || !srcType.hasStaticShape() ||
        slice.getResultType().getRank() != 2 ||
        !llvm::all_of(slice.getStaticStrides(),
                      [](int64_t s) { return s == 1; }))
      break;
    SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
    std::optional<int64_t> row = getConstantIntValue(offsets[0]);
    if (!row || *row != 0 ||
        slice.getStaticSizes()[0] != srcType.getDimSize(0) ||
        srcType.getDimSize(1) % nr != 0 || !isMultipleOf(offsets[1], nr))
      break;
    // Only one level of dynamic offset is followed: the loop's IV.
    if (!getConstantIntValue(src.column) ||
        *getConstantIntValue(src.column) != 0)
      break;
    src.source = slice.getSource();
    src.column = offsets[1];
  }
  return src;
}

/// Packs the K x N tensor `b` into [N/nr][K][nr] panels: a constant at
/// compile time, otherwise expand_shape + linalg.transpose (appended to
/// `packOps`).
static Value packB(RewriterBase &rewriter, Location loc, Value b, int64_t nr,
                   SmallVectorImpl<linalg::LinalgOp> &packOps) {
  auto type = cast<RankedTensorType>(b.getType());
  int64_t k = type.getDimSize(0), n = type.getDimSize(1);
  Type elt = type.getElementType();
  auto packedType = RankedTensorType::get({n / nr, k, nr}, elt);
  DenseElementsAttr attr;
  if (matchPattern(b, m_Constant(&attr)) && elt.isF32()) {
    if (attr.isSplat())
      return arith::ConstantOp::create(
          rewriter, loc, packedType,
          DenseElementsAttr::get(packedType, attr.getSplatValue<Attribute>()));
    ArrayRef<char> raw = attr.getRawData();
    const float *values = reinterpret_cast<const float *>(raw.data());
    std::vector<float> packed(static_cast<size_t>(n) * k);
    for (int64_t jo = 0; jo < n / nr; ++jo)
      for (int64_t kk = 0; kk < k; ++kk)
        std::copy_n(values + kk * n + jo * nr, nr,
                    packed.data() + (jo * k + kk) * nr);
    return arith::ConstantOp::create(
        rewriter, loc, packedType,
        DenseElementsAttr::get(packedType, ArrayRef<float>(packed)));
  }
  auto expandedType = RankedTensorType::get({k, n / nr, nr}, elt);
  Value expanded = tensor::ExpandShapeOp::create(
      rewriter, loc, expandedType, b,
      ArrayRef<ReassociationIndices>{{0}, {1, 2}});
  Value init = tensor::EmptyOp::create(rewriter, loc, packedType.getShape(),
                                       elt);
  auto transpose = linalg::TransposeOp::create(
      rewriter, loc, expanded, init, ArrayRef<int64_t>{1, 0, 2});
  packOps.push_back(cast<linalg::LinalgOp>(transpose.getOperation()));
  return transpose->getResult(0);
}

/// Sets the insertion point right after `v`'s definition (at the start of
/// its block for a block argument).
static void setInsertionPointAfterDef(RewriterBase &rewriter, Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    rewriter.setInsertionPointToStart(arg.getOwner());
  else
    rewriter.setInsertionPointAfter(v.getDefiningOp());
}

FailureOr<linalg::LinalgOp>
mlir::graphopt::packAndBlockMatmul(RewriterBase &rewriter, linalg::LinalgOp op,
                                   const CPUMatmulBlocking &blocking,
                                   SmallVectorImpl<linalg::LinalgOp> &packOps) {
  auto matmul = dyn_cast<linalg::MatmulOp>(op.getOperation());
  if (!matmul || matmul.hasUserDefinedMaps() || !op.hasPureTensorSemantics())
    return failure();
  Value a = op.getDpsInputOperand(0)->get();
  Value b = op.getDpsInputOperand(1)->get();
  auto aType = cast<RankedTensorType>(a.getType());
  auto bType = cast<RankedTensorType>(b.getType());
  auto cType = cast<RankedTensorType>(op.getDpsInitOperand(0)->get().getType());
  if (!aType.hasStaticShape() || !bType.hasStaticShape() ||
      !cType.hasStaticShape() || !aType.getElementType().isF32() ||
      !bType.getElementType().isF32() || !cType.getElementType().isF32())
    return failure();
  int64_t m = aType.getDimSize(0), k = aType.getDimSize(1),
          n = bType.getDimSize(1);
  const int64_t nr = blocking.nr;
  if (n % nr != 0 || m % blocking.mc != 0 || k % blocking.kc != 0 ||
      blocking.mc % blocking.mr != 0)
    return failure();
  Location loc = op.getLoc();

  // 1. Packed B, hoisted to where its source is defined.
  BSource src = findBSource(rewriter, b, nr);
  Value packed;
  {
    OpBuilder::InsertionGuard guard(rewriter);
    setInsertionPointAfterDef(rewriter, src.source);
    packed = packB(rewriter, loc, src.source, nr, packOps);
  }

  // 2. Cache blocking: loops over kc, mc and nr, in that order.
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(
      rewriter.getContext(), {blocking.mc, nr, blocking.kc}));
  options.setInterchange({2, 0, 1});
  options.setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled))
    return failure();
  rewriter.replaceOp(op, tiled->replacements);
  auto inner = cast<linalg::LinalgOp>(tiled->tiledOps.front());

  // 3. The inner matmul reads its B tile from the packed panels:
  //    B[pc:kc, jr:nr] is Bp[(column + jr) / nr, pc:kc, 0:nr].
  OpOperand &bOperand = *inner.getDpsInputOperand(1);
  OpFoldResult kOffset = rewriter.getIndexAttr(0);
  OpFoldResult nOffset = rewriter.getIndexAttr(0);
  if (auto slice = bOperand.get().getDefiningOp<tensor::ExtractSliceOp>()) {
    kOffset = slice.getMixedOffsets()[0];
    nOffset = slice.getMixedOffsets()[1];
  }
  rewriter.setInsertionPoint(inner);
  AffineExpr d0, d1;
  bindDims(rewriter.getContext(), d0, d1);
  OpFoldResult panel = affine::makeComposedFoldedAffineApply(
      rewriter, loc, (d0 + d1).floorDiv(nr), {src.column, nOffset});
  auto tileType = RankedTensorType::get({blocking.kc, nr}, bType.getElementType());
  Value bTile = tensor::ExtractSliceOp::create(
      rewriter, loc, tileType, packed,
      ArrayRef<OpFoldResult>{panel, kOffset, rewriter.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1),
                             rewriter.getIndexAttr(blocking.kc),
                             rewriter.getIndexAttr(nr)},
      ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1), rewriter.getIndexAttr(1),
                             rewriter.getIndexAttr(1)});
  rewriter.modifyOpInPlace(inner, [&] { bOperand.set(bTile); });
  if (n / nr < 4)
    return inner;

  // 4. A block packed into micro-panels, once per (pc, ic) block (outside
  //    the column-panel loop): Ap[mc/mr][kc][mr], so that the register
  //    kernel reads mr consecutive floats per k step instead of mr rows a
  //    whole row of A apart.
  auto jrLoop = dyn_cast<scf::ForOp>(tiled->loops.back().getOperation());
  if (tiled->loops.size() != 3 || !jrLoop)
    return inner;
  OpOperand &aOperand = *inner.getDpsInputOperand(0);
  rewriter.setInsertionPoint(jrLoop);
  Value aBlock = a;
  if (auto slice = aOperand.get().getDefiningOp<tensor::ExtractSliceOp>()) {
    // The slice's offsets are the row and reduction IVs, defined outside
    // the column loop.
    aBlock = tensor::ExtractSliceOp::create(
        rewriter, loc, slice.getResultType(), slice.getSource(),
        slice.getMixedOffsets(), slice.getMixedSizes(),
        slice.getMixedStrides());
  }
  const int64_t mr = blocking.mr, mc = blocking.mc, kc = blocking.kc;
  Type elt = aType.getElementType();
  Value aExpanded = tensor::ExpandShapeOp::create(
      rewriter, loc, RankedTensorType::get({mc / mr, mr, kc}, elt), aBlock,
      ArrayRef<ReassociationIndices>{{0, 1}, {2}});
  Value aInit = tensor::EmptyOp::create(
      rewriter, loc, ArrayRef<int64_t>{mc / mr, kc, mr}, elt);
  auto aTranspose = linalg::TransposeOp::create(rewriter, loc, aExpanded, aInit,
                                                ArrayRef<int64_t>{0, 2, 1});
  packOps.push_back(cast<linalg::LinalgOp>(aTranspose.getOperation()));
  Value aPacked = aTranspose->getResult(0);

  // 5. Row micro-panels: C[ir:mr, :] += Ap[ir/mr]^T * B panel, as a matmul
  //    whose A operand is stored transposed ([kc][mr]).
  scf::SCFTilingOptions rowOptions;
  rowOptions.setTileSizes(
      getAsIndexOpFoldResult(rewriter.getContext(), {mr, 0, 0}));
  rowOptions.setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
  rewriter.setInsertionPoint(inner);
  FailureOr<scf::SCFTilingResult> rows = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(inner.getOperation()), rowOptions);
  if (failed(rows) || rows->loops.size() != 1)
    return failure();
  rewriter.replaceOp(inner, rows->replacements);
  auto micro = cast<linalg::LinalgOp>(rows->tiledOps.front());
  auto irLoop = cast<scf::ForOp>(rows->loops.front().getOperation());
  rewriter.setInsertionPoint(micro);
  OpFoldResult aPanel = affine::makeComposedFoldedAffineApply(
      rewriter, loc, d0.floorDiv(mr),
      {OpFoldResult(irLoop.getInductionVar())});
  Value aTile = tensor::ExtractSliceOp::create(
      rewriter, loc, RankedTensorType::get({kc, mr}, elt), aPacked,
      ArrayRef<OpFoldResult>{aPanel, rewriter.getIndexAttr(0),
                             rewriter.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1),
                             rewriter.getIndexAttr(kc),
                             rewriter.getIndexAttr(mr)},
      ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1), rewriter.getIndexAttr(1),
                             rewriter.getIndexAttr(1)});
  Value cTile = micro.getDpsInitOperand(0)->get();
  auto transposedA = linalg::MatmulOp::create(
      rewriter, loc, TypeRange{cTile.getType()},
      ValueRange{aTile, micro.getDpsInputOperand(1)->get()}, ValueRange{cTile});
  AffineExpr dm, dn, dk;
  bindDims(rewriter.getContext(), dm, dn, dk);
  SmallVector<AffineMap> maps = {
      AffineMap::get(3, 0, {dk, dm}, rewriter.getContext()),
      AffineMap::get(3, 0, {dk, dn}, rewriter.getContext()),
      AffineMap::get(3, 0, {dm, dn}, rewriter.getContext())};
  transposedA.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
  rewriter.replaceOp(micro, transposedA->getResults());
  return cast<linalg::LinalgOp>(transposedA.getOperation());
}