//===- GraphToLinalg.cpp - convert-graph-to-linalg ------------------------===//
//
// graph ops -> linalg/tensor/arith/math on tensors, destination-passing style.
//
// f16 and bf16 are computed in f32 (operands extended in the scalar body,
// the result truncated), as PyTorch does on the CPU; matmuls and reductions
// accumulate in f32 for them.
//
// Broadcasting is decided statically: an operand dim that is statically 1
// while the result dim is not is broadcast; a dynamic operand dim is assumed
// to equal the result dim (docs/Dialects/Graph.md, "Dynamic dimensions").
//
//===----------------------------------------------------------------------===//

#include "GraphToLinalgUtils.h"

#include "graphopt/Conversion/Passes.h"
#include "graphopt/Dialect/Fusion/IR/FusionOps.h"
#include "graphopt/Dialect/Graph/IR/GraphOps.h"
#include "graphopt/Dialect/Graph/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

namespace mlir::graphopt {
#define GEN_PASS_DEF_CONVERTGRAPHTOLINALGPASS
#include "graphopt/Conversion/Passes.h.inc"
} // namespace mlir::graphopt

using namespace mlir;
using namespace mlir::graphopt;
using namespace mlir::graphopt::graph;
using namespace mlir::graphopt::lowering;

// Helpers shared with the other lowering files (GraphToLinalgUtils.h).
namespace mlir::graphopt::lowering {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

RankedTensorType tensorTypeOf(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// The type arithmetic is done in: f32 for f16/bf16, the type itself else.
Type computeType(Type t) {
  if (t.isF16() || t.isBF16())
    return Float32Type::get(t.getContext());
  return t;
}

Value toCompute(OpBuilder &b, Location loc, Value v) {
  Type ct = computeType(v.getType());
  return ct == v.getType() ? v
                           : arith::ExtFOp::create(b, loc, ct, v).getResult();
}

Value fromCompute(OpBuilder &b, Location loc, Value v, Type t) {
  return v.getType() == t ? v
                          : arith::TruncFOp::create(b, loc, t, v).getResult();
}

Value floatConst(OpBuilder &b, Location loc, Type t, double v) {
  return arith::ConstantOp::create(b, loc, t, b.getFloatAttr(t, v));
}

/// Sizes of `v`'s dims as OpFoldResults (static attrs, tensor.dim else).
SmallVector<OpFoldResult> dimSizes(OpBuilder &b, Location loc, Value v) {
  SmallVector<OpFoldResult> sizes;
  auto t = tensorTypeOf(v);
  for (int64_t d = 0; d < t.getRank(); ++d) {
    if (t.isDynamicDim(d))
      sizes.push_back(tensor::DimOp::create(b, loc, v, d).getResult());
    else
      sizes.push_back(b.getIndexAttr(t.getDimSize(d)));
  }
  return sizes;
}

/// Sizes of a broadcast result: a dynamic result dim is read from the first
/// operand whose aligned dim is not statically 1.
SmallVector<OpFoldResult> broadcastSizes(OpBuilder &b, Location loc,
                                         RankedTensorType resultType,
                                         ValueRange operands) {
  SmallVector<OpFoldResult> sizes;
  int64_t rank = resultType.getRank();
  for (int64_t d = 0; d < rank; ++d) {
    if (!resultType.isDynamicDim(d)) {
      sizes.push_back(b.getIndexAttr(resultType.getDimSize(d)));
      continue;
    }
    Value size;
    for (Value v : operands) {
      auto t = tensorTypeOf(v);
      int64_t od = d - (rank - t.getRank());
      if (od < 0 || t.getDimSize(od) == 1)
        continue;
      size = t.isDynamicDim(od)
                 ? tensor::DimOp::create(b, loc, v, od).getResult()
                 : arith::ConstantIndexOp::create(b, loc, t.getDimSize(od))
                       .getResult();
      break;
    }
    if (!size)
      size = arith::ConstantIndexOp::create(b, loc, 1);
    sizes.push_back(size);
  }
  return sizes;
}

/// The indexing map reading `operandType` broadcast into a result of
/// `resultType` (NumPy alignment at the trailing dim).
AffineMap broadcastMap(MLIRContext *ctx, RankedTensorType operandType,
                       RankedTensorType resultType) {
  int64_t rank = resultType.getRank();
  int64_t off = rank - operandType.getRank();
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < operandType.getRank(); ++d) {
    bool broadcast =
        operandType.getDimSize(d) == 1 && resultType.getDimSize(d + off) != 1;
    exprs.push_back(broadcast ? getAffineConstantExpr(0, ctx)
                              : getAffineDimExpr(d + off, ctx));
  }
  return AffineMap::get(rank, 0, exprs, ctx);
}

Value emptyTensor(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
                  Type elementType) {
  return tensor::EmptyOp::create(b, loc, sizes, elementType);
}

/// An elementwise linalg.generic over `operands` broadcast to `resultType`,
/// with `body` computing one element from the operands' scalars.
Value buildElementwise(
    OpBuilder &b, Location loc, RankedTensorType resultType,
    ValueRange operands,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  MLIRContext *ctx = b.getContext();
  // Buffer planning: write the result into an operand of the same type that
  // dies here (one-shot bufferization then updates it in place) rather than
  // into a new tensor. Arguments and constants are read-only buffers, so
  // they are never chosen.
  Value init;
  for (Value v : operands) {
    Operation *def = v.getDefiningOp();
    if (v.getType() == resultType && v.hasOneUse() && def &&
        !def->hasTrait<OpTrait::ConstantLike>()) {
      init = v;
      break;
    }
  }
  if (!init)
    init = emptyTensor(b, loc, broadcastSizes(b, loc, resultType, operands),
                       resultType.getElementType());
  SmallVector<AffineMap> maps;
  for (Value v : operands)
    maps.push_back(broadcastMap(ctx, tensorTypeOf(v), resultType));
  maps.push_back(AffineMap::getMultiDimIdentityMap(resultType.getRank(), ctx));
  SmallVector<utils::IteratorType> iterators(resultType.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, operands, ValueRange{init}, maps,
      iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value r = body(nb, nloc, args.drop_back());
        linalg::YieldOp::create(nb, nloc, r);
      });
  Value result = generic.getResult(0);
  if (result.getType() != resultType)
    result = tensor::CastOp::create(b, loc, resultType, result);
  return result;
}

//===----------------------------------------------------------------------===//
// Scalar bodies
//===----------------------------------------------------------------------===//

Value sigmoid(OpBuilder &b, Location loc, Value x) {
  Value one = floatConst(b, loc, x.getType(), 1.0);
  Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
  return arith::DivFOp::create(b, loc, one,
                               arith::AddFOp::create(b, loc, one, e));
}

/// min(max(x / 6 + 1/2, 0), 1): hardsigmoid, also inside hardswish.
Value hardSigmoid(OpBuilder &b, Location loc, Value x) {
  Type t = x.getType();
  Value y = arith::AddFOp::create(
      b, loc, arith::MulFOp::create(b, loc, x, floatConst(b, loc, t, 1.0 / 6)),
      floatConst(b, loc, t, 0.5));
  y = arith::MaximumFOp::create(b, loc, y, floatConst(b, loc, t, 0.0));
  return arith::MinimumFOp::create(b, loc, y, floatConst(b, loc, t, 1.0));
}

/// The parts of an integer division that cannot trap: the divisor with 0
/// and -1 replaced by 1 (signed), with only 0 replaced (unsigned), and
/// which of the two it was.
struct SafeDivisor {
  Value zero, isZero, isMinusOne, divisor, unsignedDivisor;
};

SafeDivisor safeDivisor(OpBuilder &b, Location loc, Value y) {
  Type t = y.getType();
  Value zero = arith::ConstantOp::create(b, loc, t, b.getIntegerAttr(t, 0));
  Value one = arith::ConstantOp::create(b, loc, t, b.getIntegerAttr(t, 1));
  Value minusOne =
      arith::ConstantOp::create(b, loc, t, b.getIntegerAttr(t, -1));
  Value isZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, zero);
  Value isMinusOne =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, minusOne);
  Value unsafe = arith::OrIOp::create(b, loc, isZero, isMinusOne);
  return {zero, isZero, isMinusOne,
          arith::SelectOp::create(b, loc, unsafe, one, y),
          arith::SelectOp::create(b, loc, isZero, one, y)};
}

