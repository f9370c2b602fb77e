// The seed's torch.fx rewrite: nn.Linear (x @ W^T + b, as the importer
// writes it) becomes nn.Identity. The weight and bias are wildcards, so every
// Linear whose output has its input's shape is replaced.
//   graph-opt model.mlir --replace-patterns=examples/patterns/linear_to_identity.mlir
func.func @pattern_linear(%x: tensor<?x?xf32>, %w: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %wt = graph.transpose %w, [1, 0] : tensor<?x?xf32> -> tensor<?x?xf32>
  %y = graph.matmul %x, %wt : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
  %r = graph.add %y, %b : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @replacement_linear(%x: tensor<?x?xf32>, %w: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  return %x : tensor<?x?xf32>
}
