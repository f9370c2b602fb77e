//===- CPUMatmul.cpp - cache-blocked, packed matmul for the CPU -----------===//
//
// Loop nest built for C[M,N] += A[M,K] * B[K,N]:
//
//   Bp = pack(B)                       [N/nr][K][nr]
//   Ap = pack(A)                       [M/mr][K][mr]
//   for pc in 0..K step kc             reduction blocks
//     for jc in 0..N step nc           column blocks: Bp[jc/nr.., pc:kc]
//                                      (kc x nc floats) stays in L2
//       for ir in 0..M step mr         row micro-panels: Ap[ir/mr, pc:kc]
//                                      (mr x kc floats) stays in L1
//         for jr in jc..jc+nc step nr  column panels: Bp[jr/nr, pc:kc], one
//                                      contiguous kc x nr stream each
//           C[ir:mr, jr:nr] += Ap[ir/mr, pc:kc]^T * Bp[jr/nr, pc:kc]
//
// This is BLIS's nest with the roles of the two packed operands swapped:
// the small A micro-panel is the L1-resident one and the B panels of an
// L2-resident block stream past it, so no mc row block is needed.
// Where A has few rows and B is larger than L2 (weights streamed from
// memory), the ir and jr loops swap (CPUMatmulBlocking::panelsOuter): one
// kc x nr panel of B in L1, every micro-panel of A passing it.
// Each operand is packed once per call, where it is defined (outside the
// tile loops of a fused group, which slice it per output tile), and a
// constant operand (weights) once at compile time.
// The innermost statement is a linalg.matmul (A stored transposed) that the
// register kernel of graph-cpu-tile-and-vectorize turns into a k loop of
// broadcasts and FMAs on an mr x nr accumulator.
// Unpacked, a K x nr panel of B is K rows a whole row of B apart: with N a
// multiple of 1024 every row maps to the same L1 set; packed, it is one
// contiguous kc * nr * 4-byte stream.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Codegen/CPUMatmul.h"
#include "graphopt/Codegen/ConstantView.h"
#include "graphopt/Codegen/Parallel.h"
#include "graphopt/Dialect/Graph/IR/HeapConstants.h"

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
#include <numeric>

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
    if (level == 1)
      sizes.l1 = size;
    else if (level == 2)
      sizes.l2 = size;
  }
  return sizes;
}

int64_t mlir::graphopt::largestDivisor(int64_t size, int64_t limit,
                                       int64_t multiple) {
  for (int64_t d = std::min(size, limit) / multiple * multiple; d > multiple;
       d -= multiple)
    if (size % d == 0)
      return d;
  return multiple;
}

