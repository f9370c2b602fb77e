//===- MemoryReport.cpp - graph-cpu-memory-report -------------------------===//
//
// Walks each public function of the bufferized module in program order,
// adding a static memref.alloc's bytes when it is reached and taking them
// away at its memref.dealloc (a call adds what the callee allocates, its
// temporaries live during the call): the peak of that sum is the most heap
// memory the call's buffers hold at once, the sum of all allocations what one
// buffer per tensor would hold.
//
//===----------------------------------------------------------------------===//

#include "MemoryPlan.h"
#include "graphopt/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHCPUMEMORYREPORTPASS
#include "graphopt/Codegen/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;

namespace {

/// Bytes of a statically shaped memref; nullopt when a dim is dynamic.
std::optional<int64_t> staticBytes(MemRefType type) {
  if (!type.hasStaticShape())
    return std::nullopt;
  unsigned bits = type.getElementTypeBitWidth();
  // i1 is stored as one byte.
  return type.getNumElements() * int64_t(std::max(8u, bits) / 8);
}

struct Buffer {
  int64_t bytes;
  Location loc;
};

/// What one call of a function allocates, its callees' allocations
/// included (kernels outlined into functions allocate their temporaries).
struct Usage {
  SmallVector<Buffer> heap;
  int64_t total = 0, peak = 0, dynamicCount = 0;
  int64_t stackCount = 0, stackBytes = 0;
  std::optional<Location> peakAt;
};

const Usage &usage(func::FuncOp fn, SymbolTableCollection &symbols,
                   llvm::DenseMap<Operation *, Usage> &memo) {
  if (auto it = memo.find(fn); it != memo.end())
    return it->second;
  Usage u;
  llvm::DenseMap<Value, int64_t> live;
  int64_t current = 0;
  auto reach = [&](int64_t bytes, Location loc) {
    if (current + bytes > u.peak) {
      u.peak = current + bytes;
      u.peakAt = loc;
    }
  };
  fn.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      std::optional<int64_t> bytes = staticBytes(alloc.getType());
      if (!bytes) {
        ++u.dynamicCount;
        return;
      }
      u.heap.push_back({*bytes, alloc.getLoc()});
      u.total += *bytes;
      live[alloc.getResult()] = *bytes;
      reach(*bytes, alloc.getLoc());
      current += *bytes;
    } else if (auto alloca = dyn_cast<memref::AllocaOp>(op)) {
      ++u.stackCount;
      u.stackBytes += staticBytes(alloca.getType()).value_or(0);
    } else if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
      auto it = live.find(dealloc.getMemref());
      if (it != live.end()) {
        current -= it->second;
        live.erase(it);
      }
    } else if (auto call = dyn_cast<func::CallOp>(op)) {
      // A kernel's temporaries, live during the call (freed by its end).
      auto callee = symbols.lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      if (!callee || callee.isExternal() || callee == fn)
        return;
      const Usage &c = usage(callee, symbols, memo);
      u.heap.append(c.heap.begin(), c.heap.end());
      u.total += c.total;
      u.dynamicCount += c.dynamicCount;
      u.stackCount += c.stackCount;
      u.stackBytes += c.stackBytes;
      if (c.peakAt)
        reach(c.peak, *c.peakAt);
    }
  });
  return memo[fn] = std::move(u);
}

void report(func::FuncOp fn, SymbolTableCollection &symbols,
            llvm::raw_ostream &os) {
  llvm::DenseMap<Operation *, Usage> memo;
  const Usage &u = usage(fn, symbols, memo);
  os << "graph-cpu-memory-report: @" << fn.getName() << ": " << u.heap.size()
     << " heap buffer" << (u.heap.size() == 1 ? "" : "s") << ", " << u.total
     << " bytes in all; peak " << u.peak << " bytes live at once";
  if (u.total > 0)
    os << llvm::format(" (%.1f%% of one buffer per tensor: %lld bytes saved "
                       "by freeing dead buffers)",
                       100.0 * double(u.peak) / double(u.total),
                       (long long)(u.total - u.peak));
  os << "; " << u.stackCount << " stack buffer"
     << (u.stackCount == 1 ? "" : "s") << " (" << u.stackBytes << " bytes)";
  if (u.dynamicCount)
    os << "; " << u.dynamicCount << " heap buffer"
       << (u.dynamicCount == 1 ? "" : "s")
       << " of dynamic size not counted (sized at run time)";
  os << "\n";
  if (u.peakAt)
    os << "  peak reached at the allocation at " << *u.peakAt << "\n";
  // The largest buffers, largest first (ties in program order).
  SmallVector<Buffer> largest(u.heap);
  llvm::stable_sort(largest, [](const Buffer &a, const Buffer &b) {
    return a.bytes > b.bytes;
  });
  for (const Buffer &b : ArrayRef(largest).take_front(3))
    os << "  " << b.bytes << " bytes allocated at " << b.loc << "\n";
  graphopt::MemoryPlan plan = graphopt::planMemory(fn);
  if (!plan.buffers.empty()) {
    int64_t planned = 0;
    for (graphopt::PlannedBuffer &p : plan.buffers)
      planned += staticBytes(p.alloc.getType()).value_or(0);
    os << "  arena: " << plan.buffers.size() << " of these buffers (" << planned
       << " bytes) share one block of " << plan.arenaBytes
       << " bytes, allocated once per call at offsets planned at compile "
          "time (graph-cpu-plan-memory)\n";
  }
}

struct GraphCPUMemoryReportPass
    : public graphopt::impl::GraphCPUMemoryReportPassBase<
          GraphCPUMemoryReportPass> {
  using Base::Base;
  void runOnOperation() override {
    std::unique_ptr<llvm::ToolOutputFile> file;
    llvm::raw_ostream *os = &llvm::errs();
    if (output != "-") {
      std::error_code ec;
      file = std::make_unique<llvm::ToolOutputFile>(output, ec,
                                                    llvm::sys::fs::OF_Text);
      if (ec) {
        getOperation()->emitError() << "cannot write the memory report to '"
                                    << output << "': " << ec.message();
        return signalPassFailure();
      }
      os = &file->os();
    }
    SymbolTableCollection symbols;
    for (auto fn : getOperation().getOps<func::FuncOp>())
      if (!fn.isExternal() && fn.isPublic())
        report(fn, symbols, *os);
    if (file)
      file->keep();
  }
};

} // namespace
