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

def FusionFormConvPass : Pass<"fusion-form-conv"> {
  let summary = "Fold batch norm, bias and activation into fusion.conv2d";
  let description = [{
    Rewrites `graph.conv2d` followed by an inference `graph.batch_norm` with
    constant statistics (folded into the weight and bias at compile time:
    `W' = W * gamma / sqrt(var + eps)`, `b' = (b - mean) * gamma /
    sqrt(var + eps) + beta`), by a per-channel constant bias add, and/or by
    an activation (relu, gelu, silu, sigmoid, tanh) into one
    `fusion.conv2d`. The folds need f32 constant weights; with weights as
    function arguments only the activation is absorbed. The patterns are
    public (`populateFormConvPatterns`).
  }];
  let dependentDialects = ["::mlir::graphopt::fusion::FusionDialect"];
  let statistics = [
    Statistic<"numFormed", "formed-convs", "Number of fusion.conv2d ops in the result">
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

def FusionFormGroupsPass : Pass<"fusion-form-groups", "::mlir::ModuleOp"> {
  let summary = "Group producer-consumer chains into fusion.group kernels";
  let description = [{
    Plans fusion for every function (one linear walk, union-find; see
    docs/Dialects/FusionRationale.md for the rules and the cost model) and
    wraps each planned group of two or more ops into a `fusion.group`:
    `loop` groups of elementwise ops (and the broadcasts/transposes they
    read), `input` groups rooted at a reduction with its elementwise
    producers and the normalization consumers (softmax, layer norm), and
    `output` groups of a contraction (matmul, conv2d, fusion.linear) with
    its elementwise epilogue. A producer with several consumers is
    recomputed in each consumer's group when the arithmetic it repeats is
    worth less than the memory traffic it saves, and left unfused otherwise.

    `report=FILE` writes the fusion report: every producer -> consumer edge,
    fused or not, the rule or cost term that decided, and the source
    locations; JSON when `report-format=json` or the file name ends in
    `.json`, text otherwise; `-` is stderr. graph-opt's
    `--fusion-report=FILE` is shorthand for it. `report-only` plans and
    reports without rewriting.
  }];
  let options = [
    Option<"report", "report", "std::string", /*default=*/"",
           "Write the fusion report to this file ('-': stderr)">,
    Option<"reportFormat", "report-format", "std::string", /*default=*/"",
           "Report format: 'json' or 'text' (default: by file extension)">,
    Option<"reportOnly", "report-only", "bool", /*default=*/"false",
           "Plan and report, but do not rewrite">,
    Option<"flopsPerByte", "flops-per-byte", "double", /*default=*/"2.0",
           "Cost model: arithmetic worth one byte of memory traffic saved">,
    Option<"maxGroupSize", "max-group-size", "unsigned", /*default=*/"64",
           "Largest number of ops in one group">
  ];
  let statistics = [
    Statistic<"numGroups", "groups", "Number of fusion groups formed">
  ];
  let dependentDialects = ["::mlir::graphopt::fusion::FusionDialect"];
}

def FusionTileAndFusePass : Pass<"fusion-tile-and-fuse"> {
  let summary = "Generate each fusion.group as one tiled loop nest";
  let description = [{
    Runs once the group bodies are on linalg (after
    `convert-graph-to-linalg`): tiles the op that computes a group's result
    and fuses every producer inside the group into the tile loop, so fused
    intermediates exist only as tiles and never as full-size buffers.
    `output` groups (contraction + epilogue) are tiled up to 256 x 256 over the
    last two dims (a one-row output, a matrix-vector product, into one
    column tile per thread instead; on several threads, columns cut
    narrower, in multiples of 32, where that makes the tile count a
    multiple of the thread count: a 768-column output is 4 tiles of 192 on
    2 threads, not 3 of 256), `input` groups (reductions with their producers and
    normalization consumers) in rows of 16 over the dims no reduction runs
    over; `loop` groups are already one loop nest. An `output` group whose
    convolution was lowered to a loop over images (a static batch above 1)
    has its elementwise epilogue fused into that loop instead, and tiled
    there like a batch-1 group when each image is an im2col or pointwise
    matmul. Groups are then inlined, and each image's result is computed in
    its slice of the loop's result rather than in a temporary copied there.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::linalg::LinalgDialect"];
  let options = [
    Option<"threads", "threads", "int64_t", /*default=*/"1",
           "Threads the generated code runs on: a one-row output group is "
           "tiled into that many column tiles (at least 256 columns each), "
           "other output groups into a multiple of that many tiles where "
           "whole 32-column panels allow">
  ];
  let statistics = [
    Statistic<"numTiled", "tiled-groups", "Number of groups tiled and fused">
  ];
}

def FusionExpandPass : Pass<"fusion-expand"> {
  let summary = "Expand fused kernels and groups back into graph ops";
  let description = [{
    Rewrites `fusion.linear` and `fusion.attention` into the graph ops that
    define them and inlines `fusion.group` bodies. This is how fusion ops
    without fused code generation are compiled: the CPU pipeline runs it
    after `convert-fusion-attention` (which lowers attention itself unless
    `flash-attention=false`), with `inline-groups=false` when fusion is on
    (groups are then generated by `fusion-tile-and-fuse`).
  }];
  let options = [
    Option<"inlineGroups", "inline-groups", "bool", /*default=*/"true",
           "Inline fusion.group bodies too">
  ];
  let dependentDialects = ["::mlir::graphopt::graph::GraphDialect"];
}

#endif // GRAPHOPT_DIALECT_FUSION_TRANSFORMS_PASSES_TD
