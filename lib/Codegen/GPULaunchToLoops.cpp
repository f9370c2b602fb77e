//===- GPULaunchToLoops.cpp - graph-gpu-launch-to-loops -------------------===//
//
// CPU emulation of `gpu.launch` (a testing aid for the CUDA target on
// machines without a GPU), in one of three ways by what the kernel's
// threads share:
//
//  - nothing (elementwise, copy and one-thread kernels): six nested loops,
//    the body once per thread;
//  - shuffles (the warp kernels): warp by warp, the 32 lanes in lockstep at
//    their shuffles;
//  - barriers, shared memory and tensor-core fragments (the matmul and
//    attention kernels): block by block, the block's threads in lockstep at
//    its barriers, each warp's lanes at its mma.sync, ldmatrix and shuffles,
//    each warpgroup's 128 threads at its wgmma (BlockEmulation).
//
//===----------------------------------------------------------------------===//

#include "graphopt/Codegen/Passes.h"

#include "GPUUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHGPULAUNCHTOLOOPSPASS
#include "graphopt/Codegen/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;

namespace {

/// `nvvm.convert.float.to.tf32` (cvt.rna.tf32.f32, the TF32 matmul kernel's
/// rounding) as integer ops on the f32's bits: to nearest on the 13 bits
/// TF32 drops, ties away from zero (adding half of the last kept bit to the
/// sign-magnitude pattern rounds the magnitude), those bits then cleared;
/// a NaN kept as it is.
LogicalResult expandTF32Conversions(RewriterBase &rw, Region &region) {
  SmallVector<NVVM::ConvertFloatToTF32Op> ops;
  region.walk([&](NVVM::ConvertFloatToTF32Op op) { ops.push_back(op); });
  for (NVVM::ConvertFloatToTF32Op op : ops) {
    if (op.getRnd() != NVVM::FPRoundingMode::RNA ||
        op.getSat() != NVVM::SaturationMode::NONE || op.getRelu())
      return op.emitError("cannot emulate this conversion to TF32 (only "
                          "rna, without saturation or relu)");
    rw.setInsertionPoint(op);
    Location loc = op.getLoc();
    auto constant = [&](uint32_t v) {
      return arith::ConstantOp::create(rw, loc,
                                       rw.getI32IntegerAttr(int32_t(v)));
    };
    Value bits =
        arith::BitcastOp::create(rw, loc, rw.getI32Type(), op.getSrc());
    Value rounded = arith::AndIOp::create(
        rw, loc, arith::AddIOp::create(rw, loc, bits, constant(0x1000u)),
        constant(0xFFFFE000u));
    // A NaN stays a NaN (rounding its payload could carry into an
    // infinity).
    Value nan = arith::CmpFOp::create(rw, loc, arith::CmpFPredicate::UNO,
                                      op.getSrc(), op.getSrc());
    rw.replaceOpWithNewOp<arith::SelectOp>(op, nan, bits, rounded);
  }
  return success();
}

/// The lane a `gpu.shuffle` of `mode` reads for `lane` (index) at offset
/// `off` (index); possibly outside the warp (an index below 0 wraps to a
/// large unsigned value).
Value shuffleSource(OpBuilder &b, Location loc, gpu::ShuffleMode mode,
                    Value lane, Value off) {
  switch (mode) {
  case gpu::ShuffleMode::XOR:
    return arith::XOrIOp::create(b, loc, lane, off);
  case gpu::ShuffleMode::DOWN:
    return arith::AddIOp::create(b, loc, lane, off);
  case gpu::ShuffleMode::UP:
    return arith::SubIOp::create(b, loc, lane, off);
  case gpu::ShuffleMode::IDX:
    return off;
  }
  llvm_unreachable("unknown shuffle mode");
}

/// Ops through which a block's threads communicate other than shuffles
/// (barriers, shared memory, collective reductions, tensor-core fragments):
/// kernels with them take the block emulation (which refuses the
/// collective reductions), not the per-thread or warp loops.
bool isBlockCooperative(Operation *op) {
  return isa<gpu::BarrierOp, gpu::SubgroupReduceOp, gpu::AllReduceOp,
             gpu::SubgroupMmaLoadMatrixOp, gpu::SubgroupMmaComputeOp,
             gpu::SubgroupMmaStoreMatrixOp, gpu::DynamicSharedMemoryOp,
             nvgpu::DeviceAsyncCopyOp, nvgpu::LdMatrixOp, NVVM::MmaOp,
             NVVM::WgmmaMmaAsyncOp>(op);
}

/// What an emulated launch's ids and sizes become: the loops' induction
/// variables (block ids x, y, z; thread ids x, y, z, where thread x is the
/// lane in a warp emulation) and the launch's operands.
struct EmulatedIds {
  Value block[3], thread[3];
  gpu::KernelDim3 grid, size;

  /// Maps the launch body's id and size arguments.
  void map(gpu::LaunchOp launch, IRMapping &mapping) const {
    gpu::KernelDim3 bid = launch.getBlockIds(), tid = launch.getThreadIds(),
                    gsz = launch.getGridSize(), bsz = launch.getBlockSize();
    Value from[12] = {bid.x, bid.y, bid.z, tid.x, tid.y, tid.z,
                      gsz.x, gsz.y, gsz.z, bsz.x, bsz.y, bsz.z};
    Value to[12] = {block[0],  block[1],  block[2], thread[0],
                    thread[1], thread[2], grid.x,   grid.y,
                    grid.z,    size.x,    size.y,   size.z};
    for (int i = 0; i < 12; ++i)
      if (to[i])
        mapping.map(from[i], to[i]);
  }

  /// Replaces the id and size ops under `root` (ids read through ops
  /// rather than the body's arguments).
  void replaceOps(RewriterBase &rewriter, Operation *root) const {
    SmallVector<Operation *> idOps;
    root->walk([&](Operation *op) {
      if (isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp,
              gpu::LaneIdOp>(op))
        idOps.push_back(op);
    });
    auto pick = [](gpu::Dimension d, Value x, Value y, Value z) {
      return d == gpu::Dimension::x ? x : d == gpu::Dimension::y ? y : z;
    };
    for (Operation *op : idOps) {
      Value v;
      if (isa<gpu::LaneIdOp>(op))
        v = thread[0];
      else if (auto t = dyn_cast<gpu::ThreadIdOp>(op))
        v = pick(t.getDimension(), thread[0], thread[1], thread[2]);
      else if (auto b = dyn_cast<gpu::BlockIdOp>(op))
        v = pick(b.getDimension(), block[0], block[1], block[2]);
      else if (auto bd = dyn_cast<gpu::BlockDimOp>(op))
        v = pick(bd.getDimension(), size.x, size.y, size.z);
      else
        v = pick(cast<gpu::GridDimOp>(op).getDimension(), grid.x, grid.y,
                 grid.z);
      if (v && v.getType() == op->getResult(0).getType())
        rewriter.replaceOp(op, v);
    }
  }
};

/// Calls `fn` on every value defined under `body`: op results and the
/// arguments of nested blocks (to retype them in place).
void forEachValue(Block &body, function_ref<void(Value)> fn) {
  body.walk([&](Operation *op) {
    for (Value r : op->getResults())
      fn(r);
    for (Region &region : op->getRegions())
      for (Block &b : region)
        for (BlockArgument a : b.getArguments())
          fn(a);
  });
}

/// Nested `scf.for` loops from 0 to each of `bounds` (outermost first) at
/// the rewriter's insertion point, which is left inside the innermost;
/// returns the outermost loop and the induction variables in `ivs`.
Operation *buildLoopNest(RewriterBase &rewriter, Location loc,
                         ArrayRef<Value> bounds, SmallVectorImpl<Value> &ivs) {
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Operation *outermost = nullptr;
  for (Value bound : bounds) {
    auto loop = scf::ForOp::create(rewriter, loc, zero, bound, one);
    if (!outermost)
      outermost = loop;
    ivs.push_back(loop.getInductionVar());
    rewriter.setInsertionPointToStart(loop.getBody());
  }
  return outermost;
}

/// Lockstep emulation of a kernel whose threads meet at barriers and share
/// memory (the matmul kernels of graph-gpu-matmul): the launch runs as
/// loops over the grid, and the block's threads run in lockstep at the
/// barriers. The body is split at its barriers: the ops between two
/// barriers (a "piece") run as one loop over the block's threads, in
/// thread order; a barrier is the boundary between two such loops. A
/// barrier inside an `scf.for` makes that loop uniform: it runs once per
/// block (its bounds are thread 0's: a kernel whose threads disagree there
/// is undefined on a GPU too), its body split the same way; its iteration
/// arguments and results are kept per thread.
///
/// A value used in another piece than its own is kept per thread in a
/// buffer of blockDim elements (`memref.alloc` before the loops), or, for
/// a pure op, computed again there (index arithmetic). Shared memory
/// (dynamic or attributed) is one host buffer per launch, reused by each
/// block in turn.
///
/// Tensor-core fragments (`gpu.subgroup_mma_*`, collective over a warp)
/// become vectors of their rows x cols elements held by the warp's lane 0,
/// which computes each load, product and store in scalar loops (f32
/// accumulation in the accumulator's type, products of the extended
/// inputs); the other lanes hold zeros and skip them. A fragment's value
/// flows only between these ops, so the other lanes' copies are never read.
class BlockEmulation {
public:
  BlockEmulation(IRRewriter &rewriter, gpu::LaunchOp launch)
      : rw(rewriter), launch(launch), loc(launch.getLoc()) {}

  LogicalResult run();

private:
  /// The per-thread state of the loop a piece is emitted into (or, with a
  /// null `thread`, of uniform code at block level: thread 0's values).
  struct Ctx {
    IRMapping map;
    Value thread; // linear thread index
  };

