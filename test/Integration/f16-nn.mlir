// RUN: rm -rf %t && mkdir -p %t

// Second op set in f16, fed from f16 .npy files and checked against NumPy
// computing in f32 and rounding each result to f16 once (the rule of
// docs/Dialects/Graph.md, Numerics; test/lib/reference.py).
// Tolerance rtol 1e-3 (one f16 ulp is at most 2^-10 ~ 9.8e-4 of the value:
// the two sides may round a value near a halfway point differently),
// atol 1e-5.

// conv2d (groups = 1, batch 2, no bias: see f16-batched-matmul.mlir for a
// bias; via the f32-accumulating matmul), max and
// avg pooling (avg sums in f32), global adaptive pooling, erf, hardswish
// and clamp.
// RUN: %reference f16_nn %t/f16_nn
// RUN: graph-run %s --entry=f16_nn --quiet --rtol=1e-3 --atol=1e-5 \
// RUN:   --input=@%t/f16_nn/x0.npy --input=@%t/f16_nn/x1.npy \
// RUN:   --input=@%t/f16_nn/x2.npy --expected-output=@%t/f16_nn/expected.npy \
// RUN:   --expected-output=@%t/f16_nn/expected1.npy --expected-output=@%t/f16_nn/expected2.npy \
// RUN:   --expected-output=@%t/f16_nn/expected3.npy --expected-output=@%t/f16_nn/expected4.npy \
// RUN:   --expected-output=@%t/f16_nn/expected5.npy --expected-output=@%t/f16_nn/expected6.npy \
// RUN:   | FileCheck %s --check-prefix=SEVEN


// SEVEN: result 0: matches expected
// SEVEN: result 1: matches expected
// SEVEN: result 2: matches expected
// SEVEN: result 3: matches expected
// SEVEN: result 4: matches expected
// SEVEN: result 5: matches expected
// SEVEN: result 6: matches expected

func.func @f16_nn(%x: tensor<2x3x8x8xf16>, %w: tensor<4x3x3x3xf16>, %y: tensor<1x2x7x7xf16>)
    -> (tensor<2x4x8x8xf16>, tensor<1x2x4x4xf16>, tensor<1x2x4x4xf16>, tensor<1x2x1x1xf16>, tensor<1x2x7x7xf16>, tensor<1x2x7x7xf16>, tensor<1x2x7x7xf16>) {
  %0 = graph.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<2x3x8x8xf16>, tensor<4x3x3x3xf16>) -> tensor<2x4x8x8xf16>
  %1 = graph.max_pool2d %y {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x2x7x7xf16>) -> tensor<1x2x4x4xf16>
  %2 = graph.avg_pool2d %y {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, ceil_mode} : (tensor<1x2x7x7xf16>) -> tensor<1x2x4x4xf16>
  %3 = graph.adaptive_avg_pool2d %y {output_size = array<i64: 1, 1>} : (tensor<1x2x7x7xf16>) -> tensor<1x2x1x1xf16>
  %4 = graph.erf %y : tensor<1x2x7x7xf16> -> tensor<1x2x7x7xf16>
  %5 = graph.hardswish %y : tensor<1x2x7x7xf16> -> tensor<1x2x7x7xf16>
  %6 = graph.clamp %y {min = -1.0 : f64, max = 2.0 : f64} : tensor<1x2x7x7xf16> -> tensor<1x2x7x7xf16>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2x4x8x8xf16>, tensor<1x2x4x4xf16>, tensor<1x2x4x4xf16>, tensor<1x2x1x1xf16>, tensor<1x2x7x7xf16>, tensor<1x2x7x7xf16>, tensor<1x2x7x7xf16>
}

