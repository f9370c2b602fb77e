//===- MemoryReport.cpp - graph-cpu-memory-report -------------------------===//
//
// Walks each public function of the bufferized module in program order,
// adding a static memref.alloc's bytes when it is reached and taking them
// away at its memref.dealloc: the peak of that sum is the most heap memory
// the call's buffers hold at once, the sum of all allocations what one
// buffer per tensor would hold.
//
//===----------------------------------------------------------------------===//

#include "MemoryPlan.h"
#include "graphopt/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
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

void report(func::FuncOp fn, llvm::raw_ostream &os) {
  llvm::DenseMap<Value, int64_t> live;
  SmallVector<Buffer> heap;
  int64_t total = 0, current = 0, peak = 0, dynamicCount = 0;
  int64_t stackCount = 0, stackBytes = 0;
  std::optional<Location> peakAt;
  fn.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      std::optional<int64_t> bytes = staticBytes(alloc.getType());
      if (!bytes) {
        ++dynamicCount;
        return;
      }
      heap.push_back({*bytes, alloc.getLoc()});
      total += *bytes;
      live[alloc.getResult()] = *bytes;
      current += *bytes;
      if (current > peak) {
        peak = current;
        peakAt = alloc.getLoc();
      }
    } else if (auto alloca = dyn_cast<memref::AllocaOp>(op)) {
      ++stackCount;
      stackBytes += staticBytes(alloca.getType()).value_or(0);
    } else if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
      auto it = live.find(dealloc.getMemref());
      if (it != live.end()) {
        current -= it->second;
        live.erase(it);
      }
    }
  });
  os << "graph-cpu-memory-report: @" << fn.getName() << ": " << heap.size()
     << " heap buffer" << (heap.size() == 1 ? "" : "s") << ", " << total
     << " bytes in all; peak " << peak << " bytes live at once";
  if (total > 0)
    os << llvm::format(" (%.1f%% of one buffer per tensor: %lld bytes saved "
                       "by freeing dead buffers)",
                       100.0 * double(peak) / double(total),
                       (long long)(total - peak));
  os << "; " << stackCount << " stack buffer" << (stackCount == 1 ? "" : "s")
     << " (" << stackBytes << " bytes)";
  if (dynamicCount)
    os << "; " << dynamicCount << " heap buffer"
       << (dynamicCount == 1 ? "" : "s")
       << " of dynamic size not counted (sized at run time)";
  os << "\n";
  if (peakAt)
    os << "  peak reached at the allocation at " << *peakAt << "\n";
  // The largest buffers, largest first (ties in program order).
  SmallVector<Buffer> largest(heap);
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
    for (auto fn : getOperation().getOps<func::FuncOp>())
      if (!fn.isExternal() && fn.isPublic())
        report(fn, *os);
    if (file)
      file->keep();
  }
};

} // namespace
