// RUN: rm -rf %t && mkdir -p %t

// Convolution, pooling and normalization ops of the second op set, checked
// against NumPy (test/lib/reference.py, written from PyTorch's definitions:
// conv2d as a sum over kernel taps of shifted slices of the zero-padded
// input, pooling window by window, PyTorch's output-size and avg_pool2d
// divisor rules).
// Tolerances: rtol = atol = 1e-5 for everything here. Inputs are O(1) and
// the f32 results O(1) (sums of at most 72 products, window means, and
// normalized values with per-channel scales O(1)); f32 accumulation in any
// order stays below 1e-6, and rsqrt and the averaging divisions are exact to
// a few ulp.

// conv2d, groups = 1 (im2col + matmul): defaults; stride 2, padding 1 and a
// bias; asymmetric padding [top, left, bottom, right] with different
// strides per dim, a non-square kernel and dilation; a 1x1 convolution.
// RUN: %reference conv2d_basic %t/conv2d_basic
// RUN: graph-run %s --entry=conv2d_basic --quiet \
// RUN:   --input=@%t/conv2d_basic/x0.npy --input=@%t/conv2d_basic/x1.npy \
// RUN:   --expected-output=@%t/conv2d_basic/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=ONE
// RUN: %reference conv2d_stride_pad_bias %t/conv2d_stride_pad_bias
// RUN: graph-run %s --entry=conv2d_stride_pad_bias --quiet \
// RUN:   --input=@%t/conv2d_stride_pad_bias/x0.npy --input=@%t/conv2d_stride_pad_bias/x1.npy \
// RUN:   --input=@%t/conv2d_stride_pad_bias/x2.npy --expected-output=@%t/conv2d_stride_pad_bias/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=ONE
// RUN: %reference conv2d_asymmetric %t/conv2d_asymmetric
// RUN: graph-run %s --entry=conv2d_asymmetric --quiet \
// RUN:   --input=@%t/conv2d_asymmetric/x0.npy --input=@%t/conv2d_asymmetric/x1.npy \
// RUN:   --input=@%t/conv2d_asymmetric/x2.npy --expected-output=@%t/conv2d_asymmetric/expected.npy \
// RUN:   --expected-output=@%t/conv2d_asymmetric/expected1.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=TWO
// RUN: %reference conv2d_pointwise %t/conv2d_pointwise
// RUN: graph-run %s --entry=conv2d_pointwise --quiet \
// RUN:   --input=@%t/conv2d_pointwise/x0.npy --input=@%t/conv2d_pointwise/x1.npy \
// RUN:   --input=@%t/conv2d_pointwise/x2.npy --expected-output=@%t/conv2d_pointwise/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=ONE

// Grouped (groups = 2 of 3 input channels each) and depthwise (groups = C =
// F, and groups = C with two filters per channel, dilated and strided).
// RUN: %reference conv2d_grouped %t/conv2d_grouped
// RUN: graph-run %s --entry=conv2d_grouped --quiet \
// RUN:   --input=@%t/conv2d_grouped/x0.npy --input=@%t/conv2d_grouped/x1.npy \
// RUN:   --input=@%t/conv2d_grouped/x2.npy --expected-output=@%t/conv2d_grouped/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=ONE
// RUN: %reference conv2d_depthwise %t/conv2d_depthwise
// RUN: graph-run %s --entry=conv2d_depthwise --quiet \
// RUN:   --input=@%t/conv2d_depthwise/x0.npy --input=@%t/conv2d_depthwise/x1.npy \
// RUN:   --input=@%t/conv2d_depthwise/x2.npy --input=@%t/conv2d_depthwise/x3.npy \
// RUN:   --expected-output=@%t/conv2d_depthwise/expected.npy --expected-output=@%t/conv2d_depthwise/expected1.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=TWO

