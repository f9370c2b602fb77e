// RUN: graph-opt %s -split-input-file -fusion-form-linear | FileCheck %s

// nn.Linear as importers write it, with its activation.
// CHECK-LABEL: func.func @torch_linear_gelu
// CHECK-SAME: (%[[X:.+]]: tensor<4x10xf32>, %[[W:.+]]: tensor<20x10xf32>, %[[B:.+]]: tensor<20xf32>)
// CHECK-NEXT: %[[R:.+]] = fusion.linear %[[X]], %[[W]], %[[B]] transpose_weight activation = gelu_tanh
// CHECK-NEXT: return %[[R]]
func.func @torch_linear_gelu(%x: tensor<4x10xf32>, %w: tensor<20x10xf32>, %b: tensor<20xf32>) -> tensor<4x20xf32> {
  %wt = graph.transpose %w, [1, 0] : tensor<20x10xf32> -> tensor<10x20xf32>
  %y = graph.matmul %x, %wt : tensor<4x10xf32>, tensor<10x20xf32> -> tensor<4x20xf32>
  %z = graph.add %y, %b : tensor<4x20xf32>, tensor<20xf32> -> tensor<4x20xf32>
  %r = graph.gelu %z approximate = tanh : tensor<4x20xf32> -> tensor<4x20xf32>
  return %r : tensor<4x20xf32>
}

// -----

// [K, N] weight, bias on the left of the add, relu; batched input.
// CHECK-LABEL: func.func @kn_weight_relu
// CHECK: fusion.linear %{{.+}}, %{{.+}}, %{{.+}} activation = relu : (tensor<2x4x10xf32>, tensor<10x20xf32>, tensor<20xf32>) -> tensor<2x4x20xf32>
// CHECK-NOT: graph.
func.func @kn_weight_relu(%x: tensor<2x4x10xf32>, %w: tensor<10x20xf32>, %b: tensor<20xf32>) -> tensor<2x4x20xf32> {
  %y = graph.matmul %x, %w : tensor<2x4x10xf32>, tensor<10x20xf32> -> tensor<2x4x20xf32>
  %z = graph.add %b, %y : tensor<20xf32>, tensor<2x4x20xf32> -> tensor<2x4x20xf32>
  %r = graph.relu %z : tensor<2x4x20xf32> -> tensor<2x4x20xf32>
  return %r : tensor<2x4x20xf32>
}

// -----

// The matmul result is used elsewhere: not fused.
// CHECK-LABEL: func.func @matmul_escapes
// CHECK: graph.matmul
// CHECK: graph.add
// CHECK-NOT: fusion.linear
func.func @matmul_escapes(%x: tensor<4x10xf32>, %w: tensor<10x20xf32>, %b: tensor<20xf32>) -> (tensor<4x20xf32>, tensor<4x20xf32>) {
  %y = graph.matmul %x, %w : tensor<4x10xf32>, tensor<10x20xf32> -> tensor<4x20xf32>
  %z = graph.add %y, %b : tensor<4x20xf32>, tensor<20xf32> -> tensor<4x20xf32>
  return %y, %z : tensor<4x20xf32>, tensor<4x20xf32>
}

// -----

// A 2-D addend is not a bias; an integer matmul is not fused either.
// CHECK-LABEL: func.func @not_bias
// CHECK-NOT: fusion.linear
func.func @not_bias(%x: tensor<4x10xf32>, %w: tensor<10x20xf32>, %c: tensor<4x20xf32>,
                   %xi: tensor<4x10xi32>, %wi: tensor<10x20xi32>, %bi: tensor<20xi32>) -> (tensor<4x20xf32>, tensor<4x20xi32>) {
  %y = graph.matmul %x, %w : tensor<4x10xf32>, tensor<10x20xf32> -> tensor<4x20xf32>
  %z = graph.add %y, %c : tensor<4x20xf32>, tensor<4x20xf32> -> tensor<4x20xf32>
  %yi = graph.matmul %xi, %wi : tensor<4x10xi32>, tensor<10x20xi32> -> tensor<4x20xi32>
  %zi = graph.add %yi, %bi : tensor<4x20xi32>, tensor<20xi32> -> tensor<4x20xi32>
  return %z, %zi : tensor<4x20xf32>, tensor<4x20xi32>
}
