// bf16 and 8-bit float inputs and results for graphopt.load (bf16.test).
func.func @main(%a: tensor<4xbf16>, %b: tensor<4xf8E4M3FN>) -> (tensor<4xbf16>, tensor<4xf8E5M2>, tensor<4xf32>) {
  %bf = graph.cast %b : tensor<4xf8E4M3FN> -> tensor<4xbf16>
  %s = graph.add %a, %bf : tensor<4xbf16>, tensor<4xbf16> -> tensor<4xbf16>
  %f = graph.cast %a : tensor<4xbf16> -> tensor<4xf32>
  %e = graph.cast %f : tensor<4xf32> -> tensor<4xf8E5M2>
  return %s, %e, %f : tensor<4xbf16>, tensor<4xf8E5M2>, tensor<4xf32>
}
