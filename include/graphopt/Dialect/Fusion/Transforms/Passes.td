//===- Passes.td - fusion dialect passes --------------------*- tablegen -*-===//

#ifndef GRAPHOPT_DIALECT_FUSION_TRANSFORMS_PASSES_TD
#define GRAPHOPT_DIALECT_FUSION_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def FusionFormLinearPass : Pass<"fusion-form-linear"> {
  let summary = "Replace matmul + bias add [+ activation] by fusion.linear";
  let description = [{
    Matches `graph.matmul` of an activation `[..., K]` by a 2-D weight
    (optionally through `graph.transpose [1, 0]`, PyTorch's layout), followed
    by a `graph.add` of a 1-D bias `[N]` and optionally one activation
    (relu, gelu, gelu tanh, silu, sigmoid, tanh), and replaces the chain by
    one `fusion.linear`. Intermediate values used elsewhere block the match.
    The patterns are public (`populateFormLinearPatterns`).
  }];
  let dependentDialects = ["::mlir::graphopt::fusion::FusionDialect"];
  let statistics = [
    Statistic<"numFormed", "formed-linears", "Number of fusion.linear ops formed">
  ];
}

def FusionFormAttentionPass : Pass<"fusion-form-attention"> {
  let summary = "Replace the attention subgraph by fusion.attention";
  let description = [{
    Matches `matmul(softmax(scores, last axis), v)` where `scores` is
    `matmul(q, transpose(k))` (the transpose swapping the last two dims),
    scaled by a splat constant (`mul` by `c`, or `div` by `c`, giving scale
    `c` or `1/c`; no scaling gives scale 1), optionally followed by an
    additive mask (`add`) or a boolean one (`select(mask, scores, -inf)`),
    and replaces it by one `fusion.attention`. These are the forms PyTorch's
    and ONNX's exporters produce for scaled dot-product attention.
    Intermediate values used elsewhere block the match. It also rewrites
    `graph.scaled_dot_product_attention`, whose semantics are the same
    (mask kinds, default scale, causal alignment), into `fusion.attention`
    unless its scale is not positive. The patterns are public
    (`populateFormAttentionPatterns`).
  }];
  let dependentDialects = ["::mlir::graphopt::fusion::FusionDialect"];
  let statistics = [
    Statistic<"numFormed", "formed-attentions", "Number of fusion.attention ops formed">
  ];
}

def FusionExpandPass : Pass<"fusion-expand"> {
  let summary = "Expand fused kernels and groups back into graph ops";
  let description = [{
    Rewrites `fusion.linear` and `fusion.attention` into the graph ops that
    define them and inlines `fusion.group` bodies. This is how fusion ops
    without fused code generation are compiled: the CPU pipeline runs it
    after `convert-fusion-attention` (which lowers attention itself unless
    `flash-attention=false`).
  }];
  let dependentDialects = ["::mlir::graphopt::graph::GraphDialect"];
}

#endif // GRAPHOPT_DIALECT_FUSION_TRANSFORMS_PASSES_TD