CPUMatmulBlocking mlir::graphopt::chooseMatmulBlocking(
    int64_t m, int64_t n, int64_t k, int64_t mr, int64_t nr,
    const CPUCacheSizes &caches, int64_t threads) {
  CPUMatmulBlocking b;
  b.mr = mr;
  b.nr = nr;
  b.l2 = caches.l2;
  // Per k step the kernel broadcasts mr floats of the A micro-panel, which
  // stays in L1 while every column panel of B streams past it (nr floats
  // per step, from L2 or beyond, which the hardware prefetchers follow).
  // kc is the longest that keeps the mr x kc micro-panel in a quarter of
  // L1, so that the B stream does not evict it: 384 with 48 KiB of L1 and
  // mr = 8. Measured on a Xeon with 48 KiB L1 / 2 MiB L2 (C with the same
  // loop nest, operands packed, 1024^3 to 4096^3): 93-95% of the FMA peak
  // in the kernel with kc = 256-512, 80-90% with the earlier order (column
  // panel outermost, A streaming from L2) at kc = 1024; kc = 128 was 4%
  // slower than 256.
  int64_t kcLimit = std::max<int64_t>(64, caches.l1 / 4 / (mr * 4));
  b.kc = largestDivisor(k, kcLimit, 1);
  // An awkward K (2 x a prime) must not degrade to tiny blocks: then the
  // whole K is one block.
  if (b.kc < 32 && k <= 8 * kcLimit)
    b.kc = k;
  // The kc x nc block of packed B that the row micro-panels sweep stays in
  // half of L2 (a quarter measured the same; the whole of L2 thrashed:
  // 2048^3 at 120 against 175 GFLOP/s).
  int64_t ncLimit = std::max<int64_t>(nr, caches.l2 / 2 / (b.kc * 4));
  b.nc = largestDivisor(n, ncLimit, nr);
  // Weights streamed from memory (B larger than L2) against few rows of A
  // (at most 8 micro-panels: with more, A's block no longer sits in L1 and
  // L2 next to the panel, and each panel's pass reads it from L2 -- SGEMM
  // 1024 with 128 micro-panels went from 15.6 to 18.9 ms that way):
  // in the order above the first micro-panel of each block pulls the whole
  // kc x nc block from memory at the kernel's rate (about 18 bytes per
  // cycle: memory-bound) and the others reuse it; with the column panels
  // outermost each B panel is read from memory once and reused by every
  // micro-panel from L1, so memory is read at a fraction of that rate, in
  // step with the FMAs. Measured: ResNet-18's 512-channel 3x3 convolution
  // at 7x7 (49 x 4608 x 512, the weights 9.4 MB, 7 micro-panels) 2.05 ->
  // 1.95 ms; the whole ResNet-18 39.8 -> 38.7 ms.
  int64_t kcPanel =
      largestDivisor(k, std::max<int64_t>(64, caches.l1 / 2 / (nr * 4)), 1);
  if (k * n * 4 > caches.l2 && kcPanel >= 32 &&
      m / mr >= 2 && m / mr <= 8) {
    b.kc = kcPanel;
    b.nc = n;
    b.panelsOuter = true;
  }
  // On several threads the outermost parallel loop of the nest is split
  // among them: with one column block (nc = n) that is the micro-panel
  // loop, rows by default. Each thread then reads its rows of A and all of
  // B; split by column panels, all of A and its panels of B. The split
  // should share the smaller operand: with fewer rows than columns, the
  // column panels go outside. B is then not read from the other core's
  // cache (a Winograd convolution's transformed input, [C, tiles], which the
  // other thread wrote half of). Measured (Intel Xeon with AMX, 2 threads,
  // ResNet-18 batch 1, 4 alternating processes): 18.3-18.6 -> 15.9-16.7
  // ms; its 64-channel Winograd matmuls ([64, 64] x [64, 784]) went from
  // 1.03x to 1.57x their one-thread speed (perf). One thread keeps the
  // order above.
  if (threads > 1 && !b.panelsOuter && b.nc == n && m < n && n / nr >= threads)
    b.panelsOuter = true;
  return b;
}

bool mlir::graphopt::shouldPackMatmul(int64_t m, int64_t n, int64_t k,
                                      const CPUMatmulBlocking &blocking) {
  // Which operands are packed is decided per operand (packAndBlockMatmul):
  // constants always, run-time operands by their reuse.
  return m * n * k >= (int64_t(1) << 18) && n % blocking.nr == 0;
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
/// Where a matmul operand comes from: `source`, a 2-D tensor defined outside
/// the loops that sliced it, read from `offset` along the dim the slices
/// cut (columns of B, rows of A). The other dim, K, is never cut.
struct OperandSource {
  Value source;
  OpFoldResult offset;
};
} // namespace

/// `v` without the slices that take all of it (a matmul split at a column
/// remainder slices its A whole, and the remainder split again slices that
/// slice whole).
static Value skipWholeSlices(Value v) {
  while (auto slice = v.getDefiningOp<tensor::ExtractSliceOp>()) {
    if (!slice.getSourceType().hasStaticShape() ||
        slice.getSourceType() != slice.getResultType() ||
        !llvm::all_of(slice.getStaticOffsets(),
                      [](int64_t o) { return o == 0; }))
      break;
    v = slice.getSource();
  }
  return v;
}

