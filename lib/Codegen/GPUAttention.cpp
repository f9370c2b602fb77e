//===- GPUAttention.cpp - graph-gpu-attention -----------------------------===//
//
// `fusion.attention` on CUDA as one kernel that never writes the L x S
// scores to memory, FlashAttention-2 style. A block of 4 warps owns 64 query
// rows of one (batch, head), each warp 16 of them; the Q tile is read once
// into mma.sync A fragments (ldmatrix); key and value tiles of 64 rows (32
// where D > 64) come through two shared stages by cp.async, a step ahead. One
// pass over the keys, everything per row in registers (lane = 4 g + t holds
// rows g and g + 8 of its warp's 16):
//
//   S = Q K^T on mma.sync m16n8k16 (f32 accumulation; K's fragments by
//     ldmatrix: K stored [key][dim] is B^T, k-contiguous);
//   scale, causal mask; each row's maximum over its 4 lanes (two xor
//     shuffles); m_new = max(m_old, row max);
//   P = exp(s - m_new); O and this lane's partial row sum l rescaled by
//     exp(m_old - m_new), then l += sum(P);
//   O += P V: m16n8's accumulator layout is m16n8k16's A fragment layout,
//     so P goes from registers, rounded to the input type, straight into
//     the mma (V's fragments by ldmatrix.trans: V stored [key][dim] is
//     k-major).
//
// At the end the 4 lanes' partial sums are added and O / l is stored, each
// lane 2 adjacent columns per row and tile.
//
// Two passes build it, because the ownership-based buffer deallocation
// refuses ops without declared memory effects (gpu.barrier) while the
// choice needs the fusion op: graph-gpu-attention (on tensors, before
// bufferization) turns each supported op into the buffers of its operands
// and result and a call of `__graphopt_gpu_attention_<n>` (a private
// declaration) carrying `scale` and `causal`; graph-gpu-attention-kernels
// (on buffers, after deallocation) builds the kernel at each such call.
//
// Scope: static shapes, f16 or bf16 q/k/v (one type) with the same batch
// dims, head dim D a multiple of 8 up to 256 (v's too, equal to q's;
// computed as a multiple of 16 over zero columns in shared memory), any
// L and S (the last query block's extra rows read row L - 1 and store
// nothing; the last key tile's extra rows copy key S - 1 and score -inf);
// a static mask broadcasting to [..., L, S]
// (float: added to the scaled scores; i1: false keys get -inf) and
// `causal` (the key loop stops at the block's last query row) supported.
// f32 q/k/v (D up to 128) take a SIMT kernel instead (buildKernelF32:
// IEEE f32 FMAs, the same one pass over the keys, scores and P through
// shared memory). Anything else is left to the decomposition.
//
//===----------------------------------------------------------------------===//

#include "GPUUtils.h"
#include "graphopt/Codegen/Passes.h"
#include "graphopt/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <cmath>
#include <limits>

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHGPUATTENTIONPASS
#define GEN_PASS_DEF_GRAPHGPUATTENTIONKERNELSPASS
#include "graphopt/Codegen/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;
using namespace mlir::graphopt;

namespace {

constexpr int64_t kRows = 64;     // query rows per block
constexpr int64_t kThreads = 128; // 4 warps, 16 query rows each

/// Keys per step: 64 where the head dim leaves the registers for twice the
/// scores (D <= 64; the K and V stages then take 36 KiB), else 32 (at D =
/// 256, O's 128 accumulators, Q's 64 fragment registers and the scores
/// take 253 registers a thread on sm_90, no spills). A
/// longer step halves the per-step barrier, wait, row maxima and O
/// rescaling per key.
int64_t keysPerStep(int64_t d, int64_t s) {
  return d <= 64 && s >= 64 ? 64 : 32;
}

/// Why `op` is left to the decomposition, or empty when the kernel takes it.
std::string unsupported(fusion::AttentionOp op) {
  auto q = dyn_cast<RankedTensorType>(op.getQuery().getType());
  auto k = dyn_cast<RankedTensorType>(op.getKey().getType());
  auto v = dyn_cast<RankedTensorType>(op.getValue().getType());
  if (!q || !k || !v || !q.hasStaticShape() || !k.hasStaticShape() ||
      !v.hasStaticShape())
    return "dynamic shapes";
  Type et = q.getElementType();
  if (!(et.isF16() || et.isBF16() || et.isF32()) || k.getElementType() != et ||
      v.getElementType() != et)
    return "not f16, bf16 or f32 (the same for q, k and v)";
  int64_t rank = q.getRank();
  // A mask broadcasting to [..., L, S] (each dim, aligned from the right,
  // 1 or the target's): float (added to the scaled scores) or i1.
  if (Value mask = op.getMask()) {
    auto m = dyn_cast<RankedTensorType>(mask.getType());
    if (!m || !m.hasStaticShape() || m.getRank() > rank ||
        !(isa<FloatType>(m.getElementType()) ||
          m.getElementType().isInteger(1)))
      return "a mask that is not a static float or i1 tensor of at most "
             "q's rank";
    SmallVector<int64_t> target(q.getShape().drop_back(1));
    target.push_back(k.getRank() == rank ? k.getDimSize(rank - 2) : 0);
    for (int64_t i = 0; i < m.getRank(); ++i) {
      int64_t dim = m.getDimSize(m.getRank() - 1 - i);
      if (dim != 1 && dim != target[rank - 1 - i])
        return "a mask that does not broadcast to [..., L, S]";
    }
  }
  if (rank < 2 || k.getRank() != rank || v.getRank() != rank ||
      q.getShape().drop_back(2) != k.getShape().drop_back(2) ||
      q.getShape().drop_back(2) != v.getShape().drop_back(2))
    return "batch dims differ";
  int64_t l = q.getDimSize(rank - 2), d = q.getDimSize(rank - 1);
  int64_t s = k.getDimSize(rank - 2);
  if (k.getDimSize(rank - 1) != d || v.getDimSize(rank - 2) != s ||
      v.getDimSize(rank - 1) != d)
    return "key or value shapes do not match the query's";
  if (d % 8 || d > 256 || l == 0 || s == 0)
    return "D not a multiple of 8 up to 256, or L or S zero";
  if (et.isF32() && d > 128)
    return "f32 with D over 128";
  return "";
}

/// What both kernels set up alike: the launch (grid x: blocks of
/// `rowsPerBlock` query rows; y: the batch), created at the builder's
/// point, which then moves into its body (the caller's InsertionGuard
/// restores it); the block's batch indices; and the indexing of q/k/v/out,
/// the mask and the key steps.
struct KernelFrame {
  OpBuilder &b;
  Location loc;
  Idx x;
  ArrayRef<int64_t> batchDims;
  gpu::LaunchOp launch;
  Value dyn;                // the dynamic shared memory, as bytes
  SmallVector<Value> batch; // this block's batch indices
  Value row0;               // its first query row
  Value zeroF, negInf;

