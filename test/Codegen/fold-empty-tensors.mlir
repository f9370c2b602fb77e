// RUN: graph-opt %s --pass-pipeline="builtin.module(func.func(graph-fold-empty-tensors))" | FileCheck %s

// A pad and an elementwise op of tensors without elements become
// tensor.empty; the op with elements and the one with side effects stay.
// CHECK-LABEL: func.func @empty
// CHECK-NOT:     tensor.pad
// CHECK-NOT:     linalg.generic
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<0x3x4x2xf32>
// CHECK:         %[[F:.*]] = linalg.fill {{.*}} -> tensor<2x2xf32>
// CHECK:         return %[[E]], %[[F]]
func.func @empty(%x: tensor<0x3x4x1xf32>, %y: tensor<2x2xf32>) -> (tensor<0x3x4x2xf32>, tensor<2x2xf32>) {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<0x3x4x1xf32>
  %neg = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<0x3x4x1xf32>) outs(%e : tensor<0x3x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<0x3x4x1xf32>
  %p = tensor.pad %neg low[0, 0, 0, 1] high[0, 0, 0, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %cst : f32
  } : tensor<0x3x4x1xf32> to tensor<0x3x4x2xf32>
  %f = linalg.fill ins(%cst : f32) outs(%y : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %p, %f : tensor<0x3x4x2xf32>, tensor<2x2xf32>
}
