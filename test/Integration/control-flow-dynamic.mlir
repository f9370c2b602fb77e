// RUN: rm -rf %t && mkdir -p %t

// graph.loop carrying values with a dynamic batch dim (the RNN of
// control-flow.mlir with tensor<6x?x5xf32> inputs and a given initial
// state), batch 3, checked against NumPy (test/lib/reference.py).
// Tolerances: rtol = atol = 1e-5.
// Compiled as dynamic-shape code first, then specialized to the input
// shapes (graph-run's default), where shape refinement makes the carried
// operands more static than the loop's results and block arguments.

// RUN: %reference loop_rnn_dynamic %t/loop_rnn_dynamic
// RUN: graph-run %s --entry=rnn_dynamic --quiet --specialize-shapes=false \
// RUN:   --input=@%t/loop_rnn_dynamic/x0.npy --input=@%t/loop_rnn_dynamic/x1.npy \
// RUN:   --input=@%t/loop_rnn_dynamic/x2.npy --input=@%t/loop_rnn_dynamic/x3.npy \
// RUN:   --expected-output=@%t/loop_rnn_dynamic/expected.npy --expected-output=@%t/loop_rnn_dynamic/expected1.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=TWO
// RUN: graph-run %s --entry=rnn_dynamic --quiet \
// RUN:   --input=@%t/loop_rnn_dynamic/x0.npy --input=@%t/loop_rnn_dynamic/x1.npy \
// RUN:   --input=@%t/loop_rnn_dynamic/x2.npy --input=@%t/loop_rnn_dynamic/x3.npy \
// RUN:   --expected-output=@%t/loop_rnn_dynamic/expected.npy --expected-output=@%t/loop_rnn_dynamic/expected1.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=TWO

// TWO: result 0: matches expected
// TWO: result 1: matches expected

func.func @rnn_dynamic(%x: tensor<6x?x5xf32>, %w: tensor<5x5xf32>, %u: tensor<5x5xf32>, %h0: tensor<?x5xf32>) -> (tensor<6x?x5xf32>, tensor<?x5xf32>) {
  %t = graph.constant dense<6> : tensor<i64>
  %true = graph.constant dense<true> : tensor<i1>
  %zero = graph.constant dense<0.0> : tensor<f32>
  %out0 = graph.mul %x, %zero : tensor<6x?x5xf32>, tensor<f32> -> tensor<6x?x5xf32>
  %r:2 = graph.loop %t, %true, %h0, %out0 : (tensor<i64>, tensor<i1>, tensor<?x5xf32>, tensor<6x?x5xf32>) -> (tensor<?x5xf32>, tensor<6x?x5xf32>) {
  ^bb0(%i: tensor<i64>, %h: tensor<?x5xf32>, %out: tensor<6x?x5xf32>):
    %xt = graph.gather %x, %i {axis = 0 : i64} : (tensor<6x?x5xf32>, tensor<i64>) -> tensor<?x5xf32>
    %a = graph.matmul %xt, %w : tensor<?x5xf32>, tensor<5x5xf32> -> tensor<?x5xf32>
    %b = graph.matmul %h, %u : tensor<?x5xf32>, tensor<5x5xf32> -> tensor<?x5xf32>
    %s = graph.add %a, %b : tensor<?x5xf32>, tensor<?x5xf32> -> tensor<?x5xf32>
    %h1 = graph.tanh %s : tensor<?x5xf32> -> tensor<?x5xf32>
    %out1 = graph.dynamic_update_slice %out, %h1, %i {axis = 0 : i64} : (tensor<6x?x5xf32>, tensor<?x5xf32>, tensor<i64>) -> tensor<6x?x5xf32>
    graph.yield %true, %h1, %out1 : tensor<i1>, tensor<?x5xf32>, tensor<6x?x5xf32>
  }
  return %r#1, %r#0 : tensor<6x?x5xf32>, tensor<?x5xf32>
}
