// graph-cuda-pipeline maps row reductions to one warp per row
// (graph-gpu-map-reductions): in the PTX of each reduction kernel
// (blockDim 32 x 4: .maxntid 32, 4, 1) the lanes' partial values are
// combined by five shfl.sync.bfly steps, each followed by the combiner,
// before the store. Only the generated code is checked: nothing has run on
// a GPU (test/Integration/cuda-reductions.mlir does, where one is present).
// RUN: graph-opt %s --split-input-file --graph-cuda-pipeline=lower-host=false | FileCheck %s
// RUN: graph-opt %s --split-input-file --graph-cuda-pipeline="chip=sm_80 features=+ptx70 lower-host=false" | FileCheck %s --check-prefix=SM80

// softmax along the 1000-wide rows and layer norm over 768 features are
// one row kernel each (graph-gpu-row-kernels, test/Pipelines/
// cuda-row-kernels.mlir): their max and sum, or mean and variance, are
// warp butterflies in that kernel.
// CHECK-LABEL: func.func @softmax
// CHECK: gpu.launch_func {{.+}} threads in (%c32{{(_[0-9]+)?}}, %c4{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}})
// CHECK-NOT: gpu.launch_func
// CHECK: return
// CHECK: .maxntid 32, 4, 1
// CHECK-SAME: max.NaN.f32
// CHECK-SAME: shfl.sync.bfly.b32
// CHECK-SAME: max.NaN.f32
// SM80-LABEL: func.func @softmax
// SM80: .target sm_80
// SM80-COUNT-10: shfl.sync.bfly.b32
func.func @softmax(%x: tensor<64x1000xf32>) -> tensor<64x1000xf32> {
  %r = graph.softmax %x axis = 1 : tensor<64x1000xf32> -> tensor<64x1000xf32>
  return %r : tensor<64x1000xf32>
}

// -----

// CHECK-LABEL: func.func @layer_norm
// CHECK: gpu.launch_func {{.+}} threads in (%c32{{(_[0-9]+)?}}, %c4{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}})
// CHECK-NOT: gpu.launch_func
// CHECK: return
// CHECK: .maxntid 32, 4, 1
// CHECK-SAME: add.rn.f32
// CHECK-SAME: shfl.sync.bfly.b32
// CHECK-SAME: add.rn.f32
// CHECK-SAME: shfl.sync.bfly.b32
// CHECK-SAME: mul.rn.f32
// SM80-LABEL: func.func @layer_norm
// SM80-COUNT-10: shfl.sync.bfly.b32
func.func @layer_norm(%x: tensor<128x768xf32>, %w: tensor<768xf32>, %b: tensor<768xf32>) -> tensor<128x768xf32> {
  %0 = graph.layer_norm %x, %w, %b : (tensor<128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<128x768xf32>
  return %0 : tensor<128x768xf32>
}

// -----

// A sum over the last axis of a 3-D tensor: 32 x 4 = 128 rows of 256.
// CHECK-LABEL: func.func @reduce_sum
// CHECK: gpu.launch_func {{.+}} blocks in (%c32{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}) threads in (%c32{{(_[0-9]+)?}}, %c4{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}})
// CHECK: return
// CHECK: .maxntid 32, 4, 1
// CHECK-SAME: add.rn.f32
// CHECK-SAME: shfl.sync.bfly.b32
// CHECK-SAME: add.rn.f32
// CHECK-SAME: shfl.sync.bfly.b32
// CHECK-SAME: add.rn.f32
// CHECK-SAME: shfl.sync.bfly.b32
// CHECK-SAME: add.rn.f32
// CHECK-SAME: shfl.sync.bfly.b32
// CHECK-SAME: add.rn.f32
// CHECK-SAME: shfl.sync.bfly.b32
// CHECK-SAME: add.rn.f32
// CHECK-SAME: st.global.b32
// SM80-LABEL: func.func @reduce_sum
// SM80-COUNT-5: shfl.sync.bfly.b32
func.func @reduce_sum(%x: tensor<32x4x256xf32>) -> tensor<32x4xf32> {
  %0 = graph.reduce sum %x axes = [2] : tensor<32x4x256xf32> -> tensor<32x4xf32>
  return %0 : tensor<32x4xf32>
}

// -----

// softmax along axis 0 reduces over the outer dimension: lanes would read
// strided elements, so it keeps the default mapping (one thread per column,
// coalesced across threads) and no kernel has a shuffle. Last in the file so
// that the CHECK-NOT covers every gpu.binary up to the module's end.
// CHECK-LABEL: func.func @softmax_axis0
// CHECK: return
// CHECK-NOT: shfl.sync
// CHECK: {{^}}}{{$}}
// SM80-LABEL: func.func @softmax_axis0
// SM80-NOT: shfl.sync
func.func @softmax_axis0(%x: tensor<1000x64xf32>) -> tensor<1000x64xf32> {
  %r = graph.softmax %x axis = 0 : tensor<1000x64xf32> -> tensor<1000x64xf32>
  return %r : tensor<1000x64xf32>
}
