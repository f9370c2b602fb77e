//===- ExpandFloat8.cpp - graph-expand-float8 -----------------------------===//
//
// The 8-bit floats are storage types (docs/Dialects/Graph.md): casts go
// through f32, and arith-emulate-unsupported-floats turns what else
// computes on them (compares) into f32 ops between conversions. What is
// left are arith.extf (f8 -> f32), arith.truncf (f32/f64 -> f8) and f8
// constants, which LLVM cannot lower (it has no 8-bit float type; memory
// holds f8 as i8). This pass rewrites them into integer and f32/f64
// arithmetic on scalars and vectors alike:
//
// - extf: the byte's sign, exponent and mantissa fields become the f32's
//   (exponent rebiased; a zero exponent field is a subnormal,
//   mantissa * 2^(1 - bias - m) computed in f32), NaN and infinity by
//   their encodings.
// - truncf, round to nearest even with saturation (ONNX's saturate=1):
//   |x| is clamped to the largest finite value (infinities too), divided by
//   its quantum 2^(max(e, 1 - bias) - m) (exact: a power of two), rounded
//   with math.roundeven and multiplied back, then encoded: a subnormal as
//   r * 2^(bias - 1 + m), a normal value by its f32/f64 exponent and top m
//   mantissa bits. NaN gives the format's NaN; the FNUZ formats have no
//   negative zero.
// - constants: the same bits as i8, bitcast.
//
//===----------------------------------------------------------------------===//

#include "graphopt/Codegen/Passes.h"
#include "graphopt/Codegen/Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir::graphopt {
#define GEN_PASS_DEF_GRAPHEXPANDFLOAT8PASS
#include "graphopt/Codegen/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;

namespace {

/// The fields and special values of one 8-bit float format.
struct Float8Format {
  unsigned mantissa; // stored mantissa bits
  int bias;
  bool hasInf; // E5M2: exponent field all ones is inf (mantissa 0) or NaN
  bool fnuz;   // 0x80 is the only NaN; no infinities, no negative zero
  uint8_t nan; // the NaN this pass writes
  double largest;
};

std::optional<Float8Format> formatOf(Type t) {
  auto ft = dyn_cast<FloatType>(t);
  if (!ft)
    return std::nullopt;
  double largest =
      APFloat::getLargest(ft.getFloatSemantics()).convertToDouble();
  if (isa<Float8E4M3FNType>(t))
    return Float8Format{3, 7, false, false, 0x7F, largest};
  if (isa<Float8E5M2Type>(t))
    return Float8Format{2, 15, true, false, 0x7E, largest};
  if (isa<Float8E4M3FNUZType>(t))
    return Float8Format{3, 8, false, true, 0x80, largest};
  if (isa<Float8E5M2FNUZType>(t))
    return Float8Format{2, 16, false, true, 0x80, largest};
  return std::nullopt;
}

/// `element` in the shape of `like` (a vector type, or a scalar).
Type shapedLike(Type like, Type element) {
  if (auto v = dyn_cast<VectorType>(like))
    return v.clone(element);
  return element;
}

/// Builds integer and float constants of the shape of `like`.
struct Builder {
  OpBuilder &b;
  Location loc;
  Type like;

