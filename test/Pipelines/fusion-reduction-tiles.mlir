// An input group whose reductions run over a reshaped view of its root
// (layer norm: the mean and variance reduce a [rows, 1, cols] view, the
// root is [rows, cols]) is tiled by rows only: each tile of 16 rows reduces
// its whole rows once. Tiled along the columns (the reduced dim matched by
// rank alone was missed), every 16-column tile recomputed the full-row
// variance: 48 times per row at 768 columns (a 1024 x 768 layer norm took
// 7.0 ms instead of 0.8).
// RUN: graph-opt %s --graph-cpu-pipeline="threads=1" --mlir-print-ir-after=fusion-tile-and-fuse -o /dev/null 2>&1 | FileCheck %s

// CHECK-LABEL: func.func @layer_norm
// CHECK: scf.for %{{.+}} = %c0 to %c64 step %c16
// CHECK-NOT: scf.for
// CHECK: iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.+}} : tensor<16x1x768xf32>)
// CHECK-NOT: tensor<1x1x768xf32>
// CHECK: iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.+}} : tensor<16x1x768xf32>)
// CHECK-NOT: tensor<1x1x768xf32>
// CHECK: return
func.func @layer_norm(%x: tensor<64x768xf32>, %g: tensor<768xf32>, %b: tensor<768xf32>) -> tensor<64x768xf32> {
  %0 = graph.layer_norm %x, %g, %b : (tensor<64x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<64x768xf32>
  return %0 : tensor<64x768xf32>
}
