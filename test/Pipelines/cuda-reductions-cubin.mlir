// ptxas accepts the warp-reduction kernels of graph-cuda-pipeline
// (graph-gpu-map-reductions and graph-gpu-row-kernels: shfl.sync.bfly
// butterflies) for sm_90 and
// sm_80: format=bin assembles every kernel into a cubin, and the pass fails
// on a ptxas error. Assembled, not run: nothing here has run on a GPU.
// REQUIRES: ptxas
// RUN: graph-opt %s --split-input-file --graph-cuda-pipeline="format=bin lower-host=false" | FileCheck %s
// RUN: graph-opt %s --split-input-file --graph-cuda-pipeline="format=bin chip=sm_80 features=+ptx70 lower-host=false" | FileCheck %s

// softmax and layer norm: one row kernel each (graph-gpu-row-kernels).
// CHECK-LABEL: func.func @softmax
// CHECK: gpu.launch_func {{.+}} threads in (%c32{{(_[0-9]+)?}}, %c4{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}})
// CHECK-NOT: gpu.launch_func
// CHECK: return
// CHECK: gpu.binary
// CHECK-NOT: gpu.binary
func.func @softmax(%x: tensor<64x1000xf32>) -> tensor<64x1000xf32> {
  %r = graph.softmax %x axis = 1 : tensor<64x1000xf32> -> tensor<64x1000xf32>
  return %r : tensor<64x1000xf32>
}

// -----

// CHECK-LABEL: func.func @layer_norm
// CHECK: gpu.launch_func {{.+}} threads in (%c32{{(_[0-9]+)?}}, %c4{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}})
// CHECK-NOT: gpu.launch_func
// CHECK: return
// CHECK: gpu.binary
// CHECK-NOT: gpu.binary
func.func @layer_norm(%x: tensor<128x768xf32>, %w: tensor<768xf32>, %b: tensor<768xf32>) -> tensor<128x768xf32> {
  %0 = graph.layer_norm %x, %w, %b : (tensor<128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<128x768xf32>
  return %0 : tensor<128x768xf32>
}

// -----

// An i32 max over all 4096 elements (one warp) and a dynamic-row f32 sum.
// CHECK-LABEL: func.func @int_max_and_dynamic_sum
// CHECK-COUNT-2: gpu.launch_func {{.+}} threads in (%c32{{(_[0-9]+)?}}, %c4{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}})
// CHECK: return
// CHECK: gpu.binary
func.func @int_max_and_dynamic_sum(%x: tensor<4096xi32>, %y: tensor<?x300xf32>) -> (tensor<i32>, tensor<?xf32>) {
  %0 = graph.reduce max %x axes = [0] : tensor<4096xi32> -> tensor<i32>
  %1 = graph.reduce sum %y axes = [1] : tensor<?x300xf32> -> tensor<?xf32>
  return %0, %1 : tensor<i32>, tensor<?xf32>
}
