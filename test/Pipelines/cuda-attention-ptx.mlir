// Attention on the CUDA target (graph.scaled_dot_product_attention, f16):
// decomposed into batched matmuls and a softmax, the two matmuls run on
// tensor cores (WMMA, f32 accumulation) and the softmax's max and sum are
// warp reductions (shuffle butterflies), in program order.
// RUN: graph-opt %s --graph-cuda-pipeline=lower-host=false | FileCheck %s
// CHECK: gpu.binary {{.*}}wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32
// CHECK: gpu.binary {{.*}}shfl.sync.bfly.b32
// CHECK: gpu.binary {{.*}}shfl.sync.bfly.b32
// CHECK: gpu.binary {{.*}}wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32
func.func @attention(%q: tensor<2x4x128x64xf16>, %k: tensor<2x4x128x64xf16>, %v: tensor<2x4x128x64xf16>) -> tensor<2x4x128x64xf16> {
  %r = graph.scaled_dot_product_attention %q, %k, %v
      : (tensor<2x4x128x64xf16>, tensor<2x4x128x64xf16>, tensor<2x4x128x64xf16>) -> tensor<2x4x128x64xf16>
  return %r : tensor<2x4x128x64xf16>
}