/// Follows a unit-stride slice of a matmul operand that keeps all of K (dim
/// `1 - cutDim`) back to the tensor it was cut from (a weight or an
/// activation that fusion tiling sliced per output tile), so that it is
/// packed once, not once per tile. Stays at `operand` when the slice's
/// offset along `cutDim` is not known to be a multiple of `multiple`.
static OperandSource findSource(RewriterBase &rewriter, Value operand,
                                int64_t cutDim, int64_t multiple) {
  operand = skipWholeSlices(operand);
  OperandSource src{operand, rewriter.getIndexAttr(0)};
  int64_t kDim = 1 - cutDim;
  auto slice = operand.getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice)
    return src;
  RankedTensorType srcType = slice.getSourceType();
  if (srcType.getRank() != 2 || !srcType.hasStaticShape() ||
      slice.getResultType().getRank() != 2 ||
      !llvm::all_of(slice.getStaticStrides(), [](int64_t s) { return s == 1; }))
    return src;
  SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
  std::optional<int64_t> kOffset = getConstantIntValue(offsets[kDim]);
  if (!kOffset || *kOffset != 0 ||
      slice.getStaticSizes()[kDim] != srcType.getDimSize(kDim) ||
      srcType.getDimSize(cutDim) % multiple != 0 ||
      !isMultipleOf(offsets[cutDim], multiple))
    return src;
  return {skipWholeSlices(slice.getSource()), offsets[cutDim]};
}

/// True when `operand` comes from a constant (through the slices
/// findSource follows): packing it costs nothing at run time.
static bool isConstantSource(RewriterBase &rewriter, Value operand,
                             int64_t cutDim, int64_t multiple) {
  OperandSource src = findSource(rewriter, operand, cutDim, multiple);
  return static_cast<bool>(ConstantView::of(src.source));
}

/// Row micro-panels that must reuse each packed B panel for a run-time
/// packing of B to pay off.
static constexpr int64_t kMinPanelReuse = 16;

/// True when the rows of an f32 matrix `cols` wide, read in place one
/// 32-float panel at a time, spread over at least a quarter of the 64 sets
/// of an L1 data cache with 64-byte lines (32-48 KiB, 8-12 ways). With a
/// row pitch that is a multiple of a large power of two they do not (4 KiB:
/// every row in one set), and the panel is evicted while it is read:
/// packing pays there (SGEMM 2048: 117 ms in place, 102 ms packed); with a
/// pitch like a convolution's 784 or 3136 pixels, reading in place is
/// faster than a run-time copy (ResNet's 512 -> 128 1x1 convolution at
/// 28 x 28: 0.79 against 1.0 ms).
static bool rowsSpreadOverL1Sets(int64_t cols) {
  int64_t bytes = cols * 4;
  if (bytes % 64 != 0)
    return true;
  int64_t lines = bytes / 64;
  return 64 / std::gcd<int64_t>(lines, 64) >= 16;
}

/// The row pitch, in elements, of the 2-D tensor `x` once bufferized: the
/// width of the tensor its chain of slices starts from (a matmul split at
/// a column remainder reads a slice 1008 of 1024 columns wide, whose rows
/// are still 1024 apart).
static int64_t rowPitch(Value x) {
  while (auto slice = x.getDefiningOp<tensor::ExtractSliceOp>()) {
    if (slice.getSourceType().getRank() != 2)
      break;
    x = slice.getSource();
  }
  return cast<RankedTensorType>(x.getType()).getDimSize(1);
}

