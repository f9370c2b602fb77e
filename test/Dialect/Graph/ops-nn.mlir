// RUN: graph-opt %s | graph-opt | FileCheck %s
// The generic form round-trips too.
// RUN: graph-opt %s -mlir-print-op-generic | graph-opt | FileCheck %s

// Round trip of every op of the second op set (docs/design/graph-ops-v2.md):
// attributes with a default omitted and written (a value equal to the
// default is not printed), dynamic batch dims, and graph.if/graph.loop with
// their regions.

// CHECK-LABEL: func.func @conv2d
// CHECK-SAME: (%[[X:.+]]: tensor<1x3x224x224xf32>, %[[W:.+]]: tensor<64x3x7x7xf32>, %[[B:.+]]: tensor<64xf32>, %[[D:.+]]: tensor<?x32x8x8xf16>, %[[DW:.+]]: tensor<32x1x3x3xf16>, %[[G:.+]]: tensor<?x8x9x9xbf16>, %[[GW:.+]]: tensor<12x2x3x3xbf16>)
func.func @conv2d(%x: tensor<1x3x224x224xf32>, %w: tensor<64x3x7x7xf32>,
                  %b: tensor<64xf32>, %d: tensor<?x32x8x8xf16>,
                  %dw: tensor<32x1x3x3xf16>, %g: tensor<?x8x9x9xbf16>,
                  %gw: tensor<12x2x3x3xbf16>) {
  // All attributes at their defaults: none printed.
  // CHECK: graph.conv2d %[[X]], %[[W]] : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>) -> tensor<1x64x218x218xf32>
  %0 = graph.conv2d %x, %w : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>) -> tensor<1x64x218x218xf32>
  // Written defaults (dilations, groups) are dropped; the others are kept.
  // CHECK: graph.conv2d %[[X]], %[[W]], %[[B]] {padding = array<i64: 3, 3, 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>, tensor<64xf32>) -> tensor<1x64x112x112xf32>
  %1 = graph.conv2d %x, %w, %b {strides = array<i64: 2, 2>, padding = array<i64: 3, 3, 3, 3>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>, tensor<64xf32>) -> tensor<1x64x112x112xf32>
  // Asymmetric padding [top, left, bottom, right] and dilation:
  // H: (224 + 0 + 1 - 2*6 - 1) / 1 + 1 = 213, W: (224 + 2 + 3 - 13) + 1 = 217.
  // CHECK: graph.conv2d %[[X]], %[[W]] {dilations = array<i64: 2, 2>, padding = array<i64: 0, 2, 1, 3>} : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>) -> tensor<1x64x213x217xf32>
  %2 = graph.conv2d %x, %w {padding = array<i64: 0, 2, 1, 3>, dilations = array<i64: 2, 2>}
      : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>) -> tensor<1x64x213x217xf32>
  // Depthwise (groups = C = F), dynamic batch, f16.
  // CHECK: graph.conv2d %[[D]], %[[DW]] {groups = 32 : i64, padding = array<i64: 1, 1, 1, 1>} : (tensor<?x32x8x8xf16>, tensor<32x1x3x3xf16>) -> tensor<?x32x8x8xf16>
  %3 = graph.conv2d %d, %dw {groups = 32 : i64, padding = array<i64: 1, 1, 1, 1>}
      : (tensor<?x32x8x8xf16>, tensor<32x1x3x3xf16>) -> tensor<?x32x8x8xf16>
  // Grouped (C = 8, groups = 4, F = 12), bf16, stride 2: (9 - 3) / 2 + 1 = 4.
  // CHECK: graph.conv2d %[[G]], %[[GW]] {groups = 4 : i64, strides = array<i64: 2, 2>} : (tensor<?x8x9x9xbf16>, tensor<12x2x3x3xbf16>) -> tensor<?x12x4x4xbf16>
  %4 = graph.conv2d %g, %gw {groups = 4 : i64, strides = array<i64: 2, 2>}
      : (tensor<?x8x9x9xbf16>, tensor<12x2x3x3xbf16>) -> tensor<?x12x4x4xbf16>
  // A written result type less static than the inferred one.
  // CHECK: graph.conv2d %[[X]], %[[W]] : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>) -> tensor<?x?x?x?xf32>
  %5 = graph.conv2d %x, %w : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>) -> tensor<?x?x?x?xf32>
  return
}

// Dynamic spatial and channel dims infer as dynamic; a dynamic kernel dim
// gives a dynamic output dim.
// CHECK-LABEL: func.func @conv2d_dynamic
func.func @conv2d_dynamic(%x: tensor<?x?x?x8xf32>, %w: tensor<4x?x3x?xf32>) {
  // CHECK: graph.conv2d %{{.+}}, %{{.+}} : (tensor<?x?x?x8xf32>, tensor<4x?x3x?xf32>) -> tensor<?x4x?x?xf32>
  %0 = graph.conv2d %x, %w : (tensor<?x?x?x8xf32>, tensor<4x?x3x?xf32>) -> tensor<?x4x?x?xf32>
  return
}

