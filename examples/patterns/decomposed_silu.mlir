// A decomposed SiLU, x * sigmoid(x), as exporters write it, becomes the
// graph.silu op. This rewrite preserves results, so it passes
// --verify-rewrites:
//   graph-opt model.mlir --replace-patterns=examples/patterns/decomposed_silu.mlir --verify-rewrites
func.func @pattern_silu(%x: tensor<?xf32>) -> tensor<?xf32> {
  %s = graph.sigmoid %x : tensor<?xf32> -> tensor<?xf32>
  %r = graph.mul %x, %s : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @replacement_silu(%x: tensor<?xf32>) -> tensor<?xf32> {
  %r = graph.silu %x : tensor<?xf32> -> tensor<?xf32>
  return %r : tensor<?xf32>
}
