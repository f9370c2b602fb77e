//===- OutlineKernels.cpp - graph-cpu-outline-kernels ----------------------===//
//
// A whole model lowers to one function whose body is a sequence of loop
// nests, one per fused kernel. LLVM's optimizer and code generator are not
// linear in the size of one function (ScalarEvolution walks the dominating
// blocks for loop guards, the dominator tree is updated per change): a
// 12-layer BERT-base encoder spent 6.6 s in LLVM against 0.37 s for one
// layer. This pass moves every top-level loop nest of a function into a
// private function of its own, called in its place, with the values it
// uses from outside as arguments (scalar and vector constants are cloned
// in); LLVM then
// sees many small functions. Identical kernels (the same body, types and
// constants: the same layer repeated, its weights passed as arguments) are
// generated once and called from every place. The outlined functions are
// `noinline`: LLVM's inliner would otherwise put them back.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHCPUOUTLINEKERNELSPASS
#include "graphopt/Codegen/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;

namespace {

/// A view whose buffer is a view of its source's: a slice or a reshape.
bool isView(Operation *op) {
  return isa_and_nonnull<tensor::ExtractSliceOp, tensor::ExpandShapeOp,
                         tensor::CollapseShapeOp, tensor::CastOp>(op);
}

/// A slice that is all of its (static) source, unit dims perhaps dropped.
bool isWholeSlice(tensor::ExtractSliceOp slice) {
  RankedTensorType source = slice.getSourceType();
  return source.hasStaticShape() &&
         llvm::all_of(slice.getStaticOffsets(),
                      [](int64_t o) { return o == 0; }) &&
         llvm::all_of(slice.getStaticStrides(),
                      [](int64_t s) { return s == 1; }) &&
         llvm::equal(slice.getStaticSizes(), source.getShape());
}

/// Whether the buffer of `v` has the identity layout a function argument
/// gets (`function-boundary-type-conversion=identity-layout-map`), so that
/// it is passed without a copy: anything but a slice of part of a tensor,
/// or a reshape of one.
bool hasIdentityBuffer(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto toTensor = dyn_cast<bufferization::ToTensorOp>(def))
      return cast<MemRefType>(toTensor.getBuffer().getType())
          .getLayout()
          .isIdentity();
    auto slice = dyn_cast<tensor::ExtractSliceOp>(def);
    if (slice && !isWholeSlice(slice))
      return false;
    if (!isView(def))
      return true;
    v = def->getOperand(0);
  }
  return true;
}

/// A tensor of undefined contents: tensor.empty, an alloc_tensor without
/// a copy.
bool isNewTensor(Operation *op) {
  if (auto alloc = dyn_cast_or_null<bufferization::AllocTensorOp>(op))
    return !alloc.getCopy();
  return isa_and_nonnull<tensor::EmptyOp>(op);
}

/// A loop nest's operands for the tensors it writes in place (its
/// destinations).
MutableArrayRef<OpOperand> destinations(Operation *op) {
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return loop.getInitArgsMutable();
  if (auto loop = dyn_cast<scf::ForallOp>(op))
    return loop.getOutputsMutable();
  return cast<scf::ParallelOp>(op).getInitValsMutable();
}

/// A top-level loop nest worth a function of its own: on memrefs, one
/// without results; on tensors, one whose results are all tensors.
bool isKernel(Operation *op, int64_t minOps, bool tensors) {
  if (!isa<scf::ForOp, scf::ParallelOp, scf::ForallOp>(op))
    return false;
  if (!tensors && op->getNumResults() != 0)
    return false;
  if (tensors &&
      (op->getNumResults() == 0 ||
       !llvm::all_of(op->getResultTypes(), llvm::IsaPred<TensorType>)))
    return false;
  int64_t count = 0;
  op->walk([&](Operation *) { ++count; });
  return count >= minOps;
}

