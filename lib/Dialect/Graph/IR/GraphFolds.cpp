//===- GraphFolds.cpp - folders and canonicalization patterns -------------===//
//
// Folders handle identities (x + 0, x * 1, no-op reshapes, ...) and splat
// constants, whose results are cheap. Evaluating ops over large dense
// constants is graph-fold-constants' job, which bounds the result size.
// A fold that returns an existing value only does so when the types match
// exactly, so users (func.return among them) never see a type change.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Dialect/Graph/IR/ConstantEval.h"
#include "graphopt/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>

using namespace mlir;
using namespace mlir::graphopt::graph;

namespace {

/// A splat result can always be built, so folders evaluate only when every
/// constant operand is a splat.
OpFoldResult foldSplats(Operation *op, ArrayRef<Attribute> operands) {
  for (Attribute a : operands) {
    auto d = dyn_cast_or_null<DenseElementsAttr>(a);
    if (!d || !d.isSplat())
      return {};
  }
  return evaluateConstantOp(op, operands, /*sizeLimit=*/0);
}

/// True when `attr` is a splat equal to `value` (float or integer). For
/// floats the sign of a zero must match too.
bool isSplatOf(Attribute attr, double value) {
  auto d = dyn_cast_or_null<DenseElementsAttr>(attr);
  if (!d || !d.isSplat())
    return false;
  if (isa<FloatType>(d.getElementType())) {
    double v = d.getSplatValue<APFloat>().convertToDouble();
    return v == value && std::signbit(v) == std::signbit(value);
  }
  if (d.getElementType().isInteger(1))
    return false;
  return d.getSplatValue<APInt>().getSExtValue() == (int64_t)value;
}

/// `x op identity -> x`, when the result type is exactly x's type.
OpFoldResult identityFold(Value result, Value x, Attribute other,
                          double identity) {
  if (x.getType() == result.getType() && isSplatOf(other, identity))
    return x;
  return {};
}

} // namespace

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

/// The additive identity: 0 for integers, -0.0 for floats (x + +0.0 is not
/// x when x is -0.0).
static double addIdentity(Type t) {
  return isa<FloatType>(getElementTypeOrSelf(t)) ? -0.0 : 0.0;
}

OpFoldResult AddOp::fold(FoldAdaptor a) {
  double zero = addIdentity(getType());
  if (OpFoldResult r = identityFold(getResult(), getLhs(), a.getRhs(), zero))
    return r;
  if (OpFoldResult r = identityFold(getResult(), getRhs(), a.getLhs(), zero))
    return r;
  return foldSplats(*this, a.getOperands());
}

OpFoldResult SubOp::fold(FoldAdaptor a) {
  if (OpFoldResult r = identityFold(getResult(), getLhs(), a.getRhs(), 0))
    return r;
  return foldSplats(*this, a.getOperands());
}

OpFoldResult MulOp::fold(FoldAdaptor a) {
  if (OpFoldResult r = identityFold(getResult(), getLhs(), a.getRhs(), 1))
    return r;
  if (OpFoldResult r = identityFold(getResult(), getRhs(), a.getLhs(), 1))
    return r;
  // x * 0 -> 0 for integers only: for floats, NaN * 0 and inf * 0 are NaN.
  auto type = cast<RankedTensorType>(getType());
  if (isa<IntegerType>(type.getElementType()) && type.hasStaticShape() &&
      (isSplatOf(a.getLhs(), 0) || isSplatOf(a.getRhs(), 0)))
    return DenseElementsAttr::get(
        type, APInt::getZero(type.getElementTypeBitWidth()));
  return foldSplats(*this, a.getOperands());
}

OpFoldResult DivOp::fold(FoldAdaptor a) {
  if (OpFoldResult r = identityFold(getResult(), getLhs(), a.getRhs(), 1))
    return r;
  return foldSplats(*this, a.getOperands());
}

OpFoldResult MaxOp::fold(FoldAdaptor a) {
  if (getLhs() == getRhs() && getLhs().getType() == getType())
    return getLhs();
  return foldSplats(*this, a.getOperands());
}

OpFoldResult MinOp::fold(FoldAdaptor a) {
  if (getLhs() == getRhs() && getLhs().getType() == getType())
    return getLhs();
  return foldSplats(*this, a.getOperands());
}

