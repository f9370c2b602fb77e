//===- GPUAttention.cpp - graph-gpu-attention -----------------------------===//
//
// `fusion.attention` on CUDA as one kernel that never writes the L x S
// scores to memory. A block of 4 warps owns 64 query rows of one (batch,
// head); key and value tiles of 32 rows at a time pass through shared
// memory. Two passes over the keys:
//
//   pass 1 (statistics): S = Q K^T on tensor cores (WMMA, f32), staged in
//     shared memory; thread i < 64 folds row i into its running maximum m_i
//     of the scaled scores and the sum l_i of exp(s - m_i), rescaled when
//     the maximum grows (as the CPU's flash lowering and PyTorch do);
//   pass 2: S again, P = exp(s - m_i) rounded to f16 into shared memory,
//     and O += P V on tensor cores, O in registers (WMMA fragments) for the
//     whole pass: with the final m_i known, O needs no rescaling, so its
//     fragments (whose element layout WMMA hides) are never touched.
//
// Then O / l_i goes out through shared memory, 4 columns per store. The
// price of keeping O in fragments is a second Q K^T (3 matmuls where
// FlashAttention-2 does 2); the scores never leave the chip either way.
//
// Two passes, because the ownership-based buffer deallocation refuses ops
// without declared memory effects (gpu.barrier) while the choice needs the
// fusion op: graph-gpu-attention (on tensors, before bufferization) turns
// each supported op into the buffers of its operands and result and a call
// of `__graphopt_gpu_attention_<n>` (a private declaration) carrying
// `scale` and `causal`; graph-gpu-attention-kernels (on buffers, after
// deallocation) builds the kernel at each such call.
//
// Scope: static shapes, f16 q/k/v with the same batch dims, head dim D a
// multiple of 16 up to 128 (v's too, equal to q's), L a multiple of 64, S
// of 32, no mask tensor; `causal` supported (the key loop stops at the
// block's last query row). Anything else is left to the decomposition.
//
//===----------------------------------------------------------------------===//

#include "GPUUtils.h"
#include "graphopt/Codegen/Passes.h"
#include "graphopt/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
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
constexpr int64_t kKeys = 32;     // keys per step
constexpr int64_t kThreads = 128; // 4 warps, 16 query rows each

/// Why `op` is left to the decomposition, or empty when the kernel takes it.
std::string unsupported(fusion::AttentionOp op) {
  auto q = dyn_cast<RankedTensorType>(op.getQuery().getType());
  auto k = dyn_cast<RankedTensorType>(op.getKey().getType());
  auto v = dyn_cast<RankedTensorType>(op.getValue().getType());
  if (!q || !k || !v || !q.hasStaticShape() || !k.hasStaticShape() ||
      !v.hasStaticShape())
    return "dynamic shapes";
  if (!q.getElementType().isF16() || !k.getElementType().isF16() ||
      !v.getElementType().isF16())
    return "not f16";
  if (op.getMask())
    return "a mask tensor";
  int64_t rank = q.getRank();
  if (rank < 2 || k.getRank() != rank || v.getRank() != rank ||
      q.getShape().drop_back(2) != k.getShape().drop_back(2) ||
      q.getShape().drop_back(2) != v.getShape().drop_back(2))
    return "batch dims differ";
  int64_t l = q.getDimSize(rank - 2), d = q.getDimSize(rank - 1);
  int64_t s = k.getDimSize(rank - 2);
  if (k.getDimSize(rank - 1) != d || v.getDimSize(rank - 2) != s ||
      v.getDimSize(rank - 1) != d)
    return "key or value shapes do not match the query's";
  if (l % kRows || s % kKeys || d % 16 || d > 128 || l == 0 || s == 0)
    return "L not a multiple of 64, S of 32, or D of 16 up to 128";
  return "";
}