// CHECK-LABEL: func.func @pooling
// CHECK-SAME: (%[[X:.+]]: tensor<1x64x112x112xf32>, %[[Y:.+]]: tensor<?x8x8x8xf32>, %[[I:.+]]: tensor<2x3x5x5xi32>, %[[H:.+]]: tensor<1x2x7x7xf16>, %[[HD:.+]]: tensor<1x2x?x7xf16>)
func.func @pooling(%x: tensor<1x64x112x112xf32>, %y: tensor<?x8x8x8xf32>,
                   %i: tensor<2x3x5x5xi32>, %h: tensor<1x2x7x7xf16>,
                   %hd: tensor<1x2x?x7xf16>) {
  // CHECK: graph.max_pool2d %[[X]] {kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  %0 = graph.max_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>}
      : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  // strides omitted: the kernel. Integer max pooling.
  // CHECK: graph.max_pool2d %[[I]] {kernel = array<i64: 2, 2>} : (tensor<2x3x5x5xi32>) -> tensor<2x3x2x2xi32>
  %1 = graph.max_pool2d %i {kernel = array<i64: 2, 2>} : (tensor<2x3x5x5xi32>) -> tensor<2x3x2x2xi32>
  // ceil_mode: ceil((5 - 2) / 2) + 1 = 3.
  // CHECK: graph.max_pool2d %[[I]] {ceil_mode, kernel = array<i64: 2, 2>} : (tensor<2x3x5x5xi32>) -> tensor<2x3x3x3xi32>
  %2 = graph.max_pool2d %i {kernel = array<i64: 2, 2>, ceil_mode} : (tensor<2x3x5x5xi32>) -> tensor<2x3x3x3xi32>
  // Dilation 2: the window spans 5.
  // CHECK: graph.max_pool2d %[[Y]] {dilations = array<i64: 2, 2>, kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>} : (tensor<?x8x8x8xf32>) -> tensor<?x8x4x4xf32>
  %3 = graph.max_pool2d %y {kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>, dilations = array<i64: 2, 2>} : (tensor<?x8x8x8xf32>) -> tensor<?x8x4x4xf32>
  // ceil_mode with padding, PyTorch's rule. Rows: ceil((7 + 1 + 1 - 2) / 3)
  // + 1 = 4, but the 4th window would start at 9, in the bottom padding
  // (>= 7 + 1), so 3. Columns: ceil((7 - 2) / 3) + 1 = 3 (floor gives 2).
  // CHECK: graph.max_pool2d %[[H]] {ceil_mode, kernel = array<i64: 2, 2>, padding = array<i64: 1, 0, 1, 0>, strides = array<i64: 3, 3>} : (tensor<1x2x7x7xf16>) -> tensor<1x2x3x3xf16>
  %4 = graph.max_pool2d %h {kernel = array<i64: 2, 2>, strides = array<i64: 3, 3>, padding = array<i64: 1, 0, 1, 0>, ceil_mode} : (tensor<1x2x7x7xf16>) -> tensor<1x2x3x3xf16>
  // CHECK: graph.avg_pool2d %[[Y]] {count_include_pad, kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<?x8x8x8xf32>) -> tensor<?x8x4x4xf32>
  %5 = graph.avg_pool2d %y {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, count_include_pad} : (tensor<?x8x8x8xf32>) -> tensor<?x8x4x4xf32>
  // CHECK: graph.avg_pool2d %[[Y]] {ceil_mode, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<?x8x8x8xf32>) -> tensor<?x8x5x5xf32>
  %6 = graph.avg_pool2d %y {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, ceil_mode} : (tensor<?x8x8x8xf32>) -> tensor<?x8x5x5xf32>
  // CHECK: graph.avg_pool2d %[[H]] {kernel = array<i64: 7, 7>} : (tensor<1x2x7x7xf16>) -> tensor<1x2x1x1xf16>
  %7 = graph.avg_pool2d %h {kernel = array<i64: 7, 7>} : (tensor<1x2x7x7xf16>) -> tensor<1x2x1x1xf16>
  // A dynamic spatial dim stays dynamic.
  // CHECK: graph.max_pool2d %[[HD]] {kernel = array<i64: 2, 2>} : (tensor<1x2x?x7xf16>) -> tensor<1x2x?x3xf16>
  %8 = graph.max_pool2d %hd {kernel = array<i64: 2, 2>} : (tensor<1x2x?x7xf16>) -> tensor<1x2x?x3xf16>
  return
}

// CHECK-LABEL: func.func @adaptive_avg_pool2d
func.func @adaptive_avg_pool2d(%x: tensor<1x512x7x7xf32>, %y: tensor<?x3x?x?xbf16>, %z: tensor<2x3x10x9xf16>) {
  // CHECK: graph.adaptive_avg_pool2d %{{.+}} {output_size = array<i64: 1, 1>} : (tensor<1x512x7x7xf32>) -> tensor<1x512x1x1xf32>
  %0 = graph.adaptive_avg_pool2d %x {output_size = array<i64: 1, 1>} : (tensor<1x512x7x7xf32>) -> tensor<1x512x1x1xf32>
  // Global pooling accepts dynamic H and W.
  // CHECK: graph.adaptive_avg_pool2d %{{.+}} {output_size = array<i64: 1, 1>} : (tensor<?x3x?x?xbf16>) -> tensor<?x3x1x1xbf16>
  %1 = graph.adaptive_avg_pool2d %y {output_size = array<i64: 1, 1>} : (tensor<?x3x?x?xbf16>) -> tensor<?x3x1x1xbf16>
  // Non-divisible and larger-than-input output sizes.
  // CHECK: graph.adaptive_avg_pool2d %{{.+}} {output_size = array<i64: 4, 12>} : (tensor<2x3x10x9xf16>) -> tensor<2x3x4x12xf16>
  %2 = graph.adaptive_avg_pool2d %z {output_size = array<i64: 4, 12>} : (tensor<2x3x10x9xf16>) -> tensor<2x3x4x12xf16>
  return
}

