// RUN: graph-opt %s -split-input-file -fusion-form-attention | FileCheck %s

// The PyTorch form: q @ k.transpose(-2, -1) / sqrt(d), softmax, @ v.
// CHECK-LABEL: func.func @torch_sdpa
// CHECK-SAME: (%[[Q:.+]]: tensor<2x4x8xf32>, %[[K:.+]]: tensor<2x6x8xf32>, %[[V:.+]]: tensor<2x6x5xf32>)
// CHECK-NEXT: %[[O:.+]] = fusion.attention %[[Q]], %[[K]], %[[V]] scale = 5.000000e-01 : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x5xf32>) -> tensor<2x4x5xf32>
// CHECK-NEXT: return %[[O]]
func.func @torch_sdpa(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x5xf32>) -> tensor<2x4x5xf32> {
  %kt = graph.transpose %k, [0, 2, 1] : tensor<2x6x8xf32> -> tensor<2x8x6xf32>
  %s = graph.matmul %q, %kt : tensor<2x4x8xf32>, tensor<2x8x6xf32> -> tensor<2x4x6xf32>
  %c = graph.constant dense<2.0> : tensor<f32>
  %ss = graph.div %s, %c : tensor<2x4x6xf32>, tensor<f32> -> tensor<2x4x6xf32>
  %p = graph.softmax %ss axis = 2 : tensor<2x4x6xf32> -> tensor<2x4x6xf32>
  %o = graph.matmul %p, %v : tensor<2x4x6xf32>, tensor<2x6x5xf32> -> tensor<2x4x5xf32>
  return %o : tensor<2x4x5xf32>
}

// -----

