// Inputs of aot-checked.test.
//   scalar(x) = x * 2.5 + 0.0 for a rank-0 x: 3 -> 7.5.
//   mask(v) = v > 2 for v = [1, 5, 2, 3] -> [0, 1, 0, 1] (i1 as bytes); a
//   view of 3 elements is refused.
func.func @scalar(%x: tensor<f32>) -> tensor<f32> {
  %c = graph.constant dense<2.5> : tensor<f32>
  %y = graph.mul %x, %c : tensor<f32>, tensor<f32> -> tensor<f32>
  return %y : tensor<f32>
}
func.func @mask(%v: tensor<4xi32>) -> tensor<4xi1> {
  %c = graph.constant dense<2> : tensor<i32>
  %m = graph.compare gt, %v, %c : tensor<4xi32>, tensor<i32> -> tensor<4xi1>
  return %m : tensor<4xi1>
}
func.func @"not.c"(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
// A dynamic concat, whose operands are copied into column slices of the
// result (strided copies, once calls of MLIR's runtime memrefCopy).
func.func @concat(%x: tensor<?x3xf32>, %y: tensor<?x3xf32>) -> tensor<?x6xf32> {
  %r = graph.concat %x, %y axis = 1 : tensor<?x3xf32>, tensor<?x3xf32> -> tensor<?x6xf32>
  return %r : tensor<?x6xf32>
}
// A 64x64 matmul with ReLU, for objects compiled for a named CPU.
func.func @matmul(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %m = graph.matmul %x, %w : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  %r = graph.relu %m : tensor<64x64xf32> -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