// CHECK-LABEL: func.func @norms
func.func @norms(%x: tensor<?x64x56x56xf32>, %c: tensor<64xf32>, %v: tensor<?x16xf16>, %s: tensor<16xf16>,
                 %t: tensor<2x128x768xbf16>, %w: tensor<768xbf16>, %u: tensor<?x4x5xf32>, %w2: tensor<4x5xf32>) {
  // The default epsilon is not printed.
  // CHECK: graph.batch_norm %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : (tensor<?x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<?x64x56x56xf32>
  %0 = graph.batch_norm %x, %c, %c, %c, %c : (tensor<?x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<?x64x56x56xf32>
  // CHECK: graph.batch_norm %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : (tensor<?x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<?x64x56x56xf32>
  %1 = graph.batch_norm %x, %c, %c, %c, %c {epsilon = 1.0e-05 : f64} : (tensor<?x64x56x56xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<?x64x56x56xf32>
  // Rank 2 (BatchNorm1d), f16, a non-default epsilon.
  // CHECK: graph.batch_norm %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} {epsilon = 1.000000e-03 : f64} : (tensor<?x16xf16>, tensor<16xf16>, tensor<16xf16>, tensor<16xf16>, tensor<16xf16>) -> tensor<?x16xf16>
  %2 = graph.batch_norm %v, %s, %s, %s, %s {epsilon = 1.0e-03 : f64} : (tensor<?x16xf16>, tensor<16xf16>, tensor<16xf16>, tensor<16xf16>, tensor<16xf16>) -> tensor<?x16xf16>
  // CHECK: graph.layer_norm %{{.+}}, %{{.+}}, %{{.+}} : (tensor<2x128x768xbf16>, tensor<768xbf16>, tensor<768xbf16>) -> tensor<2x128x768xbf16>
  %3 = graph.layer_norm %t, %w, %w : (tensor<2x128x768xbf16>, tensor<768xbf16>, tensor<768xbf16>) -> tensor<2x128x768xbf16>
  // Two normalized dims, dynamic batch, epsilon written.
  // CHECK: graph.layer_norm %{{.+}}, %{{.+}}, %{{.+}} {epsilon = 9.9999999999999998E-13 : f64} : (tensor<?x4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<?x4x5xf32>
  %4 = graph.layer_norm %u, %w2, %w2 {epsilon = 1.0e-12 : f64} : (tensor<?x4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<?x4x5xf32>
  return
}

// CHECK-LABEL: func.func @activations
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>, %[[Y:.+]]: tensor<?x3xf16>, %[[Z:.+]]: tensor<bf16>, %[[I:.+]]: tensor<?xi32>, %[[J:.+]]: tensor<2x2xi64>)
func.func @activations(%x: tensor<4xf32>, %y: tensor<?x3xf16>, %z: tensor<bf16>,
                       %i: tensor<?xi32>, %j: tensor<2x2xi64>) {
  // CHECK: graph.erf %[[X]] : tensor<4xf32> -> tensor<4xf32>
  %0 = graph.erf %x : tensor<4xf32> -> tensor<4xf32>
  // CHECK: graph.erf %[[Y]] : tensor<?x3xf16> -> tensor<?x3xf16>
  %1 = graph.erf %y : tensor<?x3xf16> -> tensor<?x3xf16>
  // CHECK: graph.hardswish %[[Y]] : tensor<?x3xf16> -> tensor<?x3xf16>
  %2 = graph.hardswish %y : tensor<?x3xf16> -> tensor<?x3xf16>
  // CHECK: graph.hardsigmoid %[[Z]] : tensor<bf16> -> tensor<bf16>
  %3 = graph.hardsigmoid %z : tensor<bf16> -> tensor<bf16>
  // The default alpha (0.01) is not printed.
  // CHECK: graph.leaky_relu %[[X]] : tensor<4xf32> -> tensor<4xf32>
  %4 = graph.leaky_relu %x : tensor<4xf32> -> tensor<4xf32>
  // CHECK: graph.leaky_relu %[[X]] : tensor<4xf32> -> tensor<4xf32>
  %5 = graph.leaky_relu %x {alpha = 0.01 : f64} : tensor<4xf32> -> tensor<4xf32>
  // CHECK: graph.leaky_relu %[[Y]] {alpha = 2.000000e-01 : f64} : tensor<?x3xf16> -> tensor<?x3xf16>
  %6 = graph.leaky_relu %y {alpha = 0.2 : f64} : tensor<?x3xf16> -> tensor<?x3xf16>
  // clamp: both bounds, only min, only max; integer tensors take f64 bounds.
  // CHECK: graph.clamp %[[X]] {max = 6.000000e+00 : f64, min = 0.000000e+00 : f64} : tensor<4xf32> -> tensor<4xf32>
  %7 = graph.clamp %x {min = 0.0 : f64, max = 6.0 : f64} : tensor<4xf32> -> tensor<4xf32>
  // CHECK: graph.clamp %[[Z]] {min = -1.000000e+00 : f64} : tensor<bf16> -> tensor<bf16>
  %8 = graph.clamp %z {min = -1.0 : f64} : tensor<bf16> -> tensor<bf16>
  // CHECK: graph.clamp %[[I]] {max = 2.500000e+00 : f64} : tensor<?xi32> -> tensor<?xi32>
  %9 = graph.clamp %i {max = 2.5 : f64} : tensor<?xi32> -> tensor<?xi32>
  // min = max is allowed.
  // CHECK: graph.clamp %[[J]] {max = 3.000000e+00 : f64, min = 3.000000e+00 : f64} : tensor<2x2xi64> -> tensor<2x2xi64>
  %10 = graph.clamp %j {min = 3.0 : f64, max = 3.0 : f64} : tensor<2x2xi64> -> tensor<2x2xi64>
  return
}

// CHECK-LABEL: func.func @attention
// CHECK-SAME: (%[[Q:.+]]: tensor<1x12x128x64xf32>, %[[B:.+]]: tensor<2x4x8x16xf32>, %[[M:.+]]: tensor<8x8xi1>, %[[FM:.+]]: tensor<2x1x8x8xf32>, %[[DQ:.+]]: tensor<?x4x?x16xf16>, %[[DK:.+]]: tensor<?x4x?x16xf16>, %[[DV:.+]]: tensor<?x4x?x32xf16>, %[[Q3:.+]]: tensor<5x8xf32>, %[[K3:.+]]: tensor<3x6x8xf32>, %[[V3:.+]]: tensor<6x7xf32>)
func.func @attention(%q: tensor<1x12x128x64xf32>, %b: tensor<2x4x8x16xf32>,
                     %m: tensor<8x8xi1>, %fm: tensor<2x1x8x8xf32>,
                     %dq: tensor<?x4x?x16xf16>, %dk: tensor<?x4x?x16xf16>,
                     %dv: tensor<?x4x?x32xf16>, %q3: tensor<5x8xf32>,
                     %k3: tensor<3x6x8xf32>, %v3: tensor<6x7xf32>) {
  // CHECK: graph.scaled_dot_product_attention %[[Q]], %[[Q]], %[[Q]] {is_causal} : (tensor<1x12x128x64xf32>, tensor<1x12x128x64xf32>, tensor<1x12x128x64xf32>) -> tensor<1x12x128x64xf32>
  %0 = graph.scaled_dot_product_attention %q, %q, %q {is_causal} : (tensor<1x12x128x64xf32>, tensor<1x12x128x64xf32>, tensor<1x12x128x64xf32>) -> tensor<1x12x128x64xf32>
  // CHECK: graph.scaled_dot_product_attention %[[B]], %[[B]], %[[B]], %[[M]] {scale = 1.250000e-01 : f64} : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<8x8xi1>) -> tensor<2x4x8x16xf32>
  %1 = graph.scaled_dot_product_attention %b, %b, %b, %m {scale = 0.125 : f64} : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<8x8xi1>) -> tensor<2x4x8x16xf32>
  // A float mask broadcast over the heads, and no attributes.
  // CHECK: graph.scaled_dot_product_attention %[[B]], %[[B]], %[[B]], %[[FM]] : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x1x8x8xf32>) -> tensor<2x4x8x16xf32>
  %2 = graph.scaled_dot_product_attention %b, %b, %b, %fm : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x1x8x8xf32>) -> tensor<2x4x8x16xf32>
  // Dynamic batch and sequence lengths, Ev != E, f16.
  // CHECK: graph.scaled_dot_product_attention %[[DQ]], %[[DK]], %[[DV]] : (tensor<?x4x?x16xf16>, tensor<?x4x?x16xf16>, tensor<?x4x?x32xf16>) -> tensor<?x4x?x32xf16>
  %3 = graph.scaled_dot_product_attention %dq, %dk, %dv : (tensor<?x4x?x16xf16>, tensor<?x4x?x16xf16>, tensor<?x4x?x32xf16>) -> tensor<?x4x?x32xf16>
  // Batch dims broadcast: [] with [3] with [] gives [3]; L = 5, S = 6.
  // CHECK: graph.scaled_dot_product_attention %[[Q3]], %[[K3]], %[[V3]] {is_causal, scale = 5.000000e-01 : f64} : (tensor<5x8xf32>, tensor<3x6x8xf32>, tensor<6x7xf32>) -> tensor<3x5x7xf32>
  %4 = graph.scaled_dot_product_attention %q3, %k3, %v3 {scale = 0.5 : f64, is_causal} : (tensor<5x8xf32>, tensor<3x6x8xf32>, tensor<6x7xf32>) -> tensor<3x5x7xf32>
  return
}

