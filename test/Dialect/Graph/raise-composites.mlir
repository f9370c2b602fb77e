// RUN: graph-opt %s -split-input-file --graph-raise-composites | FileCheck %s

// CHECK-LABEL: func.func @silu
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>)
// CHECK-NEXT: %[[A:.+]] = graph.silu %[[X]] : tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT: %[[B:.+]] = graph.silu %[[X]] : tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT: return %[[A]], %[[B]]
func.func @silu(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %s = graph.sigmoid %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %a = graph.mul %x, %s : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %b = graph.mul %s, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %a, %b : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// The sigmoid of another value: not a SiLU.
// CHECK-LABEL: func.func @not_silu
// CHECK: graph.sigmoid
// CHECK: graph.mul
func.func @not_silu(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %s = graph.sigmoid %y : tensor<4xf32> -> tensor<4xf32>
  %r = graph.mul %x, %s : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Broadcasting x * 0.5 against a wider constant changes the shape: the
// result type is not x's, so no match.
// CHECK-LABEL: func.func @gelu_broadcast
// CHECK-NOT: graph.gelu
// CHECK: graph.erf
func.func @gelu_broadcast(%x: tensor<4xf32>) -> tensor<3x4xf32> {
  %half = graph.constant dense<0.5> : tensor<3x4xf32>
  %k = graph.constant dense<0.70710677> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %h = graph.mul %x, %half : tensor<4xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
  %s = graph.mul %x, %k : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  %e = graph.erf %s : tensor<4xf32> -> tensor<4xf32>
  %p = graph.add %e, %one : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  %g = graph.mul %h, %p : tensor<3x4xf32>, tensor<4xf32> -> tensor<3x4xf32>
  return %g : tensor<3x4xf32>
}

// -----

// GELU, exact: x * 0.5 * (1 + erf(x * 1/sqrt(2))), and the x / sqrt(2)
// form with the factors swapped; f32 constants as exporters print them.
// CHECK-LABEL: func.func @gelu_erf
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>)
// CHECK-NEXT: %[[A:.+]] = graph.gelu %[[X]] : tensor<2x3xf32> -> tensor<2x3xf32>
// CHECK-NEXT: %[[B:.+]] = graph.gelu %[[X]] : tensor<2x3xf32> -> tensor<2x3xf32>
// CHECK-NEXT: return %[[A]], %[[B]]
func.func @gelu_erf(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %half = graph.constant dense<0.5> : tensor<f32>
  %k = graph.constant dense<0.70710677> : tensor<f32>
  %sqrt2 = graph.constant dense<1.41421354> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %h = graph.mul %x, %half : tensor<2x3xf32>, tensor<f32> -> tensor<2x3xf32>
  %s = graph.mul %x, %k : tensor<2x3xf32>, tensor<f32> -> tensor<2x3xf32>
  %e = graph.erf %s : tensor<2x3xf32> -> tensor<2x3xf32>
  %p = graph.add %e, %one : tensor<2x3xf32>, tensor<f32> -> tensor<2x3xf32>
  %a = graph.mul %h, %p : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %d = graph.div %x, %sqrt2 : tensor<2x3xf32>, tensor<f32> -> tensor<2x3xf32>
  %e2 = graph.erf %d : tensor<2x3xf32> -> tensor<2x3xf32>
  %p2 = graph.add %e2, %one : tensor<2x3xf32>, tensor<f32> -> tensor<2x3xf32>
  %b = graph.mul %p2, %h : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  return %a, %b : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// GELU, tanh approximation.
// CHECK-LABEL: func.func @gelu_tanh
// CHECK-SAME: (%[[X:.+]]: tensor<8xf32>)
// CHECK-NEXT: %[[G:.+]] = graph.gelu %[[X]] approximate = tanh : tensor<8xf32> -> tensor<8xf32>
// CHECK-NEXT: return %[[G]]
func.func @gelu_tanh(%x: tensor<8xf32>) -> tensor<8xf32> {
  %half = graph.constant dense<0.5> : tensor<f32>
  %three = graph.constant dense<3.0> : tensor<f32>
  %k = graph.constant dense<0.044715> : tensor<f32>
  %s = graph.constant dense<0.797884583> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %c = graph.pow %x, %three : tensor<8xf32>, tensor<f32> -> tensor<8xf32>
  %ck = graph.mul %c, %k : tensor<8xf32>, tensor<f32> -> tensor<8xf32>
  %i = graph.add %x, %ck : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
  %is = graph.mul %i, %s : tensor<8xf32>, tensor<f32> -> tensor<8xf32>
  %t = graph.tanh %is : tensor<8xf32> -> tensor<8xf32>
  %p = graph.add %t, %one : tensor<8xf32>, tensor<f32> -> tensor<8xf32>
  %h = graph.mul %x, %half : tensor<8xf32>, tensor<f32> -> tensor<8xf32>
  %g = graph.mul %h, %p : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
  return %g : tensor<8xf32>
}

// -----

// A wrong constant (0.6 instead of 0.5): not a GELU.
// CHECK-LABEL: func.func @not_gelu
// CHECK-NOT: graph.gelu
// CHECK: graph.erf
func.func @not_gelu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = graph.constant dense<0.6> : tensor<f32>
  %k = graph.constant dense<0.70710677> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %h = graph.mul %x, %c : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  %s = graph.mul %x, %k : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  %e = graph.erf %s : tensor<4xf32> -> tensor<4xf32>
  %p = graph.add %e, %one : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  %g = graph.mul %h, %p : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %g : tensor<4xf32>
}

// -----

// Layer norm as graph-decompose writes it; epsilon comes from the constant
// (1e-5 is the default, so not printed).
// CHECK-LABEL: func.func @layer_norm_decomposed
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x8xf32>, %[[W:.+]]: tensor<8xf32>, %[[B:.+]]: tensor<8xf32>)
// CHECK-NEXT: %[[L:.+]] = graph.layer_norm %[[X]], %[[W]], %[[B]] : (tensor<2x3x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x3x8xf32>
// CHECK-NEXT: return %[[L]]
func.func @layer_norm_decomposed(%x: tensor<2x3x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x3x8xf32> {
  %eps = graph.constant dense<9.99999974E-6> : tensor<f32>
  %m = graph.reduce mean %x axes = [2] keepdims : tensor<2x3x8xf32> -> tensor<2x3x1xf32>
  %d = graph.sub %x, %m : tensor<2x3x8xf32>, tensor<2x3x1xf32> -> tensor<2x3x8xf32>
  %sq = graph.mul %d, %d : tensor<2x3x8xf32>, tensor<2x3x8xf32> -> tensor<2x3x8xf32>
  %v = graph.reduce mean %sq axes = [2] keepdims : tensor<2x3x8xf32> -> tensor<2x3x1xf32>
  %ve = graph.add %v, %eps : tensor<2x3x1xf32>, tensor<f32> -> tensor<2x3x1xf32>
  %r = graph.rsqrt %ve : tensor<2x3x1xf32> -> tensor<2x3x1xf32>
  %n = graph.mul %d, %r : tensor<2x3x8xf32>, tensor<2x3x1xf32> -> tensor<2x3x8xf32>
  %s = graph.mul %n, %w : tensor<2x3x8xf32>, tensor<8xf32> -> tensor<2x3x8xf32>
  %y = graph.add %s, %b : tensor<2x3x8xf32>, tensor<8xf32> -> tensor<2x3x8xf32>
  return %y : tensor<2x3x8xf32>
}

// -----

// PyTorch's form, normalized over the last two dims, epsilon 1e-6.
// CHECK-LABEL: func.func @layer_norm_torch
// CHECK-NEXT: graph.layer_norm %{{.+}}, %{{.+}}, %{{.+}} {epsilon = 9.9999999999999995E-7 : f64} : (tensor<2x3x8xf32>, tensor<3x8xf32>, tensor<3x8xf32>) -> tensor<2x3x8xf32>
// CHECK-NEXT: return
func.func @layer_norm_torch(%x: tensor<2x3x8xf32>, %w: tensor<3x8xf32>, %b: tensor<3x8xf32>) -> tensor<2x3x8xf32> {
  %eps = graph.constant dense<1.0e-6> : tensor<f32>
  %two = graph.constant dense<2.0> : tensor<f32>
  %m = graph.reduce mean %x axes = [1, 2] keepdims : tensor<2x3x8xf32> -> tensor<2x1x1xf32>
  %d = graph.sub %x, %m : tensor<2x3x8xf32>, tensor<2x1x1xf32> -> tensor<2x3x8xf32>
  %sq = graph.pow %d, %two : tensor<2x3x8xf32>, tensor<f32> -> tensor<2x3x8xf32>
  %v = graph.reduce mean %sq axes = [1, 2] keepdims : tensor<2x3x8xf32> -> tensor<2x1x1xf32>
  %ve = graph.add %v, %eps : tensor<2x1x1xf32>, tensor<f32> -> tensor<2x1x1xf32>
  %sd = graph.sqrt %ve : tensor<2x1x1xf32> -> tensor<2x1x1xf32>
  %n = graph.div %d, %sd : tensor<2x3x8xf32>, tensor<2x1x1xf32> -> tensor<2x3x8xf32>
  %s = graph.mul %n, %w : tensor<2x3x8xf32>, tensor<3x8xf32> -> tensor<2x3x8xf32>
  %y = graph.add %s, %b : tensor<2x3x8xf32>, tensor<3x8xf32> -> tensor<2x3x8xf32>
  return %y : tensor<2x3x8xf32>
}

// -----

// Normalized over dim 1 only, not the trailing dims: not a layer norm.
// CHECK-LABEL: func.func @not_trailing
// CHECK-NOT: graph.layer_norm
// CHECK: graph.reduce mean
func.func @not_trailing(%x: tensor<2x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x8xf32> {
  %eps = graph.constant dense<1.0e-5> : tensor<f32>
  %m = graph.reduce mean %x axes = [0] keepdims : tensor<2x8xf32> -> tensor<1x8xf32>
  %d = graph.sub %x, %m : tensor<2x8xf32>, tensor<1x8xf32> -> tensor<2x8xf32>
  %sq = graph.mul %d, %d : tensor<2x8xf32>, tensor<2x8xf32> -> tensor<2x8xf32>
  %v = graph.reduce mean %sq axes = [0] keepdims : tensor<2x8xf32> -> tensor<1x8xf32>
  %ve = graph.add %v, %eps : tensor<1x8xf32>, tensor<f32> -> tensor<1x8xf32>
  %r = graph.rsqrt %ve : tensor<1x8xf32> -> tensor<1x8xf32>
  %n = graph.mul %d, %r : tensor<2x8xf32>, tensor<1x8xf32> -> tensor<2x8xf32>
  %s = graph.mul %n, %w : tensor<2x8xf32>, tensor<8xf32> -> tensor<2x8xf32>
  %y = graph.add %s, %b : tensor<2x8xf32>, tensor<8xf32> -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}

// -----

// A weight that only broadcasts (shape [1]) is not layer_norm's weight.
// CHECK-LABEL: func.func @broadcast_weight
// CHECK-NOT: graph.layer_norm
// CHECK: graph.rsqrt
func.func @broadcast_weight(%x: tensor<2x8xf32>, %w: tensor<1xf32>, %b: tensor<8xf32>) -> tensor<2x8xf32> {
  %eps = graph.constant dense<1.0e-5> : tensor<f32>
  %m = graph.reduce mean %x axes = [1] keepdims : tensor<2x8xf32> -> tensor<2x1xf32>
  %d = graph.sub %x, %m : tensor<2x8xf32>, tensor<2x1xf32> -> tensor<2x8xf32>
  %sq = graph.mul %d, %d : tensor<2x8xf32>, tensor<2x8xf32> -> tensor<2x8xf32>
  %v = graph.reduce mean %sq axes = [1] keepdims : tensor<2x8xf32> -> tensor<2x1xf32>
  %ve = graph.add %v, %eps : tensor<2x1xf32>, tensor<f32> -> tensor<2x1xf32>
  %r = graph.rsqrt %ve : tensor<2x1xf32> -> tensor<2x1xf32>
  %n = graph.mul %d, %r : tensor<2x8xf32>, tensor<2x1xf32> -> tensor<2x8xf32>
  %s = graph.mul %n, %w : tensor<2x8xf32>, tensor<1xf32> -> tensor<2x8xf32>
  %y = graph.add %s, %b : tensor<2x8xf32>, tensor<8xf32> -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}
