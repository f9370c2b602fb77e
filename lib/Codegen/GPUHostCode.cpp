//===- GPUHostCode.cpp - host-side work moved onto the GPU ----------------===//
//
// Two small passes of the CUDA pipeline that keep tensor data on the device:
//
//  graph-gpu-copies-to-linalg  strided memref.copy -> linalg.copy (before
//                              linalg becomes parallel loops and kernels);
//  graph-gpu-serial-kernels    sequential work on tensor data (linalg ops
//                              without parallel loops, host loops) -> a
//                              gpu.launch of one thread.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Codegen/Passes.h"

#include "GPUUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHGPUCOPIESTOLINALGPASS
#define GEN_PASS_DEF_GRAPHGPUSERIALKERNELSPASS
#define GEN_PASS_DEF_GRAPHGPUSIMPLIFYTILEBOUNDSPASS
#define GEN_PASS_DEF_GRAPHGPUTILEPARALLELLOOPSPASS
#define GEN_PASS_DEF_GRAPHGPULAUNCHTOLOOPSPASS
#define GEN_PASS_DEF_GRAPHGPUPARALLELDIMSFIRSTPASS
#include "graphopt/Codegen/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;

namespace {

struct GraphGPUParallelDimsFirstPass
    : public graphopt::impl::GraphGPUParallelDimsFirstPassBase<
          GraphGPUParallelDimsFirstPass> {
  using Base::Base;
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::GenericOp> ops;
    getOperation().walk([&](linalg::GenericOp op) {
      if (op.hasPureBufferSemantics() &&
          !op->getParentOfType<gpu::LaunchOp>())
        ops.push_back(op);
    });
    for (linalg::GenericOp op : ops) {
      SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
      SmallVector<unsigned> order;
      for (auto [i, t] : llvm::enumerate(iterators))
        if (t == utils::IteratorType::parallel)
          order.push_back(i);
      for (auto [i, t] : llvm::enumerate(iterators))
        if (t != utils::IteratorType::parallel)
          order.push_back(i);
      if (llvm::equal(order, llvm::seq<unsigned>(0, iterators.size())))
        continue;
      rewriter.setInsertionPoint(op);
      if (failed(linalg::interchangeGenericOp(rewriter, op, order)))
        return signalPassFailure();
    }
  }
};

struct GraphGPUCopiesToLinalgPass
    : public graphopt::impl::GraphGPUCopiesToLinalgPassBase<
          GraphGPUCopiesToLinalgPass> {
  using Base::Base;
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp c) { copies.push_back(c); });
    for (memref::CopyOp copy : copies) {
      auto src = cast<MemRefType>(copy.getSource().getType());
      auto dst = cast<MemRefType>(copy.getTarget().getType());
      if (src.getLayout().isIdentity() && dst.getLayout().isIdentity())
        continue;
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                  copy.getTarget());
    }
  }
};

/// A linalg op without parallel loops (a reduction of a whole tensor to a
/// scalar, a 0-d computation): parallel-loop mapping leaves it on the host.
bool isSequentialLinalg(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.hasPureBufferSemantics() &&
         linalgOp.getNumParallelLoops() == 0;
}

/// A load or store of tensor data (not of host scratch memory such as the
/// memref.alloca buffers of the deallocation helpers).
bool accessesTensorData(Operation *op) {
  Value memref = graphopt::getAccessedMemRef(op);
  return memref && !memref.getDefiningOp<memref::AllocaOp>() &&
         !graphopt::isHostScratch(memref);
}

/// Whether top-level `op` must run as a one-thread kernel: it reads or
/// writes memory, has no results, and contains no allocation, call, GPU op
/// or linalg op with parallel loops (those get kernels of their own).
bool isSerialKernelCandidate(Operation *op) {
  if (isSequentialLinalg(op))
    return true;
  if (op->getNumResults() != 0 ||
      !isa<scf::ForOp, scf::WhileOp, scf::IfOp, memref::StoreOp>(op))
    return false;
  if (isa<memref::StoreOp>(op) && !accessesTensorData(op))
    return false;
  bool touchesMemory = false;
  WalkResult r = op->walk([&](Operation *inner) {
    if (isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp,
            func::CallOp, scf::ParallelOp>(inner) ||
        inner->getDialect()->getNamespace() == "gpu" ||
        (isa<linalg::LinalgOp>(inner) && !isSequentialLinalg(inner)))
      return WalkResult::interrupt();
    if (isa<memref::LoadOp, memref::StoreOp, linalg::LinalgOp>(inner))
      touchesMemory = true;
    return WalkResult::advance();
  });
  return !r.wasInterrupted() && touchesMemory;
}


/// Straight-line work that may join a serial kernel: tensor element
/// accesses and scalar arithmetic.
bool isStraightLine(Operation *op) {
  if (accessesTensorData(op))
    return true;
  StringRef ns = op->getDialect() ? op->getDialect()->getNamespace() : "";
  return op->getNumRegions() == 0 && (ns == "arith" || ns == "math");
}