/// Integer division that never traps: x / 0 = 0, INT_MIN / -1 = INT_MIN
/// (wrapping, as -x does).
Value safeDivSI(OpBuilder &b, Location loc, Value x, Value y) {
  SafeDivisor d = safeDivisor(b, loc, y);
  Value q = arith::DivSIOp::create(b, loc, x, d.divisor);
  Value neg = arith::SubIOp::create(b, loc, d.zero, x);
  q = arith::SelectOp::create(b, loc, d.isMinusOne, neg, q);
  return arith::SelectOp::create(b, loc, d.isZero, d.zero, q);
}

/// Integer remainder that never traps, consistent with safeDivSI:
/// x rem 0 = x, INT_MIN rem -1 = 0.
Value safeRemSI(OpBuilder &b, Location loc, Value x, Value y) {
  SafeDivisor d = safeDivisor(b, loc, y);
  Value r = arith::RemSIOp::create(b, loc, x, d.divisor);
  r = arith::SelectOp::create(b, loc, d.isMinusOne, d.zero, r);
  return arith::SelectOp::create(b, loc, d.isZero, x, r);
}

/// Unsigned division and remainder that never trap: x / 0 = 0, x rem 0 = x.
Value safeDivUI(OpBuilder &b, Location loc, Value x, Value y) {
  SafeDivisor d = safeDivisor(b, loc, y);
  Value q = arith::DivUIOp::create(b, loc, x, d.unsignedDivisor);
  return arith::SelectOp::create(b, loc, d.isZero, d.zero, q);
}
Value safeRemUI(OpBuilder &b, Location loc, Value x, Value y) {
  SafeDivisor d = safeDivisor(b, loc, y);
  Value r = arith::RemUIOp::create(b, loc, x, d.unsignedDivisor);
  return arith::SelectOp::create(b, loc, d.isZero, x, r);
}

/// Scalar body of the bitwise ops and shifts. A shift amount outside
/// [0, width) (compared unsigned, so negative amounts are out too) gives 0,
/// or for an arithmetic right shift what width - 1 gives: the sign fill.
Value bitwiseBody(Operation *op, OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<BitwiseAndOp>(op))
    return arith::AndIOp::create(b, loc, x, y);
  if (isa<BitwiseOrOp>(op))
    return arith::OrIOp::create(b, loc, x, y);
  if (isa<BitwiseXorOp>(op))
    return arith::XOrIOp::create(b, loc, x, y);
  Type t = x.getType();
  unsigned width = t.getIntOrFloatBitWidth();
  Value w = arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, width));
  Value inRange =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, y, w);
  if (isa<ShiftRightOp>(op) && !isUnsignedOp(op)) {
    Value top =
        arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, width - 1));
    Value amount = arith::SelectOp::create(b, loc, inRange, y, top);
    return arith::ShRSIOp::create(b, loc, x, amount);
  }
  // Logical shifts: zero for an amount out of range (shifted by 0 there, so
  // that the shift itself is defined).
  Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, 0));
  Value safe = arith::SelectOp::create(b, loc, inRange, y, zero);
  Value r = isa<ShiftLeftOp>(op)
                ? arith::ShLIOp::create(b, loc, x, safe).getResult()
                : arith::ShRUIOp::create(b, loc, x, safe).getResult();
  return arith::SelectOp::create(b, loc, inRange, r, zero);
}

/// Scalar body of an elementwise binary graph op.
Value binaryBody(Operation *op, OpBuilder &b, Location loc, Value x, Value y) {
  Type t = x.getType();
  if (isa<FloatType>(t)) {
    x = toCompute(b, loc, x);
    y = toCompute(b, loc, y);
    Value r =
        llvm::TypeSwitch<Operation *, Value>(op)
            .Case([&](AddOp) { return arith::AddFOp::create(b, loc, x, y); })
            .Case([&](SubOp) { return arith::SubFOp::create(b, loc, x, y); })
            .Case([&](MulOp) { return arith::MulFOp::create(b, loc, x, y); })
            .Case([&](DivOp) { return arith::DivFOp::create(b, loc, x, y); })
            .Case(
                [&](MaxOp) { return arith::MaximumFOp::create(b, loc, x, y); })
            .Case(
                [&](MinOp) { return arith::MinimumFOp::create(b, loc, x, y); })
            .Case([&](PowOp) { return math::PowFOp::create(b, loc, x, y); })
            .Case([&](RemOp) { return arith::RemFOp::create(b, loc, x, y); });
    return fromCompute(b, loc, r, t);
  }
  if (isa<BitwiseAndOp, BitwiseOrOp, BitwiseXorOp, ShiftLeftOp, ShiftRightOp>(
          op))
    return bitwiseBody(op, b, loc, x, y);
  if (isUnsignedOp(op))
    return llvm::TypeSwitch<Operation *, Value>(op)
        .Case([&](DivOp) { return safeDivUI(b, loc, x, y); })
        .Case([&](MaxOp) { return arith::MaxUIOp::create(b, loc, x, y); })
        .Case([&](MinOp) { return arith::MinUIOp::create(b, loc, x, y); })
        .Case([&](RemOp) { return safeRemUI(b, loc, x, y); });
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](AddOp) { return arith::AddIOp::create(b, loc, x, y); })
      .Case([&](SubOp) { return arith::SubIOp::create(b, loc, x, y); })
      .Case([&](MulOp) { return arith::MulIOp::create(b, loc, x, y); })
      .Case([&](DivOp) { return safeDivSI(b, loc, x, y); })
      .Case([&](MaxOp) { return arith::MaxSIOp::create(b, loc, x, y); })
      .Case([&](MinOp) { return arith::MinSIOp::create(b, loc, x, y); })
      .Case([&](RemOp) { return safeRemSI(b, loc, x, y); });
}

