// RUN: graph-opt %s -split-input-file --graph-gpu-matmul="async-copy-stages=0 bf16-tensor-cores=false" --cse | FileCheck %s
// RUN: graph-opt %s -split-input-file --graph-gpu-matmul --cse | FileCheck %s --check-prefix=ASYNC
// RUN: graph-opt %s -split-input-file --graph-gpu-matmul=fuse-epilogue=false | FileCheck %s --check-prefix=NOFUSE
// RUN: graph-opt %s -split-input-file --graph-gpu-matmul=tf32-tensor-cores=true --cse | FileCheck %s --check-prefix=TF32
// RUN: graph-opt %s -split-input-file --graph-gpu-matmul=pad-min-work=1 --cse | FileCheck %s --check-prefix=PAD

// These check the structure of the kernels (tiling, shared memory,
// barriers, tensor-core ops); no kernel here has run on a GPU. The first
// prefix checks the kernels for chips before sm_80 (async-copy-stages=0:
// the tensor-core kernel's tiles double-buffered through registers;
// bf16-tensor-cores=false: bf16 on the SIMT kernel); ASYNC the defaults
// (three stages filled by cp.async; bf16 by mma.sync).

// f16 x f16 -> f32: the tensor-core kernel. 64x64 block tiles (a 2x2 grid
// for 128x128), 4 warps of 2x2 16x16 fragments, C loaded into the
// accumulators, A [2][64][32+8] and B [2][32][64+8] tiles in dynamic shared
// memory, 2 K steps of 32 for K = 64.
// The default: 3 shared stages ([3][64][40] and [3][32][72] f16, 29184
// bytes), tiles 0 and 1 copied asynchronously before the loop, each its own
// group; per step, a wait for all but the newest group (tile kt landed), a
// barrier, the copies of tile kt + 2 into stage (kt + 2) % 3 (an empty group
// past the last tile), then the math on stage kt % 3. No registers carry
// tiles and no barrier ends the step.
// ASYNC-LABEL: func.func @f16
// ASYNC-DAG: %[[SMEM:.+]] = arith.constant 29184 : i32
// ASYNC: gpu.launch {{.*}} dynamic_shared_memory_size %[[SMEM]]
// ASYNC: %[[SA:.+]] = memref.view {{.*}} to memref<3x64x40xf16, #gpu.address_space<workgroup>>
// ASYNC: %[[SB:.+]] = memref.view {{.*}} to memref<3x32x72xf16, #gpu.address_space<workgroup>>
// ASYNC: nvgpu.device_async_copy %arg0[{{.*}}], %[[SA]][%c0{{.*}}], 8 {bypassL1}
// ASYNC: nvgpu.device_async_copy %arg1[{{.*}}], %[[SB]][%c0{{.*}}], 8 {bypassL1}
// ASYNC: %[[G0:.+]] = nvgpu.device_async_create_group
// ASYNC: nvgpu.device_async_copy %arg0[{{.*}}], %[[SA]][%c1{{.*}}], 8 {bypassL1}
// ASYNC: %[[G1:.+]] = nvgpu.device_async_create_group
// ASYNC: scf.for %[[KT:.+]] = {{.*}} iter_args(
// ASYNC-NEXT: nvgpu.device_async_wait %[[G1]] {numGroups = 1 : i32}
// ASYNC-NEXT: gpu.barrier
// ASYNC: scf.if
// ASYNC: nvgpu.device_async_copy
// ASYNC: nvgpu.device_async_create_group
// ASYNC: } else {
// ASYNC-NEXT: nvgpu.device_async_create_group{{ *$}}
// ASYNC: arith.remui %[[KT]]
// ASYNC-COUNT-8: gpu.subgroup_mma_compute
// ASYNC-NOT: gpu.barrier
// ASYNC: scf.yield
// CHECK-LABEL: func.func @f16
// CHECK-SAME: (%[[A:.+]]: memref<128x64xf16>, %[[B:.+]]: memref<64x128xf16>, %[[C:.+]]: memref<128x128xf32>)
// CHECK-NOT: linalg.matmul
// CHECK-DAG: %[[GRID:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[T128:.+]] = arith.constant 128 : index
// CHECK-DAG: %[[SMEM:.+]] = arith.constant 19456 : i32
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %[[GRID]], {{.*}} = %[[GRID]], {{.*}}) threads({{.*}}) in ({{.*}} = %[[T128]], {{.*}}) dynamic_shared_memory_size %[[SMEM]]
// CHECK: %[[DYN:.+]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: %[[SA:.+]] = memref.view %[[DYN]]{{.*}} to memref<2x64x40xf16, #gpu.address_space<workgroup>>
// CHECK: %[[SB:.+]] = memref.view %[[DYN]]{{.*}} to memref<2x32x72xf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-4: gpu.subgroup_mma_load_matrix %[[C]][{{.*}}] {leadDimension = 128 : index} : memref<128x128xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
// CHECK: vector.load %[[A]][{{.*}}] {alignment = 16 : i64} : memref<128x64xf16>, vector<8xf16>
// CHECK: vector.store %{{.*}}, %[[SA]][{{.*}}] {alignment = 16 : i64} : memref<2x64x40xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK: vector.load %[[B]][{{.*}}] {alignment = 16 : i64} : memref<64x128xf16>, vector<8xf16>
// CHECK: vector.store %{{.*}}, %[[SB]]
// CHECK: gpu.barrier
// CHECK: %[[ACC:.+]]:4 = scf.for %[[KT:.+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (!gpu.mma_matrix<16x16xf32, "COp">, {{.*}}) {
// The next K tile is loaded into registers before the math...
// CHECK: vector.load %[[A]]
// CHECK: vector.load %[[B]]
// CHECK: %[[STAGE:.+]] = arith.remui %[[KT]]
// CHECK: gpu.subgroup_mma_load_matrix %[[SA]][%[[STAGE]], {{.*}}] {leadDimension = 40 : index} : {{.*}} -> !gpu.mma_matrix<16x16xf16, "AOp">
// CHECK: gpu.subgroup_mma_load_matrix %[[SB]][%[[STAGE]], {{.*}}] {leadDimension = 72 : index} : {{.*}} -> !gpu.mma_matrix<16x16xf16, "BOp">
// CHECK-COUNT-4: gpu.subgroup_mma_compute
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-4: gpu.subgroup_mma_compute
// ...and stored into the other buffer after it, then one barrier.
// CHECK: %[[NEXT:.+]] = arith.remui
// CHECK: vector.store %{{.*}}, %[[SA]][%[[NEXT]],
// CHECK: vector.store %{{.*}}, %[[SB]][%[[NEXT]],
// CHECK: gpu.barrier
// CHECK-NEXT: scf.yield
// CHECK-COUNT-4: gpu.subgroup_mma_store_matrix %[[ACC]]#{{[0-3]}}, %[[C]][{{.*}}] {leadDimension = 128 : index}
// CHECK: gpu.terminator
func.func @f16(%a: memref<128x64xf16>, %b: memref<64x128xf16>, %c: memref<128x128xf32>) {
  linalg.matmul ins(%a, %b : memref<128x64xf16>, memref<64x128xf16>) outs(%c : memref<128x128xf32>)
  return
}

