//===- Parallelize.cpp - graph-cpu-parallelize ----------------------------===//
//
// Marked tile loops (graphopt/Codegen/Parallel.h) -> scf.parallel, on
// buffers, for convert-scf-to-openmp. One loop per nest, the outermost one
// with enough work; it runs right after bufferization, while each tile's
// temporaries are still allocated inside the loop (buffer-loop-hoisting
// does not hoist out of scf.parallel, so they stay private to a thread).
// A temporary that bufferization allocated outside the loop (its
// tensor.empty was outside) and that only the loop uses is moved in.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Codegen/Parallel.h"
#include "graphopt/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHCPUPARALLELIZEPASS
#include "graphopt/Codegen/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;

namespace {

std::optional<int64_t> tripCount(scf::ForOp loop) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()),
                         ub = getConstantIntValue(loop.getUpperBound()),
                         step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step || *step <= 0)
    return std::nullopt;
  return *ub > *lb ? (*ub - *lb + *step - 1) / *step : 0;
}

/// Operations the region runs, loops multiplied by their trip counts
/// (unknown: 1), a vector op counting once per 512 bits of its result.
int64_t estimateWork(Region &region);
int64_t estimateWork(Operation *op) {
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return tripCount(loop).value_or(1) * estimateWork(loop.getRegion());
  int64_t own = 1;
  for (Type t : op->getResultTypes())
    if (auto v = dyn_cast<VectorType>(t)) {
      Type e = v.getElementType();
      int64_t bits = e.isIntOrFloat() ? e.getIntOrFloatBitWidth() : 64;
      own = std::max<int64_t>(own, v.getNumElements() * bits / 512);
    }
  for (Region &r : op->getRegions())
    own += estimateWork(r);
  return own;
}
int64_t estimateWork(Region &region) {
  int64_t work = 0;
  for (Block &block : region)
    for (Operation &op : block)
      work += estimateWork(&op);
  return work;
}

/// True when `v` is `buffer` passed through: itself, or the result of a
/// loop that takes `buffer` in and yields it back unchanged.
bool passesThrough(Value v, Value buffer) {
  if (v == buffer)
    return true;
  auto result = dyn_cast<OpResult>(v);
  auto loop = result ? dyn_cast<scf::ForOp>(result.getOwner()) : nullptr;
  if (!loop)
    return false;
  unsigned i = result.getResultNumber();
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  return passesThrough(loop.getInitArgs()[i], buffer) &&
         passesThrough(yield.getOperand(i), loop.getRegionIterArgs()[i]);
}

/// After bufferization a loop that updated a tensor in place carries the
/// buffer through its iter_args and yields it unchanged (possibly through
/// inner loops that do the same); such a loop is an scf.parallel writing
/// that buffer. Anything else is not converted.
bool carriesOnlyBuffers(scf::ForOp loop) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (auto [arg, yielded] :
       llvm::zip(loop.getRegionIterArgs(), yield.getOperands()))
    if (!isa<BaseMemRefType>(arg.getType()) || !passesThrough(yielded, arg))
      return false;
  return true;
}

