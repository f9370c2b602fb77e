//===- GraphToLinalgUtils.h - helpers shared by the graph lowerings -------===//
//
// Private to lib/Conversion/GraphToLinalg: the pieces the per-family lowering
// files (GraphToLinalg.cpp, NNOps.cpp, ControlFlow.cpp) share.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_LIB_CONVERSION_GRAPHTOLINALG_UTILS_H
#define GRAPHOPT_LIB_CONVERSION_GRAPHTOLINALG_UTILS_H

#include "mlir/IR/Builders.h"
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
/// Scalar conversion with graph.cast semantics.
Value castBody(OpBuilder &b, Location loc, Value x, Type to);

/// conv2d, pooling, gather, dynamic_update_slice, pad, argmax, cumsum.
void populateNNLoweringPatterns(RewritePatternSet &patterns);
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