  KernelFrame(OpBuilder &b, Location loc, MemRefType qt, int64_t rowsPerBlock,
              int64_t threads, int64_t sharedBytes)
      : b(b), loc(loc), x{b, loc}, batchDims(qt.getShape().drop_back(2)) {
    int64_t l = qt.getDimSize(qt.getRank() - 2), batches = 1;
    for (int64_t n : batchDims)
      batches *= n;
    Value smem =
        arith::ConstantIntOp::create(b, loc, b.getI32Type(), sharedBytes);
    launch = gpu::LaunchOp::create(
        b, loc, x.c(llvm::divideCeil(l, rowsPerBlock)), x.c(batches), x.c(1),
        x.c(threads), x.c(1), x.c(1), smem);
    b.setInsertionPointToStart(&launch.getBody().front());
    auto ws = gpu::AddressSpaceAttr::get(b.getContext(),
                                         gpu::AddressSpace::Workgroup);
    dyn = gpu::DynamicSharedMemoryOp::create(
        b, loc,
        MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                        MemRefLayoutAttrInterface{}, ws));
    Value rest = launch.getBlockIds().y;
    SmallVector<Value> rev;
    for (int64_t n : llvm::reverse(batchDims)) {
      rev.push_back(x.rem(rest, n));
      rest = x.div(rest, n);
    }
    batch.assign(rev.rbegin(), rev.rend());
    row0 = x.mul(launch.getBlockIds().x, rowsPerBlock);
    zeroF = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
    negInf = arith::ConstantOp::create(
        b, loc, b.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
  }
  Value tid() { return launch.getThreadIds().x; }
  /// A shared tile of type `t` at byte `offset` of dynamic shared memory.
  Value view(MemRefType t, int64_t offset) {
    return memref::ViewOp::create(b, loc, t, dyn, x.c(offset), ValueRange{});
  }
  /// Indices of (row, col) of this block's batch in q, k, v or out.
  SmallVector<Value> at(Value row, Value col) {
    SmallVector<Value> idx(batch);
    idx.append({row, col});
    return idx;
  }
  /// `i`, or min(i, n - 1) where `clamp`.
  Value clampBelow(Value i, int64_t n, bool clamp) {
    return clamp ? arith::MinUIOp::create(b, loc, i, x.c(n - 1)).getResult()
                 : i;
  }
  /// The mask's (type `mt`) indices for (row, key): its dims aligned from
  /// the right with [batch..., row, key], 0 where it has size 1.
  SmallVector<Value> maskIndices(MemRefType mt, Value row, Value key) {
    SmallVector<Value> full(batch);
    full.append({row, key});
    SmallVector<Value> idx;
    for (int64_t i = 0; i < mt.getRank(); ++i)
      idx.push_back(mt.getDimSize(i) == 1
                        ? x.c(0)
                        : full[full.size() - mt.getRank() + i]);
    return idx;
  }
  /// `score` with mask value `mv` applied: an i1 false gives -inf, a float
  /// is added (in f32).
  Value applyMask(Value score, Value mv) {
    if (mv.getType().isInteger(1))
      return arith::SelectOp::create(b, loc, mv, score, negInf);
    if (!mv.getType().isF32())
      mv = arith::ExtFOp::create(b, loc, b.getF32Type(), mv);
    return arith::AddFOp::create(b, loc, score, mv);
  }
  /// Key steps of `keys` keys over S: all, or (causal) up to the block's
  /// last query row.
  Value keySteps(int64_t s, int64_t keys, int64_t rowsPerBlock, bool causal) {
    Value steps = x.c(llvm::divideCeil(s, keys));
    if (causal)
      steps = arith::MinUIOp::create(
          b, loc, steps, x.div(x.add(row0, rowsPerBlock + keys - 1), keys));
    return steps;
  }
};

/// Builds the kernel for `op` (see the file comment) writing `out`; `mask`
/// (null for none) broadcasts to [..., L, S].
void buildKernel(OpBuilder &b, Location loc, double scale, bool causal, Value q,
                 Value k, Value v, Value mask, Value out) {
  auto qt = cast<MemRefType>(q.getType());
  int64_t rank = qt.getRank();
  int64_t l = qt.getDimSize(rank - 2), d = qt.getDimSize(rank - 1);
  int64_t s = cast<MemRefType>(k.getType()).getDimSize(rank - 2);
  // The head dim the fragments cover: D rounded up to the MMAs' 16 (D = 40,
  // Stable Diffusion's, is computed as 48). The extra columns of the Q, K
  // and V tiles are zeros in shared memory, so they add nothing to the
  // scores and give O columns of zeros, which are not stored.
  int64_t dp = llvm::alignTo(d, 16);
  int64_t kKeys = keysPerStep(dp, s);
  // Ragged L: the last block's rows past L read row L - 1 and store
  // nothing. Ragged S: the last key tile's rows past S copy key S - 1
  // (finite values, so P V stays finite) and their scores are -inf.
  bool raggedL = l % kRows != 0, raggedS = s % kKeys != 0;
  // f16 or bf16: the inputs', P's and the output's type.
  Type et = qt.getElementType(), f32 = b.getF32Type();

  // Shared memory: the Q tile, read once into registers; then, over the
  // same bytes, two stages of K and V tiles. Rows padded by 16 bytes:
  // ldmatrix's 8 rows of a matrix then fall in distinct banks (a row is
  // d / 2 + 4 words, 4 times an odd number for D a multiple of 16).
  auto ws =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  auto shared = [&](ArrayRef<int64_t> shape, Type elem) {
    return MemRefType::get(shape, elem, MemRefLayoutAttrInterface{}, ws);
  };
  MemRefType qT = shared({kRows, dp + 8}, et);
  MemRefType kvT = shared({2, kKeys, dp + 8}, et);
  auto bytes = [](MemRefType t) {
    return t.getNumElements() * t.getElementTypeBitWidth() / 8;
  };
  int64_t total = std::max(bytes(qT), 2 * bytes(kvT));

  OpBuilder::InsertionGuard guard(b);
  KernelFrame f(b, loc, qt, kRows, kThreads, total);
  Idx &x = f.x;
  Value tid = f.tid();
  Value qs = f.view(qT, 0), ks = f.view(kvT, 0), vs = f.view(kvT, bytes(kvT));
  auto at = [&](Value row, Value col) { return f.at(row, col); };
  auto clampBelow = [&](Value i, int64_t n, bool clamp) {
    return f.clampBelow(i, n, clamp);
  };
  Value row0 = f.row0;
  Value warp = x.div(tid, 32), lane = x.rem(tid, 32);
  Value wrow = x.mul(warp, 16); // the warp's first row in the block
  // Fragment layout (lane = 4 g + t) and ldmatrix addressing (lane l gives
  // row l % 8 of matrix l / 8 = 2 qHigh + qLow).
  Value g = x.div(lane, 4), t = x.rem(lane, 4);
  Value lrow = x.rem(lane, 8), quad = x.div(lane, 8);
  Value qLow = x.mul(x.rem(quad, 2), 8), qHigh = x.mul(x.div(quad, 2), 8);

  Value zeroF = f.zeroF, negInf = f.negInf;
  Value scaleV = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(scale));

