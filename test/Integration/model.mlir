// RUN: rm -rf %t && mkdir -p %t

// A small two-layer model in the form an importer writes (x @ transpose(W) +
// b), with a gated tanh-GELU and a residual term between the layers, so the
// lowering fuses elementwise chains around the matmuls; checked against
// NumPy (test/lib/reference.py) with and without graph-level optimization.
//   h = x @ W1^T + b1;  h = gelu_tanh(h) * sigmoid(gate) + 0.5 * h
//   logits = h @ W2^T + b2;  results: softmax(logits, 1), mean(logits, 0)

// RUN: %reference mlp %t
// RUN: graph-run %s --quiet --input=@%t/x0.npy --input=@%t/x1.npy \
// RUN:   --input=@%t/x2.npy --input=@%t/x3.npy --input=@%t/x4.npy \
// RUN:   --input=@%t/x5.npy --expected-output=@%t/expected.npy \
// RUN:   --expected-output=@%t/expected1.npy --rtol=1e-5 --atol=1e-5 \
// RUN:   | FileCheck %s
// RUN: graph-run %s --quiet --optimize=0 --input=@%t/x0.npy --input=@%t/x1.npy \
// RUN:   --input=@%t/x2.npy --input=@%t/x3.npy --input=@%t/x4.npy \
// RUN:   --input=@%t/x5.npy --expected-output=@%t/expected.npy \
// RUN:   --expected-output=@%t/expected1.npy --rtol=1e-5 --atol=1e-5 \
// RUN:   | FileCheck %s

// CHECK: result 0: matches expected
// CHECK: result 1: matches expected

func.func @main(%x: tensor<16x33xf32>, %w1: tensor<65x33xf32>, %b1: tensor<65xf32>,
                %w2: tensor<10x65xf32>, %b2: tensor<10xf32>, %gate: tensor<65xf32>)
    -> (tensor<16x10xf32>, tensor<10xf32>) {
  %half = graph.constant dense<0.5> : tensor<f32>
  %w1t = graph.transpose %w1, [1, 0] : tensor<65x33xf32> -> tensor<33x65xf32>
  %h0 = graph.matmul %x, %w1t : tensor<16x33xf32>, tensor<33x65xf32> -> tensor<16x65xf32>
  %h1 = graph.add %h0, %b1 : tensor<16x65xf32>, tensor<65xf32> -> tensor<16x65xf32>
  %g = graph.gelu %h1 approximate = tanh : tensor<16x65xf32> -> tensor<16x65xf32>
  %s = graph.sigmoid %gate : tensor<65xf32> -> tensor<65xf32>
  %gs = graph.mul %g, %s : tensor<16x65xf32>, tensor<65xf32> -> tensor<16x65xf32>
  %r = graph.mul %h1, %half : tensor<16x65xf32>, tensor<f32> -> tensor<16x65xf32>
  %h2 = graph.add %gs, %r : tensor<16x65xf32>, tensor<16x65xf32> -> tensor<16x65xf32>
  %w2t = graph.transpose %w2, [1, 0] : tensor<10x65xf32> -> tensor<65x10xf32>
  %o0 = graph.matmul %h2, %w2t : tensor<16x65xf32>, tensor<65x10xf32> -> tensor<16x10xf32>
  %o1 = graph.add %o0, %b2 : tensor<16x10xf32>, tensor<10xf32> -> tensor<16x10xf32>
  %p = graph.softmax %o1 axis = 1 : tensor<16x10xf32> -> tensor<16x10xf32>
  %m = graph.reduce mean %o1 axes = [0] : tensor<16x10xf32> -> tensor<10xf32>
  return %p, %m : tensor<16x10xf32>, tensor<10xf32>
}
