// fusion-form-groups: group formation, the cost model and the fusion report.
// RUN: graph-opt %s --split-input-file --fusion-form-groups | FileCheck %s
// RUN: graph-opt %s --split-input-file --fusion-report=- -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: rm -rf %t && mkdir -p %t
// RUN: graph-opt %s --fusion-form-groups="report=%t/report.json" -o /dev/null
// RUN: %python -c "import json,sys; r=json.load(open(sys.argv[1])); print(len(r), sum(f['summary']['groups'] for f in r), all(set(e) >= {'producer','producer_loc','consumer','consumer_loc','fused','rule','reason'} for f in r for e in f['edges']))" %t/report.json | FileCheck %s --check-prefix=JSON
// JSON: 5 5 True

// Matmul + bias + GELU is an output group; softmax with its elementwise
// producer and consumer an input group. The gelu -> softmax edge is not
// fused: a group does not mix a contraction and a reduction.
// CHECK-LABEL: func.func @mlp_softmax
// CHECK: fusion.group output
// CHECK:   graph.matmul
// CHECK:   graph.add
// CHECK:   graph.gelu
// CHECK:   fusion.yield
// CHECK: fusion.group input
// CHECK:   graph.softmax
// CHECK:   graph.exp
// CHECK:   fusion.yield
// REPORT-LABEL: fusion report for @mlp_softmax: 2 groups, 4 edges, 3 fused
// REPORT: fused     graph.matmul (loc("model.py":3:0)) -> graph.add (loc("model.py":4:0)) operand 0
// REPORT-NEXT: [epilogue]
// REPORT: NOT fused graph.gelu (loc("model.py":5:0)) -> graph.softmax
// REPORT-NEXT: [contraction-with-reduction]
// REPORT: [reduction-output]
func.func @mlp_softmax(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>, %b: tensor<32xf32>) -> tensor<8x32xf32> {
  %m = graph.matmul %x, %w : tensor<8x16xf32>, tensor<16x32xf32> -> tensor<8x32xf32> loc("model.py":3:0)
  %a = graph.add %m, %b : tensor<8x32xf32>, tensor<32xf32> -> tensor<8x32xf32> loc("model.py":4:0)
  %g = graph.gelu %a : tensor<8x32xf32> -> tensor<8x32xf32> loc("model.py":5:0)
  %s = graph.softmax %g axis = 1 : tensor<8x32xf32> -> tensor<8x32xf32>
  %e = graph.exp %s : tensor<8x32xf32> -> tensor<8x32xf32>
  return %e : tensor<8x32xf32>
}

// -----

// A cheap producer with two consumers is recomputed in each consumer's
// group (1 flop x 1 extra copy <= 2 flop/byte x 12 bytes saved).
// CHECK-LABEL: func.func @recompute
// CHECK: fusion.group loop
// CHECK:   graph.neg
// CHECK:   graph.exp
// CHECK: fusion.group loop
// CHECK:   graph.neg
// CHECK:   graph.tanh
// CHECK-NOT: graph.neg
// REPORT-LABEL: fusion report for @recompute
// REPORT: recompute graph.neg
// REPORT: recompute graph.neg
func.func @recompute(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %n = graph.neg %x : tensor<64xf32> -> tensor<64xf32>
  %a = graph.exp %n : tensor<64xf32> -> tensor<64xf32>
  %b = graph.tanh %n : tensor<64xf32> -> tensor<64xf32>
  return %a, %b : tensor<64xf32>, tensor<64xf32>
}

// -----

// An expensive producer (pow: 30 flops) with two consumers is not
// recomputed: 30 > 2 flop/byte x 12 bytes.
// CHECK-LABEL: func.func @no_recompute
// CHECK: graph.pow
// CHECK-NOT: fusion.group
// REPORT-LABEL: fusion report for @no_recompute: 0 groups, 2 edges, 0 fused
// REPORT: NOT fused graph.pow
// REPORT-NEXT: [multi-consumer-cost] graph.pow has 2 consumers; recomputing it costs 30.00 flop/element, more than 2.00 flop/byte x 12.00 bytes/element saved
func.func @no_recompute(%x: tensor<64xf32>, %y: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %p = graph.pow %x, %y : tensor<64xf32>, tensor<64xf32> -> tensor<64xf32>
  %a = graph.exp %p : tensor<64xf32> -> tensor<64xf32>
  %b = graph.tanh %p : tensor<64xf32> -> tensor<64xf32>
  return %a, %b : tensor<64xf32>, tensor<64xf32>
}

// -----

// The operand of a matmul is never fused into it; a concat is not fusible.
// CHECK-LABEL: func.func @negative
// CHECK-NOT: fusion.group
// REPORT-LABEL: fusion report for @negative: 0 groups
// REPORT: [contraction-operand]
// REPORT: [not-fusible-op]
func.func @negative(%x: tensor<8x8xf32>, %w: tensor<8x8xf32>) -> tensor<16x8xf32> {
  %r = graph.relu %x : tensor<8x8xf32> -> tensor<8x8xf32>
  %m = graph.matmul %r, %w : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %c = graph.concat %m, %x axis = 0 : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<16x8xf32>
  return %c : tensor<16x8xf32>
}

// -----

// Two chains joined by an add, the first begun before the second: merging
// the first chain into the add alone would leave the group reading %b,
// defined after its first op, so it is refused at first; once %b's group
// has merged, it is retried and fits. One group, not two.
// CHECK-LABEL: func.func @join_two_chains
// CHECK: fusion.group loop
// CHECK:   graph.exp
// CHECK:   graph.neg
// CHECK:   graph.tanh
// CHECK:   graph.add
// CHECK:   fusion.yield
// CHECK-NOT: fusion.group
// REPORT-LABEL: fusion report for @join_two_chains: 1 group, 3 edges, 3 fused
// REPORT: fused     graph.neg
// REPORT-NEXT: share one loop nest (merged after the group's other producers)
func.func @join_two_chains(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %a = graph.exp %x : tensor<64xf32> -> tensor<64xf32>
  %c = graph.neg %a : tensor<64xf32> -> tensor<64xf32>
  %b = graph.tanh %y : tensor<64xf32> -> tensor<64xf32>
  %d = graph.add %c, %b : tensor<64xf32>, tensor<64xf32> -> tensor<64xf32>
  return %d : tensor<64xf32>
}