struct GraphGPUSerialKernelsPass
    : public graphopt::impl::GraphGPUSerialKernelsPassBase<
          GraphGPUSerialKernelsPass> {
  using Base::Base;

  /// Wraps `run` (consecutive ops of one block) in a one-thread gpu.launch
  /// placed after its last op. What the host uses after the run (index
  /// arithmetic, with what it is computed from) stays outside if it has no
  /// memory effects; otherwise nothing is wrapped.
  void wrap(IRRewriter &rewriter, ArrayRef<Operation *> run) {
    llvm::SmallPtrSet<Operation *, 16> inRun(run.begin(), run.end());
    // What the host needs after the run stays outside, with everything of
    // the run it is computed from; that must all be free of memory effects
    // (it then runs before the kernel: a load could read what the kernel
    // has not written yet), else nothing is wrapped.
    llvm::SmallPtrSet<Operation *, 16> outside;
    SmallVector<Operation *> worklist;
    for (Operation *op : run)
      if (llvm::any_of(op->getUsers(), [&](Operation *user) {
            Operation *top = op->getBlock()->findAncestorOpInBlock(*user);
            return !top || !inRun.contains(top);
          }))
        worklist.push_back(op);
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      if (!outside.insert(op).second)
        continue;
      if (!isMemoryEffectFree(op))
        return;
      for (Value v : op->getOperands())
        if (Operation *def = v.getDefiningOp(); def && inRun.contains(def))
          worklist.push_back(def);
    }
    llvm::SetVector<Operation *> inside;
    for (Operation *op : run)
      if (!outside.contains(op))
        inside.insert(op);
    if (!llvm::any_of(inside, [](Operation *op) {
          return accessesTensorData(op) || !isStraightLine(op);
        }))
      return;
    Location loc = inside.back()->getLoc();
    rewriter.setInsertionPointAfter(run.back());
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto launch =
        gpu::LaunchOp::create(rewriter, loc, one, one, one, one, one, one);
    Block &body = launch.getBody().front();
    rewriter.setInsertionPointToStart(&body);
    auto terminator = gpu::TerminatorOp::create(rewriter, loc);
    for (Operation *op : inside)
      rewriter.moveOpBefore(op, terminator);
  }

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // Runs of top-level ops only: nested host control flow (an scf.if whose
    // condition was read on the host) is left alone.
    SmallVector<SmallVector<Operation *>> runs;
    if (graphopt::isDeallocHelper(getOperation()))
      return;
    for (Block &block : getOperation().getBody()) {
      SmallVector<Operation *> run;
      for (Operation &op : block) {
        if (isSerialKernelCandidate(&op) || isStraightLine(&op)) {
          run.push_back(&op);
          continue;
        }
        if (!run.empty())
          runs.push_back(std::move(run));
        run.clear();
      }
      if (!run.empty())
        runs.push_back(std::move(run));
    }
    for (ArrayRef<Operation *> run : runs)
      wrap(rewriter, run);
  }
};

/// The static extent of dim `d` of `loop`, or nullopt.
std::optional<int64_t> staticExtent(scf::ParallelOp loop, unsigned d) {
  auto lb = getConstantIntValue(loop.getLowerBound()[d]);
  auto ub = getConstantIntValue(loop.getUpperBound()[d]);
  auto step = getConstantIntValue(loop.getStep()[d]);
  if (!lb || !ub || !step || *step <= 0)
    return std::nullopt;
  return llvm::divideCeil(std::max<int64_t>(*ub - *lb, 0), *step);
}

/// Threads per dim of `loop`'s block (see the pass description).
SmallVector<int64_t> blockShape(scf::ParallelOp loop, int64_t blockSize) {
  unsigned rank = loop.getNumLoops();
  SmallVector<int64_t> sizes(rank, 1);
  auto fit = [&](unsigned d, int64_t limit) {
    int64_t n = limit;
    if (std::optional<int64_t> e = staticExtent(loop, d))
      n = std::min<int64_t>(limit, llvm::PowerOf2Ceil(std::max<int64_t>(*e, 1)));
    return std::max<int64_t>(n, 1);
  };
  if (rank == 1) {
    sizes[0] = fit(0, blockSize);
    return sizes;
  }
  sizes[rank - 1] = fit(rank - 1, std::min<int64_t>(32, blockSize));
  sizes[rank - 2] = fit(rank - 2, std::max<int64_t>(blockSize / sizes[rank - 1], 1));
  return sizes;
}

