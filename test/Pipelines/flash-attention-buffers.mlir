// Attention over L = S = 2048 (12 heads, head dim 64) through the CPU
// pipeline, after bufferization and buffer planning: the flash lowering
// allocates nothing of the [L, S] score matrix: three 64x64 tiles (the
// transposed score tile, reused for the normalized output block, the scaled
// and transposed Q block, and the accumulator) and 64-element row statistics
// on the stack, all hoisted out of the loops and freed at the end. K is
// read in place (the scores are computed transposed, K Q^T: no transposed
// copy of K per head), and no zero tile is copied into the score tile per
// key block (its register blocks start from zero). The expanded form
// (flash-attention=false) allocates [12, 2048, 2048] scores.
// RUN: graph-opt %s --graph-cpu-pipeline --mlir-print-ir-after=convert-bufferization-to-memref -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=2048x2048
// RUN: graph-opt %s --graph-cpu-pipeline="flash-attention=false" --mlir-print-ir-after=convert-bufferization-to-memref -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EXPANDED

// CHECK-LABEL: func.func @main
// CHECK-NOT: scf.for
// CHECK: memref.alloc() {{.+}} : memref<1x12x2048x64xf32>
// CHECK-NOT: scf.for
// CHECK-NOT: memref<64x2048xf32>
// CHECK-COUNT-3: memref.alloc() {{.+}} : memref<64x64xf32>
// CHECK-NOT: memref.alloc()
// CHECK: scf.for
// CHECK-NOT: memref.alloc()
// CHECK: memref.dealloc
// CHECK: return

// EXPANDED-LABEL: func.func @main
// EXPANDED: memref.alloc() {{.+}} : memref<12x2048x2048xf32>
func.func @main(%q: tensor<1x12x2048x64xf32>, %k: tensor<1x12x2048x64xf32>, %v: tensor<1x12x2048x64xf32>) -> tensor<1x12x2048x64xf32> {
  %o = graph.scaled_dot_product_attention %q, %k, %v : (tensor<1x12x2048x64xf32>, tensor<1x12x2048x64xf32>, tensor<1x12x2048x64xf32>) -> tensor<1x12x2048x64xf32>
  return %o : tensor<1x12x2048x64xf32>
}