  // Continues inside `if (v < n)` (the caller restores the insertion point).
  auto enterIfBelow = [&](Value v, int64_t n) {
    auto ifOp = scf::IfOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, v, x.c(n)),
        /*withElseRegion=*/false);
    b.setInsertionPointToStart(ifOp.thenBlock());
  };
  // `body(row, col)` for each of this thread's 16-byte vectors of a rows x
  // d tile.
  auto forEachVector = [&](int64_t rows,
                           function_ref<void(Value, Value)> body) {
    int64_t vecs = rows * d / 8;
    for (int64_t i = 0; i < vecs; i += kThreads) {
      Value flat = x.add(tid, i);
      OpBuilder::InsertionGuard g(b);
      if (i + kThreads > vecs)
        enterIfBelow(flat, vecs);
      body(x.div(flat, d / 8), x.mul(x.rem(flat, d / 8), 8));
    }
  };

  // The Q tile through shared memory into A fragments (16 rows x 16 dims
  // per ldmatrix.x4), kept in registers for the whole kernel.
  auto v8 = VectorType::get({8}, et);
  forEachVector(kRows, [&](Value r, Value c) {
    Value vec = vector::LoadOp::create(
        b, loc, v8, q, at(clampBelow(x.add(row0, r), l, raggedL), c),
        /*nontemporal=*/false, llvm::MaybeAlign(16));
    vector::StoreOp::create(b, loc, vec, qs, ValueRange{r, c},
                            /*nontemporal=*/false, llvm::MaybeAlign(16));
  });
  // Zeros in the columns past D of a tile (`rows` rows, at `idx` + [row,
  // col]), one 16-byte vector per row, where D is not a multiple of 16.
  Value zeros = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(v8, b.getZeroAttr(et)));
  auto zeroPadding = [&](Value tile, ValueRange idx, int64_t rows) {
    if (dp == d)
      return;
    for (int64_t r0 = 0; r0 < rows; r0 += kThreads) {
      OpBuilder::InsertionGuard g(b);
      if (r0 + kThreads > rows)
        enterIfBelow(x.add(tid, r0), rows);
      SmallVector<Value> at(idx);
      at.append({x.add(tid, r0), x.c(d)});
      vector::StoreOp::create(b, loc, zeros, tile, at, /*nontemporal=*/false,
                              llvm::MaybeAlign(16));
    }
  };
  zeroPadding(qs, {}, kRows);
  gpu::BarrierOp::create(b, loc);
  SmallVector<SmallVector<Value>> qf;
  for (int64_t kd = 0; kd < dp / 16; ++kd)
    qf.push_back(loadMatrices(
        x, qs,
        ValueRange{x.add(x.add(wrow, qLow), lrow), x.add(qHigh, 16 * kd)}, 4,
        false));
  // Every warp has its Q fragments before the K and V stages overwrite
  // the tile.
  gpu::BarrierOp::create(b, loc);
  // The stages' columns past D, never copied into: zeros (the first key
  // step's barrier orders these stores before any read).
  for (Value tile : {ks, vs})
    for (int64_t stage = 0; stage < 2; ++stage)
      zeroPadding(tile, {x.c(stage)}, kKeys);

  Value steps = f.keySteps(s, kKeys, kRows, causal);
  // The asynchronous copies of the K and V tiles of step `kt` into
  // `stage`, as one group.
  auto issue = [&](Value kt, Value stage) {
    Value key0 = x.mul(kt, kKeys);
    forEachVector(kKeys, [&](Value r, Value c) {
      for (auto [src, dst] : {std::pair(k, ks), std::pair(v, vs)})
        nvgpu::DeviceAsyncCopyOp::create(
            b, loc, dst, ValueRange{stage, r, c}, src,
            at(clampBelow(x.add(key0, r), s, raggedS), c), b.getIndexAttr(8),
            /*srcElements=*/Value(), b.getUnitAttr());
    });
    return nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, ValueRange{})
        .getResult();
  };
  Value token = issue(x.c(0), x.c(0));

  // The running state: O's fragments (d / 8 tiles of 16 x 8, 4 values per
  // lane), and per lane for its rows g and g + 8 the maximum m of the
  // scaled scores so far and this lane's part of the sum l of
  // exp(s - m) (the 4 lanes of a row are summed at the end).
  int64_t oTiles = dp / 8, sTiles = kKeys / 8;
  SmallVector<Value> init(oTiles * 4, zeroF);
  init.append({negInf, negInf, zeroF, zeroF});
  auto loop = scf::ForOp::create(b, loc, x.c(0), steps, x.c(1), init);
  {
    OpBuilder::InsertionGuard g2(b);
    b.setInsertionPointToStart(loop.getBody());
    Value kt = loop.getInductionVar();
    ValueRange args = loop.getRegionIterArgs();
    SmallVector<Value> o(args.take_front(oTiles * 4));
    Value mOld[2] = {args[oTiles * 4], args[oTiles * 4 + 1]};
    Value lOld[2] = {args[oTiles * 4 + 2], args[oTiles * 4 + 3]};
    // Step kt's tiles landed, and every warp is done with step kt - 1's
    // stage, which the next copies refill.
    nvgpu::DeviceAsyncWaitOp::create(b, loc, token, b.getI32IntegerAttr(0));
    gpu::BarrierOp::create(b, loc);
    {
      Value next = x.add(kt, 1);
      auto ifOp = scf::IfOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, next, steps),
          /*withElseRegion=*/false);
      OpBuilder::InsertionGuard g3(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      issue(next, x.rem(next, 2));
    }
    Value stage = x.rem(kt, 2);
    Value key0 = x.mul(kt, kKeys);

    // S = Q K^T: K stored [key][dim] is B^T, k-contiguous: plain
    // ldmatrix.x4 gives the B fragments of two key tiles.
    SmallVector<SmallVector<Value>> sAcc(sTiles, SmallVector<Value>(4, zeroF));
    for (int64_t kd = 0; kd < dp / 16; ++kd)
      for (int64_t j = 0; j < sTiles; j += 2) {
        SmallVector<Value> regs =
            loadMatrices(x, ks,
                         ValueRange{stage, x.add(x.add(qHigh, 8 * j), lrow),
                                    x.add(qLow, 16 * kd)},
                         4, false);
        for (int64_t jj = 0; jj < 2; ++jj)
          sAcc[j + jj] =
              warpMma(x, et, qf[kd], ValueRange{regs[2 * jj], regs[2 * jj + 1]},
                      sAcc[j + jj]);
      }
    // Scaled scores, the mask added (float) or applied (i1: -inf where
    // false), -inf where causal masks them; element e of tile j is row
    // g + 8 (e / 2), key 8 j + 2 t + e % 2. A float mask that varies
    // along the keys (its last dim S, even) is read a pair of adjacent
    // keys at a time (one 4-byte load for f16); an i1 mask by element
    // (a vector of i1 would be bit-packed).
    auto mt = mask ? cast<MemRefType>(mask.getType()) : MemRefType();
    bool maskPairs = mask && isa<FloatType>(mt.getElementType()) &&
                     mt.getDimSize(mt.getRank() - 1) == s && s % 2 == 0 &&
                     mt.getLayout().isIdentity();
    auto maskIndices = [&](Value row, Value key) {
      return f.maskIndices(mt, row, key);
    };
    SmallVector<SmallVector<Value>> sc(sTiles);
    Value rowMax[2] = {negInf, negInf};
    for (int64_t j = 0; j < sTiles; ++j) {
      Value pair;
      for (int64_t e = 0; e < 4; ++e) {
        Value sv = arith::MulFOp::create(b, loc, sAcc[j][e], scaleV);
        Value key = x.add(x.add(key0, x.mul(t, 2)), 8 * j + e % 2);
        Value row = x.add(x.add(x.add(row0, wrow), g), 8 * (e / 2));
        if (mask) {
          Value mv;
          if (maskPairs) {
            // Keys 2 t and 2 t + 1 of the tile (past S in a ragged last
            // step: keys S - 2 and S - 1, scored -inf below anyway).
            if (e % 2 == 0) {
              Value first =
                  raggedS ? arith::MinUIOp::create(b, loc, key, x.c(s - 2))
                                .getResult()
                          : key;
              pair = vector::LoadOp::create(
                  b, loc, VectorType::get({2}, mt.getElementType()), mask,
                  maskIndices(clampBelow(row, l, raggedL), first),
                  /*nontemporal=*/false,
                  llvm::MaybeAlign(2 * mt.getElementTypeBitWidth() / 8));
            }
            mv = vector::ExtractOp::create(b, loc, pair, e % 2);
          } else {
            mv = memref::LoadOp::create(
                b, loc, mask,
                maskIndices(clampBelow(row, l, raggedL),
                            clampBelow(key, s, raggedS)));
          }
          sv = f.applyMask(sv, mv);
        }
        if (causal) {
          Value masked = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::ugt, key, row);
          sv = arith::SelectOp::create(b, loc, masked, negInf, sv);
        }
        if (raggedS && 8 * j + 8 > s % kKeys) {
          // Only the last step has keys past S; only the tiles that can
          // hold them test.
          Value past = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                             key, x.c(s));
          sv = arith::SelectOp::create(b, loc, past, negInf, sv);
        }
        sc[j].push_back(sv);
        rowMax[e / 2] = arith::MaximumFOp::create(b, loc, rowMax[e / 2], sv);
      }
    }
    // Each row's maximum over its 4 lanes; the new running maximum, the
    // factor exp(m_old - m_new) for what was summed before, and the shift
    // (0 while a row has seen only -inf, so no NaN).
    Value mNew[2], shift[2], alpha[2];
    for (int h = 0; h < 2; ++h) {
      for (int64_t off : {1, 2})
        rowMax[h] = arith::MaximumFOp::create(
            b, loc, rowMax[h], shuffleXor(b, loc, rowMax[h], off));
      mNew[h] = arith::MaximumFOp::create(b, loc, mOld[h], rowMax[h]);
      Value none = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                         mNew[h], negInf);
      shift[h] = arith::SelectOp::create(b, loc, none, zeroF, mNew[h]);
      alpha[h] = math::ExpOp::create(
          b, loc, arith::SubFOp::create(b, loc, mOld[h], shift[h]));
    }
    // P = exp(s - m_new); l = l alpha + this lane's sum of P; O *= alpha.
    Value lNew[2] = {arith::MulFOp::create(b, loc, lOld[0], alpha[0]),
                     arith::MulFOp::create(b, loc, lOld[1], alpha[1])};
    for (int64_t j = 0; j < sTiles; ++j)
      for (int64_t e = 0; e < 4; ++e) {
        sc[j][e] = math::ExpOp::create(
            b, loc, arith::SubFOp::create(b, loc, sc[j][e], shift[e / 2]));
        lNew[e / 2] = arith::AddFOp::create(b, loc, lNew[e / 2], sc[j][e]);
      }
    for (int64_t n = 0; n < oTiles; ++n)
      for (int64_t e = 0; e < 4; ++e)
        o[n * 4 + e] =
            arith::MulFOp::create(b, loc, o[n * 4 + e], alpha[e / 2]);
    // O += P V. P's accumulators are already A's fragment layout: for keys
    // 16 c .. 16 c + 15, registers (row g | g + 8) x (keys 2t | 2t + 8) are
    // tile 2c's and tile 2c + 1's element pairs, rounded to the input
    // type. V stored
    // [key][dim] is k-major: ldmatrix.x4.trans gives the B fragments of two
    // dim tiles.
    auto pair = [&](Value lo, Value hi) -> Value {
      Value two = vector::FromElementsOp::create(
          b, loc, VectorType::get({2}, f32), ValueRange{lo, hi});
      return arith::TruncFOp::create(b, loc, VectorType::get({2}, et), two);
    };
    for (int64_t c = 0; c < kKeys / 16; ++c) {
      SmallVector<Value> pa = {pair(sc[2 * c][0], sc[2 * c][1]),
                               pair(sc[2 * c][2], sc[2 * c][3]),
                               pair(sc[2 * c + 1][0], sc[2 * c + 1][1]),
                               pair(sc[2 * c + 1][2], sc[2 * c + 1][3])};
      for (int64_t n = 0; n < oTiles; n += 2) {
        SmallVector<Value> regs =
            loadMatrices(x, vs,
                         ValueRange{stage, x.add(x.add(qLow, 16 * c), lrow),
                                    x.add(qHigh, 8 * n)},
                         4, true);
        for (int64_t nn = 0; nn < 2; ++nn) {
          SmallVector<Value> acc(ArrayRef<Value>(o).slice((n + nn) * 4, 4));
          acc = warpMma(x, et, pa, ValueRange{regs[2 * nn], regs[2 * nn + 1]},
                        acc);
          std::copy(acc.begin(), acc.end(), o.begin() + (n + nn) * 4);
        }
      }
    }
    SmallVector<Value> yield(o);
    yield.append({mNew[0], mNew[1], lNew[0], lNew[1]});
    scf::YieldOp::create(b, loc, yield);
  }

  // O / l, each lane's two adjacent columns per row and tile (4 bytes).
  ValueRange res = loop.getResults();
  Value inv[2];
  for (int h = 0; h < 2; ++h) {
    Value sum = res[oTiles * 4 + 2 + h];
    for (int64_t off : {1, 2})
      sum = arith::AddFOp::create(b, loc, sum, shuffleXor(b, loc, sum, off));
    inv[h] = arith::DivFOp::create(
        b, loc, arith::ConstantOp::create(b, loc, b.getF32FloatAttr(1)), sum);
  }
  for (int h = 0; h < 2; ++h) {
    Value row = x.add(x.add(x.add(row0, wrow), g), 8 * h);
    OpBuilder::InsertionGuard g4(b);
    if (raggedL)
      enterIfBelow(row, l);
    // O's tiles of real columns (D is a multiple of 8).
    for (int64_t n = 0; n < d / 8; ++n) {
      Value lo = arith::MulFOp::create(b, loc, res[n * 4 + 2 * h], inv[h]);
      Value hi = arith::MulFOp::create(b, loc, res[n * 4 + 2 * h + 1], inv[h]);
      Value two = vector::FromElementsOp::create(
          b, loc, VectorType::get({2}, f32), ValueRange{lo, hi});
      vector::StoreOp::create(
          b, loc,
          arith::TruncFOp::create(b, loc, VectorType::get({2}, et), two), out,
          at(row, x.add(x.mul(t, 2), 8 * n)),
          /*nontemporal=*/false, llvm::MaybeAlign(4));
    }
  }
  gpu::TerminatorOp::create(b, loc);
}

