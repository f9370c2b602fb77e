//===- ConstantView.h - weights read in place at compile time -*- C++ -*-===//
//
/// \file
/// A tensor that the IR computes from an f32 constant by reshapes,
/// transposes and static slices only (a weight laid out for a matmul, or a
/// convolution tap's slice of one: a convolution's
/// [F, C, KH, KW] transposed to [C, KH, KW, F] and collapsed to
/// [C*KH*KW, F]), seen at compile time as a strided view of the constant's
/// data. The packing of constant matmul operands reads weights through it.
///
/// No attribute is made for the view, and the data is copied only where a
/// reshape cannot be expressed with strides: an attribute's data lives as
/// long as the MLIR context, so a weight evaluated into one only to be
/// packed stays in memory twice until the compile ends (ResNet-50: ~100 MB
/// of 100 MB of weights).
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_CODEGEN_CONSTANTVIEW_H
#define GRAPHOPT_CODEGEN_CONSTANTVIEW_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace mlir::graphopt {

class ConstantView {
public:
  ConstantView() = default;

  /// The view of `v` when it is an f32 constant of static shape, or is
  /// computed from one by tensor.collapse_shape, tensor.expand_shape,
  /// tensor.extract_slice (static offsets, sizes and strides) and
  /// linalg.transpose only; empty otherwise.
  static ConstantView of(Value v);

  explicit operator bool() const { return static_cast<bool>(type); }
  RankedTensorType getType() const { return type; }
  bool isSplat() const { return splat; }

  /// Element (r, c) of a 2-D view.
  float at(int64_t r, int64_t c) const {
    return data[r * strides[0] + c * strides[1]];
  }

  /// The elements as an attribute (made now, so kept as long as the MLIR
  /// context: for what the compiled code reads, not for what is packed).
  DenseElementsAttr toAttr() const;

private:
  /// The same elements with the dims in `perm` order (result dim d is
  /// this view's dim perm[d]).
  ConstantView transposed(ArrayRef<int64_t> perm) const;
  /// The same elements, in row-major order, as `newType` (a reshape).
  ConstantView reshaped(RankedTensorType newType,
                        ArrayRef<ReassociationIndices> groups,
                        bool collapse) const;
  /// The elements in row-major order, copied.
  std::shared_ptr<std::vector<float>> copyRowMajor() const;

  RankedTensorType type;
  /// Element i0..in is data[sum(ik * strides[k])]; a splat has all strides
  /// zero.
  const float *data = nullptr;
  SmallVector<int64_t> strides;
  bool splat = false;
  /// The elements, when the view needed a copy of them (else the
  /// constant's attribute holds them).
  std::shared_ptr<std::vector<float>> storage;
};

} // namespace mlir::graphopt

#endif // GRAPHOPT_CODEGEN_CONSTANTVIEW_H