  InFlightDiagnostic fail(const Twine &why) {
    return launch.emitError("cannot emulate this kernel: ") << why;
  }
  Value cIdx(int64_t v) { return arith::ConstantIndexOp::create(rw, loc, v); }
  /// The lane of the launch body's thread: its linear id modulo 32.
  Value laneId() {
    gpu::KernelDim3 tid = launch.getThreadIds();
    Value linear = arith::AddIOp::create(
        rw, loc, tid.x,
        arith::MulIOp::create(
            rw, loc, cIdx(dims[0]),
            arith::AddIOp::create(
                rw, loc, tid.y,
                arith::MulIOp::create(rw, loc, cIdx(dims[1]), tid.z))));
    return arith::RemUIOp::create(rw, loc, linear, cIdx(graphopt::kWarpSize));
  }
  LogicalResult prepareSharedMemory();
  LogicalResult lowerAsyncCopies();
  LogicalResult lowerBulkCopies();
  LogicalResult prepareWarpOps();
  LogicalResult prepareWarpgroupOps();
  /// A host buffer for the emulation's own use, allocated before the
  /// launch (freed after it).
  Value scratch(ArrayRef<int64_t> shape, Type et) {
    OpBuilder::InsertionGuard g(rw);
    rw.setInsertionPoint(launch);
    Value buf = memref::AllocOp::create(rw, loc, MemRefType::get(shape, et));
    allocations.push_back(buf);
    return buf;
  }
  /// Notes the `llvm.extractvalue` ops (of one position) reading `op`'s
  /// struct result in warpExtracts, to be given buffers by the op's
  /// emulation instead of being cloned; false if another op reads it.
  bool noteStructExtracts(Operation *op) {
    SmallVector<Operation *> extracts;
    for (Operation *user : op->getUsers()) {
      auto e = dyn_cast<LLVM::ExtractValueOp>(user);
      if (!e || e.getPosition().size() != 1)
        return false;
      extracts.push_back(e);
      skipOps.insert(e);
    }
    warpExtracts[op] = extracts;
    return true;
  }
  /// Starts a loop over the block's warps and moves the insertion point
  /// into it (the caller restores it); returns the warp index.
  Value enterWarpLoop() {
    auto warps = scf::ForOp::create(
        rw, loc, cIdx(0), cIdx(numThreads / graphopt::kWarpSize), cIdx(1));
    rw.setInsertionPoint(warps.getBody()->getTerminator());
    return warps.getInductionVar();
  }
  /// A loop over the lanes of warp `warp` (an index), the body filled in
  /// the lane's thread context given its lane and linear thread index.
  void forEachLane(Value warp, function_ref<void(Ctx &, Value, Value)> fill) {
    forEachThreadOf(warp, graphopt::kWarpSize, fill);
  }
  /// The same over the `size` threads of group `group` (threads size *
  /// group ..), given the thread's index in the group.
  void forEachThreadOf(Value group, int64_t size,
                       function_ref<void(Ctx &, Value, Value)> fill);
  void emitWarpMma(NVVM::MmaOp op);
  void emitWarpgroupMma(NVVM::WgmmaMmaAsyncOp op);
  /// D[i][j] += sum over k < depth of A[i][k] B[k][j] for i < rows, j <
  /// cols, in f32 in k order, on the f32 scratch tiles of the MMA
  /// emulations.
  void emitTileProduct(Value a, Value b, Value d, int64_t rows, int64_t cols,
                       int64_t depth) {
    OpBuilder::InsertionGuard g(rw);
    auto rowLoop = scf::ForOp::create(rw, loc, cIdx(0), cIdx(rows), cIdx(1));
    rw.setInsertionPointToStart(rowLoop.getBody());
    auto colLoop = scf::ForOp::create(rw, loc, cIdx(0), cIdx(cols), cIdx(1));
    rw.setInsertionPointToStart(colLoop.getBody());
    Value i = rowLoop.getInductionVar(), j = colLoop.getInductionVar();
    Value init = memref::LoadOp::create(rw, loc, d, ValueRange{i, j});
    auto sum = scf::ForOp::create(
        rw, loc, cIdx(0), cIdx(depth), cIdx(1), ValueRange{init},
        [&](OpBuilder &, Location, Value k, ValueRange acc) {
          Value x = memref::LoadOp::create(rw, loc, a, ValueRange{i, k});
          Value y = memref::LoadOp::create(rw, loc, b, ValueRange{k, j});
          Value next = arith::AddFOp::create(
              rw, loc, acc[0], arith::MulFOp::create(rw, loc, x, y));
          scf::YieldOp::create(rw, loc, next);
        });
    memref::StoreOp::create(rw, loc, sum.getResult(0), d, ValueRange{i, j});
  }
  void emitWarpLdMatrix(nvgpu::LdMatrixOp op);
  void emitWarpShuffle(gpu::ShuffleOp op);
  /// Ops that meet the block's threads (or a warp's lanes): a barrier, or
  /// a warp-collective mma.sync, ldmatrix or shuffle.
  static bool isSyncPoint(Operation *op) {
    return isa<gpu::BarrierOp, NVVM::MmaOp, nvgpu::LdMatrixOp, gpu::ShuffleOp,
               NVVM::WgmmaMmaAsyncOp>(op);
  }
  LogicalResult lowerFragments();
  LogicalResult classify(Block &block);
  bool isRematerializable(Operation *op) const {
    return op->getNumRegions() == 0 && isMemoryEffectFree(op);
  }
  Operation *topLevelAncestor(Operation *op) const;
  bool usedOutside(Value v, int piece);
  Value newBuffer(Type type);
  void store(Value v, Value buffer, Value thread);
  Value load(Value buffer, Type type, Value thread);
  Value valueFor(Value v, Ctx &ctx);
  Ctx threadCtx(Value thread);
  void threadLoop(function_ref<void(Ctx &)> fill);
  /// Replaces the id ops under `loop` (a loop over threads) by `ctx`'s.
  void replaceIds(Operation *loop, Ctx &ctx);
  void emitPiece(ArrayRef<Operation *> ops, int piece);
  void emitFor(scf::ForOp loop);
  void emitBlock(Block &block);

