// RUN: graph-opt %s -graph-refine-shapes -split-input-file | FileCheck %s
// RUN: graph-opt %s -graph-optimize -split-input-file | FileCheck %s --check-prefix=OPT

// Shape refinement around graph.loop and graph.if. A graph.loop's carried
// operands need only be compatible with its results (C1), so a carried
// operand may become more static while the results and the body arguments
// (the carried types, C2) keep theirs; a region's yielded values need only be
// compatible with the results.

// The carried operand %x0 refines to tensor<4xf32>; the loop is unchanged.
// CHECK-LABEL: func.func @loop_carried_operand
// CHECK: %[[X0:.+]] = graph.add %{{.+}}, %{{.+}} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
// CHECK: graph.loop %{{.+}}, %{{.+}}, %[[X0]] : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> tensor<?xf32> {
// CHECK-NEXT: ^bb0(%{{.+}}: tensor<i64>, %{{.+}}: tensor<?xf32>):
// CHECK-NEXT: graph.mul %{{.+}}, %{{.+}} : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
// OPT-LABEL: func.func @loop_carried_operand
// OPT: graph.loop %{{.+}}, %{{.+}}, %{{.+}} : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> tensor<?xf32>
func.func @loop_carried_operand(%n: tensor<i64>, %a: tensor<4xf32>) -> tensor<?xf32> {
  %true = graph.constant dense<true> : tensor<i1>
  %x0 = graph.add %a, %a : tensor<4xf32>, tensor<4xf32> -> tensor<?xf32>
  %r = graph.loop %n, %true, %x0 : (tensor<i64>, tensor<i1>, tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%i: tensor<i64>, %x: tensor<?xf32>):
    %y = graph.mul %x, %x : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
    graph.yield %true, %y : tensor<i1>, tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// Ops in the body refine from the body arguments; the yielded value may
// become more static than the carried type.
// CHECK-LABEL: func.func @loop_body
// CHECK: ^bb0(%{{.+}}: tensor<i64>, %{{.+}}: tensor<3xf32>):
// CHECK: graph.add %{{.+}}, %{{.+}} : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
// OPT-LABEL: func.func @loop_body
// OPT: graph.loop
func.func @loop_body(%n: tensor<i64>, %a: tensor<3xf32>) -> tensor<3xf32> {
  %true = graph.constant dense<true> : tensor<i1>
  %r = graph.loop %n, %true, %a : (tensor<i64>, tensor<i1>, tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%i: tensor<i64>, %x: tensor<3xf32>):
    %y = graph.add %x, %x : tensor<3xf32>, tensor<3xf32> -> tensor<?xf32>
    graph.yield %true, %y : tensor<i1>, tensor<?xf32>
  }
  return %r : tensor<3xf32>
}

// -----

// graph.if: the yielded values refine; the results keep their types.
// CHECK-LABEL: func.func @if_yields
// CHECK: graph.if %{{.+}} : tensor<i1> -> tensor<?xf32> {
// CHECK: graph.exp %{{.+}} : tensor<4xf32> -> tensor<4xf32>
// OPT-LABEL: func.func @if_yields
// OPT: graph.if
func.func @if_yields(%c: tensor<i1>, %a: tensor<4xf32>) -> tensor<?xf32> {
  %r = graph.if %c : tensor<i1> -> tensor<?xf32> {
    %e = graph.exp %a : tensor<4xf32> -> tensor<?xf32>
    graph.yield %e : tensor<?xf32>
  } else {
    graph.yield %a : tensor<4xf32>
  }
  return %r : tensor<?xf32>
}
