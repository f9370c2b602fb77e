//===- GraphOps.h - graph dialect and ops -----------------------*- C++ -*-===//
//
/// \file
/// The `graph` dialect: tensor-level ops with NumPy broadcasting and
/// torch-style semantics. Specification: docs/Dialects/Graph.md.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_DIALECT_GRAPH_IR_GRAPHOPS_H
#define GRAPHOPT_DIALECT_GRAPH_IR_GRAPHOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "graphopt/Dialect/Graph/IR/GraphDialect.h.inc"
#include "graphopt/Dialect/Graph/IR/GraphEnums.h.inc"

#define GET_OP_CLASSES
#include "graphopt/Dialect/Graph/IR/GraphOps.h.inc"

/// The trigonometric and hyperbolic unary ops (graph.sin ... graph.atanh),
/// for the isa<> lists of elementwise ops.
#define GRAPH_TRIG_OPS                                                         \
  SinOp, CosOp, TanOp, AsinOp, AcosOp, AtanOp, SinhOp, CoshOp, AsinhOp,        \
      AcoshOp, AtanhOp

/// The rounding unary ops (graph.floor, graph.ceil, graph.round).
#define GRAPH_ROUNDING_OPS FloorOp, CeilOp, RoundOp

namespace mlir::graphopt::graph {

/// Output size of a sliding window (convolution, pooling) over a dim of size
/// `in` (kDynamic: dynamic result); nullopt if the window does not fit once.
/// `ceilMode` rounds up with PyTorch's rule.
std::optional<int64_t> slidingWindowOutputSize(int64_t in, int64_t padBefore,
                                               int64_t padAfter, int64_t kernel,
                                               int64_t stride, int64_t dilation,
                                               bool ceilMode);

/// Computes the NumPy broadcast of `lhs` and `rhs` into `result`. Dynamic
/// dims broadcast against 1 to dynamic and against a static size S to S.
/// Returns the pair of (aligned from the back) result dims that conflict,
/// as the index into `result`, or std::nullopt on success.
std::optional<int64_t> broadcastShapes(ArrayRef<int64_t> lhs,
                                       ArrayRef<int64_t> rhs,
                                       SmallVectorImpl<int64_t> &result);

/// True when `a` and `b` are ranked tensors with the same element type and
/// rank whose static dims agree: the relation between a written result type
/// and an inferred one.
bool areCompatibleTensorTypes(Type a, Type b);

/// areCompatibleTensorTypes element by element, for
/// InferTypeOpInterface::isCompatibleReturnTypes.
bool areCompatibleTensorTypeLists(TypeRange l, TypeRange r);

/// One of the 8-bit float storage types of the dialect (f8E4M3FN, f8E5M2,
/// f8E4M3FNUZ, f8E5M2FNUZ: Graph_Float8Element); they have no arithmetic,
/// only casts, which saturate (docs/Dialects/Graph.md, Element types).
inline bool isFloat8(Type t) {
  return isa<Float8E4M3FNType, Float8E5M2Type, Float8E4M3FNUZType,
             Float8E5M2FNUZType>(t);
}

/// A dim for a diagnostic: its size, or `?` when dynamic.
std::string formatDim(int64_t d);

/// graph.conv2d's shape rule (constraints C1-C5 in docs/Dialects/Graph.md),
/// shared by every op with its operands and attributes (fusion.conv2d): the
/// result type, or failure with the diagnostic emitted at `loc` (if any)
/// in the name of `opName`. `bias` is null when there is none.
FailureOr<RankedTensorType>
inferConv2DResultType(std::optional<Location> loc, StringRef opName,
                      RankedTensorType input, RankedTensorType weight,
                      RankedTensorType bias, ArrayRef<int64_t> strides,
                      ArrayRef<int64_t> padding, ArrayRef<int64_t> dilations,
                      int64_t groups);

/// InferTypeOpInterface::inferReturnTypes of an op with graph.conv2d's
/// operands and attributes (its ODS adaptor `adaptor`), by
/// inferConv2DResultType.
template <typename Adaptor>
LogicalResult inferConv2DReturnTypes(std::optional<Location> loc,
                                     StringRef opName, Adaptor adaptor,
                                     SmallVectorImpl<Type> &inferred) {
  auto tensor = [](Value v) {
    return v ? cast<RankedTensorType>(v.getType()) : RankedTensorType();
  };
  FailureOr<RankedTensorType> type = inferConv2DResultType(
      loc, opName, tensor(adaptor.getInput()), tensor(adaptor.getWeight()),
      tensor(adaptor.getBias()), adaptor.getStrides(), adaptor.getPadding(),
      adaptor.getDilations(), adaptor.getGroups());
  if (failed(type))
    return failure();
  inferred.push_back(*type);
  return success();
}

/// Emits "'<op name>' op <args...>" at `loc` (if any) and fails: the form of
/// every verifier diagnostic of the graph and fusion dialects.
template <typename OpTy, typename... Args>
LogicalResult emitOpError(std::optional<Location> loc, Args &&...args) {
  return emitOptionalError(loc, "'", OpTy::getOperationName(), "' op ",
                           std::forward<Args>(args)...);
}

/// Re-infers the result types of `op` (any op implementing
/// InferTypeOpInterface whose results are ranked tensors, such as graph and
/// fusion ops) from its current operands and attributes, with the written
/// element types kept (graph.cast infers only its shape). Fails for other
/// ops and invalid ones.
LogicalResult inferResultTypes(Operation *op,
                               SmallVectorImpl<RankedTensorType> &types);

} // namespace mlir::graphopt::graph

#endif // GRAPHOPT_DIALECT_GRAPH_IR_GRAPHOPS_H
