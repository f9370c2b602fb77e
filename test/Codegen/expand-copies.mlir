// RUN: graph-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(graph-cpu-expand-copies))' | FileCheck %s

// A copy out of a strided view becomes a loop nest of loads and stores
// (which LLVM vectorizes) instead of a call of the runtime's memrefCopy.
// CHECK-LABEL: func.func @strided
// CHECK-SAME: (%[[SRC:.+]]: memref<4x16xf32, strided<[49, 1], offset: ?>>, %[[DST:.+]]: memref<4x16xf32>)
// CHECK-NOT: memref.copy
// CHECK: scf.for %[[I:.+]] = %c0 to %c4 step %c1
// CHECK: scf.for %[[J:.+]] = %c0 to %c16 step %c1
// CHECK: %[[V:.+]] = memref.load %[[SRC]][%[[I]], %[[J]]]
// CHECK: memref.store %[[V]], %[[DST]][%[[I]], %[[J]]]
func.func @strided(%src: memref<4x16xf32, strided<[49, 1], offset: ?>>, %dst: memref<4x16xf32>) {
  memref.copy %src, %dst : memref<4x16xf32, strided<[49, 1], offset: ?>> to memref<4x16xf32>
  return
}

// -----

// Contiguous copies stay: they lower to memcpy. So do dynamic shapes.
// CHECK-LABEL: func.func @contiguous
// CHECK: memref.copy
// CHECK: memref.copy
// CHECK-NOT: scf.for
func.func @contiguous(%a: memref<4x16xf32>, %b: memref<4x16xf32, strided<[16, 1], offset: 64>>, %c: memref<?xf32, strided<[2]>>, %d: memref<?xf32>) {
  memref.copy %a, %b : memref<4x16xf32> to memref<4x16xf32, strided<[16, 1], offset: 64>>
  memref.copy %c, %d : memref<?xf32, strided<[2]>> to memref<?xf32>
  return
}
