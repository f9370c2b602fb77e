func.func @pattern_lonely(%x: tensor<?xf32>) -> tensor<?xf32> {
  %r = graph.relu %x : tensor<?xf32> -> tensor<?xf32>
  return %r : tensor<?xf32>
}
