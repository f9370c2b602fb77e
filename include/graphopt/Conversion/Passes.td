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
    ops, and `tensor` ops for reshapes, slices and concatenation.
    Convolutions with `groups = 1` become an im2col copy and a matmul (so they
    use the tiled matmul kernel); depthwise and grouped ones linalg's
    convolution ops; pooling linalg's pooling ops. `graph.if` becomes
    `scf.if` and `graph.loop` `scf.while`. `fusion.custom_call` becomes a
    call of the kernel's C interface on buffers. Composite ops are first expanded
    with the `graph-decompose` patterns. Fails, naming the op, when an op
    cannot be lowered.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::tensor::TensorDialect",
    "::mlir::scf::SCFDialect", "::mlir::bufferization::BufferizationDialect",
    "::mlir::memref::MemRefDialect", "::mlir::func::FuncDialect"
  ];
}

#endif // GRAPHOPT_CONVERSION_PASSES_TD