Value unaryBody(Operation *op, OpBuilder &b, Location loc, Value x) {
  Type t = x.getType();
  if (auto clamp = dyn_cast<ClampOp>(op); clamp && !isa<FloatType>(t)) {
    // Integer bounds: ceil(min), floor(max), saturated to the type.
    unsigned bits = t.getIntOrFloatBitWidth();
    if (isUnsignedOp(op)) {
      double hi = std::ldexp(1.0, bits) - 1;
      auto bound = [&](double v) {
        v = std::clamp(v, 0.0, hi);
        // v may exceed INT64_MAX (ui64): build the bits unsigned.
        uint64_t u = v >= 0x1p63 ? (uint64_t)(v - 0x1p63) + (uint64_t(1) << 63)
                                 : (uint64_t)v;
        return arith::ConstantOp::create(b, loc, t,
                                         b.getIntegerAttr(t, APInt(bits, u)));
      };
      if (auto mn = clamp.getMin())
        x = arith::MaxUIOp::create(b, loc, x,
                                   bound(std::ceil(mn->convertToDouble())));
      if (auto mx = clamp.getMax())
        x = arith::MinUIOp::create(b, loc, x,
                                   bound(std::floor(mx->convertToDouble())));
      return x;
    }
    double lo = -std::ldexp(1.0, bits - 1), hi = std::ldexp(1.0, bits - 1) - 1;
    auto bound = [&](double v) {
      return arith::ConstantOp::create(
          b, loc, t, b.getIntegerAttr(t, (int64_t)std::clamp(v, lo, hi)));
    };
    if (auto mn = clamp.getMin())
      x = arith::MaxSIOp::create(b, loc, x, bound(std::ceil(mn->convertToDouble())));
    if (auto mx = clamp.getMax())
      x = arith::MinSIOp::create(b, loc, x, bound(std::floor(mx->convertToDouble())));
    return x;
  }
  // abs and relu of an unsigned value are the value.
  if (!isa<FloatType>(t) && isUnsignedOp(op) && isa<AbsOp, ReluOp>(op))
    return x;
  if (!isa<FloatType>(t)) {
    Value zero = arith::ConstantOp::create(b, loc, t, b.getIntegerAttr(t, 0));
    return llvm::TypeSwitch<Operation *, Value>(op)
        .Case([&](NegOp) { return arith::SubIOp::create(b, loc, zero, x); })
        .Case([&](AbsOp) -> Value {
          Value neg = arith::SubIOp::create(b, loc, zero, x);
          Value isNeg =
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, zero);
          return arith::SelectOp::create(b, loc, isNeg, neg, x);
        })
        .Case([&](ReluOp) { return arith::MaxSIOp::create(b, loc, x, zero); });
  }
  x = toCompute(b, loc, x);
  Type ct = x.getType();
  Value r =
      llvm::TypeSwitch<Operation *, Value>(op)
          .Case([&](NegOp) { return arith::NegFOp::create(b, loc, x); })
          .Case([&](AbsOp) { return math::AbsFOp::create(b, loc, x); })
          .Case([&](ExpOp) { return math::ExpOp::create(b, loc, x); })
          .Case([&](LogOp) -> Value {
            if (!ct.isF32())
              return math::LogOp::create(b, loc, x);
            // The polynomial approximation of log treats subnormals as
            // FLT_MIN: scale them into the normal range by 2^24 first.
            Value tiny = arith::CmpFOp::create(
                b, loc, arith::CmpFPredicate::OLT, x,
                floatConst(b, loc, ct, 0x1p-126));
            Value scaled = arith::MulFOp::create(
                b, loc, x, floatConst(b, loc, ct, 0x1p24));
            Value l = math::LogOp::create(
                b, loc, arith::SelectOp::create(b, loc, tiny, scaled, x));
            Value fixed = arith::SubFOp::create(
                b, loc, l, floatConst(b, loc, ct, 24 * M_LN2));
            return arith::SelectOp::create(b, loc, tiny, fixed, l);
          })
          .Case([&](SqrtOp) { return math::SqrtOp::create(b, loc, x); })
          .Case([&](RsqrtOp) -> Value {
            // 1/sqrt(x): libm has no rsqrtf for math.rsqrt to call.
            return arith::DivFOp::create(b, loc, floatConst(b, loc, ct, 1.0),
                                         math::SqrtOp::create(b, loc, x));
          })
          .Case([&](TanhOp) { return math::TanhOp::create(b, loc, x); })
          .Case([&](SigmoidOp) { return sigmoid(b, loc, x); })
          .Case([&](ReluOp) {
            // maximumf propagates NaN, as torch.relu does.
            return arith::MaximumFOp::create(b, loc, x,
                                             floatConst(b, loc, ct, 0.0));
          })
          .Case([&](SiluOp) {
            return arith::MulFOp::create(b, loc, x, sigmoid(b, loc, x));
          })
          .Case([&](ErfOp) { return math::ErfOp::create(b, loc, x); })
          .Case([&](SinOp) { return math::SinOp::create(b, loc, x); })
          .Case([&](CosOp) { return math::CosOp::create(b, loc, x); })
          .Case([&](TanOp) { return math::TanOp::create(b, loc, x); })
          .Case([&](AsinOp) { return math::AsinOp::create(b, loc, x); })
          .Case([&](AcosOp) { return math::AcosOp::create(b, loc, x); })
          .Case([&](AtanOp) { return math::AtanOp::create(b, loc, x); })
          .Case([&](SinhOp) { return math::SinhOp::create(b, loc, x); })
          .Case([&](CoshOp) { return math::CoshOp::create(b, loc, x); })
          .Case([&](AsinhOp) { return math::AsinhOp::create(b, loc, x); })
          .Case([&](AcoshOp) { return math::AcoshOp::create(b, loc, x); })
          .Case([&](AtanhOp) { return math::AtanhOp::create(b, loc, x); })
          .Case([&](FloorOp) { return math::FloorOp::create(b, loc, x); })
          .Case([&](CeilOp) { return math::CeilOp::create(b, loc, x); })
          .Case([&](RoundOp) { return math::RoundEvenOp::create(b, loc, x); })
          .Case([&](HardSigmoidOp) { return hardSigmoid(b, loc, x); })
          .Case([&](HardSwishOp) {
            return arith::MulFOp::create(b, loc, x, hardSigmoid(b, loc, x));
          })
          .Case([&](LeakyReluOp l) -> Value {
            Value zero = floatConst(b, loc, ct, 0.0);
            Value scaled = arith::MulFOp::create(
                b, loc, x,
                floatConst(b, loc, ct, l.getAlpha().convertToDouble()));
            // x < 0 is false for NaN, which then passes through.
            Value neg = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT,
                                              x, zero);
            return arith::SelectOp::create(b, loc, neg, scaled, x);
          })
          .Case([&](ClampOp c) -> Value {
            // maximumf/minimumf propagate NaN, as torch.clamp does.
            Value r = x;
            if (auto mn = c.getMin())
              r = arith::MaximumFOp::create(
                  b, loc, r, floatConst(b, loc, ct, mn->convertToDouble()));
            if (auto mx = c.getMax())
              r = arith::MinimumFOp::create(
                  b, loc, r, floatConst(b, loc, ct, mx->convertToDouble()));
            return r;
          })
          .Case([&](GeluOp g) -> Value {
            Value half = floatConst(b, loc, ct, 0.5);
            Value one = floatConst(b, loc, ct, 1.0);
            Value inner;
            if (g.getApproximate() == GeluApproximation::Tanh) {
              Value x3 = arith::MulFOp::create(
                  b, loc, x, arith::MulFOp::create(b, loc, x, x));
              Value poly = arith::AddFOp::create(
                  b, loc, x,
                  arith::MulFOp::create(b, loc,
                                        floatConst(b, loc, ct, 0.044715), x3));
              inner = math::TanhOp::create(
                  b, loc,
                  arith::MulFOp::create(
                      b, loc, floatConst(b, loc, ct, std::sqrt(2.0 / M_PI)),
                      poly));
            } else {
              inner = math::ErfOp::create(
                  b, loc,
                  arith::MulFOp::create(b, loc, x,
                                        floatConst(b, loc, ct, M_SQRT1_2)));
            }
            return arith::MulFOp::create(
                b, loc, arith::MulFOp::create(b, loc, half, x),
                arith::AddFOp::create(b, loc, one, inner));
          });
  return fromCompute(b, loc, r, t);
}

Value compareBody(CompareDirection dir, OpBuilder &b, Location loc, Value x,
                  Value y, bool isUnsigned = false) {
  Type t = x.getType();
  if (isa<FloatType>(t)) {
    arith::CmpFPredicate p;
    switch (dir) {
    case CompareDirection::EQ:
      p = arith::CmpFPredicate::OEQ;
      break;
    case CompareDirection::NE:
      p = arith::CmpFPredicate::UNE;
      break;
    case CompareDirection::LT:
      p = arith::CmpFPredicate::OLT;
      break;
    case CompareDirection::LE:
      p = arith::CmpFPredicate::OLE;
      break;
    case CompareDirection::GT:
      p = arith::CmpFPredicate::OGT;
      break;
    case CompareDirection::GE:
      p = arith::CmpFPredicate::OGE;
      break;
    }
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
  bool isBool = t.isInteger(1) || isUnsigned;
  arith::CmpIPredicate p;
  switch (dir) {
  case CompareDirection::EQ:
    p = arith::CmpIPredicate::eq;
    break;
  case CompareDirection::NE:
    p = arith::CmpIPredicate::ne;
    break;
  case CompareDirection::LT:
    p = isBool ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
    break;
  case CompareDirection::LE:
    p = isBool ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
    break;
  case CompareDirection::GT:
    p = isBool ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
    break;
  case CompareDirection::GE:
    p = isBool ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
    break;
  }
  return arith::CmpIOp::create(b, loc, p, x, y);
}

Value castBody(OpBuilder &b, Location loc, Value x, Type to, bool fromUnsigned,
               bool toUnsigned) {
  Type from = x.getType();
  if (from == to)
    return x;
  // The 8-bit floats convert through f32 (f64 from an f64 source, so that
  // the value is rounded once): graph-expand-float8 lowers the f32 <-> f8
  // conversions, the only f8 arithmetic left, to integer operations.
  auto isF8 = [](Type t) { return graph::isFloat8(t); };
  if (isF8(from)) {
    Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
    return castBody(b, loc, wide, to, false, toUnsigned);
  }
  if (isF8(to)) {
    Value wide = x;
    if (!from.isF64() && !from.isF32())
      wide = castBody(b, loc, x, b.getF32Type(), fromUnsigned, false);
    return arith::TruncFOp::create(b, loc, to, wide);
  }
  auto fromF = dyn_cast<FloatType>(from);
  auto toF = dyn_cast<FloatType>(to);
  if (fromF && toF) {
    if (fromF.getWidth() < toF.getWidth())
      return arith::ExtFOp::create(b, loc, to, x);
    if (fromF.getWidth() > toF.getWidth())
      return arith::TruncFOp::create(b, loc, to, x);
    // f16 <-> bf16: go through f32.
    Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
    return arith::TruncFOp::create(b, loc, to, wide);
  }
  if (fromF) {
    if (to.isInteger(1))
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x,
                                   floatConst(b, loc, from, 0.0));
    if (toUnsigned)
      return arith::FPToUIOp::create(b, loc, to, x);
    return arith::FPToSIOp::create(b, loc, to, x);
  }
  if (toF) {
    if (from.isInteger(1) || fromUnsigned)
      return arith::UIToFPOp::create(b, loc, to, x);
    return arith::SIToFPOp::create(b, loc, to, x);
  }
  unsigned fw = from.getIntOrFloatBitWidth(), tw = to.getIntOrFloatBitWidth();
  if (tw == 1) {
    Value zero =
        arith::ConstantOp::create(b, loc, from, b.getIntegerAttr(from, 0));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, zero);
  }
  if (fw == 1 || (fromUnsigned && fw < tw))
    return arith::ExtUIOp::create(b, loc, to, x);
  if (fw < tw)
    return arith::ExtSIOp::create(b, loc, to, x);
  return arith::TruncIOp::create(b, loc, to, x);
}

} // namespace mlir::graphopt::lowering