  IRRewriter &rw;
  gpu::LaunchOp launch;
  Location loc;
  int64_t dims[3] = {1, 1, 1};
  int64_t numThreads = 1;
  Operation *outermost = nullptr; // the first grid loop
  EmulatedIds blockIds;
  SmallVector<Value> allocations;
  /// Values kept per thread, and their buffers.
  DenseMap<Value, Value> buffers;
  /// Values of the launch body that are the same for every thread, and what
  /// they are at block level (block ids, sizes, uniform loops' ivs).
  DenseMap<Value, Value> uniform;
  /// Piece of each op in a split block (the launch body, uniform loops'
  /// bodies); -1 for a barrier or uniform loop.
  DenseMap<Operation *, int> pieceOf;
  DenseSet<Block *> splitBlocks;
  int numPieces = 0;
  DenseMap<std::pair<Value, int>, bool> usedOutsideMemo;
  /// mma.sync and ldmatrix results: the ops extracting their values (given
  /// buffers by emitWarpMma / emitWarpLdMatrix, not cloned); the f32
  /// scratch tiles of the products; the lanes' ldmatrix row indices.
  DenseMap<Operation *, SmallVector<Operation *>> warpExtracts;
  DenseSet<Operation *> skipOps;
  Value mmaA, mmaB, mmaD, ldmIndices;
  /// wgmma: each op's accumulator inputs by struct position (the values
  /// its `llvm.insertvalue` chain inserts); the f32 scratch tiles (A 64 x
  /// 16, B 16 x N, D 64 x N) and the warpgroup's two descriptors.
  DenseMap<Operation *, SmallVector<Value>> wgmmaInputs;
  Value wgA, wgB, wgD, wgDescriptors;
  /// The host buffer standing for dynamic shared memory (null if none).
  Value dynamicShared;
  /// Each lane's shuffled value, by type.
  DenseMap<Type, Value> shuffleScratch;
  bool failedValue = false;
};

LogicalResult BlockEmulation::prepareSharedMemory() {
  Block &body = launch.getBody().front();
  OpBuilder::InsertionGuard g(rw);
  rw.setInsertionPoint(launch);
  SmallVector<gpu::DynamicSharedMemoryOp> dyn;
  body.walk([&](gpu::DynamicSharedMemoryOp op) { dyn.push_back(op); });
  if (!dyn.empty()) {
    Value bytes = launch.getDynamicSharedMemorySize();
    if (!bytes)
      return fail("it reads dynamic shared memory but the launch gives none");
    Value size = arith::IndexCastOp::create(rw, loc, rw.getIndexType(), bytes);
    auto type = MemRefType::get({ShapedType::kDynamic}, rw.getI8Type());
    // 1024-byte aligned as the CUDA pipeline declares it for sm_90a: the
    // wgmma emulation swizzles on address bits as the hardware does.
    Value shared = memref::AllocOp::create(rw, loc, type, ValueRange{size},
                                           rw.getI64IntegerAttr(1024));
    allocations.push_back(shared);
    dynamicShared = shared;
    for (gpu::DynamicSharedMemoryOp op : dyn)
      rw.replaceAllUsesWith(op.getResult(), shared);
    for (gpu::DynamicSharedMemoryOp op : dyn)
      rw.eraseOp(op);
  }
  for (BlockArgument arg : launch.getWorkgroupAttributions()) {
    auto type = cast<MemRefType>(arg.getType());
    if (!type.hasStaticShape())
      return fail("a workgroup attribution has a dynamic shape");
    auto host = MemRefType::get(type.getShape(), type.getElementType(),
                                type.getLayout());
    Value buf = memref::AllocOp::create(rw, loc, host);
    allocations.push_back(buf);
    rw.replaceAllUsesWith(arg, buf);
  }
  // Views of shared memory are host memory now.
  forEachValue(body, [](Value v) {
    auto t = dyn_cast<MemRefType>(v.getType());
    if (t && isa_and_nonnull<gpu::AddressSpaceAttr>(t.getMemorySpace()))
      v.setType(
          MemRefType::get(t.getShape(), t.getElementType(), t.getLayout()));
  });
  return success();
}

/// Asynchronous copies (`nvgpu.device_async_copy`, cp.async) run at once,
/// as a vector load and store; their groups and waits go. An execution in
/// which every copy completes before the thread goes on is one a GPU may
/// produce, so a kernel correct on a GPU is correct here; a missing wait
/// goes unnoticed, though (a missing barrier does not).
LogicalResult BlockEmulation::lowerAsyncCopies() {
  Block &body = launch.getBody().front();
  SmallVector<Operation *> copies, groups, waits;
  body.walk([&](Operation *op) {
    if (isa<nvgpu::DeviceAsyncCopyOp>(op))
      copies.push_back(op);
    else if (isa<nvgpu::DeviceAsyncCreateGroupOp>(op))
      groups.push_back(op);
    else if (isa<nvgpu::DeviceAsyncWaitOp>(op))
      waits.push_back(op);
  });
  // Waits use groups' tokens, groups the copies'.
  for (Operation *op : waits)
    rw.eraseOp(op);
  for (Operation *op : groups)
    rw.eraseOp(op);
  OpBuilder::InsertionGuard g(rw);
  for (Operation *op : copies) {
    auto copy = cast<nvgpu::DeviceAsyncCopyOp>(op);
    if (copy.getSrcElements())
      return op->emitError("cannot emulate this kernel: a zero-filling "
                           "asynchronous copy");
    if (!copy.getAsyncToken().use_empty())
      return op->emitError("cannot emulate this kernel: an asynchronous "
                           "copy's token is used other than by a group");
    rw.setInsertionPoint(op);
    auto vt = VectorType::get(
        {copy.getDstElements().getSExtValue()},
        cast<MemRefType>(copy.getDst().getType()).getElementType());
    Value v = vector::LoadOp::create(rw, loc, vt, copy.getSrc(),
                                     copy.getSrcIndices());
    vector::StoreOp::create(rw, loc, v, copy.getDst(), copy.getDstIndices());
    rw.eraseOp(op);
  }
  return success();
}

/// The Hopper TMA copies and mbarrier ops of the wgmma kernel become calls
/// of libGraphOptCUDARuntime's emulations (EmulatedKernelOps.cpp), on host
/// addresses: the shared pointers are `llvm.inttoptr` of addresses of the
/// (now host) shared buffer, the tensor map a host pointer from the
/// emulated driver. A copy completes at once and counts down its barrier's
/// transactions; a wait on a phase that has not completed stops the
/// program (on a GPU it would hang). `fence.mbarrier_init` goes (the
/// emulation's thread order is sequentially consistent).
LogicalResult BlockEmulation::lowerBulkCopies() {
  Block &body = launch.getBody().front();
  SmallVector<Operation *> ops;
  body.walk([&](Operation *op) {
    if (isa<NVVM::MBarrierInitOp, NVVM::MBarrierArriveExpectTxOp,
            NVVM::MBarrierTryWaitParityOp,
            NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp,
            NVVM::FenceMbarrierInitOp>(op))
      ops.push_back(op);
  });
  if (ops.empty())
    return success();
  MLIRContext *ctx = rw.getContext();
  auto module = launch->getParentOfType<ModuleOp>();
  Type ptr = LLVM::LLVMPointerType::get(ctx), i32 = rw.getI32Type();
  auto callee = [&](StringRef name, ArrayRef<Type> args) {
    return graphopt::getOrDeclareFunction(
        module, name, FunctionType::get(ctx, args, {}), loc);
  };
  // The host pointer for a shared one: the same address, address space 0.
  auto host = [&](Value p) -> Value {
    if (cast<LLVM::LLVMPointerType>(p.getType()).getAddressSpace() == 0)
      return p;
    // shared::cta -> shared::cluster (the TMA destination): the same
    // address.
    if (auto space = p.getDefiningOp<LLVM::AddrSpaceCastOp>())
      p = space.getArg();
    auto cast = p.getDefiningOp<LLVM::IntToPtrOp>();
    if (!cast)
      return Value();
    return LLVM::IntToPtrOp::create(rw, loc, ptr, cast.getArg());
  };
  OpBuilder::InsertionGuard g(rw);
  for (Operation *op : ops) {
    rw.setInsertionPoint(op);
    auto call = [&](StringRef name, ArrayRef<Value> args) -> LogicalResult {
      if (llvm::any_of(args, [](Value v) { return !v; }))
        return op->emitError("cannot emulate this kernel: a shared-memory "
                             "pointer not made by llvm.inttoptr");
      SmallVector<Type> types;
      for (Value v : args)
        types.push_back(v.getType());
      func::CallOp::create(rw, loc, callee(name, types), args);
      rw.eraseOp(op);
      return success();
    };
    LogicalResult done = success();
    if (auto init = dyn_cast<NVVM::MBarrierInitOp>(op)) {
      if (init.getPredicate())
        return op->emitError("cannot emulate a predicated mbarrier.init");
      done = call("graphoptEmuMbarrierInit",
                  {host(init.getAddr()), init.getCount()});
    } else if (auto arrive = dyn_cast<NVVM::MBarrierArriveExpectTxOp>(op)) {
      if (arrive.getPredicate() || arrive.getRes() ||
          arrive.getScope() != NVVM::MemScopeKind::CTA)
        return op->emitError("cannot emulate this mbarrier.arrive.expect_tx "
                             "(only CTA scope, no result or predicate)");
      done = call("graphoptEmuMbarrierArriveExpectTx",
                  {host(arrive.getAddr()), arrive.getTxcount()});
    } else if (auto wait = dyn_cast<NVVM::MBarrierTryWaitParityOp>(op)) {
      done = call("graphoptEmuMbarrierWaitParity",
                  {host(wait.getAddr()), wait.getPhase()});
    } else if (auto copy =
                   dyn_cast<NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp>(
                       op)) {
      if (copy.getMode() != NVVM::TMALoadMode::TILE ||
          !copy.getIm2colOffsets().empty() || copy.getMulticastMask() ||
          copy.getL2CacheHint() || copy.getPredicate() ||
          copy.getCoordinates().size() > 5)
        return op->emitError("cannot emulate this cp.async.bulk.tensor "
                             "(only tile mode, no multicast, cache hint or "
                             "predicate)");
      SmallVector<Value> args = {
          host(copy.getDstMem()), copy.getTmaDescriptor(), host(copy.getMbar()),
          arith::ConstantIntOp::create(rw, loc, i32,
                                       copy.getCoordinates().size())};
      llvm::append_range(args, copy.getCoordinates());
      while (args.size() < 9)
        args.push_back(arith::ConstantIntOp::create(rw, loc, i32, 0));
      done = call("graphoptEmuTensorLoad", args);
    } else {
      rw.eraseOp(op); // fence.mbarrier_init
    }
    if (failed(done))
      return failure();
  }
  return success();
}

LogicalResult BlockEmulation::lowerFragments() {
  Block &body = launch.getBody().front();
  SmallVector<Operation *> ops;
  bool elementwise = false;
  body.walk([&](Operation *op) {
    if (isa<gpu::SubgroupMmaConstantMatrixOp, gpu::SubgroupMmaLoadMatrixOp,
            gpu::SubgroupMmaComputeOp, gpu::SubgroupMmaStoreMatrixOp>(op))
      ops.push_back(op);
    else if (isa<gpu::SubgroupMmaElementwiseOp>(op))
      elementwise = true;
  });
  if (elementwise)
    return fail("it has elementwise tensor-core fragment ops");
  if (ops.empty())
    return success();

  // Each op's fragment types (operands, then results), before their types
  // become vectors.
  DenseMap<Operation *, SmallVector<gpu::MMAMatrixType>> fragments;
  int64_t maxElems = 0;
  for (Operation *op : ops) {
    SmallVector<gpu::MMAMatrixType> &types = fragments[op];
    auto note = [&](Value v) {
      if (auto t = dyn_cast<gpu::MMAMatrixType>(v.getType())) {
        types.push_back(t);
        maxElems = std::max(maxElems, t.getShape()[0] * t.getShape()[1]);
      }
    };
    for (Value v : op->getOperands())
      note(v);
    for (Value v : op->getResults())
      note(v);
  }
  auto vectorOf = [](gpu::MMAMatrixType t) {
    return VectorType::get({t.getShape()[0] * t.getShape()[1]},
                           t.getElementType());
  };
  forEachValue(body, [&](Value v) {
    if (auto t = dyn_cast<gpu::MMAMatrixType>(v.getType()))
      v.setType(vectorOf(t));
  });

  OpBuilder::InsertionGuard g(rw);
  // Scratch rows x cols buffers, one per role and element type.
  DenseMap<std::pair<int, Type>, Value> scratch;
  auto scratchFor = [&](int role, Type et) {
    Value &s = scratch[{role, et}];
    if (!s) {
      OpBuilder::InsertionGuard g2(rw);
      rw.setInsertionPoint(launch);
      s = memref::AllocOp::create(rw, loc, MemRefType::get({maxElems}, et));
      allocations.push_back(s);
    }
    return s;
  };
  // Lane 0 of each warp: the linear thread id modulo 32.
  rw.setInsertionPointToStart(&body);
  Value isLead = arith::CmpIOp::create(rw, loc, arith::CmpIPredicate::eq,
                                       laneId(), cIdx(0));

  // for i < rows, j < cols: fn(i, j), in scalar loops.
  auto forEach = [&](int64_t rows, int64_t cols,
                     function_ref<void(Value, Value)> fn) {
    auto outer = scf::ForOp::create(rw, loc, cIdx(0), cIdx(rows), cIdx(1));
    OpBuilder::InsertionGuard g2(rw);
    rw.setInsertionPointToStart(outer.getBody());
    auto inner = scf::ForOp::create(rw, loc, cIdx(0), cIdx(cols), cIdx(1));
    rw.setInsertionPointToStart(inner.getBody());
    fn(outer.getInductionVar(), inner.getInductionVar());
  };
  auto flat = [&](Value i, Value j, int64_t cols) -> Value {
    return arith::AddIOp::create(
        rw, loc, arith::MulIOp::create(rw, loc, i, cIdx(cols)), j);
  };
  // The memref indices of element (i, j) of a fragment at `indices` of
  // `mem` (row-major with rows `lead` apart; column-major with `transpose`).
  auto elementAt = [&](ValueRange indices, Value i, Value j, bool transpose) {
    SmallVector<Value> at(indices);
    size_t n = at.size();
    at[n - 2] = arith::AddIOp::create(rw, loc, at[n - 2], transpose ? j : i);
    at[n - 1] = arith::AddIOp::create(rw, loc, at[n - 1], transpose ? i : j);
    return at;
  };
  auto checkLead = [&](Operation *op, Value mem,
                       int64_t lead) -> LogicalResult {
    auto t = cast<MemRefType>(mem.getType());
    SmallVector<int64_t> strides;
    int64_t offset;
    if (t.getRank() < 2 || failed(t.getStridesAndOffset(strides, offset)) ||
        strides.back() != 1 || strides[strides.size() - 2] != lead)
      return op->emitError("cannot emulate this kernel: a fragment's leading "
                           "dimension is not its memref's row stride");
    return success();
  };
  // scf.if isLead -> type { then } else { other }
  auto onLead = [&](Type type, function_ref<Value()> then,
                    function_ref<Value()> other) {
    auto ifOp = scf::IfOp::create(rw, loc, type ? TypeRange{type} : TypeRange{},
                                  isLead, /*withElseRegion=*/bool(type));
    OpBuilder::InsertionGuard g2(rw);
    rw.setInsertionPointToStart(ifOp.thenBlock());
    Value v = then();
    if (type) {
      scf::YieldOp::create(rw, loc, v);
      rw.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(rw, loc, other());
      return ifOp.getResult(0);
    }
    return Value();
  };

  for (Operation *op : ops) {
    rw.setInsertionPoint(op);
    if (auto c = dyn_cast<gpu::SubgroupMmaConstantMatrixOp>(op)) {
      rw.replaceOp(op, vector::BroadcastOp::create(
                           rw, loc, c.getRes().getType(), c.getValue()));
    } else if (auto l = dyn_cast<gpu::SubgroupMmaLoadMatrixOp>(op)) {
      gpu::MMAMatrixType mt = fragments[op][0];
      if (failed(checkLead(op, l.getSrcMemref(),
                           l.getLeadDimension().getSExtValue())))
        return failure();
      auto vt = cast<VectorType>(l.getRes().getType());
      int64_t rows = mt.getShape()[0], cols = mt.getShape()[1];
      bool tr = l.getTranspose().value_or(false);
      Value s = scratchFor(0, mt.getElementType());
      Value v = onLead(
          vt,
          [&]() -> Value {
            forEach(rows, cols, [&](Value i, Value j) {
              Value e =
                  memref::LoadOp::create(rw, loc, l.getSrcMemref(),
                                         elementAt(l.getIndices(), i, j, tr));
              memref::StoreOp::create(rw, loc, e, s,
                                      ValueRange{flat(i, j, cols)});
            });
            return vector::LoadOp::create(rw, loc, vt, s, ValueRange{cIdx(0)});
          },
          [&]() -> Value {
            return arith::ConstantOp::create(rw, loc, vt, rw.getZeroAttr(vt));
          });
      rw.replaceOp(op, v);
    } else if (auto m = dyn_cast<gpu::SubgroupMmaComputeOp>(op)) {
      gpu::MMAMatrixType ta = fragments[op][0], tb = fragments[op][1],
                         tc = fragments[op][2];
      Type ct = tc.getElementType();
      if (!isa<FloatType>(ct) || !isa<FloatType>(ta.getElementType()) ||
          !isa<FloatType>(tb.getElementType()))
        return fail("an integer tensor-core product");
      int64_t M = tc.getShape()[0], N = tc.getShape()[1], K = ta.getShape()[1];
      Value sa = scratchFor(0, ta.getElementType()),
            sb = scratchFor(1, tb.getElementType()), sc = scratchFor(2, ct);
      Value cv = m.getOpC();
      auto vt = cast<VectorType>(cv.getType());
      auto extend = [&](Value x) {
        return x.getType() == ct
                   ? x
                   : arith::ExtFOp::create(rw, loc, ct, x).getResult();
      };
      Value v = onLead(
          vt,
          [&]() -> Value {
            Value zero = cIdx(0);
            vector::StoreOp::create(rw, loc, m.getOpA(), sa, ValueRange{zero});
            vector::StoreOp::create(rw, loc, m.getOpB(), sb, ValueRange{zero});
            vector::StoreOp::create(rw, loc, cv, sc, ValueRange{zero});
            forEach(M, N, [&](Value i, Value j) {
              Value at = flat(i, j, N);
              Value init = memref::LoadOp::create(rw, loc, sc, ValueRange{at});
              auto kLoop = scf::ForOp::create(
                  rw, loc, cIdx(0), cIdx(K), cIdx(1), ValueRange{init},
                  [&](OpBuilder &, Location, Value k, ValueRange acc) {
                    Value a = memref::LoadOp::create(rw, loc, sa,
                                                     ValueRange{flat(i, k, K)});
                    Value b = memref::LoadOp::create(rw, loc, sb,
                                                     ValueRange{flat(k, j, N)});
                    Value p =
                        arith::MulFOp::create(rw, loc, extend(a), extend(b));
                    Value sum = arith::AddFOp::create(rw, loc, acc[0], p);
                    scf::YieldOp::create(rw, loc, ValueRange{sum});
                  });
              memref::StoreOp::create(rw, loc, kLoop.getResult(0), sc,
                                      ValueRange{at});
            });
            return vector::LoadOp::create(rw, loc, vt, sc, ValueRange{zero});
          },
          [&]() -> Value { return cv; });
      rw.replaceOp(op, v);
    } else {
      auto s = cast<gpu::SubgroupMmaStoreMatrixOp>(op);
      gpu::MMAMatrixType mt = fragments[op][0];
      if (failed(checkLead(op, s.getDstMemref(),
                           s.getLeadDimension().getSExtValue())))
        return failure();
      int64_t rows = mt.getShape()[0], cols = mt.getShape()[1];
      bool tr = s.getTranspose().value_or(false);
      Value sc = scratchFor(2, mt.getElementType());
      onLead(
          Type(),
          [&]() -> Value {
            vector::StoreOp::create(rw, loc, s.getSrc(), sc,
                                    ValueRange{cIdx(0)});
            forEach(rows, cols, [&](Value i, Value j) {
              Value e = memref::LoadOp::create(rw, loc, sc,
                                               ValueRange{flat(i, j, cols)});
              memref::StoreOp::create(rw, loc, e, s.getDstMemref(),
                                      elementAt(s.getIndices(), i, j, tr));
            });
            return Value();
          },
          []() -> Value { return Value(); });
      rw.eraseOp(op);
    }
  }
  return success();
}

/// The warp-collective ops graph-gpu-matmul's mma.sync kernel emits,
/// checked here, and the ops reading their results noted:
/// `nvvm.mma.sync` m16n8k16 bf16 or m16n8k8 tf32 (row.col) with f32
/// accumulators, its 4 results read through `llvm.extractvalue`;
/// `nvgpu.ldmatrix` (x1, x2 or x4), its registers (or their elements) read
/// by `vector.extract` at constant positions.
LogicalResult BlockEmulation::prepareWarpOps() {
  SmallVector<NVVM::MmaOp> ops;
  SmallVector<nvgpu::LdMatrixOp> loads;
  SmallVector<gpu::ShuffleOp> shuffles;
  launch.getBody().walk([&](NVVM::MmaOp op) { ops.push_back(op); });
  launch.getBody().walk([&](nvgpu::LdMatrixOp op) { loads.push_back(op); });
  launch.getBody().walk([&](gpu::ShuffleOp op) { shuffles.push_back(op); });
  if (failed(prepareWarpgroupOps()))
    return failure();
  if (ops.empty() && loads.empty() && shuffles.empty())
    return success();
  if (dims[0] * dims[1] * dims[2] % graphopt::kWarpSize)
    return fail("it has mma.sync, ldmatrix or shuffles but its block is not "
                "whole warps");
  for (gpu::ShuffleOp op : shuffles)
    if (getConstantIntValue(op.getWidth()) != graphopt::kWarpSize)
      return op.emitError("cannot emulate this shuffle: its width is not "
                          "the warp");
  for (NVVM::MmaOp op : ops) {
    auto fail = [&](const Twine &why) {
      return op.emitError("cannot emulate this mma.sync: ") << why;
    };
    NVVM::MMAShapeAttr shape = op.getShapeAttr();
    std::optional<NVVM::MMATypes> type = op.getMultiplicandAPtxType();
    bool half = (type == NVVM::MMATypes::bf16 || type == NVVM::MMATypes::f16) &&
                shape.getK() == 16;
    bool tf32 = type == NVVM::MMATypes::tf32 && shape.getK() == 8;
    if (shape.getM() != 16 || shape.getN() != 8 || !(half || tf32) ||
        op.getMultiplicandBPtxType() != type ||
        op.getLayoutA() != NVVM::MMALayout::row ||
        op.getLayoutB() != NVVM::MMALayout::col ||
        op.getOperandA().size() != 4 || op.getOperandB().size() != 2 ||
        op.getOperandC().size() != 4 ||
        !llvm::all_of(op.getOperandC(),
                      [](Value v) { return v.getType().isF32(); }))
      return fail("not m16n8k16 f16/bf16 or m16n8k8 tf32, row.col, with f32 "
                  "accumulators");
    if (!noteStructExtracts(op))
      return fail("a result is used other than by llvm.extractvalue");
  }
  for (nvgpu::LdMatrixOp op : loads) {
    auto type = cast<VectorType>(op.getRes().getType());
    int64_t bits = type.getElementTypeBitWidth();
    if (type.getRank() != 2 || type.getDimSize(0) != op.getNumTiles() ||
        type.getDimSize(1) * bits != 32 || (op.getTranspose() && bits != 16))
      return op.emitError("cannot emulate this ldmatrix: not one 32-bit "
                          "register per matrix (transposed: of 16-bit "
                          "elements)");
    SmallVector<Operation *> extracts;
    for (Operation *user : op->getUsers()) {
      auto e = dyn_cast<vector::ExtractOp>(user);
      if (!e || e.getSource() != op.getRes() || !e.getDynamicPosition().empty())
        return op.emitError("cannot emulate this ldmatrix: a result is used "
                            "other than by vector.extract of a register or "
                            "an element at a constant position");
      extracts.push_back(e);
      skipOps.insert(e);
    }
    warpExtracts[op] = extracts;
  }
  if (!ops.empty()) {
    mmaA = scratch({16, 16}, rw.getF32Type());
    mmaB = scratch({16, 8}, rw.getF32Type());
    mmaD = scratch({16, 8}, rw.getF32Type());
  }
  if (!loads.empty()) {
    int64_t rank = 0;
    for (nvgpu::LdMatrixOp op : loads)
      rank = std::max<int64_t>(rank, op.getIndices().size());
    ldmIndices = scratch({graphopt::kWarpSize, rank}, rw.getIndexType());
  }
  return success();
}

void BlockEmulation::forEachThreadOf(
    Value group, int64_t size, function_ref<void(Ctx &, Value, Value)> fill) {
  auto loop = scf::ForOp::create(rw, loc, cIdx(0), cIdx(size), cIdx(1));
  OpBuilder::InsertionGuard g(rw);
  rw.setInsertionPoint(loop.getBody()->getTerminator());
  Value lane = loop.getInductionVar();
  Value thread = arith::AddIOp::create(
      rw, loc, arith::MulIOp::create(rw, loc, group, cIdx(size)), lane);
  Ctx ctx = threadCtx(thread);
  fill(ctx, lane, thread);
  replaceIds(loop, ctx);
}

/// One ldmatrix for every warp of the block: the lanes' row indices
/// gathered first; then lane l's register q of matrix q (whose row r lane
/// 8 q + r addressed): row l / 4, elements 2 (l % 4) and the next (one
/// 32-bit element: element l % 4); transposed, elements (2 (l % 4) + e,
/// l / 4) for e = 0, 1: column l / 4 of the rows lanes 8 q + 2 (l % 4) + e
/// addressed. Each lane's registers are kept per thread.
void BlockEmulation::emitWarpLdMatrix(nvgpu::LdMatrixOp op) {
  auto type = cast<VectorType>(op.getRes().getType());
  int64_t tiles = type.getDimSize(0), perReg = type.getDimSize(1);
  auto rowType = VectorType::get({perReg}, type.getElementType());
  // What the extracts take: register q (element -1) or its element e, and
  // the per-thread buffer each is kept in.
  struct Wanted {
    int64_t q, e;
    Value buffer;
  };
  SmallVector<Wanted> wanted;
  for (Operation *user : warpExtracts[op]) {
    ArrayRef<int64_t> pos = cast<vector::ExtractOp>(user).getStaticPosition();
    int64_t q = pos[0], e = pos.size() > 1 ? pos[1] : -1;
    auto it = llvm::find_if(
        wanted, [&](const Wanted &w) { return w.q == q && w.e == e; });
    if (it == wanted.end()) {
      wanted.push_back({q, e, newBuffer(user->getResult(0).getType())});
      it = std::prev(wanted.end());
    }
    buffers[user->getResult(0)] = it->buffer;
  }
  int64_t rank = op.getIndices().size();
  OpBuilder::InsertionGuard g(rw);
  Value warp = enterWarpLoop();
  forEachLane(warp, [&](Ctx &ctx, Value lane, Value) {
    for (int64_t d = 0; d < rank; ++d)
      memref::StoreOp::create(rw, loc, valueFor(op.getIndices()[d], ctx),
                              ldmIndices, ValueRange{lane, cIdx(d)});
  });
  forEachLane(warp, [&](Ctx &ctx, Value lane, Value thread) {
    Value mem = valueFor(op.getSrcMemref(), ctx);
    Value quarter = arith::DivUIOp::create(rw, loc, lane, cIdx(4));
    Value inQuad = arith::RemUIOp::create(rw, loc, lane, cIdx(4));
    // Element `col` of the row lane `src` addressed.
    auto element = [&](Value src, Value col) -> Value {
      SmallVector<Value> idx;
      for (int64_t d = 0; d < rank; ++d)
        idx.push_back(memref::LoadOp::create(rw, loc, ldmIndices,
                                             ValueRange{src, cIdx(d)}));
      idx.back() = arith::AddIOp::create(rw, loc, idx.back(), col);
      return memref::LoadOp::create(rw, loc, mem, idx);
    };
    for (int64_t q = 0; q < tiles; ++q) {
      if (llvm::none_of(wanted, [&](const Wanted &w) { return w.q == q; }))
        continue;
      SmallVector<Value> elems;
      for (int64_t e = 0; e < perReg; ++e) {
        if (op.getTranspose()) {
          Value src = arith::AddIOp::create(
              rw, loc, arith::MulIOp::create(rw, loc, inQuad, cIdx(2)),
              cIdx(8 * q + e));
          elems.push_back(element(src, quarter));
        } else {
          Value src = arith::AddIOp::create(rw, loc, quarter, cIdx(8 * q));
          Value col = arith::AddIOp::create(
              rw, loc, arith::MulIOp::create(rw, loc, inQuad, cIdx(perReg)),
              cIdx(e));
          elems.push_back(element(src, col));
        }
      }
      for (const Wanted &w : wanted)
        if (w.q == q)
          store(w.e < 0
                    ? vector::FromElementsOp::create(rw, loc, rowType, elems)
                          .getResult()
                    : elems[w.e],
                w.buffer, thread);
    }
  });
}

/// One mma.sync for every warp of the block: its lanes' registers gathered
/// into the 16 x k A, k x 8 B and 16 x 8 C tiles by the PTX fragment layout
/// (lane = 4 g + t; bf16, k = 16: A register r: row g + 8 (r % 2), columns
/// 2t + 8 (r / 2) and the next; B register r: rows 2t + 8 r and the next,
/// column g; a 32-bit register holds the lower-indexed bf16 in its low
/// half; TF32, k = 8: A register r: row g + 8 (r % 2), column t + 4 (r / 2);
/// B register r: row t + 4 r, column g; one TF32 per register, of which
/// the hardware reads the upper 19 bits; C/D element e: row g + 8 (e / 2),
/// column 2t + e % 2), D = A B + C summed in f32, and each lane's D
/// elements kept per thread.
void BlockEmulation::emitWarpMma(NVVM::MmaOp op) {
  SmallVector<Value> results(4);
  for (Operation *e : warpExtracts[op]) {
    int64_t pos = cast<LLVM::ExtractValueOp>(e).getPosition()[0];
    if (!results[pos])
      results[pos] = newBuffer(rw.getF32Type());
    buffers[e->getResult(0)] = results[pos];
  }
  Type f32 = rw.getF32Type();
  OpBuilder::InsertionGuard g(rw);
  Value warp = enterWarpLoop();
  // A loop over the warp's lanes, in the lane's thread context.
  auto lanes = [&](function_ref<void(Ctx &, Value, Value, Value)> fill) {
    forEachLane(warp, [&](Ctx &ctx, Value lane, Value thread) {
      Value gid = arith::DivUIOp::create(rw, loc, lane, cIdx(4));
      Value t2 = arith::MulIOp::create(
          rw, loc, arith::RemUIOp::create(rw, loc, lane, cIdx(4)), cIdx(2));
      fill(ctx, thread, gid, t2);
    });
  };
  auto plus = [&](Value v, int64_t c) -> Value {
    return c ? arith::AddIOp::create(rw, loc, v, cIdx(c)).getResult() : v;
  };
  // The two halves of a 32-bit register (bf16 in an i32, or
  // vector<2xf16>), as f32.
  auto unpack = [&](Value reg) -> std::pair<Value, Value> {
    Value halves = reg;
    if (!isa<VectorType>(reg.getType())) {
      Value vec = vector::FromElementsOp::create(
          rw, loc, VectorType::get({1}, rw.getI32Type()), ValueRange{reg});
      halves = vector::BitCastOp::create(
          rw, loc, VectorType::get({2}, rw.getBF16Type()), vec);
    }
    auto half = [&](int64_t i) -> Value {
      Value e = vector::ExtractOp::create(rw, loc, halves, i);
      return arith::ExtFOp::create(rw, loc, f32, e);
    };
    return {half(0), half(1)};
  };
  bool tf32 = op.getMultiplicandAPtxType() == NVVM::MMATypes::tf32;
  int64_t kSize = tf32 ? 8 : 16;
  // A TF32 register as the f32 the hardware multiplies: its upper 19 bits.
  auto tf32Value = [&](Value reg) -> Value {
    Value masked = arith::AndIOp::create(
        rw, loc, reg,
        arith::ConstantOp::create(rw, loc,
                                  rw.getI32IntegerAttr(int32_t(0xFFFFE000u))));
    return arith::BitcastOp::create(rw, loc, f32, masked);
  };
  lanes([&](Ctx &ctx, Value, Value gid, Value t2) {
    if (tf32) {
      Value t = arith::DivUIOp::create(rw, loc, t2, cIdx(2));
      for (int64_t r = 0; r < 4; ++r)
        memref::StoreOp::create(
            rw, loc, tf32Value(valueFor(op.getOperandA()[r], ctx)), mmaA,
            ValueRange{plus(gid, 8 * (r % 2)), plus(t, 4 * (r / 2))});
      for (int64_t r = 0; r < 2; ++r)
        memref::StoreOp::create(rw, loc,
                                tf32Value(valueFor(op.getOperandB()[r], ctx)),
                                mmaB, ValueRange{plus(t, 4 * r), gid});
    } else {
      for (int64_t r = 0; r < 4; ++r) {
        auto [lo, hi] = unpack(valueFor(op.getOperandA()[r], ctx));
        Value row = plus(gid, 8 * (r % 2)), col = plus(t2, 8 * (r / 2));
        memref::StoreOp::create(rw, loc, lo, mmaA, ValueRange{row, col});
        memref::StoreOp::create(rw, loc, hi, mmaA,
                                ValueRange{row, plus(col, 1)});
      }
      for (int64_t r = 0; r < 2; ++r) {
        auto [lo, hi] = unpack(valueFor(op.getOperandB()[r], ctx));
        Value k = plus(t2, 8 * r);
        memref::StoreOp::create(rw, loc, lo, mmaB, ValueRange{k, gid});
        memref::StoreOp::create(rw, loc, hi, mmaB, ValueRange{plus(k, 1), gid});
      }
    }
    for (int64_t e = 0; e < 4; ++e)
      memref::StoreOp::create(
          rw, loc, valueFor(op.getOperandC()[e], ctx), mmaD,
          ValueRange{plus(gid, 8 * (e / 2)), plus(t2, e % 2)});
  });
  emitTileProduct(mmaA, mmaB, mmaD, 16, 8, kSize);
  lanes([&](Ctx &, Value thread, Value gid, Value t2) {
    for (int64_t e = 0; e < 4; ++e)
      if (results[e])
        memref::StoreOp::create(
            rw, loc,
            memref::LoadOp::create(
                rw, loc, mmaD,
                ValueRange{plus(gid, 8 * (e / 2)), plus(t2, e % 2)}),
            results[e], ValueRange{thread});
  });
}

/// Threads of a warpgroup (wgmma).
constexpr int64_t kWarpgroupSize = 128;

/// The warpgroup MMAs graph-gpu-matmul's wgmma kernel emits, checked here:
/// `nvvm.wgmma.mma_async` m64nNk16, f16 or bf16 inputs, f32 accumulators
/// given by a chain of `llvm.insertvalue` into an undef struct (one per
/// position) and read by `llvm.extractvalue`; its fences, commits and
/// waits go (each emulated MMA completes at once, which a GPU may do).
/// The kernel's dynamic shared memory holds the matrices.
LogicalResult BlockEmulation::prepareWarpgroupOps() {
  SmallVector<NVVM::WgmmaMmaAsyncOp> ops;
  SmallVector<Operation *> sync;
  launch.getBody().walk([&](Operation *op) {
    if (auto mma = dyn_cast<NVVM::WgmmaMmaAsyncOp>(op))
      ops.push_back(mma);
    else if (isa<NVVM::WgmmaFenceAlignedOp, NVVM::WgmmaGroupSyncAlignedOp,
                 NVVM::WgmmaWaitGroupSyncOp, NVVM::FenceProxyOp>(op))
      sync.push_back(op);
  });
  for (Operation *op : sync)
    rw.eraseOp(op);
  if (ops.empty())
    return success();
  if (numThreads % kWarpgroupSize)
    return fail("it has wgmma but its block is not whole warpgroups");
  if (!dynamicShared)
    return fail("it has wgmma but no dynamic shared memory");
  int64_t maxN = 0;
  for (NVVM::WgmmaMmaAsyncOp op : ops) {
    auto fail = [&](const Twine &why) {
      return op.emitError("cannot emulate this wgmma: ") << why;
    };
    NVVM::MMAShapeAttr shape = op.getShape();
    NVVM::WGMMATypes t = op.getTypeA();
    if (shape.getM() != 64 || shape.getK() != 16 || shape.getN() % 8 ||
        shape.getN() > 256 || op.getTypeB() != t ||
        (t != NVVM::WGMMATypes::f16 && t != NVVM::WGMMATypes::bf16) ||
        op.getTypeD() != NVVM::WGMMATypes::f32 ||
        op.getScaleA() != NVVM::WGMMAScaleIn::one ||
        op.getScaleB() != NVVM::WGMMAScaleIn::one || op.getSatfinite())
      return fail("not m64nNk16 with f16 or bf16 inputs, f32 accumulators "
                  "and unit scales");
    int64_t numAcc = shape.getN() / 2;
    maxN = std::max<int64_t>(maxN, shape.getN());
    // The accumulators: the insertvalue chain from an undef struct.
    SmallVector<Value> inputs(numAcc);
    Value v = op.getInouts();
    while (auto ins = v.getDefiningOp<LLVM::InsertValueOp>()) {
      if (ins.getPosition().size() != 1 || !v.hasOneUse())
        return fail("its accumulators are not built by one chain of "
                    "llvm.insertvalue");
      int64_t pos = ins.getPosition()[0];
      if (!inputs[pos])
        inputs[pos] = ins.getValue();
      skipOps.insert(ins);
      v = ins.getContainer();
    }
    if (!v.getDefiningOp<LLVM::UndefOp>() ||
        llvm::any_of(inputs, [](Value in) { return !in; }))
      return fail("its accumulators are not built by llvm.insertvalue into "
                  "an undef struct, every position set");
    skipOps.insert(v.getDefiningOp());
    wgmmaInputs[op] = inputs;
    if (!noteStructExtracts(op))
      return fail("a result is used other than by llvm.extractvalue");
  }
  wgA = scratch({64, 16}, rw.getF32Type());
  wgB = scratch({16, maxN}, rw.getF32Type());
  wgD = scratch({64, maxN}, rw.getF32Type());
  wgDescriptors = scratch({2}, rw.getI64Type());
  return success();
}

/// One wgmma for every warpgroup of the block: its 128 threads'
/// accumulators gathered into the 64 x N tile D (thread 32 q + 4 g + t,
/// element 4 j + e: row 16 q + g + 8 (e / 2), column 8 j + 2 t + e % 2, the
/// mma.sync m16n8 accumulator layout repeated over warps and n tiles), A
/// (64 x 16) and B (16 x N) read from shared memory through the matrix
/// descriptors as the PTX ISA defines them, D += A B in f32, and each
/// thread's elements of D kept per thread.
///
/// A descriptor: start address, leading (LBO) and stride (SBO) byte offsets
/// (>> 4, 14 bits at bits 0, 16, 32), base offset (bits 49-51), swizzle mode
/// (bits 62-63). Only mode 1 (128-byte swizzle) with base offset 0 is
/// emulated (a run-time check). Element (r, k) of a K-major matrix (A
/// `row`, B `col`; r its M or N index) lies at start + (r / 8) SBO +
/// (r % 8) 128 + 2 k; of an MN-major one at start + (r / 64) LBO + (k / 8)
/// SBO + (k % 8) 128 + 2 (r % 64); then the swizzle: address bits 4-6 xor
/// bits 7-9. The address is a shared-window address (its low 18 bits):
/// the emulated shared buffer, 1024-byte aligned like the kernel's, stands
/// for the window.
void BlockEmulation::emitWarpgroupMma(NVVM::WgmmaMmaAsyncOp op) {
  int64_t n = op.getShape().getN(), numAcc = n / 2;
  SmallVector<Value> results(numAcc);
  for (Operation *e : warpExtracts[op]) {
    int64_t pos = cast<LLVM::ExtractValueOp>(e).getPosition()[0];
    if (!results[pos])
      results[pos] = newBuffer(rw.getF32Type());
    buffers[e->getResult(0)] = results[pos];
  }
  ArrayRef<Value> inputs = wgmmaInputs[op];
  bool accumulate = op.getScaleD() == NVVM::WGMMAScaleOut::one;
  Type f32 = rw.getF32Type(), i64 = rw.getI64Type();
  Type et = op.getTypeA() == NVVM::WGMMATypes::bf16 ? Type(rw.getBF16Type())
                                                    : Type(rw.getF16Type());
  OpBuilder::InsertionGuard g(rw);
  // The shared buffer as 16-bit elements, and its base's low 18 bits.
  Value bytes = memref::DimOp::create(rw, loc, dynamicShared, 0);
  Value elems = memref::ViewOp::create(
      rw, loc, MemRefType::get({ShapedType::kDynamic}, et), dynamicShared,
      cIdx(0),
      ValueRange{arith::DivUIOp::create(rw, loc, bytes, cIdx(2)).getResult()});
  auto i64c = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(rw, loc, rw.getI64IntegerAttr(v));
  };
  Value window = i64c(0x3FFFF);
  Value hostBase =
      arith::AndIOp::create(rw, loc,
                            arith::IndexCastUIOp::create(
                                rw, loc, i64,
                                memref::ExtractAlignedPointerAsIndexOp::create(
                                    rw, loc, dynamicShared)),
                            window);
  auto groups = scf::ForOp::create(rw, loc, cIdx(0),
                                   cIdx(numThreads / kWarpgroupSize), cIdx(1));
  rw.setInsertionPoint(groups.getBody()->getTerminator());
  Value group = groups.getInductionVar();
  // Row and column of element `e` of the thread `lane` of the warpgroup.
  auto place = [&](Value lane, int64_t e) -> std::pair<Value, Value> {
    Value quad = arith::DivUIOp::create(rw, loc, lane, cIdx(32));
    Value l = arith::RemUIOp::create(rw, loc, lane, cIdx(32));
    Value row = arith::AddIOp::create(
        rw, loc,
        arith::AddIOp::create(rw, loc,
                              arith::MulIOp::create(rw, loc, quad, cIdx(16)),
                              arith::DivUIOp::create(rw, loc, l, cIdx(4))),
        cIdx(8 * ((e % 4) / 2)));
    Value col = arith::AddIOp::create(
        rw, loc,
        arith::MulIOp::create(
            rw, loc, arith::RemUIOp::create(rw, loc, l, cIdx(4)), cIdx(2)),
        cIdx(8 * (e / 4) + e % 2));
    return {row, col};
  };
  Value zero = arith::ConstantOp::create(rw, loc, rw.getF32FloatAttr(0));
  forEachThreadOf(group, kWarpgroupSize, [&](Ctx &ctx, Value lane, Value) {
    for (int64_t e = 0; e < numAcc; ++e) {
      auto [row, col] = place(lane, e);
      memref::StoreOp::create(rw, loc,
                              accumulate ? valueFor(inputs[e], ctx) : zero, wgD,
                              ValueRange{row, col});
    }
    // The same for every thread, as PTX requires.
    memref::StoreOp::create(rw, loc, valueFor(op.getDescriptorA(), ctx),
                            wgDescriptors, ValueRange{cIdx(0)});
    memref::StoreOp::create(rw, loc, valueFor(op.getDescriptorB(), ctx),
                            wgDescriptors, ValueRange{cIdx(1)});
  });
  // Element (r, k) of the matrix of descriptor `which` (K-major or not),
  // as f32.
  auto field = [&](Value desc, int64_t shift, int64_t mask) -> Value {
    return arith::AndIOp::create(
        rw, loc, arith::ShRUIOp::create(rw, loc, desc, i64c(shift)),
        i64c(mask));
  };
  auto matrix = [&](int64_t which, bool kMajor, Value scratch, int64_t rows,
                    int64_t cols, bool rowIsK) {
    Value desc =
        memref::LoadOp::create(rw, loc, wgDescriptors, ValueRange{cIdx(which)});
    Value valid = arith::AndIOp::create(
        rw, loc,
        arith::CmpIOp::create(rw, loc, arith::CmpIPredicate::eq,
                              field(desc, 62, 3), i64c(1)),
        arith::CmpIOp::create(rw, loc, arith::CmpIPredicate::eq,
                              field(desc, 49, 7), i64c(0)));
    cf::AssertOp::create(rw, loc, valid,
                         "emulated wgmma: only 128-byte-swizzled matrices "
                         "with base offset 0 are emulated");
    auto shl4 = [&](Value v) -> Value {
      return arith::ShLIOp::create(rw, loc, v, i64c(4));
    };
    Value start = shl4(field(desc, 0, 0x3FFF));
    Value lbo = shl4(field(desc, 16, 0x3FFF));
    Value sbo = shl4(field(desc, 32, 0x3FFF));
    auto rowLoop = scf::ForOp::create(rw, loc, cIdx(0), cIdx(rows), cIdx(1));
    OpBuilder::InsertionGuard g2(rw);
    rw.setInsertionPointToStart(rowLoop.getBody());
    auto colLoop = scf::ForOp::create(rw, loc, cIdx(0), cIdx(cols), cIdx(1));
    rw.setInsertionPointToStart(colLoop.getBody());
    Value i = rowLoop.getInductionVar(), j = colLoop.getInductionVar();
    auto asI64 = [&](Value v) -> Value {
      return arith::IndexCastUIOp::create(rw, loc, i64, v);
    };
    Value k = asI64(rowIsK ? i : j), r = asI64(rowIsK ? j : i);
    auto mul = [&](Value a, Value b) -> Value {
      return arith::MulIOp::create(rw, loc, a, b);
    };
    auto add = [&](Value a, Value b) -> Value {
      return arith::AddIOp::create(rw, loc, a, b);
    };
    auto div = [&](Value a, int64_t d) -> Value {
      return arith::DivUIOp::create(rw, loc, a, i64c(d));
    };
    auto rem = [&](Value a, int64_t d) -> Value {
      return arith::RemUIOp::create(rw, loc, a, i64c(d));
    };
    Value offset =
        kMajor ? add(add(mul(div(r, 8), sbo), mul(rem(r, 8), i64c(128))),
                     mul(k, i64c(2)))
               : add(add(add(mul(div(r, 64), lbo), mul(div(k, 8), sbo)),
                         mul(rem(k, 8), i64c(128))),
                     mul(rem(r, 64), i64c(2)));
    Value addr = add(start, offset);
    Value swizzled = arith::XOrIOp::create(
        rw, loc, addr,
        arith::ShLIOp::create(rw, loc, field(addr, 7, 7), i64c(4)));
    Value inBuffer = arith::AndIOp::create(
        rw, loc, arith::SubIOp::create(rw, loc, swizzled, hostBase), window);
    Value index = arith::IndexCastUIOp::create(rw, loc, rw.getIndexType(),
                                               div(inBuffer, 2));
    Value e = memref::LoadOp::create(rw, loc, elems, ValueRange{index});
    memref::StoreOp::create(rw, loc, arith::ExtFOp::create(rw, loc, f32, e),
                            scratch, ValueRange{i, j});
  };
  matrix(0, op.getLayoutA() == NVVM::MMALayout::row, wgA, 64, 16,
         /*rowIsK=*/false);
  matrix(1, op.getLayoutB() == NVVM::MMALayout::col, wgB, 16, n,
         /*rowIsK=*/true);
  emitTileProduct(wgA, wgB, wgD, 64, n, 16);
  forEachThreadOf(group, kWarpgroupSize, [&](Ctx &, Value lane, Value thread) {
    for (int64_t e = 0; e < numAcc; ++e) {
      if (!results[e])
        continue;
      auto [row, col] = place(lane, e);
      memref::StoreOp::create(
          rw, loc, memref::LoadOp::create(rw, loc, wgD, ValueRange{row, col}),
          results[e], ValueRange{thread});
    }
  });
}