OpFoldResult PowOp::fold(FoldAdaptor a) {
  if (OpFoldResult r = identityFold(getResult(), getLhs(), a.getRhs(), 1))
    return r;
  return foldSplats(*this, a.getOperands());
}

OpFoldResult NegOp::fold(FoldAdaptor a) {
  if (auto inner = getInput().getDefiningOp<NegOp>())
    if (inner.getInput().getType() == getType())
      return inner.getInput();
  return foldSplats(*this, a.getOperands());
}

/// Idempotent unary ops: f(f(x)) = f(x).
template <typename OpTy>
static OpFoldResult foldIdempotent(OpTy op, ArrayRef<Attribute> operands) {
  if (auto inner = op.getInput().template getDefiningOp<OpTy>())
    if (inner.getType() == op.getType())
      return inner.getResult();
  return foldSplats(op, operands);
}

OpFoldResult AbsOp::fold(FoldAdaptor a) {
  return foldIdempotent(*this, a.getOperands());
}
OpFoldResult ReluOp::fold(FoldAdaptor a) {
  return foldIdempotent(*this, a.getOperands());
}

#define GRAPH_SPLAT_FOLD(OP)                                                   \
  OpFoldResult OP::fold(FoldAdaptor a) {                                       \
    return foldSplats(*this, a.getOperands());                                 \
  }
GRAPH_SPLAT_FOLD(ExpOp)
GRAPH_SPLAT_FOLD(LogOp)
GRAPH_SPLAT_FOLD(SqrtOp)
GRAPH_SPLAT_FOLD(RsqrtOp)
GRAPH_SPLAT_FOLD(TanhOp)
GRAPH_SPLAT_FOLD(SigmoidOp)
GRAPH_SPLAT_FOLD(SiluOp)
GRAPH_SPLAT_FOLD(GeluOp)
GRAPH_SPLAT_FOLD(ErfOp)
GRAPH_SPLAT_FOLD(SinOp)
GRAPH_SPLAT_FOLD(CosOp)
GRAPH_SPLAT_FOLD(TanOp)
GRAPH_SPLAT_FOLD(AsinOp)
GRAPH_SPLAT_FOLD(AcosOp)
GRAPH_SPLAT_FOLD(AtanOp)
GRAPH_SPLAT_FOLD(SinhOp)
GRAPH_SPLAT_FOLD(CoshOp)
GRAPH_SPLAT_FOLD(AsinhOp)
GRAPH_SPLAT_FOLD(AcoshOp)
GRAPH_SPLAT_FOLD(AtanhOp)
GRAPH_SPLAT_FOLD(FloorOp)
GRAPH_SPLAT_FOLD(CeilOp)
GRAPH_SPLAT_FOLD(RoundOp)
GRAPH_SPLAT_FOLD(HardSwishOp)
GRAPH_SPLAT_FOLD(HardSigmoidOp)
GRAPH_SPLAT_FOLD(CompareOp)

OpFoldResult SelectOp::fold(FoldAdaptor a) {
  auto cond = dyn_cast_or_null<DenseElementsAttr>(a.getCondition());
  if (cond && cond.isSplat()) {
    Value chosen = cond.getSplatValue<bool>() ? getOnTrue() : getOnFalse();
    if (chosen.getType() == getType())
      return chosen;
  }
  if (getOnTrue() == getOnFalse() && getOnTrue().getType() == getType())
    return getOnTrue();
  return foldSplats(*this, a.getOperands());
}

OpFoldResult CastOp::fold(FoldAdaptor a) {
  if (getInput().getType() == getType())
    return getInput();
  return foldSplats(*this, a.getOperands());
}

OpFoldResult BitcastOp::fold(FoldAdaptor a) {
  if (getInput().getType() == getType())
    return getInput();
  // A constant: the same bits (an i1 constant is left to the lowering).
  auto dense = dyn_cast_if_present<DenseElementsAttr>(a.getInput());
  auto out = cast<RankedTensorType>(getType());
  if (!dense || !out.hasStaticShape() ||
      dense.getElementType().getIntOrFloatBitWidth() !=
          out.getElementType().getIntOrFloatBitWidth() ||
      dense.getElementType().isInteger(1))
    return {};
  return dense.bitcast(out.getElementType());
}

OpFoldResult TransposeOp::fold(FoldAdaptor a) {
  if (llvm::equal(getPermutation(),
                  llvm::seq<int64_t>(0, getPermutation().size())) &&
      getInput().getType() == getType())
    return getInput();
  return foldSplats(*this, a.getOperands());
}

