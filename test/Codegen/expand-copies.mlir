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

// Contiguous copies stay: they lower to memcpy.
// CHECK-LABEL: func.func @contiguous
// CHECK: memref.copy
// CHECK-NOT: scf.for
func.func @contiguous(%a: memref<4x16xf32>, %b: memref<4x16xf32, strided<[16, 1], offset: 64>>) {
  memref.copy %a, %b : memref<4x16xf32> to memref<4x16xf32, strided<[16, 1], offset: 64>>
  return
}

// -----

// Dynamic shapes too, their bounds read from the source (a dynamic
// concat's operands copied into column slices of the result): no call of
// memrefCopy, which AOT objects would need MLIR's runtime library for.
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: (%[[SRC:.+]]: memref<?x3xf32>, %[[DST:.+]]: memref<?x3xf32, strided<[6, 1], offset: ?>>)
// CHECK-NOT: memref.copy
// CHECK: %[[N:.+]] = memref.dim %[[SRC]], %c0
// CHECK: scf.for %[[I:.+]] = %c0 to %[[N]] step %c1
// CHECK: scf.for %[[J:.+]] = %c0 to %c3 step %c1
// CHECK: %[[V:.+]] = memref.load %[[SRC]][%[[I]], %[[J]]]
// CHECK: memref.store %[[V]], %[[DST]][%[[I]], %[[J]]]
func.func @dynamic(%src: memref<?x3xf32>, %dst: memref<?x3xf32, strided<[6, 1], offset: ?>>) {
  memref.copy %src, %dst : memref<?x3xf32> to memref<?x3xf32, strided<[6, 1], offset: ?>>
  return
}

// -----

// An int8 NHWC image copied into its padded buffer: rows of 56 x 64 bytes
// are contiguous in both, so each row is one copy of contiguous memory (a
// memcpy) inside loops over the images and rows.
// CHECK-LABEL: func.func @rows
// CHECK: scf.for %[[N:.+]] = %c0 to %c2 step %c1
// CHECK: scf.for %[[H:.+]] = %c0 to %c56 step %c1
// CHECK: %[[S:.+]] = memref.subview %arg0[%[[N]], %[[H]], 0, 0] [1, 1, 56, 64] [1, 1, 1, 1]
// CHECK: %[[SF:.+]] = memref.collapse_shape %[[S]] {{\[\[}}0, 1, 2, 3]] {{.*}} into memref<3584xi8
// CHECK: %[[D:.+]] = memref.subview %arg1[%[[N]], %[[H]], 0, 0] [1, 1, 56, 64] [1, 1, 1, 1]
// CHECK: %[[DF:.+]] = memref.collapse_shape %[[D]]
// CHECK: memref.copy %[[SF]], %[[DF]] : memref<3584xi8, strided<[1], offset: ?>> to memref<3584xi8, strided<[1], offset: ?>>
// CHECK-NOT: memref.load
func.func @rows(%src: memref<2x56x56x64xi8>, %dst: memref<2x56x56x64xi8, strided<[215296, 3712, 64, 1], offset: 3776>>) {
  memref.copy %src, %dst : memref<2x56x56x64xi8> to memref<2x56x56x64xi8, strided<[215296, 3712, 64, 1], offset: 3776>>
  return
}
