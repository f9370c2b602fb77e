//===- Passes.td - graphopt conversion passes ---------------*- tablegen -*-===//

#ifndef GRAPHOPT_CONVERSION_PASSES_TD
#define GRAPHOPT_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertGraphToLinalgPass : Pass<"convert-graph-to-linalg"> {
  let summary = "Lower graph ops to linalg, tensor and arith on tensors";
  let description = [{
    Lowers every `graph` op to destination-passing-style ops on tensors:
    `linalg` named ops where they exist (matmul, batch_matmul, transpose,
    broadcast, reduce, fill), `linalg.generic` for broadcasting elementwise
    ops, and `tensor` ops for reshapes, slices and concatenation. Fails, naming
    the op, when an op cannot be lowered.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::tensor::TensorDialect"
  ];
}

#endif // GRAPHOPT_CONVERSION_PASSES_TD