/// The buffers `loop`'s body uses that are allocated outside it (in this
/// function, before it) would be shared by its iterations once they run in
/// parallel. One used only inside the loop (a temporary whose tensor.empty
/// bufferization placed outside, such as the score tile of a flash
/// attention reused by every head) is privatized: its allocation (and the
/// views of it made outside) move into the loop body, one per iteration.
/// That is what the program means: the buffer stood for a fresh tensor, so
/// no iteration reads what another wrote. Buffers also used outside the
/// loop (its outputs, written in disjoint tiles; inputs computed before
/// it) stay shared, as the loop's marks promise.
void privatizeTemporaries(RewriterBase &rewriter, scf::ForOp loop,
                          llvm::Statistic &numPrivatized) {
  // The loop's carried buffers are the ones its iterations write in
  // disjoint parts (carriesOnlyBuffers): shared by design.
  auto rootOf = [&](Value v) -> Operation * {
    Operation *def = v.getDefiningOp();
    while (def) {
      auto view = dyn_cast<ViewLikeOpInterface>(def);
      if (!view)
        break;
      def = view.getViewSource().getDefiningOp();
    }
    return def;
  };
  llvm::SmallPtrSet<Operation *, 4> carried;
  for (Value init : loop.getInitArgs())
    if (Operation *root = rootOf(init))
      carried.insert(root);
  // Allocations before the loop that its ops use, through views or not.
  llvm::SetVector<Operation *> allocs;
  loop.getBody()->walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      Operation *def = rootOf(operand);
      if (def && !loop->isAncestor(def) &&
          isa<memref::AllocOp, memref::AllocaOp>(def) && !carried.contains(def))
        allocs.insert(def);
    }
  });
  SmallVector<std::pair<Operation *, SmallVector<Operation *>>> toMove;
  for (Operation *alloc : allocs) {
    Value buffer = alloc->getResult(0);
    // The alloc's views outside the loop, and whether anything outside
    // the loop but those views uses it.
    SmallVector<Operation *> views;
    bool usedOutside = false;
    SmallVector<Value> worklist = {buffer};
    while (!worklist.empty()) {
      Value v = worklist.pop_back_val();
      for (Operation *user : v.getUsers()) {
        if (loop->isAncestor(user))
          continue;
        auto view = dyn_cast<ViewLikeOpInterface>(user);
        if (view && view.getViewSource() == v) {
          views.push_back(user);
          for (Value r : user->getResults())
            worklist.push_back(r);
          continue;
        }
        usedOutside = true;
      }
    }
    if (!usedOutside)
      toMove.push_back({alloc, views});
  }
  for (auto &[alloc, views] : toMove) {
    // Dynamic sizes defined outside stay visible inside.
    rewriter.moveOpBefore(alloc, &loop.getBody()->front());
    Operation *last = alloc;
    // Views in their order outside (each after what it uses).
    llvm::sort(views, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    for (Operation *view : views) {
      rewriter.moveOpAfter(view, last);
      last = view;
    }
    ++numPrivatized;
  }
}

void convertToParallel(RewriterBase &rewriter, scf::ForOp loop) {
  rewriter.setInsertionPoint(loop);
  auto parallel = scf::ParallelOp::create(
      rewriter, loop.getLoc(), ValueRange{loop.getLowerBound()},
      ValueRange{loop.getUpperBound()}, ValueRange{loop.getStep()});
  Block *body = parallel.getBody();
  // Move the loop's ops (not its yield) before the parallel body's
  // terminator; the induction variable and the carried buffers map to the
  // parallel loop's index and the buffers themselves.
  Block *old = loop.getBody();
  rewriter.replaceAllUsesWith(loop.getInductionVar(),
                              parallel.getInductionVars()[0]);
  for (auto [arg, init] :
       llvm::zip(loop.getRegionIterArgs(), loop.getInitArgs()))
    rewriter.replaceAllUsesWith(arg, init);
  Operation *yield = old->getTerminator();
  body->getOperations().splice(body->getTerminator()->getIterator(),
                               old->getOperations(), old->begin(),
                               yield->getIterator());
  rewriter.replaceOp(loop, loop.getInitArgs());
}

struct GraphCPUParallelizePass
    : mlir::graphopt::impl::GraphCPUParallelizePassBase<
          GraphCPUParallelizePass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    SmallVector<scf::ForOp> chosen;
    if (threads > 1) {
      fn.walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
        if (!graphopt::isMarkedParallel(loop))
          return WalkResult::advance();
        // Already inside a parallel loop (run again after deallocation, for
        // the loops graph-cpu-expand-copies adds): no nested teams.
        if (loop->getParentOfType<scf::ParallelOp>())
          return WalkResult::skip();
        std::optional<int64_t> trips = tripCount(loop);
        if (!trips || *trips < 2 || !carriesOnlyBuffers(loop))
          return WalkResult::advance();
        // Too little work here means too little in the loops inside.
        if (estimateWork(loop) < minWork)
          return WalkResult::skip();
        chosen.push_back(loop);
        return WalkResult::skip();
      });
    }
    IRRewriter rewriter(&getContext());
    for (scf::ForOp loop : chosen) {
      privatizeTemporaries(rewriter, loop, numPrivatized);
      convertToParallel(rewriter, loop);
      ++numParallelized;
    }
    fn.walk([](Operation *op) { op->removeAttr(graphopt::kParallelLoopAttr); });
  }
};

} // namespace
