// Attention on the CUDA target (graph.scaled_dot_product_attention).
//
// f16 with static shapes: one fused kernel (graph-gpu-attention, then
// graph-gpu-attention-kernels after buffer deallocation). A block of 128
// threads per 64 query rows, FlashAttention-2 style: the Q tile loaded
// once (the only global loads), K and V tiles by cp.async, one pass over
// the keys with S = Q K^T and O += P V on mma.sync m16n8k16 (fragments by
// ldmatrix, V's transposed; 64 keys per step at D = 64, 32 mma.sync for
// each product per step; 128 registers, was 96 with 32-key steps), the row maxima by shuffles and exp (ex2)
// in registers; no shared store in the key loop (scores and probabilities
// never leave registers), and only the output written to global memory:
// 16 stores of 2 halves per thread. (Was two passes over the keys, 3
// matmuls with the scores and probabilities staged in shared memory; 6
// kernels writing them to global memory before that, 11 before the row
// kernel.) Nothing here has run on a GPU;
// the numerics are checked under emulation (test/Integration/
// gpu-attention-kernel.mlir).
// RUN: graph-opt %s -split-input-file --graph-cuda-pipeline=lower-host=false | FileCheck %s
// RUN: graph-opt %s -split-input-file --graph-cuda-pipeline=lower-host=false | %python %graphopt_src/test/lib/ptxas_check.py --chip sm_90 | FileCheck %s --check-prefix=PTXAS
// REQUIRES: ptxas

// CHECK-LABEL: func.func @attention
// CHECK: gpu.launch_func @[[K:attention_kernel]]::@attention_kernel blocks in (%c2, %c8, %c1) threads in (%c128, %c1, %c1) dynamic_shared_memory_size
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.binary @[[K]]
// CHECK-SAME: .maxntid 128, 1, 1
// CHECK-SAME: bar.sync
// CHECK-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-SAME: bar.sync
// CHECK-NOT: {{ld.global|st.global|st.shared|ld.shared|wmma}}
// CHECK-SAME: cp.async.cg.shared.global {{[^;]*}}, 16;
// CHECK-NOT: {{ld.global|st.global|st.shared|ld.shared|wmma}}
// CHECK-SAME: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-NOT: {{ld.global|st.global|st.shared|ld.shared|wmma}}
// CHECK-COUNT-32: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-NOT: {{ld.global|st.global|st.shared|ld.shared|wmma}}
// CHECK-SAME: shfl.sync.bfly.b32
// CHECK-NOT: {{ld.global|st.global|st.shared|ld.shared|wmma}}
// CHECK-SAME: ex2.approx
// CHECK-NOT: {{ld.global|st.global|st.shared|ld.shared|wmma}}
// CHECK-SAME: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK-NOT: {{ld.global|st.global|st.shared|ld.shared|wmma}}
// CHECK-COUNT-32: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-NOT: {{ld.global|st.global|st.shared|ld.shared|mma}}
// CHECK-SAME: cp.async.wait_group {{[^;]*}}0;{{[^;]*}}bar.sync
// CHECK-NOT: {{ld.global|st.global|st.shared|ld.shared|mma}}
// CHECK-SAME: cp.async.commit_group
// CHECK-NOT: {{ld.global|st.global|st.shared|ld.shared|mma}}
// CHECK-SAME: shfl.sync.bfly.b32
// CHECK-COUNT-16: st.global.b32
// CHECK-NOT: st.global
// PTXAS: KERNEL attention_kernel/attention_kernel sm_90: {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads
func.func @attention(%q: tensor<2x4x128x64xf16>, %k: tensor<2x4x128x64xf16>, %v: tensor<2x4x128x64xf16>) -> tensor<2x4x128x64xf16> {
  %r = graph.scaled_dot_product_attention %q, %k, %v
      : (tensor<2x4x128x64xf16>, tensor<2x4x128x64xf16>, tensor<2x4x128x64xf16>) -> tensor<2x4x128x64xf16>
  return %r : tensor<2x4x128x64xf16>
}

// -----

