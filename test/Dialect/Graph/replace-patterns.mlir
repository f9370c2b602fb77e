// RUN: graph-opt %s -split-input-file -verify-diagnostics \
// RUN:   --replace-patterns=%S/Inputs/replace-patterns-rules.mlir | FileCheck %s

// Every relu, whatever its shape, becomes max(x, 0.01 * x).
// CHECK-LABEL: func.func @relus
// CHECK-SAME: (%[[A:.+]]: tensor<4xf32>, %[[B:.+]]: tensor<2x3xf32>)
// CHECK-NOT: graph.relu
// CHECK: %[[S:.+]] = graph.constant dense<0.00999999977> : tensor<f32>
// CHECK: %[[M:.+]] = graph.mul %[[A]], %[[S]] : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
// CHECK: %[[R1:.+]] = graph.max %[[A]], %[[M]] : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
// CHECK: %[[M2:.+]] = graph.mul %[[B]], %{{.+}} : tensor<2x3xf32>, tensor<f32> -> tensor<2x3xf32>
// CHECK: %[[R2:.+]] = graph.max %[[B]], %[[M2]]
// CHECK: return %[[R1]], %[[R2]]
func.func @relus(%a: tensor<4xf32>, %b: tensor<2x3xf32>) -> (tensor<4xf32>, tensor<2x3xf32>) {
  %0 = graph.relu %a : tensor<4xf32> -> tensor<4xf32>
  %1 = graph.relu %b : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0, %1 : tensor<4xf32>, tensor<2x3xf32>
}

// -----

// Linear 10 -> 10 (the seed's MyModule) becomes the identity; the weight
// transpose and bias are gone.
// CHECK-LABEL: func.func @linear_square
// CHECK-SAME: (%[[X:.+]]: tensor<1x10xf32>, %{{.+}}: tensor<10x10xf32>, %{{.+}}: tensor<10xf32>)
// CHECK-NEXT: return %[[X]]
func.func @linear_square(%x: tensor<1x10xf32>, %w: tensor<10x10xf32>, %b: tensor<10xf32>) -> tensor<1x10xf32> {
  %wt = graph.transpose %w, [1, 0] : tensor<10x10xf32> -> tensor<10x10xf32>
  %y = graph.matmul %x, %wt : tensor<1x10xf32>, tensor<10x10xf32> -> tensor<1x10xf32>
  %r = graph.add %y, %b : tensor<1x10xf32>, tensor<10xf32> -> tensor<1x10xf32>
  return %r : tensor<1x10xf32>
}

// -----

// Linear 10 -> 20 matches, but the identity would change the result type:
// skipped, with a warning at the anchor.
// CHECK-LABEL: func.func @linear_wide
// CHECK: graph.matmul
// CHECK: graph.add
func.func @linear_wide(%x: tensor<1x10xf32>, %w: tensor<20x10xf32>, %b: tensor<20xf32>) -> tensor<1x20xf32> {
  %wt = graph.transpose %w, [1, 0] : tensor<20x10xf32> -> tensor<10x20xf32>
  %y = graph.matmul %x, %wt : tensor<1x10xf32>, tensor<10x20xf32> -> tensor<1x20xf32>
  // expected-warning @+1 {{pattern 'linear' matched but its replacement would change a result type; skipped}}
  %r = graph.add %y, %b : tensor<1x20xf32>, tensor<20xf32> -> tensor<1x20xf32>
  return %r : tensor<1x20xf32>
}

// -----

// A wildcard used twice must match one value twice: add(a, a) -> mul(a, 2)
// applies to the first add only.
// CHECK-LABEL: func.func @same_operand
// CHECK-SAME: (%[[A:.+]]: tensor<4xf32>, %[[B:.+]]: tensor<4xf32>)
// CHECK: %[[T:.+]] = graph.constant dense<2.000000e+00>
// CHECK: %[[D:.+]] = graph.mul %[[A]], %[[T]]
// CHECK: graph.add %[[D]], %[[B]]
func.func @same_operand(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.add %a, %a : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %1 = graph.add %0, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// exp(neg(x)) -> the pattern's inner value is also used elsewhere, so the
// match would delete a live value: not replaced.
// CHECK-LABEL: func.func @escaping_inner_value
// CHECK: graph.neg
// CHECK: graph.exp
func.func @escaping_inner_value(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %n = graph.neg %x : tensor<4xf32> -> tensor<4xf32>
  %e = graph.exp %n : tensor<4xf32> -> tensor<4xf32>
  return %e, %n : tensor<4xf32>, tensor<4xf32>
}

// -----

// Without the escaping use it is replaced.
// CHECK-LABEL: func.func @exp_neg
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>)
// CHECK: %[[R:.+]] = graph.exp %{{.+}} : tensor<4xf32>
// CHECK-NOT: graph.neg
func.func @exp_neg(%x: tensor<4xf32>) -> tensor<4xf32> {
  %n = graph.neg %x : tensor<4xf32> -> tensor<4xf32>
  %e = graph.exp %n : tensor<4xf32> -> tensor<4xf32>
  return %e : tensor<4xf32>
}
