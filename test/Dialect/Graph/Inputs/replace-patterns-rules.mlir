// Rules for replace-patterns.mlir, applied in this order.
func.func @pattern_relu(%x: tensor<?xf32>) -> tensor<?xf32> {
  %r = graph.relu %x : tensor<?xf32> -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @replacement_relu(%x: tensor<?xf32>) -> tensor<?xf32> {
  %slope = graph.constant dense<0.01> : tensor<f32>
  %s = graph.mul %x, %slope : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  %r = graph.max %x, %s : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @pattern_linear(%x: tensor<?x?xf32>, %w: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %wt = graph.transpose %w, [1, 0] : tensor<?x?xf32> -> tensor<?x?xf32>
  %y = graph.matmul %x, %wt : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
  %r = graph.add %y, %b : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @replacement_linear(%x: tensor<?x?xf32>, %w: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  return %x : tensor<?x?xf32>
}

func.func @pattern_double(%a: tensor<?xf32>) -> tensor<?xf32> {
  %r = graph.add %a, %a : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @replacement_double(%a: tensor<?xf32>) -> tensor<?xf32> {
  %two = graph.constant dense<2.0> : tensor<f32>
  %r = graph.mul %a, %two : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @pattern_exp_neg(%x: tensor<?xf32>) -> tensor<?xf32> {
  %n = graph.neg %x : tensor<?xf32> -> tensor<?xf32>
  %e = graph.exp %n : tensor<?xf32> -> tensor<?xf32>
  return %e : tensor<?xf32>
}
func.func @replacement_exp_neg(%x: tensor<?xf32>) -> tensor<?xf32> {
  %zero = graph.constant dense<0.0> : tensor<f32>
  %n = graph.sub %zero, %x : tensor<f32>, tensor<?xf32> -> tensor<?xf32>
  %e = graph.exp %n : tensor<?xf32> -> tensor<?xf32>
  return %e : tensor<?xf32>
}
