// graph-cuda-pipeline gives matmul-class ops the graph-gpu-matmul kernels:
// tensor cores (WMMA) for f16, SIMT FMAs on register tiles for f32 and bf16,
// both with double-buffered shared-memory tiles. These check the PTX text
// (the gpu.binary assembly, one line per kernel); none of it has run on a
// GPU (their numerics are checked under CPU emulation:
// test/Integration/gpu-matmul-kernels.mlir). The matmul kernel is the first
// of each function: its accumulators start at zero in registers, so the zero
// fill of the f32 accumulator is no kernel of its own, and the rounding of
// f16/bf16 results (and a bias or activation after the product) is applied
// in the kernel before its one store (graph-gpu-matmul's epilogue): one
// kernel per matmul.
// RUN: graph-opt %s -split-input-file --graph-cuda-pipeline=lower-host=false | FileCheck %s
// RUN: graph-opt %s -split-input-file --graph-cuda-pipeline=lower-host=false | FileCheck %s --check-prefix=ZERO
// No kernel loads C into the accumulator fragments, and no fill kernel of
// the accumulator remains (its zeros are registers).
// ZERO-NOT: wmma.load.c
// ZERO-NOT: linalg.fill
// The dynamic shared memory is declared as the launch's (`.extern ... []`),
// not demoted to a one-byte kernel-local variable the tiles index past.
// ZERO-NOT: demoted
// RUN: graph-opt %s -split-input-file --graph-cuda-pipeline="chip=sm_80 features=+ptx70 lower-host=false" | FileCheck %s --check-prefix=SM80
// RUN: graph-opt %s -split-input-file --graph-cuda-pipeline="chip=sm_75 features=+ptx70 lower-host=false" | FileCheck %s --check-prefix=SM75
// RUN: graph-opt %s -split-input-file --graph-cuda-pipeline="tf32=true lower-host=false" | FileCheck %s --check-prefix=TF32
// RUN: graph-opt %s -split-input-file --graph-cuda-pipeline="chip=sm_75 features=+ptx70 tf32=true lower-host=false" | FileCheck %s --check-prefix=TF32SM75
// Hopper's arch-specific sm_90a: the f16 matmul on warpgroup MMAs (B
// stored [K, N]: MN-major, layout row, the descriptor's transpose flag
// 1), the dynamic shared memory aligned to 1024 bytes (the 128-byte
// swizzle's period, base offset 0 in the descriptors), the tiles copied
// by TMA from tensor maps passed as kernel arguments, an mbarrier per
// stage; with tma=false by cp.async, the copies ordered before the MMAs
// by a proxy fence. (The f32 and other programs here are unchanged on
// sm_90a.)
// RUN: graph-opt %s -split-input-file --graph-cuda-pipeline="chip=sm_90a lower-host=false" | FileCheck %s --check-prefix=SM90A
// RUN: graph-opt %s -split-input-file --graph-cuda-pipeline="chip=sm_90a tma=false lower-host=false" | FileCheck %s --check-prefix=SM90ACP