/// The f32 kernel (SIMT: IEEE f32 FMAs, no tensor cores, as f32 matmuls
/// are by default). A block of 128 threads owns 64 query rows; thread t
/// (rg = t / 8, kg = t % 8) rows 4 rg .. 4 rg + 3, and in each step keys
/// 4 kg .. 4 kg + 3 of the step's 32 for the scores and O's columns
/// 4 kg + 32 i .. + 3 (i < Dp / 32) for the output, so a row's 8 threads
/// are 8 consecutive lanes (its statistics: xor shuffles by 1, 2, 4). The
/// Q tile (once), the K and V tiles of each step and P (transposed: [key]
/// [row]) go through shared memory, rows padded by 16 bytes, every access
/// a 16-byte vector (the 8 distinct rows a warp reads per vector fall in
/// distinct banks). Per step of 32 keys:
///
///   barrier; K, V tiles in (16-byte loads; rows past S copy key S - 1);
///   barrier; S = Q K^T (each thread 4 x 4 scores, 16 FMAs per pair of
///   vectors), scaled, masked (float added, i1 / causal / past S: -inf);
///   row maxima, m_new, alpha = exp(m_old - m_new), P = exp(S - m_new),
///   l = l alpha + sum P, O *= alpha; P to shared; barrier; O += P V.
///
/// D is computed as Dp = D rounded up to 32 (zero columns in the Q, K and
/// V tiles, the extra O columns not stored), Dp <= 128 (O's 4 x Dp / 8
/// accumulators per thread).
void buildKernelF32(OpBuilder &b, Location loc, double scale, bool causal,
                    Value q, Value k, Value v, Value mask, Value out) {
  constexpr int64_t rowsPerBlock = 64, threads = 128, keys = 32;
  auto qt = cast<MemRefType>(q.getType());
  int64_t rank = qt.getRank();
  int64_t l = qt.getDimSize(rank - 2), d = qt.getDimSize(rank - 1);
  int64_t s = cast<MemRefType>(k.getType()).getDimSize(rank - 2);
  int64_t dp = llvm::alignTo(d, 32);
  bool raggedL = l % rowsPerBlock != 0, raggedS = s % keys != 0;
  Type f32 = b.getF32Type();
  auto v4 = VectorType::get({4}, f32);

  auto ws =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  auto shared = [&](int64_t rows, int64_t cols) {
    return MemRefType::get({rows, cols + 4}, f32, MemRefLayoutAttrInterface{},
                           ws);
  };
  MemRefType qT = shared(rowsPerBlock, dp), kvT = shared(keys, dp),
             pT = shared(keys, rowsPerBlock);
  auto bytes = [](MemRefType t) { return t.getNumElements() * 4; };
  int64_t offK = bytes(qT), offV = offK + bytes(kvT), offP = offV + bytes(kvT);
  int64_t total = offP + bytes(pT);

  OpBuilder::InsertionGuard guard(b);
  KernelFrame f(b, loc, qt, rowsPerBlock, threads, total);
  Idx &x = f.x;
  Value tid = f.tid();
  Value qs = f.view(qT, 0), ks = f.view(kvT, offK), vs = f.view(kvT, offV),
        ps = f.view(pT, offP);
  auto at = [&](Value row, Value col) { return f.at(row, col); };
  auto clampBelow = [&](Value i, int64_t n, bool clamp) {
    return f.clampBelow(i, n, clamp);
  };
  auto load4 = [&](Value mem, ValueRange idx) -> Value {
    return vector::LoadOp::create(b, loc, v4, mem, idx, /*nontemporal=*/false,
                                  llvm::MaybeAlign(16));
  };
  auto store4 = [&](Value vec, Value mem, ValueRange idx) {
    vector::StoreOp::create(b, loc, vec, mem, idx, /*nontemporal=*/false,
                            llvm::MaybeAlign(16));
  };
  auto lane = [&](Value vec, int64_t i) -> Value {
    return vector::ExtractOp::create(b, loc, vec, i);
  };
  Value zeroF = f.zeroF, negInf = f.negInf;
  Value scaleV = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(scale));
  Value zeros4 = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(v4, b.getZeroAttr(f32)));

  // A rows x Dp tile of `src` from row `first` (rows past `n` read row n -
  // 1 where `clamp`) into shared `dst`, 16 bytes per thread and turn;
  // columns past D zeros.
  auto copyTile = [&](Value src, Value dst, Value first, int64_t rows,
                      int64_t n, bool clamp) {
    int64_t chunks = rows * dp / 4;
    for (int64_t i = 0; i < chunks; i += threads) {
      Value flat = x.add(tid, i);
      Value r = x.div(flat, dp / 4), c = x.mul(x.rem(flat, dp / 4), 4);
      Value row = clampBelow(x.add(first, r), n, clamp);
      Value vec;
      if (dp == d) {
        vec = load4(src, at(row, c));
      } else {
        auto inside = scf::IfOp::create(
            b, loc, TypeRange{v4},
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, c, x.c(d)),
            /*withElseRegion=*/true);
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(inside.thenBlock());
        scf::YieldOp::create(b, loc, load4(src, at(row, c)));
        b.setInsertionPointToStart(inside.elseBlock());
        scf::YieldOp::create(b, loc, zeros4);
        b.setInsertionPointAfter(inside);
        vec = inside.getResult(0);
      }
      store4(vec, dst, ValueRange{r, c});
    }
  };

  Value row0 = f.row0;
  Value rg = x.div(tid, 8), kg = x.rem(tid, 8);
  Value rowBase = x.mul(rg, 4), keyBase = x.mul(kg, 4);
  copyTile(q, qs, row0, rowsPerBlock, l, raggedL);

  Value steps = f.keySteps(s, keys, rowsPerBlock, causal);
  auto mt = mask ? cast<MemRefType>(mask.getType()) : MemRefType();

  // The running state: O (4 rows x Dp / 8 columns), then per row the
  // maximum m and this thread's part of the sum l.
  int64_t oCols = dp / 8;
  SmallVector<Value> init(4 * oCols, zeroF);
  init.append(4, negInf);
  init.append(4, zeroF);
  auto loop = scf::ForOp::create(b, loc, x.c(0), steps, x.c(1), init);
  {
    OpBuilder::InsertionGuard g2(b);
    b.setInsertionPointToStart(loop.getBody());
    Value kt = loop.getInductionVar();
    ValueRange args = loop.getRegionIterArgs();
    SmallVector<Value> o(args.take_front(4 * oCols));
    SmallVector<Value> mOld(args.slice(4 * oCols, 4)),
        lOld(args.slice(4 * oCols + 4, 4));
    Value key0 = x.mul(kt, keys);
    // Every thread is done with the previous step's K, V and P (and, at
    // the first step, the Q tile is in).
    gpu::BarrierOp::create(b, loc);
    copyTile(k, ks, key0, keys, s, raggedS);
    copyTile(v, vs, key0, keys, s, raggedS);
    gpu::BarrierOp::create(b, loc);

    // S = Q K^T: 4 x 4 dot products over Dp, 4 dims per turn.
    auto dots = scf::ForOp::create(b, loc, x.c(0), x.c(dp), x.c(4),
                                   SmallVector<Value>(16, zeroF));
    {
      OpBuilder::InsertionGuard g3(b);
      b.setInsertionPointToStart(dots.getBody());
      Value c = dots.getInductionVar();
      SmallVector<Value> acc(dots.getRegionIterArgs());
      SmallVector<Value> qv, kv;
      for (int64_t i = 0; i < 4; ++i) {
        qv.push_back(load4(qs, ValueRange{x.add(rowBase, i), c}));
        kv.push_back(load4(ks, ValueRange{x.add(keyBase, i), c}));
      }
      for (int64_t e = 0; e < 4; ++e)
        for (int64_t i = 0; i < 4; ++i)
          for (int64_t j = 0; j < 4; ++j)
            acc[4 * i + j] = math::FmaOp::create(
                b, loc, lane(qv[i], e), lane(kv[j], e), acc[4 * i + j]);
      scf::YieldOp::create(b, loc, acc);
    }
    // Scaled and masked scores; row maxima over the row's 8 threads.
    SmallVector<Value> sc(16);
    SmallVector<Value> rowMax(4, negInf);
    for (int64_t i = 0; i < 4; ++i) {
      Value row = x.add(row0, x.add(rowBase, i));
      for (int64_t j = 0; j < 4; ++j) {
        Value key = x.add(key0, x.add(keyBase, j));
        Value sv =
            arith::MulFOp::create(b, loc, dots.getResult(4 * i + j), scaleV);
        if (mask) {
          Value mv = memref::LoadOp::create(
              b, loc, mask,
              f.maskIndices(mt, clampBelow(row, l, raggedL),
                            clampBelow(key, s, raggedS)));
          sv = f.applyMask(sv, mv);
        }
        if (causal)
          sv = arith::SelectOp::create(
              b, loc,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, key,
                                    row),
              negInf, sv);
        if (raggedS)
          sv = arith::SelectOp::create(
              b, loc,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, key,
                                    x.c(s)),
              negInf, sv);
        sc[4 * i + j] = sv;
        rowMax[i] = arith::MaximumFOp::create(b, loc, rowMax[i], sv);
      }
    }
    SmallVector<Value> mNew(4), shift(4), alpha(4), lNew(4);
    for (int64_t i = 0; i < 4; ++i) {
      for (int64_t off : {1, 2, 4})
        rowMax[i] = arith::MaximumFOp::create(
            b, loc, rowMax[i], shuffleXor(b, loc, rowMax[i], off));
      mNew[i] = arith::MaximumFOp::create(b, loc, mOld[i], rowMax[i]);
      // 0 while a row has seen only -inf (no NaN from -inf - -inf).
      Value none = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                         mNew[i], negInf);
      shift[i] = arith::SelectOp::create(b, loc, none, zeroF, mNew[i]);
      alpha[i] = math::ExpOp::create(
          b, loc, arith::SubFOp::create(b, loc, mOld[i], shift[i]));
      lNew[i] = arith::MulFOp::create(b, loc, lOld[i], alpha[i]);
      for (int64_t j = 0; j < 4; ++j) {
        sc[4 * i + j] = math::ExpOp::create(
            b, loc, arith::SubFOp::create(b, loc, sc[4 * i + j], shift[i]));
        lNew[i] = arith::AddFOp::create(b, loc, lNew[i], sc[4 * i + j]);
      }
      for (int64_t n = 0; n < oCols; ++n)
        o[i * oCols + n] =
            arith::MulFOp::create(b, loc, o[i * oCols + n], alpha[i]);
    }
    // P to shared, [key][row]: this thread's 4 rows of key j are one
    // vector.
    for (int64_t j = 0; j < 4; ++j) {
      Value col = vector::FromElementsOp::create(
          b, loc, v4, ValueRange{sc[j], sc[4 + j], sc[8 + j], sc[12 + j]});
      store4(col, ps, ValueRange{x.add(keyBase, j), rowBase});
    }
    gpu::BarrierOp::create(b, loc);
    // O += P V over the step's keys.
    auto pv = scf::ForOp::create(b, loc, x.c(0), x.c(keys), x.c(1), o);
    {
      OpBuilder::InsertionGuard g3(b);
      b.setInsertionPointToStart(pv.getBody());
      Value j = pv.getInductionVar();
      SmallVector<Value> acc(pv.getRegionIterArgs());
      Value pj = load4(ps, ValueRange{j, rowBase});
      for (int64_t c = 0; c < dp / 32; ++c) {
        Value vv = load4(vs, ValueRange{j, x.add(keyBase, 32 * c)});
        for (int64_t i = 0; i < 4; ++i)
          for (int64_t e = 0; e < 4; ++e)
            acc[i * oCols + 4 * c + e] = math::FmaOp::create(
                b, loc, lane(pj, i), lane(vv, e), acc[i * oCols + 4 * c + e]);
      }
      scf::YieldOp::create(b, loc, acc);
    }
    SmallVector<Value> yield(pv.getResults());
    llvm::append_range(yield, mNew);
    llvm::append_range(yield, lNew);
    scf::YieldOp::create(b, loc, yield);
  }

  // O / l: each thread's 4 rows, a 16-byte vector per 32 columns.
  ValueRange res = loop.getResults();
  for (int64_t i = 0; i < 4; ++i) {
    Value sum = res[4 * oCols + 4 + i];
    for (int64_t off : {1, 2, 4})
      sum = arith::AddFOp::create(b, loc, sum, shuffleXor(b, loc, sum, off));
    Value inv = arith::DivFOp::create(
        b, loc, arith::ConstantOp::create(b, loc, b.getF32FloatAttr(1)), sum);
    Value row = x.add(row0, x.add(rowBase, i));
    OpBuilder::InsertionGuard g4(b);
    if (raggedL) {
      auto ifOp = scf::IfOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, x.c(l)),
          /*withElseRegion=*/false);
      b.setInsertionPointToStart(ifOp.thenBlock());
    }
    for (int64_t c = 0; c < dp / 32; ++c) {
      SmallVector<Value> elems;
      for (int64_t e = 0; e < 4; ++e)
        elems.push_back(
            arith::MulFOp::create(b, loc, res[i * oCols + 4 * c + e], inv));
      Value vec = vector::FromElementsOp::create(b, loc, v4, elems);
      Value col = x.add(keyBase, 32 * c);
      OpBuilder::InsertionGuard g5(b);
      if (32 * c + 32 > d) {
        // Columns past D (D rounded up to 32) are not stored.
        auto ifOp = scf::IfOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, col,
                                  x.c(d)),
            /*withElseRegion=*/false);
        b.setInsertionPointToStart(ifOp.thenBlock());
      }
      store4(vec, out, at(row, col));
    }
  }
  gpu::TerminatorOp::create(b, loc);
}