/// One shuffle for every warp of the block: the lanes' values gathered,
/// then each lane reads its source lane's (xor, down, up or idx by the
/// offset; its own value, and valid false, where the source lane is
/// outside the warp).
void BlockEmulation::emitWarpShuffle(gpu::ShuffleOp op) {
  Type type = op.getValue().getType();
  Value &scratch = shuffleScratch[type];
  if (!scratch) {
    OpBuilder b(outermost);
    scratch = memref::AllocOp::create(
        b, loc, MemRefType::get({graphopt::kWarpSize}, type));
    allocations.push_back(scratch);
  }
  Value result, valid;
  if (!op.getShuffleResult().use_empty())
    buffers[op.getShuffleResult()] = result = newBuffer(type);
  if (!op.getValid().use_empty())
    buffers[op.getValid()] = valid = newBuffer(rw.getI1Type());
  OpBuilder::InsertionGuard g(rw);
  Value warp = enterWarpLoop();
  forEachLane(warp, [&](Ctx &ctx, Value lane, Value) {
    memref::StoreOp::create(rw, loc, valueFor(op.getValue(), ctx), scratch,
                            ValueRange{lane});
  });
  forEachLane(warp, [&](Ctx &ctx, Value lane, Value thread) {
    Value off = arith::IndexCastOp::create(rw, loc, rw.getIndexType(),
                                           valueFor(op.getOffset(), ctx));
    Value src = shuffleSource(rw, loc, op.getMode(), lane, off);
    Value inWarp = arith::CmpIOp::create(rw, loc, arith::CmpIPredicate::ult,
                                         src, cIdx(graphopt::kWarpSize));
    Value from = arith::SelectOp::create(rw, loc, inWarp, src, lane);
    if (result)
      store(memref::LoadOp::create(rw, loc, scratch, ValueRange{from}), result,
            thread);
    if (valid)
      store(inWarp, valid, thread);
  });
}

