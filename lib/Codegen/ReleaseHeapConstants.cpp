//===- ReleaseHeapConstants.cpp - graph-release-heap-constants ------------===//
//
// Frees the data of the large constants derived at compile time that
// nothing refers to any more (see the pass description in Passes.td and
// include/graphopt/Dialect/Graph/IR/HeapConstants.h).
//
//===----------------------------------------------------------------------===//

#include "graphopt/Codegen/Passes.h"
#include "graphopt/Dialect/Graph/IR/HeapConstants.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHRELEASEHEAPCONSTANTSPASS
#include "graphopt/Codegen/Passes.h.inc"
} // namespace mlir::graphopt

namespace {
struct GraphReleaseHeapConstantsPass
    : mlir::graphopt::impl::GraphReleaseHeapConstantsPassBase<
          GraphReleaseHeapConstantsPass> {
  using Base::Base;
  void runOnOperation() override {
    size_t freed = mlir::graphopt::releaseUnusedHeapConstants(getOperation());
    if (remark)
      getOperation()->emitRemark()
          << "freed " << freed << " bytes of unused constants";
  }
};
} // namespace