// CHECK-LABEL: func.func @gather
func.func @gather(%t: tensor<1000x64xf32>, %ids: tensor<2x16xi64>, %x: tensor<?x5x3xi1>,
                  %i32: tensor<4xi32>, %s: tensor<i64>) {
  // CHECK: graph.gather %{{.+}}, %{{.+}} {axis = 0 : i64} : (tensor<1000x64xf32>, tensor<2x16xi64>) -> tensor<2x16x64xf32>
  %0 = graph.gather %t, %ids {axis = 0 : i64} : (tensor<1000x64xf32>, tensor<2x16xi64>) -> tensor<2x16x64xf32>
  // i32 indices, a middle axis, a dynamic leading dim.
  // CHECK: graph.gather %{{.+}}, %{{.+}} {axis = 1 : i64} : (tensor<?x5x3xi1>, tensor<4xi32>) -> tensor<?x4x3xi1>
  %1 = graph.gather %x, %i32 {axis = 1 : i64} : (tensor<?x5x3xi1>, tensor<4xi32>) -> tensor<?x4x3xi1>
  // A rank-0 index removes the axis.
  // CHECK: graph.gather %{{.+}}, %{{.+}} {axis = 2 : i64} : (tensor<?x5x3xi1>, tensor<i64>) -> tensor<?x5xi1>
  %2 = graph.gather %x, %s {axis = 2 : i64} : (tensor<?x5x3xi1>, tensor<i64>) -> tensor<?x5xi1>
  return
}

