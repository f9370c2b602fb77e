// RUN: graph-opt %s -split-input-file -verify-diagnostics

// Invalid IR for the second op set: one case per numbered constraint
// (`// Cn:` in lib/Dialect/Graph/IR/GraphOps.cpp, docs/Dialects/Graph.md),
// named <op>_c<n>[_<what>], plus the region verifiers of graph.if and
// graph.loop and a few ODS type constraints. As in invalid.mlir, every failed
// inference is followed by the generic "failed to infer returned types".

//===----------------------------------------------------------------------===//
// graph.conv2d
//===----------------------------------------------------------------------===//

func.func @conv2d_c1_input_rank(%x: tensor<3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{'graph.conv2d' op input must be rank 4 (NCHW), got rank 3}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w : (tensor<3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv2d_c1_weight_rank(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error @+2 {{'graph.conv2d' op weight must be rank 4 (FCHW), got rank 3}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv2d_c1_element_type(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf16>) {
  // expected-error @+2 {{'graph.conv2d' op element types differ: input is f32, weight is f16}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf16>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv2d_c2_strides(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{'graph.conv2d' op strides has 1 entries, expected 2}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x3x3xf32>
  return
}

// -----

func.func @conv2d_c2_strides_zero(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{'graph.conv2d' op strides entry 1 is 0, must be >= 1}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 1, 0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv2d_c2_dilations(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{'graph.conv2d' op dilations entry 0 is 0, must be >= 1}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w {dilations = array<i64: 0, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// padding is [top, left, bottom, right]; torch's two-entry form is not
// accepted.
func.func @conv2d_c2_padding_size(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{'graph.conv2d' op padding has 2 entries, expected 4}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @conv2d_c2_padding_negative(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{'graph.conv2d' op padding entry 3 is -1, must be >= 0}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w {padding = array<i64: 0, 0, 0, -1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x5xf32>
  return
}

// -----

func.func @conv2d_c2_groups(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{'graph.conv2d' op groups is 0, must be >= 1}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w {groups = 0 : i64} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv2d_c3_channels(%x: tensor<1x3x8x8xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+2 {{'graph.conv2d' op input has 3 channels (dim 1), but weight dim 1 is 2 with groups = 1 (expected 3)}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// With groups, weight dim 1 is C / groups.
func.func @conv2d_c3_channels_grouped(%x: tensor<1x8x8x8xf32>, %w: tensor<8x4x3x3xf32>) {
  // expected-error @+2 {{'graph.conv2d' op input has 8 channels (dim 1), but weight dim 1 is 4 with groups = 4 (expected 2)}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w {groups = 4 : i64} : (tensor<1x8x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32>
  return
}

// -----

func.func @conv2d_c3_groups_divide_f(%x: tensor<1x8x8x8xf32>, %w: tensor<6x2x3x3xf32>) {
  // expected-error @+2 {{'graph.conv2d' op weight dim 0 (6 output channels) is not a multiple of groups = 4}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w {groups = 4 : i64} : (tensor<1x8x8x8xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

func.func @conv2d_c4_bias_shape(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{'graph.conv2d' op bias must be [4] (weight dim 0), got [3]}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w, %b : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv2d_c4_bias_rank(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<1x4xf32>) {
  // expected-error @+2 {{'graph.conv2d' op bias must be [4] (weight dim 0), got [1x4]}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w, %b : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<1x4xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv2d_c4_bias_element_type(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf16>) {
  // expected-error @+2 {{'graph.conv2d' op element types differ: input is f32, bias is f16}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w, %b : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf16>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// A dilated 5-wide kernel spans 9 > 8 columns.
func.func @conv2d_c5(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x5x5xf32>) {
  // expected-error @+2 {{'graph.conv2d' op kernel dim 3 (5, dilation 2) does not fit in input dim 3 (8 plus padding 0 + 0)}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w {dilations = array<i64: 1, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x5x5xf32>) -> tensor<1x4x4x1xf32>
  return
}

// -----

// The output size rounds down: (8 - 3) / 2 + 1 = 3.
func.func @conv2d_result(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{'graph.conv2d' op inferred type(s) 'tensor<1x4x3x3xf32>' are incompatible with return type(s) of operation 'tensor<1x4x4x4xf32>'}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// graph.max_pool2d
//===----------------------------------------------------------------------===//

func.func @max_pool2d_c1(%x: tensor<3x8x8xf32>) {
  // expected-error @+2 {{'graph.max_pool2d' op input must be rank 4 (NCHW), got rank 3}}
  // expected-error @+1 {{'graph.max_pool2d' op failed to infer returned types}}
  %0 = graph.max_pool2d %x {kernel = array<i64: 2, 2>} : (tensor<3x8x8xf32>) -> tensor<3x4x4xf32>
  return
}

// -----

func.func @max_pool2d_c2_kernel(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{'graph.max_pool2d' op kernel has 1 entries, expected 2}}
  // expected-error @+1 {{'graph.max_pool2d' op failed to infer returned types}}
  %0 = graph.max_pool2d %x {kernel = array<i64: 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @max_pool2d_c2_kernel_zero(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{'graph.max_pool2d' op kernel entry 0 is 0, must be >= 1}}
  // expected-error @+1 {{'graph.max_pool2d' op failed to infer returned types}}
  %0 = graph.max_pool2d %x {kernel = array<i64: 0, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @max_pool2d_c2_strides(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{'graph.max_pool2d' op strides entry 1 is -1, must be >= 1}}
  // expected-error @+1 {{'graph.max_pool2d' op failed to infer returned types}}
  %0 = graph.max_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 1, -1>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  return
}

// -----

func.func @max_pool2d_c2_padding(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{'graph.max_pool2d' op padding has 2 entries, expected 4}}
  // expected-error @+1 {{'graph.max_pool2d' op failed to infer returned types}}
  %0 = graph.max_pool2d %x {kernel = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x2x2xf32>
  return
}

// -----

func.func @max_pool2d_c2_dilations(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{'graph.max_pool2d' op dilations has 3 entries, expected 2}}
  // expected-error @+1 {{'graph.max_pool2d' op failed to infer returned types}}
  %0 = graph.max_pool2d %x {kernel = array<i64: 2, 2>, dilations = array<i64: 1, 1, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

// PyTorch's rule: each pad is at most half the window; here the check is pad <
// window (a window entirely in the padding has no input element).
func.func @max_pool2d_c3_padding(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{'graph.max_pool2d' op padding of dim 3 must be smaller than the window (3)}}
  // expected-error @+1 {{'graph.max_pool2d' op failed to infer returned types}}
  %0 = graph.max_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 3>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x6x9xf32>
  return
}

// -----

func.func @max_pool2d_c3_fit(%x: tensor<1x3x2x8xf32>) {
  // expected-error @+2 {{'graph.max_pool2d' op window of 3 does not fit in dim 2 of size 2 with padding 0 + 0}}
  // expected-error @+1 {{'graph.max_pool2d' op failed to infer returned types}}
  %0 = graph.max_pool2d %x {kernel = array<i64: 3, 3>} : (tensor<1x3x2x8xf32>) -> tensor<1x3x0x2xf32>
  return
}

// -----

// Without ceil_mode the output size rounds down.
func.func @max_pool2d_result_ceil_mode(%x: tensor<1x3x5x5xf32>) {
  // expected-error @+2 {{'graph.max_pool2d' op inferred type(s) 'tensor<1x3x2x2xf32>' are incompatible with return type(s) of operation 'tensor<1x3x3x3xf32>'}}
  // expected-error @+1 {{'graph.max_pool2d' op failed to infer returned types}}
  %0 = graph.max_pool2d %x {kernel = array<i64: 2, 2>} : (tensor<1x3x5x5xf32>) -> tensor<1x3x3x3xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// graph.avg_pool2d
//===----------------------------------------------------------------------===//

func.func @avg_pool2d_c1(%x: tensor<3x8x8xf32>) {
  // expected-error @+2 {{'graph.avg_pool2d' op input must be rank 4 (NCHW), got rank 3}}
  // expected-error @+1 {{'graph.avg_pool2d' op failed to infer returned types}}
  %0 = graph.avg_pool2d %x {kernel = array<i64: 2, 2>} : (tensor<3x8x8xf32>) -> tensor<3x4x4xf32>
  return
}

// -----

func.func @avg_pool2d_c2_kernel(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{'graph.avg_pool2d' op kernel has 1 entries, expected 2}}
  // expected-error @+1 {{'graph.avg_pool2d' op failed to infer returned types}}
  %0 = graph.avg_pool2d %x {kernel = array<i64: 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @avg_pool2d_c2_kernel_zero(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{'graph.avg_pool2d' op kernel entry 0 is 0, must be >= 1}}
  // expected-error @+1 {{'graph.avg_pool2d' op failed to infer returned types}}
  %0 = graph.avg_pool2d %x {kernel = array<i64: 0, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @avg_pool2d_c2_strides(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{'graph.avg_pool2d' op strides entry 1 is -1, must be >= 1}}
  // expected-error @+1 {{'graph.avg_pool2d' op failed to infer returned types}}
  %0 = graph.avg_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 1, -1>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  return
}

// -----

func.func @avg_pool2d_c2_padding(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{'graph.avg_pool2d' op padding has 2 entries, expected 4}}
  // expected-error @+1 {{'graph.avg_pool2d' op failed to infer returned types}}
  %0 = graph.avg_pool2d %x {kernel = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x2x2xf32>
  return
}

// -----

// PyTorch's rule: each pad is at most half the window; here the check is pad <
// window (a window entirely in the padding has no input element).
func.func @avg_pool2d_c3_padding(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{'graph.avg_pool2d' op padding of dim 3 must be smaller than the window (3)}}
  // expected-error @+1 {{'graph.avg_pool2d' op failed to infer returned types}}
  %0 = graph.avg_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 3>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x6x9xf32>
  return
}

// -----

func.func @avg_pool2d_c3_fit(%x: tensor<1x3x2x8xf32>) {
  // expected-error @+2 {{'graph.avg_pool2d' op window of 3 does not fit in dim 2 of size 2 with padding 0 + 0}}
  // expected-error @+1 {{'graph.avg_pool2d' op failed to infer returned types}}
  %0 = graph.avg_pool2d %x {kernel = array<i64: 3, 3>} : (tensor<1x3x2x8xf32>) -> tensor<1x3x0x2xf32>
  return
}

// -----

// Without ceil_mode the output size rounds down.
func.func @avg_pool2d_result_ceil_mode(%x: tensor<1x3x5x5xf32>) {
  // expected-error @+2 {{'graph.avg_pool2d' op inferred type(s) 'tensor<1x3x2x2xf32>' are incompatible with return type(s) of operation 'tensor<1x3x3x3xf32>'}}
  // expected-error @+1 {{'graph.avg_pool2d' op failed to infer returned types}}
  %0 = graph.avg_pool2d %x {kernel = array<i64: 2, 2>} : (tensor<1x3x5x5xf32>) -> tensor<1x3x3x3xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// graph.adaptive_avg_pool2d
//===----------------------------------------------------------------------===//

func.func @adaptive_avg_pool2d_c1(%x: tensor<3x8x8xf32>) {
  // expected-error @+2 {{'graph.adaptive_avg_pool2d' op input must be rank 4 (NCHW), got rank 3}}
  // expected-error @+1 {{'graph.adaptive_avg_pool2d' op failed to infer returned types}}
  %0 = graph.adaptive_avg_pool2d %x {output_size = array<i64: 1, 1>} : (tensor<3x8x8xf32>) -> tensor<3x1x1xf32>
  return
}

// -----

func.func @adaptive_avg_pool2d_c2_size(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{'graph.adaptive_avg_pool2d' op output_size has 1 entries, expected 2}}
  // expected-error @+1 {{'graph.adaptive_avg_pool2d' op failed to infer returned types}}
  %0 = graph.adaptive_avg_pool2d %x {output_size = array<i64: 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x1x1xf32>
  return
}

// -----

func.func @adaptive_avg_pool2d_c2_zero(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{'graph.adaptive_avg_pool2d' op output_size entry 1 is 0, must be >= 1}}
  // expected-error @+1 {{'graph.adaptive_avg_pool2d' op failed to infer returned types}}
  %0 = graph.adaptive_avg_pool2d %x {output_size = array<i64: 2, 0>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x2x0xf32>
  return
}

// -----

// Only global pooling ([1, 1]) accepts dynamic H and W.
func.func @adaptive_avg_pool2d_c3(%x: tensor<?x3x?x8xf32>) {
  // expected-error @+2 {{'graph.adaptive_avg_pool2d' op needs static H and W for output size [2, 2], got [?x3x?x8]}}
  // expected-error @+1 {{'graph.adaptive_avg_pool2d' op failed to infer returned types}}
  %0 = graph.adaptive_avg_pool2d %x {output_size = array<i64: 2, 2>} : (tensor<?x3x?x8xf32>) -> tensor<?x3x2x2xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// graph.batch_norm
//===----------------------------------------------------------------------===//

func.func @batch_norm_c1(%x: tensor<4xf32>, %c: tensor<4xf32>) {
  // expected-error @+2 {{'graph.batch_norm' op input must have rank >= 2, got rank 1}}
  // expected-error @+1 {{'graph.batch_norm' op failed to infer returned types}}
  %0 = graph.batch_norm %x, %c, %c, %c, %c : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// The statistics run along axis 1, not the last axis.
func.func @batch_norm_c2_mean(%x: tensor<2x4x5xf32>, %m: tensor<5xf32>, %c: tensor<4xf32>) {
  // expected-error @+2 {{'graph.batch_norm' op mean must be [4] (input dim 1), got [5]}}
  // expected-error @+1 {{'graph.batch_norm' op failed to infer returned types}}
  %0 = graph.batch_norm %x, %m, %c, %c, %c : (tensor<2x4x5xf32>, tensor<5xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x5xf32>
  return
}

// -----

func.func @batch_norm_c2_variance_rank(%x: tensor<2x4xf32>, %c: tensor<4xf32>, %v: tensor<1x4xf32>) {
  // expected-error @+2 {{'graph.batch_norm' op variance must be [4] (input dim 1), got [1x4]}}
  // expected-error @+1 {{'graph.batch_norm' op failed to infer returned types}}
  %0 = graph.batch_norm %x, %c, %v, %c, %c : (tensor<2x4xf32>, tensor<4xf32>, tensor<1x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @batch_norm_c2_weight(%x: tensor<2x4xf32>, %c: tensor<4xf32>, %w: tensor<3xf32>) {
  // expected-error @+2 {{'graph.batch_norm' op weight must be [4] (input dim 1), got [3]}}
  // expected-error @+1 {{'graph.batch_norm' op failed to infer returned types}}
  %0 = graph.batch_norm %x, %c, %c, %w, %c : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<3xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return
}

// -----

// A dynamic channel dim still needs rank-1 statistics.
func.func @batch_norm_c2_bias(%x: tensor<2x?xf32>, %c: tensor<4xf32>, %b: tensor<f32>) {
  // expected-error @+2 {{'graph.batch_norm' op bias must be [?] (input dim 1), got []}}
  // expected-error @+1 {{'graph.batch_norm' op failed to infer returned types}}
  %0 = graph.batch_norm %x, %c, %c, %c, %b : (tensor<2x?xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<f32>) -> tensor<2x?xf32>
  return
}

// -----

func.func @batch_norm_c2_element_type(%x: tensor<2x4xf32>, %c: tensor<4xf32>, %h: tensor<4xf16>) {
  // expected-error @+2 {{'graph.batch_norm' op element types differ: input is f32, variance is f16}}
  // expected-error @+1 {{'graph.batch_norm' op failed to infer returned types}}
  %0 = graph.batch_norm %x, %c, %h, %c, %c : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf16>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @batch_norm_c3(%x: tensor<2x4xf32>, %c: tensor<4xf32>) {
  // expected-error @+2 {{'graph.batch_norm' op epsilon must be >= 0}}
  // expected-error @+1 {{'graph.batch_norm' op failed to infer returned types}}
  %0 = graph.batch_norm %x, %c, %c, %c, %c {epsilon = -1.0e-05 : f64} : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// graph.layer_norm
//===----------------------------------------------------------------------===//

func.func @layer_norm_c1_rank(%x: tensor<4x5xf32>, %w: tensor<2x4x5xf32>) {
  // expected-error @+2 {{'graph.layer_norm' op weight rank 3 must be in [1, 2] (the input rank)}}
  // expected-error @+1 {{'graph.layer_norm' op failed to infer returned types}}
  %0 = graph.layer_norm %x, %w, %w : (tensor<4x5xf32>, tensor<2x4x5xf32>, tensor<2x4x5xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @layer_norm_c1_rank0(%x: tensor<4x5xf32>, %w: tensor<f32>) {
  // expected-error @+2 {{'graph.layer_norm' op weight rank 0 must be in [1, 2] (the input rank)}}
  // expected-error @+1 {{'graph.layer_norm' op failed to infer returned types}}
  %0 = graph.layer_norm %x, %w, %w : (tensor<4x5xf32>, tensor<f32>, tensor<f32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @layer_norm_c1_bias(%x: tensor<4x5xf32>, %w: tensor<5xf32>, %b: tensor<4xf32>) {
  // expected-error @+2 {{'graph.layer_norm' op weight [5] and bias [4] must have the same shape and type}}
  // expected-error @+1 {{'graph.layer_norm' op failed to infer returned types}}
  %0 = graph.layer_norm %x, %w, %b : (tensor<4x5xf32>, tensor<5xf32>, tensor<4xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @layer_norm_c1_bias_type(%x: tensor<4x5xf32>, %w: tensor<5xf32>, %b: tensor<5xf16>) {
  // expected-error @+2 {{'graph.layer_norm' op weight [5] and bias [5] must have the same shape and type}}
  // expected-error @+1 {{'graph.layer_norm' op failed to infer returned types}}
  %0 = graph.layer_norm %x, %w, %b : (tensor<4x5xf32>, tensor<5xf32>, tensor<5xf16>) -> tensor<4x5xf32>
  return
}

// -----

func.func @layer_norm_c1_element_type(%x: tensor<4x5xf32>, %w: tensor<5xbf16>) {
  // expected-error @+2 {{'graph.layer_norm' op element types differ: input is f32, weight is bf16}}
  // expected-error @+1 {{'graph.layer_norm' op failed to infer returned types}}
  %0 = graph.layer_norm %x, %w, %w : (tensor<4x5xf32>, tensor<5xbf16>, tensor<5xbf16>) -> tensor<4x5xf32>
  return
}

// -----

// The normalized shape is the input's trailing dims, in order.
func.func @layer_norm_c2(%x: tensor<2x4x5xf32>, %w: tensor<5x4xf32>) {
  // expected-error @+2 {{'graph.layer_norm' op weight dim 0 is 5, input dim 1 is 4 (normalized shape [5x4], input [2x4x5])}}
  // expected-error @+1 {{'graph.layer_norm' op failed to infer returned types}}
  %0 = graph.layer_norm %x, %w, %w : (tensor<2x4x5xf32>, tensor<5x4xf32>, tensor<5x4xf32>) -> tensor<2x4x5xf32>
  return
}

// -----

// Rejected like batch_norm's C3 (no constraint number in the verifier).
func.func @layer_norm_epsilon(%x: tensor<2x4xf32>, %w: tensor<4xf32>) {
  // expected-error @+2 {{'graph.layer_norm' op epsilon must be >= 0}}
  // expected-error @+1 {{'graph.layer_norm' op failed to infer returned types}}
  %0 = graph.layer_norm %x, %w, %w {epsilon = -1.0 : f64} : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Elementwise: graph.clamp (erf, hardswish, hardsigmoid and leaky_relu have
// no numbered constraints)
//===----------------------------------------------------------------------===//

func.func @clamp_c1(%x: tensor<4xf32>) {
  // expected-error @+2 {{'graph.clamp' op needs a min or a max bound}}
  // expected-error @+1 {{'graph.clamp' op failed to infer returned types}}
  %0 = graph.clamp %x : tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

// torch.clamp with min > max sets everything to max; here it is invalid.
func.func @clamp_c2(%x: tensor<4xi32>) {
  // expected-error @+2 {{'graph.clamp' op min 6.000000e+00 is greater than max 0.000000e+00}}
  // expected-error @+1 {{'graph.clamp' op failed to infer returned types}}
  %0 = graph.clamp %x {min = 6.0 : f64, max = 0.0 : f64} : tensor<4xi32> -> tensor<4xi32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// graph.scaled_dot_product_attention
//===----------------------------------------------------------------------===//

func.func @sdpa_c1_rank(%q: tensor<16xf32>, %k: tensor<2x8x16xf32>, %v: tensor<2x8x16xf32>) {
  // expected-error @+2 {{'graph.scaled_dot_product_attention' op query must have rank >= 2, got rank 1}}
  // expected-error @+1 {{'graph.scaled_dot_product_attention' op failed to infer returned types}}
  %0 = graph.scaled_dot_product_attention %q, %k, %v : (tensor<16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @sdpa_c1_rank_value(%q: tensor<2x8x16xf32>, %k: tensor<2x8x16xf32>, %v: tensor<8xf32>) {
  // expected-error @+2 {{'graph.scaled_dot_product_attention' op value must have rank >= 2, got rank 1}}
  // expected-error @+1 {{'graph.scaled_dot_product_attention' op failed to infer returned types}}
  %0 = graph.scaled_dot_product_attention %q, %k, %v : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<8xf32>) -> tensor<2x8x16xf32>
  return
}

// -----

func.func @sdpa_c1_element_type(%q: tensor<2x8x16xf32>, %k: tensor<2x8x16xf32>, %v: tensor<2x8x16xf16>) {
  // expected-error @+2 {{'graph.scaled_dot_product_attention' op element types differ: query is f32, value is f16}}
  // expected-error @+1 {{'graph.scaled_dot_product_attention' op failed to infer returned types}}
  %0 = graph.scaled_dot_product_attention %q, %k, %v : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf16>) -> tensor<2x8x16xf32>
  return
}

// -----

func.func @sdpa_c2_embedding(%q: tensor<2x8x16xf32>, %k: tensor<2x8x12xf32>, %v: tensor<2x8x16xf32>) {
  // expected-error @+2 {{'graph.scaled_dot_product_attention' op query embedding dim is 16 but key embedding dim is 12}}
  // expected-error @+1 {{'graph.scaled_dot_product_attention' op failed to infer returned types}}
  %0 = graph.scaled_dot_product_attention %q, %k, %v : (tensor<2x8x16xf32>, tensor<2x8x12xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return
}

// -----

func.func @sdpa_c2_positions(%q: tensor<2x8x16xf32>, %k: tensor<2x6x16xf32>, %v: tensor<2x8x16xf32>) {
  // expected-error @+2 {{'graph.scaled_dot_product_attention' op key has 6 positions (dim 1) but value has 8}}
  // expected-error @+1 {{'graph.scaled_dot_product_attention' op failed to infer returned types}}
  %0 = graph.scaled_dot_product_attention %q, %k, %v : (tensor<2x8x16xf32>, tensor<2x6x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return
}

// -----

func.func @sdpa_c3_query_key(%q: tensor<2x8x16xf32>, %k: tensor<3x8x16xf32>, %v: tensor<8x16xf32>) {
  // expected-error @+2 {{'graph.scaled_dot_product_attention' op operands are not broadcast-compatible: query batch dim 0 is 2, key batch dim 0 is 3 (shapes [2] and [3])}}
  // expected-error @+1 {{'graph.scaled_dot_product_attention' op failed to infer returned types}}
  %0 = graph.scaled_dot_product_attention %q, %k, %v : (tensor<2x8x16xf32>, tensor<3x8x16xf32>, tensor<8x16xf32>) -> tensor<2x8x16xf32>
  return
}

// -----

// query and key broadcast to [2, 4]; value's batch [3, 1] does not.
func.func @sdpa_c3_value(%q: tensor<2x1x8x16xf32>, %k: tensor<1x4x8x16xf32>, %v: tensor<3x1x8x16xf32>) {
  // expected-error @+2 {{'graph.scaled_dot_product_attention' op operands are not broadcast-compatible: query/key batch dim 0 is 2, value batch dim 0 is 3 (shapes [2x4] and [3x1])}}
  // expected-error @+1 {{'graph.scaled_dot_product_attention' op failed to infer returned types}}
  %0 = graph.scaled_dot_product_attention %q, %k, %v : (tensor<2x1x8x16xf32>, tensor<1x4x8x16xf32>, tensor<3x1x8x16xf32>) -> tensor<2x4x8x16xf32>
  return
}

// -----

func.func @sdpa_c4_mask_type(%q: tensor<2x8x16xf32>, %k: tensor<2x8x16xf32>, %v: tensor<2x8x16xf32>, %m: tensor<8x8xi32>) {
  // expected-error @+2 {{'graph.scaled_dot_product_attention' op mask must be i1 or the query's element type}}
  // expected-error @+1 {{'graph.scaled_dot_product_attention' op failed to infer returned types}}
  %0 = graph.scaled_dot_product_attention %q, %k, %v, %m : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<8x8xi32>) -> tensor<2x8x16xf32>
  return
}

// -----

func.func @sdpa_c4_mask_float_type(%q: tensor<2x8x16xf32>, %k: tensor<2x8x16xf32>, %v: tensor<2x8x16xf32>, %m: tensor<8x8xf16>) {
  // expected-error @+2 {{'graph.scaled_dot_product_attention' op mask must be i1 or the query's element type}}
  // expected-error @+1 {{'graph.scaled_dot_product_attention' op failed to infer returned types}}
  %0 = graph.scaled_dot_product_attention %q, %k, %v, %m : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<8x8xf16>) -> tensor<2x8x16xf32>
  return
}

// -----

// The scores are [2, L = 8, S = 6].
func.func @sdpa_c4_mask_shape(%q: tensor<2x8x16xf32>, %k: tensor<2x6x16xf32>, %v: tensor<2x6x16xf32>, %m: tensor<8x8xi1>) {
  // expected-error @+2 {{'graph.scaled_dot_product_attention' op operands are not broadcast-compatible: mask dim 1 is 8, scores dim 2 is 6 (shapes [8x8] and [2x8x6])}}
  // expected-error @+1 {{'graph.scaled_dot_product_attention' op failed to infer returned types}}
  %0 = graph.scaled_dot_product_attention %q, %k, %v, %m : (tensor<2x8x16xf32>, tensor<2x6x16xf32>, tensor<2x6x16xf32>, tensor<8x8xi1>) -> tensor<2x8x16xf32>
  return
}

// -----

// The mask may not add batch dims.
func.func @sdpa_c4_mask_rank(%q: tensor<2x8x16xf32>, %k: tensor<2x8x16xf32>, %v: tensor<2x8x16xf32>, %m: tensor<3x2x8x8xi1>) {
  // expected-error @+2 {{'graph.scaled_dot_product_attention' op mask has rank 4, more than the scores' rank 3}}
  // expected-error @+1 {{'graph.scaled_dot_product_attention' op failed to infer returned types}}
  %0 = graph.scaled_dot_product_attention %q, %k, %v, %m : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<3x2x8x8xi1>) -> tensor<2x8x16xf32>
  return
}

// -----

func.func @sdpa_c5(%q: tensor<2x?x16xf32>, %k: tensor<2x8x16xf32>, %v: tensor<2x8x16xf32>) {
  // expected-error @+2 {{'graph.scaled_dot_product_attention' op is_causal needs static sequence lengths, got L = ?, S = 8}}
  // expected-error @+1 {{'graph.scaled_dot_product_attention' op failed to infer returned types}}
  %0 = graph.scaled_dot_product_attention %q, %k, %v {is_causal} : (tensor<2x?x16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x?x16xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// graph.gather, graph.dynamic_update_slice, graph.pad, graph.split,
// graph.argmax, graph.cumsum
//===----------------------------------------------------------------------===//

func.func @gather_c1(%x: tensor<4x5xf32>, %i: tensor<3xi64>) {
  // expected-error @+2 {{'graph.gather' op axis 2 is outside [0, 2)}}
  // expected-error @+1 {{'graph.gather' op failed to infer returned types}}
  %0 = graph.gather %x, %i {axis = 2 : i64} : (tensor<4x5xf32>, tensor<3xi64>) -> tensor<4x3xf32>
  return
}

// -----

func.func @gather_c1_negative(%x: tensor<4x5xf32>, %i: tensor<3xi32>) {
  // expected-error @+2 {{'graph.gather' op axis -1 is outside [0, 2)}}
  // expected-error @+1 {{'graph.gather' op failed to infer returned types}}
  %0 = graph.gather %x, %i {axis = -1 : i64} : (tensor<4x5xf32>, tensor<3xi32>) -> tensor<4x3xf32>
  return
}

// -----

// A rank-0 index removes the axis.
func.func @gather_result(%x: tensor<4x5xf32>, %i: tensor<i64>) {
  // expected-error @+2 {{'graph.gather' op inferred type(s) 'tensor<5xf32>' are incompatible with return type(s) of operation 'tensor<1x5xf32>'}}
  // expected-error @+1 {{'graph.gather' op failed to infer returned types}}
  %0 = graph.gather %x, %i {axis = 0 : i64} : (tensor<4x5xf32>, tensor<i64>) -> tensor<1x5xf32>
  return
}

// -----

func.func @gather_elements_c1(%x: tensor<4x5xf32>, %i: tensor<4x2xi64>) {
  // expected-error @+2 {{'graph.gather_elements' op axis -1 is outside [0, 2)}}
  // expected-error @+1 {{'graph.gather_elements' op failed to infer returned types}}
  %0 = graph.gather_elements %x, %i {axis = -1 : i64} : (tensor<4x5xf32>, tensor<4x2xi64>) -> tensor<4x2xf32>
  return
}

// -----

func.func @gather_elements_c2(%x: tensor<4x5xf32>, %i: tensor<2xi64>) {
  // expected-error @+2 {{'graph.gather_elements' op indices have rank 1 but input has rank 2}}
  // expected-error @+1 {{'graph.gather_elements' op failed to infer returned types}}
  %0 = graph.gather_elements %x, %i {axis = 0 : i64} : (tensor<4x5xf32>, tensor<2xi64>) -> tensor<2xf32>
  return
}

// -----

func.func @gather_elements_c3(%x: tensor<4x5xf32>, %i: tensor<4x6xi64>) {
  // expected-error @+2 {{'graph.gather_elements' op indices dim 1 is 6, larger than input's 5}}
  // expected-error @+1 {{'graph.gather_elements' op failed to infer returned types}}
  %0 = graph.gather_elements %x, %i {axis = 0 : i64} : (tensor<4x5xf32>, tensor<4x6xi64>) -> tensor<4x6xf32>
  return
}

// -----

func.func @gather_elements_c4(%x: tensor<4x0xf32>, %i: tensor<4x2xi64>) {
  // expected-error @+2 {{'graph.gather_elements' op input dim 1 (the axis) is empty but indices select 2 elements along it}}
  // expected-error @+1 {{'graph.gather_elements' op failed to infer returned types}}
  %0 = graph.gather_elements %x, %i {axis = 1 : i64} : (tensor<4x0xf32>, tensor<4x2xi64>) -> tensor<4x2xf32>
  return
}

// -----

// The result has the indices' shape.
func.func @gather_elements_result(%x: tensor<4x5xf32>, %i: tensor<4x2xi64>) {
  // expected-error @+2 {{'graph.gather_elements' op inferred type(s) 'tensor<4x2xf32>' are incompatible with return type(s) of operation 'tensor<4x5xf32>'}}
  // expected-error @+1 {{'graph.gather_elements' op failed to infer returned types}}
  %0 = graph.gather_elements %x, %i {axis = 1 : i64} : (tensor<4x5xf32>, tensor<4x2xi64>) -> tensor<4x5xf32>
  return
}

// -----

func.func @scatter_c1(%d: tensor<4x5xf32>, %i: tensor<4x2xi64>, %u: tensor<4x2xf32>) {
  // expected-error @+2 {{'graph.scatter' op axis 2 is outside [0, 2)}}
  // expected-error @+1 {{'graph.scatter' op failed to infer returned types}}
  %0 = graph.scatter none %d, %i, %u {axis = 2 : i64} : (tensor<4x5xf32>, tensor<4x2xi64>, tensor<4x2xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @scatter_c2_rank(%d: tensor<4x5xf32>, %i: tensor<2xi64>, %u: tensor<2xf32>) {
  // expected-error @+2 {{'graph.scatter' op data, indices and updates must have one rank, got 2, 1 and 1}}
  // expected-error @+1 {{'graph.scatter' op failed to infer returned types}}
  %0 = graph.scatter none %d, %i, %u {axis = 0 : i64} : (tensor<4x5xf32>, tensor<2xi64>, tensor<2xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @scatter_c2_shape(%d: tensor<4x5xf32>, %i: tensor<4x2xi64>, %u: tensor<4x3xf32>) {
  // expected-error @+2 {{'graph.scatter' op indices have shape [4x2] but updates [4x3] (dim 1)}}
  // expected-error @+1 {{'graph.scatter' op failed to infer returned types}}
  %0 = graph.scatter add %d, %i, %u {axis = 1 : i64} : (tensor<4x5xf32>, tensor<4x2xi64>, tensor<4x3xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @scatter_c2_element_type(%d: tensor<4x5xf32>, %i: tensor<4x2xi64>, %u: tensor<4x2xi32>) {
  // expected-error @+2 {{'graph.scatter' op element types differ: data is f32, updates is i32}}
  // expected-error @+1 {{'graph.scatter' op failed to infer returned types}}
  %0 = graph.scatter none %d, %i, %u {axis = 1 : i64} : (tensor<4x5xf32>, tensor<4x2xi64>, tensor<4x2xi32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @scatter_c3(%d: tensor<4x5xf32>, %i: tensor<6x2xi64>, %u: tensor<6x2xf32>) {
  // expected-error @+2 {{'graph.scatter' op indices dim 0 is 6, larger than data's 4}}
  // expected-error @+1 {{'graph.scatter' op failed to infer returned types}}
  %0 = graph.scatter none %d, %i, %u {axis = 1 : i64} : (tensor<4x5xf32>, tensor<6x2xi64>, tensor<6x2xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @scatter_c4(%d: tensor<4xi1>, %i: tensor<2xi64>, %u: tensor<2xi1>) {
  // expected-error @+2 {{'graph.scatter' op reduction add is not defined for i1 data}}
  // expected-error @+1 {{'graph.scatter' op failed to infer returned types}}
  %0 = graph.scatter add %d, %i, %u {axis = 0 : i64} : (tensor<4xi1>, tensor<2xi64>, tensor<2xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @scatter_float_indices(%d: tensor<4xf32>, %i: tensor<2xf32>, %u: tensor<2xf32>) {
  // expected-error @+1 {{'graph.scatter' op operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = graph.scatter none %d, %i, %u {axis = 0 : i64} : (tensor<4xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @dynamic_update_slice_c1(%d: tensor<4x5xf32>, %u: tensor<5xf32>, %i: tensor<i64>) {
  // expected-error @+2 {{'graph.dynamic_update_slice' op axis 2 is outside [0, 2)}}
  // expected-error @+1 {{'graph.dynamic_update_slice' op failed to infer returned types}}
  %0 = graph.dynamic_update_slice %d, %u, %i {axis = 2 : i64} : (tensor<4x5xf32>, tensor<5xf32>, tensor<i64>) -> tensor<4x5xf32>
  return
}

// -----

func.func @dynamic_update_slice_c2_element_type(%d: tensor<4x5xf32>, %u: tensor<5xi32>, %i: tensor<i64>) {
  // expected-error @+2 {{'graph.dynamic_update_slice' op element types differ: dest is f32, update is i32}}
  // expected-error @+1 {{'graph.dynamic_update_slice' op failed to infer returned types}}
  %0 = graph.dynamic_update_slice %d, %u, %i {axis = 0 : i64} : (tensor<4x5xf32>, tensor<5xi32>, tensor<i64>) -> tensor<4x5xf32>
  return
}

// -----

func.func @dynamic_update_slice_c2_shape(%d: tensor<4x5xf32>, %u: tensor<4xf32>, %i: tensor<i64>) {
  // expected-error @+2 {{'graph.dynamic_update_slice' op update shape [4] must be dest's shape without dim 0: [5]}}
  // expected-error @+1 {{'graph.dynamic_update_slice' op failed to infer returned types}}
  %0 = graph.dynamic_update_slice %d, %u, %i {axis = 0 : i64} : (tensor<4x5xf32>, tensor<4xf32>, tensor<i64>) -> tensor<4x5xf32>
  return
}

// -----

// The update has no unit dim in place of the axis.
func.func @dynamic_update_slice_c2_keepdim(%d: tensor<4x5xf32>, %u: tensor<1x5xf32>, %i: tensor<i64>) {
  // expected-error @+2 {{'graph.dynamic_update_slice' op update shape [1x5] must be dest's shape without dim 0: [5]}}
  // expected-error @+1 {{'graph.dynamic_update_slice' op failed to infer returned types}}
  %0 = graph.dynamic_update_slice %d, %u, %i {axis = 0 : i64} : (tensor<4x5xf32>, tensor<1x5xf32>, tensor<i64>) -> tensor<4x5xf32>
  return
}

// -----

func.func @pad_c1_low(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'graph.pad' op low has 1 entries, expected 2}}
  // expected-error @+1 {{'graph.pad' op failed to infer returned types}}
  %0 = graph.pad %x {low = array<i64: 1>, high = array<i64: 0, 0>} : tensor<2x3xf32> -> tensor<3x3xf32>
  return
}

// -----

// Negative padding (cropping, allowed by ONNX Pad) is not.
func.func @pad_c1_high(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'graph.pad' op high entry 1 is -1, must be >= 0}}
  // expected-error @+1 {{'graph.pad' op failed to infer returned types}}
  %0 = graph.pad %x {low = array<i64: 0, 0>, high = array<i64: 0, -1>} : tensor<2x3xf32> -> tensor<2x2xf32>
  return
}

// -----

func.func @split_c1(%x: tensor<3x6xf32>) {
  // expected-error @+2 {{'graph.split' op axis 2 is outside [0, 2)}}
  // expected-error @+1 {{'graph.split' op failed to infer returned types}}
  %0:2 = graph.split %x {axis = 2 : i64, sizes = array<i64: 3, 3>} : tensor<3x6xf32> -> tensor<3x3xf32>, tensor<3x3xf32>
  return
}

// -----

func.func @split_c2_negative(%x: tensor<3x6xf32>) {
  // expected-error @+2 {{'graph.split' op size 1 is -2, must be >= 0}}
  // expected-error @+1 {{'graph.split' op failed to infer returned types}}
  %0:3 = graph.split %x {axis = 1 : i64, sizes = array<i64: 4, -2, 4>} : tensor<3x6xf32> -> tensor<3x4xf32>, tensor<3x0xf32>, tensor<3x4xf32>
  return
}

// -----

func.func @split_c2_sum(%x: tensor<3x6xf32>) {
  // expected-error @+2 {{'graph.split' op sizes [2, 3] sum to 5, but dim 1 is 6}}
  // expected-error @+1 {{'graph.split' op failed to infer returned types}}
  %0:2 = graph.split %x {axis = 1 : i64, sizes = array<i64: 2, 3>} : tensor<3x6xf32> -> tensor<3x2xf32>, tensor<3x3xf32>
  return
}

// -----

// One result per entry of sizes.
func.func @split_result_count(%x: tensor<3x6xf32>) {
  // expected-error @+2 {{'graph.split' op inferred type(s) 'tensor<3x2xf32>', 'tensor<3x4xf32>' are incompatible with return type(s) of operation 'tensor<3x6xf32>'}}
  // expected-error @+1 {{'graph.split' op failed to infer returned types}}
  %0 = graph.split %x {axis = 1 : i64, sizes = array<i64: 2, 4>} : tensor<3x6xf32> -> tensor<3x6xf32>
  return
}

// -----

func.func @argmax_c1(%x: tensor<4x10xf32>) {
  // expected-error @+2 {{'graph.argmax' op axis 2 is outside [0, 2)}}
  // expected-error @+1 {{'graph.argmax' op failed to infer returned types}}
  %0 = graph.argmax %x {axis = 2 : i64} : tensor<4x10xf32> -> tensor<4xi64>
  return
}

// -----

func.func @argmax_keepdims_result(%x: tensor<4x10xf32>) {
  // expected-error @+2 {{'graph.argmax' op inferred type(s) 'tensor<4x1xi64>' are incompatible with return type(s) of operation 'tensor<4xi64>'}}
  // expected-error @+1 {{'graph.argmax' op failed to infer returned types}}
  %0 = graph.argmax %x {axis = 1 : i64, keepdims} : tensor<4x10xf32> -> tensor<4xi64>
  return
}

// -----

func.func @cumsum_c1(%x: tensor<4x10xi32>) {
  // expected-error @+2 {{'graph.cumsum' op axis 2 is outside [0, 2)}}
  // expected-error @+1 {{'graph.cumsum' op failed to infer returned types}}
  %0 = graph.cumsum %x {axis = 2 : i64} : tensor<4x10xi32> -> tensor<4x10xi32>
  return
}

// -----

// Negative axes are rejected, as for every other op with an axis (the
// importers normalize Python's negative axes).
func.func @cumsum_c1_negative(%x: tensor<4x10xi32>) {
  // expected-error @+2 {{'graph.cumsum' op axis -1 is outside [0, 2)}}
  // expected-error @+1 {{'graph.cumsum' op failed to infer returned types}}
  %0 = graph.cumsum %x {axis = -1 : i64} : tensor<4x10xi32> -> tensor<4x10xi32>
  return
}

// -----

func.func @cumprod_c1(%x: tensor<4x10xf32>) {
  // expected-error @+2 {{'graph.cumprod' op axis 2 is outside [0, 2)}}
  // expected-error @+1 {{'graph.cumprod' op failed to infer returned types}}
  %0 = graph.cumprod %x {axis = 2 : i64} : tensor<4x10xf32> -> tensor<4x10xf32>
  return
}

// -----

func.func @cumprod_result_type(%x: tensor<4x10xf32>) {
  // expected-error @+2 {{'graph.cumprod' op inferred type(s) 'tensor<4x10xf32>' are incompatible with return type(s) of operation 'tensor<4x10xf16>'}}
  // expected-error @+1 {{'graph.cumprod' op failed to infer returned types}}
  %0 = graph.cumprod %x {axis = 1 : i64} : tensor<4x10xf32> -> tensor<4x10xf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// ODS type constraints of the new ops
//===----------------------------------------------------------------------===//

func.func @conv2d_float_only(%x: tensor<1x3x8x8xi32>, %w: tensor<4x3x3x3xi32>) {
  // expected-error @+1 {{'graph.conv2d' op operand #0 must be ranked tensor of f32, f16, bf16 or f64 values, but got 'tensor<1x3x8x8xi32>'}}
  %0 = graph.conv2d %x, %w : (tensor<1x3x8x8xi32>, tensor<4x3x3x3xi32>) -> tensor<1x4x6x6xi32>
  return
}

// -----

func.func @avg_pool2d_float_only(%x: tensor<1x3x8x8xi32>) {
  // expected-error @+1 {{'graph.avg_pool2d' op operand #0 must be ranked tensor of f32, f16, bf16 or f64 values, but got 'tensor<1x3x8x8xi32>'}}
  %0 = graph.avg_pool2d %x {kernel = array<i64: 2, 2>} : (tensor<1x3x8x8xi32>) -> tensor<1x3x4x4xi32>
  return
}

// -----

func.func @max_pool2d_kernel_required(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'graph.max_pool2d' op requires attribute 'kernel'}}
  %0 = graph.max_pool2d %x : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @leaky_relu_float_only(%x: tensor<4xi32>) {
  // expected-error @+1 {{'graph.leaky_relu' op operand #0 must be ranked tensor of f32, f16, bf16 or f64 values, but got 'tensor<4xi32>'}}
  %0 = graph.leaky_relu %x : tensor<4xi32> -> tensor<4xi32>
  return
}

// -----

func.func @sin_float_only(%x: tensor<4xi32>) {
  // expected-error @+1 {{'graph.sin' op operand #0 must be ranked tensor of f32, f16, bf16 or f64 values, but got 'tensor<4xi32>'}}
  %0 = graph.sin %x : tensor<4xi32> -> tensor<4xi32>
  return
}

// -----

func.func @atanh_result_type(%x: tensor<4xf32>) {
  // expected-error @+2 {{'graph.atanh' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xf16>'}}
  // expected-error @+1 {{'graph.atanh' op failed to infer returned types}}
  %0 = graph.atanh %x : tensor<4xf32> -> tensor<4xf16>
  return
}

// -----

func.func @clamp_no_i1(%x: tensor<4xi1>) {
  // expected-error @+1 {{'graph.clamp' op operand #0 must be ranked tensor of f32, f16, bf16, f64, i8, i16, i32, i64, ui8, ui16, ui32 or ui64 values, but got 'tensor<4xi1>'}}
  %0 = graph.clamp %x {min = 0.0 : f64} : tensor<4xi1> -> tensor<4xi1>
  return
}

// -----

func.func @gather_index_type(%x: tensor<4xf32>, %i: tensor<2xi1>) {
  // expected-error @+1 {{'graph.gather' op operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<2xi1>'}}
  %0 = graph.gather %x, %i {axis = 0 : i64} : (tensor<4xf32>, tensor<2xi1>) -> tensor<2xf32>
  return
}

// -----

func.func @dynamic_update_slice_index_rank(%d: tensor<4x5xf32>, %u: tensor<5xf32>, %i: tensor<1xi64>) {
  // expected-error @+1 {{'graph.dynamic_update_slice' op operand #2 must be 0D tensor of 64-bit signless integer values, but got 'tensor<1xi64>'}}
  %0 = graph.dynamic_update_slice %d, %u, %i {axis = 0 : i64} : (tensor<4x5xf32>, tensor<5xf32>, tensor<1xi64>) -> tensor<4x5xf32>
  return
}

// -----

func.func @argmax_result_i64(%x: tensor<4x10xf32>) {
  // expected-error @+1 {{'graph.argmax' op result #0 must be ranked tensor of 64-bit signless integer values, but got 'tensor<4xi32>'}}
  %0 = graph.argmax %x {axis = 1 : i64} : tensor<4x10xf32> -> tensor<4xi32>
  return
}

// -----

func.func @cumsum_no_i1(%x: tensor<4xi1>) {
  // expected-error @+1 {{'graph.cumsum' op operand #0 must be ranked tensor of f32, f16, bf16, f64, i8, i16, i32, i64, ui8, ui16, ui32 or ui64 values, but got 'tensor<4xi1>'}}
  %0 = graph.cumsum %x {axis = 0 : i64} : tensor<4xi1> -> tensor<4xi1>
  return
}

// -----

//===----------------------------------------------------------------------===//
// graph.if
//===----------------------------------------------------------------------===//

func.func @if_condition_i1(%c: tensor<i32>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'graph.if' op operand #0 must be 0D tensor of 1-bit signless integer values, but got 'tensor<i32>'}}
  %0 = graph.if %c : tensor<i32> -> tensor<4xf32> {
    graph.yield %a : tensor<4xf32>
  } else {
    graph.yield %a : tensor<4xf32>
  }
  return
}

// -----

func.func @if_condition_rank0(%c: tensor<1xi1>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'graph.if' op operand #0 must be 0D tensor of 1-bit signless integer values, but got 'tensor<1xi1>'}}
  %0 = graph.if %c : tensor<1xi1> -> tensor<4xf32> {
    graph.yield %a : tensor<4xf32>
  } else {
    graph.yield %a : tensor<4xf32>
  }
  return
}

// -----

func.func @if_then_yield_count(%c: tensor<i1>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'graph.if' op the then region yields 2 values, expected 1}}
  %0 = graph.if %c : tensor<i1> -> tensor<4xf32> {
    graph.yield %a, %a : tensor<4xf32>, tensor<4xf32>
  } else {
    graph.yield %a : tensor<4xf32>
  }
  return
}

// -----

// An implicit (empty) yield in a region of an op with results.
func.func @if_else_yield_count(%c: tensor<i1>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'graph.if' op the else region yields 0 values, expected 1}}
  %0 = graph.if %c : tensor<i1> -> tensor<4xf32> {
    graph.yield %a : tensor<4xf32>
  } else {
  }
  return
}

// -----

func.func @if_then_yield_type(%c: tensor<i1>, %a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error @+1 {{'graph.if' op the then region yields 'tensor<4xf16>' as value 0, incompatible with 'tensor<4xf32>'}}
  %0 = graph.if %c : tensor<i1> -> tensor<4xf32> {
    graph.yield %b : tensor<4xf16>
  } else {
    graph.yield %a : tensor<4xf32>
  }
  return
}

// -----

func.func @if_else_yield_shape(%c: tensor<i1>, %a: tensor<4xf32>, %b: tensor<5xf32>) {
  // expected-error @+1 {{'graph.if' op the else region yields 'tensor<5xf32>' as value 1, incompatible with 'tensor<4xf32>'}}
  %0:2 = graph.if %c : tensor<i1> -> tensor<4xf32>, tensor<4xf32> {
    graph.yield %a, %a : tensor<4xf32>, tensor<4xf32>
  } else {
    graph.yield %a, %b : tensor<4xf32>, tensor<5xf32>
  }
  return
}

// -----

func.func @if_region_arguments(%c: tensor<i1>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'graph.if' op region #0 should have no arguments}}
  %0 = graph.if %c : tensor<i1> -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    graph.yield %x : tensor<4xf32>
  } else {
    graph.yield %a : tensor<4xf32>
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// graph.loop
//===----------------------------------------------------------------------===//

func.func @loop_trip_count_i64(%n: tensor<i32>, %t: tensor<i1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.loop' op operand #0 must be 0D tensor of 64-bit signless integer values, but got 'tensor<i32>'}}
  %0 = graph.loop %n, %t, %x : (tensor<i32>, tensor<i1>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%i: tensor<i64>, %y: tensor<4xf32>):
    graph.yield %t, %y : tensor<i1>, tensor<4xf32>
  }
  return
}

// -----

func.func @loop_condition_i1(%n: tensor<i64>, %t: tensor<i32>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.loop' op operand #1 must be 0D tensor of 1-bit signless integer values, but got 'tensor<i32>'}}
  %0 = graph.loop %n, %t, %x : (tensor<i64>, tensor<i32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%i: tensor<i64>, %y: tensor<4xf32>):
    graph.yield %y, %y : tensor<4xf32>, tensor<4xf32>
  }
  return
}

// -----

// The carried operands need only be compatible with the results (the
// carried types); a static mismatch is an error.
func.func @loop_c1(%n: tensor<i64>, %t: tensor<i1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.loop' op carried operand types must be compatible with the result types}}
  %0 = graph.loop %n, %t, %x : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> tensor<5xf32> {
  ^bb0(%i: tensor<i64>, %y: tensor<5xf32>):
    graph.yield %t, %y : tensor<i1>, tensor<5xf32>
  }
  return
}

// -----

func.func @loop_c1_element_type(%n: tensor<i64>, %t: tensor<i1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.loop' op carried operand types must be compatible with the result types}}
  %0 = graph.loop %n, %t, %x : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> tensor<4xf16> {
  ^bb0(%i: tensor<i64>, %y: tensor<4xf16>):
    graph.yield %t, %y : tensor<i1>, tensor<4xf16>
  }
  return
}

// -----

func.func @loop_c1_count(%n: tensor<i64>, %t: tensor<i1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.loop' op carried operand types must be compatible with the result types}}
  %0:2 = graph.loop %n, %t, %x : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%i: tensor<i64>, %y: tensor<4xf32>):
    graph.yield %t, %y : tensor<i1>, tensor<4xf32>
  }
  return
}

// -----

// The iteration number is missing.
func.func @loop_c2_count(%n: tensor<i64>, %t: tensor<i1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.loop' op body must take a tensor<i64> iteration number followed by the 1 carried values}}
  %0 = graph.loop %n, %t, %x : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%y: tensor<4xf32>):
    graph.yield %t, %y : tensor<i1>, tensor<4xf32>
  }
  return
}

// -----

func.func @loop_c2_iteration_type(%n: tensor<i64>, %t: tensor<i1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.loop' op body must take a tensor<i64> iteration number followed by the 1 carried values}}
  %0 = graph.loop %n, %t, %x : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%i: tensor<i32>, %y: tensor<4xf32>):
    graph.yield %t, %y : tensor<i1>, tensor<4xf32>
  }
  return
}

// -----

func.func @loop_c2_argument_type(%n: tensor<i64>, %t: tensor<i1>, %x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'graph.loop' op body argument 2 has type 'tensor<?xf32>', but the carried type (result 1) is 'tensor<f32>'}}
  %0:2 = graph.loop %n, %t, %x, %z : (tensor<i64>, tensor<i1>, tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>) {
  ^bb0(%i: tensor<i64>, %y: tensor<4xf32>, %w: tensor<?xf32>):
    graph.yield %t, %y, %z : tensor<i1>, tensor<4xf32>, tensor<f32>
  }
  return
}

// -----

// The body arguments have exactly the result (carried) types, even where the
// carried operand is more static.
func.func @loop_c2_argument_exact(%n: tensor<i64>, %t: tensor<i1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.loop' op body argument 1 has type 'tensor<4xf32>', but the carried type (result 0) is 'tensor<?xf32>'}}
  %0 = graph.loop %n, %t, %x : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> tensor<?xf32> {
  ^bb0(%i: tensor<i64>, %y: tensor<4xf32>):
    graph.yield %t, %y : tensor<i1>, tensor<4xf32>
  }
  return
}

// -----

func.func @loop_c3_no_condition(%n: tensor<i64>, %t: tensor<i1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.loop' op body must yield a tensor<i1> condition first}}
  %0 = graph.loop %n, %t, %x : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%i: tensor<i64>, %y: tensor<4xf32>):
    graph.yield %y : tensor<4xf32>
  }
  return
}

// -----

func.func @loop_c3_condition_type(%n: tensor<i64>, %t: tensor<i1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.loop' op body must yield a tensor<i1> condition first}}
  %0 = graph.loop %n, %t, %x : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%i: tensor<i64>, %y: tensor<4xf32>):
    graph.yield %i, %y : tensor<i64>, tensor<4xf32>
  }
  return
}

// -----

func.func @loop_c3_yield_count(%n: tensor<i64>, %t: tensor<i1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.loop' op the body yields 2 values, expected 1}}
  %0 = graph.loop %n, %t, %x : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%i: tensor<i64>, %y: tensor<4xf32>):
    graph.yield %t, %y, %y : tensor<i1>, tensor<4xf32>, tensor<4xf32>
  }
  return
}

// -----

// Yielded values are numbered in the yield, the condition being value 0.
func.func @loop_c3_yield_type(%n: tensor<i64>, %t: tensor<i1>, %x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'graph.loop' op the body yields 'tensor<5xf32>' as value 1, incompatible with 'tensor<4xf32>'}}
  %0:2 = graph.loop %n, %t, %x, %z : (tensor<i64>, tensor<i1>, tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>) {
  ^bb0(%i: tensor<i64>, %y: tensor<4xf32>, %w: tensor<f32>):
    %b = graph.broadcast_to %w, [5] : tensor<f32> -> tensor<5xf32>
    graph.yield %t, %b, %w : tensor<i1>, tensor<5xf32>, tensor<f32>
  }
  return
}

// -----

func.func @yield_parent(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.yield' op expects parent op to be one of 'graph.if, graph.loop'}}
  graph.yield %x : tensor<4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// graph.resize
//===----------------------------------------------------------------------===//

func.func @resize_c1(%x: tensor<1x3x4x4xf32>) {
  // expected-error @+2 {{'graph.resize' op needs one size and one scale per dim of [1x3x4x4], got 2 and 2}}
  // expected-error @+1 {{'graph.resize' op failed to infer returned types}}
  %0 = graph.resize %x {sizes = array<i64: 8, 8>, scales = array<f64: 2.0, 2.0>} : tensor<1x3x4x4xf32> -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @resize_c2(%x: tensor<4xf32>) {
  // expected-error @+2 {{'graph.resize' op mode 'bilinear' is not nearest, linear or cubic}}
  // expected-error @+1 {{'graph.resize' op failed to infer returned types}}
  %0 = graph.resize %x {sizes = array<i64: 8>, scales = array<f64: 2.0>, mode = "bilinear"} : tensor<4xf32> -> tensor<8xf32>
  return
}

// -----

func.func @resize_c3(%x: tensor<4xi32>) {
  // expected-error @+2 {{'graph.resize' op linear interpolation needs a float element type}}
  // expected-error @+1 {{'graph.resize' op failed to infer returned types}}
  %0 = graph.resize %x {sizes = array<i64: 8>, scales = array<f64: 2.0>, mode = "linear"} : tensor<4xi32> -> tensor<8xi32>
  return
}

// -----

func.func @resize_c4(%x: tensor<4xf32>) {
  // expected-error @+2 {{'graph.resize' op roi is given exactly with tf_crop_and_resize}}
  // expected-error @+1 {{'graph.resize' op failed to infer returned types}}
  %0 = graph.resize %x {sizes = array<i64: 8>, scales = array<f64: 2.0>, roi = array<f64: 0.0, 1.0>} : tensor<4xf32> -> tensor<8xf32>
  return
}

// -----

func.func @resize_c5_kept(%x: tensor<2x4xf32>) {
  // expected-error @+2 {{'graph.resize' op dim 0 is kept (size -1) but its scale is 2.000000e+00}}
  // expected-error @+1 {{'graph.resize' op failed to infer returned types}}
  %0 = graph.resize %x {sizes = array<i64: -1, 8>, scales = array<f64: 2.0, 2.0>} : tensor<2x4xf32> -> tensor<2x8xf32>
  return
}

// -----

func.func @resize_c5_dynamic(%x: tensor<?x4xf32>) {
  // expected-error @+2 {{'graph.resize' op resizes dim 0, which is dynamic in [?x4]}}
  // expected-error @+1 {{'graph.resize' op failed to infer returned types}}
  %0 = graph.resize %x {sizes = array<i64: 6, -1>, scales = array<f64: 2.0, 1.0>} : tensor<?x4xf32> -> tensor<6x4xf32>
  return
}

// -----

func.func @resize_c5_scale(%x: tensor<4xf32>) {
  // expected-error @+2 {{'graph.resize' op scale 0 is 0.000000e+00, must be > 0}}
  // expected-error @+1 {{'graph.resize' op failed to infer returned types}}
  %0 = graph.resize %x {sizes = array<i64: 8>, scales = array<f64: 0.0>} : tensor<4xf32> -> tensor<8xf32>
  return
}
