// Input of resource-constants-errors.test: resource data of the wrong size.
func.func @short(%x: tensor<2x2xf32>) -> tensor<3x2xf32> {
  %c = graph.constant dense_resource<w0> : tensor<3x2xf32>
  return %c : tensor<3x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      w0: "0x040000000000803F000000400000404000008040",
      mask: "0x0100000001000001"
    }
  }
#-}
