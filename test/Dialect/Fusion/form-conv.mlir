// fusion-form-conv: conv2d + batch_norm (constant statistics, folded into
// the weight and bias at compile time) + relu -> one fusion.conv2d, and the
// folded program computes what the unfused one does.
// RUN: graph-opt %s --fusion-form-conv | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: graph-run %s --seed=3 --quiet --fuse=false --output=@%t/unfused.npy
// RUN: graph-run %s --seed=3 --quiet --expected-output=@%t/unfused.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=RUNS
// The unfused program is itself checked against NumPy in
// test/Integration/nn.mlir (conv2d, batch_norm); here the fold must agree
// with it to f32 rounding (rtol = atol = 1e-5).

// CHECK-LABEL: func.func @main
// CHECK-NOT: graph.batch_norm
// CHECK: fusion.conv2d %arg0, %{{.*}}, %{{.*}} activation = relu {padding = array<i64: 1, 1, 1, 1>}
// CHECK-NOT: graph.relu
// RUNS: result 0: matches expected

// CHECK-LABEL: func.func @weights_as_arguments
// CHECK: graph.batch_norm
// CHECK: fusion.conv2d {{.*}} activation = relu
func.func @main(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %w = graph.constant dense<[[[[0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9]], [[-0.1, -0.2, -0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9]], [[0.5, 0.2, 0.3], [0.4, -0.5, 0.6], [0.7, 0.8, 0.9]]], [[[0.3, 0.2, 0.1], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9]], [[-0.1, -0.2, -0.3], [0.4, -0.5, 0.6], [0.7, 0.8, 0.9]], [[0.5, 0.2, 0.3], [0.4, -0.5, 0.6], [0.7, 0.8, -0.9]]], [[[0.1, 0.2, 0.3], [-0.4, 0.5, 0.6], [0.7, 0.8, 0.9]], [[-0.1, -0.2, -0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9]], [[0.5, 0.2, 0.3], [0.4, -0.5, 0.6], [0.7, 0.8, 0.9]]], [[[0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [0.7, -0.8, 0.9]], [[-0.1, -0.2, -0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9]], [[0.5, 0.2, 0.3], [0.4, -0.5, 0.6], [0.7, 0.8, 0.9]]]]> : tensor<4x3x3x3xf32>
  %m = graph.constant dense<[0.1, -0.2, 0.3, 0.0]> : tensor<4xf32>
  %v = graph.constant dense<[1.0, 2.0, 0.5, 0.25]> : tensor<4xf32>
  %g = graph.constant dense<[1.5, 0.5, -1.0, 2.0]> : tensor<4xf32>
  %b = graph.constant dense<[0.0, 0.1, 0.2, -0.3]> : tensor<4xf32>
  %c = graph.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %n = graph.batch_norm %c, %m, %v, %g, %b {epsilon = 1.0e-05 : f64} : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %r = graph.relu %n : tensor<1x4x8x8xf32> -> tensor<1x4x8x8xf32>
  return %r : tensor<1x4x8x8xf32>
}

// With the weight as an argument the batch norm cannot be folded; the
// relu directly after a conv is still absorbed.
func.func @weights_as_arguments(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %s: tensor<4xf32>) -> (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) {
  %c = graph.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %n = graph.batch_norm %c, %s, %s, %s, %s : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %c2 = graph.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %r = graph.relu %c2 : tensor<1x4x8x8xf32> -> tensor<1x4x8x8xf32>
  return %n, %r : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>
}
