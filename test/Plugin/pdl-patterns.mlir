// REQUIRES: mlir-pdll
// The rewrite-rule passes inside the stock mlir-opt, loaded as a plugin: a
// PDLL rule file translated at run time, and the built-in PDLL recognizers.
// RUN: mlir-opt %s --load-dialect-plugin=%graphopt_lib/libGraphOptPlugin%shlibext \
// RUN:   --load-pass-plugin=%graphopt_lib/libGraphOptPlugin%shlibext \
// RUN:   --pass-pipeline='builtin.module(graph-apply-pdl-patterns{patterns-file=%graphopt_src/examples/patterns/relu_to_leaky_relu.pdll},graph-raise-composites)' \
// RUN:   | FileCheck %s

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>)
// CHECK-NEXT: %[[L:.+]] = graph.leaky_relu %[[X]]
// CHECK-NEXT: %[[S:.+]] = graph.silu %[[L]]
// CHECK-NEXT: return %[[S]]
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = graph.relu %x : tensor<4xf32> -> tensor<4xf32>
  %s = graph.sigmoid %r : tensor<4xf32> -> tensor<4xf32>
  %y = graph.mul %r, %s : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}