// CHECK-LABEL: func.func @gather_elements
func.func @gather_elements(%x: tensor<3x5xf32>, %i: tensor<2x9xi32>, %d: tensor<?x4xi1>, %di: tensor<?x2xi64>) {
  // CHECK: graph.gather_elements %{{.+}}, %{{.+}} {axis = 1 : i64} : (tensor<3x5xf32>, tensor<2x9xi32>) -> tensor<2x9xf32>
  %0 = graph.gather_elements %x, %i {axis = 1 : i64} : (tensor<3x5xf32>, tensor<2x9xi32>) -> tensor<2x9xf32>
  // CHECK: graph.gather_elements %{{.+}}, %{{.+}} {axis = 1 : i64} : (tensor<?x4xi1>, tensor<?x2xi64>) -> tensor<?x2xi1>
  %1 = graph.gather_elements %d, %di {axis = 1 : i64} : (tensor<?x4xi1>, tensor<?x2xi64>) -> tensor<?x2xi1>
  return
}

// Indices as large as the data along the axis or beyond (duplicates), no
// larger elsewhere; dynamic dims.
// CHECK-LABEL: func.func @scatter
func.func @scatter(%d: tensor<3x5xf32>, %i: tensor<3x7xi64>, %u: tensor<3x7xf32>,
                   %dd: tensor<?x4xi1>, %di: tensor<?x2xi32>, %du: tensor<?x2xi1>) {
  // CHECK: graph.scatter add %{{.+}}, %{{.+}}, %{{.+}} {axis = 1 : i64} : (tensor<3x5xf32>, tensor<3x7xi64>, tensor<3x7xf32>) -> tensor<3x5xf32>
  %0 = graph.scatter add %d, %i, %u {axis = 1 : i64} : (tensor<3x5xf32>, tensor<3x7xi64>, tensor<3x7xf32>) -> tensor<3x5xf32>
  // CHECK: graph.scatter max %{{.+}}, %{{.+}}, %{{.+}} {axis = 1 : i64} : (tensor<?x4xi1>, tensor<?x2xi32>, tensor<?x2xi1>) -> tensor<?x4xi1>
  %1 = graph.scatter max %dd, %di, %du {axis = 1 : i64} : (tensor<?x4xi1>, tensor<?x2xi32>, tensor<?x2xi1>) -> tensor<?x4xi1>
  return
}

// CHECK-LABEL: func.func @dynamic_update_slice
func.func @dynamic_update_slice(%d: tensor<32x1x256xf32>, %u: tensor<1x256xf32>, %t: tensor<i64>,
                                %di: tensor<?x4xi32>, %ui: tensor<?xi32>) {
  // CHECK: graph.dynamic_update_slice %{{.+}}, %{{.+}}, %{{.+}} {axis = 0 : i64} : (tensor<32x1x256xf32>, tensor<1x256xf32>, tensor<i64>) -> tensor<32x1x256xf32>
  %0 = graph.dynamic_update_slice %d, %u, %t {axis = 0 : i64} : (tensor<32x1x256xf32>, tensor<1x256xf32>, tensor<i64>) -> tensor<32x1x256xf32>
  // CHECK: graph.dynamic_update_slice %{{.+}}, %{{.+}}, %{{.+}} {axis = 1 : i64} : (tensor<?x4xi32>, tensor<?xi32>, tensor<i64>) -> tensor<?x4xi32>
  %1 = graph.dynamic_update_slice %di, %ui, %t {axis = 1 : i64} : (tensor<?x4xi32>, tensor<?xi32>, tensor<i64>) -> tensor<?x4xi32>
  return
}

