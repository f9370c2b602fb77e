// RUN: graph-opt %s -graph-decompose | FileCheck %s

// scaled_dot_product_attention with a dynamic embedding dim E and no scale
// attribute has no static default scale (1/sqrt(E)), so graph-decompose
// leaves it alone; the pass succeeds. With a scale it decomposes.

// CHECK-LABEL: func.func @sdpa_dynamic_embedding
// CHECK-SAME: (%[[Q:.+]]: tensor<4x?xf32>, %[[K:.+]]: tensor<4x?xf32>, %[[V:.+]]: tensor<4x8xf32>)
// CHECK-NEXT: %[[O:.+]] = graph.scaled_dot_product_attention %[[Q]], %[[K]], %[[V]] : (tensor<4x?xf32>, tensor<4x?xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[O]]
func.func @sdpa_dynamic_embedding(%q: tensor<4x?xf32>, %k: tensor<4x?xf32>, %v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = graph.scaled_dot_product_attention %q, %k, %v : (tensor<4x?xf32>, tensor<4x?xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @sdpa_dynamic_embedding_scale
// CHECK: graph.constant dense<2.500000e-01>
// CHECK: graph.transpose
// CHECK: graph.matmul
// CHECK: graph.softmax
// CHECK-NOT: graph.scaled_dot_product_attention
func.func @sdpa_dynamic_embedding_scale(%q: tensor<4x?xf32>, %k: tensor<4x?xf32>, %v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = graph.scaled_dot_product_attention %q, %k, %v {scale = 0.25 : f64} : (tensor<4x?xf32>, tensor<4x?xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