// A dynamic batch dim (tensor<?x3x8x8xf32>): a padded conv with bias then a
// 2x2 max pool, for batch 1 and 3, specialized to the input shapes (the
// default) and compiled as dynamic-shape code.
// A stride-2 convolution whose windows never reach the last padded row nor
// the last column (one output column), then a ReLU, static and dynamic
// batch (--specialize-shapes=false keeps the batch dynamic).
// RUN: %reference conv2d_unreached_edge %t/conv2d_unreached_edge
// RUN: graph-run %s --entry=conv2d_unreached_edge --quiet \
// RUN:   --input=@%t/conv2d_unreached_edge/x0.npy --input=@%t/conv2d_unreached_edge/x1.npy \
// RUN:   --input=@%t/conv2d_unreached_edge/x2.npy --expected-output=@%t/conv2d_unreached_edge/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=ONE
// RUN: graph-run %s --entry=conv2d_unreached_edge_dynamic --quiet --specialize-shapes=false \
// RUN:   --input=@%t/conv2d_unreached_edge/x0.npy --input=@%t/conv2d_unreached_edge/x1.npy \
// RUN:   --input=@%t/conv2d_unreached_edge/x2.npy --expected-output=@%t/conv2d_unreached_edge/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=ONE
// RUN: %reference conv2d_dynamic_b1 %t/conv2d_dynamic_b1
// RUN: graph-run %s --entry=conv2d_dynamic --quiet \
// RUN:   --input=@%t/conv2d_dynamic_b1/x0.npy --input=@%t/conv2d_dynamic_b1/x1.npy \
// RUN:   --input=@%t/conv2d_dynamic_b1/x2.npy --expected-output=@%t/conv2d_dynamic_b1/expected.npy \
// RUN:   --expected-output=@%t/conv2d_dynamic_b1/expected1.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=TWO
// RUN: graph-run %s --entry=conv2d_dynamic --quiet --specialize-shapes=false \
// RUN:   --input=@%t/conv2d_dynamic_b1/x0.npy --input=@%t/conv2d_dynamic_b1/x1.npy \
// RUN:   --input=@%t/conv2d_dynamic_b1/x2.npy --expected-output=@%t/conv2d_dynamic_b1/expected.npy \
// RUN:   --expected-output=@%t/conv2d_dynamic_b1/expected1.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=TWO
// RUN: %reference conv2d_dynamic_b3 %t/conv2d_dynamic_b3
// RUN: graph-run %s --entry=conv2d_dynamic --quiet \
// RUN:   --input=@%t/conv2d_dynamic_b3/x0.npy --input=@%t/conv2d_dynamic_b3/x1.npy \
// RUN:   --input=@%t/conv2d_dynamic_b3/x2.npy --expected-output=@%t/conv2d_dynamic_b3/expected.npy \
// RUN:   --expected-output=@%t/conv2d_dynamic_b3/expected1.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=TWO
// RUN: graph-run %s --entry=conv2d_dynamic --quiet --specialize-shapes=false \
// RUN:   --input=@%t/conv2d_dynamic_b3/x0.npy --input=@%t/conv2d_dynamic_b3/x1.npy \
// RUN:   --input=@%t/conv2d_dynamic_b3/x2.npy --expected-output=@%t/conv2d_dynamic_b3/expected.npy \
// RUN:   --expected-output=@%t/conv2d_dynamic_b3/expected1.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=TWO

// max_pool2d on 7x7: kernel 2 (strides default to the kernel); kernel 3,
// stride 2, padding 1; ceil_mode (4 windows, the last one 1 wide); ceil_mode
// with padding; a non-square kernel with dilation and asymmetric padding;
// ceil_mode where PyTorch's rule drops the window starting in the bottom
// padding (3 rows, not 4). Then all-negative inputs (the padding is -inf,
// not 0) and i32 (padded with INT_MIN; an INT_MIN input element).
// RUN: %reference max_pool2d_cases %t/max_pool2d_cases
// RUN: graph-run %s --entry=max_pool2d_cases --quiet \
// RUN:   --input=@%t/max_pool2d_cases/x0.npy --expected-output=@%t/max_pool2d_cases/expected.npy \
// RUN:   --expected-output=@%t/max_pool2d_cases/expected1.npy --expected-output=@%t/max_pool2d_cases/expected2.npy \
// RUN:   --expected-output=@%t/max_pool2d_cases/expected3.npy --expected-output=@%t/max_pool2d_cases/expected4.npy \
// RUN:   --expected-output=@%t/max_pool2d_cases/expected5.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=SIX
// Rows of 961 and 480 output columns (wider than the unrolled window
// kernel takes: it made a 65 s compile of the first): an average pool over
// row pairs, a 2 x 3 max pool at column stride 2.
// RUN: %reference pool2d_wide %t/pool2d_wide
// RUN: graph-run %s --entry=pool2d_wide --quiet \
// RUN:   --input=@%t/pool2d_wide/x0.npy --expected-output=@%t/pool2d_wide/expected.npy \
// RUN:   --expected-output=@%t/pool2d_wide/expected1.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=TWO
// RUN: %reference max_pool2d_negative %t/max_pool2d_negative
// RUN: graph-run %s --entry=max_pool2d_negative --quiet \
// RUN:   --input=@%t/max_pool2d_negative/x0.npy --expected-output=@%t/max_pool2d_negative/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=ONE
// RUN: %reference max_pool2d_i32 %t/max_pool2d_i32
// RUN: graph-run %s --entry=max_pool2d_i32 --quiet \
// RUN:   --input=@%t/max_pool2d_i32/x0.npy --expected-output=@%t/max_pool2d_i32/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=ONE

