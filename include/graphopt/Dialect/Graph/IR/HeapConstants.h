//===- HeapConstants.h - large constants outside the context -*- C++ -*-===//
//
/// \file
/// A DenseElementsAttr's data is copied into the MLIR context and lives as
/// long as the context. A compile that derives new weights from old ones
/// (batch norm folded into a convolution, Winograd transforms, matmul
/// packing) would keep every generation of the model's weights until it
/// ends, and the JIT copies the last one again into the memory the
/// compiled code reads: ResNet-50's 100 MB of weights made a 740 MB peak.
///
/// Large f32 constants therefore live in `dense_resource` blobs:
/// - the weights given to the compiler (graphopt_compile_with_constants,
///   a file's dialect_resources) stay where they are, borrowed for the
///   compile (runtime::Runner's step 0);
/// - the constants the compiler derives from them are heap blocks of their
///   own (makeHeapConstant), keyed by a hash of their data so that equal
///   constants are one attribute, as with DenseElementsAttr, whatever the
///   order they were made in (passes run on functions in parallel);
/// - a heap constant nothing refers to any more is freed
///   (releaseUnusedHeapConstants, pass graph-release-heap-constants), and
///   the JIT takes over the ones the code reads without copying them
///   (takeHeapConstant).
/// Readers get the data of either kind of constant with rawConstantData,
/// or an attribute to compute with from denseConstant.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_DIALECT_GRAPH_IR_HEAPCONSTANTS_H
#define GRAPHOPT_DIALECT_GRAPH_IR_HEAPCONSTANTS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace mlir {
class Operation;
} // namespace mlir

namespace mlir::graphopt {

/// Constants of at least this many bytes are heap constants (and the JIT
/// keeps constants of this size out of the LLVM module).
constexpr size_t kHeapConstantMinBytes = 16 * 1024;

/// An f32 constant of `type` whose elements `fill` writes in row-major
/// order into the buffer it is given: a DenseElementsAttr when small, a
/// heap `dense_resource` otherwise.
ElementsAttr makeHeapConstant(RankedTensorType type,
                              llvm::function_ref<void(float *)> fill);

/// The data of a constant that is not a splat: a DenseElementsAttr's
/// (except i1, which it stores bit-packed), or a `dense_resource`'s blob;
/// none otherwise.
std::optional<ArrayRef<char>> rawConstantData(Attribute attr);

/// The elements of an f32 constant (a DenseElementsAttr, splat or not, or
/// a `dense_resource`) in row-major order: a view of its data, or for a
/// splat, `splat` filled with its value. None for anything else.
std::optional<ArrayRef<float>> f32ConstantValues(Attribute attr,
                                                 std::vector<float> &splat);

/// `attr` as a DenseElementsAttr to compute with: itself, or a
/// `dense_resource`'s data copied into one (which then lives as long as the
/// context: for what is folded, not for what is only read); null when it
/// is neither or its data is missing or of the wrong size.
DenseElementsAttr denseConstant(Attribute attr);

/// The heap block of a constant made by makeHeapConstant, handed over to
/// the caller (free it with std::free); its resource no longer holds it.
/// Null for any other attribute.
void *takeHeapConstant(Attribute attr);

/// Frees the data of every heap constant that no operation under `root`
/// (nor any attribute they hold) refers to. Only for a root that holds
/// everything of its context that may refer to one (a module compiled in
/// a context of its own). Returns the bytes freed.
size_t releaseUnusedHeapConstants(Operation *root);

} // namespace mlir::graphopt

#endif // GRAPHOPT_DIALECT_GRAPH_IR_HEAPCONSTANTS_H
