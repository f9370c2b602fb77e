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

/// `v` as a constant, through the index products, sums and affine maps
/// that tiling and collapsing leave unfolded (a tile size times a step, a
/// ceildiv of an extent), or nullopt.
std::optional<int64_t> foldedConstant(Value v) {
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return c;
  Operation *op = v.getDefiningOp();
  if (auto apply = dyn_cast_or_null<affine::AffineApplyOp>(op)) {
    SmallVector<Attribute> operands;
    for (Value operand : apply.getMapOperands()) {
      std::optional<int64_t> c = foldedConstant(operand);
      if (!c)
        return std::nullopt;
      operands.push_back(IntegerAttr::get(operand.getType(), *c));
    }
    SmallVector<Attribute> results;
    if (failed(apply.getAffineMap().constantFold(operands, results)))
      return std::nullopt;
    return cast<IntegerAttr>(results[0]).getInt();
  }
  if (!op || !isa<arith::MulIOp, arith::AddIOp>(op))
    return std::nullopt;
  std::optional<int64_t> a = foldedConstant(op->getOperand(0));
  std::optional<int64_t> b = foldedConstant(op->getOperand(1));
  if (!a || !b)
    return std::nullopt;
  return isa<arith::MulIOp>(op) ? *a * *b : *a + *b;
}

/// The static extent of dim `d` of `loop`, or nullopt.
std::optional<int64_t> staticExtent(scf::ParallelOp loop, unsigned d) {
  auto lb = foldedConstant(loop.getLowerBound()[d]);
  auto ub = foldedConstant(loop.getUpperBound()[d]);
  auto step = foldedConstant(loop.getStep()[d]);
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

/// Makes the 1-D loop over blocks `blocks` a grid-stride loop of at most
/// `maxBlocks` blocks when it has more iterations than that: block `g` runs
/// the thread loop's body for blocks g, g + G, g + 2G, ... (G the grid),
/// inside the thread loop (an `scf.for` between the block and thread loops
/// would hide the thread loop from `gpu-map-parallel-loops`). Each thread
/// thus handles several vectors, one grid's width apart, and the launch has
/// a bounded grid. Loops whose body holds anything but pure index
/// computations around the one thread loop are left as they are.
void makeGridStride(RewriterBase &rewriter, scf::ParallelOp blocks,
                    int64_t maxBlocks) {
  if (blocks.getNumLoops() != 1 || !blocks.getInitVals().empty())
    return;
  scf::ParallelOp threads;
  SmallVector<Operation *> before;
  for (Operation &op : blocks.getBody()->without_terminator()) {
    if (auto p = dyn_cast<scf::ParallelOp>(op); p && !threads) {
      threads = p;
      continue;
    }
    if (threads || !isPure(&op))
      return;
    before.push_back(&op);
  }
  if (!threads || !threads.getInitVals().empty())
    return;
  // The thread loop's bounds must not depend on the block.
  for (Value v : threads->getOperands())
    if (blocks.getRegion().isAncestor(v.getParentRegion()))
      return;
  Value lb = blocks.getLowerBound()[0], ub = blocks.getUpperBound()[0],
        step = blocks.getStep()[0];
  std::optional<int64_t> trips = staticExtent(blocks, 0);
  if (trips && *trips <= maxBlocks)
    return;
  if (!trips && foldedConstant(step).value_or(0) <= 0)
    return;

  Location loc = blocks.getLoc();
  rewriter.setInsertionPoint(blocks);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value count, grid;
  // The grid evens out the blocks' trip counts: ceil(count / trips) blocks
  // of `trips` iterations each, trips = ceil(count / maxBlocks).
  if (trips) {
    count = arith::ConstantIndexOp::create(rewriter, loc, *trips);
    int64_t perBlock = llvm::divideCeil(*trips, maxBlocks);
    grid = arith::ConstantIndexOp::create(rewriter, loc,
                                          llvm::divideCeil(*trips, perBlock));
  } else {
    Value extent = arith::SubIOp::create(rewriter, loc, ub, lb);
    extent = arith::MaxSIOp::create(rewriter, loc, extent, zero);
    count = arith::CeilDivUIOp::create(rewriter, loc, extent, step);
    Value perBlock = arith::CeilDivUIOp::create(
        rewriter, loc, count,
        arith::ConstantIndexOp::create(rewriter, loc, maxBlocks));
    perBlock = arith::MaxUIOp::create(rewriter, loc, perBlock, one);
    grid = arith::CeilDivUIOp::create(rewriter, loc, count, perBlock);
  }
  auto newBlocks = scf::ParallelOp::create(rewriter, loc, ValueRange{zero},
                                           ValueRange{grid}, ValueRange{one});
  rewriter.setInsertionPointToStart(newBlocks.getBody());
  auto newThreads =
      scf::ParallelOp::create(rewriter, loc, threads.getLowerBound(),
                              threads.getUpperBound(), threads.getStep());
  rewriter.setInsertionPointToStart(newThreads.getBody());
  Value g = newBlocks.getInductionVars()[0];
  auto stride = scf::ForOp::create(rewriter, loc, g, count, grid);
  rewriter.setInsertionPointToStart(stride.getBody());
  IRMapping map;
  Value b = arith::AddIOp::create(
      rewriter, loc, lb,
      arith::MulIOp::create(rewriter, loc, stride.getInductionVar(), step));
  map.map(blocks.getInductionVars()[0], b);
  for (auto [from, to] :
       llvm::zip(threads.getInductionVars(), newThreads.getInductionVars()))
    map.map(from, to);
  for (Operation *op : before)
    rewriter.clone(*op, map);
  for (Operation &op : threads.getBody()->without_terminator())
    rewriter.clone(op, map);
  rewriter.eraseOp(blocks);
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
    IRRewriter rewriter(&getContext());
    for (scf::ParallelOp loop : graphopt::hostParallelLoops(getOperation())) {
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
    if (maxBlocks <= 0)
      return;
    // The (collapsed) block loops, found again: collapsing replaced them.
    for (scf::ParallelOp loop : graphopt::hostParallelLoops(getOperation()))
      makeGridStride(rewriter, loop, maxBlocks);
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