// -----

// f32: the SIMT kernel, IEEE f32 FMAs (no tensor cores, so no TF32).
// 128x128 block tiles of 256 threads with 8x8 register tiles (16 vectors
// of 4); A is transposed into a k-major [2][8][128+4] tile with scalar
// shared stores, B copied as vectors into [2][8][128+4].
// CHECK-LABEL: func.func @f32
// CHECK-SAME: (%[[A:.+]]: memref<128x64xf32>, %[[B:.+]]: memref<64x256xf32>, %[[C:.+]]: memref<128x256xf32>)
// CHECK-NOT: linalg.matmul
// CHECK-DAG: %[[GX:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[GY:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[T256:.+]] = arith.constant 256 : index
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %[[GX]], {{.*}} = %[[GY]], {{.*}}) threads({{.*}}) in ({{.*}} = %[[T256]], {{.*}})
// CHECK: %[[SA:.+]] = memref.view {{.*}} to memref<2x8x132xf32, #gpu.address_space<workgroup>>
// CHECK: %[[SB:.+]] = memref.view {{.*}} to memref<2x8x132xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-16: vector.load %[[C]][{{.*}}] {alignment = 16 : i64} : memref<128x256xf32>, vector<4xf32>
// CHECK: vector.load %[[A]][{{.*}}] {alignment = 16 : i64} : memref<128x64xf32>, vector<4xf32>
// CHECK-COUNT-4: memref.store %{{.*}}, %[[SA]]
// CHECK: vector.load %[[B]]
// CHECK: vector.store %{{.*}}, %[[SB]]
// CHECK: gpu.barrier
// CHECK: scf.for {{.*}} -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
// CHECK: vector.load %[[SA]][{{.*}}] {alignment = 16 : i64} : memref<2x8x132xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: vector.load %[[SB]]
// CHECK-COUNT-128: vector.fma
// CHECK-NOT: vector.fma
// CHECK: memref.store %{{.*}}, %[[SA]]
// CHECK: vector.store %{{.*}}, %[[SB]]
// CHECK: gpu.barrier
// CHECK-NEXT: scf.yield
// CHECK-COUNT-16: vector.store %{{.*}}, %[[C]]
func.func @f32(%a: memref<128x64xf32>, %b: memref<64x256xf32>, %c: memref<128x256xf32>) {
  linalg.matmul ins(%a, %b : memref<128x64xf32>, memref<64x256xf32>) outs(%c : memref<128x256xf32>)
  return
}

