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
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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

/// A top-level loop nest worth a function of its own.
bool isKernel(Operation *op, int64_t minOps) {
  if (!isa<scf::ForOp, scf::ParallelOp, scf::ForallOp>(op) ||
      op->getNumResults() != 0)
    return false;
  int64_t count = 0;
  op->walk([&](Operation *) { ++count; });
  return count >= minOps;
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
      SmallVector<Operation *> kernels;
      for (Operation &op : fn.getBody().front())
        if (isKernel(&op, minOps))
          kernels.push_back(&op);
      // A function that is one kernel gains nothing.
      if (kernels.size() < 2)
        continue;
      // The kernels' functions follow their caller in program order.
      Operation *last = fn;
      unsigned index = 0;
      for (Operation *kernel : kernels)
        outline(kernel, fn, index++, symbols, byKey, last);
    }
  }

  void outline(Operation *kernel, func::FuncOp parent, unsigned index,
               SymbolTable &symbols, llvm::StringMap<func::FuncOp> &byKey,
               Operation *&last) {
    // The values the kernel reads from outside: its operands and those its
    // regions use. Scalar and vector constants are cloned into the kernel
    // (its loop bounds then stay constants); the rest become arguments.
    llvm::SetVector<Value> used;
    for (Value v : kernel->getOperands())
      used.insert(v);
    getUsedValuesDefinedAbove(kernel->getRegions(), used);
    SmallVector<Value> arguments;
    SmallVector<Operation *> constants;
    for (Value v : used) {
      Operation *def = v.getDefiningOp();
      if (def && def->getNumOperands() == 0 && def->getNumRegions() == 0 &&
          def->hasTrait<OpTrait::ConstantLike>() &&
          (v.getType().isIntOrIndexOrFloat() || isa<VectorType>(v.getType())))
        constants.push_back(def);
      else
        arguments.push_back(v);
    }
    OpBuilder builder(parent);
    builder.setInsertionPointAfter(last);
    SmallVector<Type> types;
    for (Value v : arguments)
      types.push_back(v.getType());
    auto fn = func::FuncOp::create(
        builder, kernel->getLoc(),
        (parent.getSymName() + "_kernel" + llvm::Twine(index)).str(),
        builder.getFunctionType(types, {}));
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
    builder.clone(*kernel, map);
    func::ReturnOp::create(builder, kernel->getLoc());

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
    OpBuilder atKernel(kernel);
    func::CallOp::create(atKernel, kernel->getLoc(), callee, arguments);
    kernel->erase();
  }
};

} // namespace
