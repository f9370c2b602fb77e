// RUN: graph-opt %s --split-input-file --graph-gpu-launch-to-loops | FileCheck %s

// Kernels whose threads meet at barriers run block by block, the threads in
// lockstep: the ops before the barrier are one loop over the block's 64
// threads, the ops after it another. Shared memory (a workgroup
// attribution) is one host buffer, freed after the launch.
// CHECK-LABEL: func.func @reverse
// CHECK-SAME: (%[[X:.*]]: memref<64xf32>, %[[Y:.*]]: memref<64xf32>)
// CHECK: %[[SH:.*]] = memref.alloc() : memref<64xf32>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for %[[T0:.*]] = %{{.*}} to %c64
// CHECK: %[[V:.*]] = memref.load %[[X]][%[[T0X:.*]]]
// CHECK: memref.store %[[V]], %[[SH]][%[[T0X]]]
// CHECK: }
// CHECK: scf.for %[[T1:.*]] = %{{.*}} to %c64
// CHECK: %[[R:.*]] = arith.subi %c63, %[[T1X:.*]] : index
// CHECK: %[[W:.*]] = memref.load %[[SH]][%[[R]]]
// CHECK: memref.store %[[W]], %[[Y]][%[[T1X]]]
// CHECK-NOT: gpu.
// CHECK: memref.dealloc %[[SH]]
func.func @reverse(%x: memref<64xf32>, %y: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c63 = arith.constant 63 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1)
             workgroup(%sh : memref<64xf32, #gpu.address_space<workgroup>>) {
    %v = memref.load %x[%tx] : memref<64xf32>
    memref.store %v, %sh[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %r = arith.subi %c63, %tx : index
    %w = memref.load %sh[%r] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %w, %y[%tx] : memref<64xf32>
    gpu.terminator
  }
  return
}

// -----

// A barrier inside an scf.for: the loop runs once per block (uniform), its
// body split at the barriers into loops over the threads; the carried value
// is kept per thread in a buffer (initialized by a loop over the threads,
// updated by one at the end of each step), and read back after the loop.
// CHECK-LABEL: func.func @steps
// CHECK: %[[ACC:.*]] = memref.alloc() {alignment = 64 : i64} : memref<32xf32>
// CHECK: scf.for %[[I0:.*]] = %{{.*}} to %c32
// CHECK: memref.store %{{.*}}, %[[ACC]][%[[I0]]]
// CHECK: scf.for %[[K:.*]] = %c0 to %c4 step %c1 {
// CHECK: scf.for %[[T0:.*]] = %{{.*}} to %c32
// CHECK: memref.load %arg0[%[[K]],
// CHECK: scf.for %[[T1:.*]] = %{{.*}} to %c32
// CHECK: memref.load %[[ACC]][%[[T1]]]
// CHECK: arith.addf
// CHECK: scf.for %[[T2:.*]] = %{{.*}} to %c32
// CHECK: memref.store %{{.*}}, %[[ACC]][%[[T2]]]
// CHECK: }
// CHECK: scf.for %[[T3:.*]] = %{{.*}} to %c32
// CHECK: %[[S:.*]] = memref.load %[[ACC]][%[[T3]]]
// CHECK: memref.store %[[S]], %arg1[
func.func @steps(%x: memref<4x32xf32>, %y: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1)
             workgroup(%sh : memref<32xf32, #gpu.address_space<workgroup>>) {
    %acc = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %zero) -> f32 {
      %v = memref.load %x[%i, %tx] : memref<4x32xf32>
      memref.store %v, %sh[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %n0 = arith.addi %tx, %c1 : index
      %n = arith.remui %n0, %c32 : index
      %w = memref.load %sh[%n] : memref<32xf32, #gpu.address_space<workgroup>>
      %s = arith.addf %a, %w : f32
      gpu.barrier
      scf.yield %s : f32
    }
    memref.store %acc, %y[%tx] : memref<32xf32>
    gpu.terminator
  }
  return
}

// -----

// Tensor-core fragments: each warp's lane 0 loads, multiplies and stores
// them in scalar loops (the fragment a vector of 256 elements); the other
// lanes skip them (zeros, the accumulator unchanged).
// CHECK-LABEL: func.func @wmma
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %c32
// CHECK: %[[LEAD:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK-NEXT: scf.if %[[LEAD]] -> (vector<256xf16>)
// CHECK: memref.load %arg0
// CHECK: } else {
// CHECK: arith.constant dense<0.000000e+00> : vector<256xf16>
// CHECK: scf.if %{{.*}} -> (vector<256xf32>)
// CHECK: arith.extf
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %arg2
// CHECK-NOT: gpu.subgroup_mma
func.func @wmma(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %fa = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
    %fb = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index, transpose} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
    %fc = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
    %d = gpu.subgroup_mma_compute %fa, %fb, %fc {b_transpose} : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %d, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.terminator
  }
  return
}

// -----

// A warp-collective nvvm.mma.sync (m16n8k16, bf16, the bf16 matmul
// kernel's form) meets the warp's lanes: its operands are kept per thread,
// then, warp by warp, a loop over the 32 lanes scatters their registers into
// 16 x 16 A, 16 x 8 B and C tiles (PTX fragment layout), D = A B + C is
// summed in f32, and a second lane loop gives each lane its 4 results (the
// llvm.extractvalue ops become buffer reads).
// CHECK-LABEL: func.func @mma_sync
// CHECK-DAG: %[[A:.*]] = memref.alloc() : memref<16x16xf32>
// CHECK-DAG: %[[B:.*]] = memref.alloc() : memref<16x8xf32>
// CHECK-DAG: %[[D:.*]] = memref.alloc() : memref<16x8xf32>
// CHECK: scf.for %[[W:.*]] = %{{.*}} to %c1
// CHECK: scf.for %[[L:.*]] = %{{.*}} to %c32
// CHECK: vector.bitcast %{{.*}} : vector<1xi32> to vector<2xbf16>
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK: memref.store %{{.*}}, %[[B]]
// CHECK: memref.store %{{.*}}, %[[D]]
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: scf.for %{{.*}} = %{{.*}} to %c32
// CHECK: memref.load %[[D]]
// CHECK-NOT: nvvm.mma.sync
// CHECK-NOT: llvm.extractvalue
func.func @mma_sync(%x: memref<32x4xi32>, %c: memref<32x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %a0 = memref.load %x[%tx, %c0] : memref<32x4xi32>
    %a1 = memref.load %x[%tx, %c1] : memref<32x4xi32>
    %a2 = memref.load %x[%tx, %c2] : memref<32x4xi32>
    %a3 = memref.load %x[%tx, %c3] : memref<32x4xi32>
    %f = memref.load %c[%tx, %c0] : memref<32x4xf32>
    %d = nvvm.mma.sync A[%a0, %a1, %a2, %a3] B[%a0, %a1] C[%f, %f, %f, %f] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
    %d0 = llvm.extractvalue %d[0] : !llvm.struct<(f32, f32, f32, f32)>
    %d3 = llvm.extractvalue %d[3] : !llvm.struct<(f32, f32, f32, f32)>
    memref.store %d0, %c[%tx, %c0] : memref<32x4xf32>
    memref.store %d3, %c[%tx, %c3] : memref<32x4xf32>
    gpu.terminator
  }
  return
}