// -----

// A @ B^T (B stored [N, K]): the B tile keeps its layout in shared memory
// ([2][64][32+8]) and is read with column-major (transposed) WMMA loads;
// the compute op must say so too.
// CHECK-LABEL: func.func @a_bt
// CHECK: %[[SA:.+]] = memref.view {{.*}} to memref<2x64x40xf16, #gpu.address_space<workgroup>>
// CHECK: %[[SB:.+]] = memref.view {{.*}} to memref<2x64x40xf16, #gpu.address_space<workgroup>>
// CHECK: gpu.subgroup_mma_load_matrix %[[SA]][{{.*}}] {leadDimension = 40 : index} : {{.*}} -> !gpu.mma_matrix<16x16xf16, "AOp">
// CHECK: gpu.subgroup_mma_load_matrix %[[SB]][{{.*}}] {leadDimension = 40 : index, transpose} : {{.*}} -> !gpu.mma_matrix<16x16xf16, "BOp">
// CHECK: gpu.subgroup_mma_compute {{.*}} {b_transpose}
#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @a_bt(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A^T @ B (A stored [K, M]) on the SIMT path: A is already k-major, so its
// tile is copied with vector stores; nothing is stored element by element.
// CHECK-LABEL: func.func @at_b
// CHECK: %[[SA:.+]] = memref.view {{.*}} to memref<2x8x132xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.store
// CHECK: vector.store %{{.*}}, %[[SA]]
// CHECK-NOT: memref.store
// CHECK: gpu.terminator
#at = affine_map<(m, n, k) -> (k, m)>
#b2 = affine_map<(m, n, k) -> (k, n)>
#c2 = affine_map<(m, n, k) -> (m, n)>
func.func @at_b(%a: memref<64x128xf32>, %b: memref<64x128xf32>, %c: memref<128x128xf32>) {
  linalg.generic {indexing_maps = [#at, #b2, #c2], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x128xf32>, memref<64x128xf32>) outs(%c : memref<128x128xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Batched: the batch is grid z and the first index of every global access.
// CHECK-LABEL: func.func @batched
// CHECK-SAME: (%[[A:.+]]: memref<4x64x64xf16>, %[[B:.+]]: memref<4x64x64xf16>, %[[C:.+]]: memref<4x64x64xf32>)
// CHECK-DAG: %[[BATCH:.+]] = arith.constant 4 : index
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %[[BZ:.+]]) in ({{.*}}, {{.*}}, {{.*}} = %[[BATCH]])
// CHECK: gpu.subgroup_mma_load_matrix %[[C]][%[[BZ]], {{.*}}] {leadDimension = 64 : index} : memref<4x64x64xf32>
// CHECK: vector.load %[[A]][%[[BZ]], {{.*}}] {alignment = 16 : i64} : memref<4x64x64xf16>, vector<8xf16>
// CHECK: vector.load %[[B]][%[[BZ]], {{.*}}] {alignment = 16 : i64} : memref<4x64x64xf16>, vector<8xf16>
// CHECK: gpu.subgroup_mma_compute
// CHECK: gpu.subgroup_mma_store_matrix %{{.*}}, %[[C]][%[[BZ]],
func.func @batched(%a: memref<4x64x64xf16>, %b: memref<4x64x64xf16>, %c: memref<4x64x64xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<4x64x64xf16>, memref<4x64x64xf16>) outs(%c : memref<4x64x64xf32>)
  return
}

// -----

// bf16 without tensor cores: the SIMT kernel, with the tiles widened to f32
// on their way into shared memory. M = 64 halves the block tile along M (64
// rows, 4-row thread tiles; 16x16 threads).
// CHECK-LABEL: func.func @bf16
// CHECK-NOT: gpu.subgroup_mma
// CHECK-DAG: %[[T256:.+]] = arith.constant 256 : index
// CHECK: gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %[[T256]],
// CHECK: %[[SA:.+]] = memref.view {{.*}} to memref<2x8x68xf32, #gpu.address_space<workgroup>>
// CHECK: %[[SB:.+]] = memref.view {{.*}} to memref<2x8x132xf32, #gpu.address_space<workgroup>>
// A's 64x8 tile is 512 elements for 256 threads: pairs.
// CHECK: %[[V:.+]] = vector.load %{{.*}} {alignment = 4 : i64} : memref<64x64xbf16>, vector<2xbf16>
// CHECK: arith.extf %[[V]] : vector<2xbf16> to vector<2xf32>
// CHECK-COUNT-64: vector.fma
// CHECK-NOT: vector.fma
// bf16 on tensor cores (the default; gpu.mma_matrix has no bf16 in MLIR
// 22): nvvm.mma.sync m16n8k16 on per-lane fragments; A [3][64][32+8] and
// B [3][32][64+8] bf16 tiles in their global layout (64 x 64 blocks), three
// stages filled by 16-byte cp.async; per 16-wide K step each warp loads its
// two A fragments by ldmatrix.x4 and its four B fragments by two
// ldmatrix.x4.trans (B is k-major); per K tile (2 steps of 16) each warp's
// 32x32 tile is 2 x 4 mma.sync, 16 in all. No tile passes through
// registers, and no element-wise shared store remains.
// ASYNC-LABEL: func.func @bf16
// ASYNC: gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c128,
// ASYNC: %[[SA:.+]] = memref.view {{.*}} to memref<3x64x40xbf16, #gpu.address_space<workgroup>>
// ASYNC: %[[SB:.+]] = memref.view {{.*}} to memref<3x32x72xbf16, #gpu.address_space<workgroup>>
// ASYNC-NOT: memref.store
// ASYNC: nvgpu.device_async_copy %{{.*}}, %[[SA]][{{.*}}], 8 {bypassL1}
// ASYNC: nvgpu.device_async_copy %{{.*}}, %[[SB]][{{.*}}], 8 {bypassL1}
// ASYNC: scf.for
// ASYNC: nvgpu.device_async_wait {{.*}} {numGroups = 1 : i32}
// ASYNC-NEXT: gpu.barrier
// ASYNC-COUNT-2: nvgpu.ldmatrix %[[SA]][{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<3x64x40xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// ASYNC-COUNT-2: nvgpu.ldmatrix %[[SB]][{{.*}}] {numTiles = 4 : i32, transpose = true} : memref<3x32x72xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// ASYNC: vector.bitcast {{.*}} : vector<2xbf16> to vector<1xi32>
// ASYNC-COUNT-16: nvvm.mma.sync {{.*}}layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>
// ASYNC-NOT: nvvm.mma.sync
// ASYNC-NOT: gpu.barrier
// ASYNC: vector.store {{.*}} {alignment = 8 : i64} : memref<64x128xf32>, vector<2xf32>
func.func @bf16(%a: memref<64x64xbf16>, %b: memref<64x128xbf16>, %c: memref<64x128xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xbf16>, memref<64x128xbf16>) outs(%c : memref<64x128xf32>)
  return
}

