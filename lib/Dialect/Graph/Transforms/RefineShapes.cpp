//===- RefineShapes.cpp - graph-refine-shapes -----------------------------===//

#include "graphopt/Dialect/Graph/IR/GraphOps.h"
#include "graphopt/Dialect/Graph/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

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
    // Ops in a block are visited in order, so operands are refined before
    // their users.
    fn.walk([&](Operation *op) {
      SmallVector<RankedTensorType> types;
      if (failed(inferResultTypes(op, types)))
        return;
      for (auto [result, inferred] : llvm::zip(op->getResults(), types)) {
        auto current = cast<RankedTensorType>(result.getType());
        if (!isMoreStatic(inferred, current))
          continue;
        result.setType(inferred);
        ++refined;
      }
    });
    // Function results follow what is returned.
    if (fn.isExternal())
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
