// graph-cpu-parallelize and the buffers a loop's iterations would share.
// A temporary allocated before a marked loop and used only inside it (a
// score tile whose tensor.empty bufferization placed outside the loop over
// heads) moves into the loop: one per iteration, so that threads do not
// write one buffer (this was a data race: flash attention with a float
// mask gave wrong results with 2 threads). Buffers also used outside the
// loop stay shared: an output written in disjoint tiles, an input
// computed before the loop.
// RUN: graph-opt %s --split-input-file --graph-cpu-parallelize="threads=2 min-work=0" | FileCheck %s

// CHECK-LABEL: func.func @private_temporary
// CHECK-NOT: memref.alloc
// CHECK: scf.parallel
// CHECK-NEXT: %[[T:.*]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT: %[[V:.*]] = memref.subview %[[T]][0] [8] [1]
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[V]] :
func.func @private_temporary(%in: memref<4x16xf32>, %out: memref<4x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<16xf32>
  %v = memref.subview %t[0] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1]>>
  scf.for %i = %c0 to %c4 step %c1 {
    linalg.fill ins(%z : f32) outs(%v : memref<8xf32, strided<[1]>>)
    %row = memref.subview %in[%i, 0] [1, 16] [1, 1] : memref<4x16xf32> to memref<16xf32, strided<[1], offset: ?>>
    memref.copy %row, %t : memref<16xf32, strided<[1], offset: ?>> to memref<16xf32>
    %o = memref.subview %out[%i, 0] [1, 16] [1, 1] : memref<4x16xf32> to memref<16xf32, strided<[1], offset: ?>>
    memref.copy %t, %o : memref<16xf32> to memref<16xf32, strided<[1], offset: ?>>
  } {graphopt.parallel}
  return
}

// -----

// An output written in disjoint tiles and returned: shared, as before.
// CHECK-LABEL: func.func @output_shared
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<4x16xf32>
// CHECK-NEXT: scf.parallel
// CHECK-NOT: memref.alloc
// CHECK: memref.subview %[[OUT]]
func.func @output_shared(%in: memref<4x16xf32>) -> memref<4x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %out = memref.alloc() : memref<4x16xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %row = memref.subview %in[%i, 0] [1, 16] [1, 1] : memref<4x16xf32> to memref<16xf32, strided<[1], offset: ?>>
    %o = memref.subview %out[%i, 0] [1, 16] [1, 1] : memref<4x16xf32> to memref<16xf32, strided<[1], offset: ?>>
    memref.copy %row, %o : memref<16xf32, strided<[1], offset: ?>> to memref<16xf32, strided<[1], offset: ?>>
  } {graphopt.parallel}
  return %out : memref<4x16xf32>
}

// -----

// CHECK-LABEL: func.func @read_only_shared
// CHECK: %[[T:.*]] = memref.alloc() : memref<16xf32>
// CHECK: linalg.fill
// CHECK: scf.parallel
// CHECK-NOT: memref.alloc
// CHECK: memref.copy %[[T]]
func.func @read_only_shared(%out: memref<4x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  %t = memref.alloc() : memref<16xf32>
  linalg.fill ins(%one : f32) outs(%t : memref<16xf32>)
  scf.for %i = %c0 to %c4 step %c1 {
    %o = memref.subview %out[%i, 0] [1, 16] [1, 1] : memref<4x16xf32> to memref<16xf32, strided<[1], offset: ?>>
    memref.copy %t, %o : memref<16xf32> to memref<16xf32, strided<[1], offset: ?>>
  } {graphopt.parallel}
  return
}
