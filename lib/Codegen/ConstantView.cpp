//===- ConstantView.cpp - weights read in place at compile time -----------===//

#include "graphopt/Codegen/ConstantView.h"
#include "graphopt/Dialect/Graph/IR/HeapConstants.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::graphopt;

/// Row-major strides of `shape`.
static SmallVector<int64_t> rowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

ConstantView ConstantView::of(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || !type.hasStaticShape())
    return {};
  Attribute attr;
  if (matchPattern(v, m_Constant(&attr))) {
    // A DenseElementsAttr or a constant kept out of the context
    // (HeapConstants.h).
    if (!type.getElementType().isF32())
      return {};
    ConstantView view;
    view.type = type;
    // A splat is its one value with all strides zero (never expanded).
    if (auto dense = dyn_cast<DenseElementsAttr>(attr);
        dense && dense.isSplat()) {
      view.data = reinterpret_cast<const float *>(dense.getRawData().data());
      view.splat = true;
      view.strides.assign(type.getRank(), 0);
      return view;
    }
    std::vector<float> unused; // (f32ConstantValues' storage for splats)
    std::optional<ArrayRef<float>> values = f32ConstantValues(attr, unused);
    if (!values)
      return {};
    view.data = values->data();
    view.strides = rowMajorStrides(type.getShape());
    return view;
  }
  Operation *def = v.getDefiningOp();
  if (!def)
    return {};
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(def)) {
    ConstantView in = of(collapse.getSrc());
    return in ? in.reshaped(type, collapse.getReassociationIndices(),
                            /*collapse=*/true)
              : in;
  }
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(def)) {
    ConstantView in = of(expand.getSrc());
    return in ? in.reshaped(type, expand.getReassociationIndices(),
                            /*collapse=*/false)
              : in;
  }
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(def)) {
    // A slice of static offsets, sizes and strides (a convolution tap's
    // weight): the same data from its first element, strides scaled.
    if (ShapedType::isDynamicShape(slice.getStaticOffsets()) ||
        ShapedType::isDynamicShape(slice.getStaticSizes()) ||
        ShapedType::isDynamicShape(slice.getStaticStrides()))
      return {};
    ConstantView in = of(slice.getSource());
    if (!in)
      return in;
    llvm::SmallBitVector dropped = slice.getDroppedDims();
    ConstantView out = in;
    out.type = type;
    out.strides.clear();
    int64_t offset = 0;
    for (auto [d, o, step] :
         llvm::enumerate(slice.getStaticOffsets(), slice.getStaticStrides())) {
      offset += o * in.strides[d];
      if (!dropped.test(d))
        out.strides.push_back(in.strides[d] * step);
    }
    out.data = in.data + offset;
    return out;
  }
  if (auto transpose = dyn_cast<linalg::TransposeOp>(def)) {
    if (!transpose.hasPureTensorSemantics())
      return {};
    ConstantView in = of(transpose.getInput());
    return in ? in.transposed(transpose.getPermutation()) : in;
  }
  return {};
}

ConstantView ConstantView::transposed(ArrayRef<int64_t> perm) const {
  ConstantView out = *this;
  SmallVector<int64_t> shape;
  for (auto [d, from] : llvm::enumerate(perm)) {
    shape.push_back(type.getDimSize(from));
    out.strides[d] = strides[from];
  }
  out.type = RankedTensorType::get(shape, type.getElementType());
  return out;
}

ConstantView ConstantView::reshaped(RankedTensorType newType,
                                    ArrayRef<ReassociationIndices> groups,
                                    bool collapse) const {
  ConstantView out = *this;
  out.type = newType;
  out.strides.assign(newType.getRank(), 0);
  if (splat)
    return out;
  if (!collapse) {
    // Dim g of this view becomes the dims of group g, innermost last.
    for (auto [g, group] : llvm::enumerate(groups)) {
      int64_t stride = strides[g];
      for (int64_t d : llvm::reverse(group)) {
        out.strides[d] = stride;
        stride *= newType.getDimSize(d);
      }
    }
    return out;
  }
  // The dims of group g become dim g: possible without a copy when each
  // dim of size > 1 steps over whole runs of the next one.
  for (auto [g, group] : llvm::enumerate(groups)) {
    int64_t stride = 1;
    std::optional<int64_t> inner;
    for (int64_t d : llvm::reverse(group)) {
      int64_t size = type.getDimSize(d);
      if (size == 1)
        continue;
      if (inner && strides[d] != strides[*inner] * type.getDimSize(*inner)) {
        // Not expressible with strides: copy in row-major order.
        ConstantView copy = out;
        copy.storage = copyRowMajor();
        copy.data = copy.storage->data();
        copy.strides = rowMajorStrides(newType.getShape());
        return copy;
      }
      if (!inner)
        stride = strides[d];
      inner = d;
    }
    out.strides[g] = stride;
  }
  return out;
}

std::shared_ptr<std::vector<float>> ConstantView::copyRowMajor() const {
  auto copy = std::make_shared<std::vector<float>>(type.getNumElements());
  int64_t rank = type.getRank();
  SmallVector<int64_t> index(rank, 0);
  int64_t offset = 0;
  for (float &x : *copy) {
    x = data[offset];
    for (int64_t d = rank - 1; d >= 0; --d) {
      offset += strides[d];
      if (++index[d] < type.getDimSize(d))
        break;
      offset -= index[d] * strides[d];
      index[d] = 0;
    }
  }
  return copy;
}

DenseElementsAttr ConstantView::toAttr() const {
  if (splat)
    return DenseElementsAttr::get(type, ArrayRef<float>(data[0]));
  return DenseElementsAttr::get(type, ArrayRef<float>(*copyRowMajor()));
}
