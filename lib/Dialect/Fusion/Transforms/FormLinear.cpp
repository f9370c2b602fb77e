//===- FormLinear.cpp - fusion-form-linear --------------------------------===//
//
// Written in C++ rather than DRR: the match needs shape checks (a 2-D weight,
// a 1-D bias of the output width, exact result types) and absorbs an
// optional activation, which DRR would spell as several patterns with native
// constraints anyway.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Dialect/Fusion/IR/FusionOps.h"
#include "graphopt/Dialect/Fusion/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::graphopt::fusion {
#define GEN_PASS_DEF_FUSIONFORMLINEARPASS
#include "graphopt/Dialect/Fusion/Transforms/Passes.h.inc"
} // namespace mlir::graphopt::fusion

using namespace mlir;
using namespace mlir::graphopt;
using namespace mlir::graphopt::fusion;

namespace {

/// add(matmul(x, W or transpose(W, [1, 0])), b) -> fusion.linear.
struct MatMulBiasToLinear : OpRewritePattern<graph::AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(graph::AddOp add,
                                PatternRewriter &rewriter) const override {
    auto mm = add.getLhs().getDefiningOp<graph::MatMulOp>();
    Value bias = add.getRhs();
    if (!mm) {
      mm = add.getRhs().getDefiningOp<graph::MatMulOp>();
      bias = add.getLhs();
    }
    if (!mm || !mm->hasOneUse())
      return rewriter.notifyMatchFailure(add, "no single-use matmul operand");
    auto biasType = cast<RankedTensorType>(bias.getType());
    auto wType = cast<RankedTensorType>(mm.getRhs().getType());
    auto xType = cast<RankedTensorType>(mm.getLhs().getType());
    if (wType.getRank() != 2 || xType.getRank() < 1 || biasType.getRank() != 1)
      return rewriter.notifyMatchFailure(add, "not [...,K] x [K,N] + [N]");
    if (!isa<FloatType>(wType.getElementType()))
      return rewriter.notifyMatchFailure(add, "fusion.linear is for floats");
    Value weight = mm.getRhs();
    bool transposed = false;
    if (auto t = weight.getDefiningOp<graph::TransposeOp>()) {
      if (llvm::equal(t.getPermutation(), ArrayRef<int64_t>{1, 0})) {
        weight = t.getInput();
        transposed = true;
      }
    }
    auto linear = LinearOp::create(
        rewriter, add.getLoc(), add.getType(), mm.getLhs(), weight, bias,
        transposed ? rewriter.getUnitAttr() : UnitAttr(),
        ActivationAttr::get(getContext(), Activation::None));
    // The add's declared type must be what fusion.linear computes.
    SmallVector<RankedTensorType> inferred;
    if (failed(graph::inferResultTypes(linear, inferred)) ||
        !graph::areCompatibleTensorTypes(inferred[0], add.getType())) {
      rewriter.eraseOp(linear);
      return rewriter.notifyMatchFailure(add, "bias does not match [N]");
    }
    rewriter.replaceOp(add, linear.getResult());
    return success();
  }
};

/// activation(fusion.linear(...)) -> fusion.linear(..., activation).
template <typename ActOp>
struct AbsorbActivation : OpRewritePattern<ActOp> {
  using OpRewritePattern<ActOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(ActOp act,
                                PatternRewriter &rewriter) const override {
    auto linear = act.getInput().template getDefiningOp<LinearOp>();
    if (!linear || !linear->hasOneUse() ||
        linear.getActivation() != Activation::None ||
        linear.getType() != act.getType())
      return rewriter.notifyMatchFailure(act, "no plain single-use linear");
    Activation k = *getAbsorbableActivation(act);
    rewriter.modifyOpInPlace(linear, [&] { linear.setActivation(k); });
    rewriter.replaceOp(act, linear.getResult());
    return success();
  }
};

struct FusionFormLinearPass
    : public mlir::graphopt::fusion::impl::FusionFormLinearPassBase<
          FusionFormLinearPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateFormLinearPatterns(patterns);
    int64_t before = 0, after = 0;
    getOperation()->walk([&](LinearOp) { ++before; });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    getOperation()->walk([&](LinearOp) { ++after; });
    numFormed += after - before;
  }
};

} // namespace

void mlir::graphopt::fusion::populateFormLinearPatterns(
    RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<MatMulBiasToLinear>(ctx, /*benefit=*/2);
  patterns.add<AbsorbActivation<graph::ReluOp>>(ctx);
  patterns.add<AbsorbActivation<graph::GeluOp>>(ctx);
  patterns.add<AbsorbActivation<graph::SiluOp>>(ctx);
  patterns.add<AbsorbActivation<graph::SigmoidOp>>(ctx);
  patterns.add<AbsorbActivation<graph::TanhOp>>(ctx);
}