/// On tensors, the ops that move into a function with the loop nest
/// `kernel`, in program order, or none if it must stay: a destination
/// whose buffer would not have the identity layout at a call must be a
/// slice that only the nest uses and whose result is inserted back into
/// the sliced tensor in the same place (a nest computing one part of a
/// tensor); the slice and the insertion then move in too, and the function
/// returns the whole tensor.
SmallVector<Operation *> kernelUnit(Operation *kernel) {
  SmallVector<Operation *> before, after;
  for (auto [operand, result] :
       llvm::zip(destinations(kernel), kernel->getResults())) {
    Value dest = operand.get();
    if (hasIdentityBuffer(dest))
      continue;
    auto slice = dest.getDefiningOp<tensor::ExtractSliceOp>();
    if (!slice || !slice->hasOneUse() || !result.hasOneUse() ||
        !hasIdentityBuffer(slice.getSource()))
      return {};
    auto insert = dyn_cast<tensor::InsertSliceOp>(*result.user_begin());
    if (!insert || insert.getSource() != result ||
        insert.getDest() != slice.getSource() ||
        insert->getBlock() != kernel->getBlock() ||
        insert.getMixedOffsets() != slice.getMixedOffsets() ||
        insert.getMixedSizes() != slice.getMixedSizes() ||
        insert.getMixedStrides() != slice.getMixedStrides())
      return {};
    before.push_back(slice);
    after.push_back(insert);
  }
  SmallVector<Operation *> unit(before.begin(), before.end());
  unit.push_back(kernel);
  unit.append(after.begin(), after.end());
  llvm::sort(unit,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return unit;
}

/// A constant cloned into the kernels that use it rather than passed: a
/// scalar, a vector, or a splat tensor (on tensors; weights are passed, so
/// that layers of one shape share a kernel).
bool isClonedConstant(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def || def->getNumOperands() != 0 || def->getNumRegions() != 0 ||
      !def->hasTrait<OpTrait::ConstantLike>())
    return false;
  if (v.getType().isIntOrIndexOrFloat() || isa<VectorType>(v.getType()))
    return true;
  DenseElementsAttr value;
  return isa<RankedTensorType>(v.getType()) &&
         matchPattern(v, m_Constant(&value)) && value.isSplat();
}

/// A key that is equal for two functions exactly when they are the same
/// function under another name: the function printed in generic form
/// without locations, named "kernel".
std::string kernelKey(func::FuncOp fn) {
  std::string name = fn.getSymName().str();
  fn.setSymName("kernel");
  std::string text;
  llvm::raw_string_ostream os(text);
  fn->print(os, OpPrintingFlags()
                    .printGenericOpForm()
                    .enableDebugInfo(false)
                    .useLocalScope());
  fn.setSymName(name);
  return text;
}

