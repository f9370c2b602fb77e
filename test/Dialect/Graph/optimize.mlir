// RUN: graph-opt %s -graph-optimize -split-input-file | FileCheck %s
// RUN: graph-opt %s -graph-optimize-pipeline -split-input-file | FileCheck %s
// RUN: graph-opt %s --pass-pipeline='builtin.module(graph-optimize-pipeline)' -split-input-file | FileCheck %s
// The result is a fixed point: optimizing it again changes nothing.
// RUN: graph-opt %s -graph-optimize -split-input-file | graph-opt -graph-optimize -split-input-file | FileCheck %s
// RUN: graph-opt %s --pass-pipeline='builtin.module(graph-optimize-pipeline{fold-size-limit=4})' -split-input-file | FileCheck %s --check-prefix=LIMIT
// RUN: graph-opt %s --pass-pipeline='builtin.module(graph-optimize{max-iterations=0})' -split-input-file | FileCheck %s --check-prefix=NONE

// The compare has a dynamic result: only once refined to tensor<2xi1> can it
// be folded, to [1 > 0, 2 > 1] = splat true; the select of a splat-true
// condition is its on_true value, %a, and %a + %b = [1, 3] folds in turn.
// The function result type follows.
// CHECK-LABEL: func.func @refine_fold_simplify
// CHECK-SAME: (%{{.+}}: tensor<2xi32>) -> tensor<2xi32>
// CHECK-NEXT: %[[C:.+]] = graph.constant dense<[1, 3]> : tensor<2xi32>
// CHECK-NEXT: return %[[C]] : tensor<2xi32>
// NONE-LABEL: func.func @refine_fold_simplify
// NONE-SAME: -> tensor<?xi32>
// NONE: graph.compare
// NONE: graph.select
// NONE: graph.add
func.func @refine_fold_simplify(%x: tensor<2xi32>) -> tensor<?xi32> {
  %a = graph.constant dense<[1, 2]> : tensor<2xi32>
  %b = graph.constant dense<[0, 1]> : tensor<2xi32>
  %cond = graph.compare gt, %a, %b : tensor<2xi32>, tensor<2xi32> -> tensor<?xi1>
  %sel = graph.select %cond, %a, %x : tensor<?xi1>, tensor<2xi32>, tensor<2xi32> -> tensor<?xi32>
  %sum = graph.add %sel, %b : tensor<?xi32>, tensor<2xi32> -> tensor<?xi32>
  return %sum : tensor<?xi32>
}

// -----

// a - a folds to 0 and a / a to 1 once their types are static; then x + 0,
// x * 1 and the identity transpose all reduce to x.
// CHECK-LABEL: func.func @identities_after_folding
// CHECK-SAME: (%[[X:.+]]: tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT: return %[[X]] : tensor<4xi32>
func.func @identities_after_folding(%x: tensor<4xi32>) -> tensor<?xi32> {
  %a = graph.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %zero = graph.sub %a, %a : tensor<4xi32>, tensor<4xi32> -> tensor<?xi32>
  %r = graph.add %x, %zero : tensor<4xi32>, tensor<?xi32> -> tensor<?xi32>
  %one = graph.div %a, %a : tensor<4xi32>, tensor<4xi32> -> tensor<?xi32>
  %m = graph.mul %one, %r : tensor<?xi32>, tensor<?xi32> -> tensor<?xi32>
  %t = graph.transpose %m, [0] : tensor<?xi32> -> tensor<?xi32>
  return %t : tensor<?xi32>
}

// -----

// CSE merges the two exps; the unused private function is removed.
// CHECK-NOT: func.func private @unused
// CHECK-LABEL: func.func @cse_dce
// CHECK-SAME: (%[[X:.+]]: tensor<8xf32>)
// CHECK-NEXT: %[[E:.+]] = graph.exp %[[X]] : tensor<8xf32> -> tensor<8xf32>
// CHECK-NEXT: %[[M:.+]] = graph.mul %[[E]], %[[E]]
// CHECK-NEXT: return %[[M]]
func.func private @unused(%x: tensor<8xf32>) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}
func.func @cse_dce(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = graph.exp %x : tensor<8xf32> -> tensor<8xf32>
  %1 = graph.exp %x : tensor<8xf32> -> tensor<8xf32>
  %dead = graph.tanh %x : tensor<8xf32> -> tensor<8xf32>
  %2 = graph.mul %0, %1 : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

// A dynamic input stays dynamic; its static-shaped constants still fold
// (3 * [1, 2] = [3, 6]) and a transpose pair cancels.
// CHECK-LABEL: func.func @dynamic_input
// CHECK-SAME: (%[[X:.+]]: tensor<?x2xf32>) -> tensor<?x2xf32>
// CHECK: %[[C:.+]] = graph.constant dense<[3.000000e+00, 6.000000e+00]> : tensor<2xf32>
// CHECK: %[[R:.+]] = graph.add %[[X]], %[[C]] : tensor<?x2xf32>, tensor<2xf32> -> tensor<?x2xf32>
// CHECK-NOT: graph.transpose
// CHECK: return %[[R]]
// The 2-element constant is within the limit of 4.
// LIMIT-LABEL: func.func @dynamic_input
// LIMIT: graph.constant dense<[3.000000e+00, 6.000000e+00]> : tensor<2xf32>
// LIMIT-NOT: graph.mul
func.func @dynamic_input(%x: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %c = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %three = graph.constant dense<3.0> : tensor<f32>
  %s = graph.mul %three, %c : tensor<f32>, tensor<2xf32> -> tensor<?xf32>
  %t = graph.transpose %x, [1, 0] : tensor<?x2xf32> -> tensor<2x?xf32>
  %u = graph.transpose %t, [1, 0] : tensor<2x?xf32> -> tensor<?x2xf32>
  %r = graph.add %u, %s : tensor<?x2xf32>, tensor<?xf32> -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}

// -----

// fold-size-limit bounds the constants the optimizer creates that are
// larger than their operands: [1..6] + [[0], [10]] broadcasts to twelve
// elements, over the limit (4) and over either operand's six and two.
// [1..6] + 1 has no more elements than [1..6], which the program holds
// already: it folds whatever the limit.
// CHECK-LABEL: func.func @size_limit
// CHECK-DAG: %[[C:.+]] = graph.constant dense<[2, 3, 4, 5, 6, 7]> : tensor<6xi64>
// CHECK-DAG: %[[B:.+]] = graph.constant dense<{{\[\[}}1, 2, 3, 4, 5, 6], [11, 12, 13, 14, 15, 16]]> : tensor<2x6xi64>
// CHECK: return %[[C]], %[[B]]
// LIMIT-LABEL: func.func @size_limit
// LIMIT-DAG: %[[C:.+]] = graph.constant dense<[2, 3, 4, 5, 6, 7]> : tensor<6xi64>
// LIMIT-DAG: %[[A:.+]] = graph.add
// LIMIT: return %[[C]], %[[A]]
func.func @size_limit() -> (tensor<?xi64>, tensor<2x6xi64>) {
  %a = graph.constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi64>
  %one = graph.constant dense<1> : tensor<i64>
  %0 = graph.add %a, %one : tensor<6xi64>, tensor<i64> -> tensor<?xi64>
  %b = graph.constant dense<[[0], [10]]> : tensor<2x1xi64>
  %1 = graph.add %a, %b : tensor<6xi64>, tensor<2x1xi64> -> tensor<2x6xi64>
  return %0, %1 : tensor<?xi64>, tensor<2x6xi64>
}
