//===- HostTensor.cpp - tensors in host memory ----------------------------===//

#include "graphopt/Runtime/HostTensor.h"

#include "llvm/ADT/APFloat.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <random>

using namespace mlir::graphopt::runtime;
using llvm::StringRef;

size_t mlir::graphopt::runtime::dtypeSize(DType t) {
  switch (t) {
  case DType::F32:
  case DType::I32:
    return 4;
  case DType::F16:
  case DType::BF16:
    return 2;
  case DType::I1:
  case DType::I8:
  case DType::U8:
  case DType::F8E4M3FN:
  case DType::F8E5M2:
  case DType::F8E4M3FNUZ:
  case DType::F8E5M2FNUZ:
    return 1;
  case DType::I16:
  case DType::U16:
    return 2;
  case DType::U32:
    return 4;
  case DType::I64:
  case DType::F64:
  case DType::U64:
    return 8;
  }
  return 0;
}

StringRef mlir::graphopt::runtime::dtypeName(DType t) {
  switch (t) {
  case DType::F32:
    return "f32";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::I1:
    return "i1";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::F64:
    return "f64";
  case DType::I8:
    return "i8";
  case DType::I16:
    return "i16";
  case DType::U8:
    return "ui8";
  case DType::U16:
    return "ui16";
  case DType::U32:
    return "ui32";
  case DType::U64:
    return "ui64";
  case DType::F8E4M3FN:
    return "f8E4M3FN";
  case DType::F8E5M2:
    return "f8E5M2";
  case DType::F8E4M3FNUZ:
    return "f8E4M3FNUZ";
  case DType::F8E5M2FNUZ:
    return "f8E5M2FNUZ";
  }
  return "?";
}

std::optional<DType> mlir::graphopt::runtime::parseDType(StringRef name) {
  return llvm::StringSwitch<std::optional<DType>>(name)
      .Case("f32", DType::F32)
      .Case("f16", DType::F16)
      .Case("bf16", DType::BF16)
      .Case("i1", DType::I1)
      .Case("i32", DType::I32)
      .Case("i64", DType::I64)
      .Case("f64", DType::F64)
      .Case("i8", DType::I8)
      .Case("i16", DType::I16)
      .Case("ui8", DType::U8)
      .Case("ui16", DType::U16)
      .Case("ui32", DType::U32)
      .Case("ui64", DType::U64)
      .Case("f8E4M3FN", DType::F8E4M3FN)
      .Case("f8E5M2", DType::F8E5M2)
      .Case("f8E4M3FNUZ", DType::F8E4M3FNUZ)
      .Case("f8E5M2FNUZ", DType::F8E5M2FNUZ)
      .Default(std::nullopt);
}

bool mlir::graphopt::runtime::isFloatDType(DType t) {
  return t == DType::F32 || t == DType::F16 || t == DType::BF16 ||
         t == DType::F64 || isFloat8DType(t);
}

bool mlir::graphopt::runtime::isFloat8DType(DType t) {
  return t == DType::F8E4M3FN || t == DType::F8E5M2 || t == DType::F8E4M3FNUZ ||
         t == DType::F8E5M2FNUZ;
}

// The 8-bit floats through APFloat, which has their semantics (NaN and
// infinity encodings, the FNUZ formats' single NaN); setDouble rounds to
// nearest even, an overflow giving what APFloat gives (inf or NaN).
static const llvm::fltSemantics &float8Semantics(DType t) {
  switch (t) {
  case DType::F8E5M2:
    return llvm::APFloat::Float8E5M2();
  case DType::F8E4M3FNUZ:
    return llvm::APFloat::Float8E4M3FNUZ();
  case DType::F8E5M2FNUZ:
    return llvm::APFloat::Float8E5M2FNUZ();
  default:
    return llvm::APFloat::Float8E4M3FN();
  }
}

static double float8ToDouble(DType t, uint8_t bits) {
  llvm::APFloat v(float8Semantics(t), llvm::APInt(8, bits));
  bool lost = false;
  v.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
            &lost);
  return v.convertToDouble();
}

static uint8_t doubleToFloat8(DType t, double d) {
  llvm::APFloat v(d);
  bool lost = false;
  v.convert(float8Semantics(t), llvm::APFloat::rmNearestTiesToEven, &lost);
  return (uint8_t)v.bitcastToAPInt().getZExtValue();
}