// CHECK-LABEL: func.func @pad
func.func @pad(%x: tensor<2x3xf32>, %y: tensor<?x4xi64>, %b: tensor<3xi1>) {
  // The default value (0) is not printed.
  // CHECK: graph.pad %{{.+}} {high = array<i64: 0, 2>, low = array<i64: 0, 1>} : tensor<2x3xf32> -> tensor<2x6xf32>
  %0 = graph.pad %x {low = array<i64: 0, 1>, high = array<i64: 0, 2>, value = 0.0 : f64} : tensor<2x3xf32> -> tensor<2x6xf32>
  // CHECK: graph.pad %{{.+}} {high = array<i64: 0, 0>, low = array<i64: 1, 2>, value = -1.000000e+00 : f64} : tensor<?x4xi64> -> tensor<?x6xi64>
  %1 = graph.pad %y {low = array<i64: 1, 2>, high = array<i64: 0, 0>, value = -1.0 : f64} : tensor<?x4xi64> -> tensor<?x6xi64>
  // CHECK: graph.pad %{{.+}} {high = array<i64: 1>, low = array<i64: 1>, value = 1.000000e+00 : f64} : tensor<3xi1> -> tensor<5xi1>
  %2 = graph.pad %b {low = array<i64: 1>, high = array<i64: 1>, value = 1.0 : f64} : tensor<3xi1> -> tensor<5xi1>
  return
}

// CHECK-LABEL: func.func @split
func.func @split(%x: tensor<3x6xf32>, %y: tensor<?x4xi32>) {
  // CHECK: %{{.+}}:2 = graph.split %{{.+}} {axis = 1 : i64, sizes = array<i64: 2, 4>} : tensor<3x6xf32> -> tensor<3x2xf32>, tensor<3x4xf32>
  %0:2 = graph.split %x {axis = 1 : i64, sizes = array<i64: 2, 4>} : tensor<3x6xf32> -> tensor<3x2xf32>, tensor<3x4xf32>
  // Zero-sized and single pieces.
  // CHECK: %{{.+}}:3 = graph.split %{{.+}} {axis = 0 : i64, sizes = array<i64: 0, 3, 0>} : tensor<3x6xf32> -> tensor<0x6xf32>, tensor<3x6xf32>, tensor<0x6xf32>
  %1:3 = graph.split %x {axis = 0 : i64, sizes = array<i64: 0, 3, 0>} : tensor<3x6xf32> -> tensor<0x6xf32>, tensor<3x6xf32>, tensor<0x6xf32>
  // A dynamic split dim: the sizes are taken as written.
  // CHECK: %{{.+}}:2 = graph.split %{{.+}} {axis = 0 : i64, sizes = array<i64: 1, 2>} : tensor<?x4xi32> -> tensor<1x4xi32>, tensor<2x4xi32>
  %2:2 = graph.split %y {axis = 0 : i64, sizes = array<i64: 1, 2>} : tensor<?x4xi32> -> tensor<1x4xi32>, tensor<2x4xi32>
  // CHECK: graph.split %{{.+}} {axis = 1 : i64, sizes = array<i64: 4>} : tensor<?x4xi32> -> tensor<?x4xi32>
  %3 = graph.split %y {axis = 1 : i64, sizes = array<i64: 4>} : tensor<?x4xi32> -> tensor<?x4xi32>
  return
}

// CHECK-LABEL: func.func @argmax_cumsum
func.func @argmax_cumsum(%x: tensor<4x10xf32>, %y: tensor<?x3x5xi32>, %z: tensor<7xbf16>) {
  // CHECK: graph.argmax %{{.+}} {axis = 1 : i64} : tensor<4x10xf32> -> tensor<4xi64>
  %0 = graph.argmax %x {axis = 1 : i64} : tensor<4x10xf32> -> tensor<4xi64>
  // CHECK: graph.argmax %{{.+}} {axis = 1 : i64, keepdims} : tensor<?x3x5xi32> -> tensor<?x1x5xi64>
  %1 = graph.argmax %y {axis = 1 : i64, keepdims} : tensor<?x3x5xi32> -> tensor<?x1x5xi64>
  // CHECK: graph.argmax %{{.+}} {axis = 0 : i64} : tensor<7xbf16> -> tensor<i64>
  %2 = graph.argmax %z {axis = 0 : i64} : tensor<7xbf16> -> tensor<i64>
  // CHECK: graph.cumsum %{{.+}} {axis = 1 : i64} : tensor<4x10xf32> -> tensor<4x10xf32>
  %3 = graph.cumsum %x {axis = 1 : i64} : tensor<4x10xf32> -> tensor<4x10xf32>
  // CHECK: graph.cumsum %{{.+}} {axis = 0 : i64} : tensor<?x3x5xi32> -> tensor<?x3x5xi32>
  %4 = graph.cumsum %y {axis = 0 : i64} : tensor<?x3x5xi32> -> tensor<?x3x5xi32>
  // CHECK: graph.cumprod %{{.+}} {axis = 2 : i64} : tensor<?x3x5xi32> -> tensor<?x3x5xi32>
  %5 = graph.cumprod %y {axis = 2 : i64} : tensor<?x3x5xi32> -> tensor<?x3x5xi32>
  // CHECK: graph.cumprod %{{.+}} {axis = 0 : i64} : tensor<7xbf16> -> tensor<7xbf16>
  %6 = graph.cumprod %z {axis = 0 : i64} : tensor<7xbf16> -> tensor<7xbf16>
  return
}

