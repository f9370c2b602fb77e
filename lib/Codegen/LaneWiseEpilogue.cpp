//===- LaneWiseEpilogue.cpp - elementwise consumers applied in registers --===//

#include "graphopt/Codegen/LaneWiseEpilogue.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::graphopt;

bool mlir::graphopt::isLaneWise(Operation &op) {
  if (op.getNumRegions() != 0 || op.getNumResults() != 1 ||
      !op.hasTrait<OpTrait::Elementwise>() ||
      !op.hasTrait<OpTrait::Vectorizable>() || !isMemoryEffectFree(&op))
    return false;
  auto scalar = [](Type t) { return t.isIntOrFloat(); };
  return llvm::all_of(op.getOperandTypes(), scalar) &&
         llvm::all_of(op.getResultTypes(), scalar);
}

bool mlir::graphopt::matchLaneWiseUser(Value v, LaneWiseEpilogue &e) {
  if (!v.hasOneUse())
    return false;
  auto generic = dyn_cast<linalg::GenericOp>(*v.getUsers().begin());
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!generic || !type || generic.getNumDpsInits() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      generic.getNumLoops() != type.getRank() ||
      generic.getDpsInitOperand(0)->get().getType() != type ||
      generic.payloadUsesValueFromOperand(generic.getDpsInitOperand(0)))
    return false;
  int64_t rank = type.getRank();
  bool found = false;
  for (OpOperand *in : generic.getDpsInputOperands()) {
    AffineMap map = generic.getMatchingIndexingMap(in);
    if (in->get() == v) {
      if (!map.isIdentity())
        return false;
      e.operand = in->getOperandNumber();
      found = true;
      continue;
    }
    auto inType = dyn_cast<RankedTensorType>(in->get().getType());
    if (!inType || !inType.getElementType().isF32())
      return false;
    // Read per output block: a row segment along the output's columns, or
    // one value broadcast (per channel, per row).
    for (auto [i, r] : llvm::enumerate(map.getResults())) {
      if (auto c = dyn_cast<AffineConstantExpr>(r)) {
        if (c.getValue() != 0)
          return false;
        continue;
      }
      auto d = dyn_cast<AffineDimExpr>(r);
      if (!d || (d.getPosition() == rank - 1 &&
                 static_cast<int64_t>(i) != map.getNumResults() - 1))
        return false;
    }
  }
  for (Operation &op : generic.getBody()->without_terminator())
    if (!isLaneWise(op))
      return false;
  e.op = generic;
  return found;
}

Value mlir::graphopt::applyLaneWiseEpilogue(
    RewriterBase &rewriter, Location loc, const LaneWiseEpilogue &e,
    Value value, ArrayRef<Value> indices, int64_t nr, bool rowInBounds) {
  linalg::GenericOp g = e.op;
  int64_t rank = g.getNumLoops();
  assert(static_cast<int64_t>(indices.size()) == rank &&
         "one index per loop of the epilogue");
  Block *body = g.getBody();
  IRMapping map;
  Value zero;
  for (OpOperand *in : g.getDpsInputOperands()) {
    BlockArgument arg = body->getArgument(in->getOperandNumber());
    if (static_cast<int64_t>(in->getOperandNumber()) == e.operand) {
      map.map(arg, value);
      continue;
    }
    AffineMap m = g.getMatchingIndexingMap(in);
    SmallVector<Value> at;
    bool row = false;
    for (AffineExpr r : m.getResults()) {
      if (auto d = dyn_cast<AffineDimExpr>(r)) {
        row |= d.getPosition() == rank - 1;
        at.push_back(indices[d.getPosition()]);
        continue;
      }
      if (!zero)
        zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      at.push_back(zero);
    }
    Type element = arg.getType();
    auto vecType = VectorType::get({nr}, element);
    Value v;
    if (row) {
      Value pad = arith::ConstantOp::create(rewriter, loc, element,
                                            rewriter.getZeroAttr(element));
      v = vector::TransferReadOp::create(rewriter, loc, vecType, in->get(), at,
                                         pad,
                                         SmallVector<bool>(1, rowInBounds));
    } else {
      v = vector::BroadcastOp::create(
          rewriter, loc, vecType,
          tensor::ExtractOp::create(rewriter, loc, in->get(), at));
    }
    map.map(arg, v);
  }
  for (Operation &op : body->without_terminator()) {
    SmallVector<Value> operands;
    for (Value operand : op.getOperands()) {
      if (Value mapped = map.lookupOrNull(operand)) {
        operands.push_back(mapped);
        continue;
      }
      // Defined outside the body (a scalar constant): one per lane.
      operands.push_back(vector::BroadcastOp::create(
          rewriter, loc, VectorType::get({nr}, operand.getType()), operand));
    }
    OperationState state(loc, op.getName());
    state.addOperands(operands);
    state.addAttributes(op.getAttrs());
    state.addTypes(VectorType::get({nr}, op.getResult(0).getType()));
    map.map(op.getResult(0), rewriter.create(state)->getResult(0));
  }
  Value yielded = body->getTerminator()->getOperand(0);
  if (Value mapped = map.lookupOrNull(yielded))
    return mapped;
  return vector::BroadcastOp::create(
      rewriter, loc, VectorType::get({nr}, yielded.getType()), yielded);
}