// -----

// f32 stays IEEE f32 on the SIMT kernel unless TF32 is asked for
// (tf32-tensor-cores, the CUDA pipeline's `tf32`): then nvvm.mma.sync
// m16n8k8 with TF32 multiplicands, A [2][64][32+4] and B [2][32][64+8]
// f32 tiles in their global layout (two cp.async stages fit in 48 KiB),
// each fragment element rounded to TF32 (cvt.rna) as it is loaded (4 A + 2
// B registers per m16n8k8 step): A's by ldmatrix.x4 (8x8 b16 matrices as
// 8 rows of 4 f32), k-major B's element by element (B's rows padded by 8
// floats: lane 4g + t reads row t, column g, in 32 distinct banks); per K
// tile (4 steps of 8) each warp's 32x32 tile is 2 x 4 mma.sync, 32 in all.
// CHECK-LABEL: func.func @f32_tf32
// CHECK-NOT: nvvm.mma.sync
// CHECK: vector.fma
// ASYNC-LABEL: func.func @f32_tf32
// ASYNC-NOT: nvvm.mma.sync
// ASYNC-NOT: tf32
// ASYNC: vector.fma
// TF32-LABEL: func.func @f32_tf32
// TF32: gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c128,
// TF32: %[[SA:.+]] = memref.view {{.*}} to memref<2x64x36xf32, #gpu.address_space<workgroup>>
// TF32: %[[SB:.+]] = memref.view {{.*}} to memref<2x32x72xf32, #gpu.address_space<workgroup>>
// TF32: nvgpu.device_async_copy %{{.*}}, %[[SA]][{{.*}}], 4 {bypassL1}
// TF32: scf.for
// TF32: nvgpu.device_async_wait {{.*}} {numGroups = 0 : i32}
// TF32: %[[L:.+]] = nvgpu.ldmatrix %[[SA]][{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<2x64x36xf32, #gpu.address_space<workgroup>> -> vector<4x1xf32>
// TF32: %[[R:.+]] = vector.extract %[[L]][0] : vector<1xf32> from vector<4x1xf32>
// TF32: %[[E:.+]] = vector.extract %[[R]][0]
// TF32: nvvm.convert.float.to.tf32 %[[E]] {rnd = #nvvm.fp_rnd_mode<rna>}
// TF32: %[[F:.+]] = memref.load %[[SB]]
// TF32: nvvm.convert.float.to.tf32 %[[F]] {rnd = #nvvm.fp_rnd_mode<rna>}
// TF32-COUNT-32: nvvm.mma.sync {{.*}}layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>
// TF32-NOT: nvvm.mma.sync
// TF32: vector.store {{.*}} {alignment = 8 : i64} : memref<64x128xf32>, vector<2xf32>
func.func @f32_tf32(%a: memref<64x64xf32>, %b: memref<64x128xf32>, %c: memref<64x128xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x128xf32>) outs(%c : memref<64x128xf32>)
  return
}