  Value splat(Type element, TypedAttr scalar) const {
    Type t = shapedLike(like, element);
    TypedAttr a = scalar;
    if (auto v = dyn_cast<VectorType>(t))
      a = DenseElementsAttr::get(v, scalar);
    return arith::ConstantOp::create(b, loc, t, a);
  }
  Value i(unsigned width, int64_t v) const {
    Type e = b.getIntegerType(width);
    return splat(e, b.getIntegerAttr(e, v));
  }
  Value f(FloatType e, double v) const {
    return splat(e, b.getFloatAttr(e, v));
  }
};

/// f8 -> f32 (then to the result type, exactly).
struct ExpandExtF : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    Type inType = op.getIn().getType();
    std::optional<Float8Format> fmt = formatOf(getElementTypeOrSelf(inType));
    if (!fmt)
      return failure();
    Location loc = op.getLoc();
    Builder c{rewriter, loc, inType};
    const unsigned m = fmt->mantissa;
    Type i8 = shapedLike(inType, rewriter.getI8Type());
    Type i32 = shapedLike(inType, rewriter.getI32Type());
    Type f32 = shapedLike(inType, rewriter.getF32Type());
    Value u = arith::ExtUIOp::create(
        rewriter, loc, i32,
        arith::BitcastOp::create(rewriter, loc, i8, op.getIn()));
    Value mag = arith::AndIOp::create(rewriter, loc, u, c.i(32, 0x7F));
    Value sign = arith::ShLIOp::create(
        rewriter, loc, arith::AndIOp::create(rewriter, loc, u, c.i(32, 0x80)),
        c.i(32, 24));
    Value e = arith::ShRUIOp::create(rewriter, loc, mag, c.i(32, m));
    Value man =
        arith::AndIOp::create(rewriter, loc, mag, c.i(32, (1 << m) - 1));
    // Normal: the f32 with the rebiased exponent and the mantissa on top.
    Value normal = arith::OrIOp::create(
        rewriter, loc,
        arith::ShLIOp::create(
            rewriter, loc,
            arith::AddIOp::create(rewriter, loc, e, c.i(32, 127 - fmt->bias)),
            c.i(32, 23)),
        arith::ShLIOp::create(rewriter, loc, man, c.i(32, 23 - m)));
    // Subnormal or zero: mantissa * 2^(1 - bias - m), exact in f32.
    Value sub = arith::MulFOp::create(
        rewriter, loc, arith::UIToFPOp::create(rewriter, loc, f32, man),
        c.f(rewriter.getF32Type(), std::ldexp(1.0, 1 - fmt->bias - (int)m)));
    Value isSub = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        e, c.i(32, 0));
    Value bits = arith::SelectOp::create(
        rewriter, loc, isSub, arith::BitcastOp::create(rewriter, loc, i32, sub),
        normal);
    Value isNaN;
    if (fmt->fnuz) {
      isNaN = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, u,
                                    c.i(32, 0x80));
    } else if (fmt->hasInf) {
      Value top = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        e, c.i(32, (1 << (7 - m)) - 1));
      Value zeroMan = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq, man, c.i(32, 0));
      bits = arith::SelectOp::create(
          rewriter, loc, arith::AndIOp::create(rewriter, loc, top, zeroMan),
          c.i(32, 0x7F800000), bits);
      isNaN = arith::AndIOp::create(
          rewriter, loc, top,
          arith::XOrIOp::create(
              rewriter, loc, zeroMan,
              c.splat(rewriter.getI1Type(), rewriter.getBoolAttr(true))));
    } else {
      isNaN = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                    mag, c.i(32, 0x7F));
    }
    bits = arith::SelectOp::create(rewriter, loc, isNaN, c.i(32, 0x7FC00000),
                                   bits);
    bits = arith::OrIOp::create(rewriter, loc, bits, sign);
    Value r = arith::BitcastOp::create(rewriter, loc, f32, bits);
    Type outType = op.getType();
    auto outElem = cast<FloatType>(getElementTypeOrSelf(outType));
    if (outElem.getWidth() > 32)
      r = arith::ExtFOp::create(rewriter, loc, outType, r);
    else if (outElem != rewriter.getF32Type())
      r = arith::TruncFOp::create(rewriter, loc, outType, r); // exact
    rewriter.replaceOp(op, r);
    return success();
  }
};