// CHECK-LABEL: func.func @f16
// CHECK: gpu.launch_func @f16_kernel::@f16_kernel blocks in (%{{.*}}) threads in (%{{.*}}) dynamic_shared_memory_size
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.binary @f16_kernel [
// CHECK-SAME: .extern .shared .align 128 .b8 __dynamic_shmem__0[]
// Tiles 0 and 1 copied to shared memory asynchronously (16-byte cp.async,
// bypassing L1), one commit group each (the accumulators start at zero: no
// C load). In the K loop (its blocks in LLVM's order): tensor-core math on
// fragments from shared memory; a wait for all but the newest group and one
// barrier; the copies of the tile two steps ahead, in flight during the
// next steps' math. No tile passes through registers: no global load at
// all before the epilogue.
// CHECK-NOT: ld.global
// CHECK-SAME: cp.async.cg.shared.global {{[^;]*}}, 16;
// CHECK-NOT: ld.global
// CHECK-SAME: cp.async.commit_group;
// CHECK-NOT: ld.global
// CHECK-SAME: cp.async.commit_group;
// CHECK-NOT: ld.global
// CHECK-SAME: wmma.load.a.sync.aligned.row.m16n16k16.shared.f16
// CHECK-SAME: wmma.load.b.sync.aligned.row.m16n16k16.shared.f16
// CHECK-SAME: wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32
// CHECK-NOT: ld.global
// CHECK-SAME: cp.async.wait_group {{[^;]*}}1;{{[^;]*}}bar.sync
// CHECK-NOT: ld.global
// CHECK-SAME: cp.async.cg.shared.global {{[^;]*}}, 16;
// CHECK-NOT: ld.global
// A barrier before the staging tile overwrites the last stage.
// CHECK-SAME: bar.sync
// CHECK-NOT: ld.global
// The epilogue: fragments staged in shared memory (rows of 64 + 4 floats),
// a barrier, then each thread reads 4 columns at a time (16 bytes), rounds
// them to f16 and stores them (8 bytes).
// CHECK-SAME: mov.b32 {{.*}}, 68;
// CHECK-SAME: wmma.store.d.sync.aligned.row.m16n16k16.shared.f32
// CHECK-SAME: bar.sync
// CHECK-SAME: ld.shared.v4.b32
// CHECK-SAME: cvt.rn.f16x2.f32
// CHECK-SAME: st.global.v2.b32
// Before sm_80 (no cp.async) the tiles go through registers, double
// buffered:
// SM75: gpu.binary @f16_kernel [
// SM75-SAME: .target sm_75
// SM75-NOT: cp.async
// SM75-SAME: ld.global.v4.b32
// SM75-SAME: wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32
// SM75-NOT: cp.async
// SM80: gpu.binary @f16_kernel [
// SM80-SAME: .target sm_80
// SM80-SAME: cp.async.cg.shared.global
// SM80-SAME: wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32
// The tensor maps of A and B: runtime calls on the host, before the
// launch, their pointers the kernel's first arguments.
// SM90A-LABEL: func.func @f16
// SM90A: %[[MA:.*]] = call @graphopt_cuda_tensor_map_f16(%{{.*}}, %c64, %c128)
// SM90A: %[[MB:.*]] = call @graphopt_cuda_tensor_map_f16(%{{.*}}, %c64, %c64)
// SM90A: gpu.launch_func @f16_kernel::@f16_kernel blocks in (%{{.*}}) threads in (%{{.*}}) dynamic_shared_memory_size %{{.*}} args(%[[MA]] : !llvm.ptr, %[[MB]] : !llvm.ptr,
// SM90A-NOT: gpu.launch_func
// SM90A: gpu.binary @f16_kernel [
// SM90A-SAME: .target sm_90a
// SM90A-SAME: .extern .shared .align 1024 .b8 __dynamic_shmem__0[]
// Thread 0: three stage barriers (1 arrival each, after the 96 KiB of
// tiles), tiles 0 and 1 each armed with their 32 KiB and copied (one box
// of A, two of B); then per K step the wait on the stage's phase, the
// block barrier, the next tile's copies, the MMAs. No cp.async.
// SM90A-NOT: cp.async.cg
// SM90A-SAME: mbarrier.init.shared.b64 {{\\09}}[__dynamic_shmem__0+98304], [[ONE:%r[0-9]+]];
// SM90A-SAME: mbarrier.init.shared.b64 {{\\09}}[__dynamic_shmem__0+98312], [[ONE]];
// SM90A-SAME: mbarrier.init.shared.b64 {{\\09}}[__dynamic_shmem__0+98320], [[ONE]];
// SM90A-SAME: fence.mbarrier_init.release.cluster;
// SM90A-SAME: mov.b32 {{\\09}}[[BYTES:%r[0-9]+]], 32768;
// SM90A-SAME: mbarrier.arrive.expect_tx.shared.b64 {{%rd[0-9]+}}, [__dynamic_shmem__0+98304], [[BYTES]];
// SM90A-SAME: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes {{\[%rd[0-9]+\], \[}}[[MAPA:%rd[0-9]+]]{{, \{%r[0-9]+, %r[0-9]+\}\], \[}}__dynamic_shmem__0+98304];
// SM90A-SAME: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes {{\[%rd[0-9]+\], \[}}[[MAPB:%rd[0-9]+]]{{, \{%r[0-9]+, %r[0-9]+\}\], \[}}__dynamic_shmem__0+98304];
// SM90A-SAME: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes {{\[%rd[0-9]+\], \[}}[[MAPB]]{{, \{%r[0-9]+, %r[0-9]+\}\], \[}}__dynamic_shmem__0+98304];
// SM90A-SAME: mbarrier.arrive.expect_tx.shared.b64 {{%rd[0-9]+}}, [__dynamic_shmem__0+98312], [[BYTES]];
// SM90A-SAME: bar.sync
// SM90A-SAME: wgmma.fence.sync.aligned
// SM90A-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// SM90A-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// SM90A-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// SM90A-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// SM90A-SAME: wgmma.commit_group.sync.aligned
// SM90A-SAME: wgmma.wait_group.sync.aligned {{\\09}}0;
// SM90A-SAME: mbarrier.try_wait.parity.shared.b64
// SM90A-SAME: bar.sync
// SM90A-SAME: mbarrier.arrive.expect_tx.shared.b64
// SM90A-SAME: cp.async.bulk.tensor.2d
// SM90A-NOT: wmma.mma
// SM90A-NOT: mma.sync
// SM90A-NOT: cp.async.cg
// SM90ACP-LABEL: func.func @f16
// SM90ACP-NOT: graphopt_cuda_tensor_map
// SM90ACP: gpu.binary @f16_kernel [
// SM90ACP-SAME: .extern .shared .align 1024 .b8 __dynamic_shmem__0[]
// In LLVM's block order: the copies, the loop's MMAs (fence, four
// chained wgmma, commit, wait), then its wait, proxy fence and barrier.
// SM90ACP-SAME: cp.async.cg.shared.global
// SM90ACP-SAME: wgmma.fence.sync.aligned
// SM90ACP-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// SM90ACP-SAME: wgmma.commit_group.sync.aligned
// SM90ACP-SAME: wgmma.wait_group.sync.aligned {{\\09}}0;
// SM90ACP-SAME: cp.async.wait_group
// SM90ACP-SAME: fence.proxy.async.shared::cta
// SM90ACP-SAME: bar.sync
// SM90ACP-NOT: {{mbarrier|cp.async.bulk}}
func.func @f16(%x: tensor<256x256xf16>, %w: tensor<256x256xf16>) -> tensor<256x256xf16> {
  %m = graph.matmul %x, %w : tensor<256x256xf16>, tensor<256x256xf16> -> tensor<256x256xf16>
  return %m : tensor<256x256xf16>
}

// -----

// f32 stays IEEE f32: FMAs, no tensor-core instruction (so no TF32).
// CHECK-LABEL: func.func @f32
// One kernel: the matmul (no fill before it, no epilogue after it).
// CHECK: gpu.launch_func @f32_kernel::@f32_kernel blocks in (%{{.*}}) threads in (%{{.*}}) dynamic_shared_memory_size
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.binary @f32_kernel [
// CHECK-SAME: .extern .shared .align 128 .b8 __dynamic_shmem__0[]
// CHECK-SAME: ld.global.v4.b32
// CHECK-SAME: st.shared.b32
// CHECK-SAME: st.shared.v4.b32
// CHECK-SAME: bar.sync
// CHECK-NOT: {{mma|tf32}}
// CHECK-SAME: ld.shared.v4.b32
// CHECK-NOT: {{mma|tf32}}
// CHECK-SAME: fma.rn.f32
// CHECK-NOT: {{mma|tf32}}
// CHECK-SAME: bar.sync
// CHECK-NOT: {{mma|tf32}}
// CHECK-SAME: st.global.v4.b32
// SM80: gpu.binary @f32_kernel [
// SM80-SAME: .target sm_80
// SM80-SAME: fma.rn.f32
// With the opt-in tf32 (PyTorch's allow_tf32): tensor cores, mma.sync
// m16n8k8 on TF32 registers, each element rounded (cvt.rna.tf32.f32) as it
// is loaded from the f32 tiles in shared memory (cp.async stages; A's
// fragments by ldmatrix, k-major B's element by element); 32 mma.sync per
// K tile per warp. Before sm_80 the option does nothing (SIMT FMAs).
// TF32: gpu.binary @f32_kernel [
// TF32-NOT: ld.global
// TF32-SAME: cp.async.cg.shared.global {{[^;]*}}, 16;
// TF32-NOT: ld.global
// TF32-SAME: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// TF32-SAME: cvt.rna.tf32.f32
// TF32-SAME: ld.shared.b32
// TF32-SAME: cvt.rna.tf32.f32
// TF32-COUNT-32: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// Two stages (three do not fit in 48 KiB): wait for every group.
// TF32-SAME: cp.async.wait_group {{[^;]*}}0;{{[^;]*}}bar.sync
// TF32-NOT: mma.sync
// TF32-SAME: st.global.v2.b32
// TF32SM75: gpu.binary @f32_kernel [
// TF32SM75-NOT: {{mma|tf32}}
// TF32SM75-SAME: fma.rn.f32
func.func @f32(%x: tensor<256x256xf32>, %w: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %m = graph.matmul %x, %w : tensor<256x256xf32>, tensor<256x256xf32> -> tensor<256x256xf32>
  return %m : tensor<256x256xf32>
}

// -----

// bf16: tensor cores through mma.sync m16n8k16 (MLIR 22's WMMA types have
// no bf16): A and B tiles of bf16 in their global layout in shared memory,
// filled by 16-byte cp.async stages as for f16 (no global load, no
// element-wise shared store); each lane's fragments by ldmatrix (A's
// plain, k-major B's transposed), 16 mma.sync per K tile per warp; the
// accumulators rounded to bf16 and stored two columns per store. One
// kernel. Before sm_80, the SIMT kernel.
// CHECK-LABEL: func.func @bf16
// CHECK: gpu.launch_func
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.binary @bf16_kernel [
// CHECK-SAME: .extern .shared .align 128 .b8 __dynamic_shmem__0[]
// CHECK-NOT: {{ld.global|st.shared}}
// CHECK-SAME: cp.async.cg.shared.global {{[^;]*}}, 16;
// CHECK-NOT: {{ld.global|st.shared}}
// CHECK-SAME: cp.async.commit_group;
// In the K loop (its blocks in LLVM's order): per 16-wide K step two
// ldmatrix.x4 for A, two ldmatrix.x4.trans for B and 8 mma.sync, no other
// shared access; then the wait for all but the newest group, the barrier
// and the copies of the tile two steps ahead.
// CHECK-NOT: {{ld.global|st.shared|ld.shared}}
// CHECK-SAME: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-NOT: {{ld.global|st.shared|ld.shared}}
// CHECK-SAME: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK-NOT: {{ld.global|st.shared|ld.shared}}
// CHECK-COUNT-16: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK-NOT: {{ld.global|st.shared|ld.shared|mma.sync}}
// CHECK-SAME: cp.async.wait_group {{[^;]*}}1;{{[^;]*}}bar.sync
// CHECK-NOT: {{ld.global|st.shared|ld.shared|mma.sync}}
// CHECK-SAME: cp.async.cg.shared.global {{[^;]*}}, 16;
// CHECK-NOT: mma.sync
// CHECK-SAME: cvt.rn.bf16x2.f32
// CHECK-SAME: st.global.b32
// SM75: gpu.binary @bf16_kernel [
// SM75-NOT: mma
// SM75-SAME: fma.rn.f32
func.func @bf16(%x: tensor<256x256xbf16>, %w: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
  %m = graph.matmul %x, %w : tensor<256x256xbf16>, tensor<256x256xbf16> -> tensor<256x256xbf16>
  return %m : tensor<256x256xbf16>
}

// -----

// Batched f16 (linalg.batch_matmul): 2x2 blocks of 64x64 per batch, the
// batch as grid z, 4 warps per block; the rounding to f16 in the kernel.
// CHECK-LABEL: func.func @batched
// CHECK: gpu.launch_func @[[MM:batched_kernel(_[0-9]+)?]]::@batched_kernel blocks in (%[[G:.+]], %[[G]], %[[Z:.+]]) threads in (%c128
// CHECK: gpu.binary @[[MM]] 
// CHECK-SAME: mov.u32 {{.*}}%ctaid.z
// CHECK-SAME: bar.sync
// CHECK-SAME: wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32
// CHECK-SAME: bar.sync
// CHECK-SAME: wmma.store.d.sync
// CHECK-SAME: cvt.rn.f16x2.f32
func.func @batched(%x: tensor<4x128x64xf16>, %y: tensor<4x64x128xf16>) -> tensor<4x128x128xf16> {
  %m = graph.matmul %x, %y : tensor<4x128x64xf16>, tensor<4x64x128xf16> -> tensor<4x128x128xf16>
  return %m : tensor<4x128x128xf16>
}

// -----

// nn.Linear with relu in f16 (fusion.linear after graph optimization): the
// [N, K] weight is read in place, its B fragments loaded column-major
// (`wmma.load.b ... col`; the weight's transpose was a kernel of its own
// before 2026-12-07); the bias, relu and rounding are applied in the
// tensor-core matmul's kernel (was three kernels, the matmul's f32 result
// written and read back): one kernel.
// CHECK-LABEL: func.func @linear
// CHECK: gpu.launch_func @linear_kernel::@linear_kernel
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.binary @linear_kernel
// CHECK-SAME: cp.async.commit_group
// CHECK-SAME: wmma.load.b.sync.aligned.col.m16n16k16.shared.f16
// CHECK-SAME: wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32
// CHECK-SAME: bar.sync
// CHECK-SAME: wmma.store.d.sync
// CHECK-SAME: bar.sync
// CHECK-SAME: ld.global.b16
// CHECK-SAME: max.NaN.f32
// CHECK-SAME: st.global.v2.b32
func.func @linear(%x: tensor<128x256xf16>, %w: tensor<128x256xf16>, %b: tensor<128xf16>) -> tensor<128x128xf16> {
  %wt = graph.transpose %w, [1, 0] : tensor<128x256xf16> -> tensor<256x128xf16>
  %y = graph.matmul %x, %wt : tensor<128x256xf16>, tensor<256x128xf16> -> tensor<128x128xf16>
  %z = graph.add %y, %b : tensor<128x128xf16>, tensor<128xf16> -> tensor<128x128xf16>
  %r = graph.relu %z : tensor<128x128xf16> -> tensor<128x128xf16>
  return %r : tensor<128x128xf16>
}