LogicalResult BlockEmulation::classify(Block &block) {
  splitBlocks.insert(&block);
  int current = -1;
  for (Operation &op : block.without_terminator()) {
    bool barrier = isSyncPoint(&op);
    bool holds = false;
    if (!barrier)
      op.walk([&](Operation *inner) {
        if (isSyncPoint(inner))
          holds = true;
      });
    if (!barrier && !holds) {
      if (current < 0)
        current = numPieces++;
      pieceOf[&op] = current;
      continue;
    }
    current = -1;
    pieceOf[&op] = -1;
    if (holds) {
      auto loop = dyn_cast<scf::ForOp>(op);
      if (!loop)
        return op.emitError("cannot emulate this kernel: a barrier, "
                            "mma.sync, ldmatrix or shuffle is inside a "
                            "branch or a loop other than scf.for");
      if (failed(classify(*loop.getBody())))
        return failure();
    }
  }
  return success();
}

Operation *BlockEmulation::topLevelAncestor(Operation *op) const {
  while (op && !splitBlocks.contains(op->getBlock()))
    op = op->getParentOp();
  return op;
}

bool BlockEmulation::usedOutside(Value v, int piece) {
  auto key = std::make_pair(v, piece);
  if (auto it = usedOutsideMemo.find(key); it != usedOutsideMemo.end())
    return it->second;
  bool outside = false;
  for (Operation *user : v.getUsers()) {
    Operation *top = topLevelAncestor(user);
    auto it = pieceOf.find(top);
    if (it == pieceOf.end() || it->second != piece) {
      outside = true;
      break;
    }
    // A pure user computed again elsewhere reads `v` there too.
    if (top == user && isRematerializable(user))
      for (Value r : user->getResults())
        if (usedOutside(r, piece)) {
          outside = true;
          break;
        }
    if (outside)
      break;
  }
  usedOutsideMemo[key] = outside;
  return outside;
}

