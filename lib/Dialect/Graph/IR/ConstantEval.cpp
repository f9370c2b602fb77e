//===- ConstantEval.cpp - evaluate graph ops on constants -----------------===//

#include "graphopt/Dialect/Graph/IR/ConstantEval.h"
#include "graphopt/Dialect/Graph/IR/GraphOps.h"
#include "graphopt/Dialect/Graph/IR/HeapConstants.h"

#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::graphopt::graph;

namespace {

/// A dense tensor of values held as double (floats) or int64 (integers).
struct Values {
  SmallVector<int64_t> shape;
  Type elementType;
  std::vector<double> f;
  std::vector<int64_t> i;
  bool isFloat() const { return isa<FloatType>(elementType); }
  int64_t size() const {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  }
};

std::optional<Values> load(Attribute attr) {
  auto dense = dyn_cast_or_null<DenseElementsAttr>(attr);
  if (!dense)
    return std::nullopt;
  auto type = cast<ShapedType>(dense.getType());
  Values v;
  v.shape.assign(type.getShape().begin(), type.getShape().end());
  v.elementType = type.getElementType();
  int64_t n = v.size();
  if (isa<FloatType>(v.elementType)) {
    v.f.reserve(n);
    if (dense.isSplat()) {
      v.f.assign(n, dense.getSplatValue<APFloat>().convertToDouble());
    } else {
      for (APFloat x : dense.getValues<APFloat>())
        v.f.push_back(x.convertToDouble());
    }
    return v;
  }
  if (auto it = dyn_cast<IntegerType>(v.elementType)) {
    // Unsigned values are held zero-extended (exact up to 32 bits; ui64,
    // whose values may not fit an int64, is not evaluated).
    if (it.isUnsigned() && it.getWidth() == 64)
      return std::nullopt;
    bool zext = it.getWidth() == 1 || it.isUnsigned();
    auto get = [&](const APInt &x) {
      return zext ? (int64_t)x.getZExtValue() : x.getSExtValue();
    };
    v.i.reserve(n);
    if (dense.isSplat()) {
      v.i.assign(n, get(dense.getSplatValue<APInt>()));
    } else {
      for (APInt x : dense.getValues<APInt>())
        v.i.push_back(get(x));
    }
    return v;
  }
  return std::nullopt;
}

/// `x` reduced to the width of `t`: two's complement for the signless
/// (signed) types, modulo 2^w for the unsigned ones.
int64_t wrapInt(int64_t x, Type t) {
  auto it = cast<IntegerType>(t);
  unsigned w = it.getWidth();
  if (w == 1)
    return x != 0;
  if (w >= 64)
    return x;
  uint64_t bits = (uint64_t)x & ((uint64_t(1) << w) - 1);
  if (it.isUnsigned())
    return (int64_t)bits;
  uint64_t sign = uint64_t(1) << (w - 1);
  return (int64_t)((bits ^ sign) - sign);
}

/// Two's-complement wrapping arithmetic, as the compiled code does (signed
/// overflow is undefined in C++, so go through uint64_t).
int64_t wrapAdd(int64_t a, int64_t b) {
  return (int64_t)((uint64_t)a + (uint64_t)b);
}
int64_t wrapSub(int64_t a, int64_t b) {
  return (int64_t)((uint64_t)a - (uint64_t)b);
}
int64_t wrapMul(int64_t a, int64_t b) {
  return (int64_t)((uint64_t)a * (uint64_t)b);
}

DenseElementsAttr store(const Values &v, RankedTensorType type) {
  Type et = type.getElementType();
  if (auto ft = dyn_cast<FloatType>(et)) {
    SmallVector<APFloat> out;
    out.reserve(v.f.size());
    for (double x : v.f) {
      APFloat a(x);
      bool lost;
      a.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
      out.push_back(a);
    }
    return DenseElementsAttr::get(type, out);
  }
  unsigned w = cast<IntegerType>(et).getWidth();
  SmallVector<APInt> out;
  out.reserve(v.i.size());
  for (int64_t x : v.i)
    out.push_back(APInt(w, (uint64_t)wrapInt(x, et),
                        /*isSigned=*/w > 1 && !et.isUnsignedInteger(),
                        /*implicitTrunc=*/true));
  return DenseElementsAttr::get(type, out);
}

SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> s(shape.size(), 1);
  for (int64_t d = (int64_t)shape.size() - 2; d >= 0; --d)
    s[d] = s[d + 1] * shape[d + 1];
  return s;
}

