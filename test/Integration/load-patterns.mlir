// REQUIRES: mlir-pdll
// The seed's torch.fx rewrite end to end as a PDLL rule loaded at run time:
// SimpleModel with every ReLU replaced by graph.leaky_relu
// (examples/patterns/relu_to_leaky_relu.pdll), run and compared with NumPy's
// leaky-ReLU model.
// RUN: rm -rf %t && mkdir -p %t && %reference simple_model_leaky %t
// RUN: graph-opt %graphopt_src/examples/simple_model.mlir \
// RUN:   --load-patterns=%graphopt_src/examples/patterns/relu_to_leaky_relu.pdll -o %t/leaky.mlir
// RUN: FileCheck %s --check-prefix=IR < %t/leaky.mlir
// RUN: graph-run %t/leaky.mlir --quiet --input=@%t/x0.npy \
// RUN:   --expected-output=@%t/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s

// IR-NOT: graph.relu
// IR: graph.leaky_relu
// CHECK: result 0: matches expected