// A float mask [L, S]: the fused kernel too, each lane's mask values for
// 2 adjacent keys loaded at once (`ld.global.v2.b16`; 2-byte loads per element
// before 2026-12-07) and added to the scaled scores in registers (was
// decomposed into batched matmuls and a softmax kernel, 4 kernels writing
// the scores).
// CHECK-LABEL: func.func @masked
// CHECK: gpu.launch_func
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.binary @
// CHECK-SAME: mma.sync.aligned.m16n8k16
// CHECK-NOT: ld.global.b16
// CHECK-SAME: ld.global.v2.b16
// CHECK-NOT: ld.global.b16
// CHECK-SAME: shfl.sync.bfly.b32
func.func @masked(%q: tensor<2x128x64xf16>, %k: tensor<2x128x64xf16>, %v: tensor<2x128x64xf16>, %m: tensor<128x128xf16>) -> tensor<2x128x64xf16> {
  %r = graph.scaled_dot_product_attention %q, %k, %v, %m
      : (tensor<2x128x64xf16>, tensor<2x128x64xf16>, tensor<2x128x64xf16>, tensor<128x128xf16>) -> tensor<2x128x64xf16>
  return %r : tensor<2x128x64xf16>
}

// -----

// Ragged lengths (ViT's 197 tokens; were decomposed into 4 kernels writing
// the scores): one kernel, ceil(197 / 64) = 4 blocks per head, the output
// stores behind a branch on the row (rows past 196 store nothing), the
// Q rows and K/V rows read clamped to 196; no spills.
// CHECK-LABEL: func.func @ragged
// CHECK: gpu.launch_func @{{.*}} blocks in (%c4, %c12, %c1) threads in (%c128, %c1, %c1)
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.binary @
// CHECK-SAME: min.u64 {{[^;]*}}, 196;
// CHECK-SAME: mma.sync.aligned.m16n8k16
// CHECK-SAME: setp.gt.u64 {{[^;]*}}, 196;
// CHECK-SAME: st.global.b32
// PTXAS: KERNEL ragged_kernel/ragged_kernel sm_90: {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads
func.func @ragged(%q: tensor<1x12x197x64xf16>, %k: tensor<1x12x197x64xf16>, %v: tensor<1x12x197x64xf16>) -> tensor<1x12x197x64xf16> {
  %r = graph.scaled_dot_product_attention %q, %k, %v
      : (tensor<1x12x197x64xf16>, tensor<1x12x197x64xf16>, tensor<1x12x197x64xf16>) -> tensor<1x12x197x64xf16>
  return %r : tensor<1x12x197x64xf16>
}

// -----

// Head dim 40 (Stable Diffusion 1.5; decomposed into 16 kernels before
// 2026-12-07): one kernel, computed as 48 over zero columns in shared
// memory; no spills.
// CHECK-LABEL: func.func @d40
// CHECK: gpu.launch_func
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.binary @
// CHECK-SAME: mma.sync.aligned.m16n8k16
// PTXAS: KERNEL d40_kernel/d40_kernel sm_90: {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads
func.func @d40(%q: tensor<2x8x1024x40xf16>, %k: tensor<2x8x77x40xf16>, %v: tensor<2x8x77x40xf16>) -> tensor<2x8x1024x40xf16> {
  %r = graph.scaled_dot_product_attention %q, %k, %v
      : (tensor<2x8x1024x40xf16>, tensor<2x8x77x40xf16>, tensor<2x8x77x40xf16>) -> tensor<2x8x1024x40xf16>
  return %r : tensor<2x8x1024x40xf16>
}

// -----

// Head dim 256 (Gemma; decomposed before 2026-12-07): one kernel, 32-key
// steps, 66 KiB of dynamic shared memory (the K and V stages), every
// accumulator in registers: at most 255 registers a thread and no spills
// (253 with this ptxas).
// CHECK-LABEL: func.func @d256
// CHECK: gpu.launch_func {{.*}} dynamic_shared_memory_size %c67584_i32
// CHECK-NOT: gpu.launch_func
// PTXAS: KERNEL d256_kernel/d256_kernel sm_90: {{(1?[0-9]?[0-9]|2[0-4][0-9]|25[0-5])}} registers, 0 bytes spill stores, 0 bytes spill loads
func.func @d256(%q: tensor<1x8x512x256xf16>, %k: tensor<1x8x512x256xf16>, %v: tensor<1x8x512x256xf16>) -> tensor<1x8x512x256xf16> {
  %r = graph.scaled_dot_product_attention %q, %k, %v
      : (tensor<1x8x512x256xf16>, tensor<1x8x512x256xf16>, tensor<1x8x512x256xf16>) -> tensor<1x8x512x256xf16>
  return %r : tensor<1x8x512x256xf16>
}

