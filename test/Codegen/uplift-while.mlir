// A graph.loop with a trip count and a constant true condition (an LSTM's
// steps) is lowered to an scf.while on a counter; graph-cpu-tile-and-vectorize
// turns it into an scf.for (upstream's while-to-for uplifting), so that
// one-shot bufferization updates the carried state in place instead of
// copying it into new buffers every step. Numerics: control-flow.mlir.
// RUN: graph-opt %s --graph-cpu-pipeline="vector-width=16" --mlir-print-ir-after=graph-cpu-tile-and-vectorize -o /dev/null 2>&1 | FileCheck %s

// CHECK-LABEL: func.func @steps
// CHECK-NOT: scf.while
// CHECK: scf.for %{{.+}} = %c0_i64 to %c32_i64 step %c1_i64 iter_args(%{{.+}}) -> (tensor<8x256xf32>)  : i64
// CHECK-NOT: scf.while
// CHECK: return
func.func @steps(%x0: tensor<8x256xf32>) -> tensor<8x256xf32> {
  %n = graph.constant dense<32> : tensor<i64>
  %true = graph.constant dense<true> : tensor<i1>
  %r = graph.loop %n, %true, %x0 : (tensor<i64>, tensor<i1>, tensor<8x256xf32>) -> tensor<8x256xf32> {
  ^bb0(%i: tensor<i64>, %x: tensor<8x256xf32>):
    %t = graph.tanh %x : tensor<8x256xf32> -> tensor<8x256xf32>
    graph.yield %true, %t : tensor<i1>, tensor<8x256xf32>
  }
  return %r : tensor<8x256xf32>
}