/// For every element of `outShape`, the linear index into `inShape` under
/// NumPy broadcasting.
std::vector<int64_t> broadcastIndex(ArrayRef<int64_t> inShape,
                                    ArrayRef<int64_t> outShape) {
  int64_t rank = outShape.size(), off = rank - inShape.size();
  SmallVector<int64_t> inStrides = stridesOf(inShape);
  int64_t n = 1;
  for (int64_t d : outShape)
    n *= d;
  std::vector<int64_t> idx(n);
  SmallVector<int64_t> pos(rank, 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t lin = 0;
    for (int64_t d = off; d < rank; ++d)
      if (inShape[d - off] != 1)
        lin += pos[d] * inStrides[d - off];
    idx[k] = lin;
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++pos[d] < outShape[d])
        break;
      pos[d] = 0;
    }
  }
  return idx;
}

double gelu(double x, bool tanhApprox) {
  if (tanhApprox)
    return 0.5 * x *
           (1.0 +
            std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
  return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
}

std::optional<double> unaryFloat(Operation *op, double x) {
  return llvm::TypeSwitch<Operation *, std::optional<double>>(op)
      .Case([&](NegOp) { return -x; })
      .Case([&](AbsOp) { return std::fabs(x); })
      .Case([&](ExpOp) { return std::exp(x); })
      .Case([&](LogOp) { return std::log(x); })
      .Case([&](SqrtOp) { return std::sqrt(x); })
      .Case([&](RsqrtOp) { return 1.0 / std::sqrt(x); })
      .Case([&](TanhOp) { return std::tanh(x); })
      .Case([&](SigmoidOp) { return 1.0 / (1.0 + std::exp(-x)); })
      .Case([&](ReluOp) { return x > 0 ? x : (x == x ? 0.0 : x); })
      .Case([&](SiluOp) { return x / (1.0 + std::exp(-x)); })
      .Case([&](GeluOp g) {
        return gelu(x, g.getApproximate() == GeluApproximation::Tanh);
      })
      .Case([&](ErfOp) { return std::erf(x); })
      .Case([&](SinOp) { return std::sin(x); })
      .Case([&](CosOp) { return std::cos(x); })
      .Case([&](TanOp) { return std::tan(x); })
      .Case([&](AsinOp) { return std::asin(x); })
      .Case([&](AcosOp) { return std::acos(x); })
      .Case([&](AtanOp) { return std::atan(x); })
      .Case([&](SinhOp) { return std::sinh(x); })
      .Case([&](CoshOp) { return std::cosh(x); })
      .Case([&](AsinhOp) { return std::asinh(x); })
      .Case([&](AcoshOp) { return std::acosh(x); })
      .Case([&](AtanhOp) { return std::atanh(x); })
      .Case([&](FloorOp) { return std::floor(x); })
      .Case([&](CeilOp) { return std::ceil(x); })
      // The default rounding mode, to nearest with ties to even.
      .Case([&](RoundOp) { return std::nearbyint(x); })
      .Case([&](HardSwishOp) {
        return x * std::min(std::max(x + 3.0, 0.0), 6.0) / 6.0;
      })
      .Case([&](HardSigmoidOp) {
        return std::min(std::max(x / 6.0 + 0.5, 0.0), 1.0);
      })
      .Case([&](LeakyReluOp l) {
        return x >= 0 || x != x ? x : x * l.getAlpha().convertToDouble();
      })
      .Case([&](ClampOp c) {
        if (x != x)
          return x;
        if (auto mn = c.getMin())
          x = std::max(x, mn->convertToDouble());
        if (auto mx = c.getMax())
          x = std::min(x, mx->convertToDouble());
        return x;
      })
      .Default([](Operation *) { return std::nullopt; });
}

std::optional<int64_t> unaryInt(Operation *op, int64_t x) {
  return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(op)
      .Case([&](NegOp) { return wrapSub(0, x); })
      .Case([&](AbsOp) { return x < 0 ? wrapSub(0, x) : x; })
      .Case([&](ReluOp) { return x > 0 ? x : 0; })
      .Default([](Operation *) { return std::nullopt; });
}

template <typename T>
std::optional<T> binary(Operation *op, T a, T b) {
  constexpr bool isInt = std::is_integral_v<T>;
  return llvm::TypeSwitch<Operation *, std::optional<T>>(op)
      .Case([&](AddOp) -> T {
        if constexpr (isInt)
          return wrapAdd(a, b);
        else
          return a + b;
      })
      .Case([&](SubOp) -> T {
        if constexpr (isInt)
          return wrapSub(a, b);
        else
          return a - b;
      })
      .Case([&](MulOp) -> T {
        if constexpr (isInt)
          return wrapMul(a, b);
        else
          return a * b;
      })
      .Case([&](DivOp) -> std::optional<T> {
        if constexpr (isInt) {
          // x / 0 = 0 and INT_MIN / -1 wraps (docs/Dialects/Graph.md). The
          // int32 case is computed in int64 and wrapped by the caller.
          if (b == 0)
            return T(0);
          if (b == -1)
            return wrapSub(0, a);
          return a / b;
        } else {
          return a / b;
        }
      })
      .Case([&](MaxOp) -> std::optional<T> {
        if constexpr (!isInt) {
          if (std::isnan(a) || std::isnan(b))
            return NAN;
          if (a == 0 && b == 0) // +0 > -0, as arith.maximumf.
            return std::signbit(a) ? b : a;
        }
        return a > b ? a : b;
      })
      .Case([&](MinOp) -> std::optional<T> {
        if constexpr (!isInt) {
          if (std::isnan(a) || std::isnan(b))
            return NAN;
          if (a == 0 && b == 0)
            return std::signbit(a) ? a : b;
        }
        return a < b ? a : b;
      })
      .Case([&](RemOp) -> std::optional<T> {
        if constexpr (isInt) {
          // x rem 0 = x and INT_MIN rem -1 = 0 (graph.div's rules).
          if (b == 0)
            return a;
          if (b == -1)
            return T(0);
          return a % b;
        } else {
          return std::fmod(a, b);
        }
      })
      .Case([&](PowOp) -> std::optional<T> {
        if constexpr (std::is_integral_v<T>)
          return std::nullopt;
        else
          return std::pow(a, b);
      })
      .Default([](Operation *) { return std::nullopt; });
}

template <typename T>
bool compare(CompareDirection d, T a, T b) {
  switch (d) {
  case CompareDirection::EQ:
    return a == b;
  case CompareDirection::NE:
    return a != b;
  case CompareDirection::LT:
    return a < b;
  case CompareDirection::LE:
    return a <= b;
  case CompareDirection::GT:
    return a > b;
  case CompareDirection::GE:
    return a >= b;
  }
  return false;
}

/// Gathers `in` into a new tensor of `outShape`, element k taken from
/// linear index `index(k)`.
Values gather(const Values &in, ArrayRef<int64_t> outShape,
              llvm::function_ref<int64_t(int64_t)> index) {
  Values out;
  out.shape.assign(outShape.begin(), outShape.end());
  out.elementType = in.elementType;
  int64_t n = out.size();
  if (in.isFloat()) {
    out.f.resize(n);
    for (int64_t k = 0; k < n; ++k)
      out.f[k] = in.f[index(k)];
  } else {
    out.i.resize(n);
    for (int64_t k = 0; k < n; ++k)
      out.i[k] = in.i[index(k)];
  }
  return out;
}

/// Maps output linear index -> multi-index.
void unravel(int64_t k, ArrayRef<int64_t> shape,
             SmallVectorImpl<int64_t> &pos) {
  pos.assign(shape.size(), 0);
  for (int64_t d = (int64_t)shape.size() - 1; d >= 0; --d) {
    pos[d] = k % shape[d];
    k /= shape[d];
  }
}

std::optional<Values> evaluate(Operation *op, ArrayRef<Values> in,
                               RankedTensorType resultType) {
  ArrayRef<int64_t> outShape = resultType.getShape();
  Values out;
  out.shape.assign(outShape.begin(), outShape.end());
  out.elementType = resultType.getElementType();
  int64_t n = out.size();

  if (isa<AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp, PowOp, RemOp, CompareOp>(
          op)) {
    std::vector<int64_t> li = broadcastIndex(in[0].shape, outShape);
    std::vector<int64_t> ri = broadcastIndex(in[1].shape, outShape);
    if (auto cmp = dyn_cast<CompareOp>(op)) {
      out.i.resize(n);
      for (int64_t k = 0; k < n; ++k)
        out.i[k] =
            in[0].isFloat()
                ? compare(cmp.getDirection(), in[0].f[li[k]], in[1].f[ri[k]])
                : compare(cmp.getDirection(), in[0].i[li[k]], in[1].i[ri[k]]);
      return out;
    }
    if (out.isFloat()) {
      out.f.resize(n);
      for (int64_t k = 0; k < n; ++k) {
        std::optional<double> r =
            binary<double>(op, in[0].f[li[k]], in[1].f[ri[k]]);
        if (!r)
          return std::nullopt;
        out.f[k] = *r;
      }
    } else {
      out.i.resize(n);
      for (int64_t k = 0; k < n; ++k) {
        std::optional<int64_t> r =
            binary<int64_t>(op, in[0].i[li[k]], in[1].i[ri[k]]);
        if (!r)
          return std::nullopt;
        out.i[k] = wrapInt(*r, out.elementType);
      }
    }
    return out;
  }

  if (isa<NegOp, AbsOp, ExpOp, LogOp, SqrtOp, RsqrtOp, TanhOp, SigmoidOp,
          ReluOp, SiluOp, GeluOp, ErfOp, HardSwishOp, HardSigmoidOp,
          LeakyReluOp, GRAPH_TRIG_OPS, GRAPH_ROUNDING_OPS>(op) ||
      (isa<ClampOp>(op) && out.isFloat())) {
    if (out.isFloat()) {
      out.f.resize(n);
      for (int64_t k = 0; k < n; ++k)
        out.f[k] = *unaryFloat(op, in[0].f[k]);
    } else {
      out.i.resize(n);
      for (int64_t k = 0; k < n; ++k) {
        std::optional<int64_t> r = unaryInt(op, in[0].i[k]);
        if (!r)
          return std::nullopt;
        out.i[k] = wrapInt(*r, out.elementType);
      }
    }
    return out;
  }

  if (isa<SelectOp>(op)) {
    std::vector<int64_t> ci = broadcastIndex(in[0].shape, outShape);
    std::vector<int64_t> ti = broadcastIndex(in[1].shape, outShape);
    std::vector<int64_t> fi = broadcastIndex(in[2].shape, outShape);
    if (out.isFloat()) {
      out.f.resize(n);
      for (int64_t k = 0; k < n; ++k)
        out.f[k] = in[0].i[ci[k]] ? in[1].f[ti[k]] : in[2].f[fi[k]];
    } else {
      out.i.resize(n);
      for (int64_t k = 0; k < n; ++k)
        out.i[k] = in[0].i[ci[k]] ? in[1].i[ti[k]] : in[2].i[fi[k]];
    }
    return out;
  }

  if (isa<CastOp>(op)) {
    const Values &x = in[0];
    if (out.isFloat()) {
      out.f.resize(n);
      const llvm::fltSemantics &sem =
          cast<FloatType>(out.elementType).getFloatSemantics();
      // To an 8-bit float a cast saturates: beyond the largest finite
      // value (infinities too) it gives that value (ONNX's saturate=1).
      double largest = isFloat8(out.elementType)
                           ? APFloat::getLargest(sem).convertToDouble()
                           : INFINITY;
      for (int64_t k = 0; k < n; ++k) {
        if (x.isFloat()) {
          double v = x.f[k];
          out.f[k] = std::isnan(v) ? v : std::clamp(v, -largest, largest);
          continue;
        }
        if (largest != INFINITY) { // exact up to 2^53, far beyond the range
          out.f[k] = std::clamp((double)x.i[k], -largest, largest);
          continue;
        }
        // Round the integer once, straight to the target type (going
        // through double would round twice for large i64).
        APFloat v(sem);
        v.convertFromAPInt(APInt(64, (uint64_t)x.i[k], /*isSigned=*/true),
                           /*IsSigned=*/!x.elementType.isInteger(1),
                           APFloat::rmNearestTiesToEven);
        out.f[k] = v.convertToDouble();
      }
      return out;
    }
    out.i.resize(n);
    bool toBool = out.elementType.isInteger(1);
    for (int64_t k = 0; k < n; ++k) {
      if (!x.isFloat()) {
        out.i[k] = wrapInt(x.i[k], out.elementType);
        continue;
      }
      double v = x.f[k];
      if (toBool) {
        out.i[k] = v != 0.0;
        continue;
      }
      // Out-of-range and NaN conversions are undefined in C++ and PyTorch;
      // refuse to fold rather than pick a value.
      if (!(std::fabs(v) < 9.2e18))
        return std::nullopt;
      out.i[k] = wrapInt((int64_t)std::trunc(v), out.elementType);
    }
    return out;
  }

  if (auto t = dyn_cast<TransposeOp>(op)) {
    ArrayRef<int64_t> perm = t.getPermutation();
    SmallVector<int64_t> inStrides = stridesOf(in[0].shape), pos;
    return gather(in[0], outShape, [&](int64_t k) {
      unravel(k, outShape, pos);
      int64_t lin = 0;
      for (auto [d, p] : llvm::enumerate(perm))
        lin += pos[d] * inStrides[p];
      return lin;
    });
  }

  if (isa<ReshapeOp>(op))
    return gather(in[0], outShape, [](int64_t k) { return k; });

  if (isa<BroadcastToOp>(op)) {
    std::vector<int64_t> idx = broadcastIndex(in[0].shape, outShape);
    return gather(in[0], outShape, [&](int64_t k) { return idx[k]; });
  }

  if (auto s = dyn_cast<SliceOp>(op)) {
    SmallVector<int64_t> inStrides = stridesOf(in[0].shape), pos;
    return gather(in[0], outShape, [&](int64_t k) {
      unravel(k, outShape, pos);
      int64_t lin = 0;
      for (size_t d = 0; d < pos.size(); ++d)
        lin += (s.getStart()[d] + pos[d] * s.getStep()[d]) * inStrides[d];
      return lin;
    });
  }

  if (auto c = dyn_cast<ConcatOp>(op)) {
    int64_t axis = c.getAxis();
    SmallVector<int64_t> pos;
    if (out.isFloat())
      out.f.resize(n);
    else
      out.i.resize(n);
    for (int64_t k = 0; k < n; ++k) {
      unravel(k, outShape, pos);
      int64_t a = pos[axis];
      size_t which = 0;
      while (a >= in[which].shape[axis])
        a -= in[which++].shape[axis];
      pos[axis] = a;
      SmallVector<int64_t> st = stridesOf(in[which].shape);
      int64_t lin = 0;
      for (size_t d = 0; d < pos.size(); ++d)
        lin += pos[d] * st[d];
      if (out.isFloat())
        out.f[k] = in[which].f[lin];
      else
        out.i[k] = in[which].i[lin];
    }
    return out;
  }

  if (auto r = dyn_cast<ReduceOp>(op)) {
    const Values &x = in[0];
    llvm::SmallBitVector reduced(x.shape.size());
    for (int64_t a : r.getAxes())
      reduced.set(a);
    // Output position (keepdims form) of every input element.
    SmallVector<int64_t> keptShape;
    int64_t count = 1;
    for (auto [d, s] : llvm::enumerate(x.shape)) {
      keptShape.push_back(reduced.test(d) ? 1 : s);
      if (reduced.test(d))
        count *= s;
    }
    SmallVector<int64_t> keptStrides = stridesOf(keptShape), pos;
    ReduceKind kind = r.getKind();
    bool isF = x.isFloat();
    std::vector<double> accF(n);
    std::vector<int64_t> accI(n);
    std::vector<bool> first(n, true);
    for (int64_t k = 0, e = x.size(); k < e; ++k) {
      unravel(k, x.shape, pos);
      int64_t o = 0;
      for (size_t d = 0; d < pos.size(); ++d)
        if (!reduced.test(d))
          o += pos[d] * keptStrides[d];
      if (isF) {
        double v = x.f[k];
        double &acc = accF[o];
        if (first[o])
          acc = v;
        else if (kind == ReduceKind::Sum || kind == ReduceKind::Mean)
          acc += v;
        else if (std::isnan(v) || std::isnan(acc))
          acc = NAN;
        else if (v == 0 && acc == 0) // +0 > -0, as arith.maximumf.
          acc = (kind == ReduceKind::Max) == std::signbit(acc) ? v : acc;
        else
          acc = kind == ReduceKind::Max ? std::max(acc, v) : std::min(acc, v);
      } else {
        int64_t v = x.i[k];
        int64_t &acc = accI[o];
        if (first[o])
          acc = v;
        else if (kind == ReduceKind::Sum)
          acc = wrapAdd(acc, v);
        else
          acc = kind == ReduceKind::Max ? std::max(acc, v) : std::min(acc, v);
      }
      first[o] = false;
    }
    if (count == 0)
      return std::nullopt;
    if (isF) {
      if (kind == ReduceKind::Mean)
        for (double &v : accF)
          v /= (double)count;
      out.f = std::move(accF);
    } else {
      for (int64_t &v : accI)
        v = wrapInt(v, out.elementType);
      out.i = std::move(accI);
    }
    return out;
  }

  if (auto s = dyn_cast<SoftmaxOp>(op)) {
    const Values &x = in[0];
    int64_t axis = s.getAxis(), len = x.shape[axis];
    int64_t inner = 1;
    for (size_t d = axis + 1; d < x.shape.size(); ++d)
      inner *= x.shape[d];
    int64_t outer = (len && inner) ? n / (len * inner) : 0;
    out.f.resize(n);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t q = 0; q < inner; ++q) {
        auto at = [&](int64_t j) { return (o * len + j) * inner + q; };
        double m = -INFINITY, sum = 0;
        for (int64_t j = 0; j < len; ++j)
          m = std::max(m, x.f[at(j)]);
        for (int64_t j = 0; j < len; ++j)
          sum += std::exp(x.f[at(j)] - m);
        for (int64_t j = 0; j < len; ++j)
          out.f[at(j)] = std::exp(x.f[at(j)] - m) / sum;
      }
    return out;
  }
  return std::nullopt;
}

} // namespace

