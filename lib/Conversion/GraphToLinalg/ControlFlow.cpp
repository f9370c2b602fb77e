//===- ControlFlow.cpp - graph.if / graph.loop to scf ---------------------===//
//
// graph.if   -> scf.if on the extracted i1.
// graph.loop -> scf.while carrying (iteration: i64, condition: i1, values...):
//   before: continue while iteration < trip_count && condition;
//   after:  the body, with the iteration number re-wrapped as tensor<i64>;
//           graph.yield becomes: extract the new condition, iteration + 1.
// The ops in the regions are converted by the other patterns like any
// others.
//
//===----------------------------------------------------------------------===//

#include "GraphToLinalgUtils.h"

#include "graphopt/Dialect/Graph/IR/GraphOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::graphopt;
using namespace mlir::graphopt::graph;
using namespace mlir::graphopt::lowering;

namespace {

Value extractScalar(OpBuilder &b, Location loc, Value t) {
  return tensor::ExtractOp::create(b, loc, t, ValueRange{});
}

/// Values cast (tensor.cast) to `types` where they differ.
SmallVector<Value> castTo(OpBuilder &b, Location loc, ValueRange values,
                          TypeRange types) {
  SmallVector<Value> out;
  for (auto [v, t] : llvm::zip(values, types))
    out.push_back(v.getType() == t
                      ? v
                      : tensor::CastOp::create(b, loc, t, v).getResult());
  return out;
}

struct IfLowering : OpRewritePattern<IfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IfOp op, PatternRewriter &b) const override {
    Value cond = extractScalar(b, op.getLoc(), op.getCondition());
    auto ifOp = scf::IfOp::create(b, op.getLoc(), op.getResultTypes(), cond,
                                  /*addThenBlock=*/false,
                                  /*addElseBlock=*/false);
    b.inlineRegionBefore(op.getThenRegion(), ifOp.getThenRegion(),
                         ifOp.getThenRegion().end());
    b.inlineRegionBefore(op.getElseRegion(), ifOp.getElseRegion(),
                         ifOp.getElseRegion().end());
    b.replaceOp(op, ifOp.getResults());
    return success();
  }
};

struct LoopLowering : OpRewritePattern<LoopOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LoopOp op, PatternRewriter &b) const override {
    Location loc = op.getLoc();
    Value trip = extractScalar(b, loc, op.getTripCount());
    Value cond0 = extractScalar(b, loc, op.getCondition());
    Value zero = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(0));
    SmallVector<Value> inits = {zero, cond0};
    // Carried values have the result types (inits may be more static).
    llvm::append_range(inits,
                       castTo(b, loc, op.getInits(), op.getResultTypes()));
    SmallVector<Type> types;
    for (Value v : inits)
      types.push_back(v.getType());
    SmallVector<Location> locs(types.size(), loc);
    auto whileOp = scf::WhileOp::create(b, loc, types, inits);

    Block *before = b.createBlock(&whileOp.getBefore(), {}, types, locs);
    b.setInsertionPointToStart(before);
    Value lt = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                     before->getArgument(0), trip);
    Value go = arith::AndIOp::create(b, loc, lt, before->getArgument(1));
    scf::ConditionOp::create(b, loc, go, before->getArguments());

    Block *after = b.createBlock(&whileOp.getAfter(), {}, types, locs);
    b.setInsertionPointToStart(after);
    Value iv = tensor::FromElementsOp::create(
        b, loc, RankedTensorType::get({}, b.getI64Type()),
        ValueRange{after->getArgument(0)});
    SmallVector<Value> bodyArgs = {iv};
    llvm::append_range(bodyArgs, after->getArguments().drop_front(2));
    b.mergeBlocks(&op.getBody().front(), after, bodyArgs);

    b.setInsertionPointAfter(whileOp);
    b.replaceOp(op, whileOp.getResults().drop_front(2));
    return success();
  }
};

struct YieldLowering : OpRewritePattern<YieldOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(YieldOp op,
                                PatternRewriter &b) const override {
    Location loc = op.getLoc();
    Operation *parent = op->getParentOp();
    if (auto ifOp = dyn_cast<scf::IfOp>(parent)) {
      b.replaceOpWithNewOp<scf::YieldOp>(
          op, castTo(b, loc, op.getValues(), ifOp.getResultTypes()));
      return success();
    }
    if (auto whileOp = dyn_cast<scf::WhileOp>(parent)) {
      Block *block = op->getBlock();
      Value next = arith::AddIOp::create(
          b, loc, block->getArgument(0),
          arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(1)));
      Value cond = extractScalar(b, loc, op.getValues()[0]);
      SmallVector<Value> values = {next, cond};
      llvm::append_range(
          values, castTo(b, loc, op.getValues().drop_front(),
                         TypeRange(whileOp.getResultTypes()).drop_front(2)));
      b.replaceOpWithNewOp<scf::YieldOp>(op, values);
      return success();
    }
    return b.notifyMatchFailure(op, "parent is not converted yet");
  }
};

} // namespace

void mlir::graphopt::lowering::populateControlFlowLoweringPatterns(
    RewritePatternSet &patterns) {
  patterns.add<IfLowering, LoopLowering, YieldLowering>(
      patterns.getContext());
}