struct GraphGPUTileParallelLoopsPass
    : public graphopt::impl::GraphGPUTileParallelLoopsPassBase<
          GraphGPUTileParallelLoopsPass> {
  using Base::Base;
  void runOnOperation() override {
    if (blockSize < 1 || blockSize > 1024) {
      getOperation().emitError() << "block-size must be in [1, 1024], got "
                                 << blockSize;
      return signalPassFailure();
    }
    SmallVector<scf::ParallelOp> loops;
    getOperation().walk([&](scf::ParallelOp loop) {
      if (!loop->getParentOfType<scf::ParallelOp>() &&
          !loop->getParentOfType<gpu::LaunchOp>())
        loops.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ParallelOp loop : loops) {
      auto [blocks, threads] = scf::tileParallelLoop(
          loop, blockShape(loop, blockSize), /*noMinMaxBounds=*/true);
      // A block has three thread dims: the outer ones of a rank >= 4 loop
      // (of size 1 but for the one next to the last two) are collapsed
      // into one, so that the innermost, contiguous dim stays the x
      // threads and a warp reads consecutive elements (mapped as they
      // were, the innermost dim became a sequential loop in each thread:
      // an NCHW add ran 8 threads per block, a row apart).
      unsigned threadRank = threads.getNumLoops();
      if (threadRank > 3) {
        std::vector<unsigned> outer(threadRank - 2);
        std::iota(outer.begin(), outer.end(), 0u);
        rewriter.setInsertionPoint(threads);
        collapseParallelLoops(rewriter, threads,
                              {outer, {threadRank - 2}, {threadRank - 1}});
      }
      // The blocks form a 1-D grid (x: up to 2^31 - 1 blocks; y and z
      // allow only 65535, too few for large tensors): the loop over blocks
      // is collapsed into one dimension, delinearized in the kernel.
      unsigned rank = blocks.getNumLoops();
      if (rank > 1) {
        std::vector<unsigned> all(rank);
        std::iota(all.begin(), all.end(), 0u);
        rewriter.setInsertionPoint(blocks);
        collapseParallelLoops(rewriter, blocks, {all});
      }
    }
  }
};

struct GraphGPUSimplifyTileBoundsPass
    : public graphopt::impl::GraphGPUSimplifyTileBoundsPassBase<
          GraphGPUSimplifyTileBoundsPass> {
  using Base::Base;
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    affine::AffineMinOp::getCanonicalizationPatterns(patterns, ctx);
    affine::AffineMaxOp::getCanonicalizationPatterns(patterns, ctx);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, ctx);
    // The greedy driver also folds constant arith ops (tile size * step).
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

/// Ops through which a block's threads communicate other than shuffles
/// (barriers, shared memory, collective reductions, tensor-core fragments):
/// the emulation runs none of them.
bool isBlockCooperative(Operation *op) {
  return isa<gpu::BarrierOp, gpu::SubgroupReduceOp, gpu::AllReduceOp,
             gpu::SubgroupMmaLoadMatrixOp, gpu::SubgroupMmaComputeOp,
             gpu::SubgroupMmaStoreMatrixOp, gpu::DynamicSharedMemoryOp>(op);
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

struct GraphGPULaunchToLoopsPass
    : public graphopt::impl::GraphGPULaunchToLoopsPassBase<
          GraphGPULaunchToLoopsPass> {
  using Base::Base;

  LogicalResult emulate(IRRewriter &rewriter, gpu::LaunchOp launch) {
    Region &region = launch.getBody();
    if (!region.hasOneBlock())
      return launch.emitError("cannot emulate a kernel with several blocks");
    if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty())
      return launch.emitError("cannot emulate an asynchronous launch");
    bool shuffles = false;
    region.walk([&](gpu::ShuffleOp) { shuffles = true; });
    if (shuffles)
      return emulateWarps(rewriter, launch);
    WalkResult r = region.walk([&](Operation *op) {
      return isBlockCooperative(op) ? WalkResult::interrupt()
                                    : WalkResult::advance();
    });
    if (r.wasInterrupted() || !launch.getWorkgroupAttributions().empty() ||
        !launch.getPrivateAttributions().empty())
      return launch.emitError(
          "cannot emulate a kernel whose threads communicate (barriers, "
          "shared memory, collective or tensor-core ops)");
    Location loc = launch.getLoc();
    rewriter.setInsertionPoint(launch);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    // Loops: grid z, y, x, then block z, y, x.
    Value bounds[6] = {grid.z, grid.y, grid.x, block.z, block.y, block.x};
    Value ivs[6];
    Operation *outermost = nullptr;
    for (int i = 0; i < 6; ++i) {
      auto loop = scf::ForOp::create(rewriter, loc, zero, bounds[i], one);
      if (!outermost)
        outermost = loop;
      ivs[i] = loop.getInductionVar();
      rewriter.setInsertionPointToStart(loop.getBody());
    }
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
    Value bounds[5] = {grid.z, grid.y, grid.x, block.z, block.y};
    Value ivs[5];
    Operation *outermost = nullptr;
    for (int i = 0; i < 5; ++i) {
      auto loop = scf::ForOp::create(rewriter, loc, zero, bounds[i], one);
      if (!outermost)
        outermost = loop;
      ivs[i] = loop.getInductionVar();
      rewriter.setInsertionPointToStart(loop.getBody());
    }
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
          Value src;
          switch (sh.getMode()) {
          case gpu::ShuffleMode::XOR:
            src = arith::XOrIOp::create(rewriter, loc, lane, off);
            break;
          case gpu::ShuffleMode::DOWN:
            src = arith::AddIOp::create(rewriter, loc, lane, off);
            break;
          case gpu::ShuffleMode::UP:
            src = arith::SubIOp::create(rewriter, loc, lane, off);
            break;
          case gpu::ShuffleMode::IDX:
            src = off;
            break;
          }
          // Valid: the source lane exists (an index below 0 wraps to a
          // large unsigned value).
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