constexpr llvm::StringLiteral kCalleePrefix = "__graphopt_gpu_attention_";
constexpr llvm::StringLiteral kScaleAttr = "graphopt.scale";
constexpr llvm::StringLiteral kCausalAttr = "graphopt.causal";

struct GraphGPUAttentionPass
    : public graphopt::impl::GraphGPUAttentionPassBase<GraphGPUAttentionPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<fusion::AttentionOp> ops;
    module.walk([&](fusion::AttentionOp op) { ops.push_back(op); });
    SymbolTable symbols(module);
    unsigned next = 0;
    for (fusion::AttentionOp op : ops) {
      if (!unsupported(op).empty()) {
        ++numLeft;
        continue;
      }
      OpBuilder b(op);
      Location loc = op.getLoc();
      Value q = toBuffer(b, loc, op.getQuery()),
            k = toBuffer(b, loc, op.getKey()),
            v = toBuffer(b, loc, op.getValue());
      SmallVector<Value> operands = {q, k, v};
      if (op.getMask())
        operands.push_back(toBuffer(b, loc, op.getMask()));
      auto rt = cast<RankedTensorType>(op.getType());
      Value out = resultBuffer(b, loc, rt);
      // The kernel's stand-in: a call of a private declaration.
      std::string name;
      do
        name = (kCalleePrefix + Twine(next++)).str();
      while (symbols.lookup(name));
      operands.push_back(out);
      auto type = b.getFunctionType(ValueRange(operands).getTypes(), {});
      OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
      auto decl = func::FuncOp::create(mb, loc, name, type);
      decl.setPrivate();
      symbols.insert(decl);
      auto call = func::CallOp::create(b, loc, decl, operands);
      double scale =
          op.getScale()
              ? op.getScale()->convertToDouble()
              : 1.0 / std::sqrt(static_cast<double>(
                          cast<RankedTensorType>(op.getQuery().getType())
                              .getShape()
                              .back()));
      call->setAttr(kScaleAttr, b.getF64FloatAttr(scale));
      if (op.getCausal())
        call->setAttr(kCausalAttr, b.getUnitAttr());
      op.replaceAllUsesWith(bufferAsTensor(b, loc, rt, out));
      op.erase();
      ++numKernels;
    }
  }
};