// -----

// f16 whose K the tensor-core K tile (32) does not divide but the SIMT
// K tile (8) does.
// CHECK-LABEL: func.func @f16_simt
// CHECK-NOT: gpu.subgroup_mma
// CHECK: vector.fma
func.func @f16_simt(%a: memref<64x48xf16>, %b: memref<48x64xf16>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x48xf16>, memref<48x64xf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// Sizes no tile divides stay linalg, for the default lowering, under
// pad-min-work (2^22 multiply-adds; this is 2^19 and a bit). With it
// lower (PAD): zero-filled copies of B and C (which holds values: the
// product is added to it) padded to the SIMT tiles (M, N 100 -> 128), the
// kernel on them reading A in place (padded along M only: its row index
// clamped to 99), C's valid part copied back, the padded buffers freed.
// CHECK-LABEL: func.func @ragged
// CHECK-NOT: gpu.launch
// CHECK: linalg.matmul
// PAD-LABEL: func.func @ragged
// PAD-NOT: memref<128x64xf32>
// PAD: %[[B:.+]] = memref.alloc() : memref<64x128xf32>
// PAD: linalg.fill {{.*}} outs(%[[B]] : memref<64x128xf32>)
// PAD: %[[BV:.+]] = memref.subview %[[B]][0, 0] [64, 100] [1, 1]
// PAD: memref.copy %arg1, %[[BV]]
// PAD: %[[C:.+]] = memref.alloc() : memref<128x128xf32>
// PAD: %[[CV:.+]] = memref.subview %[[C]][0, 0] [100, 100] [1, 1]
// PAD: memref.copy %arg2, %[[CV]]
// PAD-NOT: linalg.matmul
// PAD: gpu.launch {{.*}} in ({{.*}} = %c1, {{.*}} = %c1, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c256,
// PAD: arith.minui {{.*}}, %c99
// PAD: vector.load %arg0
// PAD: vector.fma
// PAD: memref.copy %[[CV]], %arg2
// PAD-DAG: memref.dealloc %[[B]]
// PAD-DAG: memref.dealloc %[[C]]
func.func @ragged(%a: memref<100x64xf32>, %b: memref<64x100xf32>, %c: memref<100x100xf32>) {
  linalg.matmul ins(%a, %b : memref<100x64xf32>, memref<64x100xf32>) outs(%c : memref<100x100xf32>)
  return
}

// -----

// A constant B (a get_global of a constant global with dense contents) is
// padded at compile time: a new constant global holding it zero-padded
// (here N 24 -> 64: the SIMT half tile), read by the kernel in place of a
// fill and a copy; one padded global for the two products that read it;
// the original global, no longer used, goes. (16 x 8 x 24 multiply-adds:
// under PAD's pad-min-work only.)
// PAD-LABEL: memref.global "private" constant @w_padded : memref<8x64xf32> = dense_resource<w_padded>
// PAD-NOT: memref.global "private" constant @w :
// (C holds values here: it is still padded and copied, as in @ragged.)
// PAD-LABEL: func.func @constant_b
// PAD: %[[W:.+]] = memref.get_global @w_padded : memref<8x64xf32>
// PAD-NOT: memref<8x24xf32>
// PAD: gpu.launch
// PAD-NOT: memref<8x24xf32>
// PAD: gpu.launch
// PAD-NOT: memref<8x24xf32>
// PAD-NOT: linalg.matmul
// PAD: return
memref.global "private" constant @w : memref<8x24xf32> = dense<[[-2.0, -1.75, -1.5, -1.25, -1.0, -0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, -2.0, -1.75, -1.5, -1.25, -1.0, -0.75, -0.5], [-0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, -2.0, -1.75, -1.5, -1.25, -1.0, -0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.25], [1.5, 1.75, 2.0, -2.0, -1.75, -1.5, -1.25, -1.0, -0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, -2.0, -1.75, -1.5, -1.25], [-1.0, -0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, -2.0, -1.75, -1.5, -1.25, -1.0, -0.75, -0.5, -0.25, 0.0, 0.25, 0.5], [0.75, 1.0, 1.25, 1.5, 1.75, 2.0, -2.0, -1.75, -1.5, -1.25, -1.0, -0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, -2.0], [-1.75, -1.5, -1.25, -1.0, -0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, -2.0, -1.75, -1.5, -1.25, -1.0, -0.75, -0.5, -0.25], [0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, -2.0, -1.75, -1.5, -1.25, -1.0, -0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5], [1.75, 2.0, -2.0, -1.75, -1.5, -1.25, -1.0, -0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, -2.0, -1.75, -1.5, -1.25, -1.0]]>
func.func @constant_b(%a: memref<16x8xf32>, %c: memref<16x24xf32>, %d: memref<16x24xf32>) {
  %w = memref.get_global @w : memref<8x24xf32>
  linalg.matmul ins(%a, %w : memref<16x8xf32>, memref<8x24xf32>) outs(%c : memref<16x24xf32>)
  linalg.matmul ins(%a, %w : memref<16x8xf32>, memref<8x24xf32>) outs(%d : memref<16x24xf32>)
  return
}

// -----

// Contractions whose body computes more than acc + a * b (here exp, neg,
// tanh; an f16 absf and an f16 product) are left alone: the kernels would
// drop those ops. So are zero-size contractions (no work; a zero-size grid
// is not a valid launch).
// CHECK-LABEL: func.func @extra_ops
// CHECK-NOT: gpu.launch
// CHECK: linalg.generic
// CHECK-LABEL: func.func @f16_product
// CHECK-NOT: gpu.launch
// CHECK: linalg.generic
// CHECK-LABEL: func.func @empty_batch
// CHECK-NOT: gpu.launch
// CHECK: linalg.batch_matmul
// CHECK-LABEL: func.func @empty_m
// CHECK-NOT: gpu.launch
// CHECK: linalg.matmul
// CHECK-LABEL: func.func @empty_k
// CHECK-NOT: gpu.launch
// CHECK: linalg.matmul
func.func @extra_ops(%a: memref<128x64xf32>, %b: memref<64x128xf32>, %c: memref<128x128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m,n,k)->(m,k)>, affine_map<(m,n,k)->(k,n)>, affine_map<(m,n,k)->(m,n)>], iterator_types = ["parallel","parallel","reduction"]}
    ins(%a, %b : memref<128x64xf32>, memref<64x128xf32>) outs(%c : memref<128x128xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %e = math.exp %x : f32
    %p = arith.mulf %e, %y : f32
    %zn = arith.negf %z : f32
    %s = arith.addf %zn, %p : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  }
  return
}
func.func @f16_product(%a: memref<128x64xf16>, %b: memref<64x128xf16>, %c: memref<128x128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m,n,k)->(m,k)>, affine_map<(m,n,k)->(k,n)>, affine_map<(m,n,k)->(m,n)>], iterator_types = ["parallel","parallel","reduction"]}
    ins(%a, %b : memref<128x64xf16>, memref<64x128xf16>) outs(%c : memref<128x128xf32>) {
  ^bb0(%x: f16, %y: f16, %z: f32):
    %x2 = math.absf %x : f16
    %p = arith.mulf %x2, %y : f16
    %pe = arith.extf %p : f16 to f32
    %s = arith.addf %z, %pe : f32
    linalg.yield %s : f32
  }
  return
}
func.func @empty_batch(%a: memref<0x64x64xf16>, %b: memref<0x64x64xf16>, %c: memref<0x64x64xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<0x64x64xf16>, memref<0x64x64xf16>) outs(%c : memref<0x64x64xf32>)
  return
}
func.func @empty_m(%a: memref<0x64xf16>, %b: memref<64x128xf16>, %c: memref<0x128xf32>) {
  linalg.matmul ins(%a, %b : memref<0x64xf16>, memref<64x128xf16>) outs(%c : memref<0x128xf32>)
  return
}
func.func @empty_k(%a: memref<128x0xf32>, %b: memref<0x128xf32>, %c: memref<128x128xf32>) {
  linalg.matmul ins(%a, %b : memref<128x0xf32>, memref<0x128xf32>) outs(%c : memref<128x128xf32>)
  return
}

