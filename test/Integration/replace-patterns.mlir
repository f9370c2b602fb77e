// The seed's torch.fx rewrite end to end: SimpleModel with every ReLU
// replaced by a leaky ReLU (examples/patterns/relu_to_leaky_relu.mlir), run
// and compared with NumPy's leaky-ReLU model.
// RUN: rm -rf %t && mkdir -p %t && %reference simple_model_leaky %t
// RUN: graph-opt %graphopt_src/examples/simple_model.mlir \
// RUN:   --replace-patterns=%graphopt_src/examples/patterns/relu_to_leaky_relu.mlir -o %t/leaky.mlir
// RUN: graph-run %t/leaky.mlir --quiet --input=@%t/x0.npy \
// RUN:   --expected-output=@%t/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// The unrewritten model does not match the leaky reference (the check can fail).
// RUN: not graph-run %graphopt_src/examples/simple_model.mlir --quiet --input=@%t/x0.npy \
// RUN:   --expected-output=@%t/expected.npy --rtol=1e-5 --atol=1e-5

// CHECK: result 0: matches expected
