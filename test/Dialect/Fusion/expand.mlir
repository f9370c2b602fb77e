// RUN: graph-opt %s -split-input-file -fusion-expand | FileCheck %s

// CHECK-LABEL: func.func @linear
// CHECK-SAME: (%[[X:.+]]: tensor<4x10xf32>, %[[W:.+]]: tensor<20x10xf32>, %[[B:.+]]: tensor<20xf32>)
// CHECK: %[[T:.+]] = graph.transpose %[[W]], [1, 0] : tensor<20x10xf32> -> tensor<10x20xf32>
// CHECK: %[[M:.+]] = graph.matmul %[[X]], %[[T]]
// CHECK: %[[A:.+]] = graph.add %[[M]], %[[B]]
// CHECK: %[[S:.+]] = graph.silu %[[A]]
// CHECK: return %[[S]]
func.func @linear(%x: tensor<4x10xf32>, %w: tensor<20x10xf32>, %b: tensor<20xf32>) -> tensor<4x20xf32> {
  %r = fusion.linear %x, %w, %b transpose_weight activation = silu : (tensor<4x10xf32>, tensor<20x10xf32>, tensor<20xf32>) -> tensor<4x20xf32>
  return %r : tensor<4x20xf32>
}

// -----

// softmax(q k^T / sqrt(8), masked causally) v.
// CHECK-LABEL: func.func @attention
// CHECK: %[[KT:.+]] = graph.transpose %{{.+}}, [0, 2, 1] : tensor<2x3x8xf32> -> tensor<2x8x3xf32>
// CHECK: %[[S:.+]] = graph.matmul %{{.+}}, %[[KT]] : tensor<2x3x8xf32>, tensor<2x8x3xf32> -> tensor<2x3x3xf32>
// CHECK: %[[C:.+]] = graph.constant dense<0.353553385> : tensor<f32>
// CHECK: %[[SC:.+]] = graph.mul %[[S]], %[[C]]
// CHECK: graph.constant dense<{{\[}}[true, false, false], [true, true, false], [true, true, true]]> : tensor<3x3xi1>
// CHECK: %[[MS:.+]] = graph.select
// CHECK: %[[P:.+]] = graph.softmax %[[MS]] axis = 2
// CHECK: graph.matmul %[[P]], %{{.+}} : tensor<2x3x3xf32>, tensor<2x3x4xf32> -> tensor<2x3x4xf32>
func.func @attention(%q: tensor<2x3x8xf32>, %k: tensor<2x3x8xf32>, %v: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %r = fusion.attention %q, %k, %v causal : (tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}

// -----

// CHECK-LABEL: func.func @group
// CHECK-SAME: (%[[A:.+]]: tensor<4xf32>, %[[B:.+]]: tensor<4xf32>)
// CHECK-NEXT: %[[S:.+]] = graph.add %[[A]], %[[B]]
// CHECK-NEXT: %[[R:.+]] = graph.relu %[[S]]
// CHECK-NEXT: return %[[R]]
func.func @group(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = fusion.group loop (%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>, %y: tensor<4xf32>):
    %s = graph.add %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
    %t = graph.relu %s : tensor<4xf32> -> tensor<4xf32>
    fusion.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