// -----

// Tile sizes are options: 128x128 blocks of 8 warps with 64x32 warp tiles.
// RUN: graph-opt %s -split-input-file --graph-gpu-matmul="mma-tile-m=128 mma-tile-n=128 mma-warp-tile-m=64" | FileCheck %s --check-prefix=OPT
// OPT-LABEL: func.func @options
// OPT-DAG: %[[T256:.+]] = arith.constant 256 : index
// OPT: gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %[[T256]],
// OPT: memref.view {{.*}} to memref<2x128x40xf16, #gpu.address_space<workgroup>>
// OPT-COUNT-8: gpu.subgroup_mma_load_matrix {{.*}} "COp">
// OPT-NOT: "COp">
// OPT: scf.for
func.func @options(%a: memref<128x64xf16>, %b: memref<64x128xf16>, %c: memref<128x128xf32>) {
  linalg.matmul ins(%a, %b : memref<128x64xf16>, memref<64x128xf16>) outs(%c : memref<128x128xf32>)
  return
}

// -----

// An elementwise op after the product that reads C (bias, relu, rounding to
// f16) is applied in the kernel: the fragments are staged in shared memory
// ([64][64+4] f32, at the start of dynamic shared memory), then each of the
// 128 threads takes every 128th group of 4 columns of the tile (8 groups),
// applies the body to each element and stores the 4 results into the op's
// output as one vector. C is not stored; the generic goes.
// CHECK-LABEL: func.func @epilogue
// CHECK-SAME: (%[[A:.+]]: memref<64x64xf16>, %[[B:.+]]: memref<64x64xf16>, %[[BIAS:.+]]: memref<64xf16>)
// CHECK: %[[OUT:.+]] = memref.alloc() : memref<64x64xf16>
// CHECK: gpu.launch
// CHECK-NOT: gpu.subgroup_mma_store_matrix {{.*}} memref<64x64xf32>
// CHECK: %[[ST:.+]] = memref.view {{.*}} to memref<64x68xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-4: gpu.subgroup_mma_store_matrix {{.*}}, %[[ST]][{{.*}}] {leadDimension = 68 : index}
// CHECK: gpu.barrier
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c8
// CHECK: %[[V:.+]] = vector.load %[[ST]][{{.*}}] {alignment = 16 : i64} : memref<64x68xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK-COUNT-4: memref.load %[[BIAS]]
// CHECK: arith.maximumf
// CHECK: vector.from_elements
// CHECK: vector.store %{{.*}}, %[[OUT]][{{.*}}] {alignment = 8 : i64} : memref<64x64xf16>, vector<4xf16>
// CHECK-NOT: linalg.generic
// CHECK: return %[[OUT]]
// With fuse-epilogue=false the kernel stores C and the generic stays.
// NOFUSE-LABEL: func.func @epilogue
// NOFUSE: gpu.launch
// NOFUSE: gpu.subgroup_mma_store_matrix {{.*}} memref<64x64xf32>
// NOFUSE: linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @epilogue(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %bias: memref<64xf16>) -> memref<64x64xf16> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  %out = memref.alloc() : memref<64x64xf16>
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<64x64xf32>, memref<64xf16>) outs(%out : memref<64x64xf16>) {
  ^bb0(%x: f32, %y: f16, %o: f16):
    %ye = arith.extf %y : f16 to f32
    %s = arith.addf %x, %ye : f32
    %r = arith.maximumf %s, %zero : f32
    %t = arith.truncf %r : f32 to f16
    linalg.yield %t : f16
  }
  memref.dealloc %c : memref<64x64xf32>
  return %out : memref<64x64xf16>
}