/// f16/bf16/f32/f64 -> f8, round to nearest even, saturating.
struct ExpandTruncF : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    Type outType = op.getType();
    std::optional<Float8Format> fmt = formatOf(getElementTypeOrSelf(outType));
    if (!fmt)
      return failure();
    Location loc = op.getLoc();
    Value x = op.getIn();
    auto inElem = cast<FloatType>(getElementTypeOrSelf(x.getType()));
    if (inElem.getWidth() < 32) // f16, bf16: exactly to f32 first
      x = arith::ExtFOp::create(
          rewriter, loc, shapedLike(x.getType(), rewriter.getF32Type()), x);
    auto s = cast<FloatType>(getElementTypeOrSelf(x.getType()));
    const unsigned w = s.getWidth(), sm = s.getFPMantissaWidth() - 1,
                   m = fmt->mantissa;
    const int sb = w == 64 ? 1023 : 127, bias = fmt->bias;
    Builder c{rewriter, loc, x.getType()};
    Type iw = shapedLike(x.getType(), rewriter.getIntegerType(w));
    Type i8 = shapedLike(x.getType(), rewriter.getI8Type());
    Type fs = x.getType();
    auto shl = [&](Value v, int64_t n) {
      return arith::ShLIOp::create(rewriter, loc, v, c.i(w, n)).getResult();
    };
    auto shr = [&](Value v, int64_t n) {
      return arith::ShRUIOp::create(rewriter, loc, v, c.i(w, n)).getResult();
    };
    Value bits = arith::BitcastOp::create(rewriter, loc, iw, x);
    Value negative = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::slt, bits, c.i(w, 0));
    Value isNaN =
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::UNO, x, x);
    // |x| clamped to the largest finite value (saturation; inf too).
    Value a = math::AbsFOp::create(rewriter, loc, x);
    Value largest = c.f(s, fmt->largest);
    Value over = arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OGT,
                                       a, largest);
    a = arith::SelectOp::create(rewriter, loc, over, largest, a);
    // Quantum 2^q, q = max(exponent(a), 1 - bias) - m; a / 2^q rounded.
    Value ea = arith::SubIOp::create(
        rewriter, loc, shr(arith::BitcastOp::create(rewriter, loc, iw, a), sm),
        c.i(w, sb));
    ea = arith::MaxSIOp::create(rewriter, loc, ea, c.i(w, 1 - bias));
    Value q = arith::SubIOp::create(rewriter, loc, ea, c.i(w, m));
    Value scaleDown = arith::BitcastOp::create(
        rewriter, loc, fs,
        shl(arith::SubIOp::create(rewriter, loc, c.i(w, sb), q), sm));
    Value scaleUp = arith::BitcastOp::create(
        rewriter, loc, fs,
        shl(arith::AddIOp::create(rewriter, loc, q, c.i(w, sb)), sm));
    Value r = arith::MulFOp::create(
        rewriter, loc,
        math::RoundEvenOp::create(
            rewriter, loc, arith::MulFOp::create(rewriter, loc, a, scaleDown)),
        scaleUp);
    // Encode: a subnormal (or zero) as r * 2^(bias - 1 + m); a normal value
    // by its exponent, rebiased, and its top m mantissa bits.
    Value minNormal = c.f(s, std::ldexp(1.0, 1 - bias));
    Value isSub = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OLT, r, minNormal);
    Value subCode = arith::FPToUIOp::create(
        rewriter, loc, iw,
        arith::MulFOp::create(rewriter, loc, r,
                              c.f(s, std::ldexp(1.0, bias - 1 + (int)m))));
    Value rbits = arith::BitcastOp::create(rewriter, loc, iw, r);
    Value er = arith::SubIOp::create(rewriter, loc, shr(rbits, sm), c.i(w, sb));
    Value normCode = arith::OrIOp::create(
        rewriter, loc,
        shl(arith::AddIOp::create(rewriter, loc, er, c.i(w, bias)), m),
        arith::AndIOp::create(rewriter, loc, shr(rbits, sm - m),
                              c.i(w, (1 << m) - 1)));
    Value code =
        arith::SelectOp::create(rewriter, loc, isSub, subCode, normCode);
    Value withSign = arith::SelectOp::create(
        rewriter, loc, negative,
        arith::OrIOp::create(rewriter, loc, code, c.i(w, 0x80)), code);
    if (fmt->fnuz) { // no negative zero: -0 is 0 (0x80 is NaN)
      Value zero = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq, code, c.i(w, 0));
      withSign = arith::SelectOp::create(rewriter, loc, zero, code, withSign);
    }
    code = arith::SelectOp::create(rewriter, loc, isNaN, c.i(w, fmt->nan),
                                   withSign);
    Value byte = arith::TruncIOp::create(rewriter, loc, i8, code);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, outType, byte);
    return success();
  }
};

/// An f8 constant: its bits as an i8 constant, bitcast. (Not a greedy
/// pattern: the bitcast of a constant folds back into the f8 constant.)
void expandConstant(arith::ConstantOp op) {
  Type t = op.getType();
  if (!formatOf(getElementTypeOrSelf(t)) || isa<TensorType>(t))
    return;
  OpBuilder b(op);
  Type i8 = shapedLike(t, b.getI8Type());
  TypedAttr bits;
  if (auto f = dyn_cast<FloatAttr>(op.getValue()))
    bits = b.getIntegerAttr(i8, f.getValue().bitcastToAPInt());
  else if (auto d = dyn_cast<DenseElementsAttr>(op.getValue()))
    bits = d.bitcast(b.getI8Type());
  else
    return;
  Value c = arith::ConstantOp::create(b, op.getLoc(), i8, bits);
  op.replaceAllUsesWith(
      arith::BitcastOp::create(b, op.getLoc(), t, c).getResult());
  op.erase();
}

struct GraphExpandFloat8Pass
    : public graphopt::impl::GraphExpandFloat8PassBase<GraphExpandFloat8Pass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandExtF, ExpandTruncF>(&getContext());
    if (failed(
            graphopt::applyPatternsOnly(getOperation(), std::move(patterns))))
      return signalPassFailure();
    getOperation()->walk([](arith::ConstantOp op) { expandConstant(op); });
  }
};

} // namespace