Value BlockEmulation::newBuffer(Type type) {
  OpBuilder b(outermost);
  SmallVector<int64_t> shape = {numThreads};
  Type et = type;
  if (auto vt = dyn_cast<VectorType>(type)) {
    if (vt.getRank() != 1 || vt.isScalable())
      return Value();
    shape.push_back(vt.getDimSize(0));
    et = vt.getElementType();
  } else if (!type.isIntOrIndexOrFloat()) {
    return Value();
  }
  Value buf = memref::AllocOp::create(b, loc, MemRefType::get(shape, et),
                                      b.getI64IntegerAttr(64));
  allocations.push_back(buf);
  return buf;
}

void BlockEmulation::store(Value v, Value buffer, Value thread) {
  if (isa<VectorType>(v.getType()))
    vector::StoreOp::create(rw, loc, v, buffer, ValueRange{thread, cIdx(0)});
  else
    memref::StoreOp::create(rw, loc, v, buffer, ValueRange{thread});
}

Value BlockEmulation::load(Value buffer, Type type, Value thread) {
  if (auto vt = dyn_cast<VectorType>(type))
    return vector::LoadOp::create(rw, loc, vt, buffer,
                                  ValueRange{thread, cIdx(0)});
  return memref::LoadOp::create(rw, loc, buffer, ValueRange{thread});
}

