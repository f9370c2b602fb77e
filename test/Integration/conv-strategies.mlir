// RUN: rm -rf %t && mkdir -p %t

// The convolution strategies of lib/Conversion/GraphToLinalg/NNOps.cpp
// with a static batch, checked against NumPy (test/lib/reference.py:
// float64 sums rounded once to f32). Sums of 32-576 products of O(0.1-1)
// values: f32 accumulation in a different order differs by ~1e-6 relative,
// so rtol = atol = 1e-5; a misplaced tap, column or pixel is O(0.1).
//
// Stride-1 f32 convolutions whose padded width is at most 5/4 of the
// output's are implicit GEMMs: one matmul per kernel tap on the padded
// image flattened to [C, Hp * Wp], the padded columns computed and
// discarded.

// Batch 2, padding 1, bias.
// RUN: %reference conv2d_igemm_batch_bias %t/a
// RUN: graph-run %s --entry=batch_bias --quiet \
// RUN:   --input=@%t/a/x0.npy --input=@%t/a/x1.npy --input=@%t/a/x2.npy \
// RUN:   --expected-output=@%t/a/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s

// A 5x5 kernel with asymmetric padding [top 2, left 1, bottom 2, right 3].
// RUN: %reference conv2d_igemm_5x5_asymmetric %t/b
// RUN: graph-run %s --entry=asymmetric --quiet \
// RUN:   --input=@%t/b/x0.npy --input=@%t/b/x1.npy \
// RUN:   --expected-output=@%t/b/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s

// 64 channels at 28x28: the packed matmul kernel with a column remainder
// (28 x 30 = 840 = 26 x 32 + 8 columns).
// RUN: %reference conv2d_igemm_wide %t/c
// RUN: graph-run %s --entry=wide --quiet \
// RUN:   --input=@%t/c/x0.npy --input=@%t/c/x1.npy \
// RUN:   --expected-output=@%t/c/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s

// Few output pixels (7x7 = 49, not whole 32-column blocks) and more
// channels: pixels are the matmul's rows ([49, K] x [K, F], transposed
// back), for an im2col 3x3 convolution with bias, a 1x1 convolution with a
// batch of 2, and a stride-2 convolution.
// RUN: %reference conv2d_pixel_rows %t/d
// RUN: graph-run %s --entry=pixel_rows --quiet \
// RUN:   --input=@%t/d/x0.npy --input=@%t/d/x1.npy --input=@%t/d/x2.npy \
// RUN:   --expected-output=@%t/d/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: %reference conv2d_pixel_rows_pointwise %t/e
// RUN: graph-run %s --entry=pixel_rows_pointwise --quiet \
// RUN:   --input=@%t/e/x0.npy --input=@%t/e/x1.npy \
// RUN:   --expected-output=@%t/e/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: %reference conv2d_pixel_rows_strided %t/f
// RUN: graph-run %s --entry=pixel_rows_strided --quiet \
// RUN:   --input=@%t/f/x0.npy --input=@%t/f/x1.npy \
// RUN:   --expected-output=@%t/f/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s

// CHECK: result 0: matches expected

func.func @batch_bias(%x: tensor<2x5x12x14xf32>, %w: tensor<6x5x3x3xf32>, %b: tensor<6xf32>) -> tensor<2x6x12x14xf32> {
  %r = graph.conv2d %x, %w, %b {padding = array<i64: 1, 1, 1, 1>} : (tensor<2x5x12x14xf32>, tensor<6x5x3x3xf32>, tensor<6xf32>) -> tensor<2x6x12x14xf32>
  return %r : tensor<2x6x12x14xf32>
}

func.func @asymmetric(%x: tensor<1x3x16x20xf32>, %w: tensor<4x3x5x5xf32>) -> tensor<1x4x16x20xf32> {
  %r = graph.conv2d %x, %w {padding = array<i64: 2, 1, 2, 3>} : (tensor<1x3x16x20xf32>, tensor<4x3x5x5xf32>) -> tensor<1x4x16x20xf32>
  return %r : tensor<1x4x16x20xf32>
}

func.func @wide(%x: tensor<1x64x28x28xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<1x64x28x28xf32> {
  %r = graph.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x64x28x28xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x28x28xf32>
  return %r : tensor<1x64x28x28xf32>
}

func.func @pixel_rows(%x: tensor<1x16x7x7xf32>, %w: tensor<64x16x3x3xf32>, %b: tensor<64xf32>) -> tensor<1x64x7x7xf32> {
  %r = graph.conv2d %x, %w, %b {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x16x7x7xf32>, tensor<64x16x3x3xf32>, tensor<64xf32>) -> tensor<1x64x7x7xf32>
  return %r : tensor<1x64x7x7xf32>
}

func.func @pixel_rows_pointwise(%x: tensor<2x32x7x7xf32>, %w: tensor<64x32x1x1xf32>) -> tensor<2x64x7x7xf32> {
  %r = graph.conv2d %x, %w : (tensor<2x32x7x7xf32>, tensor<64x32x1x1xf32>) -> tensor<2x64x7x7xf32>
  return %r : tensor<2x64x7x7xf32>
}

func.func @pixel_rows_strided(%x: tensor<1x8x14x14xf32>, %w: tensor<96x8x3x3xf32>) -> tensor<1x96x7x7xf32> {
  %r = graph.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x14x14xf32>, tensor<96x8x3x3xf32>) -> tensor<1x96x7x7xf32>
  return %r : tensor<1x96x7x7xf32>
}
