// A dynamic batch, two results: the model test/Python/load.test compiles ahead
// of time and loads with graphopt.load.
func.func @main(%x: tensor<?x4xf32>, %y: tensor<4x3xf32>) -> (tensor<?x3xf32>, tensor<?xf32>) {
  %m = graph.matmul %x, %y : tensor<?x4xf32>, tensor<4x3xf32> -> tensor<?x3xf32>
  %s = graph.reduce sum %x axes = [1] : tensor<?x4xf32> -> tensor<?xf32>
  return %m, %s : tensor<?x3xf32>, tensor<?xf32>
}