// Multiplicative scale and an additive mask.
// CHECK-LABEL: func.func @additive_mask
// CHECK: fusion.attention %{{.+}}, %{{.+}}, %{{.+}} mask(%{{.+}} : tensor<1x6xf32>) scale = 1.250000e-01
// CHECK-NOT: graph.softmax
func.func @additive_mask(%q: tensor<4x8xf32>, %k: tensor<6x8xf32>, %v: tensor<6x8xf32>, %m: tensor<1x6xf32>) -> tensor<4x8xf32> {
  %kt = graph.transpose %k, [1, 0] : tensor<6x8xf32> -> tensor<8x6xf32>
  %s = graph.matmul %q, %kt : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  %c = graph.constant dense<0.125> : tensor<f32>
  %ss = graph.mul %s, %c : tensor<4x6xf32>, tensor<f32> -> tensor<4x6xf32>
  %sm = graph.add %ss, %m : tensor<4x6xf32>, tensor<1x6xf32> -> tensor<4x6xf32>
  %p = graph.softmax %sm axis = 1 : tensor<4x6xf32> -> tensor<4x6xf32>
  %o = graph.matmul %p, %v : tensor<4x6xf32>, tensor<6x8xf32> -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// -----

// A boolean mask applied with select(mask, scores, -inf); no scaling.
// CHECK-LABEL: func.func @boolean_mask
// CHECK: fusion.attention %{{.+}}, %{{.+}}, %{{.+}} mask(%{{.+}} : tensor<4x6xi1>) scale = 1.000000e+00
func.func @boolean_mask(%q: tensor<4x8xf32>, %k: tensor<6x8xf32>, %v: tensor<6x8xf32>, %m: tensor<4x6xi1>) -> tensor<4x8xf32> {
  %kt = graph.transpose %k, [1, 0] : tensor<6x8xf32> -> tensor<8x6xf32>
  %s = graph.matmul %q, %kt : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  %ninf = graph.constant dense<0xFF800000> : tensor<f32>
  %sm = graph.select %m, %s, %ninf : tensor<4x6xi1>, tensor<4x6xf32>, tensor<f32> -> tensor<4x6xf32>
  %p = graph.softmax %sm axis = 1 : tensor<4x6xf32> -> tensor<4x6xf32>
  %o = graph.matmul %p, %v : tensor<4x6xf32>, tensor<6x8xf32> -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// -----

// Softmax on the wrong axis, or scores used twice: left alone.
// CHECK-LABEL: func.func @not_attention
// CHECK-NOT: fusion.attention
func.func @not_attention(%q: tensor<4x8xf32>, %k: tensor<6x8xf32>, %v: tensor<4x8xf32>) -> (tensor<6x8xf32>, tensor<4x6xf32>) {
  %kt = graph.transpose %k, [1, 0] : tensor<6x8xf32> -> tensor<8x6xf32>
  %s = graph.matmul %q, %kt : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  %p = graph.softmax %s axis = 0 : tensor<4x6xf32> -> tensor<4x6xf32>
  %pt = graph.transpose %p, [1, 0] : tensor<4x6xf32> -> tensor<6x4xf32>
  %o = graph.matmul %pt, %v : tensor<6x4xf32>, tensor<4x8xf32> -> tensor<6x8xf32>
  return %o, %s : tensor<6x8xf32>, tensor<4x6xf32>
}

// -----

// fusion-expand then fusion-form-attention gives attention back (the causal
// flag comes back as its constant mask).
// RUN: graph-opt %s -split-input-file -fusion-expand -fusion-form-attention | FileCheck %s --check-prefix=ROUND
// CHECK-LABEL: func.func @round_trip
// ROUND-LABEL: func.func @round_trip
// ROUND: fusion.attention %{{.+}}, %{{.+}}, %{{.+}} mask(%{{.+}} : tensor<3x3xi1>) scale = 0.353553{{[0-9]+}}
// ROUND-NOT: graph.softmax
func.func @round_trip(%q: tensor<2x3x8xf32>, %k: tensor<2x3x8xf32>, %v: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %r = fusion.attention %q, %k, %v causal : (tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}

// -----

// graph.scaled_dot_product_attention maps one to one: mask, causal flag and
// scale carry over; an absent scale stays absent (both default to 1/sqrt(E)).
// CHECK-LABEL: func.func @sdpa
// CHECK-SAME: (%[[Q:.+]]: tensor<1x2x4x8xf32>, %[[K:.+]]: tensor<1x2x6x8xf32>, %[[V:.+]]: tensor<1x2x6x5xf32>, %[[M:.+]]: tensor<4x6xi1>)
// CHECK: %[[A:.+]] = fusion.attention %[[Q]], %[[K]], %[[V]] mask(%[[M]] : tensor<4x6xi1>) causal scale = 2.500000e-01 : (tensor<1x2x4x8xf32>, tensor<1x2x6x8xf32>, tensor<1x2x6x5xf32>) -> tensor<1x2x4x5xf32>
// CHECK: %[[B:.+]] = fusion.attention %[[Q]], %[[K]], %[[V]] : (tensor<1x2x4x8xf32>, tensor<1x2x6x8xf32>, tensor<1x2x6x5xf32>) -> tensor<1x2x4x5xf32>
// CHECK: return %[[A]], %[[B]]
func.func @sdpa(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x6x8xf32>, %v: tensor<1x2x6x5xf32>, %m: tensor<4x6xi1>) -> (tensor<1x2x4x5xf32>, tensor<1x2x4x5xf32>) {
  %a = graph.scaled_dot_product_attention %q, %k, %v, %m {is_causal, scale = 0.25 : f64} : (tensor<1x2x4x8xf32>, tensor<1x2x6x8xf32>, tensor<1x2x6x5xf32>, tensor<4x6xi1>) -> tensor<1x2x4x5xf32>
  %b = graph.scaled_dot_product_attention %q, %k, %v : (tensor<1x2x4x8xf32>, tensor<1x2x6x8xf32>, tensor<1x2x6x5xf32>) -> tensor<1x2x4x5xf32>
  return %a, %b : tensor<1x2x4x5xf32>, tensor<1x2x4x5xf32>
}

// -----

// fusion.attention requires a positive scale (C8): a zero or negative one
// stays a graph op.
// CHECK-LABEL: func.func @sdpa_negative_scale
// CHECK-NOT: fusion.attention
// CHECK: graph.scaled_dot_product_attention
func.func @sdpa_negative_scale(%q: tensor<4x8xf32>, %k: tensor<6x8xf32>, %v: tensor<6x8xf32>) -> tensor<4x8xf32> {
  %o = graph.scaled_dot_product_attention %q, %k, %v {scale = -1.0 : f64} : (tensor<4x8xf32>, tensor<6x8xf32>, tensor<6x8xf32>) -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}
