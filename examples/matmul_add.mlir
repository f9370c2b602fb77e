// The seed example `my_function` (XLA / torch_xla article):
//
//   def my_function(x, y):
//     a = torch.matmul(x, y)
//     b = torch.add(a, x)
//     return b
//
// with x, y of shape 128x128, f32.
func.func @main(%x: tensor<128x128xf32>, %y: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %a = graph.matmul %x, %y : tensor<128x128xf32>, tensor<128x128xf32> -> tensor<128x128xf32>
  %b = graph.add %a, %x : tensor<128x128xf32>, tensor<128x128xf32> -> tensor<128x128xf32>
  return %b : tensor<128x128xf32>
}
