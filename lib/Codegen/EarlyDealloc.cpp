//===- EarlyDealloc.cpp - graph-cpu-early-dealloc -------------------------===//
//
// Moves each memref.dealloc up to right after the last use, in its block, of
// the buffer or of a view of it (see the pass description in Passes.td).
//
//===----------------------------------------------------------------------===//

#include "graphopt/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHCPUEARLYDEALLOCPASS
#include "graphopt/Codegen/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;

namespace {

/// Ops whose memref results are views of their memref operand.
bool isView(Operation *op) {
  return isa<ViewLikeOpInterface, memref::CollapseShapeOp,
             memref::ExpandShapeOp, memref::TransposeOp,
             memref::ExtractStridedMetadataOp>(op);
}

/// The last op of `block` that uses `buffer` or a view of it (the op of
/// `block` that holds the use), or nullptr when there is none; failure when
/// the buffer may flow into a value that is not a view (then its dealloc
/// stays).
FailureOr<Operation *> lastUse(Value buffer, Block *block, Operation *dealloc) {
  SmallVector<Value> worklist{buffer};
  Operation *last = nullptr;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (user == dealloc)
        continue;
      if (isView(user)) {
        for (Value r : user->getResults())
          if (isa<BaseMemRefType>(r.getType()))
            worklist.push_back(r);
      } else if (user->hasTrait<OpTrait::IsTerminator>() ||
                 llvm::any_of(user->getResultTypes(),
                              [](Type t) { return isa<BaseMemRefType>(t); })) {
        return failure();
      } else if (isa<memref::DeallocOp>(user)) {
        return failure(); // Freed twice or through an alias: leave it.
      } else if (isa<memref::ExtractAlignedPointerAsIndexOp>(user)) {
        return failure(); // A raw pointer's uses are not followed.
      }
      Operation *inBlock = block->findAncestorOpInBlock(*user);
      if (!inBlock)
        return failure(); // Used outside the dealloc's block.
      if (!last || last->isBeforeInBlock(inBlock))
        last = inBlock;
    }
  }
  return last;
}

struct GraphCPUEarlyDeallocPass
    : public graphopt::impl::GraphCPUEarlyDeallocPassBase<
          GraphCPUEarlyDeallocPass> {
  void runOnOperation() override {
    SmallVector<memref::DeallocOp> deallocs;
    getOperation().walk([&](memref::DeallocOp d) { deallocs.push_back(d); });
    for (memref::DeallocOp dealloc : deallocs) {
      Value buffer = dealloc.getMemref();
      auto alloc = buffer.getDefiningOp<memref::AllocOp>();
      Block *block = dealloc->getBlock();
      if (!alloc || alloc->getBlock() != block)
        continue;
      FailureOr<Operation *> last = lastUse(buffer, block, dealloc);
      if (failed(last))
        continue;
      Operation *after = *last ? *last : alloc.getOperation();
      if (after->isBeforeInBlock(dealloc) && after->getNextNode() != dealloc)
        dealloc->moveAfter(after);
    }
  }
};

} // namespace