namespace {

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

struct ConstantLowering : OpRewritePattern<graph::ConstantOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(graph::ConstantOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (dense && graph::isFloat8(type.getElementType())) {
      // An 8-bit float tensor constant is held as its bits (LLVM has no
      // 8-bit float type for a global's data), bitcast element by element.
      Location loc = op.getLoc();
      Value bits = arith::ConstantOp::create(
          rewriter, loc, dense.bitcast(rewriter.getI8Type()));
      Value r =
          buildElementwise(rewriter, loc, type, {bits},
                           [&](OpBuilder &b, Location l, ValueRange args) {
                             return arith::BitcastOp::create(
                                 b, l, type.getElementType(), args[0]);
                           });
      rewriter.replaceOp(op, r);
      return success();
    }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, op.getType(), cast<TypedAttr>(op.getValue()));
    return success();
  }
};

template <typename OpTy>
struct BinaryLowering : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Value r = buildElementwise(
        rewriter, op.getLoc(), cast<RankedTensorType>(op.getType()),
        {op.getLhs(), op.getRhs()},
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return binaryBody(op, b, loc, args[0], args[1]);
        });
    rewriter.replaceOp(op, r);
    return success();
  }
};

template <typename OpTy>
struct UnaryLowering : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Value r = buildElementwise(
        rewriter, op.getLoc(), cast<RankedTensorType>(op.getType()),
        {op.getInput()}, [&](OpBuilder &b, Location loc, ValueRange args) {
          return unaryBody(op, b, loc, args[0]);
        });
    rewriter.replaceOp(op, r);
    return success();
  }
};

struct CompareLowering : OpRewritePattern<CompareOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CompareOp op,
                                PatternRewriter &rewriter) const override {
    Value r = buildElementwise(
        rewriter, op.getLoc(), op.getType(), {op.getLhs(), op.getRhs()},
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return compareBody(op.getDirection(), b, loc, args[0], args[1],
                             isUnsignedOp(op));
        });
    rewriter.replaceOp(op, r);
    return success();
  }
};

struct SelectLowering : OpRewritePattern<SelectOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SelectOp op,
                                PatternRewriter &rewriter) const override {
    Value r = buildElementwise(
        rewriter, op.getLoc(), cast<RankedTensorType>(op.getType()),
        {op.getCondition(), op.getOnTrue(), op.getOnFalse()},
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return arith::SelectOp::create(b, loc, args[0], args[1], args[2]);
        });
    rewriter.replaceOp(op, r);
    return success();
  }
};

struct CastLowering : OpRewritePattern<CastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    Type to = op.getType().getElementType();
    Value r = buildElementwise(
        rewriter, op.getLoc(), op.getType(), {op.getInput()},
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return castBody(b, loc, args[0], to, isUnsignedOp(op),
                          op->hasAttr(kUnsignedResultAttr));
        });
    rewriter.replaceOp(op, r);
    return success();
  }
};

struct BitcastLowering : OpRewritePattern<BitcastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BitcastOp op,
                                PatternRewriter &rewriter) const override {
    Type to = op.getType().getElementType();
    Value r = buildElementwise(
        rewriter, op.getLoc(), op.getType(), {op.getInput()},
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          if (args[0].getType() == to)
            return args[0];
          if (args[0].getType().isInteger(1)) // a byte 0 or 1
            return arith::ExtUIOp::create(b, loc, to, args[0]);
          return arith::BitcastOp::create(b, loc, to, args[0]);
        });
    rewriter.replaceOp(op, r);
    return success();
  }
};

/// Broadcast `v` (NumPy alignment) to `shape` with the sizes `sizes`.
Value broadcastTo(OpBuilder &b, Location loc, Value v,
                  RankedTensorType resultType, ArrayRef<OpFoldResult> sizes) {
  auto t = tensorTypeOf(v);
  if (t == resultType)
    return v;
  MLIRContext *ctx = b.getContext();
  Value init = emptyTensor(b, loc, sizes, resultType.getElementType());
  SmallVector<AffineMap> maps = {
      broadcastMap(ctx, t, resultType),
      AffineMap::getMultiDimIdentityMap(resultType.getRank(), ctx)};
  SmallVector<utils::IteratorType> iterators(resultType.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{v}, ValueRange{init}, maps,
      iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, args[0]);
      });
  Value r = generic.getResult(0);
  if (r.getType() != resultType)
    r = tensor::CastOp::create(b, loc, resultType, r);
  return r;
}

/// Collapses the leading `n` dims of `v` into one.
Value collapseLeading(OpBuilder &b, Location loc, Value v, int64_t n) {
  auto t = tensorTypeOf(v);
  SmallVector<ReassociationIndices> re;
  ReassociationIndices first;
  for (int64_t d = 0; d < n; ++d)
    first.push_back(d);
  re.push_back(first);
  for (int64_t d = n; d < t.getRank(); ++d)
    re.push_back({d});
  return tensor::CollapseShapeOp::create(b, loc, v, re);
}

/// Expands dim 0 of `v` into `leading` (sizes), keeping the other dims.
Value expandLeading(OpBuilder &b, Location loc, Value v,
                    ArrayRef<OpFoldResult> leading,
                    RankedTensorType resultType) {
  auto t = tensorTypeOf(v);
  SmallVector<ReassociationIndices> re;
  ReassociationIndices first;
  for (size_t d = 0; d < leading.size(); ++d)
    first.push_back(d);
  re.push_back(first);
  for (int64_t d = 1; d < t.getRank(); ++d)
    re.push_back({(int64_t)leading.size() + d - 1});
  SmallVector<OpFoldResult> outShape(leading);
  SmallVector<OpFoldResult> rest = dimSizes(b, loc, v);
  outShape.append(rest.begin() + 1, rest.end());
  // MLIR 22's expand-strided-metadata crashes on a memref.expand_shape with
  // two dynamic dims in one group: reshape through a shape tensor instead.
  if (llvm::count_if(resultType.getShape().take_front(leading.size()),
                     ShapedType::isDynamic) > 1) {
    SmallVector<Value> dims;
    for (OpFoldResult d : outShape)
      dims.push_back(getValueOrCreateConstantIndexOp(b, loc, d));
    Value shape = tensor::FromElementsOp::create(b, loc, dims);
    return tensor::ReshapeOp::create(b, loc, resultType, v, shape);
  }
  return tensor::ExpandShapeOp::create(b, loc, resultType, v, re, outShape);
}

