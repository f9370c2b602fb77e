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
    Function result types are updated to match what is returned, for private
    functions and for public ones alike (the tools read the signature after
    this pass). Call sites are not rewritten: run it on modules whose
    functions are not called from elsewhere, or inline first.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
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
    the size of the program. Splat results are exempt: they cost one element
    whatever their shape (a broadcast of a scalar constant becomes a splat).
  }];
  let options = [
    Option<"sizeLimit", "size-limit", "int64_t", /*default=*/"1 << 16",
           "Largest result (in elements) that is folded into a constant">
  ];
  let statistics = [
    Statistic<"numFolded", "folded-ops", "Number of ops folded to constants">
  ];
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

#endif // GRAPHOPT_DIALECT_GRAPH_TRANSFORMS_PASSES_TD
