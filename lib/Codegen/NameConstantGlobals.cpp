//===- NameConstantGlobals.cpp - graph-name-constant-globals --------------===//
//
// The constant memref.globals of one-shot bufferization named and ordered
// by their first use, so that the compiled program does not depend on the
// order in which bufferization visited the functions (see the pass
// description in Passes.td).
//
//===----------------------------------------------------------------------===//

#include "graphopt/Codegen/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHNAMECONSTANTGLOBALSPASS
#include "graphopt/Codegen/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kPrefix = "__constant_";

/// A global one-shot bufferization made for a tensor constant.
bool isBufferizedConstant(memref::GlobalOp global) {
  return global.getConstant() && global.isPrivate() &&
         global.getSymName().starts_with(kPrefix);
}

/// `name` without the counter bufferization appended to make it unique
/// (`__constant_2xf32_26` -> `__constant_2xf32`; element types end in
/// digits too, but not after an underscore).
StringRef baseName(StringRef name) {
  size_t underscore = name.rfind('_');
  if (underscore == StringRef::npos || underscore + 1 == name.size() ||
      underscore < kPrefix.size())
    return name;
  StringRef counter = name.drop_front(underscore + 1);
  if (!llvm::all_of(counter, llvm::isDigit))
    return name;
  return name.take_front(underscore);
}

struct GraphNameConstantGlobalsPass
    : public graphopt::impl::GraphNameConstantGlobalsPassBase<
          GraphNameConstantGlobalsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::StringMap<memref::GlobalOp> byName;
    SmallVector<memref::GlobalOp> inModuleOrder;
    for (auto global : module.getOps<memref::GlobalOp>())
      if (isBufferizedConstant(global)) {
        byName[global.getSymName()] = global;
        inModuleOrder.push_back(global);
      }
    if (byName.empty())
      return;
    // First uses, in program order.
    llvm::SetVector<memref::GlobalOp> order;
    SmallVector<memref::GetGlobalOp> reads;
    module.walk([&](memref::GetGlobalOp get) {
      auto it = byName.find(get.getName());
      if (it == byName.end())
        return;
      order.insert(it->second);
      reads.push_back(get);
    });
    // Then those nothing reads, in their current order.
    for (memref::GlobalOp global : inModuleOrder)
      order.insert(global);
    // New names in that order: taken names are those of every other
    // symbol at the top level.
    llvm::StringSet<> taken;
    for (Operation &op : module.getBody()->getOperations())
      if (auto name =
              op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
          name && !(isa<memref::GlobalOp>(op) && byName.count(name.getValue())))
        taken.insert(name.getValue());
    llvm::StringMap<unsigned> counters;
    llvm::StringMap<StringAttr> renamed;
    Block *body = module.getBody();
    Operation *insertionPoint = &body->front();
    for (memref::GlobalOp global : order) {
      StringRef base = baseName(global.getSymName());
      std::string name = base.str();
      while (!taken.insert(name).second)
        name = (base + "_" + Twine(counters[base]++)).str();
      renamed[global.getSymName()] = StringAttr::get(&getContext(), name);
      if (global.getOperation() != insertionPoint)
        global->moveBefore(insertionPoint);
      else
        insertionPoint = insertionPoint->getNextNode();
    }
    for (memref::GetGlobalOp get : reads)
      get.setNameAttr(FlatSymbolRefAttr::get(renamed.lookup(get.getName())));
    for (memref::GlobalOp global : order)
      global.setSymName(renamed.lookup(global.getSymName()).getValue());
  }
};

} // namespace
