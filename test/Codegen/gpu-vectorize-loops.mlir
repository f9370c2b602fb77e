// RUN: graph-opt %s --split-input-file --graph-gpu-vectorize-loops | FileCheck %s

// An f16 -> f32 chain with a bias along the last dim and a per-row scale:
// 4 lanes (16 bytes of the widest element, f32); the f16 input is read as
// 8 bytes (alignment 8), the f32 bias and result as 16; the per-row scale,
// which the innermost index does not reach, stays a scalar load and is
// broadcast; the loop counts 256 / 4 = 64 vectors.
// CHECK-LABEL: func.func @chain
// CHECK: scf.parallel (%[[I:.*]], %[[J:.*]]) = (%{{.*}}, %{{.*}}) to (%{{.*}}, %[[C64:.*]]) step
// CHECK: %[[K:.*]] = arith.muli %[[J]], %[[C4:.*]] : index
// CHECK: %[[X:.*]] = vector.load %arg0[%[[I]], %[[K]]] {alignment = 8 : i64} : memref<64x256xf16>, vector<4xf16>
// CHECK: %[[B:.*]] = vector.load %arg1[%[[K]]] {alignment = 16 : i64} : memref<256xf32>, vector<4xf32>
// CHECK: %[[S:.*]] = memref.load %arg2[%[[I]], %{{.*}}] : memref<64x1xf32>
// CHECK: %[[XF:.*]] = arith.extf %[[X]] : vector<4xf16> to vector<4xf32>
// CHECK: %[[A:.*]] = arith.addf %[[XF]], %[[B]] : vector<4xf32>
// CHECK: %[[SB:.*]] = vector.broadcast %[[S]] : f32 to vector<4xf32>
// CHECK: %[[M:.*]] = arith.mulf %[[A]], %[[SB]] : vector<4xf32>
// CHECK: %[[T:.*]] = math.tanh %[[M]] : vector<4xf32>
// CHECK: vector.store %[[T]], %arg3[%[[I]], %[[K]]] {alignment = 16 : i64} : memref<64x256xf32>, vector<4xf32>
func.func @chain(%x: memref<64x256xf16>, %b: memref<256xf32>, %s: memref<64x1xf32>, %out: memref<64x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c256) step (%c1, %c1) {
    %0 = memref.load %x[%i, %j] : memref<64x256xf16>
    %1 = memref.load %b[%j] : memref<256xf32>
    %2 = memref.load %s[%i, %c0] : memref<64x1xf32>
    %3 = arith.extf %0 : f16 to f32
    %4 = arith.addf %3, %1 : f32
    %5 = arith.mulf %4, %2 : f32
    %6 = math.tanh %5 : f32
    memref.store %6, %out[%i, %j] : memref<64x256xf32>
    scf.reduce
  }
  return
}

// -----

// i8 (ReLU as a max with 0): 16 lanes of 1 byte.
// CHECK-LABEL: func.func @bytes
// CHECK: vector.load %arg0[%{{.*}}] {alignment = 16 : i64} : memref<4096xi8>, vector<16xi8>
// CHECK: arith.maxsi %{{.*}}, %{{.*}} : vector<16xi8>
// CHECK: vector.store {{.*}} {alignment = 16 : i64} : memref<4096xi8>, vector<16xi8>
func.func @bytes(%x: memref<4096xi8>, %out: memref<4096xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 4096 : index
  %z = arith.constant 0 : i8
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %0 = memref.load %x[%i] : memref<4096xi8>
    %1 = arith.maxsi %0, %z : i8
    memref.store %1, %out[%i] : memref<4096xi8>
    scf.reduce
  }
  return
}

// -----

// Left as they are: a last extent that is not a multiple of the lanes
// (1001), the index used as a value (an iota), a view whose offset is not
// a multiple of the lanes (not 16-byte aligned), booleans (a byte each in
// memory, a bit each in a vector), a gather (an index loaded along the
// innermost dim).
// CHECK-LABEL: func.func @not_vectorized
// CHECK-NOT: vector.
// CHECK: return
func.func @not_vectorized(%x: memref<8x1001xf32>, %y: memref<8x1001xf32>,
                          %i32: memref<64xi32>, %big: memref<8x260xf32>,
                          %v: memref<8x256xf32>, %b: memref<64xi1>, %bo: memref<64xi1>,
                          %idx: memref<64xi32>, %table: memref<100xf32>, %g: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %c1001 = arith.constant 1001 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c1001) step (%c1, %c1) {
    %0 = memref.load %x[%i, %j] : memref<8x1001xf32>
    memref.store %0, %y[%i, %j] : memref<8x1001xf32>
    scf.reduce
  }
  scf.parallel (%j) = (%c0) to (%c64) step (%c1) {
    %0 = arith.index_cast %j : index to i32
    memref.store %0, %i32[%j] : memref<64xi32>
    scf.reduce
  }
  %sub = memref.subview %big[0, 2] [8, 256] [1, 1] : memref<8x260xf32> to memref<8x256xf32, strided<[260, 1], offset: 2>>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c256) step (%c1, %c1) {
    %0 = memref.load %sub[%i, %j] : memref<8x256xf32, strided<[260, 1], offset: 2>>
    memref.store %0, %v[%i, %j] : memref<8x256xf32>
    scf.reduce
  }
  scf.parallel (%j) = (%c0) to (%c64) step (%c1) {
    %0 = memref.load %b[%j] : memref<64xi1>
    memref.store %0, %bo[%j] : memref<64xi1>
    scf.reduce
  }
  scf.parallel (%j) = (%c0) to (%c64) step (%c1) {
    %0 = memref.load %idx[%j] : memref<64xi32>
    %1 = arith.index_cast %0 : i32 to index
    %2 = memref.load %table[%1] : memref<100xf32>
    memref.store %2, %g[%j] : memref<64xf32>
    scf.reduce
  }
  return
}