// avg_pool2d on 7x7: kernel 2; kernel 3, stride 2, padding 1 without and
// with count_include_pad (PyTorch's divisor rule, documented in
// reference.py: with count_include_pad the window is counted up to the end
// of the padded input; without, only input elements count); ceil_mode
// without and with count_include_pad (the last window, past the padded
// input, counts 1 element either way); ceil_mode with padding and
// count_include_pad; a non-square kernel with asymmetric padding.
// RUN: %reference avg_pool2d_cases %t/avg_pool2d_cases
// RUN: graph-run %s --entry=avg_pool2d_cases --quiet \
// RUN:   --input=@%t/avg_pool2d_cases/x0.npy --expected-output=@%t/avg_pool2d_cases/expected.npy \
// RUN:   --expected-output=@%t/avg_pool2d_cases/expected1.npy --expected-output=@%t/avg_pool2d_cases/expected2.npy \
// RUN:   --expected-output=@%t/avg_pool2d_cases/expected3.npy --expected-output=@%t/avg_pool2d_cases/expected4.npy \
// RUN:   --expected-output=@%t/avg_pool2d_cases/expected5.npy --expected-output=@%t/avg_pool2d_cases/expected6.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=SEVEN

// adaptive_avg_pool2d from 6x9 to 1x1 (global, a mean), 3x3 (dividing: an
// avg_pool2d), 4x5 and 7x2 (overlapping windows: constant averaging
// matrices; 7 > 6 rows). Global pooling with dynamic H and W, compiled as
// dynamic-shape code too.
// RUN: %reference adaptive_avg_pool2d_cases %t/adaptive_avg_pool2d_cases
// RUN: graph-run %s --entry=adaptive_avg_pool2d --quiet \
// RUN:   --input=@%t/adaptive_avg_pool2d_cases/x0.npy --expected-output=@%t/adaptive_avg_pool2d_cases/expected.npy \
// RUN:   --expected-output=@%t/adaptive_avg_pool2d_cases/expected1.npy --expected-output=@%t/adaptive_avg_pool2d_cases/expected2.npy \
// RUN:   --expected-output=@%t/adaptive_avg_pool2d_cases/expected3.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=FOUR
// RUN: %reference adaptive_avg_pool2d_global_dynamic %t/adaptive_avg_pool2d_global_dynamic
// RUN: graph-run %s --entry=adaptive_global_dynamic --quiet \
// RUN:   --input=@%t/adaptive_avg_pool2d_global_dynamic/x0.npy --expected-output=@%t/adaptive_avg_pool2d_global_dynamic/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=ONE
// RUN: graph-run %s --entry=adaptive_global_dynamic --quiet --specialize-shapes=false \
// RUN:   --input=@%t/adaptive_avg_pool2d_global_dynamic/x0.npy --expected-output=@%t/adaptive_avg_pool2d_global_dynamic/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=ONE

// batch_norm (inference) on NCHW and on [N, C] with another epsilon;
// layer_norm over one trailing dim and over two.
// RUN: %reference batch_norm %t/batch_norm
// RUN: graph-run %s --entry=batch_norm --quiet \
// RUN:   --input=@%t/batch_norm/x0.npy --input=@%t/batch_norm/x1.npy \
// RUN:   --input=@%t/batch_norm/x2.npy --input=@%t/batch_norm/x3.npy \
// RUN:   --input=@%t/batch_norm/x4.npy --input=@%t/batch_norm/x5.npy \
// RUN:   --expected-output=@%t/batch_norm/expected.npy --expected-output=@%t/batch_norm/expected1.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=TWO
// RUN: %reference layer_norm %t/layer_norm
// RUN: graph-run %s --entry=layer_norm --quiet \
// RUN:   --input=@%t/layer_norm/x0.npy --input=@%t/layer_norm/x1.npy \
// RUN:   --input=@%t/layer_norm/x2.npy --input=@%t/layer_norm/x3.npy \
// RUN:   --input=@%t/layer_norm/x4.npy --input=@%t/layer_norm/x5.npy \
// RUN:   --expected-output=@%t/layer_norm/expected.npy --expected-output=@%t/layer_norm/expected1.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=TWO

