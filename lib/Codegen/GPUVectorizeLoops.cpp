//===- GPUVectorizeLoops.cpp - graph-gpu-vectorize-loops ------------------===//
//
// The generic CUDA kernels (elementwise chains, copies) give each thread
// one element: a 4-byte load per operand, a 4-byte store. This pass makes
// the innermost dim of such a parallel loop nest take 16 bytes per thread:
// its loads and stores along that dim become vector loads and stores
// (`ld.global.v4.b32` for f32, `.v4.b16`... for narrower types) and its
// arithmetic vector arithmetic, with a quarter (f32) of the threads.
//
//===----------------------------------------------------------------------===//

#include "GPUUtils.h"
#include "graphopt/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHGPUVECTORIZELOOPSPASS
#include "graphopt/Codegen/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;

namespace {

/// Bytes a thread loads or stores at once.
constexpr int64_t kVectorBytes = 16;

/// The access's memref when `op` is a load or store whose last index is
/// `iv` and no other index uses it; null otherwise.
Value accessAlong(Operation *op, Value iv, bool &usesIvElsewhere) {
  Value memref;
  ValueRange indices;
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    memref = load.getMemRef();
    indices = load.getIndices();
  } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
    memref = store.getMemRef();
    indices = store.getIndices();
    if (store.getValueToStore() == iv)
      usesIvElsewhere = true;
  } else {
    return Value();
  }
  for (auto [i, index] : llvm::enumerate(indices))
    if (index == iv && i + 1 != indices.size())
      usesIvElsewhere = true;
  if (indices.empty() || indices.back() != iv)
    return Value();
  return memref;
}

/// Whether vectors of `lanes` elements starting at any multiple of `lanes`
/// along the last dim of `type` are contiguous and `lanes * element size`
/// aligned, given a base pointer aligned to that (every buffer the CUDA
/// code gets: allocations, constants, and entry buffers, which must be
/// 16-byte aligned): the last stride is 1, the offset and the other
/// strides are static multiples of `lanes`.
bool alignedAlongLastDim(MemRefType type, int64_t lanes) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (type.getRank() == 0 || failed(type.getStridesAndOffset(strides, offset)))
    return false;
  if (strides.back() != 1 || ShapedType::isDynamic(offset) ||
      offset % lanes != 0)
    return false;
  for (int64_t s : ArrayRef<int64_t>(strides).drop_back())
    if (ShapedType::isDynamic(s) || s % lanes != 0)
      return false;
  int64_t last = type.getShape().back();
  return !ShapedType::isDynamic(last) && last % lanes == 0;
}

/// Scalar int/float/index types a vector can hold.
bool isVectorizableScalar(Type t) {
  return isa<IntegerType, FloatType, IndexType>(t);
}