/// out[b..., m, n] += lhs[b..., m, k] * rhs[b..., k, n] as one
/// linalg.generic over `nb` batch dims; `init` is the zero-filled output.
Value batchedContraction(OpBuilder &b, Location loc, Value lhs, Value rhs,
                         int64_t nb, RankedTensorType resultType, Value init) {
  MLIRContext *ctx = b.getContext();
  int64_t loops = nb + 3;
  SmallVector<AffineExpr> batch;
  for (int64_t d = 0; d < nb; ++d)
    batch.push_back(getAffineDimExpr(d, ctx));
  AffineExpr m = getAffineDimExpr(nb, ctx), n = getAffineDimExpr(nb + 1, ctx),
             k = getAffineDimExpr(nb + 2, ctx);
  auto map = [&](AffineExpr x, AffineExpr y) {
    SmallVector<AffineExpr> e(batch);
    e.append({x, y});
    return AffineMap::get(loops, 0, e, ctx);
  };
  SmallVector<utils::IteratorType> iterators(loops - 1,
                                             utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  Type acc = resultType.getElementType();
  Value r = linalg::GenericOp::create(
                b, loc, TypeRange{init.getType()}, ValueRange{lhs, rhs},
                ValueRange{init}, {map(m, k), map(k, n), map(m, n)}, iterators,
                [&](OpBuilder &nb2, Location nloc, ValueRange args) {
                  Value x = args[0], y = args[1];
                  if (x.getType() != acc && isa<FloatType>(acc)) {
                    x = arith::ExtFOp::create(nb2, nloc, acc, x);
                    y = arith::ExtFOp::create(nb2, nloc, acc, y);
                  }
                  Value prod =
                      isa<FloatType>(acc)
                          ? arith::MulFOp::create(nb2, nloc, x, y).getResult()
                          : arith::MulIOp::create(nb2, nloc, x, y).getResult();
                  Value sum =
                      isa<FloatType>(acc)
                          ? arith::AddFOp::create(nb2, nloc, prod, args[2])
                                .getResult()
                          : arith::AddIOp::create(nb2, nloc, prod, args[2])
                                .getResult();
                  linalg::YieldOp::create(nb2, nloc, sum);
                })
                .getResult(0);
  if (r.getType() != resultType)
    r = tensor::CastOp::create(b, loc, resultType, r);
  return r;
}

struct MatMulLowering : OpRewritePattern<MatMulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MatMulOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Value lhs = op.getLhs(), rhs = op.getRhs();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type et = resultType.getElementType();
    Type acc = computeType(et);
    auto zeroAttr = isa<FloatType>(acc) ? (TypedAttr)b.getFloatAttr(acc, 0.0)
                                        : (TypedAttr)b.getIntegerAttr(acc, 0);
    Value zero = arith::ConstantOp::create(b, loc, acc, zeroAttr);
    auto filled = [&](ArrayRef<OpFoldResult> sizes) {
      Value init = emptyTensor(b, loc, sizes, acc);
      return linalg::FillOp::create(b, loc, zero, init).getResult(0);
    };
    auto finish = [&](Value r) {
      auto rt = tensorTypeOf(r);
      if (rt.getElementType() != et) {
        r = buildElementwise(
            b, loc, RankedTensorType::get(rt.getShape(), et), {r},
            [&](OpBuilder &nb, Location nloc, ValueRange args) {
              return fromCompute(nb, nloc, args[0], et);
            });
      }
      if (r.getType() != resultType)
        r = tensor::CastOp::create(b, loc, resultType, r);
      rewriter.replaceOp(op, r);
      return success();
    };

    int64_t lr = tensorTypeOf(lhs).getRank(), rr = tensorTypeOf(rhs).getRank();
    if (lr == 1 && rr == 1) {
      Value init = filled({});
      return finish(linalg::DotOp::create(b, loc, TypeRange{init.getType()},
                                          ValueRange{lhs, rhs},
                                          ValueRange{init})
                        .getResult(0));
    }
    // Promote vectors to matrices; the unit dim is removed at the end.
    bool lhsVec = lr == 1, rhsVec = rr == 1;
    if (lhsVec) {
      auto t = tensorTypeOf(lhs);
      lhs = tensor::ExpandShapeOp::create(
          b, loc,
          RankedTensorType::get({1, t.getDimSize(0)}, t.getElementType()), lhs,
          SmallVector<ReassociationIndices>{{0, 1}},
          SmallVector<OpFoldResult>{b.getIndexAttr(1),
                                    dimSizes(b, loc, lhs)[0]});
      lr = 2;
    }
    if (rhsVec) {
      auto t = tensorTypeOf(rhs);
      rhs = tensor::ExpandShapeOp::create(
          b, loc,
          RankedTensorType::get({t.getDimSize(0), 1}, t.getElementType()), rhs,
          SmallVector<ReassociationIndices>{{0, 1}},
          SmallVector<OpFoldResult>{dimSizes(b, loc, rhs)[0],
                                    b.getIndexAttr(1)});
      rr = 2;
    }
    auto lt = tensorTypeOf(lhs), rt = tensorTypeOf(rhs);
    SmallVector<OpFoldResult> ls = dimSizes(b, loc, lhs),
                              rs = dimSizes(b, loc, rhs);
    OpFoldResult m = ls[lr - 2], n = rs[rr - 1];
    int64_t mStatic = lt.getDimSize(lr - 2), nStatic = rt.getDimSize(rr - 1);

    // The product shape before removing promoted unit dims.
    SmallVector<int64_t> lb(lt.getShape().drop_back(2)),
        rb(rt.getShape().drop_back(2)), batch;
    broadcastShapes(lb, rb, batch);
    SmallVector<int64_t> fullShape(batch);
    fullShape.push_back(mStatic);
    fullShape.push_back(nStatic);
    auto fullType = RankedTensorType::get(fullShape, acc);

    // Batch sizes: from whichever operand has a non-1 dim there.
    int64_t nb = batch.size();
    SmallVector<OpFoldResult> batchSizes;
    for (int64_t d = 0; d < nb; ++d) {
      if (!ShapedType::isDynamic(batch[d])) {
        batchSizes.push_back(b.getIndexAttr(batch[d]));
        continue;
      }
      int64_t li = d - (nb - (lr - 2)), ri = d - (nb - (rr - 2));
      if (li >= 0 && lt.getDimSize(li) != 1)
        batchSizes.push_back(ls[li]);
      else
        batchSizes.push_back(rs[ri]);
    }

    Value product;
    if (llvm::is_contained(fullShape, 0)) {
      // No elements (a zero-size batch, M or N): nothing to compute. The
      // general paths would collapse a zero-size dim with dynamic ones,
      // which memref.collapse_shape rejects.
      SmallVector<OpFoldResult> sizes(batchSizes);
      sizes.append({m, n});
      product = tensor::EmptyOp::create(b, loc, sizes, acc);
      if (product.getType() != fullType)
        product = tensor::CastOp::create(b, loc, fullType, product);
    } else if (lt.getDimSize(lr - 1) == 0 || rt.getDimSize(rr - 2) == 0) {
      // K = 0: every element is an empty sum, zero. The general paths
      // would collapse the operand's batch dims with a zero-size dim that
      // shape refinement may make static next to dynamic ones, which
      // memref.collapse_shape rejects (fuzz_graph.py --zero-dims, seed
      // 20261205, program 15).
      SmallVector<OpFoldResult> sizes(batchSizes);
      sizes.append({m, n});
      product = filled(sizes);
      if (product.getType() != fullType)
        product = tensor::CastOp::create(b, loc, fullType, product);
    } else if (rr == 2) {
      // [B..., M, K] x [K, N]: fold the batch into M; one matmul.
      Value l2 = lr > 2 ? collapseLeading(b, loc, lhs, lr - 1) : lhs;
      Value init = filled({dimSizes(b, loc, l2)[0], n});
      Value mm = linalg::MatmulOp::create(b, loc, TypeRange{init.getType()},
                                          ValueRange{l2, rhs}, ValueRange{init})
                     .getResult(0);
      if (lr > 2) {
        SmallVector<OpFoldResult> leading(ls.begin(), ls.end() - 1);
        mm = expandLeading(b, loc, mm, leading, fullType);
      }
      product = mm;
    } else {
      // General batched case: broadcast both to the common batch shape,
      // fold the batch dims into one and run batch_matmul.
      SmallVector<int64_t> lFull(batch), rFull(batch);
      lFull.append({mStatic, lt.getDimSize(lr - 1)});
      rFull.append({rt.getDimSize(rr - 2), nStatic});
      auto lFullT = RankedTensorType::get(lFull, lt.getElementType());
      auto rFullT = RankedTensorType::get(rFull, rt.getElementType());
      SmallVector<OpFoldResult> lS(batchSizes), rS(batchSizes);
      lS.append({m, ls[lr - 1]});
      rS.append({rs[rr - 2], n});
      Value l3 = broadcastTo(b, loc, lhs, lFullT, lS);
      Value r3 = broadcastTo(b, loc, rhs, rFullT, rS);
      if (llvm::count_if(batch, ShapedType::isDynamic) > 1) {
        // Several dynamic batch dims: one batched contraction over all of
        // them. Collapsing them would need an expand_shape with two dynamic
        // dims in one group, which MLIR 22's expand-strided-metadata
        // crashes on (reshape propagation re-creates it otherwise).
        product = batchedContraction(b, loc, l3, r3, nb, fullType, filled([&] {
                                       SmallVector<OpFoldResult> sz(batchSizes);
                                       sz.append({m, n});
                                       return sz;
                                     }()));
      } else {
        if (nb != 1) {
          l3 = collapseLeading(b, loc, l3, nb);
          r3 = collapseLeading(b, loc, r3, nb);
        }
        Value init = filled({dimSizes(b, loc, l3)[0], m, n});
        Value bmm =
            linalg::BatchMatmulOp::create(b, loc, TypeRange{init.getType()},
                                          ValueRange{l3, r3}, ValueRange{init})
                .getResult(0);
        if (nb != 1)
          bmm = expandLeading(b, loc, bmm, batchSizes, fullType);
        product = bmm;
      }
    }

    // Remove the unit dims of promoted vectors.
    if (lhsVec || rhsVec) {
      auto pt = tensorTypeOf(product);
      int64_t rank = pt.getRank();
      SmallVector<ReassociationIndices> re;
      for (int64_t d = 0; d < rank - 2; ++d)
        re.push_back({d});
      re.push_back({rank - 2, rank - 1});
      SmallVector<int64_t> shape(pt.getShape().drop_back(2));
      shape.push_back(lhsVec ? pt.getDimSize(rank - 1)
                             : pt.getDimSize(rank - 2));
      product = tensor::CollapseShapeOp::create(
          b, loc, RankedTensorType::get(shape, acc), product, re);
    }
    return finish(product);
  }
};

