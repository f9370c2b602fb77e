// The generic CUDA kernels take 16 bytes per thread along the innermost
// dim (graph-gpu-vectorize-loops): vector loads and stores in the PTX, and
// a quarter of the threads for f32. Checked in PTX only here; the same
// vector code runs under CPU emulation (test/Integration/cuda-emulate.test).
// RUN: graph-opt %s --split-input-file --graph-cuda-pipeline=lower-host=false | FileCheck %s
// RUN: graph-opt %s --split-input-file --graph-cuda-pipeline="chip=sm_80 features=+ptx70 lower-host=false" | FileCheck %s

// An NCHW add on 16 x 64 x 128 x 128: 32 lanes x 4 floats cover a row of
// 128; 16 x 64 x 128 / 8 = 16384 blocks of 32 x 8 threads (65536 blocks of
// one element per thread before).
// CHECK-LABEL: func.func @add_nchw
// CHECK: gpu.launch_func {{.+}} blocks in (%c16384{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}) threads in (%c32{{(_[0-9]+)?}}, %c8{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}})
// CHECK: gpu.binary
// CHECK-SAME: .maxntid 32, 8, 1
// CHECK-NOT: ld.global.b32
// CHECK-SAME: ld.global.v4.b32
// CHECK-SAME: ld.global.v4.b32
// CHECK-SAME: add.rn.f32
// CHECK-SAME: st.global.v4.b32
func.func @add_nchw(%x: tensor<16x64x128x128xf32>, %y: tensor<16x64x128x128xf32>) -> tensor<16x64x128x128xf32> {
  %r = graph.add %x, %y : tensor<16x64x128x128xf32>, tensor<16x64x128x128xf32> -> tensor<16x64x128x128xf32>
  return %r : tensor<16x64x128x128xf32>
}

// -----

// f16 in, f32 out, a bias along the last dim and a scale per row: the f16
// input as 4 halves (8 bytes), the bias and the result as 4 floats, the
// row's scale one scalar load.
// CHECK-LABEL: func.func @mixed
// CHECK: gpu.binary
// CHECK-SAME: ld.global.v4.b16
// CHECK-SAME: ld.global.v4.b32
// CHECK-SAME: ld.global.b32
// CHECK-SAME: st.global.v4.b32
func.func @mixed(%x: tensor<64x256xf16>, %b: tensor<256xf32>, %s: tensor<64x1xf32>) -> tensor<64x256xf32> {
  %c = graph.cast %x : tensor<64x256xf16> -> tensor<64x256xf32>
  %a = graph.add %c, %b : tensor<64x256xf32>, tensor<256xf32> -> tensor<64x256xf32>
  %m = graph.mul %a, %s : tensor<64x256xf32>, tensor<64x1xf32> -> tensor<64x256xf32>
  %t = graph.tanh %m : tensor<64x256xf32> -> tensor<64x256xf32>
  return %t : tensor<64x256xf32>
}

// -----

// A last dim of 1001 floats: rows are not 16-byte aligned, one element per
// thread as before.
// CHECK-LABEL: func.func @odd_rows
// CHECK: gpu.binary
// CHECK-NOT: .v4.
// CHECK-SAME: ld.global.b32
// CHECK-SAME: st.global.b32
func.func @odd_rows(%x: tensor<8x1001xf32>) -> tensor<8x1001xf32> {
  %r = graph.exp %x : tensor<8x1001xf32> -> tensor<8x1001xf32>
  return %r : tensor<8x1001xf32>
}