// CHECK-LABEL: func.func @if
// CHECK-SAME: (%[[C:.+]]: tensor<i1>, %[[A:.+]]: tensor<4xf32>, %[[B:.+]]: tensor<?xf32>)
func.func @if(%c: tensor<i1>, %a: tensor<4xf32>, %b: tensor<?xf32>) -> (tensor<4xf32>, tensor<?xf32>, tensor<i64>) {
  // CHECK: %[[R:.+]] = graph.if %[[C]] : tensor<i1> -> tensor<4xf32> {
  // CHECK-NEXT: graph.yield %[[A]] : tensor<4xf32>
  // CHECK-NEXT: } else {
  // CHECK-NEXT: %[[E:.+]] = graph.exp %[[A]] : tensor<4xf32> -> tensor<4xf32>
  // CHECK-NEXT: graph.yield %[[E]] : tensor<4xf32>
  // CHECK-NEXT: }
  %r = graph.if %c : tensor<i1> -> tensor<4xf32> {
    graph.yield %a : tensor<4xf32>
  } else {
    %e = graph.exp %a : tensor<4xf32> -> tensor<4xf32>
    graph.yield %e : tensor<4xf32>
  }
  // Yielded types need only be compatible with the result types.
  // CHECK: %[[M:.+]]:2 = graph.if %[[C]] : tensor<i1> -> tensor<?xf32>, tensor<i64> {
  // CHECK: graph.yield %[[A]], %{{.+}} : tensor<4xf32>, tensor<i64>
  // CHECK: } else {
  // CHECK: graph.yield %[[B]], %{{.+}} : tensor<?xf32>, tensor<i64>
  // CHECK-NEXT: }
  %m:2 = graph.if %c : tensor<i1> -> tensor<?xf32>, tensor<i64> {
    %one = graph.constant dense<1> : tensor<i64>
    graph.yield %a, %one : tensor<4xf32>, tensor<i64>
  } else {
    %two = graph.constant dense<2> : tensor<i64>
    graph.yield %b, %two : tensor<?xf32>, tensor<i64>
  }
  // No results: the empty yields are implicit and not printed.
  // CHECK: graph.if %[[C]] : tensor<i1> {
  // CHECK-NEXT: } else {
  // CHECK-NEXT: }
  graph.if %c : tensor<i1> {
    graph.yield
  } else {
  }
  // CHECK: return %[[R]], %[[M]]#0, %[[M]]#1
  return %r, %m#0, %m#1 : tensor<4xf32>, tensor<?xf32>, tensor<i64>
}