// ONE: result 0: matches expected

// TWO: result 0: matches expected
// TWO: result 1: matches expected

// FOUR: result 0: matches expected
// FOUR: result 1: matches expected
// FOUR: result 2: matches expected
// FOUR: result 3: matches expected

// SIX: result 0: matches expected
// SIX: result 1: matches expected
// SIX: result 2: matches expected
// SIX: result 3: matches expected
// SIX: result 4: matches expected
// SIX: result 5: matches expected

// SEVEN: result 0: matches expected
// SEVEN: result 1: matches expected
// SEVEN: result 2: matches expected
// SEVEN: result 3: matches expected
// SEVEN: result 4: matches expected
// SEVEN: result 5: matches expected
// SEVEN: result 6: matches expected

func.func @conv2d_basic(%x: tensor<2x3x7x9xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x4x5x7xf32> {
  %r = graph.conv2d %x, %w : (tensor<2x3x7x9xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x5x7xf32>
  return %r : tensor<2x4x5x7xf32>
}

func.func @conv2d_stride_pad_bias(%x: tensor<1x3x9x8xf32>, %w: tensor<5x3x3x3xf32>, %b: tensor<5xf32>) -> tensor<1x5x5x4xf32> {
  %r = graph.conv2d %x, %w, %b {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
      : (tensor<1x3x9x8xf32>, tensor<5x3x3x3xf32>, tensor<5xf32>) -> tensor<1x5x5x4xf32>
  return %r : tensor<1x5x5x4xf32>
}

func.func @conv2d_asymmetric(%x: tensor<2x2x8x10xf32>, %w: tensor<3x2x2x3xf32>, %b: tensor<3xf32>) -> (tensor<2x3x8x7xf32>, tensor<2x3x5x5xf32>) {
  %a = graph.conv2d %x, %w, %b {strides = array<i64: 1, 2>, padding = array<i64: 0, 2, 1, 3>}
      : (tensor<2x2x8x10xf32>, tensor<3x2x2x3xf32>, tensor<3xf32>) -> tensor<2x3x8x7xf32>
  %c = graph.conv2d %x, %w, %b {strides = array<i64: 2, 1>, padding = array<i64: 1, 0, 2, 1>, dilations = array<i64: 2, 3>}
      : (tensor<2x2x8x10xf32>, tensor<3x2x2x3xf32>, tensor<3xf32>) -> tensor<2x3x5x5xf32>
  return %a, %c : tensor<2x3x8x7xf32>, tensor<2x3x5x5xf32>
}

func.func @conv2d_pointwise(%x: tensor<2x8x5x5xf32>, %w: tensor<3x8x1x1xf32>, %b: tensor<3xf32>) -> tensor<2x3x5x5xf32> {
  %r = graph.conv2d %x, %w, %b : (tensor<2x8x5x5xf32>, tensor<3x8x1x1xf32>, tensor<3xf32>) -> tensor<2x3x5x5xf32>
  return %r : tensor<2x3x5x5xf32>
}

func.func @conv2d_grouped(%x: tensor<2x6x7x7xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<2x4x4x4xf32> {
  %r = graph.conv2d %x, %w, %b {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, groups = 2 : i64}
      : (tensor<2x6x7x7xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<2x4x4x4xf32>
  return %r : tensor<2x4x4x4xf32>
}

func.func @conv2d_depthwise(%x: tensor<2x4x8x8xf32>, %w: tensor<4x1x3x3xf32>, %b: tensor<4xf32>, %w2: tensor<8x1x3x3xf32>) -> (tensor<2x4x8x8xf32>, tensor<2x8x2x2xf32>) {
  %a = graph.conv2d %x, %w, %b {padding = array<i64: 1, 1, 1, 1>, groups = 4 : i64}
      : (tensor<2x4x8x8xf32>, tensor<4x1x3x3xf32>, tensor<4xf32>) -> tensor<2x4x8x8xf32>
  %c = graph.conv2d %x, %w2 {strides = array<i64: 2, 2>, dilations = array<i64: 2, 2>, groups = 4 : i64}
      : (tensor<2x4x8x8xf32>, tensor<8x1x3x3xf32>) -> tensor<2x8x2x2xf32>
  return %a, %c : tensor<2x4x8x8xf32>, tensor<2x8x2x2xf32>
}

func.func @conv2d_unreached_edge(%x: tensor<1x1x30x6xf32>, %w: tensor<1x1x5x5xf32>, %b: tensor<1xf32>) -> tensor<1x1x16x1xf32> {
  %y = graph.conv2d %x, %w, %b {strides = array<i64: 2, 2>, padding = array<i64: 3, 0, 3, 0>}
      : (tensor<1x1x30x6xf32>, tensor<1x1x5x5xf32>, tensor<1xf32>) -> tensor<1x1x16x1xf32>
  %r = graph.relu %y : tensor<1x1x16x1xf32> -> tensor<1x1x16x1xf32>
  return %r : tensor<1x1x16x1xf32>
}

func.func @conv2d_unreached_edge_dynamic(%x: tensor<?x1x30x6xf32>, %w: tensor<1x1x5x5xf32>, %b: tensor<1xf32>) -> tensor<?x1x16x1xf32> {
  %y = graph.conv2d %x, %w, %b {strides = array<i64: 2, 2>, padding = array<i64: 3, 0, 3, 0>}
      : (tensor<?x1x30x6xf32>, tensor<1x1x5x5xf32>, tensor<1xf32>) -> tensor<?x1x16x1xf32>
  %r = graph.relu %y : tensor<?x1x16x1xf32> -> tensor<?x1x16x1xf32>
  return %r : tensor<?x1x16x1xf32>
}

func.func @conv2d_dynamic(%x: tensor<?x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> (tensor<?x4x8x8xf32>, tensor<?x4x4x4xf32>) {
  %y = graph.conv2d %x, %w, %b {padding = array<i64: 1, 1, 1, 1>}
      : (tensor<?x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<?x4x8x8xf32>
  %p = graph.max_pool2d %y {kernel = array<i64: 2, 2>} : (tensor<?x4x8x8xf32>) -> tensor<?x4x4x4xf32>
  return %y, %p : tensor<?x4x8x8xf32>, tensor<?x4x4x4xf32>
}

func.func @max_pool2d_cases(%x: tensor<2x3x7x7xf32>) -> (tensor<2x3x3x3xf32>, tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>, tensor<2x3x3x3xf32>) {
  %0 = graph.max_pool2d %x {kernel = array<i64: 2, 2>} : (tensor<2x3x7x7xf32>) -> tensor<2x3x3x3xf32>
  %1 = graph.max_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<2x3x7x7xf32>) -> tensor<2x3x4x4xf32>
  %2 = graph.max_pool2d %x {kernel = array<i64: 2, 2>, ceil_mode} : (tensor<2x3x7x7xf32>) -> tensor<2x3x4x4xf32>
  %3 = graph.max_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, ceil_mode} : (tensor<2x3x7x7xf32>) -> tensor<2x3x4x4xf32>
  %4 = graph.max_pool2d %x {kernel = array<i64: 3, 2>, strides = array<i64: 1, 2>, padding = array<i64: 1, 0, 0, 1>, dilations = array<i64: 2, 1>} : (tensor<2x3x7x7xf32>) -> tensor<2x3x4x4xf32>
  %5 = graph.max_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 3, 3>, padding = array<i64: 1, 0, 1, 0>, ceil_mode} : (tensor<2x3x7x7xf32>) -> tensor<2x3x3x3xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<2x3x3x3xf32>, tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>, tensor<2x3x3x3xf32>
}

func.func @pool2d_wide(%x: tensor<1x3x32x961xf32>) -> (tensor<1x3x31x961xf32>, tensor<1x3x31x480xf32>) {
  %a = graph.avg_pool2d %x {kernel = array<i64: 2, 1>, strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, count_include_pad} : (tensor<1x3x32x961xf32>) -> tensor<1x3x31x961xf32>
  %m = graph.max_pool2d %x {kernel = array<i64: 2, 3>, strides = array<i64: 1, 2>, padding = array<i64: 0, 0, 0, 0>} : (tensor<1x3x32x961xf32>) -> tensor<1x3x31x480xf32>
  return %a, %m : tensor<1x3x31x961xf32>, tensor<1x3x31x480xf32>
}

func.func @max_pool2d_negative(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32> {
  %r = graph.max_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
  return %r : tensor<1x2x3x3xf32>
}

func.func @max_pool2d_i32(%x: tensor<1x2x5x5xi32>) -> tensor<1x2x3x3xi32> {
  %r = graph.max_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x2x5x5xi32>) -> tensor<1x2x3x3xi32>
  return %r : tensor<1x2x3x3xi32>
}

func.func @avg_pool2d_cases(%x: tensor<2x3x7x7xf32>) -> (tensor<2x3x3x3xf32>, tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>, tensor<2x3x3x7xf32>) {
  %0 = graph.avg_pool2d %x {kernel = array<i64: 2, 2>} : (tensor<2x3x7x7xf32>) -> tensor<2x3x3x3xf32>
  %1 = graph.avg_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<2x3x7x7xf32>) -> tensor<2x3x4x4xf32>
  %2 = graph.avg_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, count_include_pad} : (tensor<2x3x7x7xf32>) -> tensor<2x3x4x4xf32>
  %3 = graph.avg_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, ceil_mode} : (tensor<2x3x7x7xf32>) -> tensor<2x3x4x4xf32>
  %4 = graph.avg_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, ceil_mode, count_include_pad} : (tensor<2x3x7x7xf32>) -> tensor<2x3x4x4xf32>
  %5 = graph.avg_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, ceil_mode, count_include_pad} : (tensor<2x3x7x7xf32>) -> tensor<2x3x4x4xf32>
  %6 = graph.avg_pool2d %x {kernel = array<i64: 3, 2>, strides = array<i64: 2, 1>, padding = array<i64: 1, 0, 0, 1>} : (tensor<2x3x7x7xf32>) -> tensor<2x3x3x7xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2x3x3x3xf32>, tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>, tensor<2x3x3x7xf32>
}

