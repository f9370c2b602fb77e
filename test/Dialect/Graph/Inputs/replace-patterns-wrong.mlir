// A deliberately wrong rule: it claims relu(x) == abs(x).
func.func @pattern_relu(%x: tensor<?xf32>) -> tensor<?xf32> {
  %r = graph.relu %x : tensor<?xf32> -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @replacement_relu(%x: tensor<?xf32>) -> tensor<?xf32> {
  %r = graph.abs %x : tensor<?xf32> -> tensor<?xf32>
  return %r : tensor<?xf32>
}