OpFoldResult ReshapeOp::fold(FoldAdaptor a) {
  auto in = cast<RankedTensorType>(getInput().getType());
  if (in == getType() && in.hasStaticShape())
    return getInput();
  return foldSplats(*this, a.getOperands());
}

OpFoldResult BroadcastToOp::fold(FoldAdaptor a) {
  auto in = cast<RankedTensorType>(getInput().getType());
  if (in == getType() && in.hasStaticShape())
    return getInput();
  return foldSplats(*this, a.getOperands());
}

OpFoldResult ConcatOp::fold(FoldAdaptor) {
  if (getInputs().size() == 1 && getInputs()[0].getType() == getType())
    return getInputs()[0];
  return {};
}

OpFoldResult SliceOp::fold(FoldAdaptor a) {
  auto in = cast<RankedTensorType>(getInput().getType());
  if (in == getType() && in.hasStaticShape() &&
      llvm::all_of(getStart(), [](int64_t s) { return s == 0; }) &&
      llvm::all_of(getStep(), [](int64_t s) { return s == 1; }))
    return getInput();
  return foldSplats(*this, a.getOperands());
}

OpFoldResult ReduceOp::fold(FoldAdaptor) {
  if (getAxes().empty() && getInput().getType() == getType())
    return getInput();
  return {};
}

//===----------------------------------------------------------------------===//
// Canonicalization patterns (algebraic simplification)
//===----------------------------------------------------------------------===//

namespace {

/// transpose(transpose(x, p), q) -> transpose(x, p o q).
struct ComposeTransposes : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<TransposeOp>();
    if (!inner)
      return rewriter.notifyMatchFailure(op, "input is not a transpose");
    SmallVector<int64_t> perm;
    for (int64_t p : op.getPermutation())
      perm.push_back(inner.getPermutation()[p]);
    rewriter.replaceOpWithNewOp<TransposeOp>(op, op.getType(), inner.getInput(),
                                             perm);
    return success();
  }
};

/// A transpose that keeps the dims of size other than 1 in their order
/// (transpose([1, 128, 768], [1, 0, 2])) moves no element: a reshape,
/// which lowers to no copy. Static shapes only.
struct TransposeOfUnitDimsToReshape : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto in = cast<RankedTensorType>(op.getInput().getType());
    auto out = cast<RankedTensorType>(op.getType());
    if (!in.hasStaticShape() || !out.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shape");
    int64_t last = -1;
    for (int64_t p : op.getPermutation()) {
      if (in.getDimSize(p) == 1)
        continue;
      if (p < last)
        return rewriter.notifyMatchFailure(op, "moves a dim of size > 1");
      last = p;
    }
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, out, op.getInput(),
                                           out.getShape());
    return success();
  }
};

/// reshape(reshape(x)) -> reshape(x); the inner shape does not matter.
struct ComposeReshapes : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<ReshapeOp>();
    if (!inner)
      return rewriter.notifyMatchFailure(op, "input is not a reshape");
    // With a -1 in the outer shape the element count must be known from the
    // original input, which it is: reshape preserves element counts.
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), inner.getInput(),
                                           op.getShape());
    return success();
  }
};

/// broadcast_to(broadcast_to(x, s1), s2) -> broadcast_to(x, s2) when the
/// outer shape has no -1 entries and x has a static shape.
struct ComposeBroadcasts : OpRewritePattern<BroadcastToOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastToOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<BroadcastToOp>();
    if (!inner)
      return rewriter.notifyMatchFailure(op, "input is not a broadcast_to");
    if (llvm::is_contained(op.getShape(), -1))
      return rewriter.notifyMatchFailure(op, "outer shape keeps input dims");
    // A dynamic dim of the original input was assumed equal to the inner
    // target there; composing would assume it equals the outer one instead.
    if (!cast<RankedTensorType>(inner.getInput().getType()).hasStaticShape())
      return rewriter.notifyMatchFailure(op, "original input is dynamic");
    rewriter.replaceOpWithNewOp<BroadcastToOp>(op, op.getType(),
                                               inner.getInput(), op.getShape());
    return success();
  }
};

