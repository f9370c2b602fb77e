// --verify-rewrites JIT-runs each matched subgraph and its replacement on the
// same inputs and rejects rewrites that change results.

// A deliberately wrong rule (relu -> abs) is caught and not applied.
// RUN: graph-opt %s --replace-patterns=%S/Inputs/replace-patterns-wrong.mlir \
// RUN:   --verify-rewrites 2>&1 | FileCheck %s --check-prefix=WRONG
// Without verification the wrong rule is applied (what users trust today).
// RUN: graph-opt %s --replace-patterns=%S/Inputs/replace-patterns-wrong.mlir \
// RUN:   | FileCheck %s --check-prefix=TRUSTED
// A correct rule (x * sigmoid(x) -> silu) passes and is applied.
// RUN: graph-opt %s --replace-patterns=%graphopt_src/examples/patterns/decomposed_silu.mlir \
// RUN:   --verify-rewrites 2>&1 | FileCheck %s --check-prefix=RIGHT

// WRONG: warning: rewrite 'relu' rejected by verify-rewrites: result 0 differs on random values (seed 1): worst at [{{[0-9]+}}, {{[0-9]+}}] the pattern gives 0.000000e+00, the replacement
// WRONG-LABEL: func.func @main
// WRONG: graph.relu
// WRONG-NOT: graph.abs

// TRUSTED-LABEL: func.func @main
// TRUSTED: graph.abs
// TRUSTED-NOT: graph.relu

// RIGHT-NOT: warning
// RIGHT-LABEL: func.func @main
// RIGHT: graph.silu
// RIGHT-NOT: graph.sigmoid
func.func @main(%x: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %r = graph.relu %x : tensor<8x16xf32> -> tensor<8x16xf32>
  %s = graph.sigmoid %x : tensor<8x16xf32> -> tensor<8x16xf32>
  %y = graph.mul %x, %s : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %r, %y : tensor<8x16xf32>, tensor<8x16xf32>
}
