// A small model for the ahead-of-time example (docs/AOT.md):
// relu(x @ w + b) with constant weights.
//   w = [[1, 0], [0, 1], [1, -1]], b = [0.5, -10]
// For x = [[1, 2, 3], [4, 5, 6]] the result is [[4.5, 0], [10.5, 0]]
// (x @ w = [[4, -1], [10, -1]]).
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  %w = graph.constant dense<[[1.0, 0.0], [0.0, 1.0], [1.0, -1.0]]> : tensor<3x2xf32>
  %b = graph.constant dense<[0.5, -10.0]> : tensor<2xf32>
  %m = graph.matmul %x, %w : tensor<2x3xf32>, tensor<3x2xf32> -> tensor<2x2xf32>
  %a = graph.add %m, %b : tensor<2x2xf32>, tensor<2xf32> -> tensor<2x2xf32>
  %r = graph.relu %a : tensor<2x2xf32> -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