struct TransposeLowering : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<OpFoldResult> in = dimSizes(rewriter, loc, op.getInput()), out;
    for (int64_t p : op.getPermutation())
      out.push_back(in[p]);
    Value init = emptyTensor(rewriter, loc, out, op.getType().getElementType());
    Value r = linalg::TransposeOp::create(rewriter, loc, op.getInput(), init,
                                          op.getPermutation())
                  .getResult()[0];
    if (r.getType() != op.getType())
      r = tensor::CastOp::create(rewriter, loc, op.getType(), r);
    rewriter.replaceOp(op, r);
    return success();
  }
};

/// Replaces `op` by a tensor.empty when its result has a static shape with
/// no elements: there is nothing to compute, and the general lowerings of
/// slices and reshapes build ops that reject such shapes.
LogicalResult replaceWithEmptyIfNoElements(PatternRewriter &rewriter,
                                           Operation *op) {
  auto t = cast<RankedTensorType>(op->getResult(0).getType());
  if (!t.hasStaticShape() || t.getNumElements() != 0)
    return failure();
  rewriter.replaceOpWithNewOp<tensor::EmptyOp>(op, t.getShape(),
                                               t.getElementType());
  return success();
}

struct ReshapeLowering : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Value in = op.getInput();
    auto inT = tensorTypeOf(in);
    auto outT = cast<RankedTensorType>(op.getType());
    // An empty result: collapsing a dynamic input into a static 0-size dim
    // is rejected once on buffers.
    if (succeeded(replaceWithEmptyIfNoElements(rewriter, op)))
      return success();
    // Collapse to 1-D, then expand to the target: both are views after
    // bufferization.
    Value flat = in;
    if (inT.getRank() != 1) {
      SmallVector<ReassociationIndices> re;
      if (inT.getRank() > 0)
        re.push_back(llvm::to_vector(llvm::seq<int64_t>(0, inT.getRank())));
      int64_t n =
          inT.hasStaticShape() ? inT.getNumElements() : ShapedType::kDynamic;
      flat = inT.getRank() == 0
                 ? tensor::ExpandShapeOp::create(
                       b, loc, RankedTensorType::get({1}, inT.getElementType()),
                       in, SmallVector<ReassociationIndices>{},
                       SmallVector<OpFoldResult>{b.getIndexAttr(1)})
                       .getResult()
                 : tensor::CollapseShapeOp::create(
                       b, loc, RankedTensorType::get({n}, inT.getElementType()),
                       in, re)
                       .getResult();
    }
    // A dynamic input reshaped to a static shape: the element count is
    // static after all.
    if (outT.hasStaticShape() && !tensorTypeOf(flat).hasStaticShape())
      flat = tensor::CastOp::create(
          b, loc,
          RankedTensorType::get({outT.getNumElements()}, outT.getElementType()),
          flat);
    if (outT.getRank() == 1 && tensorTypeOf(flat) == outT) {
      rewriter.replaceOp(op, flat);
      return success();
    }
    if (outT.getRank() == 0) {
      rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
          op, outT, flat, SmallVector<ReassociationIndices>{});
      return success();
    }
    // Output sizes: static entries, the -1 entry as numel / known.
    SmallVector<OpFoldResult> sizes;
    int64_t known = 1, inferIndex = -1;
    for (auto [i, d] : llvm::enumerate(op.getShape())) {
      if (d == -1) {
        inferIndex = i;
        sizes.push_back(OpFoldResult());
        continue;
      }
      known *= d;
      sizes.push_back(b.getIndexAttr(d));
    }
    if (inferIndex >= 0) {
      if (!outT.isDynamicDim(inferIndex)) {
        sizes[inferIndex] = b.getIndexAttr(outT.getDimSize(inferIndex));
      } else {
        Value numel = tensor::DimOp::create(b, loc, flat, 0);
        Value k = arith::ConstantIndexOp::create(b, loc, known);
        sizes[inferIndex] =
            arith::DivUIOp::create(b, loc, numel, k).getResult();
      }
    }
    SmallVector<ReassociationIndices> re = {
        llvm::to_vector(llvm::seq<int64_t>(0, outT.getRank()))};
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(op, outT, flat, re,
                                                       sizes);
    return success();
  }
};

struct BroadcastToLowering : OpRewritePattern<BroadcastToOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastToOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto outT = cast<RankedTensorType>(op.getType());
    SmallVector<OpFoldResult> sizes =
        broadcastSizes(rewriter, loc, outT, {op.getInput()});
    rewriter.replaceOp(op,
                       broadcastTo(rewriter, loc, op.getInput(), outT, sizes));
    return success();
  }
};