// -----

// f32 (ViT-B/16 in f32: 197 tokens, D = 64; decomposed into 13 kernels
// writing the f32 scores before 2026-12-07): one SIMT kernel, IEEE f32
// FMAs and no tensor-core instruction, 16-byte global loads of the Q, K
// and V tiles into shared memory, 16-byte shared loads feeding the FMAs,
// the row statistics by butterfly shuffles, 16-byte output stores; at
// most 128 registers (122 with this ptxas), no spills.
// CHECK-LABEL: func.func @f32_vit
// CHECK: gpu.launch_func @[[K:f32_vit_kernel]]::@f32_vit_kernel blocks in (%c4, %c12, %c1) threads in (%c128, %c1, %c1) dynamic_shared_memory_size %c43520_i32
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.binary @[[K]]
// CHECK-NOT: {{mma|tf32|f16}}
// CHECK-SAME: ld.global.v4.b32
// CHECK-SAME: st.shared.v4.b32
// CHECK-SAME: bar.sync
// CHECK-SAME: ld.shared.v4.b32
// CHECK-SAME: fma.rn.f32
// CHECK-SAME: shfl.sync.bfly.b32
// CHECK-SAME: ex2.approx
// CHECK-SAME: st.global.v4.b32
// CHECK-NOT: {{mma|tf32}}
// PTXAS: KERNEL f32_vit_kernel/f32_vit_kernel sm_90: {{([0-9]?[0-9]|1[01][0-9]|12[0-8])}} registers, 0 bytes spill stores, 0 bytes spill loads
func.func @f32_vit(%q: tensor<1x12x197x64xf32>, %k: tensor<1x12x197x64xf32>, %v: tensor<1x12x197x64xf32>) -> tensor<1x12x197x64xf32> {
  %r = graph.scaled_dot_product_attention %q, %k, %v
      : (tensor<1x12x197x64xf32>, tensor<1x12x197x64xf32>, tensor<1x12x197x64xf32>) -> tensor<1x12x197x64xf32>
  return %r : tensor<1x12x197x64xf32>
}

// -----

// f32, D = 128, causal (5 kernels before): one kernel, 75 KiB of shared memory (the runtime
// opts in past 48 KiB), at most 192 registers (168 with this ptxas), no
// spills. f32 with D over 128 is still decomposed.
// CHECK-LABEL: func.func @f32_d128_causal
// CHECK: gpu.launch_func {{.*}} threads in (%c128, %c1, %c1) dynamic_shared_memory_size %c76288_i32
// CHECK-NOT: gpu.launch_func
// PTXAS: KERNEL f32_d128_causal_kernel/f32_d128_causal_kernel sm_90: {{([0-9]?[0-9]|1[0-8][0-9]|19[0-2])}} registers, 0 bytes spill stores, 0 bytes spill loads
// CHECK-LABEL: func.func @f32_d256
// CHECK-COUNT-2: gpu.launch_func
func.func @f32_d128_causal(%q: tensor<1x8x512x128xf32>, %k: tensor<1x8x512x128xf32>, %v: tensor<1x8x512x128xf32>) -> tensor<1x8x512x128xf32> {
  %r = fusion.attention %q, %k, %v causal : (tensor<1x8x512x128xf32>, tensor<1x8x512x128xf32>, tensor<1x8x512x128xf32>) -> tensor<1x8x512x128xf32>
  return %r : tensor<1x8x512x128xf32>
}
func.func @f32_d256(%q: tensor<1x2x64x256xf32>, %k: tensor<1x2x64x256xf32>, %v: tensor<1x2x64x256xf32>) -> tensor<1x2x64x256xf32> {
  %r = graph.scaled_dot_product_attention %q, %k, %v
      : (tensor<1x2x64x256xf32>, tensor<1x2x64x256xf32>, tensor<1x2x64x256xf32>) -> tensor<1x2x64x256xf32>
  return %r : tensor<1x2x64x256xf32>
}
