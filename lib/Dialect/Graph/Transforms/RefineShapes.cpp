//===- RefineShapes.cpp - graph-refine-shapes -----------------------------===//

#include "graphopt/Dialect/Graph/IR/GraphOps.h"
#include "graphopt/Dialect/Graph/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::graphopt::graph {
#define GEN_PASS_DEF_GRAPHREFINESHAPESPASS
#include "graphopt/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace mlir::graphopt::graph

using namespace mlir;
using namespace mlir::graphopt::graph;

namespace {
/// `refined` is at least as static as `current`, and strictly more.
bool isMoreStatic(RankedTensorType refined, RankedTensorType current) {
  if (refined == current || !areCompatibleTensorTypes(refined, current))
    return false;
  for (auto [r, c] : llvm::zip(refined.getShape(), current.getShape()))
    if (ShapedType::isDynamic(r) && !ShapedType::isDynamic(c))
      return false;
  return true;
}
} // namespace

int64_t mlir::graphopt::graph::refineShapes(ModuleOp module) {
  int64_t refined = 0;
  module.walk([&](func::FuncOp fn) {
    if (fn.isExternal())
      return;
    // The signature may follow the refined types only when nothing else
    // depends on it: one block ending in func.return, and no callers.
    bool retypeResults =
        fn.getBody().hasOneBlock() &&
        isa<func::ReturnOp>(fn.getBody().back().getTerminator()) &&
        SymbolTable::symbolKnownUseEmpty(fn, module);
    // Ops in a block are visited in order, so operands are refined before
    // their users.
    fn.walk([&](Operation *op) {
      SmallVector<RankedTensorType> types;
      if (!isa<GraphDialect>(op->getDialect()) ||
          failed(inferResultTypes(op, types)))
        return;
      for (auto [result, inferred] : llvm::zip(op->getResults(), types)) {
        auto current = cast<RankedTensorType>(result.getType());
        if (!isMoreStatic(inferred, current))
          continue;
        result.setType(inferred);
        ++refined;
        // Graph ops accept compatible types; other users (calls, yields,
        // returns of a fixed signature) keep seeing the old type.
        SmallVector<OpOperand *> uses;
        for (OpOperand &use : result.getUses())
          uses.push_back(&use);
        for (OpOperand *use : uses) {
          Operation *user = use->getOwner();
          if (isa<GraphDialect>(user->getDialect()) ||
              (retypeResults && isa<func::ReturnOp>(user)))
            continue;
          OpBuilder b(user);
          use->set(tensor::CastOp::create(b, user->getLoc(), current, result));
        }
      }
    });
    if (!retypeResults)
      return;
    auto ret = cast<func::ReturnOp>(fn.getBody().back().getTerminator());
    auto type = fn.getFunctionType();
    if (TypeRange(ret.getOperandTypes()) != type.getResults())
      fn.setType(FunctionType::get(fn.getContext(), type.getInputs(),
                                   ret.getOperandTypes()));
  });
  return refined;
}

namespace {
struct GraphRefineShapesPass
    : public mlir::graphopt::graph::impl::GraphRefineShapesPassBase<
          GraphRefineShapesPass> {
  using Base::Base;
  void runOnOperation() override { numRefined += refineShapes(getOperation()); }
};
} // namespace
