// ptxas accepts the graph-gpu-matmul kernels for sm_90 and sm_80: format=bin
// assembles every kernel (gpu-module-to-binary fails on a ptxas error).
// Tensor-core (f16, plain and with a transposed B operand) and SIMT (f32,
// bf16) kernels. Assembled only; nothing here has run on a GPU.
// REQUIRES: ptxas
// RUN: graph-opt %s -split-input-file --graph-cuda-pipeline="format=bin lower-host=false" | FileCheck %s
// RUN: graph-opt %s -split-input-file --graph-cuda-pipeline="format=bin chip=sm_80 features=+ptx70 lower-host=false" | FileCheck %s

// CHECK-LABEL: func.func @f16
// CHECK: gpu.launch_func @f16_kernel::@f16_kernel {{.*}} dynamic_shared_memory_size
// CHECK: gpu.binary @f16_kernel {{.*}}, bin = "
func.func @f16(%x: tensor<256x256xf16>, %w: tensor<256x256xf16>) -> tensor<256x256xf16> {
  %m = graph.matmul %x, %w : tensor<256x256xf16>, tensor<256x256xf16> -> tensor<256x256xf16>
  return %m : tensor<256x256xf16>
}

// -----

// CHECK-LABEL: func.func @f32
// CHECK: gpu.launch_func @f32_kernel::@f32_kernel {{.*}} dynamic_shared_memory_size
// CHECK: gpu.binary @f32_kernel {{.*}}, bin = "
func.func @f32(%x: tensor<256x256xf32>, %w: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %m = graph.matmul %x, %w : tensor<256x256xf32>, tensor<256x256xf32> -> tensor<256x256xf32>
  return %m : tensor<256x256xf32>
}

// -----

// CHECK-LABEL: func.func @bf16
// CHECK: gpu.launch_func @bf16_kernel::@bf16_kernel {{.*}} dynamic_shared_memory_size
// CHECK: gpu.binary @bf16_kernel {{.*}}, bin = "
func.func @bf16(%x: tensor<256x256xbf16>, %w: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
  %m = graph.matmul %x, %w : tensor<256x256xbf16>, tensor<256x256xbf16> -> tensor<256x256xbf16>
  return %m : tensor<256x256xbf16>
}

// -----

// A @ B^T straight from linalg (column-major WMMA loads of B).
// CHECK-LABEL: func.func @a_bt
// CHECK: gpu.launch_func @a_bt_kernel::@a_bt_kernel {{.*}} dynamic_shared_memory_size
// CHECK: gpu.binary @a_bt_kernel {{.*}}, bin = "
#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @a_bt(%a: memref<128x64xf16>, %b: memref<128x64xf16>, %c: memref<128x128xf32>) {
  linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<128x64xf16>, memref<128x64xf16>) outs(%c : memref<128x128xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
