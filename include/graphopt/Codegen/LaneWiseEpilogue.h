//===- LaneWiseEpilogue.h - epilogues in registers -------------*- C++ -*-===//
//
/// \file
/// Operator fusion leaves a kernel's epilogue (bias, activation, residual
/// add) as a linalg.generic that reads the kernel's result tile. The CPU
/// kernels (the packed matmul, the direct and depthwise convolutions) apply
/// such an epilogue to each register block before its one store instead of
/// storing the raw block and reading it back in a second pass.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_CODEGEN_LANEWISEEPILOGUE_H
#define GRAPHOPT_CODEGEN_LANEWISEEPILOGUE_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir {
class RewriterBase;
} // namespace mlir

namespace mlir::graphopt {

/// An all-parallel linalg.generic of lane-wise ops that consumes a kernel's
/// result `v` in full.
struct LaneWiseEpilogue {
  linalg::GenericOp op;
  /// The generic's input operand that reads `v`.
  int64_t operand = 0;
};

/// True when `op` computes its result from its operands lane by lane, so
/// that it applies to vectors of them as it is.
bool isLaneWise(Operation &op);

/// Whether `v`'s only user is an all-parallel linalg.generic of lane-wise
/// ops over `v`'s shape that reads `v` in full (identity map) and, besides,
/// only f32 row segments along the last dim or values broadcast along it,
/// and does not read its own output; sets `e` when it is.
bool matchLaneWiseUser(Value v, LaneWiseEpilogue &e);

/// The epilogue's result for the `nr` lanes starting at `indices` (one
/// index per loop of the generic; the last is the first column), given
/// `value`, the kernel's vector there. Row segments of other inputs are
/// read in bounds unless `rowInBounds` is false (a last, masked chunk).
Value applyLaneWiseEpilogue(RewriterBase &rewriter, Location loc,
                            const LaneWiseEpilogue &e, Value value,
                            ArrayRef<Value> indices, int64_t nr,
                            bool rowInBounds = true);

} // namespace mlir::graphopt

#endif // GRAPHOPT_CODEGEN_LANEWISEEPILOGUE_H
