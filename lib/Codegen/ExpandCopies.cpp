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

/// The first of the trailing dims of `type` that are laid out one after
/// the other (row-major, no gaps, static sizes): `rank` when not even the
/// last one is.
int64_t contiguousFrom(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return type.getRank();
  int64_t d = type.getRank(), expected = 1;
  while (d > 0 && !ShapedType::isDynamic(type.getDimSize(d - 1)) &&
         strides[d - 1] == expected) {
    expected *= type.getDimSize(d - 1);
    --d;
  }
  return d;
}

/// Bytes of the contiguous block a row copy moves at once (a memcpy): below
/// this, loops of loads and stores, which LLVM vectorizes for wider types.
constexpr int64_t kMinRowBytes = 256;

/// Replaces `copy` with a loop nest over its shape (dynamic sizes read
/// from the source). Where the trailing dims of both buffers are
/// contiguous (a padded image's rows, a concat's inner dims), the loops
/// run over the outer dims only and copy each block as one `memref.copy`
/// of contiguous memory (a memcpy): LLVM left byte-wide element loops
/// scalar (an int8 image's padding copy: ~1.3 ns per byte).
void expand(RewriterBase &rewriter, memref::CopyOp copy) {
  auto type = cast<MemRefType>(copy.getSource().getType());
  auto targetType = cast<MemRefType>(copy.getTarget().getType());
  Location loc = copy.getLoc();
  rewriter.setInsertionPoint(copy);
  int64_t rank = type.getRank();
  int64_t block = std::max(contiguousFrom(type), contiguousFrom(targetType));
  int64_t blockElements = 1;
  for (int64_t d = block; d < rank; ++d)
    blockElements *= type.getDimSize(d);
  int64_t elementBytes =
      std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  bool rows =
      block > 0 && block < rank && blockElements * elementBytes >= kMinRowBytes;
  // Loops over the dims before the contiguous block, or over all of them.
  int64_t loops = rows ? block : rank;
  SmallVector<Value> ivs, bounds;
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  for (int64_t d = 0; d < loops; ++d) {
    int64_t size = type.getDimSize(d);
    bounds.push_back(
        ShapedType::isDynamic(size)
            ? memref::DimOp::create(rewriter, loc, copy.getSource(), d)
                  .getResult()
            : arith::ConstantIndexOp::create(rewriter, loc, size).getResult());
  }
  for (Value ub : bounds) {
    auto loop = scf::ForOp::create(rewriter, loc, zero, ub, one);
    // Every element is copied once: the iterations are independent (unit
    // dims fold away, so every loop is marked).
    graphopt::markParallelLoop(loop);
    rewriter.setInsertionPointToStart(loop.getBody());
    ivs.push_back(loop.getInductionVar());
  }
  if (!rows) {
    Value v = memref::LoadOp::create(rewriter, loc, copy.getSource(), ivs);
    memref::StoreOp::create(rewriter, loc, v, copy.getTarget(), ivs);
    rewriter.eraseOp(copy);
    return;
  }
  // [1, ..., 1, block dims] views, collapsed to one contiguous dim.
  auto row = [&](Value buffer) {
    SmallVector<OpFoldResult> offsets(ivs.begin(), ivs.end());
    SmallVector<OpFoldResult> sizes(block, rewriter.getIndexAttr(1));
    for (int64_t d = block; d < rank; ++d) {
      offsets.push_back(rewriter.getIndexAttr(0));
      sizes.push_back(rewriter.getIndexAttr(type.getDimSize(d)));
    }
    SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
    Value view = memref::SubViewOp::create(rewriter, loc, buffer, offsets,
                                           sizes, strides);
    SmallVector<ReassociationIndices> all(1);
    for (int64_t d = 0; d < rank; ++d)
      all[0].push_back(d);
    return memref::CollapseShapeOp::create(rewriter, loc, view, all)
        .getResult();
  };
  memref::CopyOp::create(rewriter, loc, row(copy.getSource()),
                         row(copy.getTarget()));
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