// CHECK-LABEL: func.func @loop
// CHECK-SAME: (%[[N:.+]]: tensor<i64>, %[[X0:.+]]: tensor<4xf32>, %[[D:.+]]: tensor<?x3xf32>)
func.func @loop(%n: tensor<i64>, %x0: tensor<4xf32>, %d: tensor<?x3xf32>) -> (tensor<4xf32>, tensor<f32>, tensor<?x3xf32>) {
  %true = graph.constant dense<true> : tensor<i1>
  %acc0 = graph.constant dense<0.0> : tensor<f32>
  // A for loop: a trip count and a true condition.
  // CHECK: %[[F:.+]]:2 = graph.loop %[[N]], %[[T:.+]], %[[X0]], %[[ACC:.+]] : (tensor<i64>, tensor<i1>, tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>) {
  // CHECK-NEXT: ^bb0(%[[I:.+]]: tensor<i64>, %[[X:.+]]: tensor<4xf32>, %[[S:.+]]: tensor<f32>):
  // CHECK-NEXT: %[[X1:.+]] = graph.mul %[[X]], %[[X]]
  // CHECK-NEXT: %[[IF:.+]] = graph.cast %[[I]] : tensor<i64> -> tensor<f32>
  // CHECK-NEXT: %[[S1:.+]] = graph.add %[[S]], %[[IF]]
  // CHECK-NEXT: graph.yield %[[T]], %[[X1]], %[[S1]] : tensor<i1>, tensor<4xf32>, tensor<f32>
  // CHECK-NEXT: }
  %f:2 = graph.loop %n, %true, %x0, %acc0 : (tensor<i64>, tensor<i1>, tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>) {
  ^bb0(%i: tensor<i64>, %x: tensor<4xf32>, %acc: tensor<f32>):
    %x1 = graph.mul %x, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
    %if = graph.cast %i : tensor<i64> -> tensor<f32>
    %acc1 = graph.add %acc, %if : tensor<f32>, tensor<f32> -> tensor<f32>
    graph.yield %true, %x1, %acc1 : tensor<i1>, tensor<4xf32>, tensor<f32>
  }
  // A while loop: INT64_MAX trips, the condition computed in the body; a
  // dynamic carried type; the yielded value may be more static.
  // CHECK: %[[W:.+]] = graph.loop %{{.+}}, %[[T]], %[[D]] : (tensor<i64>, tensor<i1>, tensor<?x3xf32>) -> tensor<?x3xf32> {
  // CHECK-NEXT: ^bb0(%{{.+}}: tensor<i64>, %[[Y:.+]]: tensor<?x3xf32>):
  // CHECK: graph.yield %{{.+}}, %{{.+}} : tensor<i1>, tensor<2x3xf32>
  // CHECK-NEXT: }
  %max = graph.constant dense<9223372036854775807> : tensor<i64>
  %w = graph.loop %max, %true, %d : (tensor<i64>, tensor<i1>, tensor<?x3xf32>) -> tensor<?x3xf32> {
  ^bb0(%j: tensor<i64>, %y: tensor<?x3xf32>):
    %s = graph.reduce sum %y axes = [0, 1] : tensor<?x3xf32> -> tensor<f32>
    %lim = graph.constant dense<100.0> : tensor<f32>
    %go = graph.compare lt, %s, %lim : tensor<f32>, tensor<f32> -> tensor<i1>
    %y2 = graph.cast %y : tensor<?x3xf32> -> tensor<2x3xf32>
    graph.yield %go, %y2 : tensor<i1>, tensor<2x3xf32>
  }
  // A carried operand more static than the carried (result) type.
  // CHECK: graph.loop %[[N]], %[[T]], %[[X0]] : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> tensor<?xf32> {
  // CHECK-NEXT: ^bb0(%{{.+}}: tensor<i64>, %{{.+}}: tensor<?xf32>):
  %v = graph.loop %n, %true, %x0 : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> tensor<?xf32> {
  ^bb0(%l: tensor<i64>, %z: tensor<?xf32>):
    graph.yield %true, %z : tensor<i1>, tensor<?xf32>
  }
  // No carried values.
  // CHECK: graph.loop %[[N]], %[[T]] : (tensor<i64>, tensor<i1>) -> () {
  // CHECK-NEXT: ^bb0(%{{.+}}: tensor<i64>):
  // CHECK-NEXT: graph.yield %[[T]] : tensor<i1>
  graph.loop %n, %true : (tensor<i64>, tensor<i1>) -> () {
  ^bb0(%k: tensor<i64>):
    graph.yield %true : tensor<i1>
  }
  // CHECK: return %[[F]]#0, %[[F]]#1, %[[W]]
  return %f#0, %f#1, %w : tensor<4xf32>, tensor<f32>, tensor<?x3xf32>
}

// graph.resize: defaults omitted; every attribute written; a kept dynamic
// batch dim.
// CHECK-LABEL: func.func @resize
// CHECK: graph.resize %{{.+}} {scales = array<f64: 1.000000e+00, 1.000000e+00, 2.000000e+00, 2.000000e+00>, sizes = array<i64: -1, -1, 8, 8>} : tensor<?x3x4x4xf32> -> tensor<?x3x8x8xf32>
// CHECK: graph.resize %{{.+}} {antialias, coordinate_transformation_mode = "align_corners", cubic_coeff_a = -5.000000e-01 : f64, exclude_outside, mode = "cubic", scales = array<f64: 1.000000e+00, 5.000000e-01>, sizes = array<i64: 3, 2>} : tensor<3x4xf16> -> tensor<3x2xf16>
// CHECK: graph.resize %{{.+}} {coordinate_transformation_mode = "tf_crop_and_resize", extrapolation_value = 1.000000e+01 : f64, mode = "linear", roi = array<f64: 0.000000e+00, 2.000000e-01, 1.000000e+00, 8.000000e-01>, scales = array<f64: 1.000000e+00, 7.500000e-01>, sizes = array<i64: -1, 3>} : tensor<2x4xf32> -> tensor<2x3xf32>
func.func @resize(%x: tensor<?x3x4x4xf32>, %y: tensor<3x4xf16>, %z: tensor<2x4xf32>) -> (tensor<?x3x8x8xf32>, tensor<3x2xf16>, tensor<2x3xf32>) {
  %0 = graph.resize %x {sizes = array<i64: -1, -1, 8, 8>, scales = array<f64: 1.0, 1.0, 2.0, 2.0>, mode = "nearest"} : tensor<?x3x4x4xf32> -> tensor<?x3x8x8xf32>
  %1 = graph.resize %y {sizes = array<i64: 3, 2>, scales = array<f64: 1.0, 0.5>, mode = "cubic", coordinate_transformation_mode = "align_corners", cubic_coeff_a = -0.5, exclude_outside, antialias} : tensor<3x4xf16> -> tensor<3x2xf16>
  %2 = graph.resize %z {sizes = array<i64: -1, 3>, scales = array<f64: 1.0, 0.75>, mode = "linear", coordinate_transformation_mode = "tf_crop_and_resize", roi = array<f64: 0.0, 0.2, 1.0, 0.8>, extrapolation_value = 10.0} : tensor<2x4xf32> -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<?x3x8x8xf32>, tensor<3x2xf16>, tensor<2x3xf32>
}
