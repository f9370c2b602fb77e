//===- GraphToLinalgUtils.h - helpers shared by the graph lowerings -------===//
//
// Private to lib/Conversion/GraphToLinalg: the pieces the per-family lowering
// files (GraphToLinalg.cpp, NNOps.cpp, ControlFlow.cpp) share.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_LIB_CONVERSION_GRAPHTOLINALG_UTILS_H
#define GRAPHOPT_LIB_CONVERSION_GRAPHTOLINALG_UTILS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::graphopt::lowering {

RankedTensorType tensorTypeOf(Value v);
/// The type arithmetic is done in: f32 for f16/bf16, the type itself else.
Type computeType(Type t);
Value toCompute(OpBuilder &b, Location loc, Value v);
Value fromCompute(OpBuilder &b, Location loc, Value v, Type t);
Value floatConst(OpBuilder &b, Location loc, Type t, double v);
/// Sizes of `v`'s dims as OpFoldResults (static attrs, tensor.dim else).
SmallVector<OpFoldResult> dimSizes(OpBuilder &b, Location loc, Value v);
Value emptyTensor(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
                  Type elementType);
/// An elementwise linalg.generic over `operands` broadcast to `resultType`.
Value buildElementwise(
    OpBuilder &b, Location loc, RankedTensorType resultType,
    ValueRange operands,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body);
/// Scalar conversion with graph.cast semantics; `fromUnsigned` /
/// `toUnsigned`: the integer source / target was unsigned before
/// graph-signless (zero extension, uitofp, fptoui).
Value castBody(OpBuilder &b, Location loc, Value x, Type to,
               bool fromUnsigned = false, bool toUnsigned = false);

/// Set by graph-signless on the ops whose integer operands were unsigned
/// (compare, div, rem, max, min, abs, relu, clamp, reduce, argmax,
/// max_pool2d, scatter; cast: its input), and on a cast to an unsigned
/// type (kUnsignedResultAttr): the lowering picks the unsigned arith ops.
inline constexpr llvm::StringLiteral kUnsignedAttr = "graph.unsigned";
inline constexpr llvm::StringLiteral kUnsignedResultAttr =
    "graph.unsigned_result";
inline bool isUnsignedOp(Operation *op) { return op->hasAttr(kUnsignedAttr); }

/// conv2d, pooling, gather, dynamic_update_slice, pad, argmax, cumsum;
/// `winograd`: 3x3 stride-1 convolutions with constant weights as
/// Winograd F(2x2, 3x3) where `isWinogradConv` chooses it.
void populateNNLoweringPatterns(RewritePatternSet &patterns, bool winograd);

/// The phase images of a padded image `xp` ([C, 2 hq, 2 wq] or larger):
/// q[c][a][e][y][x] = xp[c][2y + a][2x + e], [C, 2, 2, hq, wq].
Value phaseImages(OpBuilder &b, Location loc, Value xp, int64_t hq, int64_t wq);

// Winograd F(2x2, 3x3) convolutions (Winograd.cpp).

/// True for the convolutions the Winograd form is chosen for: f32, a
/// static batch, a 3x3 kernel, stride 1, no dilation, at least 16 input and
/// output channels, and at least 8 output tiles of 2x2 pixels per image.
/// (The weight must also be a constant: `constantWeight`.)
bool isWinogradConv(RankedTensorType x, RankedTensorType w,
                    RankedTensorType out, ArrayRef<int64_t> strides,
                    ArrayRef<int64_t> dil);
/// The f32 value of `v`, a constant or a fusion.group argument bound to
/// one; null otherwise.
ElementsAttr constantWeight(Value v);
/// One image of the convolution: `xp` is the padded image [C, 2 th + 2,
/// 2 tw + 2], `weight` the constant [F, C, 3, 3] weight (transformed here,
/// at compile time); returns [F, 2 th, 2 tw] (the output, with a row and a
/// column more than it has when it is odd).
Value winogradConv(OpBuilder &b, Location loc, Value xp, ElementsAttr weight,
                   int64_t th, int64_t tw);
/// Marks the graph.gather ops under `root` whose rank-0 index the host
/// knows (a graph.loop's counter, a scalar made into a tensor, a constant):
/// they are lowered to a slice at that offset. Run before the conversion,
/// which moves loop bodies and so hides where an index comes from.
void markHostIndexGathers(Operation *root);
/// The attribute markHostIndexGathers sets.
inline constexpr llvm::StringLiteral kHostIndexAttr = "graphopt.host_index";
/// graph.if -> scf.if, graph.loop -> scf.while.
void populateControlFlowLoweringPatterns(RewritePatternSet &patterns);
/// fusion.custom_call -> func.call of the kernel's C interface on buffers.
void populateCustomCallLoweringPatterns(RewritePatternSet &patterns);

} // namespace mlir::graphopt::lowering

#endif // GRAPHOPT_LIB_CONVERSION_GRAPHTOLINALG_UTILS_H
