//===- ConstantEval.h - evaluate graph ops on constants ---------*- C++ -*-===//
//
/// \file
/// A reference interpreter for graph ops over constant operands. It serves the
/// op folders (splat operands) and the `graph-fold-constants` pass (any dense
/// operands, bounded by a size limit). Floats are computed in double and
/// rounded once to the result type; integers wrap to their width.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_DIALECT_GRAPH_IR_CONSTANTEVAL_H
#define GRAPHOPT_DIALECT_GRAPH_IR_CONSTANTEVAL_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"

namespace mlir::graphopt::graph {

/// Evaluates `op` (a graph op with one result and a static result type) on
/// `operands`, which must all be DenseElementsAttr. Returns a null attribute
/// when the op, an operand or the element type is not supported, or when the
/// result would have more than `sizeLimit` elements (a splat result is always
/// allowed).
DenseElementsAttr evaluateConstantOp(Operation *op,
                                     ArrayRef<Attribute> operands,
                                     int64_t sizeLimit);

} // namespace mlir::graphopt::graph

#endif // GRAPHOPT_DIALECT_GRAPH_IR_CONSTANTEVAL_H
