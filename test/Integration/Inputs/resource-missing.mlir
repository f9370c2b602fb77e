// Input of resource-constants-errors.test: a dense_resource without data.
func.func @missing(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %c = graph.constant dense_resource<nowhere> : tensor<2x2xf32>
  %y = graph.add %x, %c : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}