struct GraphGPUAttentionKernelsPass
    : public graphopt::impl::GraphGPUAttentionKernelsPassBase<
          GraphGPUAttentionKernelsPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::CallOp> calls;
    module.walk([&](func::CallOp call) {
      if (call.getCallee().starts_with(kCalleePrefix))
        calls.push_back(call);
    });
    for (func::CallOp call : calls) {
      auto scale = call->getAttrOfType<FloatAttr>(kScaleAttr);
      unsigned n = call.getNumOperands();
      if (!scale || (n != 4 && n != 5)) {
        call.emitError("malformed attention kernel call");
        return signalPassFailure();
      }
      OpBuilder b(call);
      bool f32 = cast<MemRefType>(call.getOperand(0).getType())
                     .getElementType()
                     .isF32();
      (f32 ? buildKernelF32 : buildKernel)(
          b, call.getLoc(), scale.getValueAsDouble(),
          call->hasAttr(kCausalAttr), call.getOperand(0), call.getOperand(1),
          call.getOperand(2), n == 5 ? call.getOperand(3) : Value(),
          call.getOperand(n - 1));
      call.erase();
      ++numKernels;
    }
    for (func::FuncOp fn :
         llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      if (fn.getName().starts_with(kCalleePrefix) && fn.isDeclaration() &&
          fn.symbolKnownUseEmpty(module))
        fn.erase();
  }
};

} // namespace