/// Vectorizes the innermost dim of `loop` (a top-level parallel loop on the
/// host); returns failure, changing nothing, where it does not apply.
LogicalResult vectorizeInnermost(scf::ParallelOp loop) {
  unsigned rank = loop.getNumLoops();
  if (rank == 0 || loop.getNumResults() != 0)
    return failure();
  Value iv = loop.getInductionVars().back();
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound().back());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound().back());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep().back());
  if (!lb || !ub || !step || *lb != 0 || *step != 1)
    return failure();
  Block *body = loop.getBody();

  // What the body may hold: loads and stores, elementwise ops on scalars,
  // constants; the innermost IV only as the last index of accesses.
  // `varying`: values that differ between the lanes of a vector (loaded
  // along the innermost dim, or computed from such values); an access whose
  // indices other than the innermost one vary (a gather or scatter) stays
  // scalar code, so the nest is left as it is.
  int64_t widest = 0;
  bool usesIvElsewhere = false;
  SmallVector<Operation *> along;
  llvm::DenseSet<Value> varying;
  auto variesAny = [&](ValueRange values) {
    return llvm::any_of(values, [&](Value v) { return varying.contains(v); });
  };
  for (Operation &op : body->without_terminator()) {
    if (op.getNumRegions() != 0)
      return failure();
    if (auto load = dyn_cast<memref::LoadOp>(op);
        load && variesAny(load.getIndices()))
      return failure();
    if (auto store = dyn_cast<memref::StoreOp>(op);
        store && variesAny(store.getIndices()))
      return failure();
    if (Value memref = accessAlong(&op, iv, usesIvElsewhere)) {
      auto type = dyn_cast<MemRefType>(memref.getType());
      // Whole bytes only: an i1 element is a byte in memory, not a bit.
      if (!type || !isVectorizableScalar(type.getElementType()) ||
          type.getElementType().isIndex() ||
          type.getElementTypeBitWidth() % 8 != 0)
        return failure();
      widest = std::max<int64_t>(
          widest, llvm::divideCeil(type.getElementTypeBitWidth(), 8));
      along.push_back(&op);
      if (isa<memref::LoadOp>(op))
        varying.insert(op.getResult(0));
      continue;
    }
    if (isa<memref::LoadOp>(op))
      continue; // the same element for every lane (a broadcast operand)
    if (isa<memref::StoreOp>(op))
      return failure(); // a store the innermost dim does not index: a race
    if (isa<arith::ConstantOp>(op))
      continue;
    if (!op.hasTrait<OpTrait::Elementwise>() || !isMemoryEffectFree(&op) ||
        !llvm::all_of(op.getResultTypes(), isVectorizableScalar))
      return failure();
    for (Value operand : op.getOperands())
      if (operand == iv)
        usesIvElsewhere = true; // an index computation (iota): left as is
    if (variesAny(op.getOperands()))
      varying.insert(op.result_begin(), op.result_end());
  }
  if (usesIvElsewhere || along.empty() || widest == 0 ||
      kVectorBytes % widest != 0)
    return failure();
  int64_t lanes = kVectorBytes / widest;
  if (lanes < 2 || *ub % lanes != 0)
    return failure();
  for (Operation *op : along) {
    Value memref = isa<memref::LoadOp>(op)
                       ? cast<memref::LoadOp>(op).getMemRef()
                       : cast<memref::StoreOp>(op).getMemRef();
    if (!alignedAlongLastDim(cast<MemRefType>(memref.getType()), lanes))
      return failure();
  }

  SmallVector<Operation *> ops;
  for (Operation &op : body->without_terminator())
    ops.push_back(&op);

  // The innermost dim now counts vectors: element index = iv * lanes.
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  SmallVector<Value> upper(loop.getUpperBound());
  upper.back() = arith::ConstantIndexOp::create(b, loc, *ub / lanes);
  loop.getUpperBoundMutable().assign(upper);
  b.setInsertionPointToStart(body);
  Value first = arith::MulIOp::create(
      b, loc, iv, arith::ConstantIndexOp::create(b, loc, lanes));

  // Values that vary along the innermost dim become vectors; the others
  // stay scalars and are broadcast where a vector op uses them.
  auto vectorOf = [&](Type t) { return VectorType::get({lanes}, t); };
  auto isVector = [](Value v) { return isa<VectorType>(v.getType()); };
  auto asVector = [&](OpBuilder &ob, Value v) -> Value {
    if (isVector(v))
      return v;
    return vector::BroadcastOp::create(ob, loc, vectorOf(v.getType()), v);
  };
  // A vector's alignment: its bytes (16 for the widest element).
  auto alignment = [&](Type element) {
    return llvm::MaybeAlign(
        lanes * llvm::divideCeil(element.getIntOrFloatBitWidth(), 8));
  };
  for (Operation *op : ops) {
    OpBuilder ob(op);
    if (auto load = dyn_cast<memref::LoadOp>(op);
        load && llvm::is_contained(along, op)) {
      SmallVector<Value> indices(load.getIndices());
      indices.back() = first;
      auto vload = vector::LoadOp::create(
          ob, loc, vectorOf(load.getType()), load.getMemRef(), indices,
          /*nontemporal=*/false, alignment(load.getType()));
      load.replaceAllUsesWith(vload.getResult());
      load.erase();
      continue;
    }
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      SmallVector<Value> indices(store.getIndices());
      indices.back() = first;
      vector::StoreOp::create(
          ob, loc, asVector(ob, store.getValueToStore()), store.getMemRef(),
          indices, /*nontemporal=*/false,
          alignment(store.getMemRefType().getElementType()));
      store.erase();
      continue;
    }
    if (!llvm::any_of(op->getOperands(), isVector))
      continue; // uniform across the lanes: stays scalar
    SmallVector<Value> operands;
    for (Value v : op->getOperands())
      operands.push_back(asVector(ob, v));
    SmallVector<Type> types;
    for (Type t : op->getResultTypes())
      types.push_back(vectorOf(t));
    OperationState state(loc, op->getName(), operands, types, op->getAttrs());
    Operation *vop = ob.create(state);
    op->replaceAllUsesWith(vop->getResults());
    op->erase();
  }
  return success();
}

struct GraphGPUVectorizeLoopsPass
    : graphopt::impl::GraphGPUVectorizeLoopsPassBase<
          GraphGPUVectorizeLoopsPass> {
  using Base::Base;
  void runOnOperation() override {
    for (scf::ParallelOp loop : graphopt::hostParallelLoops(getOperation()))
      (void)vectorizeInnermost(loop);
  }
};

} // namespace
