// graph-gpu-tile-parallel-loops makes a loop of more than max-blocks
// blocks a grid-stride loop: the grid evened out to ceil(n / ceil(n / max))
// blocks, the thread loop around an scf.for over the blocks a grid apart
// (index computations of the collapsed block loop moved into it).
// RUN: graph-opt %s --split-input-file --graph-gpu-tile-parallel-loops="max-blocks=3" --graph-gpu-simplify-tile-bounds | FileCheck %s
// RUN: graph-opt %s --split-input-file --graph-gpu-tile-parallel-loops="max-blocks=0" | FileCheck %s --check-prefix=OFF
// RUN: graph-opt %s --split-input-file --graph-gpu-tile-parallel-loops | FileCheck %s --check-prefix=DEFAULT

// 1000 elements: 4 blocks of 256 > 3, so 2 per block on a grid of 2.
// CHECK-LABEL: func.func @static_1d
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[ONE:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[N:.+]] = arith.constant 4 : index
// CHECK-DAG: %[[G:.+]] = arith.constant 2 : index
// CHECK: scf.parallel (%[[B:.+]]) = (%[[C0]]) to (%[[G]]) step (%[[ONE]])
// CHECK-NEXT: scf.parallel (%[[T:.+]]) =
// CHECK-NEXT: scf.for %[[K:.+]] = %[[B]] to %[[N]] step %[[G]]
// CHECK-NEXT: %[[M:.+]] = arith.muli %[[K]], %c256
// CHECK-NEXT: arith.addi %[[T]], %[[M]]
// CHECK: arith.cmpi ult
// CHECK: memref.store
// OFF-LABEL: func.func @static_1d
// OFF-NOT: scf.for
// OFF: scf.parallel ({{.*}}) = ({{.*}}) to ({{.*}}) step ({{.*}})
// OFF-NOT: scf.for
// DEFAULT-LABEL: func.func @static_1d
// DEFAULT-NOT: scf.for
func.func @static_1d(%x: memref<1000xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1000 = arith.constant 1000 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c1000) step (%c1) {
    memref.store %f, %x[%i] : memref<1000xf32>
    scf.reduce
  }
  return
}

// -----

// 100 x 37: 13 x 2 = 26 blocks of 8 x 32 threads, collapsed into one dim:
// 9 per block on a grid of 3; the block index's delinearization is
// computed inside the loop, from its iterations.
// CHECK-LABEL: func.func @static_2d
// CHECK-DAG: %[[N:.+]] = arith.constant 26 : index
// CHECK-DAG: %[[G:.+]] = arith.constant 3 : index
// CHECK: scf.parallel (%[[B:.+]]) = (%{{.*}}) to (%[[G]])
// CHECK-NEXT: scf.parallel ({{.*}}, {{.*}}) =
// CHECK-NEXT: scf.for %[[K:.+]] = %[[B]] to %[[N]] step %[[G]]
// CHECK: arith.remsi
// CHECK: arith.divsi
// CHECK: scf.if
// CHECK: memref.store
// OFF-LABEL: func.func @static_2d
// OFF-NOT: scf.for
// DEFAULT-LABEL: func.func @static_2d
// DEFAULT-NOT: scf.for
func.func @static_2d(%y: memref<100x37xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %c37 = arith.constant 37 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c100, %c37) step (%c1, %c1) {
    memref.store %f, %y[%i, %j] : memref<100x37xf32>
    scf.reduce
  }
  return
}

// -----

// A dynamic extent: the trip count, the iterations per block and the grid
// computed on the host.
// CHECK-LABEL: func.func @dynamic
// CHECK: %[[N:.+]] = arith.ceildivui
// CHECK: %[[PER:.+]] = arith.ceildivui %[[N]]
// CHECK: %[[PER1:.+]] = arith.maxui %[[PER]]
// CHECK: %[[G:.+]] = arith.ceildivui %[[N]], %[[PER1]]
// CHECK: scf.parallel (%[[B:.+]]) = (%{{.*}}) to (%[[G]])
// CHECK-NEXT: scf.parallel
// CHECK-NEXT: scf.for %{{.*}} = %[[B]] to %[[N]] step %[[G]]
// At most 4224 blocks by default (one iteration each below that); none
// with max-blocks=0.
// DEFAULT-LABEL: func.func @dynamic
// DEFAULT: arith.constant 4224 : index
// DEFAULT: scf.for
// OFF-LABEL: func.func @dynamic
// OFF-NOT: scf.for
func.func @dynamic(%x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %f, %x[%i] : memref<?xf32>
    scf.reduce
  }
  return
}
