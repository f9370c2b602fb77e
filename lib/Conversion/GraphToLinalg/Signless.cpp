//===- Signless.cpp - unsigned graph types to signless + attributes
//--------===//
//
// graph-signless: the arith, linalg and memref code below the graph dialect
// works on signless integers, so before graph -> linalg every ui8 ... ui64
// tensor type becomes i8 ... i64 (same bits) and the ops whose meaning
// depends on the signedness (compare, div, rem, max, min, abs, relu, clamp,
// reduce, argmax, max_pool2d, scatter, casts, shift_right) carry
// `graph.unsigned` (and a cast to an unsigned type `graph.unsigned_result`),
// which the lowering reads. Ops whose bits do not depend on it (add, sub, mul,
// neg, matmul, shapes, select, gather, ...) just change type. Runs on the whole
// module: function signatures and calls change together.
//
//===----------------------------------------------------------------------===//

#include "GraphToLinalgUtils.h"

#include "graphopt/Conversion/Passes.h"
#include "graphopt/Dialect/Graph/IR/GraphOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHSIGNLESSPASS
#include "graphopt/Conversion/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;
using namespace mlir::graphopt;
using namespace mlir::graphopt::graph;
using namespace mlir::graphopt::lowering;

namespace {

bool isUnsignedTensor(Type t) {
  auto shaped = dyn_cast<ShapedType>(t);
  return shaped && shaped.getElementType().isUnsignedInteger();
}

/// `t` with an unsigned integer element type made signless.
Type signless(Type t) {
  auto shaped = dyn_cast<ShapedType>(t);
  if (!shaped || !shaped.getElementType().isUnsignedInteger())
    return t;
  return shaped.clone(IntegerType::get(
      t.getContext(), shaped.getElementType().getIntOrFloatBitWidth()));
}

/// Whether the meaning of `op` depends on its (unsigned) operands'
/// signedness.
bool signednessMatters(Operation *op) {
  if (isa<CompareOp, DivOp, RemOp, MaxOp, MinOp, AbsOp, ReluOp, ClampOp,
          ArgMaxOp, MaxPool2DOp, CastOp, ShiftRightOp>(op))
    return true;
  if (auto r = dyn_cast<ReduceOp>(op))
    return r.getKind() == ReduceKind::Max || r.getKind() == ReduceKind::Min;
  if (auto s = dyn_cast<ScatterOp>(op))
    return s.getReduction() == ScatterReduction::Max ||
           s.getReduction() == ScatterReduction::Min;
  return false;
}

struct GraphSignlessPass
    : public graphopt::impl::GraphSignlessPassBase<GraphSignlessPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    UnitAttr unit = UnitAttr::get(&getContext());
    // The attributes first, while the types still say what is unsigned.
    module.walk([&](Operation *op) {
      if (!isa<GraphDialect>(op->getDialect()) || !signednessMatters(op))
        return;
      // The first operand decides (scatter's data; its indices are i32 or
      // i64).
      if (op->getNumOperands() &&
          isUnsignedTensor(op->getOperand(0).getType()))
        op->setAttr(kUnsignedAttr, unit);
      if (isa<CastOp>(op) && isUnsignedTensor(op->getResult(0).getType()))
        op->setAttr(kUnsignedResultAttr, unit);
    });
    // Then every type: results, block arguments, function signatures,
    // constants' values (the same bits).
    module.walk([&](Operation *op) {
      for (Value r : op->getResults())
        if (isUnsignedTensor(r.getType()))
          r.setType(signless(r.getType()));
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument a : block.getArguments())
            if (isUnsignedTensor(a.getType()))
              a.setType(signless(a.getType()));
      if (auto c = dyn_cast<ConstantOp>(op)) {
        auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
        if (dense && dense.getElementType().isUnsignedInteger())
          c.setValueAttr(dense.bitcast(
              cast<ShapedType>(signless(dense.getType())).getElementType()));
      }
      if (auto fn = dyn_cast<func::FuncOp>(op)) {
        FunctionType ft = fn.getFunctionType();
        SmallVector<Type> ins, outs;
        for (Type t : ft.getInputs())
          ins.push_back(signless(t));
        for (Type t : ft.getResults())
          outs.push_back(signless(t));
        fn.setFunctionType(FunctionType::get(&getContext(), ins, outs));
      }
    });
  }
};

} // namespace