bool mlir::graphopt::runtime::isUnsignedDType(DType t) {
  return t == DType::U8 || t == DType::U16 || t == DType::U32 ||
         t == DType::U64;
}

// bf16 is the top half of an f32; converting rounds to nearest even. (Done
// by hand: the system libgcc has no bf16 conversion routines.)
static float bf16ToFloat(uint16_t h) {
  uint32_t bits = (uint32_t)h << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

static uint16_t floatToBF16(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if (std::isnan(f))
    return (uint16_t)((bits >> 16) | 0x40);
  uint32_t rounding = 0x7fff + ((bits >> 16) & 1);
  return (uint16_t)((bits + rounding) >> 16);
}

std::optional<size_t>
mlir::graphopt::runtime::tensorBytes(DType dtype,
                                     llvm::ArrayRef<int64_t> shape) {
  int64_t bytes = dtypeSize(dtype);
  for (int64_t d : shape) {
    if (d < 0 || llvm::MulOverflow(bytes, d, bytes))
      return std::nullopt;
  }
  if (bytes > INT64_MAX - 64)
    return std::nullopt;
  return (size_t)bytes;
}

/// 64-byte aligned (as the compiled code aligns its buffers), zero-filled.
static void *allocateZeroed(size_t bytes) {
  size_t rounded = (std::max<size_t>(bytes, 1) + 63) / 64 * 64;
  void *p = std::aligned_alloc(64, rounded);
  if (p)
    std::memset(p, 0, rounded);
  return p;
}

HostTensor::HostTensor(DType dtype, llvm::ArrayRef<int64_t> shape)
    : type(dtype), dims(shape) {
  std::optional<size_t> bytes = tensorBytes(dtype, shape);
  void *p = bytes ? allocateZeroed(*bytes) : nullptr;
  if (!p)
    llvm::report_fatal_error(llvm::Twine("cannot allocate a tensor of ") +
                             typeString());
  storage.reset(p, std::free);
  ptr = static_cast<uint8_t *>(p);
}

llvm::Expected<HostTensor> HostTensor::create(DType dtype,
                                              llvm::ArrayRef<int64_t> shape) {
  HostTensor t;
  t.type = dtype;
  t.dims.assign(shape.begin(), shape.end());
  std::optional<size_t> bytes = tensorBytes(dtype, shape);
  if (!bytes)
    return llvm::createStringError(
        "tensor %s is invalid: a negative dim, or more bytes than fit in "
        "memory",
        t.typeString().c_str());
  void *p = allocateZeroed(*bytes);
  if (!p)
    return llvm::createStringError("cannot allocate %zu bytes for a %s tensor",
                                   *bytes, t.typeString().c_str());
  t.storage.reset(p, std::free);
  t.ptr = static_cast<uint8_t *>(p);
  return t;
}

HostTensor HostTensor::adopt(DType dtype, llvm::ArrayRef<int64_t> shape,
                             void *allocation, void *data,
                             void (*release)(void *)) {
  HostTensor t;
  t.type = dtype;
  t.dims.assign(shape.begin(), shape.end());
  t.storage.reset(allocation, release);
  t.ptr = static_cast<uint8_t *>(data);
  return t;
}

int64_t HostTensor::numElements() const {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  return n;
}

double HostTensor::getDouble(int64_t i) const {
  const uint8_t *p = ptr + i * dtypeSize(type);
  switch (type) {
  case DType::F32: {
    float v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case DType::F16: {
    _Float16 v;
    std::memcpy(&v, p, 2);
    return (double)v;
  }
  case DType::BF16: {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return bf16ToFloat(v);
  }
  case DType::F64: {
    double v;
    std::memcpy(&v, p, 8);
    return v;
  }
  case DType::I1:
  case DType::I8:
  case DType::I16:
  case DType::I32:
  case DType::I64:
    return (double)getInt(i);
  case DType::U8:
  case DType::U16:
  case DType::U32:
  case DType::U64:
    return (double)getUnsigned(i);
  case DType::F8E4M3FN:
  case DType::F8E5M2:
  case DType::F8E4M3FNUZ:
  case DType::F8E5M2FNUZ:
    return float8ToDouble(type, *p);
  }
  return 0;
}

int64_t HostTensor::getInt(int64_t i) const {
  const uint8_t *p = ptr + i * dtypeSize(type);
  switch (type) {
  case DType::I1:
    return *p ? 1 : 0;
  case DType::I8:
    return (int8_t)*p;
  case DType::I16: {
    int16_t v;
    std::memcpy(&v, p, 2);
    return v;
  }
  case DType::U8:
  case DType::U16:
  case DType::U32:
  case DType::U64:
    return (int64_t)getUnsigned(i);
  case DType::I32: {
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case DType::I64: {
    int64_t v;
    std::memcpy(&v, p, 8);
    return v;
  }
  default:
    return (int64_t)getDouble(i);
  }
}

uint64_t HostTensor::getUnsigned(int64_t i) const {
  const uint8_t *p = ptr + i * dtypeSize(type);
  switch (type) {
  case DType::U8:
    return *p;
  case DType::U16: {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return v;
  }
  case DType::U32: {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case DType::U64: {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  }
  default:
    return (uint64_t)getInt(i);
  }
}

void HostTensor::setInt(int64_t i, int64_t v) {
  uint8_t *p = ptr + i * dtypeSize(type);
  switch (type) {
  case DType::I1:
    *p = v != 0;
    return;
  case DType::I8:
  case DType::U8:
    *p = (uint8_t)(uint64_t)v;
    return;
  case DType::U16: {
    uint16_t x = (uint16_t)(uint64_t)v;
    std::memcpy(p, &x, 2);
    return;
  }
  case DType::U32: {
    uint32_t x = (uint32_t)(uint64_t)v;
    std::memcpy(p, &x, 4);
    return;
  }
  case DType::U64:
    std::memcpy(p, &v, 8);
    return;
  case DType::I16: {
    uint16_t x = (uint16_t)(uint64_t)v;
    std::memcpy(p, &x, 2);
    return;
  }
  case DType::I32: {
    int32_t x = (int32_t)(uint32_t)(uint64_t)v;
    std::memcpy(p, &x, 4);
    return;
  }
  case DType::I64:
    std::memcpy(p, &v, 8);
    return;
  default:
    setDouble(i, (double)v);
    return;
  }
}

void HostTensor::setDouble(int64_t i, double d) {
  uint8_t *p = ptr + i * dtypeSize(type);
  switch (type) {
  case DType::F32: {
    float v = (float)d;
    std::memcpy(p, &v, 4);
    return;
  }
  case DType::F16: {
    _Float16 v = (_Float16)(float)d;
    std::memcpy(p, &v, 2);
    return;
  }
  case DType::BF16: {
    uint16_t v = floatToBF16((float)d);
    std::memcpy(p, &v, 2);
    return;
  }
  case DType::F64:
    std::memcpy(p, &d, 8);
    return;
  case DType::I1:
    *p = d != 0.0;
    return;
  case DType::I8:
  case DType::I16:
    setInt(i, (int64_t)d);
    return;
  case DType::U8:
  case DType::U16:
  case DType::U32:
  case DType::U64: {
    // Through uint64 so that values above INT64_MAX keep their bits.
    uint64_t u = d >= 0x1p63 ? (uint64_t)(d - 0x1p63) + (uint64_t(1) << 63)
                             : (uint64_t)(int64_t)d;
    setInt(i, (int64_t)u);
    return;
  }
  case DType::I32: {
    int32_t v = (int32_t)d;
    std::memcpy(p, &v, 4);
    return;
  }
  case DType::I64: {
    int64_t v = (int64_t)d;
    std::memcpy(p, &v, 8);
    return;
  }
  case DType::F8E4M3FN:
  case DType::F8E5M2:
  case DType::F8E4M3FNUZ:
  case DType::F8E5M2FNUZ:
    *p = doubleToFloat8(type, d);
    return;
  }
}

std::string HostTensor::typeString() const {
  std::string s;
  for (int64_t d : dims)
    s += std::to_string(d) + "x";
  return s + dtypeName(type).str();
}

/// A decimal or hex float that is the whole of `v` ("1.5e" is not).
static bool parseFullDouble(StringRef v, double &d) {
  if (v.empty())
    return false;
  std::string text = v.str();
  char *end = nullptr;
  errno = 0;
  d = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && errno != ERANGE;
}

llvm::Expected<HostTensor>
mlir::graphopt::runtime::parseTensorLiteral(StringRef spec) {
  auto [typePart, valuePart] = spec.split('=');
  if (valuePart.empty() && !spec.contains('='))
    return llvm::createStringError(
        "tensor literal '%s' has no '=': write e.g. 2x3xf32=1,2,3,4,5,6",
        spec.str().c_str());
  llvm::SmallVector<StringRef> parts;
  typePart.split(parts, 'x');
  std::optional<DType> dtype = parseDType(parts.back());
  if (!dtype)
    return llvm::createStringError(
        "tensor literal '%s': unknown element type '%s' (use f32, f16, bf16, "
        "f64, i1, i8, i16, i32, i64, ui8, ui16, ui32 or ui64)",
        spec.str().c_str(), parts.back().str().c_str());
  llvm::SmallVector<int64_t> shape;
  for (StringRef p : llvm::ArrayRef(parts).drop_back()) {
    int64_t d;
    if (p.getAsInteger(10, d) || d < 0)
      return llvm::createStringError("tensor literal '%s': bad dim '%s'",
                                     spec.str().c_str(), p.str().c_str());
    shape.push_back(d);
  }
  auto created = HostTensor::create(*dtype, shape);
  if (!created)
    return created.takeError();
  HostTensor t = std::move(*created);
  llvm::SmallVector<StringRef> values;
  StringRef trimmed = valuePart.trim().trim("[]");
  if (!trimmed.empty())
    trimmed.split(values, ',');
  int64_t n = t.numElements();
  if ((int64_t)values.size() != n && values.size() != 1)
    return llvm::createStringError(
        "tensor literal '%s': shape %s has %lld elements but %zu values were "
        "given",
        spec.str().c_str(), t.typeString().c_str(), (long long)n,
        values.size());
  bool isInt = !isFloatDType(*dtype) && *dtype != DType::I1;
  bool isUnsigned = isUnsignedDType(*dtype);
  for (int64_t i = 0; i < n; ++i) {
    StringRef v = values[values.size() == 1 ? 0 : i].trim();
    if (isInt) {
      // Integers are parsed exactly and must fit the type.
      int64_t x = 0;
      bool bad;
      if (isUnsigned) {
        uint64_t u;
        bad = v.getAsInteger(10, u) ||
              (dtypeSize(*dtype) < 8 &&
               u >= (uint64_t(1) << (8 * dtypeSize(*dtype))));
        x = (int64_t)u;
      } else {
        bad = v.getAsInteger(10, x);
      }
      if (!bad && *dtype == DType::I32 && (x < INT32_MIN || x > INT32_MAX))
        bad = true;
      if (!bad && *dtype == DType::I16 && (x < INT16_MIN || x > INT16_MAX))
        bad = true;
      if (!bad && *dtype == DType::I8 && (x < INT8_MIN || x > INT8_MAX))
        bad = true;
      if (bad)
        return llvm::createStringError(
            "tensor literal '%s': '%s' is not an integer that fits %s",
            spec.str().c_str(), v.str().c_str(),
            dtypeName(*dtype).str().c_str());
      t.setInt(i, x);
      continue;
    }
    double d;
    if (*dtype == DType::I1) {
      // Booleans: true/false or 1/0, nothing else.
      if (v == "true" || v == "1")
        t.setDouble(i, 1);
      else if (v == "false" || v == "0")
        t.setDouble(i, 0);
      else
        return llvm::createStringError(
            "tensor literal '%s': '%s' is not a boolean (true, false, 1 or 0)",
            spec.str().c_str(), v.str().c_str());
      continue;
    }
    if (v == "true")
      d = 1;
    else if (v == "false")
      d = 0;
    else if (v == "nan")
      d = NAN;
    else if (v == "inf")
      d = INFINITY;
    else if (v == "-inf")
      d = -INFINITY;
    else if (!parseFullDouble(v, d))
      return llvm::createStringError("tensor literal '%s': bad value '%s'",
                                     spec.str().c_str(), v.str().c_str());
    t.setDouble(i, d);
  }
  return t;
}

llvm::Expected<HostTensor> mlir::graphopt::runtime::randomTensor(
    DType dtype, llvm::ArrayRef<int64_t> shape, uint64_t seed) {
  auto created = HostTensor::create(dtype, shape);
  if (!created)
    return created.takeError();
  HostTensor t = std::move(*created);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int64_t> integer(-8, 8);
  for (int64_t i = 0, n = t.numElements(); i < n; ++i) {
    if (isFloatDType(dtype))
      t.setDouble(i, real(rng));
    else if (dtype == DType::I1)
      t.setDouble(i, rng() & 1);
    else if (isUnsignedDType(dtype))
      t.setDouble(i, integer(rng) + 8); // [0, 16]
    else
      t.setDouble(i, integer(rng));
  }
  return t;
}

std::string
mlir::graphopt::runtime::formatIndex(int64_t linear,
                                     llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t> pos(shape.size());
  for (int64_t d = (int64_t)shape.size() - 1; d >= 0; --d) {
    pos[d] = shape[d] ? linear % shape[d] : 0;
    linear = shape[d] ? linear / shape[d] : 0;
  }
  std::string s = "[";
  for (size_t d = 0; d < pos.size(); ++d)
    s += (d ? ", " : "") + std::to_string(pos[d]);
  return s + "]";
}

static void printElement(llvm::raw_ostream &os, const HostTensor &t,
                         int64_t i) {
  if (t.dtype() == DType::I1)
    os << (t.getInt(i) ? "true" : "false");
  else if (isUnsignedDType(t.dtype()))
    os << t.getUnsigned(i);
  else if (!isFloatDType(t.dtype()))
    os << t.getInt(i);
  else
    os << llvm::format("%.6g", t.getDouble(i));
}

static void printDim(llvm::raw_ostream &os, const HostTensor &t, int64_t dim,
                     int64_t offset, int64_t stride, bool summarize) {
  int64_t n = t.shape()[dim];
  int64_t inner = stride / (n ? n : 1);
  os << "[";
  for (int64_t i = 0; i < n; ++i) {
    if (i)
      os << ", ";
    if (summarize && n > 6 && i == 3) {
      os << "..., ";
      i = n - 3;
    }
    if (dim + 1 == t.rank())
      printElement(os, t, offset + i);
    else
      printDim(os, t, dim + 1, offset + i * inner, inner, summarize);
  }
  os << "]";
}

void mlir::graphopt::runtime::printTensor(llvm::raw_ostream &os,
                                          const HostTensor &t,
                                          int64_t summarizeAbove) {
  if (t.rank() == 0) {
    printElement(os, t, 0);
    return;
  }
  printDim(os, t, 0, 0, t.numElements(), t.numElements() > summarizeAbove);
}

Comparison mlir::graphopt::runtime::compareTensors(const HostTensor &actual,
                                                   const HostTensor &expected,
                                                   double atol, double rtol) {
  Comparison c;
  if (actual.shape() != expected.shape()) {
    c.ok = false;
    c.message = "shape mismatch: got " + actual.typeString() + ", expected " +
                expected.typeString();
    return c;
  }
  double worstExcess = -1;
  bool integers =
      !isFloatDType(actual.dtype()) && !isFloatDType(expected.dtype());
  for (int64_t i = 0, n = actual.numElements(); i < n; ++i) {
    double a = actual.getDouble(i), e = expected.getDouble(i);
    double err;
    if (integers) {
      int64_t ai = actual.getInt(i), ei = expected.getInt(i);
      if (ai == ei)
        continue;
      // Exact: any difference is a mismatch, whatever the tolerances.
      uint64_t diff =
          ai > ei ? (uint64_t)ai - (uint64_t)ei : (uint64_t)ei - (uint64_t)ai;
      err = std::max(1.0, (double)diff);
      ++c.mismatches;
      c.ok = false;
      if (err > worstExcess) {
        worstExcess = err;
        c.worstIndex = i;
        c.worstActual = a;
        c.worstExpected = e;
        c.worstAbsError = err;
      }
      continue;
    } else {
      if ((std::isnan(a) && std::isnan(e)) || a == e)
        continue;
      err = std::fabs(a - e);
    }
    double allowed = atol + rtol * std::fabs(e);
    bool bad = !(err <= allowed) || (std::isinf(e) && a != e);
    double excess = std::isnan(err) ? INFINITY : err - allowed;
    if (bad) {
      ++c.mismatches;
      c.ok = false;
    }
    if ((bad && excess > worstExcess) || (c.worstIndex < 0 && bad)) {
      worstExcess = excess;
      c.worstIndex = i;
      c.worstActual = a;
      c.worstExpected = e;
      c.worstAbsError = err;
    }
  }
  return c;
}
