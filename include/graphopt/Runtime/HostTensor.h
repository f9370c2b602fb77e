//===- HostTensor.h - tensors in host memory --------------------*- C++ -*-===//
//
/// \file
/// A dense, row-major tensor in host memory, with the parsers, printers and
/// .npy I/O that graph-run and the runtime use to move data in and out of
/// compiled code.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_RUNTIME_HOSTTENSOR_H
#define GRAPHOPT_RUNTIME_HOSTTENSOR_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::graphopt::runtime {

/// Element types the runtime moves across the ABI.
/// (Append new types: the C API's graphopt_dtype codes are their own.)
enum class DType {
  F32,
  F16,
  BF16,
  I1,
  I32,
  I64,
  F64,
  I8,
  I16,
  U8,
  U16,
  U32,
  U64,
  F8E4M3FN,
  F8E5M2,
  F8E4M3FNUZ,
  F8E5M2FNUZ
};

/// Size in bytes of one element (i1 is stored as one byte, as in NumPy).
size_t dtypeSize(DType t);
/// The MLIR spelling: "f32", "f16", "bf16", "f64", "i1", "i8", "i16",
/// "i32", "i64", "ui8", "ui16", "ui32", "ui64", "f8E4M3FN", "f8E5M2",
/// "f8E4M3FNUZ", "f8E5M2FNUZ".
llvm::StringRef dtypeName(DType t);
/// Parses an MLIR element type spelling.
std::optional<DType> parseDType(llvm::StringRef name);
bool isFloatDType(DType t);
bool isUnsignedDType(DType t);
/// Whether `t` is one of the 8-bit float (storage) types.
bool isFloat8DType(DType t);

/// Marks a dynamic dim in a signature shape.
constexpr int64_t kDynamicDim = INT64_MIN;

/// A dense row-major tensor owning its bytes.
class HostTensor {
public:
  HostTensor() = default;
  /// A zero-filled tensor. Aborts with a message if the memory cannot be
  /// had; use create() for sizes that come from users.
  HostTensor(DType dtype, llvm::ArrayRef<int64_t> shape);
  /// A zero-filled tensor, or an error naming the problem: a negative dim, a
  /// byte size that overflows, or memory that cannot be allocated.
  static llvm::Expected<HostTensor> create(DType dtype,
                                           llvm::ArrayRef<int64_t> shape);
  /// Takes ownership of the block `allocation` (released with `release`)
  /// whose contiguous row-major data starts at `data`: no copy.
  static HostTensor adopt(DType dtype, llvm::ArrayRef<int64_t> shape,
                          void *allocation, void *data,
                          void (*release)(void *));

  DType dtype() const { return type; }
  llvm::ArrayRef<int64_t> shape() const { return dims; }
  int64_t rank() const { return dims.size(); }
  int64_t numElements() const;
  size_t sizeInBytes() const { return numElements() * dtypeSize(type); }
  void *data() { return ptr; }
  const void *data() const { return ptr; }

  /// Element `i` (row-major linear index) converted to double.
  double getDouble(int64_t i) const;
  /// Element `i` of an integer or i1 tensor, exactly (ui64 values above
  /// INT64_MAX wrap: use getUnsigned).
  int64_t getInt(int64_t i) const;
  /// Element `i` of an unsigned tensor.
  uint64_t getUnsigned(int64_t i) const;
  /// Stores the integer `v` at `i` (wrapping to the dtype's width).
  void setInt(int64_t i, int64_t v);
  /// Stores `v` at linear index `i`, rounded/converted to the dtype.
  void setDouble(int64_t i, double v);

  /// "2x3xf32", or "f32" for rank 0.
  std::string typeString() const;

private:
  DType type = DType::F32;
  llvm::SmallVector<int64_t> dims;
  /// The owned block and the first element in it.
  std::shared_ptr<void> storage;
  uint8_t *ptr = nullptr;
};

/// Parses `2x3xf32=1,2,3,4,5,6` (or `f32=1.5` for a scalar). A single value
/// is repeated to fill the shape (`4x4xf32=0`).
llvm::Expected<HostTensor> parseTensorLiteral(llvm::StringRef spec);

/// Reads a .npy file (little-endian, C order; f8, f4, f2, i8, i4, i2, i1,
/// u8, u4, u2, u1, b1).
llvm::Expected<HostTensor> readNpy(llvm::StringRef path);

/// Writes `t` as .npy. bf16, which NumPy lacks, is written as f4.
llvm::Error writeNpy(llvm::StringRef path, const HostTensor &t);

/// Fills a tensor deterministically from `seed`: floats uniform in [-1, 1),
/// integers uniform in [-8, 8], i1 fair coin.
llvm::Expected<HostTensor>
randomTensor(DType dtype, llvm::ArrayRef<int64_t> shape, uint64_t seed);

/// The number of bytes a tensor of `shape` and `dtype` needs, or
/// std::nullopt when a dim is negative or the size overflows.
std::optional<size_t> tensorBytes(DType dtype, llvm::ArrayRef<int64_t> shape);

/// Prints `t` NumPy-style; tensors with more than `summarizeAbove` elements
/// show the first and last 3 entries of each dim.
void printTensor(llvm::raw_ostream &os, const HostTensor &t,
                 int64_t summarizeAbove = 1000);

/// The result of comparing an actual tensor with an expected one.
struct Comparison {
  bool ok = true;
  std::string message;
  int64_t mismatches = 0;
  int64_t worstIndex = -1;
  double worstActual = 0, worstExpected = 0, worstAbsError = 0;
};

/// NumPy allclose for floats: |a - e| <= atol + rtol * |e|, NaN equal to
/// NaN, equal infinities equal. Integers and i1 are compared exactly, the
/// tolerances ignored. Shapes must match (the message says how they differ
/// otherwise).
Comparison compareTensors(const HostTensor &actual, const HostTensor &expected,
                          double atol, double rtol);

/// "[i, j, k]" of a linear index in `shape`.
std::string formatIndex(int64_t linear, llvm::ArrayRef<int64_t> shape);

} // namespace mlir::graphopt::runtime

#endif // GRAPHOPT_RUNTIME_HOSTTENSOR_H