struct GraphCPUOutlineKernelsPass
    : public graphopt::impl::GraphCPUOutlineKernelsPassBase<
          GraphCPUOutlineKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    llvm::StringMap<func::FuncOp> byKey;
    SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
    for (func::FuncOp fn : functions) {
      if (fn.isExternal() || !fn.getBody().hasOneBlock())
        continue;
      SmallVector<SmallVector<Operation *>> kernels;
      for (Operation &op : fn.getBody().front()) {
        if (!isKernel(&op, minOps, tensors))
          continue;
        SmallVector<Operation *> unit =
            tensors ? kernelUnit(&op) : SmallVector<Operation *>{&op};
        if (!unit.empty())
          kernels.push_back(std::move(unit));
      }
      // A function that is one kernel gains nothing.
      if (kernels.size() < 2)
        continue;
      // The kernels' functions follow their caller in program order.
      Operation *last = fn;
      unsigned index = 0;
      for (ArrayRef<Operation *> unit : kernels)
        outline(unit, fn, index++, symbols, byKey, last);
    }
  }

  /// Gives each destination of the loop nest `op` that is a new tensor
  /// (tensor.empty, an alloc_tensor without a copy) an op of its own,
  /// created just before the nest.
  static void freshDestinations(Operation *op) {
    OpBuilder builder(op);
    for (OpOperand &operand : destinations(op)) {
      Operation *def = operand.get().getDefiningOp();
      if (!isNewTensor(def) || def->hasOneUse())
        continue;
      operand.set(builder.clone(*def)->getResult(0));
    }
  }

  /// Moves `unit` (a loop nest and, on tensors, the slice ops around it; in
  /// program order) into a function called in place of its last op.
  void outline(ArrayRef<Operation *> unit, func::FuncOp parent, unsigned index,
               SymbolTable &symbols, llvm::StringMap<func::FuncOp> &byKey,
               Operation *&last) {
    Operation *nest = *llvm::find_if(unit, [](Operation *op) {
      return isa<scf::ForOp, scf::ForallOp, scf::ParallelOp>(op);
    });
    // Each new tensor the nest writes, its own: one empty tensor is often
    // the destination of several results or nests (CSE), which would make
    // the function allocate the others and return them.
    if (tensors)
      freshDestinations(nest);
    llvm::SmallPtrSet<Operation *, 4> inUnit(unit.begin(), unit.end());
    // The values the unit reads from outside: its operands and those its
    // regions use. Scalar and vector constants are cloned into the kernel
    // (its loop bounds then stay constants); the rest become arguments.
    llvm::SetVector<Value> used;
    for (Operation *op : unit) {
      for (Value v : op->getOperands())
        if (!inUnit.contains(v.getDefiningOp()))
          used.insert(v);
      getUsedValuesDefinedAbove(op->getRegions(), used);
    }
    // The values it returns: its results used outside.
    SmallVector<Value> results;
    for (Operation *op : unit)
      for (Value r : op->getResults())
        if (llvm::any_of(r.getUsers(), [&](Operation *user) {
              return !inUnit.contains(user);
            }))
          results.push_back(r);
    // On tensors, the views the unit only reads move in with it and their
    // sources are passed: a slice's buffer, a strided view, would be copied
    // at the call.
    llvm::SetVector<Operation *> views;
    llvm::SmallPtrSet<Value, 4> written;
    if (tensors) {
      for (OpOperand &operand : destinations(nest))
        written.insert(operand.get());
      for (Operation *op : unit)
        if (auto insert = dyn_cast<tensor::InsertSliceOp>(op))
          written.insert(insert.getDest());
      for (size_t i = 0; i < used.size(); ++i) {
        Value v = used[i];
        Operation *def = v.getDefiningOp();
        if (written.contains(v) || !isView(def))
          continue;
        views.insert(def);
        used.insert(def->getOperands().begin(), def->getOperands().end());
      }
    }
    SmallVector<Value> arguments;
    SmallVector<Operation *> constants;
    for (Value v : used) {
      if (views.contains(v.getDefiningOp()) ||
          inUnit.contains(v.getDefiningOp()))
        continue;
      // A new tensor the unit only uses as scratch space (not one it
      // returns) is created in the function: passed, its contents would be
      // unknown there, and copied wherever bufferization puts a tile of it
      // out of place.
      if (isClonedConstant(v) ||
          (tensors && !written.contains(v) && isNewTensor(v.getDefiningOp()) &&
           v.getDefiningOp()->getNumOperands() == 0))
        constants.push_back(v.getDefiningOp());
      else
        arguments.push_back(v);
    }
    SmallVector<Operation *> viewOrder(views.begin(), views.end());
    llvm::sort(viewOrder, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    OpBuilder builder(parent);
    builder.setInsertionPointAfter(last);
    SmallVector<Type> types;
    for (Value v : arguments)
      types.push_back(v.getType());
    Location loc = unit.front()->getLoc();
    auto fn = func::FuncOp::create(
        builder, loc,
        (parent.getSymName() + "_kernel" + llvm::Twine(index)).str(),
        builder.getFunctionType(types, ValueRange(results).getTypes()));
    fn.setPrivate();
    // Kept out of line by LLVM's inliner (convert-func-to-llvm passes
    // `passthrough` on to the llvm.func).
    fn->setAttr("passthrough", builder.getArrayAttr(
                                   {builder.getStringAttr("noinline")}));
    Block *body = fn.addEntryBlock();
    IRMapping map;
    for (auto [v, arg] : llvm::zip(arguments, body->getArguments()))
      map.map(v, arg);
    builder.setInsertionPointToStart(body);
    for (Operation *c : constants)
      builder.clone(*c, map);
    for (Operation *view : viewOrder)
      builder.clone(*view, map);
    for (Operation *op : unit)
      builder.clone(*op, map);
    SmallVector<Value> returned;
    for (Value r : results)
      returned.push_back(map.lookup(r));
    func::ReturnOp::create(builder, loc, returned);

    // The same kernel generated before: call that one.
    std::string key = kernelKey(fn);
    func::FuncOp callee = fn;
    auto [it, inserted] = byKey.try_emplace(key, fn);
    if (!inserted) {
      callee = it->second;
      fn.erase();
    } else {
      symbols.insert(fn);
      last = fn;
    }
    OpBuilder atKernel(unit.back());
    auto call = func::CallOp::create(atKernel, loc, callee, arguments);
    for (auto [r, c] : llvm::zip(results, call.getResults()))
      r.replaceAllUsesWith(c);
    for (Operation *op : llvm::reverse(unit))
      op->erase();
    for (Operation *view : llvm::reverse(viewOrder))
      if (view->use_empty())
        view->erase();
    for (Operation *c : constants)
      if (c->use_empty() && isNewTensor(c))
        c->erase();
  }
};

} // namespace
