//===- MemoryPlan.h - Compile-time arena of a function's buffers -*- C++
//-*-===//
//
/// \file
/// The plan graph-cpu-plan-memory applies and graph-cpu-memory-report
/// describes: which statically sized buffers of a function's body share one
/// arena, and at which offsets.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_LIB_CODEGEN_MEMORYPLAN_H
#define GRAPHOPT_LIB_CODEGEN_MEMORYPLAN_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::graphopt {

/// Offsets in the arena are multiples of this (a cache line, and the widest
/// vector load).
inline constexpr int64_t kArenaAlignment = 64;

/// A buffer of the arena: its alloc and dealloc, their positions in the
/// function's block (its lifetime), its bytes rounded up to the alignment,
/// and its offset.
struct PlannedBuffer {
  memref::AllocOp alloc;
  memref::DeallocOp dealloc;
  int64_t start, end, bytes, offset = -1;
};

struct MemoryPlan {
  SmallVector<PlannedBuffer> buffers; // empty: nothing to plan
  int64_t arenaBytes = 0;
};

/// The arena of `fn`'s body (see GraphCPUPlanMemoryPass in Passes.td);
/// changes nothing.
MemoryPlan planMemory(func::FuncOp fn);

} // namespace mlir::graphopt

#endif // GRAPHOPT_LIB_CODEGEN_MEMORYPLAN_H
