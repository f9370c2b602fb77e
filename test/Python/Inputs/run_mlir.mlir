// Input of run-mlir.test.
func.func @main(%x: tensor<4x8xf32>, %y: tensor<8x3xf32>) -> tensor<4x3xf32> {
  %m = graph.matmul %x, %y : tensor<4x8xf32>, tensor<8x3xf32> -> tensor<4x3xf32>
  %r = graph.relu %m : tensor<4x3xf32> -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