Value BlockEmulation::valueFor(Value v, Ctx &ctx) {
  if (Value m = ctx.map.lookupOrNull(v))
    return m;
  if (auto it = uniform.find(v); it != uniform.end()) {
    ctx.map.map(v, it->second);
    return it->second;
  }
  Region *region = v.getParentRegion();
  if (!launch.getBody().isAncestor(region))
    return v;
  if (auto it = buffers.find(v); it != buffers.end()) {
    Value loaded =
        load(it->second, v.getType(), ctx.thread ? ctx.thread : cIdx(0));
    ctx.map.map(v, loaded);
    return loaded;
  }
  Operation *def = v.getDefiningOp();
  if (!def || !isRematerializable(def)) {
    if (!failedValue)
      (def ? def->emitError() : launch.emitError())
          << "cannot emulate this kernel: a value it carries across a "
             "barrier cannot be kept per thread";
    failedValue = true;
    return v;
  }
  for (Value operand : def->getOperands())
    (void)valueFor(operand, ctx);
  Operation *copy = rw.clone(*def, ctx.map);
  return copy->getResult(cast<OpResult>(v).getResultNumber());
}

BlockEmulation::Ctx BlockEmulation::threadCtx(Value thread) {
  Ctx ctx;
  ctx.thread = thread;
  gpu::KernelDim3 tid = launch.getThreadIds();
  if (!thread) {
    Value zero = cIdx(0);
    ctx.map.map(tid.x, zero);
    ctx.map.map(tid.y, zero);
    ctx.map.map(tid.z, zero);
    return ctx;
  }
  Value x = arith::RemUIOp::create(rw, loc, thread, cIdx(dims[0]));
  Value rest = arith::DivUIOp::create(rw, loc, thread, cIdx(dims[0]));
  Value y = arith::RemUIOp::create(rw, loc, rest, cIdx(dims[1]));
  Value z = arith::DivUIOp::create(rw, loc, rest, cIdx(dims[1]));
  ctx.map.map(tid.x, x);
  ctx.map.map(tid.y, y);
  ctx.map.map(tid.z, z);
  return ctx;
}

void BlockEmulation::threadLoop(function_ref<void(Ctx &)> fill) {
  auto loop = scf::ForOp::create(rw, loc, cIdx(0), cIdx(numThreads), cIdx(1));
  OpBuilder::InsertionGuard g(rw);
  rw.setInsertionPoint(loop.getBody()->getTerminator());
  Ctx ctx = threadCtx(loop.getInductionVar());
  fill(ctx);
  replaceIds(loop, ctx);
}

void BlockEmulation::replaceIds(Operation *loop, Ctx &ctx) {
  EmulatedIds ids = blockIds;
  gpu::KernelDim3 tid = launch.getThreadIds();
  for (int i = 0; i < 3; ++i)
    ids.thread[i] = ctx.map.lookup(i == 0 ? tid.x : i == 1 ? tid.y : tid.z);
  ids.replaceOps(rw, loop);
}

void BlockEmulation::emitPiece(ArrayRef<Operation *> ops, int piece) {
  threadLoop([&](Ctx &ctx) {
    for (Operation *op : ops) {
      if (skipOps.contains(op))
        continue;
      op->walk([&](Operation *inner) {
        for (Value operand : inner->getOperands())
          if (!op->isAncestor(operand.getParentBlock()->getParentOp()))
            (void)valueFor(operand, ctx);
      });
      Operation *copy = rw.clone(*op, ctx.map);
      if (isRematerializable(op))
        continue;
      for (auto [r, c] : llvm::zip(op->getResults(), copy->getResults())) {
        if (!usedOutside(r, piece))
          continue;
        Value buf = newBuffer(r.getType());
        if (!buf) {
          if (!failedValue)
            op->emitError("cannot emulate this kernel: a value of this "
                          "type cannot be kept per thread across a barrier");
          failedValue = true;
          continue;
        }
        buffers[r] = buf;
        store(c, buf, ctx.thread);
      }
    }
  });
}

void BlockEmulation::emitFor(scf::ForOp loop) {
  Ctx block = threadCtx(Value());
  Value lb = valueFor(loop.getLowerBound(), block);
  Value ub = valueFor(loop.getUpperBound(), block);
  Value step = valueFor(loop.getStep(), block);
  SmallVector<Value> bufs;
  for (Value arg : loop.getRegionIterArgs()) {
    Value buf = newBuffer(arg.getType());
    if (!buf) {
      if (!failedValue)
        loop.emitError("cannot emulate this kernel: a loop-carried value "
                       "of this type cannot be kept per thread");
      failedValue = true;
      return;
    }
    bufs.push_back(buf);
  }
  if (!bufs.empty())
    threadLoop([&](Ctx &ctx) {
      for (auto [init, buf] : llvm::zip(loop.getInitArgs(), bufs))
        store(valueFor(init, ctx), buf, ctx.thread);
    });
  auto uniformLoop = scf::ForOp::create(rw, loc, lb, ub, step);
  {
    OpBuilder::InsertionGuard g(rw);
    rw.setInsertionPoint(uniformLoop.getBody()->getTerminator());
    uniform[loop.getInductionVar()] = uniformLoop.getInductionVar();
    for (auto [arg, buf] : llvm::zip(loop.getRegionIterArgs(), bufs))
      buffers[arg] = buf;
    emitBlock(*loop.getBody());
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    if (!bufs.empty())
      threadLoop([&](Ctx &ctx) {
        SmallVector<Value> next;
        for (Value v : yield.getOperands())
          next.push_back(valueFor(v, ctx));
        for (auto [v, buf] : llvm::zip(next, bufs))
          store(v, buf, ctx.thread);
      });
  }
  for (auto [result, buf] : llvm::zip(loop.getResults(), bufs))
    buffers[result] = buf;
}

void BlockEmulation::emitBlock(Block &block) {
  SmallVector<Operation *> run;
  int runPiece = -1;
  auto flush = [&] {
    if (!run.empty())
      emitPiece(run, runPiece);
    run.clear();
  };
  for (Operation &op : block.without_terminator()) {
    int piece = pieceOf.lookup(&op);
    if (piece >= 0) {
      if (piece != runPiece)
        flush();
      runPiece = piece;
      run.push_back(&op);
      continue;
    }
    flush();
    runPiece = -1;
    if (auto loop = dyn_cast<scf::ForOp>(op))
      emitFor(loop);
    else if (auto mma = dyn_cast<NVVM::MmaOp>(op))
      emitWarpMma(mma);
    else if (auto ldm = dyn_cast<nvgpu::LdMatrixOp>(op))
      emitWarpLdMatrix(ldm);
    else if (auto sh = dyn_cast<gpu::ShuffleOp>(op))
      emitWarpShuffle(sh);
    else if (auto wg = dyn_cast<NVVM::WgmmaMmaAsyncOp>(op))
      emitWarpgroupMma(wg);
  }
  flush();
}

