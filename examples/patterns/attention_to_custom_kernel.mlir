// The seed's "replace attention with a custom kernel": the attention
// subgraph softmax(q k^T / sqrt(d)) v, as PyTorch code spells it, becomes a
// call of a hand-written kernel (examples/kernels/scaled_attention.c).
//   cc -O2 -shared -fPIC examples/kernels/scaled_attention.c -o libattn.so -lm
//   graph-opt model.mlir --replace-patterns=examples/patterns/attention_to_custom_kernel.mlir -o out.mlir
//   graph-run out.mlir --shared-lib=./libattn.so ...
// The scale is a pattern argument (a wildcard): the kernel computes
// 1/sqrt(d) itself, so this pattern is only right where the model's scale is
// 1/sqrt(d) -- exactly what --verify-rewrites checks on every match.
func.func @pattern_attention(%q: tensor<?x?x?x?xf32>, %k: tensor<?x?x?x?xf32>,
                             %v: tensor<?x?x?x?xf32>, %scale: tensor<f32>)
    -> tensor<?x?x?x?xf32> {
  %kt = graph.transpose %k, [0, 1, 3, 2] : tensor<?x?x?x?xf32> -> tensor<?x?x?x?xf32>
  %s = graph.matmul %q, %kt : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32> -> tensor<?x?x?x?xf32>
  %ss = graph.mul %s, %scale : tensor<?x?x?x?xf32>, tensor<f32> -> tensor<?x?x?x?xf32>
  %p = graph.softmax %ss axis = 3 : tensor<?x?x?x?xf32> -> tensor<?x?x?x?xf32>
  %o = graph.matmul %p, %v : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32> -> tensor<?x?x?x?xf32>
  return %o : tensor<?x?x?x?xf32>
}

func.func @replacement_attention(%q: tensor<?x?x?x?xf32>, %k: tensor<?x?x?x?xf32>,
                                 %v: tensor<?x?x?x?xf32>, %scale: tensor<f32>)
    -> tensor<?x?x?x?xf32> {
  %o = fusion.custom_call @scaled_attention(%q, %k, %v)
      : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  return %o : tensor<?x?x?x?xf32>
}
