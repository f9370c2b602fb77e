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

} // namespace
