//===- PlanMemory.cpp - graph-cpu-plan-memory -----------------------------===//
//
// Places the statically sized buffers of a function's body in one arena, at
// offsets planned from their lifetimes (see the pass description in
// Passes.td).
//
//===----------------------------------------------------------------------===//

#include "MemoryPlan.h"
#include "graphopt/Codegen/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHCPUPLANMEMORYPASS
#include "graphopt/Codegen/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;

using graphopt::PlannedBuffer;

namespace {

constexpr int64_t kAlign = graphopt::kArenaAlignment;

bool isView(Operation *op) {
  return isa<ViewLikeOpInterface, memref::CollapseShapeOp,
             memref::ExpandShapeOp, memref::TransposeOp,
             memref::ExtractStridedMetadataOp>(op);
}

/// The one dealloc of `buffer` in `block` when every use of the buffer and
/// of its views is understood (no memref flows into a result other than a
/// view, a terminator or a raw pointer), else nullptr.
memref::DeallocOp soleDealloc(Value buffer, Block *block) {
  memref::DeallocOp found;
  SmallVector<Value> worklist{buffer};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
        if (found || v != buffer || dealloc->getBlock() != block)
          return nullptr;
        found = dealloc;
        continue;
      }
      if (isView(user)) {
        for (Value r : user->getResults())
          if (isa<BaseMemRefType>(r.getType()))
            worklist.push_back(r);
        continue;
      }
      if (user->hasTrait<OpTrait::IsTerminator>() ||
          isa<memref::ExtractAlignedPointerAsIndexOp>(user) ||
          llvm::any_of(user->getResultTypes(),
                       [](Type t) { return isa<BaseMemRefType>(t); }))
        return nullptr;
    }
  }
  return found;
}

/// Bytes of a buffer the arena can hold: a static shape, the identity
/// layout, whole-byte integer or float elements.
std::optional<int64_t> plannableBytes(MemRefType type) {
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      type.getMemorySpace())
    return std::nullopt;
  Type elem = type.getElementType();
  // Whole bytes, a power of two of them (LLVM stores an i24 in 4 bytes, an
  // f80 in 16).
  unsigned bits =
      isa<FloatType, IntegerType>(elem) ? elem.getIntOrFloatBitWidth() : 0;
  if (bits < 8 || bits > 64 || !llvm::isPowerOf2_32(bits))
    return std::nullopt;
  return type.getNumElements() * int64_t(bits / 8);
}

/// Offsets for `buffers`, largest first, each at the lowest aligned offset
/// clear of every placed buffer live at the same time; returns the arena's
/// size.
int64_t assignOffsets(MutableArrayRef<PlannedBuffer> buffers) {
  SmallVector<PlannedBuffer *> order;
  for (PlannedBuffer &p : buffers)
    order.push_back(&p);
  llvm::stable_sort(order, [](const PlannedBuffer *a, const PlannedBuffer *b) {
    return a->bytes > b->bytes;
  });
  SmallVector<PlannedBuffer *> placed;
  int64_t size = 0;
  for (PlannedBuffer *p : order) {
    // The placed buffers whose lifetimes overlap p's, by offset.
    SmallVector<PlannedBuffer *> conflicts;
    for (PlannedBuffer *q : placed)
      if (q->start < p->end && p->start < q->end)
        conflicts.push_back(q);
    llvm::sort(conflicts, [](const PlannedBuffer *a, const PlannedBuffer *b) {
      return a->offset < b->offset;
    });
    int64_t offset = 0;
    for (PlannedBuffer *q : conflicts) {
      if (offset + p->bytes <= q->offset)
        break;
      offset = std::max(offset, q->offset + q->bytes);
    }
    p->offset = offset;
    size = std::max(size, offset + p->bytes);
    placed.push_back(p);
  }
  return size;
}

} // namespace

graphopt::MemoryPlan graphopt::planMemory(func::FuncOp fn) {
  MemoryPlan plan;
  if (fn.isExternal() || !fn.getBody().hasOneBlock())
    return plan;
  Block &block = fn.getBody().front();
  llvm::DenseMap<Operation *, int64_t> position;
  for (auto [i, op] : llvm::enumerate(block))
    position[&op] = i;
  for (Operation &op : block) {
    auto alloc = dyn_cast<memref::AllocOp>(&op);
    if (!alloc)
      continue;
    std::optional<int64_t> bytes = plannableBytes(alloc.getType());
    if (!bytes || *bytes == 0 ||
        (alloc.getAlignment() && *alloc.getAlignment() > kAlign))
      continue;
    memref::DeallocOp dealloc = soleDealloc(alloc.getResult(), &block);
    if (!dealloc)
      continue;
    plan.buffers.push_back({alloc, dealloc, position[alloc], position[dealloc],
                            int64_t(llvm::alignTo(*bytes, kAlign))});
  }
  if (plan.buffers.size() < 2) {
    plan.buffers.clear();
    return plan;
  }
  plan.arenaBytes = assignOffsets(plan.buffers);
  return plan;
}

namespace {

struct GraphCPUPlanMemoryPass
    : public graphopt::impl::GraphCPUPlanMemoryPassBase<
          GraphCPUPlanMemoryPass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    graphopt::MemoryPlan plan = graphopt::planMemory(fn);
    if (plan.buffers.empty())
      return;
    Block &block = fn.getBody().front();
    int64_t size = plan.arenaBytes;
    // One arena for the call, allocated first and freed before the return.
    OpBuilder b(&getContext());
    Location loc = fn.getLoc();
    b.setInsertionPointToStart(&block);
    auto arenaType = MemRefType::get({size}, b.getI8Type());
    Value arena =
        memref::AllocOp::create(b, loc, arenaType, b.getI64IntegerAttr(kAlign));
    b.setInsertionPoint(block.getTerminator());
    memref::DeallocOp::create(b, loc, arena);
    for (PlannedBuffer &p : plan.buffers) {
      b.setInsertionPoint(p.alloc);
      Value offset =
          arith::ConstantIndexOp::create(b, p.alloc.getLoc(), p.offset);
      Value view = memref::ViewOp::create(
          b, p.alloc.getLoc(), p.alloc.getType(), arena, offset, ValueRange());
      p.alloc.getResult().replaceAllUsesWith(view);
      p.alloc.erase();
      p.dealloc.erase();
    }
  }
};

} // namespace
