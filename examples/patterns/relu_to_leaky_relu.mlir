// The seed's torch.fx rewrite: every ReLU becomes a leaky ReLU
// (negative slope 0.01), written as max(x, 0.01 * x).
//   graph-opt model.mlir --replace-patterns=examples/patterns/relu_to_leaky_relu.mlir
func.func @pattern_relu(%x: tensor<?xf32>) -> tensor<?xf32> {
  %r = graph.relu %x : tensor<?xf32> -> tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @replacement_relu(%x: tensor<?xf32>) -> tensor<?xf32> {
  %slope = graph.constant dense<0.01> : tensor<f32>
  %scaled = graph.mul %x, %slope : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  %r = graph.max %x, %scaled : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
  return %r : tensor<?xf32>
}
