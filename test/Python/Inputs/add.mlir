func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %a = graph.add %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %a : tensor<4xf32>
}
