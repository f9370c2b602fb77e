//===- ExpandCopies.cpp - graph-cpu-expand-copies -----------------------===//
//
// memref.copy between strided buffers -> scf.for loops of loads and stores.
// finalize-memref-to-llvm lowers a copy between contiguous buffers to a
// memcpy, and any other to a call of the runtime's memrefCopy, which copies
// element by element through the descriptors (a packed panel row of 16
// floats cost a call and ~1 us). Loops let LLVM vectorize the innermost
// dim instead, and leave AOT objects without a call into MLIR's runtime
// library (a dynamic concat's strided copies needed it).
//
//===----------------------------------------------------------------------===//

#include "graphopt/Codegen/Parallel.h"
#include "graphopt/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHCPUEXPANDCOPIESPASS
#include "graphopt/Codegen/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;

namespace {

/// True when `type` is laid out contiguously (row-major, no gaps), which
/// the memref lowering copies with memcpy.
bool isContiguous(MemRefType type) {
  return type.getLayout().isIdentity() ||
         type.areTrailingDimsContiguous(type.getRank());
}

/// Replaces `copy` with a loop nest over its shape (dynamic sizes read
/// from the source).
void expand(RewriterBase &rewriter, memref::CopyOp copy) {
  auto type = cast<MemRefType>(copy.getSource().getType());
  Location loc = copy.getLoc();
  rewriter.setInsertionPoint(copy);
  SmallVector<Value> ivs, bounds;
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  for (auto [d, size] : llvm::enumerate(type.getShape()))
    bounds.push_back(
        ShapedType::isDynamic(size)
            ? memref::DimOp::create(rewriter, loc, copy.getSource(), d)
                  .getResult()
            : arith::ConstantIndexOp::create(rewriter, loc, size).getResult());
  for (Value ub : bounds) {
    auto loop = scf::ForOp::create(rewriter, loc, zero, ub, one);
    // Every element is copied once: the iterations are independent (unit
    // dims fold away, so every loop is marked).
    graphopt::markParallelLoop(loop);
    rewriter.setInsertionPointToStart(loop.getBody());
    ivs.push_back(loop.getInductionVar());
  }
  Value v = memref::LoadOp::create(rewriter, loc, copy.getSource(), ivs);
  memref::StoreOp::create(rewriter, loc, v, copy.getTarget(), ivs);
  rewriter.eraseOp(copy);
}

struct GraphCPUExpandCopiesPass
    : public graphopt::impl::GraphCPUExpandCopiesPassBase<
          GraphCPUExpandCopiesPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) {
      auto source = dyn_cast<MemRefType>(copy.getSource().getType());
      auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
      if (!source || !target || source.getRank() == 0)
        return;
      if (isContiguous(source) && isContiguous(target))
        return;
      copies.push_back(copy);
    });
    IRRewriter rewriter(&getContext());
    for (memref::CopyOp copy : copies) {
      expand(rewriter, copy);
      ++numExpanded;
    }
  }
};

} // namespace
