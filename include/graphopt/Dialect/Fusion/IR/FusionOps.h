//===- FusionOps.h - fusion dialect and ops ---------------------*- C++ -*-===//
//
/// \file
/// The `fusion` dialect: fused kernels (fusion.linear, fusion.attention) and
/// fusion groups. Specification: docs/Dialects/Fusion.md.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHOPT_DIALECT_FUSION_IR_FUSIONOPS_H
#define GRAPHOPT_DIALECT_FUSION_IR_FUSIONOPS_H

#include "graphopt/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"

#include "graphopt/Dialect/Fusion/IR/FusionDialect.h.inc"
#include "graphopt/Dialect/Fusion/IR/FusionEnums.h.inc"

#define GET_OP_CLASSES
#include "graphopt/Dialect/Fusion/IR/FusionOps.h.inc"

namespace mlir::graphopt::fusion {
/// The activation `op` applies to its operand, if it is one that
/// fusion.linear and fusion.conv2d can absorb (relu, gelu, gelu tanh, silu,
/// sigmoid, tanh); nothing for any other op.
std::optional<Activation> getAbsorbableActivation(Operation *op);
} // namespace mlir::graphopt::fusion

#endif // GRAPHOPT_DIALECT_FUSION_IR_FUSIONOPS_H