LogicalResult BlockEmulation::run() {
  Region &region = launch.getBody();
  if (!region.hasOneBlock())
    return fail("it has several blocks");
  if (!launch.getPrivateAttributions().empty())
    return fail("it has private attributions");
  gpu::KernelDim3 bs = launch.getBlockSizeOperandValues();
  Value sizes[3] = {bs.x, bs.y, bs.z};
  for (int i = 0; i < 3; ++i) {
    std::optional<int64_t> d = getConstantIntValue(sizes[i]);
    if (!d || *d <= 0)
      return fail("its block size is not constant");
    dims[i] = *d;
  }
  numThreads = dims[0] * dims[1] * dims[2];
  WalkResult other = region.walk([&](Operation *op) {
    return isa<gpu::SubgroupReduceOp, gpu::AllReduceOp>(op)
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  if (other.wasInterrupted())
    return fail("it has collective reductions besides barriers");

  rw.setInsertionPoint(launch);
  if (failed(prepareSharedMemory()) || failed(lowerAsyncCopies()) ||
      failed(lowerBulkCopies()) || failed(lowerFragments()) ||
      failed(prepareWarpOps()))
    return failure();
  // Lane ids: the linear thread id modulo 32.
  SmallVector<gpu::LaneIdOp> laneIds;
  region.walk([&](gpu::LaneIdOp op) { laneIds.push_back(op); });
  for (gpu::LaneIdOp op : laneIds) {
    rw.setInsertionPoint(op);
    rw.replaceOp(op, laneId());
  }
  if (failed(classify(region.front())))
    return failure();

  // Loops over the grid: z, y, x.
  rw.setInsertionPoint(launch);
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  SmallVector<Value> ivs;
  outermost = buildLoopNest(rw, loc, {grid.z, grid.y, grid.x}, ivs);
  blockIds = EmulatedIds{{ivs[2], ivs[1], ivs[0]}, {}, grid, bs};
  IRMapping ids;
  blockIds.map(launch, ids);
  for (auto [from, to] : ids.getValueMap())
    uniform[from] = to;
  emitBlock(region.front());
  if (failedValue)
    return failure();
  // Ids left at block level (uniform loop bounds): thread 0's.
  EmulatedIds zeroIds = blockIds;
  {
    OpBuilder::InsertionGuard g(rw);
    rw.setInsertionPoint(outermost);
    Value zero = cIdx(0);
    zeroIds.thread[0] = zeroIds.thread[1] = zeroIds.thread[2] = zero;
  }
  zeroIds.replaceOps(rw, outermost);
  rw.setInsertionPointAfter(outermost);
  for (Value buf : allocations)
    memref::DeallocOp::create(rw, loc, buf);
  rw.eraseOp(launch);
  return success();
}

struct GraphGPULaunchToLoopsPass
    : public graphopt::impl::GraphGPULaunchToLoopsPassBase<
          GraphGPULaunchToLoopsPass> {
  using Base::Base;

  LogicalResult emulate(IRRewriter &rewriter, gpu::LaunchOp launch) {
    Region &region = launch.getBody();
    if (!region.hasOneBlock())
      return launch.emitError("cannot emulate a kernel with several blocks");
    if (failed(expandTF32Conversions(rewriter, region)))
      return failure();
    if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty())
      return launch.emitError("cannot emulate an asynchronous launch");
    bool shuffles = false;
    region.walk([&](gpu::ShuffleOp) { shuffles = true; });
    WalkResult r = region.walk([&](Operation *op) {
      return isBlockCooperative(op) ? WalkResult::interrupt()
                                    : WalkResult::advance();
    });
    // Shuffles alone: the warp emulation; with block-level cooperation
    // too, the block emulation (shuffles as warp-collective points).
    if (shuffles && !r.wasInterrupted())
      return emulateWarps(rewriter, launch);
    if (r.wasInterrupted() || !launch.getWorkgroupAttributions().empty() ||
        !launch.getPrivateAttributions().empty())
      return BlockEmulation(rewriter, launch).run();
    Location loc = launch.getLoc();
    rewriter.setInsertionPoint(launch);
    gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    // Loops: grid z, y, x, then block z, y, x.
    SmallVector<Value> ivs;
    Operation *outermost =
        buildLoopNest(rewriter, loc,
                      {grid.z, grid.y, grid.x, block.z, block.y, block.x}, ivs);
    // The body's arguments and id ops: the loops' ivs and the sizes.
    EmulatedIds ids{
        {ivs[2], ivs[1], ivs[0]}, {ivs[5], ivs[4], ivs[3]}, grid, block};
    IRMapping map;
    ids.map(launch, map);
    for (Operation &op : region.front().without_terminator())
      rewriter.clone(op, map);
    ids.replaceOps(rewriter, outermost);
    rewriter.eraseOp(launch);
    return success();
  }

  /// A warp kernel (graph-gpu-map-reductions, graph-gpu-row-kernels):
  /// blockDim.x = 32 lanes, whose shuffles sit in one block -- the launch
  /// body or the then-block of one `scf.if` after side-effect-free ops (the
  /// ids, the row guard, uniform across a warp as those kernels require).
  /// Emulated warp by warp in lockstep at the shuffles: the block's ops
  /// between two shuffles run as a loop over the 32 lanes; a value a later
  /// piece (or a shuffle) uses is kept per lane in a 32-element buffer; a
  /// shuffle is a loop reading its operand's buffer at the source lane
  /// (xor, down, up or idx, with the validity flag as on a GPU).
  LogicalResult emulateWarps(IRRewriter &rewriter, gpu::LaunchOp launch) {
    Block &body = launch.getBody().front();
    gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    auto fail = [&](const Twine &why) {
      return launch.emitError("cannot emulate this warp kernel: ") << why;
    };
    if (getConstantIntValue(block.x) != graphopt::kWarpSize)
      return fail("blockDim.x is not 32 (the lanes of a warp)");
    if (!launch.getWorkgroupAttributions().empty() ||
        !launch.getPrivateAttributions().empty())
      return fail("it has memory attributions");
    WalkResult other = body.walk([&](Operation *op) {
      if (isBlockCooperative(op))
        return WalkResult::interrupt();
      if (auto sh = dyn_cast<gpu::ShuffleOp>(op);
          sh && getConstantIntValue(sh.getWidth()) != graphopt::kWarpSize)
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (other.wasInterrupted())
      return fail("it has barriers, shared memory, tensor-core ops or a "
                  "shuffle narrower than the warp");
    // The block holding the shuffles: the then-block of an `scf.if` (no
    // else, no results, last in the body) after pure ops (the prefix, run
    // for every lane), or else the body itself.
    SmallVector<Operation *> prefix;
    Block *warpBlock = &body;
    scf::IfOp guard;
    for (Operation &op : body.without_terminator()) {
      bool holds = false;
      op.walk([&](gpu::ShuffleOp) { holds = true; });
      if (!holds) {
        prefix.push_back(&op);
        continue;
      }
      auto ifOp = dyn_cast<scf::IfOp>(op);
      if (ifOp && ifOp.getNumResults() == 0 && ifOp.getElseRegion().empty() &&
          op.getNextNode() == body.getTerminator()) {
        guard = ifOp;
        warpBlock = guard.thenBlock();
      }
      break;
    }
    if (!guard)
      prefix.clear();
    for (Operation *op : prefix)
      if (op->getNumRegions() != 0 || !isMemoryEffectFree(op))
        return fail("an op before its shuffles' branch has effects or "
                    "regions");
    for (Operation &op : *warpBlock)
      op.walk([&](gpu::ShuffleOp sh) {
        if (sh->getBlock() != warpBlock)
          guard = nullptr, warpBlock = nullptr;
      });
    if (!warpBlock)
      return fail("a shuffle is nested in a loop or branch");

    Location loc = launch.getLoc();
    rewriter.setInsertionPoint(launch);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value lanes =
        arith::ConstantIndexOp::create(rewriter, loc, graphopt::kWarpSize);

    // Pieces: the warp block's ops split at its shuffles.
    SmallVector<SmallVector<Operation *>> pieces(1);
    SmallVector<gpu::ShuffleOp> shuffleOps;
    for (Operation &op : warpBlock->without_terminator()) {
      if (auto sh = dyn_cast<gpu::ShuffleOp>(op)) {
        shuffleOps.push_back(sh);
        pieces.emplace_back();
        continue;
      }
      pieces.back().push_back(&op);
    }
    // Where each warp-block value is defined, in program order: piece i at
    // 2 i, shuffle i (between pieces i and i + 1) at 2 i + 1. Values used
    // in a later piece or by a shuffle get lane buffers, allocated before
    // the loops (the stack does not grow per warp).
    DenseMap<Value, int> definedIn;
    for (auto [i, piece] : llvm::enumerate(pieces))
      for (Operation *op : piece)
        for (Value r : op->getResults())
          definedIn[r] = 2 * static_cast<int>(i);
    for (auto [i, sh] : llvm::enumerate(shuffleOps))
      for (Value r : sh->getResults())
        definedIn[r] = 2 * static_cast<int>(i) + 1;
    DenseMap<Value, Value> buffers;
    auto bufferFor = [&](Value v) {
      auto it = buffers.find(v);
      if (it != buffers.end())
        return it->second;
      Value buf = memref::AllocaOp::create(
          rewriter, loc, MemRefType::get({graphopt::kWarpSize}, v.getType()));
      buffers[v] = buf;
      return buf;
    };
    // Which values each piece (and shuffle) reads from earlier pieces.
    auto usedFromEarlier = [&](ArrayRef<Operation *> ops, int index) {
      llvm::SetVector<Value> used;
      for (Operation *op : ops)
        op->walk([&](Operation *inner) {
          for (Value v : inner->getOperands()) {
            auto it = definedIn.find(v);
            if (it != definedIn.end() && it->second < index)
              used.insert(v);
          }
        });
      return used;
    };
    SmallVector<llvm::SetVector<Value>> pieceInputs;
    for (auto [i, piece] : llvm::enumerate(pieces))
      pieceInputs.push_back(usedFromEarlier(piece, 2 * static_cast<int>(i)));
    for (auto &inputs : pieceInputs)
      for (Value v : inputs)
        (void)bufferFor(v);
    for (gpu::ShuffleOp sh : shuffleOps) {
      for (Value v : {Value(sh.getValue()), Value(sh.getOffset())})
        if (!definedIn.count(v) && !matchPattern(v, m_Constant()))
          return fail("a shuffle operand is not computed in its block");
      (void)bufferFor(sh.getValue());
      if (definedIn.count(sh.getOffset()))
        (void)bufferFor(sh.getOffset());
    }

    // Loops: grid z, y, x, then block z, y (a warp per iteration).
    SmallVector<Value> ivs;
    Operation *outermost = buildLoopNest(
        rewriter, loc, {grid.z, grid.y, grid.x, block.z, block.y}, ivs);
    // The ids: thread x is the lane of the loop the ops are in.
    EmulatedIds warpIds{
        {ivs[2], ivs[1], ivs[0]}, {Value(), ivs[4], ivs[3]}, grid, block};
    IRMapping base;
    warpIds.map(launch, base);
    gpu::KernelDim3 tid = launch.getThreadIds();
    auto replaceIds = [&](Operation *root, Value lane) {
      EmulatedIds ids = warpIds;
      ids.thread[0] = lane;
      ids.replaceOps(rewriter, root);
    };
    // The prefix for one lane, into `map`.
    auto clonePrefix = [&](IRMapping &map, Value lane) {
      map.map(tid.x, lane);
      for (Operation *op : prefix)
        rewriter.clone(*op, map);
    };
    // The guard's condition is uniform across the warp: lane 0's.
    if (guard) {
      IRMapping map = base;
      clonePrefix(map, zero);
      auto ifOp = scf::IfOp::create(rewriter, loc,
                                    map.lookupOrDefault(guard.getCondition()),
                                    /*withElseRegion=*/false);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
    }
    auto laneLoop = [&](llvm::function_ref<void(Value)> fill) {
      auto loop = scf::ForOp::create(rewriter, loc, zero, lanes, one);
      OpBuilder::InsertionGuard g(rewriter);
      rewriter.setInsertionPoint(loop.getBody()->getTerminator());
      fill(loop.getInductionVar());
      replaceIds(loop, loop.getInductionVar());
    };
    for (size_t i = 0; i < pieces.size(); ++i) {
      ArrayRef<Operation *> piece = pieces[i];
      if (i > 0) {
        // Shuffle i - 1: every lane reads its source lane's value.
        gpu::ShuffleOp sh = shuffleOps[i - 1];
        laneLoop([&](Value lane) {
          Value offset = sh.getOffset();
          if (definedIn.count(offset))
            offset = memref::LoadOp::create(rewriter, loc, buffers[offset],
                                            ValueRange{lane});
          else
            offset = rewriter.clone(*offset.getDefiningOp())->getResult(0);
          Value off = arith::IndexCastOp::create(
              rewriter, loc, rewriter.getIndexType(), offset);
          Value src = shuffleSource(rewriter, loc, sh.getMode(), lane, off);
          // Valid: the source lane exists.
          Value valid = arith::CmpIOp::create(
              rewriter, loc, arith::CmpIPredicate::ult, src, lanes);
          Value from = arith::SelectOp::create(rewriter, loc, valid, src, lane);
          Value v = memref::LoadOp::create(
              rewriter, loc, buffers[sh.getValue()], ValueRange{from});
          if (buffers.count(sh.getShuffleResult()))
            memref::StoreOp::create(rewriter, loc, v,
                                    buffers[sh.getShuffleResult()],
                                    ValueRange{lane});
          if (buffers.count(sh.getValid()))
            memref::StoreOp::create(rewriter, loc, valid,
                                    buffers[sh.getValid()], ValueRange{lane});
        });
      }
      laneLoop([&](Value lane) {
        IRMapping map = base;
        clonePrefix(map, lane);
        for (Value v : pieceInputs[i])
          map.map(v, memref::LoadOp::create(rewriter, loc, buffers[v],
                                            ValueRange{lane}));
        for (Operation *op : piece) {
          Operation *copy = rewriter.clone(*op, map);
          for (auto [from, to] :
               llvm::zip(op->getResults(), copy->getResults()))
            if (buffers.count(from))
              memref::StoreOp::create(rewriter, loc, to, buffers[from],
                                      ValueRange{lane});
        }
      });
    }
    // Ids left outside the lane loops (the guard's prefix): lane 0's.
    replaceIds(outermost, zero);
    rewriter.eraseOp(launch);
    return success();
  }

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk([&](gpu::LaunchOp l) { launches.push_back(l); });
    for (gpu::LaunchOp launch : launches)
      if (failed(emulate(rewriter, launch)))
        return signalPassFailure();
  }
};

} // namespace
