// ResNet's stem pooling on uint8 (a QDQ model's activations).
func.func @main(%x: tensor<1x64x112x112xui8>) -> tensor<1x64x56x56xui8> {
  %p = graph.max_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x64x112x112xui8>) -> tensor<1x64x56x56xui8>
  return %p : tensor<1x64x56x56xui8>
}
