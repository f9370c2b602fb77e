// A one-row matmul (a matrix-vector product) whose B does not fit in L1
// reads B's rows in order: the k loop (blocks of 8 rows) is outermost and
// sweeps the row in pieces of 4 vectors, each piece adding 8 broadcast x
// row products into the output row (read and written per piece); the bias
// and activation stay a separate pass over the row. With one thread the
// fused group is one tile of whole rows, with two threads one tile of half
// the columns per thread.
// RUN: graph-opt %s --graph-cpu-pipeline="vector-width=16 l1-cache-bytes=49152" --mlir-disable-threading \
// RUN:   --mlir-print-ir-after=graph-cpu-tile-and-vectorize -o /dev/null 2>&1 | FileCheck %s
// RUN: graph-opt %s --graph-cpu-pipeline="vector-width=16 l1-cache-bytes=49152 threads=2" --mlir-disable-threading \
// RUN:   --mlir-print-ir-after=fusion-tile-and-fuse -o /dev/null 2>&1 | FileCheck %s --check-prefix=TWO

// CHECK-LABEL: func.func @classifier
// CHECK-NOT: scf.for %{{.*}} = %c0 to %c1024 step %c512
// CHECK: scf.for %{{.*}} = %c0 to %c576 step %c8
// CHECK: scf.for %{{.*}} = %c0 to %c1024 step %c64
// CHECK: vector.transfer_read %{{.*}} : tensor<8x64xf32>, vector<8x64xf32>
// CHECK-COUNT-8: vector.fma %{{.*}} : vector<64xf32>
// CHECK: arith.addf %{{.*}} : vector<1x16xf32>
// CHECK-NEXT: arith.maximumf
// TWO-LABEL: func.func @classifier
// TWO: scf.for %{{.*}} = %c0{{.*}} to %c1024 step %c512
func.func @classifier(%x: tensor<1x576xf32>, %w: tensor<576x1024xf32>, %b: tensor<1024xf32>) -> tensor<1x1024xf32> {
  %0 = graph.matmul %x, %w : tensor<1x576xf32>, tensor<576x1024xf32> -> tensor<1x1024xf32>
  %1 = graph.add %0, %b : tensor<1x1024xf32>, tensor<1024xf32> -> tensor<1x1024xf32>
  %2 = graph.relu %1 : tensor<1x1024xf32> -> tensor<1x1024xf32>
  return %2 : tensor<1x1024xf32>
}

// A B that fits in L1 (64 x 32 floats) keeps the register kernel.
// CHECK-LABEL: func.func @small
// CHECK-NOT: step %c8
// CHECK: return
func.func @small(%x: tensor<1x64xf32>, %w: tensor<64x32xf32>) -> tensor<1x32xf32> {
  %0 = graph.matmul %x, %w : tensor<1x64xf32>, tensor<64x32xf32> -> tensor<1x32xf32>
  return %0 : tensor<1x32xf32>
}
