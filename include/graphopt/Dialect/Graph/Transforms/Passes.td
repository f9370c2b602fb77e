//===- Passes.td - graph dialect passes ---------------------*- tablegen -*-===//

#ifndef GRAPHOPT_DIALECT_GRAPH_TRANSFORMS_PASSES_TD
#define GRAPHOPT_DIALECT_GRAPH_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def GraphRefineShapesPass : Pass<"graph-refine-shapes", "ModuleOp"> {
  let summary = "Propagate static shapes through dynamic dimensions";
  let description = [{
    Re-infers the result type of every `graph` op from its operands, in
    program order, and replaces a result type by the inferred one when that is
    more static (every static dim kept, some dynamic dims become static).
    Graph ops accept the refined values as they are; any other user (a call,
    a yield, the return of a function whose signature cannot change) gets a
    `tensor.cast` back to the old type. A function's result types follow
    what it returns when it has one block and no callers in the module.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect", "::mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"numRefined", "refined-values", "Number of values whose type was refined">
  ];
}

def GraphFoldConstantsPass : Pass<"graph-fold-constants"> {
  let summary = "Evaluate graph ops whose operands are all constants";
  let description = [{
    Folds ops with constant operands into `graph.constant`: elementwise
    arithmetic and comparisons, casts, transposes, reshapes, broadcasts,
    slices, concatenations and reductions. Results larger than
    `size-limit` elements are left unfolded, so that folding never blows up
    the size of the program, unless they are elementwise results of the
    shape of a non-splat operand (a weight's cast or dequantization: the
    program holds that many elements already, and the operand usually
    dies). Splat
    results are exempt: they cost one element whatever their shape (a
    broadcast of a scalar constant becomes a splat).
  }];
  let options = [
    Option<"sizeLimit", "size-limit", "int64_t", /*default=*/"1 << 16",
           "Largest result (in elements) that is folded into a constant">
  ];
  let statistics = [
    Statistic<"numFolded", "folded-ops", "Number of ops folded to constants">
  ];
}

def GraphDecomposePass : Pass<"graph-decompose"> {
  let summary = "Rewrite composite graph ops into simpler graph ops";
  let description = [{
    Expands the composite ops into the ops they are defined by, so that the
    lowering only needs the primitive ones: `graph.batch_norm` (to one
    multiply-add per channel), `graph.layer_norm` (reductions and
    elementwise ops), `graph.scaled_dot_product_attention` (matmul, scale,
    mask, softmax, matmul), `graph.split` (slices) and
    `graph.adaptive_avg_pool2d` (a mean, an `avg_pool2d`, or two matmuls with
    constant pooling matrices) and `graph.resize` (per resized dim, gathers
    at constant indices times constant weights). Run `graph-optimize` afterwards to fold the
    constant parts (e.g. batch-norm statistics). The patterns are available
    to other passes through `populateGraphDecompositionPatterns`.
  }];
}

def GraphOptimizePass : Pass<"graph-optimize", "ModuleOp"> {
  let summary = "Graph-level optimization to a fixed point";
  let description = [{
    Runs shape refinement, constant folding, canonicalization (the algebraic
    simplification patterns of the graph ops), CSE and symbol DCE, repeatedly,
    until the module stops changing or `max-iterations` is reached.
  }];
  let options = [
    Option<"maxIterations", "max-iterations", "unsigned", /*default=*/"8",
           "Upper bound on the number of rounds">,
    Option<"foldSizeLimit", "fold-size-limit", "int64_t", /*default=*/"1 << 16",
           "Largest result (in elements) that constant folding produces">
  ];
  let statistics = [
    Statistic<"numRounds", "rounds", "Number of rounds run">
  ];
}