/// Packs the 2-D tensor `x` into panels `width` wide along `cutDim`, each
/// holding all of K: `[X/width][K][width]`, for B (`cutDim` = 1: columns)
/// and A (`cutDim` = 0: rows, so A is stored transposed). A constant is
/// packed at compile time; otherwise the packing is expand_shape +
/// linalg.transpose, appended to `packOps`.
static Value pack(RewriterBase &rewriter, Location loc, Value x,
                  int64_t cutDim, int64_t width,
                  SmallVectorImpl<linalg::LinalgOp> &packOps) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t cut = type.getDimSize(cutDim), k = type.getDimSize(1 - cutDim);
  Type elt = type.getElementType();
  auto packedType = RankedTensorType::get({cut / width, k, width}, elt);
  // A constant, possibly reshaped and transposed (a convolution's weight
  // with pixels as rows), is packed now.
  if (ConstantView view = ConstantView::of(x)) {
    if (view.isSplat())
      return arith::ConstantOp::create(
          rewriter, loc, packedType,
          DenseElementsAttr::get(packedType, view.at(0, 0)));
    ElementsAttr packed = makeHeapConstant(packedType, [&](float *out) {
      for (int64_t p = 0; p < cut / width; ++p)
        for (int64_t kk = 0; kk < k; ++kk)
          for (int64_t w = 0; w < width; ++w) {
            int64_t c = p * width + w;
            *out++ = cutDim == 1 ? view.at(kk, c) : view.at(c, kk);
          }
    });
    return arith::ConstantOp::create(rewriter, loc, packedType, packed);
  }
  // B [K][N] -> [K][N/w][w] -> [N/w][K][w];
  // A [M][K] -> [M/w][w][K] -> [M/w][K][w].
  RankedTensorType expandedType =
      cutDim == 1 ? RankedTensorType::get({k, cut / width, width}, elt)
                  : RankedTensorType::get({cut / width, width, k}, elt);
  SmallVector<ReassociationIndices> reassociation =
      cutDim == 1 ? SmallVector<ReassociationIndices>{{0}, {1, 2}}
                  : SmallVector<ReassociationIndices>{{0, 1}, {2}};
  Value expanded = tensor::ExpandShapeOp::create(rewriter, loc, expandedType,
                                                 x, reassociation);
  Value init =
      tensor::EmptyOp::create(rewriter, loc, packedType.getShape(), elt);
  SmallVector<int64_t> perm = cutDim == 1 ? SmallVector<int64_t>{1, 0, 2}
                                          : SmallVector<int64_t>{0, 2, 1};
  auto transpose =
      linalg::TransposeOp::create(rewriter, loc, expanded, init, perm);
  packOps.push_back(cast<linalg::LinalgOp>(transpose.getOperation()));
  return transpose->getResult(0);
}

/// Packs the source of `operand` where the source is defined (at the start
/// of its block for a block argument), so that it is packed once.
static std::pair<Value, OpFoldResult>
packSource(RewriterBase &rewriter, Location loc, Value operand, int64_t cutDim,
           int64_t width, SmallVectorImpl<linalg::LinalgOp> &packOps) {
  OperandSource src = findSource(rewriter, operand, cutDim, width);
  OpBuilder::InsertionGuard guard(rewriter);
  if (auto arg = dyn_cast<BlockArgument>(src.source))
    rewriter.setInsertionPointToStart(arg.getOwner());
  else
    rewriter.setInsertionPointAfter(src.source.getDefiningOp());
  return {pack(rewriter, loc, src.source, cutDim, width, packOps), src.offset};
}

/// `[kc][width]`: panel `panel` of a packed operand, K from `kOffset`.
static Value panelSlice(RewriterBase &rewriter, Location loc, Value packed,
                        OpFoldResult panel, OpFoldResult kOffset, int64_t kc,
                        int64_t width) {
  auto packedType = cast<RankedTensorType>(packed.getType());
  auto type = RankedTensorType::get({kc, width}, packedType.getElementType());
  OpFoldResult zero = rewriter.getIndexAttr(0), one = rewriter.getIndexAttr(1);
  return tensor::ExtractSliceOp::create(
      rewriter, loc, type, packed, ArrayRef<OpFoldResult>{panel, kOffset, zero},
      ArrayRef<OpFoldResult>{one, rewriter.getIndexAttr(kc),
                             rewriter.getIndexAttr(width)},
      ArrayRef<OpFoldResult>{one, one, one});
}

