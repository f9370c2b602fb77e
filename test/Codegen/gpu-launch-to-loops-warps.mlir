// RUN: graph-opt %s --split-input-file --graph-gpu-launch-to-loops --verify-diagnostics | FileCheck %s

// A warp kernel (one warp per row, a shuffle butterfly step): emulated
// warp by warp. Loops over the grid and the warps (blockDim.y), the row
// guard evaluated once (lane 0: the kernels make it uniform across the
// warp), then the lanes in lockstep at the shuffle: a loop over 32 lanes
// runs the ops before it, keeping each lane's value in a 32-element buffer;
// a loop reads the buffer at lane ^ 16 (its own lane where that is past
// the warp); a loop runs the ops after it with the lane's shuffled value.
// CHECK-LABEL: func.func @butterfly
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[VALS:.*]] = memref.alloca() : memref<32xf32>
// CHECK-DAG: %[[SHUF:.*]] = memref.alloca() : memref<32xf32>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for %[[W:.*]] =
// CHECK: scf.if
// CHECK: scf.for %[[L0:.*]] = %{{.*}} to %[[C32]]
// CHECK: %[[V:.*]] = memref.load %arg0[
// CHECK: memref.store %[[V]], %[[VALS]][%[[L0]]]
// CHECK: scf.for %[[L1:.*]] = %{{.*}} to %[[C32]]
// CHECK: %[[SRC:.*]] = arith.xori %[[L1]], %{{.*}} : index
// CHECK: %[[OK:.*]] = arith.cmpi ult, %[[SRC]], %[[C32]]
// CHECK: %[[FROM:.*]] = arith.select %[[OK]], %[[SRC]], %[[L1]]
// CHECK: %[[O:.*]] = memref.load %[[VALS]][%[[FROM]]]
// CHECK: memref.store %[[O]], %[[SHUF]][%[[L1]]]
// CHECK: scf.for %[[L2:.*]] = %{{.*}} to %[[C32]]
// CHECK-DAG: memref.load %[[VALS]][%[[L2]]]
// CHECK-DAG: memref.load %[[SHUF]][%[[L2]]]
// CHECK: arith.addf
// CHECK: memref.store
// CHECK-NOT: gpu.launch
func.func @butterfly(%x: memref<8x32xf32>, %y: memref<8x32xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c4, %sz = %c1) {
    %r0 = arith.muli %bx, %c4 : index
    %row = arith.addi %r0, %ty : index
    %in = arith.cmpi ult, %row, %c8 : index
    scf.if %in {
      %v = memref.load %x[%row, %tx] : memref<8x32xf32>
      %c16i = arith.constant 16 : i32
      %c32i = arith.constant 32 : i32
      %o, %ok = gpu.shuffle xor %v, %c16i, %c32i : f32
      %s = arith.addf %v, %o : f32
      memref.store %s, %y[%row, %tx] : memref<8x32xf32>
    }
    gpu.terminator
  }
  return
}

// -----

func.func @shuffle_in_loop(%x: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c1i = arith.constant 1 : i32
  %c32i = arith.constant 32 : i32
  // expected-error @+1 {{cannot emulate this warp kernel: a shuffle is nested in a loop or branch}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<32xf32>
    %r = scf.for %i = %c0 to %c32 step %c1 iter_args(%a = %v) -> f32 {
      %o, %ok = gpu.shuffle xor %a, %c1i, %c32i : f32
      scf.yield %o : f32
    }
    memref.store %r, %x[%tx] : memref<32xf32>
    gpu.terminator
  }
  return
}

// -----

func.func @narrow_block(%x: memref<16xf32>) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c1i = arith.constant 1 : i32
  %c16i = arith.constant 16 : i32
  // expected-error @+1 {{cannot emulate this warp kernel: blockDim.x is not 32}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<16xf32>
    %o, %ok = gpu.shuffle xor %v, %c1i, %c16i : f32
    memref.store %o, %x[%tx] : memref<16xf32>
    gpu.terminator
  }
  return
}
