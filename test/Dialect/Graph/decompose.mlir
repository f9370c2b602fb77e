// RUN: graph-opt %s -graph-decompose -split-input-file | FileCheck %s
// RUN: graph-opt %s --pass-pipeline='builtin.module(func.func(graph-decompose))' -split-input-file | FileCheck %s
// graph-decompose then graph-optimize folds the constant parts.
// RUN: graph-opt %s -graph-decompose -graph-optimize -split-input-file | FileCheck %s --check-prefix=OPT

// graph-decompose rewrites the composite ops (batch_norm, layer_norm,
// scaled_dot_product_attention, split, adaptive_avg_pool2d, resize) into primitive
// graph ops; the other ops of the second set are left alone.

// batch_norm: scale = weight * rsqrt(var + eps), shift = bias - mean * scale,
// both reshaped to [C, 1, 1] to broadcast along axis 1; x * scale + shift.
// CHECK-LABEL: func.func @batch_norm
// CHECK-SAME: (%[[X:.+]]: tensor<?x4x5x5xf32>, %[[M:.+]]: tensor<4xf32>, %[[V:.+]]: tensor<4xf32>, %[[W:.+]]: tensor<4xf32>, %[[B:.+]]: tensor<4xf32>)
// CHECK-DAG: %[[EPS:.+]] = graph.constant dense<1.000000e-03> : tensor<f32>
// CHECK: %[[VE:.+]] = graph.add %[[V]], %[[EPS]] : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
// CHECK: %[[INV:.+]] = graph.rsqrt %[[VE]] : tensor<4xf32> -> tensor<4xf32>
// CHECK: %[[SCALE:.+]] = graph.mul %[[W]], %[[INV]] : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
// CHECK: %[[MS:.+]] = graph.mul %[[M]], %[[SCALE]] : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
// CHECK: %[[SHIFT:.+]] = graph.sub %[[B]], %[[MS]] : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
// CHECK: %[[S3:.+]] = graph.reshape %[[SCALE]], [-1, 1, 1] : tensor<4xf32> -> tensor<4x1x1xf32>
// CHECK: %[[T3:.+]] = graph.reshape %[[SHIFT]], [-1, 1, 1] : tensor<4xf32> -> tensor<4x1x1xf32>
// CHECK: %[[Y:.+]] = graph.mul %[[X]], %[[S3]] : tensor<?x4x5x5xf32>, tensor<4x1x1xf32> -> tensor<?x4x5x5xf32>
// CHECK: %[[Z:.+]] = graph.add %[[Y]], %[[T3]] : tensor<?x4x5x5xf32>, tensor<4x1x1xf32> -> tensor<?x4x5x5xf32>
// CHECK-NOT: graph.batch_norm
// CHECK: return %[[Z]]
func.func @batch_norm(%x: tensor<?x4x5x5xf32>, %m: tensor<4xf32>, %v: tensor<4xf32>, %w: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<?x4x5x5xf32> {
  %0 = graph.batch_norm %x, %m, %v, %w, %b {epsilon = 1.0e-03 : f64} : (tensor<?x4x5x5xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x4x5x5xf32>
  return %0 : tensor<?x4x5x5xf32>
}

// -----

// Rank 2 (BatchNorm1d): the per-channel terms are already [C] (the identity
// reshapes fold away). f16 decomposes in f32 (epsilon kept in f32) and the
// result is rounded to f16 once.
// CHECK-LABEL: func.func @batch_norm_1d_f16
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf16>, %[[C:.+]]: tensor<3xf16>)
// CHECK: graph.constant dense<9.99999974E-6> : tensor<f32>
// CHECK: %[[XW:.+]] = graph.cast %[[X]] : tensor<2x3xf16> -> tensor<2x3xf32>
// CHECK: %[[S:.+]] = graph.mul %{{.+}}, %{{.+}} : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
// CHECK: %[[T:.+]] = graph.sub %{{.+}}, %{{.+}} : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
// CHECK-NOT: graph.reshape
// CHECK: %[[Y:.+]] = graph.mul %[[XW]], %[[S]] : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
// CHECK: %[[Z:.+]] = graph.add %[[Y]], %[[T]] : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
// CHECK: %[[R:.+]] = graph.cast %[[Z]] : tensor<2x3xf32> -> tensor<2x3xf16>
// CHECK: return %[[R]]
func.func @batch_norm_1d_f16(%x: tensor<2x3xf16>, %c: tensor<3xf16>) -> tensor<2x3xf16> {
  %0 = graph.batch_norm %x, %c, %c, %c, %c : (tensor<2x3xf16>, tensor<3xf16>, tensor<3xf16>, tensor<3xf16>, tensor<3xf16>) -> tensor<2x3xf16>
  return %0 : tensor<2x3xf16>
}

// -----

// layer_norm of bf16: mean and variance in f32, one rounding at the end.
// CHECK-LABEL: func.func @layer_norm_bf16
// CHECK: %[[XW:.+]] = graph.cast %{{.+}} : tensor<2x3xbf16> -> tensor<2x3xf32>
// CHECK: graph.reduce mean %[[XW]] axes = [1] keepdims : tensor<2x3xf32> -> tensor<2x1xf32>
// CHECK: %[[Z:.+]] = graph.add %{{.+}}, %{{.+}} : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
// CHECK: %[[R:.+]] = graph.cast %[[Z]] : tensor<2x3xf32> -> tensor<2x3xbf16>
// CHECK: return %[[R]]
func.func @layer_norm_bf16(%x: tensor<2x3xbf16>, %c: tensor<3xbf16>) -> tensor<2x3xbf16> {
  %0 = graph.layer_norm %x, %c, %c : (tensor<2x3xbf16>, tensor<3xbf16>, tensor<3xbf16>) -> tensor<2x3xbf16>
  return %0 : tensor<2x3xbf16>
}

// -----

// Constant statistics fold into one multiply and one add with constants:
// scale = [2 / sqrt(4), 3 / sqrt(0.25)] = [1, 6],
// shift = [0.5 - 1 * 1, -1 - (-2) * 6] = [-0.5, 11].
// OPT-LABEL: func.func @batch_norm_constant_stats
// OPT-SAME: (%[[X:.+]]: tensor<?x2x3x3xf32>)
// OPT-DAG: %[[S:.+]] = graph.constant dense<{{\[\[\[}}1.000000e+00]], {{\[\[}}6.000000e+00]]]> : tensor<2x1x1xf32>
// OPT-DAG: %[[T:.+]] = graph.constant dense<{{\[\[\[}}-5.000000e-01]], {{\[\[}}1.100000e+01]]]> : tensor<2x1x1xf32>
// OPT-NOT: graph.rsqrt
// OPT-NOT: graph.sub
// OPT: %[[Y:.+]] = graph.mul %[[X]], %[[S]] : tensor<?x2x3x3xf32>, tensor<2x1x1xf32> -> tensor<?x2x3x3xf32>
// OPT-NEXT: %[[Z:.+]] = graph.add %[[Y]], %[[T]] : tensor<?x2x3x3xf32>, tensor<2x1x1xf32> -> tensor<?x2x3x3xf32>
// OPT-NEXT: return %[[Z]]
func.func @batch_norm_constant_stats(%x: tensor<?x2x3x3xf32>) -> tensor<?x2x3x3xf32> {
  %m = graph.constant dense<[1.0, -2.0]> : tensor<2xf32>
  %v = graph.constant dense<[4.0, 0.25]> : tensor<2xf32>
  %w = graph.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %b = graph.constant dense<[0.5, -1.0]> : tensor<2xf32>
  %0 = graph.batch_norm %x, %m, %v, %w, %b {epsilon = 0.0 : f64} : (tensor<?x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<?x2x3x3xf32>
  return %0 : tensor<?x2x3x3xf32>
}

// -----

// layer_norm: mean and biased variance over the trailing dims (keepdims),
// (x - mean) * rsqrt(var + eps) * weight + bias.
// CHECK-LABEL: func.func @layer_norm
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x8xf32>, %[[W:.+]]: tensor<8xf32>, %[[B:.+]]: tensor<8xf32>)
// CHECK-DAG: %[[EPS:.+]] = graph.constant dense<9.99999974E-6> : tensor<f32>
// CHECK: %[[MEAN:.+]] = graph.reduce mean %[[X]] axes = [2] keepdims : tensor<2x3x8xf32> -> tensor<2x3x1xf32>
// CHECK: %[[XC:.+]] = graph.sub %[[X]], %[[MEAN]] : tensor<2x3x8xf32>, tensor<2x3x1xf32> -> tensor<2x3x8xf32>
// CHECK: %[[SQ:.+]] = graph.mul %[[XC]], %[[XC]] : tensor<2x3x8xf32>, tensor<2x3x8xf32> -> tensor<2x3x8xf32>
// CHECK: %[[VAR:.+]] = graph.reduce mean %[[SQ]] axes = [2] keepdims : tensor<2x3x8xf32> -> tensor<2x3x1xf32>
// CHECK: %[[VE:.+]] = graph.add %[[VAR]], %[[EPS]] : tensor<2x3x1xf32>, tensor<f32> -> tensor<2x3x1xf32>
// CHECK: %[[INV:.+]] = graph.rsqrt %[[VE]] : tensor<2x3x1xf32> -> tensor<2x3x1xf32>
// CHECK: %[[N:.+]] = graph.mul %[[XC]], %[[INV]] : tensor<2x3x8xf32>, tensor<2x3x1xf32> -> tensor<2x3x8xf32>
// CHECK: %[[NW:.+]] = graph.mul %[[N]], %[[W]] : tensor<2x3x8xf32>, tensor<8xf32> -> tensor<2x3x8xf32>
// CHECK: %[[R:.+]] = graph.add %[[NW]], %[[B]] : tensor<2x3x8xf32>, tensor<8xf32> -> tensor<2x3x8xf32>
// CHECK: return %[[R]]
func.func @layer_norm(%x: tensor<2x3x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x3x8xf32> {
  %0 = graph.layer_norm %x, %w, %b : (tensor<2x3x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x3x8xf32>
  return %0 : tensor<2x3x8xf32>
}

// -----

// Two normalized dims with a dynamic batch: axes [1, 2].
// CHECK-LABEL: func.func @layer_norm_2d
// CHECK: graph.reduce mean %{{.+}} axes = [1, 2] keepdims : tensor<?x4x5xf32> -> tensor<?x1x1xf32>
// CHECK: graph.reduce mean %{{.+}} axes = [1, 2] keepdims : tensor<?x4x5xf32> -> tensor<?x1x1xf32>
// CHECK: graph.mul %{{.+}}, %{{.+}} : tensor<?x4x5xf32>, tensor<4x5xf32> -> tensor<?x4x5xf32>
// CHECK: graph.add %{{.+}}, %{{.+}} : tensor<?x4x5xf32>, tensor<4x5xf32> -> tensor<?x4x5xf32>
// CHECK-NOT: graph.layer_norm
func.func @layer_norm_2d(%x: tensor<?x4x5xf32>, %w: tensor<4x5xf32>, %b: tensor<4x5xf32>) -> tensor<?x4x5xf32> {
  %0 = graph.layer_norm %x, %w, %b {epsilon = 1.0e-12 : f64} : (tensor<?x4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<?x4x5xf32>
  return %0 : tensor<?x4x5xf32>
}

// -----

// Attention with a bool mask: scores = q k^T * (1/sqrt(16)); masked-out
// scores become -inf (select); softmax over the last axis; times v.
// CHECK-LABEL: func.func @sdpa_bool_mask
// CHECK-SAME: (%[[Q:.+]]: tensor<2x4x16xf32>, %[[K:.+]]: tensor<2x6x16xf32>, %[[V:.+]]: tensor<2x6x8xf32>, %[[M:.+]]: tensor<4x6xi1>)
// CHECK-DAG: %[[NEGINF:.+]] = graph.constant dense<0xFF800000> : tensor<f32>
// CHECK-DAG: %[[SCALE:.+]] = graph.constant dense<2.500000e-01> : tensor<f32>
// CHECK: %[[KT:.+]] = graph.transpose %[[K]], [0, 2, 1] : tensor<2x6x16xf32> -> tensor<2x16x6xf32>
// CHECK: %[[S:.+]] = graph.matmul %[[Q]], %[[KT]] : tensor<2x4x16xf32>, tensor<2x16x6xf32> -> tensor<2x4x6xf32>
// CHECK: %[[SS:.+]] = graph.mul %[[S]], %[[SCALE]] : tensor<2x4x6xf32>, tensor<f32> -> tensor<2x4x6xf32>
// CHECK: %[[SM:.+]] = graph.select %[[M]], %[[SS]], %[[NEGINF]] : tensor<4x6xi1>, tensor<2x4x6xf32>, tensor<f32> -> tensor<2x4x6xf32>
// CHECK: %[[P:.+]] = graph.softmax %[[SM]] axis = 2 : tensor<2x4x6xf32> -> tensor<2x4x6xf32>
// CHECK: %[[O:.+]] = graph.matmul %[[P]], %[[V]] : tensor<2x4x6xf32>, tensor<2x6x8xf32> -> tensor<2x4x8xf32>
// CHECK: return %[[O]]
func.func @sdpa_bool_mask(%q: tensor<2x4x16xf32>, %k: tensor<2x6x16xf32>, %v: tensor<2x6x8xf32>, %m: tensor<4x6xi1>) -> tensor<2x4x8xf32> {
  %0 = graph.scaled_dot_product_attention %q, %k, %v, %m : (tensor<2x4x16xf32>, tensor<2x6x16xf32>, tensor<2x6x8xf32>, tensor<4x6xi1>) -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// -----

// A float mask is added to the scaled scores; an explicit scale is used as is.
// CHECK-LABEL: func.func @sdpa_float_mask
// CHECK-SAME: (%[[Q:.+]]: tensor<2x3x4x8xf32>, %[[K:.+]]: tensor<2x3x5x8xf32>, %[[V:.+]]: tensor<2x3x5x8xf32>, %[[M:.+]]: tensor<2x1x4x5xf32>)
// CHECK-DAG: %[[SCALE:.+]] = graph.constant dense<1.250000e-01> : tensor<f32>
// CHECK: %[[KT:.+]] = graph.transpose %[[K]], [0, 1, 3, 2] : tensor<2x3x5x8xf32> -> tensor<2x3x8x5xf32>
// CHECK: %[[S:.+]] = graph.matmul %[[Q]], %[[KT]]
// CHECK: %[[SS:.+]] = graph.mul %[[S]], %[[SCALE]]
// CHECK: %[[SM:.+]] = graph.add %[[SS]], %[[M]] : tensor<2x3x4x5xf32>, tensor<2x1x4x5xf32> -> tensor<2x3x4x5xf32>
// CHECK-NOT: graph.select
// CHECK: %[[P:.+]] = graph.softmax %[[SM]] axis = 3
// CHECK: graph.matmul %[[P]], %[[V]]
func.func @sdpa_float_mask(%q: tensor<2x3x4x8xf32>, %k: tensor<2x3x5x8xf32>, %v: tensor<2x3x5x8xf32>, %m: tensor<2x1x4x5xf32>) -> tensor<2x3x4x8xf32> {
  %0 = graph.scaled_dot_product_attention %q, %k, %v, %m {scale = 0.125 : f64} : (tensor<2x3x4x8xf32>, tensor<2x3x5x8xf32>, tensor<2x3x5x8xf32>, tensor<2x1x4x5xf32>) -> tensor<2x3x4x8xf32>
  return %0 : tensor<2x3x4x8xf32>
}

// -----

// is_causal: a constant [L, S] mask keeping key positions j <= i (top-left
// aligned when L != S, as torch), applied with select.
// CHECK-LABEL: func.func @sdpa_causal
// CHECK-SAME: (%[[Q:.+]]: tensor<3x16xf32>, %[[K:.+]]: tensor<4x16xf32>, %[[V:.+]]: tensor<4x8xf32>)
// CHECK-DAG: %[[CAUSAL:.+]] = graph.constant dense<{{\[}}[true, false, false, false], [true, true, false, false], [true, true, true, false]]> : tensor<3x4xi1>
// CHECK-DAG: %[[NEGINF:.+]] = graph.constant dense<0xFF800000> : tensor<f32>
// CHECK-DAG: %[[SCALE:.+]] = graph.constant dense<5.000000e-01> : tensor<f32>
// CHECK: %[[KT:.+]] = graph.transpose %[[K]], [1, 0] : tensor<4x16xf32> -> tensor<16x4xf32>
// CHECK: %[[S:.+]] = graph.matmul %[[Q]], %[[KT]] : tensor<3x16xf32>, tensor<16x4xf32> -> tensor<3x4xf32>
// CHECK: %[[SS:.+]] = graph.mul %[[S]], %[[SCALE]]
// CHECK: %[[SM:.+]] = graph.select %[[CAUSAL]], %[[SS]], %[[NEGINF]] : tensor<3x4xi1>, tensor<3x4xf32>, tensor<f32> -> tensor<3x4xf32>
// CHECK: %[[P:.+]] = graph.softmax %[[SM]] axis = 1
// CHECK: graph.matmul %[[P]], %[[V]] : tensor<3x4xf32>, tensor<4x8xf32> -> tensor<3x8xf32>
func.func @sdpa_causal(%q: tensor<3x16xf32>, %k: tensor<4x16xf32>, %v: tensor<4x8xf32>) -> tensor<3x8xf32> {
  %0 = graph.scaled_dot_product_attention %q, %k, %v {is_causal, scale = 0.5 : f64} : (tensor<3x16xf32>, tensor<4x16xf32>, tensor<4x8xf32>) -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}

// -----

// split: one slice per piece, at the running offset.
// CHECK-LABEL: func.func @split
// CHECK-SAME: (%[[X:.+]]: tensor<3x6xf32>)
// CHECK: %[[A:.+]] = graph.slice %[[X]] [0, 0] [3, 2] [1, 1] : tensor<3x6xf32> -> tensor<3x2xf32>
// CHECK: %[[B:.+]] = graph.slice %[[X]] [0, 2] [3, 2] [1, 1] : tensor<3x6xf32> -> tensor<3x0xf32>
// CHECK: %[[C:.+]] = graph.slice %[[X]] [0, 2] [3, 6] [1, 1] : tensor<3x6xf32> -> tensor<3x4xf32>
// CHECK-NOT: graph.split
// CHECK: return %[[A]], %[[B]], %[[C]]
func.func @split(%x: tensor<3x6xf32>) -> (tensor<3x2xf32>, tensor<3x0xf32>, tensor<3x4xf32>) {
  %0:3 = graph.split %x {axis = 1 : i64, sizes = array<i64: 2, 0, 4>} : tensor<3x6xf32> -> tensor<3x2xf32>, tensor<3x0xf32>, tensor<3x4xf32>
  return %0#0, %0#1, %0#2 : tensor<3x2xf32>, tensor<3x0xf32>, tensor<3x4xf32>
}

// -----

// A dynamic split dim is fine (the limits are the sizes) ...
// CHECK-LABEL: func.func @split_dynamic_axis
// CHECK: graph.slice %{{.+}} [0, 0] [1, 4] [1, 1] : tensor<?x4xi32> -> tensor<1x4xi32>
// CHECK: graph.slice %{{.+}} [1, 0] [3, 4] [1, 1] : tensor<?x4xi32> -> tensor<2x4xi32>
func.func @split_dynamic_axis(%x: tensor<?x4xi32>) -> (tensor<1x4xi32>, tensor<2x4xi32>) {
  %0:2 = graph.split %x {axis = 0 : i64, sizes = array<i64: 1, 2>} : tensor<?x4xi32> -> tensor<1x4xi32>, tensor<2x4xi32>
  return %0#0, %0#1 : tensor<1x4xi32>, tensor<2x4xi32>
}

// -----

// ... but a dynamic dim other than the axis has no static slice limit: the
// op is left alone.
// CHECK-LABEL: func.func @split_dynamic_other_dim
// CHECK: graph.split
// CHECK-NOT: graph.slice
func.func @split_dynamic_other_dim(%x: tensor<?x6xf32>) -> (tensor<?x2xf32>, tensor<?x4xf32>) {
  %0:2 = graph.split %x {axis = 1 : i64, sizes = array<i64: 2, 4>} : tensor<?x6xf32> -> tensor<?x2xf32>, tensor<?x4xf32>
  return %0#0, %0#1 : tensor<?x2xf32>, tensor<?x4xf32>
}

// -----

// adaptive_avg_pool2d to [1, 1] (global): a keepdims mean over H and W, also
// for dynamic H and W.
// CHECK-LABEL: func.func @adaptive_global
// CHECK: graph.reduce mean %{{.+}} axes = [2, 3] keepdims : tensor<1x2x6x4xf32> -> tensor<1x2x1x1xf32>
// CHECK: graph.reduce mean %{{.+}} axes = [2, 3] keepdims : tensor<?x2x?x?xf16> -> tensor<?x2x1x1xf16>
// CHECK-NOT: graph.adaptive_avg_pool2d
func.func @adaptive_global(%x: tensor<1x2x6x4xf32>, %y: tensor<?x2x?x?xf16>) -> (tensor<1x2x1x1xf32>, tensor<?x2x1x1xf16>) {
  %0 = graph.adaptive_avg_pool2d %x {output_size = array<i64: 1, 1>} : (tensor<1x2x6x4xf32>) -> tensor<1x2x1x1xf32>
  %1 = graph.adaptive_avg_pool2d %y {output_size = array<i64: 1, 1>} : (tensor<?x2x?x?xf16>) -> tensor<?x2x1x1xf16>
  return %0, %1 : tensor<1x2x1x1xf32>, tensor<?x2x1x1xf16>
}

// -----

// Evenly dividing sizes: an avg_pool2d with kernel = strides = [H/OH, W/OW].
// CHECK-LABEL: func.func @adaptive_divisible
// CHECK: graph.avg_pool2d %{{.+}} {count_include_pad, kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x6x4xf32>) -> tensor<1x2x3x2xf32>
// CHECK-NOT: graph.adaptive_avg_pool2d
func.func @adaptive_divisible(%x: tensor<1x2x6x4xf32>) -> tensor<1x2x3x2xf32> {
  %0 = graph.adaptive_avg_pool2d %x {output_size = array<i64: 3, 2>} : (tensor<1x2x6x4xf32>) -> tensor<1x2x3x2xf32>
  return %0 : tensor<1x2x3x2xf32>
}

// -----

// Other sizes: P x Q^T with constant averaging matrices. Rows, 6 -> 4:
// windows [0, 2), [1, 3), [3, 5), [4, 6); columns, 4 -> 3: [0, 2), [1, 3),
// [2, 4) (transposed: one column per window).
// CHECK-LABEL: func.func @adaptive_non_divisible
// CHECK-SAME: (%[[X:.+]]: tensor<1x2x6x4xf32>)
// CHECK-DAG: %[[QT:.+]] = graph.constant dense<{{\[}}[5.000000e-01, 0.000000e+00, 0.000000e+00], [5.000000e-01, 5.000000e-01, 0.000000e+00], [0.000000e+00, 5.000000e-01, 5.000000e-01], [0.000000e+00, 0.000000e+00, 5.000000e-01]]> : tensor<4x3xf32>
// CHECK-DAG: %[[P:.+]] = graph.constant dense<{{\[}}[5.000000e-01, 5.000000e-01, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 5.000000e-01, 5.000000e-01, 0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00, 5.000000e-01, 5.000000e-01, 0.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 5.000000e-01, 5.000000e-01]]> : tensor<4x6xf32>
// CHECK: %[[R:.+]] = graph.matmul %[[P]], %[[X]] : tensor<4x6xf32>, tensor<1x2x6x4xf32> -> tensor<1x2x4x4xf32>
// CHECK: %[[Y:.+]] = graph.matmul %[[R]], %[[QT]] : tensor<1x2x4x4xf32>, tensor<4x3xf32> -> tensor<1x2x4x3xf32>
// CHECK: return %[[Y]]
func.func @adaptive_non_divisible(%x: tensor<1x2x6x4xf32>) -> tensor<1x2x4x3xf32> {
  %0 = graph.adaptive_avg_pool2d %x {output_size = array<i64: 4, 3>} : (tensor<1x2x6x4xf32>) -> tensor<1x2x4x3xf32>
  return %0 : tensor<1x2x4x3xf32>
}

// -----

// f16: the f32 averaging matrices are cast to f16.
// CHECK-LABEL: func.func @adaptive_non_divisible_f16
// CHECK: %[[P:.+]] = graph.cast %{{.+}} : tensor<2x5xf32> -> tensor<2x5xf16>
// CHECK: graph.matmul %[[P]], %{{.+}} : tensor<2x5xf16>, tensor<1x1x5x5xf16> -> tensor<1x1x2x5xf16>
func.func @adaptive_non_divisible_f16(%x: tensor<1x1x5x5xf16>) -> tensor<1x1x2x2xf16> {
  %0 = graph.adaptive_avg_pool2d %x {output_size = array<i64: 2, 2>} : (tensor<1x1x5x5xf16>) -> tensor<1x1x2x2xf16>
  return %0 : tensor<1x1x2x2xf16>
}

// -----

// Non-composite ops are not touched.
// CHECK-LABEL: func.func @not_composite
// CHECK: graph.conv2d
// CHECK: graph.max_pool2d
// CHECK: graph.avg_pool2d
// CHECK: graph.cumsum
func.func @not_composite(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> (tensor<1x4x6x6xf32>, tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>, tensor<1x3x8x8xf32>) {
  %0 = graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %1 = graph.max_pool2d %x {kernel = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  %2 = graph.avg_pool2d %x {kernel = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  %3 = graph.cumsum %x {axis = 3 : i64} : tensor<1x3x8x8xf32> -> tensor<1x3x8x8xf32>
  return %0, %1, %2, %3 : tensor<1x4x6x6xf32>, tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>, tensor<1x3x8x8xf32>
}

// -----

// resize, one resized dim at a time. Nearest x2 (half_pixel,
// round_prefer_floor): one gather per dim, output o reading input
// floor((o + 0.5) / 2). Linear x2 along the last dim: two gathers at
// [0, 0, 1, 1] +- the neighbour, weighted .75/.25 (worked out by hand:
// coordinates -0.25, 0.25, 0.75, 1.25 clamped at the edges), summed.
// CHECK-LABEL: func.func @resize
// CHECK-DAG: %[[IDX:.+]] = graph.constant dense<[0, 0, 1, 1]> : tensor<4xi64>
// CHECK-DAG: %[[LO:.+]] = graph.constant dense<[0, 0, 0, 1]> : tensor<4xi64>
// CHECK-DAG: %[[HI:.+]] = graph.constant dense<[0, 1, 1, 1]> : tensor<4xi64>
// CHECK-DAG: %[[WLO:.+]] = graph.constant dense<{{\[\[}}2.500000e-01, 7.500000e-01, 2.500000e-01, 7.500000e-01]]> : tensor<1x4xf32>
// CHECK-DAG: %[[WHI:.+]] = graph.constant dense<{{\[\[}}7.500000e-01, 2.500000e-01, 7.500000e-01, 2.500000e-01]]> : tensor<1x4xf32>
// CHECK: %[[R:.+]] = graph.gather %arg0, %[[IDX]] {axis = 2 : i64} : (tensor<1x3x2x2xf32>, tensor<4xi64>) -> tensor<1x3x4x2xf32>
// CHECK: graph.gather %[[R]], %[[IDX]] {axis = 3 : i64} : (tensor<1x3x4x2xf32>, tensor<4xi64>) -> tensor<1x3x4x4xf32>
// CHECK: %[[G0:.+]] = graph.gather %arg1, %[[LO]] {axis = 1 : i64} : (tensor<5x2xf32>, tensor<4xi64>) -> tensor<5x4xf32>
// CHECK: %[[M0:.+]] = graph.mul %[[G0]], %[[WLO]]
// CHECK: %[[G1:.+]] = graph.gather %arg1, %[[HI]] {axis = 1 : i64} : (tensor<5x2xf32>, tensor<4xi64>) -> tensor<5x4xf32>
// CHECK: %[[M1:.+]] = graph.mul %[[G1]], %[[WHI]]
// CHECK: graph.add %[[M0]], %[[M1]] : tensor<5x4xf32>, tensor<5x4xf32> -> tensor<5x4xf32>
// CHECK-NOT: graph.resize
func.func @resize(%x: tensor<1x3x2x2xf32>, %y: tensor<5x2xf32>) -> (tensor<1x3x4x4xf32>, tensor<5x4xf32>) {
  %0 = graph.resize %x {sizes = array<i64: -1, -1, 4, 4>, scales = array<f64: 1.0, 1.0, 2.0, 2.0>} : tensor<1x3x2x2xf32> -> tensor<1x3x4x4xf32>
  %1 = graph.resize %y {sizes = array<i64: -1, 4>, scales = array<f64: 1.0, 2.0>, mode = "linear"} : tensor<5x2xf32> -> tensor<5x4xf32>
  return %0, %1 : tensor<1x3x4x4xf32>, tensor<5x4xf32>
}