/// cast(cast(x : A -> B) : B -> A) -> x when A -> B is exact (B represents
/// every value of A): integer widening, f16/bf16 -> f32, i1 -> anything.
struct FoldLosslessCastPair : OpRewritePattern<CastOp> {
  using OpRewritePattern::OpRewritePattern;
  static bool isExact(Type from, Type to) {
    if (from.isInteger(1))
      return true;
    if (auto fi = dyn_cast<IntegerType>(from))
      if (auto ti = dyn_cast<IntegerType>(to))
        return ti.getWidth() >= fi.getWidth();
    if ((from.isF16() || from.isBF16()) && to.isF32())
      return true;
    return false;
  }
  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<CastOp>();
    if (!inner || inner.getInput().getType() != op.getType())
      return rewriter.notifyMatchFailure(op, "not a cast round trip");
    Type a = getElementTypeOrSelf(inner.getInput().getType());
    Type b = getElementTypeOrSelf(inner.getType());
    if (!isExact(a, b))
      return rewriter.notifyMatchFailure(op, "first cast may lose information");
    rewriter.replaceOp(op, inner.getInput());
    return success();
  }
};

/// x + neg(y) -> x - y.
struct AddNegToSub : OpRewritePattern<AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AddOp op,
                                PatternRewriter &rewriter) const override {
    auto neg = op.getRhs().getDefiningOp<NegOp>();
    if (!neg)
      return rewriter.notifyMatchFailure(op, "rhs is not a neg");
    rewriter.replaceOpWithNewOp<SubOp>(op, op.getType(), op.getLhs(),
                                       neg.getInput());
    return success();
  }
};

/// Constants go to the rhs of commutative ops, so other patterns see one
/// form: add(c, x) -> add(x, c).
template <typename OpTy>
struct ConstantToRhs : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!matchPattern(op.getLhs(), m_Constant()) ||
        matchPattern(op.getRhs(), m_Constant()))
      return rewriter.notifyMatchFailure(op, "no lone constant on the lhs");
    rewriter.modifyOpInPlace(op, [&] {
      Value l = op.getLhs();
      op->setOperand(0, op.getRhs());
      op->setOperand(1, l);
    });
    return success();
  }
};

/// neg(sub(a, b)) -> sub(b, a), for integers only: with floats and a == b
/// the sign of the zero result would flip.
struct NegOfSub : OpRewritePattern<NegOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NegOp op,
                                PatternRewriter &rewriter) const override {
    auto sub = op.getInput().getDefiningOp<SubOp>();
    if (!sub || !sub->hasOneUse())
      return rewriter.notifyMatchFailure(op, "input is not a single-use sub");
    if (isa<FloatType>(getElementTypeOrSelf(op.getType())))
      return rewriter.notifyMatchFailure(op, "float: would flip a zero's sign");
    rewriter.replaceOpWithNewOp<SubOp>(op, op.getType(), sub.getRhs(),
                                       sub.getLhs());
    return success();
  }
};

/// pow(x, 2) -> x * x. (pow(x, 0.5) -> sqrt(x) is not done: it differs at
/// x = -0.0 and x = -inf.)
struct SimplifyPow : OpRewritePattern<PowOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(PowOp op,
                                PatternRewriter &rewriter) const override {
    Attribute rhs;
    if (!matchPattern(op.getRhs(), m_Constant(&rhs)))
      return rewriter.notifyMatchFailure(op, "exponent is not constant");
    if (op.getLhs().getType() != op.getType())
      return rewriter.notifyMatchFailure(op, "exponent broadcasts the base");
    if (isSplatOf(rhs, 2.0)) {
      rewriter.replaceOpWithNewOp<MulOp>(op, op.getType(), op.getLhs(),
                                         op.getLhs());
      return success();
    }
    return rewriter.notifyMatchFailure(op, "exponent is not 2");
  }
};

} // namespace

void AddOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<ConstantToRhs<AddOp>, AddNegToSub>(context);
}
void MulOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<ConstantToRhs<MulOp>>(context);
}
void PowOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<SimplifyPow>(context);
}
void NegOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<NegOfSub>(context);
}
void CastOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                         MLIRContext *context) {
  results.add<FoldLosslessCastPair>(context);
}
void TransposeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<ComposeTransposes, TransposeOfUnitDimsToReshape>(context);
}
void ReshapeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<ComposeReshapes>(context);
}
void BroadcastToOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                MLIRContext *context) {
  results.add<ComposeBroadcasts>(context);
}
