func.func @pattern_a(%x: tensor<?xf32>) -> tensor<?xf32> {
  %s = graph.sigmoidd %x : tensor<?xf32> -> tensor<?xf32>
  return %s : tensor<?xf32>
}