func.func @adaptive_avg_pool2d(%x: tensor<2x3x6x9xf32>) -> (tensor<2x3x1x1xf32>, tensor<2x3x3x3xf32>, tensor<2x3x4x5xf32>, tensor<2x3x7x2xf32>) {
  %0 = graph.adaptive_avg_pool2d %x {output_size = array<i64: 1, 1>} : (tensor<2x3x6x9xf32>) -> tensor<2x3x1x1xf32>
  %1 = graph.adaptive_avg_pool2d %x {output_size = array<i64: 3, 3>} : (tensor<2x3x6x9xf32>) -> tensor<2x3x3x3xf32>
  %2 = graph.adaptive_avg_pool2d %x {output_size = array<i64: 4, 5>} : (tensor<2x3x6x9xf32>) -> tensor<2x3x4x5xf32>
  %3 = graph.adaptive_avg_pool2d %x {output_size = array<i64: 7, 2>} : (tensor<2x3x6x9xf32>) -> tensor<2x3x7x2xf32>
  return %0, %1, %2, %3 : tensor<2x3x1x1xf32>, tensor<2x3x3x3xf32>, tensor<2x3x4x5xf32>, tensor<2x3x7x2xf32>
}

func.func @adaptive_global_dynamic(%x: tensor<?x4x?x?xf32>) -> tensor<?x4x1x1xf32> {
  %r = graph.adaptive_avg_pool2d %x {output_size = array<i64: 1, 1>} : (tensor<?x4x?x?xf32>) -> tensor<?x4x1x1xf32>
  return %r : tensor<?x4x1x1xf32>
}

