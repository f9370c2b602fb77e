// Attention on the CUDA target (graph.scaled_dot_product_attention).
//
// f16 with static shapes: one fused kernel (graph-gpu-attention, then
// graph-gpu-attention-kernels after buffer deallocation). A block of 128
// threads per 64 query rows; S = Q K^T on tensor cores with K read
// column-major (row.col), softmax statistics and P = exp(s - max) from
// scores staged in shared memory (ex2), O += P V on tensor cores (row.row),
// and only the output written to global memory: 8 stores of 4 halves per
// thread, no scores. (Was 6 kernels writing the L x S scores and
// probabilities, 11 before the row kernel.) Nothing here has run on a GPU;
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
// CHECK-SAME: wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32
// CHECK-SAME: ex2.approx
// CHECK-SAME: wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32
// CHECK-NOT: st.global
// CHECK-SAME: wmma.store.d.sync.aligned.row.m16n16k16.shared.f32
// CHECK-COUNT-8: st.global.v2.b32
// CHECK-NOT: st.global
// PTXAS: KERNEL attention_kernel/attention_kernel sm_90: {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads
func.func @attention(%q: tensor<2x4x128x64xf16>, %k: tensor<2x4x128x64xf16>, %v: tensor<2x4x128x64xf16>) -> tensor<2x4x128x64xf16> {
  %r = graph.scaled_dot_product_attention %q, %k, %v
      : (tensor<2x4x128x64xf16>, tensor<2x4x128x64xf16>, tensor<2x4x128x64xf16>) -> tensor<2x4x128x64xf16>
  return %r : tensor<2x4x128x64xf16>
}

// -----

// A float mask is not supported by the fused kernel: decomposed into
// batched matmuls on tensor cores and a one-kernel softmax (the scores
// written to memory).
// CHECK-LABEL: func.func @masked
// CHECK-COUNT-4: gpu.launch_func
// CHECK: gpu.binary {{.*}}wmma.mma.sync
// CHECK: gpu.binary {{.*}}shfl.sync.bfly.b32
// CHECK: gpu.binary {{.*}}wmma.mma.sync
func.func @masked(%q: tensor<2x128x64xf16>, %k: tensor<2x128x64xf16>, %v: tensor<2x128x64xf16>, %m: tensor<128x128xf16>) -> tensor<2x128x64xf16> {
  %r = graph.scaled_dot_product_attention %q, %k, %v, %m
      : (tensor<2x128x64xf16>, tensor<2x128x64xf16>, tensor<2x128x64xf16>, tensor<128x128xf16>) -> tensor<2x128x64xf16>
  return %r : tensor<2x128x64xf16>
}