DenseElementsAttr mlir::graphopt::graph::evaluateConstantOp(
    Operation *op, ArrayRef<Attribute> operands, int64_t sizeLimit) {
  if (op->getNumResults() != 1 || !isa<GraphDialect>(op->getDialect()))
    return {};
  // After graph-signless the types of an unsigned op are signless and its
  // meaning is in these attributes (lib/Conversion/GraphToLinalg/
  // Signless.cpp), which the evaluation below would read as signed.
  if (op->hasAttr("graph.unsigned") || op->hasAttr("graph.unsigned_result"))
    return {};
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!resultType || !resultType.hasStaticShape())
    return {};
  // Operands are DenseElementsAttrs or large constants kept out of the
  // context (HeapConstants.h), which are never splats and are read only
  // once the op is known to be evaluated.
  auto isSplat = [](Attribute a) {
    auto dense = dyn_cast<DenseElementsAttr>(a);
    return dense && dense.isSplat();
  };
  bool allSplat = true;
  for (Attribute a : operands) {
    if (!isa_and_nonnull<DenseElementsAttr, DenseResourceElementsAttr>(a))
      return {};
    allSplat &= isSplat(a);
  }
  // Elementwise ops on splats give splats: evaluate one element, without
  // ever expanding a (possibly huge) splat. Shape ops on a splat give a
  // splat too.
  bool elementwise = !isa<ConcatOp, ReduceOp, SoftmaxOp>(op);
  SmallVector<Values> in;
  if (allSplat && elementwise) {
    for (Attribute a : operands) {
      auto dense = cast<DenseElementsAttr>(a);
      auto one =
          RankedTensorType::get(SmallVector<int64_t>(resultType.getRank(), 1),
                                dense.getElementType());
      std::optional<Values> v = load(dense.resizeSplat(one));
      if (!v)
        return {};
      in.push_back(std::move(*v));
    }
    auto one =
        RankedTensorType::get(SmallVector<int64_t>(resultType.getRank(), 1),
                              resultType.getElementType());
    // Shape ops need their real operand shapes; on a 1-element tensor they
    // reduce to the identity.
    std::optional<Values> r;
    if (isa<TransposeOp, ReshapeOp, BroadcastToOp, SliceOp>(op)) {
      r = in[0];
      r->shape.assign(one.getShape().begin(), one.getShape().end());
    } else {
      r = evaluate(op, in, one);
    }
    if (!r)
      return {};
    DenseElementsAttr single = store(*r, one);
    if (isa<FloatType>(resultType.getElementType()))
      return DenseElementsAttr::get(resultType,
                                    single.getSplatValue<APFloat>());
    return DenseElementsAttr::get(resultType, single.getSplatValue<APInt>());
  }
  // An elementwise result of the shape of an operand that is already in the
  // program (a weight's cast or dequantization) does not grow it, whatever
  // its size; other results are bounded by the limit. (Not transposes:
  // code generation transposes constant matmul operands itself, in a fast
  // loop, where this evaluator would take ~30 ns per element.)
  bool sameShapeAsOperand = false;
  if (!isa<TransposeOp, ReshapeOp, BroadcastToOp, SliceOp, ConcatOp, ReduceOp,
           SoftmaxOp>(op)) {
    for (Attribute a : operands)
      sameShapeAsOperand |=
          !isSplat(a) && cast<ElementsAttr>(a).getShapedType().getShape() ==
                             resultType.getShape();
  }
  if (resultType.getNumElements() > sizeLimit && !sameShapeAsOperand)
    return {};
  // The work is bounded by the operands too (a reduce of a huge splat has a
  // small result).
  for (Attribute a : operands) {
    if (isSplat(a) && cast<ElementsAttr>(a).getNumElements() > sizeLimit)
      return {};
    std::optional<Values> v = load(denseConstant(a));
    if (!v)
      return {};
    in.push_back(std::move(*v));
  }
  std::optional<Values> r = evaluate(op, in, resultType);
  if (!r)
    return {};
  return store(*r, resultType);
}