def GraphReplacePatternsPass : Pass<"graph-replace-patterns", "ModuleOp"> {
  let summary = "Replace subgraphs by example (torch.fx replace_pattern)";
  let description = [{
    Loads `patterns-file`, an MLIR file of pairs of functions
    `@pattern_NAME` / `@replacement_NAME` with the same argument list, and
    rewrites every function of the module with them, with the semantics of
    `torch.fx.subgraph_rewriter.replace_pattern`:

    * pattern arguments are wildcards that match any value (an argument used
      twice must match the same value twice); ops match by name, attributes
      and operand structure; result types are not compared, so a pattern
      written for one shape matches every shape;
    * the match is anchored at the op producing the pattern's first returned
      value; every other op of the match may only be used inside the match;
    * matches are found in program order, pattern by pattern in file order,
      and never overlap;
    * the replacement's body is inlined with its arguments bound to what the
      wildcards matched, graph ops re-infer their result types, and the
      replacement's returned values replace the pattern's. A match whose
      replacement would change a result type is skipped with a warning.

    With `verify-rewrites`, every match is checked before it is applied:
    the matched subgraph and its replacement are extracted as functions of
    the wildcards (typed as matched; dynamic dims set to 5), JIT-compiled for
    the host CPU and run on the same inputs — seeded random values, zeros,
    large magnitudes and negative values. If any output differs beyond the
    tolerance of its element type (f32: rtol 1e-4, atol 1e-5; f16: 1e-2;
    bf16: 5e-2; integers exact) the rewrite is not applied and a warning
    names the pattern, the location, the input set and the worst element.

    `graph-opt --replace-patterns=FILE [--verify-rewrites]` is a shorthand
    for this pass.
  }];
  let options = [
    Option<"patternsFile", "patterns-file", "std::string", /*default=*/"\"\"",
           "MLIR file with @pattern_NAME / @replacement_NAME functions">,
    Option<"report", "report", "bool", /*default=*/"false",
           "Print each replacement (pattern, function, location) to stderr">,
    Option<"verifyRewrites", "verify-rewrites", "bool", /*default=*/"false",
           "Check every rewrite numerically by JIT-running both sides; "
           "reject those that differ">
  ];
  let statistics = [
    Statistic<"numReplaced", "replaced-subgraphs", "Number of subgraphs replaced">,
    Statistic<"numRejected", "rejected-rewrites", "Number of rewrites rejected by verify-rewrites">
  ];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def GraphApplyPDLPatternsPass : Pass<"graph-apply-pdl-patterns", "ModuleOp"> {
  let summary = "Apply rewrite rules written in PDLL or PDL, loaded at run time";
  let description = [{
    Loads `patterns-file` and applies its patterns to every function of the
    module, greedily and top-down, until none applies (at most 10 sweeps).
    No rebuild is needed to add or change a rule.

    * A `.pdll` file is translated to the PDL dialect by running
      `mlir-pdll -x=mlir` (MLIR's PDLL parser is not a library the Debian
      packages ship). Its `#include`s are searched in `include-dirs`, then
      graphopt's include directory (`graphopt/Dialect/Graph/IR/GraphOps.td`,
      `graphopt/Dialect/Fusion/IR/FusionOps.td`,
      `graphopt/Dialect/Graph/Transforms/GraphPatterns.pdll`) and MLIR's.
      If mlir-pdll rejects the file, its diagnostics are printed and the
      pass fails. The tool is `mlir-pdll` if given, else the one found when
      graphopt was configured, else `mlir-pdll-22` or `mlir-pdll` on PATH.
    * Any other file is parsed as MLIR holding `pdl.pattern` ops (for
      example mlir-pdll's output).

    The patterns may call the native constraints and rewrites declared in
    `GraphPatterns.pdll` (`IsSplat`, `SplatEquals`, `HasStaticShape`,
    `IsLastAxis`, `SwapsLastTwoDims`; `SplatValue`,
    `ReciprocalSplatValue`); a pattern that calls anything else, or matches
    or creates an unregistered op, is an error when the file is loaded.
    Ops of the graph and fusion dialects can be matched and created (the
    pass loads both). Result types a rewrite leaves out are inferred (every
    graph and fusion op infers them). Only the patterns run: no folding, no
    region simplification; ops left without users are erased.

    A function whose rewritten body does not verify is restored with a
    warning quoting the verifier: a rule that replaced a value by one of
    another type, say, or one that created an op whose result types cannot
    be inferred (such an op gets a placeholder type, which the verifier
    rejects with the op's own diagnostic).

    With `verify-rewrites`, each function the patterns changed is checked
    as a whole: the function before and after is JIT-compiled for the host
    CPU (dynamic dims set to 5) and run on the same inputs — seeded random
    values, zeros, large magnitudes and negative values. If any result
    differs beyond the tolerance of its element type (f32: rtol 1e-4,
    atol 1e-5; f16: 1e-2; bf16: 5e-2; integers exact), every rewrite in
    that function is undone and a warning names the function, the input set
    and the worst element. The granularity is the function, not the single
    rewrite: one wrong rule rolls back the correct rewrites made with it in
    the same function. A function that cannot be compiled and run this way
    (non-tensor arguments, calls to external functions) is restored as well.

    `graph-opt --load-patterns=FILE [--verify-rewrites]` is a shorthand
    for this pass.
  }];
  // Rules may create fused kernels: the fusion dialect must be loaded for
  // the patterns to create its ops.
  let dependentDialects = ["::mlir::pdl::PDLDialect",
                           "::mlir::pdl_interp::PDLInterpDialect",
                           "::mlir::graphopt::graph::GraphDialect",
                           "::mlir::graphopt::fusion::FusionDialect"];
  let options = [
    Option<"patternsFile", "patterns-file", "std::string", /*default=*/"\"\"",
           "A .pdll file, or an MLIR file of pdl.pattern ops">,
    ListOption<"includeDirs", "include-dirs", "std::string",
               "Directories searched for a .pdll file's includes, before "
               "graphopt's and MLIR's">,
    Option<"mlirPDLL", "mlir-pdll", "std::string", /*default=*/"\"\"",
           "The mlir-pdll executable that translates .pdll files">,
    Option<"report", "report", "bool", /*default=*/"false",
           "Print each rewrite (root op, function, location) to stderr">,
    Option<"verifyRewrites", "verify-rewrites", "bool", /*default=*/"false",
           "Check every rewritten function numerically by JIT-running it "
           "before and after; undo the rewrites of those that differ">
  ];
  let statistics = [
    Statistic<"numRewrites", "rewrites", "Number of pattern applications">,
    Statistic<"numRestored", "restored-functions",
              "Number of functions restored (invalid IR or rejected by "
              "verify-rewrites)">
  ];
}

def GraphRaiseCompositesPass : Pass<"graph-raise-composites"> {
  let summary = "Recognize decomposed SiLU, GELU and layer norm as graph ops";
  let description = [{
    Rewrites the elementwise and reduction forms that exporters and
    `graph-decompose` produce back into `graph.silu`, `graph.gelu` and
    `graph.layer_norm`, so that later passes (fusion, code generation) see
    the composite op. The patterns are written in PDLL
    (`lib/Dialect/Graph/Transforms/RaiseComposites.pdll`) and compiled into
    the library when graphopt is built (`mlir-pdll -x=cpp`); they are also
    available through `populateRaiseCompositesPatterns`.

    Recognized forms (constants on the right of commutative ops, as
    `graph-optimize` leaves them; `c` is a splat constant):

    * SiLU: `x * sigmoid(x)`, `sigmoid(x) * x`.
    * GELU: `(x * 0.5) * (erf(x * c) + 1)` with `c = 1/sqrt(2)`, or with
      `x / sqrt(2)` inside `erf`, either factor first; and the tanh form
      `(x * 0.5) * (tanh((x + x^3 * 0.044715) * sqrt(2/pi)) + 1)` with `x^3`
      written `pow(x, 3)`.
    * Layer norm over the trailing dims: with `m = mean(x)`, `d = x - m`,
      both means over the same trailing axes with `keepdims`,
      `d * rsqrt(mean(d * d) + eps) * w + b` (graph-decompose's form) or
      `d / sqrt(mean(pow(d, 2)) + eps) * w + b` (PyTorch's), where `w` and
      `b` have the normalized shape.

    Only these patterns run: no folding. The result keeps the original
    value's type.
  }];
  // The compiled patterns are PDL, parsed when the pass is initialized.
  let dependentDialects = ["::mlir::pdl::PDLDialect",
                           "::mlir::pdl_interp::PDLInterpDialect"];
}

#endif // GRAPHOPT_DIALECT_GRAPH_TRANSFORMS_PASSES_TD
