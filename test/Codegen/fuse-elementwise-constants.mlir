// RUN: graph-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(graph-fuse-elementwise))' | FileCheck %s

// A transposed f32 constant (a weight laid out for a matmul) is folded into
// the transposed constant: out[j][i] = in[i][j], worked out by hand.
// CHECK-LABEL: func.func @transpose_f32
// CHECK-NOT: linalg.transpose
// CHECK: %[[C:.+]] = arith.constant dense<{{\[}}[1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
// CHECK: return %[[C]]
func.func @transpose_f32() -> tensor<3x2xf32> {
  %c = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%c : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  return %t : tensor<3x2xf32>
}

// -----

// Rank 3: out[a][b][c] = in[b][c][a] for permutation [2, 0, 1], with
// in[b][c][a] = 100 b + 10 c + a.
// CHECK-LABEL: func.func @transpose_rank3
// CHECK-NOT: linalg.transpose
// CHECK: arith.constant dense<{{\[}}{{\[}}[0.000000e+00, 1.000000e+01], [1.000000e+02, 1.100000e+02]], {{\[}}[1.000000e+00, 1.100000e+01], [1.010000e+02, 1.110000e+02]]]> : tensor<2x2x2xf32>
func.func @transpose_rank3() -> tensor<2x2x2xf32> {
  %c = arith.constant dense<[[[0.0, 1.0], [10.0, 11.0]], [[100.0, 101.0], [110.0, 111.0]]]> : tensor<2x2x2xf32>
  %e = tensor.empty() : tensor<2x2x2xf32>
  %t = linalg.transpose ins(%c : tensor<2x2x2xf32>) outs(%e : tensor<2x2x2xf32>) permutation = [2, 0, 1]
  return %t : tensor<2x2x2xf32>
}

// -----

// Other element types go through Linalg's own constant folder.
// CHECK-LABEL: func.func @transpose_i32
// CHECK-NOT: linalg.transpose
// CHECK: arith.constant dense<{{\[}}[1, 3], [2, 4]]> : tensor<2x2xi32>
func.func @transpose_i32() -> tensor<2x2xi32> {
  %c = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %e = tensor.empty() : tensor<2x2xi32>
  %t = linalg.transpose ins(%c : tensor<2x2xi32>) outs(%e : tensor<2x2xi32>) permutation = [1, 0]
  return %t : tensor<2x2xi32>
}