struct ConcatLowering : OpRewritePattern<ConcatOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConcatOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    int64_t axis = op.getAxis();
    auto outT = cast<RankedTensorType>(op.getType());
    SmallVector<OpFoldResult> sizes = dimSizes(b, loc, op.getInputs()[0]);
    // The axis size is the sum of the operands' sizes there.
    OpFoldResult total = b.getIndexAttr(0);
    SmallVector<OpFoldResult> offsets;
    for (Value v : op.getInputs()) {
      offsets.push_back(total);
      OpFoldResult s = dimSizes(b, loc, v)[axis];
      auto ts = getConstantIntValue(total), ss = getConstantIntValue(s);
      if (ts && ss)
        total = b.getIndexAttr(*ts + *ss);
      else
        total = arith::AddIOp::create(
                    b, loc, getValueOrCreateConstantIndexOp(b, loc, total),
                    getValueOrCreateConstantIndexOp(b, loc, s))
                    .getResult();
    }
    sizes[axis] = total;
    Value result = emptyTensor(b, loc, sizes, outT.getElementType());
    // A static zero-size result dim: nothing to insert (and insert_slice
    // rejects the operands' offsets into it).
    bool emptyResult = llvm::is_contained(outT.getShape(), int64_t(0));
    for (auto [v, off] : llvm::zip(op.getInputs(), offsets)) {
      if (emptyResult)
        break;
      // An empty operand inserts nothing (and its offset may be the dim
      // size, which insert_slice rejects).
      if (llvm::is_contained(cast<RankedTensorType>(v.getType()).getShape(),
                             int64_t(0)))
        continue;
      SmallVector<OpFoldResult> offs(outT.getRank(), b.getIndexAttr(0));
      offs[axis] = off;
      SmallVector<OpFoldResult> strides(outT.getRank(), b.getIndexAttr(1));
      result = tensor::InsertSliceOp::create(b, loc, v, result, offs,
                                             dimSizes(b, loc, v), strides);
    }
    if (result.getType() != outT)
      result = tensor::CastOp::create(b, loc, outT, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct SliceLowering : OpRewritePattern<SliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SliceOp op,
                                PatternRewriter &rewriter) const override {
    OpBuilder &b = rewriter;
    // An empty slice may start at the dim size, which extract_slice rejects.
    if (succeeded(replaceWithEmptyIfNoElements(rewriter, op)))
      return success();
    SmallVector<OpFoldResult> offsets, sizes, strides;
    for (auto [s, l, st] :
         llvm::zip(op.getStart(), op.getLimit(), op.getStep())) {
      offsets.push_back(b.getIndexAttr(s));
      sizes.push_back(b.getIndexAttr((l - s + st - 1) / st));
      strides.push_back(b.getIndexAttr(st));
    }
    auto resultType = cast<RankedTensorType>(op.getType());
    Value slice = tensor::ExtractSliceOp::create(
        b, op.getLoc(), resultType, op.getInput(), offsets, sizes, strides);
    // A strided slice becomes a strided view after bufferization, which
    // MLIR 22 cannot always read with vector transfers (a 0-D read of a
    // strided view is never lowered): copy it into a contiguous tensor.
    if (llvm::any_of(op.getStep(), [](int64_t s) { return s != 1; })) {
      Value init = tensor::EmptyOp::create(
          b, op.getLoc(), resultType.getShape(), resultType.getElementType());
      slice = linalg::CopyOp::create(b, op.getLoc(), slice, init).getResult(0);
    }
    rewriter.replaceOp(op, slice);
    return success();
  }
};

/// Builds a reduction of `input` over `axes` (no keepdims) with `combine`,
/// starting from `identity` (in the compute type). Returns a tensor of the
/// compute type.
Value buildReduction(
    OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> axes,
    TypedAttr identity,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine) {
  MLIRContext *ctx = b.getContext();
  auto t = tensorTypeOf(input);
  Type acc = identity.getType();
  llvm::SmallBitVector reduced(t.getRank());
  for (int64_t a : axes)
    reduced.set(a);
  SmallVector<OpFoldResult> inSizes = dimSizes(b, loc, input), outSizes;
  SmallVector<AffineExpr> outExprs;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < t.getRank(); ++d) {
    iterators.push_back(reduced.test(d) ? utils::IteratorType::reduction
                                        : utils::IteratorType::parallel);
    if (!reduced.test(d)) {
      outSizes.push_back(inSizes[d]);
      outExprs.push_back(getAffineDimExpr(d, ctx));
    }
  }
  Value init = emptyTensor(b, loc, outSizes, acc);
  Value idv = arith::ConstantOp::create(b, loc, acc, identity);
  init = linalg::FillOp::create(b, loc, idv, init).getResult(0);
  SmallVector<AffineMap> maps = {
      AffineMap::getMultiDimIdentityMap(t.getRank(), ctx),
      AffineMap::get(t.getRank(), 0, outExprs, ctx)};
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{input},
             ValueRange{init}, maps, iterators,
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               Value x = args[0];
               if (x.getType() != acc)
                 x = arith::ExtFOp::create(nb, nloc, acc, x);
               linalg::YieldOp::create(nb, nloc, combine(nb, nloc, x, args[1]));
             })
      .getResult(0);
}

TypedAttr reductionIdentity(OpBuilder &b, ReduceKind kind, Type acc,
                            bool isUnsigned = false) {
  if (auto ft = dyn_cast<FloatType>(acc)) {
    const llvm::fltSemantics &sem = ft.getFloatSemantics();
    switch (kind) {
    case ReduceKind::Sum:
    case ReduceKind::Mean:
      return b.getFloatAttr(acc, 0.0);
    case ReduceKind::Max:
      return b.getFloatAttr(acc, APFloat::getInf(sem, /*Negative=*/true));
    case ReduceKind::Min:
      return b.getFloatAttr(acc, APFloat::getInf(sem, /*Negative=*/false));
    }
  }
  unsigned w = acc.getIntOrFloatBitWidth();
  switch (kind) {
  case ReduceKind::Sum:
  case ReduceKind::Mean:
    return b.getIntegerAttr(acc, 0);
  case ReduceKind::Max:
    return b.getIntegerAttr(acc, isUnsigned ? APInt::getMinValue(w)
                                            : APInt::getSignedMinValue(w));
  case ReduceKind::Min:
    return b.getIntegerAttr(acc, isUnsigned ? APInt::getMaxValue(w)
                                            : APInt::getSignedMaxValue(w));
  }
  llvm_unreachable("unknown reduce kind");
}

Value combineReduction(OpBuilder &b, Location loc, ReduceKind kind, Value x,
                       Value acc, bool isUnsigned = false) {
  bool f = isa<FloatType>(x.getType());
  switch (kind) {
  case ReduceKind::Sum:
  case ReduceKind::Mean:
    return f ? arith::AddFOp::create(b, loc, x, acc).getResult()
             : arith::AddIOp::create(b, loc, x, acc).getResult();
  case ReduceKind::Max:
    if (!f && isUnsigned)
      return arith::MaxUIOp::create(b, loc, x, acc);
    return f ? arith::MaximumFOp::create(b, loc, x, acc).getResult()
             : arith::MaxSIOp::create(b, loc, x, acc).getResult();
  case ReduceKind::Min:
    if (!f && isUnsigned)
      return arith::MinUIOp::create(b, loc, x, acc);
    return f ? arith::MinimumFOp::create(b, loc, x, acc).getResult()
             : arith::MinSIOp::create(b, loc, x, acc).getResult();
  }
  llvm_unreachable("unknown reduce kind");
}

struct ReduceLowering : OpRewritePattern<ReduceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReduceOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    auto inT = tensorTypeOf(op.getInput());
    auto outT = cast<RankedTensorType>(op.getType());
    Type et = inT.getElementType(), acc = computeType(et);
    ReduceKind kind = op.getKind();
    bool isUnsigned = isUnsignedOp(op);
    Value r = buildReduction(
        b, loc, op.getInput(), op.getAxes(),
        reductionIdentity(b, kind, acc, isUnsigned),
        [&](OpBuilder &nb, Location nloc, Value x, Value a) {
          return combineReduction(nb, nloc, kind, x, a, isUnsigned);
        });
    auto rT = tensorTypeOf(r);
    if (kind == ReduceKind::Mean || acc != et) {
      Value count;
      if (kind == ReduceKind::Mean) {
        SmallVector<OpFoldResult> sizes = dimSizes(b, loc, op.getInput());
        Value n = arith::ConstantIndexOp::create(b, loc, 1);
        for (int64_t a : op.getAxes())
          n = arith::MulIOp::create(
              b, loc, n, getValueOrCreateConstantIndexOp(b, loc, sizes[a]));
        Value n64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), n);
        count = arith::SIToFPOp::create(b, loc, acc, n64);
      }
      r = buildElementwise(b, loc, RankedTensorType::get(rT.getShape(), et),
                           {r},
                           [&](OpBuilder &nb, Location nloc, ValueRange args) {
                             Value v = args[0];
                             if (count)
                               v = arith::DivFOp::create(nb, nloc, v, count);
                             return fromCompute(nb, nloc, v, et);
                           });
    }
    if (op.getKeepdims() && !op.getAxes().empty()) {
      // Re-insert the reduced dims as size 1.
      llvm::SmallBitVector reduced(inT.getRank());
      for (int64_t a : op.getAxes())
        reduced.set(a);
      SmallVector<ReassociationIndices> re;
      SmallVector<OpFoldResult> outSizes;
      SmallVector<OpFoldResult> rSizes = dimSizes(b, loc, r);
      ReassociationIndices pending;
      int64_t src = 0;
      for (int64_t d = 0; d < inT.getRank(); ++d) {
        pending.push_back(d);
        if (reduced.test(d)) {
          outSizes.push_back(b.getIndexAttr(1));
          continue;
        }
        outSizes.push_back(rSizes[src++]);
        re.push_back(pending);
        pending.clear();
      }
      if (!pending.empty()) {
        if (re.empty()) {
          // All dims reduced: rank-0 -> all-ones, empty reassociation.
          r = tensor::ExpandShapeOp::create(
              b, loc, RankedTensorType::get(outT.getShape(), et), r,
              SmallVector<ReassociationIndices>{}, outSizes);
          pending.clear();
        } else {
          re.back().append(pending.begin(), pending.end());
        }
      }
      if (!re.empty())
        r = tensor::ExpandShapeOp::create(
            b, loc, RankedTensorType::get(outT.getShape(), et), r, re,
            outSizes);
    }
    if (r.getType() != outT)
      r = tensor::CastOp::create(b, loc, outT, r);
    rewriter.replaceOp(op, r);
    return success();
  }
};

