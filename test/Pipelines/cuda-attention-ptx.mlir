// Attention on the CUDA target (graph.scaled_dot_product_attention, f16):
// decomposed into batched matmuls and a softmax, the two matmuls run on
// tensor cores (WMMA, f32 accumulation) and the softmax is one row kernel
// (graph-gpu-row-kernels: a warp per row, the running max and sum merged by
// one butterfly of 5 x 2 shuffles), in program order: 6 launches (11 before
// the row kernel). Not yet one fused attention kernel.
// RUN: graph-opt %s --graph-cuda-pipeline=lower-host=false | FileCheck %s
// RUN: graph-opt %s --graph-cuda-pipeline=lower-host=false | FileCheck %s --check-prefix=LAUNCH
// LAUNCH-COUNT-6: gpu.launch_func
// LAUNCH-NOT: gpu.launch_func
// CHECK: gpu.binary {{.*}}wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32
// CHECK-NOT: shfl.sync
// CHECK: gpu.binary {{.*}}.maxntid 32, 4, 1
// CHECK-COUNT-10: shfl.sync.bfly.b32
// CHECK-NOT: shfl.sync
// CHECK: gpu.binary {{.*}}wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32
func.func @attention(%q: tensor<2x4x128x64xf16>, %k: tensor<2x4x128x64xf16>, %v: tensor<2x4x128x64xf16>) -> tensor<2x4x128x64xf16> {
  %r = graph.scaled_dot_product_attention %q, %k, %v
      : (tensor<2x4x128x64xf16>, tensor<2x4x128x64xf16>, tensor<2x4x128x64xf16>) -> tensor<2x4x128x64xf16>
  return %r : tensor<2x4x128x64xf16>
}