func.func @batch_norm(%x: tensor<2x4x5x3xf32>, %m: tensor<4xf32>, %v: tensor<4xf32>, %w: tensor<4xf32>, %b: tensor<4xf32>, %y: tensor<3x4xf32>) -> (tensor<2x4x5x3xf32>, tensor<3x4xf32>) {
  %0 = graph.batch_norm %x, %m, %v, %w, %b : (tensor<2x4x5x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x5x3xf32>
  %1 = graph.batch_norm %y, %m, %v, %w, %b {epsilon = 0.1 : f64} : (tensor<3x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  return %0, %1 : tensor<2x4x5x3xf32>, tensor<3x4xf32>
}

func.func @layer_norm(%x: tensor<2x3x16xf32>, %w: tensor<16xf32>, %b: tensor<16xf32>, %y: tensor<4x3x5xf32>, %w2: tensor<3x5xf32>, %b2: tensor<3x5xf32>) -> (tensor<2x3x16xf32>, tensor<4x3x5xf32>) {
  %0 = graph.layer_norm %x, %w, %b : (tensor<2x3x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<2x3x16xf32>
  %1 = graph.layer_norm %y, %w2, %b2 {epsilon = 1.0e-03 : f64} : (tensor<4x3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<4x3x5xf32>
  return %0, %1 : tensor<2x3x16xf32>, tensor<4x3x5xf32>
}