struct SoftmaxLowering : OpRewritePattern<SoftmaxOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SoftmaxOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    MLIRContext *ctx = b.getContext();
    Value x = op.getInput();
    auto t = tensorTypeOf(x);
    Type et = t.getElementType(), acc = computeType(et);
    int64_t axis = op.getAxis(), rank = t.getRank();
    Value max = buildReduction(
        b, loc, x, {axis}, reductionIdentity(b, ReduceKind::Max, acc),
        [&](OpBuilder &nb, Location nloc, Value v, Value a) {
          return arith::MaximumFOp::create(nb, nloc, v, a);
        });
    // Maps: full identity, and the reduced tensor read back along `axis`.
    SmallVector<AffineExpr> redExprs;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        redExprs.push_back(getAffineDimExpr(d, ctx));
    AffineMap id = AffineMap::getMultiDimIdentityMap(rank, ctx);
    AffineMap red = AffineMap::get(rank, 0, redExprs, ctx);
    SmallVector<utils::IteratorType> par(rank, utils::IteratorType::parallel);
    SmallVector<OpFoldResult> sizes = dimSizes(b, loc, x);
    auto mapped =
        [&](ValueRange ins, Type outET,
            function_ref<Value(OpBuilder &, Location, ValueRange)> fn) {
          Value init = emptyTensor(b, loc, sizes, outET);
          SmallVector<AffineMap> maps = {id, red, id};
          return linalg::GenericOp::create(
                     b, loc, TypeRange{init.getType()}, ins, ValueRange{init},
                     maps, par,
                     [&](OpBuilder &nb, Location nloc, ValueRange args) {
                       linalg::YieldOp::create(nb, nloc,
                                               fn(nb, nloc, args.drop_back()));
                     })
              .getResult(0);
        };
    Value e = mapped({x, max}, acc,
                     [&](OpBuilder &nb, Location nloc, ValueRange a) -> Value {
                       Value v = toCompute(nb, nloc, a[0]);
                       return math::ExpOp::create(
                           nb, nloc, arith::SubFOp::create(nb, nloc, v, a[1]));
                     });
    Value sum = buildReduction(
        b, loc, e, {axis}, reductionIdentity(b, ReduceKind::Sum, acc),
        [&](OpBuilder &nb, Location nloc, Value v, Value a) {
          return arith::AddFOp::create(nb, nloc, v, a);
        });
    Value r = mapped(
        {e, sum}, et, [&](OpBuilder &nb, Location nloc, ValueRange a) -> Value {
          return fromCompute(nb, nloc,
                             arith::DivFOp::create(nb, nloc, a[0], a[1]), et);
        });
    if (r.getType() != op.getType())
      r = tensor::CastOp::create(b, loc, op.getType(), r);
    rewriter.replaceOp(op, r);
    return success();
  }
};

/// Gives every graph op its inferred result type, with a tensor.cast back to
/// the written (compatible) type for the users. The lowering patterns then
/// only ever see inferred types.
void normalizeResultTypes(Operation *root) {
  root->walk([](Operation *op) {
    SmallVector<RankedTensorType> types;
    if (!isa<GraphDialect>(op->getDialect()) ||
        failed(inferResultTypes(op, types)))
      return;
    OpBuilder b(op->getContext());
    b.setInsertionPointAfter(op);
    for (auto [result, inferred] : llvm::zip(op->getResults(), types)) {
      auto written = cast<RankedTensorType>(result.getType());
      if (inferred == written)
        continue;
      result.setType(inferred);
      auto back = tensor::CastOp::create(b, op->getLoc(), written, result);
      result.replaceAllUsesExcept(back, back);
    }
  });
}

struct ConvertGraphToLinalgPass
    : public graphopt::impl::ConvertGraphToLinalgPassBase<
          ConvertGraphToLinalgPass> {
  using Base::Base;
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    // Unsigned integers are made signless by graph-signless first (arith
    // takes signless integers only).
    WalkResult unsignedLeft = getOperation()->walk([](Operation *op) {
      for (Type t : op->getResultTypes())
        if (auto s = dyn_cast<ShapedType>(t);
            s && s.getElementType().isUnsignedInteger()) {
          op->emitOpError("has an unsigned result type ")
              << t << ": run graph-signless before convert-graph-to-linalg";
          return WalkResult::interrupt();
        }
      return WalkResult::advance();
    });
    if (unsignedLeft.wasInterrupted())
      return signalPassFailure();
    normalizeResultTypes(getOperation());
    lowering::markHostIndexGathers(getOperation());
    ConversionTarget target(*ctx);
    target.addIllegalDialect<GraphDialect>();
    target.addIllegalOp<fusion::CustomCallOp>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    RewritePatternSet patterns(ctx);
    populateGraphToLinalgConversionPatterns(patterns, winograd);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::graphopt::populateGraphToLinalgConversionPatterns(
    RewritePatternSet &patterns, bool winograd) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ConstantLowering, CompareLowering, SelectLowering, CastLowering,
               BitcastLowering, MatMulLowering, TransposeLowering,
               ReshapeLowering, BroadcastToLowering, ConcatLowering,
               SliceLowering, ReduceLowering, SoftmaxLowering>(ctx);
  patterns
      .add<BinaryLowering<AddOp>, BinaryLowering<SubOp>, BinaryLowering<MulOp>,
           BinaryLowering<DivOp>, BinaryLowering<MaxOp>, BinaryLowering<MinOp>,
           BinaryLowering<PowOp>, BinaryLowering<RemOp>,
           BinaryLowering<BitwiseAndOp>, BinaryLowering<BitwiseOrOp>,
           BinaryLowering<BitwiseXorOp>, BinaryLowering<ShiftLeftOp>,
           BinaryLowering<ShiftRightOp>>(ctx);
  patterns
      .add<UnaryLowering<NegOp>, UnaryLowering<AbsOp>, UnaryLowering<ExpOp>,
           UnaryLowering<LogOp>, UnaryLowering<SqrtOp>, UnaryLowering<RsqrtOp>,
           UnaryLowering<TanhOp>, UnaryLowering<SigmoidOp>,
           UnaryLowering<ReluOp>, UnaryLowering<SiluOp>, UnaryLowering<GeluOp>,
           UnaryLowering<ErfOp>, UnaryLowering<HardSwishOp>,
           UnaryLowering<HardSigmoidOp>, UnaryLowering<LeakyReluOp>,
           UnaryLowering<ClampOp>>(ctx);
  patterns.add<
      UnaryLowering<SinOp>, UnaryLowering<CosOp>, UnaryLowering<TanOp>,
      UnaryLowering<AsinOp>, UnaryLowering<AcosOp>, UnaryLowering<AtanOp>,
      UnaryLowering<SinhOp>, UnaryLowering<CoshOp>, UnaryLowering<AsinhOp>,
      UnaryLowering<AcoshOp>, UnaryLowering<AtanhOp>, UnaryLowering<FloorOp>,
      UnaryLowering<CeilOp>, UnaryLowering<RoundOp>>(ctx);
  populateNNLoweringPatterns(patterns, winograd);
  graph::populateGraphDecompositionPatterns(patterns);
  populateControlFlowLoweringPatterns(patterns);
  populateCustomCallLoweringPatterns(patterns);
}
