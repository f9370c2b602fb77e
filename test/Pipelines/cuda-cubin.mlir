// ptxas accepts the PTX of graph-cuda-pipeline for sm_80 and sm_90:
// format=bin assembles every kernel into a cubin (the pass fails on a ptxas
// error). A matmul + bias + softmax program: 4 kernels (9 before the
// softmax became one row kernel, graph-gpu-row-kernels).
// REQUIRES: ptxas
// RUN: graph-opt %s --graph-cuda-pipeline="format=bin lower-host=false" | FileCheck %s
// RUN: graph-opt %s --graph-cuda-pipeline="format=bin chip=sm_80 features=+ptx70 lower-host=false" | FileCheck %s
// CHECK-COUNT-4: gpu.binary
// CHECK-NOT: gpu.binary
func.func @main(%x: tensor<64x128xf32>, %w: tensor<128x32xf32>, %b: tensor<32xf32>) -> tensor<64x32xf32> {
  %m = graph.matmul %x, %w : tensor<64x128xf32>, tensor<128x32xf32> -> tensor<64x32xf32>
  %a = graph.add %m, %b : tensor<64x32xf32>, tensor<32xf32> -> tensor<64x32xf32>
  %s = graph.softmax %a axis = 1 : tensor<64x32xf32> -> tensor<64x32xf32>
  return %s : tensor<64x32xf32>
}