FailureOr<linalg::LinalgOp>
mlir::graphopt::packAndBlockMatmul(RewriterBase &rewriter, linalg::LinalgOp op,
                                   const CPUMatmulBlocking &blocking,
                                   SmallVectorImpl<linalg::LinalgOp> &packOps,
                                   Value *firstKBlock, bool *packedB,
                                   Value *lastKBlock) {
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
  const int64_t mr = blocking.mr, nr = blocking.nr, kc = blocking.kc,
                nc = blocking.nc;
  if (n % nr != 0 || m % mr != 0 || k % kc != 0 || n % nc != 0 ||
      nc % nr != 0)
    return failure();
  Location loc = op.getLoc();
  MLIRContext *ctx = rewriter.getContext();

  // 1. Packed operands: a constant always (at compile time, free at run
  //    time); otherwise B when each of its panels is reused by enough row
  //    micro-panels, A when each of its micro-panels is reused by at least
  //    4 column panels. Below that the copy costs more than the strided
  //    reads it saves (a 64 x 576 x 3136 convolution matmul: 1.7 ms with B
  //    read in place, 2.1 ms packed).
  bool constB = isConstantSource(rewriter, b, 1, nr);
  bool constA = isConstantSource(rewriter, a, 0, mr);
  // Two run-time operands that together fit in a quarter of L2 are read in
  // place faster than they are copied: the register kernel's strided reads
  // hit L2 (graph-run, one Zen 4 core with 1 MiB of L2, matmul + add,
  // packed / in place: 128^3 39.1 / 36.1 us; 256^3, half of L2, 0.301 /
  // 0.287 ms, left packed to keep a margin; at 1024^3 packing wins, 20.0 /
  // 20.6 ms: the 4 KiB row pitch maps a panel's rows to few L1 sets).
  if (!constA && !constB && blocking.l2 > 0 &&
      (m * k + k * n) * 4 <= blocking.l2 / 4)
    return failure();
  bool packB = constB ||
               (m / mr >= kMinPanelReuse && !rowsSpreadOverL1Sets(rowPitch(b)));
  bool packA = constA || n / nr >= 4;
  Value bPacked, aPacked;
  OpFoldResult bOffset, aOffset;
  if (packB)
    std::tie(bPacked, bOffset) = packSource(rewriter, loc, b, 1, nr, packOps);
  if (packA)
    std::tie(aPacked, aOffset) = packSource(rewriter, loc, a, 0, mr, packOps);
  if (!packA && !packB)
    return failure();
  if (packedB)
    *packedB = packB;

  // 2. Blocking: loops over kc, then column blocks (nc), then row
  //    micro-panels (mr), then column panels (nr); what is left is the
  //    mr x nr x kc block.
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(ctx, {0, nc, kc}));
  options.setInterchange({2, 1, 0});
  options.setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> blocks = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(blocks))
    return failure();
  markParallelTileLoops(blocks->loops, cast<TilingInterface>(op.getOperation()),
                        {0, nc, kc}, {2, 1, 0});
  rewriter.replaceOp(op, blocks->replacements);
  auto block = cast<linalg::LinalgOp>(blocks->tiledOps.front());
  scf::SCFTilingOptions microOptions;
  microOptions.setTileSizes(getAsIndexOpFoldResult(ctx, {mr, nr, 0}));
  SmallVector<int64_t> microOrder;
  if (blocking.panelsOuter)
    microOrder = {1, 0, 2};
  microOptions.setInterchange(microOrder);
  microOptions.setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
  rewriter.setInsertionPoint(block);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(block.getOperation()), microOptions);
  if (failed(tiled))
    return failure();
  markParallelTileLoops(tiled->loops,
                        cast<TilingInterface>(block.getOperation()),
                        {mr, nr, 0}, microOrder);
  rewriter.replaceOp(block, tiled->replacements);
  auto inner = cast<linalg::LinalgOp>(tiled->tiledOps.front());

  // 3. The block reads its operands from the packed panels:
  //    B[pc:kc, jr:nr] is Bp[(offset + jr) / nr, pc:kc, 0:nr] and
  //    A[ir:mr, pc:kc] is Ap[(offset + ir) / mr, pc:kc, 0:mr] (transposed).
  //    The tile's offsets in the original operand are the sums along the
  //    chain of slices the two tilings cut.
  AffineExpr d0, d1;
  bindDims(ctx, d0, d1);
  rewriter.setInsertionPoint(inner);
  // The reduction-block loop is the outermost one the first tiling made.
  auto kLoop = cast<scf::ForOp>(blocks->loops.front().getOperation());
  if (firstKBlock)
    *firstKBlock = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, kLoop.getInductionVar(),
        kLoop.getLowerBound());
  if (lastKBlock)
    *lastKBlock = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::sge,
        arith::AddIOp::create(rewriter, loc, kLoop.getInductionVar(),
                              kLoop.getStep()),
        kLoop.getUpperBound());
  auto offsetsIn = [&](Value tile, Value root)
      -> std::optional<std::pair<OpFoldResult, OpFoldResult>> {
    OpFoldResult o0 = rewriter.getIndexAttr(0), o1 = rewriter.getIndexAttr(0);
    while (tile != root) {
      auto slice = tile.getDefiningOp<tensor::ExtractSliceOp>();
      if (!slice || slice.getSourceType().getRank() != 2)
        return std::nullopt;
      SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
      o0 = affine::makeComposedFoldedAffineApply(rewriter, loc, d0 + d1,
                                                 {o0, offsets[0]});
      o1 = affine::makeComposedFoldedAffineApply(rewriter, loc, d0 + d1,
                                                 {o1, offsets[1]});
      tile = slice.getSource();
    }
    return std::make_pair(o0, o1);
  };
  Value aTile = inner.getDpsInputOperand(0)->get();
  Value bTile = inner.getDpsInputOperand(1)->get();
  if (packB) {
    auto offsets = offsetsIn(bTile, b);
    if (!offsets)
      return failure();
    auto [kOffset, nOffset] = *offsets;
    OpFoldResult bPanel = affine::makeComposedFoldedAffineApply(
        rewriter, loc, (d0 + d1).floorDiv(nr), {bOffset, nOffset});
    bTile = panelSlice(rewriter, loc, bPacked, bPanel, kOffset, kc, nr);
  }
  if (!packA) {
    rewriter.modifyOpInPlace(
        inner, [&] { inner.getDpsInputOperand(1)->set(bTile); });
    return inner;
  }
  auto aOffsets = offsetsIn(aTile, a);
  if (!aOffsets)
    return failure();
  auto [mOffset, aKOffset] = *aOffsets;
  OpFoldResult aPanel = affine::makeComposedFoldedAffineApply(
      rewriter, loc, (d0 + d1).floorDiv(mr), {aOffset, mOffset});
  aTile = panelSlice(rewriter, loc, aPacked, aPanel, aKOffset, kc, mr);
  Value cTile = inner.getDpsInitOperand(0)->get();
  auto transposedA = linalg::MatmulOp::create(
      rewriter, loc, TypeRange{cTile.getType()}, ValueRange{aTile, bTile},
      ValueRange{cTile});
  AffineExpr dm, dn, dk;
  bindDims(ctx, dm, dn, dk);
  SmallVector<AffineMap> maps = {AffineMap::get(3, 0, {dk, dm}, ctx),
                                 AffineMap::get(3, 0, {dk, dn}, ctx),
                                 AffineMap::get(3, 0, {dm, dn}, ctx)};
  transposedA.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
  rewriter.replaceOp(inner, transposedA->getResults());
  return cast<linalg::LinalgOp>(transposedA.getOperation());
}
