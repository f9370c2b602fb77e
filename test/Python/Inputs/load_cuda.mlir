// The program of load-cuda.test and load-cuda-gpu.test: a broadcast add, a
// ReLU and a max over a dynamic number of rows.
func.func @main(%x: tensor<?x4xf32>, %b: tensor<4xf32>) -> (tensor<?x4xf32>, tensor<4xf32>) {
  %s = graph.add %x, %b : tensor<?x4xf32>, tensor<4xf32> -> tensor<?x4xf32>
  %r = graph.relu %s : tensor<?x4xf32> -> tensor<?x4xf32>
  %m = graph.reduce max %x axes = [0] : tensor<?x4xf32> -> tensor<4xf32>
  return %r, %m : tensor<?x4xf32>, tensor<4xf32>
}