/// Builds the kernel for `op` (see the file comment) writing `out`.
void buildKernel(OpBuilder &b, Location loc, double scale, bool causal, Value q,
                 Value k, Value v, Value out) {
  auto qt = cast<MemRefType>(q.getType());
  int64_t rank = qt.getRank();
  ArrayRef<int64_t> batchDims = qt.getShape().drop_back(2);
  int64_t l = qt.getDimSize(rank - 2), d = qt.getDimSize(rank - 1);
  int64_t s = cast<MemRefType>(k.getType()).getDimSize(rank - 2);
  int64_t batches = 1;
  for (int64_t n : batchDims)
    batches *= n;
  Type f16 = b.getF16Type(), f32 = b.getF32Type();

  // Shared memory: row statistics, then K, V, S and P tiles; the output
  // staging tile reuses everything after the statistics.
  auto ws =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  auto shared = [&](ArrayRef<int64_t> shape, Type et) {
    return MemRefType::get(shape, et, MemRefLayoutAttrInterface{}, ws);
  };
  MemRefType statsT = shared({kRows}, f32);
  MemRefType kvT = shared({kKeys, d + 8}, f16);
  MemRefType sT = shared({kRows, kKeys + 4}, f32);
  MemRefType pT = shared({kRows, kKeys + 8}, f16);
  MemRefType oT = shared({kRows, d + 4}, f32);
  auto bytes = [](MemRefType t) {
    return t.getNumElements() * t.getElementTypeBitWidth() / 8;
  };
  int64_t offM = 0, offL = offM + bytes(statsT), offK = offL + bytes(statsT);
  int64_t offV = offK + bytes(kvT), offS = offV + bytes(kvT);
  int64_t offP = offS + bytes(sT), end = offP + bytes(pT);
  int64_t total = std::max(end, offK + bytes(oT));

  Idx x{b, loc};
  Value smem = arith::ConstantIntOp::create(b, loc, b.getI32Type(), total);
  auto launch =
      gpu::LaunchOp::create(b, loc, x.c(l / kRows), x.c(batches), x.c(1),
                            x.c(kThreads), x.c(1), x.c(1), smem);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launch.getBody().front());
  Value tid = launch.getThreadIds().x;
  auto bytesTy = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                 MemRefLayoutAttrInterface{}, ws);
  Value dyn = gpu::DynamicSharedMemoryOp::create(b, loc, bytesTy);
  auto view = [&](MemRefType t, int64_t offset) -> Value {
    return memref::ViewOp::create(b, loc, t, dyn, x.c(offset), ValueRange{});
  };
  Value ms = view(statsT, offM), ls = view(statsT, offL);
  Value ks = view(kvT, offK), vs = view(kvT, offV);
  Value ss = view(sT, offS), ps = view(pT, offP);

  // The block's batch indices and first query row.
  SmallVector<Value> batch;
  {
    Value rest = launch.getBlockIds().y;
    SmallVector<Value> rev;
    for (int64_t n : llvm::reverse(batchDims)) {
      rev.push_back(x.rem(rest, n));
      rest = x.div(rest, n);
    }
    batch.assign(rev.rbegin(), rev.rend());
  }
  auto at = [&](Value row, Value col) {
    SmallVector<Value> idx(batch);
    idx.push_back(row);
    idx.push_back(col);
    return idx;
  };
  Value row0 = x.mul(launch.getBlockIds().x, kRows);
  Value warp = x.div(tid, 32);
  Value wrow = x.mul(warp, 16); // the warp's first row in the block

  auto aTy = gpu::MMAMatrixType::get({16, 16}, f16, "AOp");
  auto bTy = gpu::MMAMatrixType::get({16, 16}, f16, "BOp");
  auto cTy = gpu::MMAMatrixType::get({16, 16}, f32, "COp");
  Value zeroF = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  Value negInf = arith::ConstantOp::create(
      b, loc, b.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
  Value scaleV = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(scale));

  // Key steps: all, or (causal) up to the block's last query row.
  Value steps = x.c(s / kKeys);
  if (causal)
    steps = arith::MinUIOp::create(
        b, loc, steps, x.div(x.add(row0, kRows + kKeys - 1), kKeys));

  // Continues inside `if (v < n)` (the caller restores the insertion point).
  auto enterIfBelow = [&](Value v, int64_t n) {
    auto ifOp = scf::IfOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, v, x.c(n)),
        /*withElseRegion=*/false);
    b.setInsertionPointToStart(ifOp.thenBlock());
  };
  // Cooperative copy of a kKeys x d tile at key `key0` of `src` into `dst`,
  // 8 halves (16 bytes) per vector.
  auto copyTile = [&](Value src, Value dst, Value key0) {
    int64_t vecs = kKeys * d / 8;
    auto vt = VectorType::get({8}, f16);
    for (int64_t i = 0; i < vecs; i += kThreads) {
      Value flat = x.add(tid, i);
      OpBuilder::InsertionGuard g(b);
      enterIfBelow(flat, vecs);
      Value r = x.div(flat, d / 8), c = x.mul(x.rem(flat, d / 8), 8);
      Value vec =
          vector::LoadOp::create(b, loc, vt, src, at(x.add(key0, r), c),
                                 /*nontemporal=*/false, llvm::MaybeAlign(16));
      vector::StoreOp::create(b, loc, vec, dst, ValueRange{r, c},
                              /*nontemporal=*/false, llvm::MaybeAlign(16));
    }
  };
  // S = Q K^T for the warp's 16 rows and the step's keys, into `ss`.
  auto scores = [&]() {
    for (int64_t j = 0; j < kKeys / 16; ++j) {
      Value acc = gpu::SubgroupMmaConstantMatrixOp::create(b, loc, cTy, zeroF);
      for (int64_t kd = 0; kd < d; kd += 16) {
        Value a = gpu::SubgroupMmaLoadMatrixOp::create(
            b, loc, aTy, q, at(x.add(row0, wrow), x.c(kd)), b.getIndexAttr(d),
            UnitAttr());
        // B(k = dim, n = key) = K[key][dim]: K's tile read column-major.
        Value bf = gpu::SubgroupMmaLoadMatrixOp::create(
            b, loc, bTy, ks, ValueRange{x.c(16 * j), x.c(kd)},
            b.getIndexAttr(d + 8), b.getUnitAttr());
        acc = gpu::SubgroupMmaComputeOp::create(b, loc, cTy, a, bf, acc,
                                                UnitAttr(), b.getUnitAttr());
      }
      gpu::SubgroupMmaStoreMatrixOp::create(
          b, loc, acc, ss, ValueRange{wrow, x.c(16 * j)},
          b.getIndexAttr(kKeys + 4), UnitAttr());
    }
  };
  // The scaled score of block row `r`, key column `c` of the step at
  // `key0`: -inf where causal masks it.
  auto scaled = [&](Value r, Value c, Value key0) -> Value {
    Value sv = memref::LoadOp::create(b, loc, ss, ValueRange{r, c});
    Value scaledV = arith::MulFOp::create(b, loc, sv, scaleV);
    if (!causal)
      return scaledV;
    Value masked = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                         x.add(key0, c), x.add(row0, r));
    return arith::SelectOp::create(b, loc, masked, negInf, scaledV);
  };
  // exp(s - m), 0 where s is -inf (so a -inf maximum gives no NaN).
  auto expShifted = [&](Value sv, Value m) -> Value {
    Value isInf =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, sv, negInf);
    Value e = math::ExpOp::create(b, loc, arith::SubFOp::create(b, loc, sv, m));
    return arith::SelectOp::create(b, loc, isInf, zeroF, e);
  };

  // Statistics start at (-inf, 0).
  {
    OpBuilder::InsertionGuard g(b);
    enterIfBelow(tid, kRows);
    memref::StoreOp::create(b, loc, negInf, ms, ValueRange{tid});
    memref::StoreOp::create(b, loc, zeroF, ls, ValueRange{tid});
  }

  // Pass 1: row maxima and sums.
  {
    auto loop = scf::ForOp::create(b, loc, x.c(0), steps, x.c(1));
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    Value key0 = x.mul(loop.getInductionVar(), kKeys);
    copyTile(k, ks, key0);
    gpu::BarrierOp::create(b, loc);
    scores();
    gpu::BarrierOp::create(b, loc);
    enterIfBelow(tid, kRows);
    Value mOld = memref::LoadOp::create(b, loc, ms, ValueRange{tid});
    auto maxLoop =
        scf::ForOp::create(b, loc, x.c(0), x.c(kKeys), x.c(1), ValueRange{mOld},
                           [&](OpBuilder &, Location, Value c, ValueRange acc) {
                             Value m2 = arith::MaximumFOp::create(
                                 b, loc, acc[0], scaled(tid, c, key0));
                             scf::YieldOp::create(b, loc, m2);
                           });
    Value mNew = maxLoop.getResult(0);
    // l * exp(m_old - m_new): 0 while m_old is -inf (l is 0 then).
    Value lOld = memref::LoadOp::create(b, loc, ls, ValueRange{tid});
    Value lScaled = arith::MulFOp::create(b, loc, lOld, expShifted(mOld, mNew));
    auto sumLoop = scf::ForOp::create(
        b, loc, x.c(0), x.c(kKeys), x.c(1), ValueRange{lScaled},
        [&](OpBuilder &, Location, Value c, ValueRange acc) {
          Value sum = arith::AddFOp::create(
              b, loc, acc[0], expShifted(scaled(tid, c, key0), mNew));
          scf::YieldOp::create(b, loc, sum);
        });
    memref::StoreOp::create(b, loc, mNew, ms, ValueRange{tid});
    memref::StoreOp::create(b, loc, sumLoop.getResult(0), ls, ValueRange{tid});
  }

  // Pass 2: P = exp(s - m) and O += P V, O in fragments.
  int64_t frags = d / 16;
  SmallVector<Value> init(
      frags, gpu::SubgroupMmaConstantMatrixOp::create(b, loc, cTy, zeroF));
  auto loop = scf::ForOp::create(b, loc, x.c(0), steps, x.c(1), init);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    Value key0 = x.mul(loop.getInductionVar(), kKeys);
    // Every warp is done with the last step's tiles (and pass 1's).
    gpu::BarrierOp::create(b, loc);
    copyTile(k, ks, key0);
    copyTile(v, vs, key0);
    gpu::BarrierOp::create(b, loc);
    scores();
    gpu::BarrierOp::create(b, loc);
    for (int64_t i = 0; i < kRows * kKeys; i += kThreads) {
      Value flat = x.add(tid, i);
      Value r = x.div(flat, kKeys), c = x.rem(flat, kKeys);
      Value m = memref::LoadOp::create(b, loc, ms, ValueRange{r});
      Value p = expShifted(scaled(r, c, key0), m);
      memref::StoreOp::create(b, loc, arith::TruncFOp::create(b, loc, f16, p),
                              ps, ValueRange{r, c});
    }
    gpu::BarrierOp::create(b, loc);
    SmallVector<Value> acc(loop.getRegionIterArgs());
    for (int64_t kk = 0; kk < kKeys; kk += 16) {
      Value a = gpu::SubgroupMmaLoadMatrixOp::create(
          b, loc, aTy, ps, ValueRange{wrow, x.c(kk)}, b.getIndexAttr(kKeys + 8),
          UnitAttr());
      for (int64_t n = 0; n < frags; ++n) {
        Value bf = gpu::SubgroupMmaLoadMatrixOp::create(
            b, loc, bTy, vs, ValueRange{x.c(kk), x.c(16 * n)},
            b.getIndexAttr(d + 8), UnitAttr());
        acc[n] = gpu::SubgroupMmaComputeOp::create(b, loc, cTy, a, bf, acc[n],
                                                   UnitAttr(), UnitAttr());
      }
    }
    scf::YieldOp::create(b, loc, acc);
  }

  // O / l through shared memory, 4 columns per thread and store.
  gpu::BarrierOp::create(b, loc);
  Value os = view(oT, offK);
  for (int64_t n = 0; n < frags; ++n)
    gpu::SubgroupMmaStoreMatrixOp::create(b, loc, loop.getResult(n), os,
                                          ValueRange{wrow, x.c(16 * n)},
                                          b.getIndexAttr(d + 4), UnitAttr());
  gpu::BarrierOp::create(b, loc);
  auto v4 = VectorType::get({4}, f32);
  for (int64_t i = 0; i < kRows * d / 4; i += kThreads) {
    Value flat = x.add(tid, i);
    Value r = x.div(flat, d / 4), c = x.mul(x.rem(flat, d / 4), 4);
    Value o =
        vector::LoadOp::create(b, loc, v4, os, ValueRange{r, c},
                               /*nontemporal=*/false, llvm::MaybeAlign(16));
    Value sum = memref::LoadOp::create(b, loc, ls, ValueRange{r});
    Value normalized = arith::DivFOp::create(
        b, loc, o, vector::BroadcastOp::create(b, loc, v4, sum));
    vector::StoreOp::create(
        b, loc,
        arith::TruncFOp::create(b, loc, VectorType::get({4}, f16), normalized),
        out, at(x.add(row0, r), c), /*nontemporal=*/false, llvm::MaybeAlign(8));
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
      auto rt = cast<RankedTensorType>(op.getType());
      Value out = resultBuffer(b, loc, rt);
      // The kernel's stand-in: a call of a private declaration.
      std::string name;
      do
        name = (kCalleePrefix + Twine(next++)).str();
      while (symbols.lookup(name));
      auto type = b.getFunctionType(
          TypeRange{q.getType(), k.getType(), v.getType(), out.getType()}, {});
      OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
      auto decl = func::FuncOp::create(mb, loc, name, type);
      decl.setPrivate();
      symbols.insert(decl);
      auto call = func::CallOp::create(b, loc, decl, ValueRange{q, k, v, out});
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
      if (!scale || call.getNumOperands() != 4) {
        call.emitError("malformed attention kernel call");
        return signalPassFailure();
      }
      OpBuilder b(call);
      buildKernel(b, call.getLoc(), scale.getValueAsDouble(),
                  call->hasAttr(kCausalAttr), call.getOperand(0),
                  call.getOperand(1), call.getOperand(2), call.getOperand(3));
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