// -----

// Not fused: an elementwise op writing the contraction's own A (a buffer
// bufferization reuses for the next layer's output, as in a two-layer
// MLP): the kernel's blocks would store into A while other blocks still
// read it. C is stored and the generic stays.
// CHECK-LABEL: func.func @epilogue_writes_a
// CHECK: gpu.launch
// CHECK: gpu.subgroup_mma_store_matrix {{.*}} memref<64x64xf32>
// CHECK: linalg.generic
#id3 = affine_map<(d0, d1) -> (d0, d1)>
func.func @epilogue_writes_a(%b: memref<64x64xf16>) -> memref<64x64xf16> {
  %zero = arith.constant 0.0 : f32
  %h = arith.constant 1.0 : f16
  %a = memref.alloc() : memref<64x64xf16>
  linalg.fill ins(%h : f16) outs(%a : memref<64x64xf16>)
  %c = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<64x64xf32>) outs(%a : memref<64x64xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  }
  memref.dealloc %c : memref<64x64xf32>
  return %a : memref<64x64xf16>
}

// -----

// A transposed operand (linalg.transpose into a buffer only the product
// reads: F.linear as imported) is read in place, in the other layout: the
// transpose and its buffer go. Not where something between the two may
// write the transposed buffer's source (@transpose_written_between).
// CHECK-LABEL: func.func @transpose_folded
// CHECK-SAME: (%[[A:.+]]: memref<64x64xf16>, %[[W:.+]]: memref<64x64xf16>
// CHECK-NOT: linalg.transpose
// CHECK-NOT: memref.alloc() : memref<64x64xf16>
// CHECK: gpu.launch
// CHECK: vector.load %[[W]]
// CHECK: gpu.subgroup_mma_load_matrix {{.*}} transpose}
// CHECK-NOT: linalg.transpose
// CHECK: return
// CHECK-LABEL: func.func @transpose_written_between
// CHECK: linalg.transpose
// CHECK: memref.copy
// CHECK: gpu.launch
func.func @transpose_folded(%a: memref<64x64xf16>, %w: memref<64x64xf16>, %c: memref<64x64xf32>) {
  %t = memref.alloc() : memref<64x64xf16>
  linalg.transpose ins(%w : memref<64x64xf16>) outs(%t : memref<64x64xf16>) permutation = [1, 0]
  linalg.matmul ins(%a, %t : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  memref.dealloc %t : memref<64x64xf16>
  return
}
func.func @transpose_written_between(%a: memref<64x64xf16>, %w: memref<64x64xf16>, %s: memref<64x64xf16>, %c: memref<64x64xf32>) {
  %t = memref.alloc() : memref<64x64xf16>
  linalg.transpose ins(%w : memref<64x64xf16>) outs(%t : memref<64x64xf16>) permutation = [1, 0]
  memref.copy %s, %w : memref<64x64xf16> to memref<64x64xf16>
  linalg.matmul ins(%a, %t : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  memref.dealloc %t : memref<64x64xf16>
  return
}

// -----

// Not fused: an op with effects between the product and the elementwise op
// (the kernel cannot move past it), or `fuse-epilogue=false`. C is stored
// and the generic stays.
// CHECK-LABEL: func.func @effect_between
// CHECK: gpu.launch
// CHECK: gpu.subgroup_mma_store_matrix {{.*}} memref<64x64xf32>
// CHECK: memref.copy
// CHECK: linalg.generic
// NOFUSE-LABEL: func.func @effect_between
// NOFUSE: linalg.generic
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @effect_between(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %s: memref<64xf16>, %d: memref<64xf16>) -> memref<64x64xf16> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  memref.copy %s, %d : memref<64xf16> to memref<64xf16>
  %out = memref.alloc() : memref<64x64xf16>
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<64x64xf32>) outs(%out : memref<64x64xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  }
  memref.dealloc %c : memref<64x64xf32>
  return %out : memref<64x64xf16>
}
