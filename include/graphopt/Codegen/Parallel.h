//===- Parallel.h - loops whose iterations are independent ------*- C++ -*-===//
//
/// \file
/// Tiling marks the loops it creates over parallel dims (tiles of a matmul's
/// rows and columns, of a fused group's root, of an elementwise op, blocks
/// of the direct and depthwise convolutions) with a unit attribute. Their
/// iterations write disjoint parts of the result, so `graph-cpu-parallelize`
/// may run them on several threads once the code is on buffers.
/// Header-only: tiling passes of several libraries mark loops.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_CODEGEN_PARALLEL_H
#define GRAPHOPT_CODEGEN_PARALLEL_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/TilingInterface.h"

namespace mlir::graphopt {

/// The unit attribute on loops whose iterations are independent.
inline constexpr llvm::StringLiteral kParallelLoopAttr = "graphopt.parallel";

inline void markParallelLoop(Operation *loop) {
  loop->setAttr(kParallelLoopAttr, UnitAttr::get(loop->getContext()));
}

inline bool isMarkedParallel(Operation *loop) {
  return loop->hasAttr(kParallelLoopAttr);
}

/// Marks the loops that tiling `op` with `sizes` (0: not tiled) in
/// `interchange` order (empty: identity) created, outermost first, when
/// their dim is a parallel iterator of `op`.
template <typename LoopRange>
void markParallelTileLoops(const LoopRange &loops, TilingInterface op,
                           llvm::ArrayRef<int64_t> sizes,
                           llvm::ArrayRef<int64_t> interchange = {}) {
  llvm::SmallVector<utils::IteratorType> its = op.getLoopIteratorTypes();
  llvm::SmallVector<int64_t> order(interchange.begin(), interchange.end());
  if (order.empty())
    for (int64_t d = 0, e = sizes.size(); d < e; ++d)
      order.push_back(d);
  size_t next = 0;
  for (int64_t d : order) {
    if (d >= static_cast<int64_t>(sizes.size()) || sizes[d] == 0)
      continue;
    if (next >= static_cast<size_t>(std::size(loops)))
      return;
    Operation *loop = loops[next++];
    if (d < static_cast<int64_t>(its.size()) &&
        its[d] == utils::IteratorType::parallel)
      markParallelLoop(loop);
  }
}

} // namespace mlir::graphopt

#endif // GRAPHOPT_CODEGEN_PARALLEL_H
