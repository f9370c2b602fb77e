// The generic CUDA kernels take 16 bytes per thread along the innermost
// dim (graph-gpu-vectorize-loops): vector loads and stores in the PTX, and
// a quarter of the threads for f32. Checked in PTX only here; the same
// vector code runs under CPU emulation (test/Integration/cuda-emulate.test).
// RUN: graph-opt %s --split-input-file --graph-cuda-pipeline=lower-host=false | FileCheck %s
// RUN: graph-opt %s --split-input-file --graph-cuda-pipeline="chip=sm_80 features=+ptx70 lower-host=false" | FileCheck %s

// An NCHW add on 16 x 64 x 128 x 128: its dims merged into one
// (graph-gpu-collapse-elementwise), 4 floats per thread, 16 x 64 x 128 x
// 128 / 4 / 256 = 16384 tiles of 256 threads (65536 blocks of one element
// per thread before vectors; 32 x 8 threads a block before the merge).
// That is more than max-blocks (4224): a grid-stride loop of 16384 / 4 =
// 4096 blocks, each thread 4 vectors 4096 x 256 x 16 bytes = 16 MiB
// apart (the loop's addresses advanced by that constant).
// CHECK-LABEL: func.func @add_nchw
// CHECK: gpu.launch_func {{.+}} blocks in (%c4096{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}) threads in (%c256{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}})
// CHECK: gpu.binary
// CHECK-SAME: .maxntid 256, 1, 1
// CHECK-NOT: ld.global.b32
// CHECK-SAME: $L__BB0_1:
// CHECK-SAME: ld.global.v4.b32
// CHECK-SAME: ld.global.v4.b32
// CHECK-SAME: add.rn.f32
// CHECK-SAME: st.global.v4.b32
// CHECK-SAME: 16777216
// CHECK-SAME: bra {{.*}}$L__BB0_1;
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

// A last dim of 1001 floats and 7 rows: 7007 elements, merged or not, are
// no multiple of 4: one element per thread as before.
// CHECK-LABEL: func.func @odd_rows
// CHECK: gpu.binary
// CHECK-NOT: .v4.
// CHECK-SAME: ld.global.b32
// CHECK-SAME: st.global.b32
func.func @odd_rows(%x: tensor<7x1001xf32>) -> tensor<7x1001xf32> {
  %r = graph.exp %x : tensor<7x1001xf32> -> tensor<7x1001xf32>
  return %r : tensor<7x1001xf32>
}

// -----

// 8 rows of 1001: the rows are not 16-byte aligned, but the 8008
// contiguous elements merged into one dim are a multiple of 4: vectors
// (one element per thread before 2026-12-07).
// CHECK-LABEL: func.func @odd_rows_merged
// CHECK: gpu.binary
// CHECK-NOT: ld.global.b32
// CHECK-SAME: ld.global.v4.b32
// CHECK-SAME: st.global.v4.b32
func.func @odd_rows_merged(%x: tensor<8x1001xf32>) -> tensor<8x1001xf32> {
  %r = graph.exp %x : tensor<8x1001xf32> -> tensor<8x1001xf32>
  return %r : tensor<8x1001xf32>
}

// -----

// A ResNet-style bias add on a 7 x 7 feature map, [8, 512, 7, 7] + [512, 1,
// 1]: the bias's unit dims dropped from its view ([512], read along C), H
// and W merge (49), N and C do not (the bias reads C without N). 49
// floats are no multiple of 4: one element per thread, blocks of 32 lanes
// along the merged 49 x 8 channels (was 8 x 8 threads per 7 x 7 map; a
// row of 49 still leaves 15 of 64 lanes idle).
// CHECK-LABEL: func.func @bias_7x7
// CHECK: gpu.launch_func {{.+}} blocks in (%c1024{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}) threads in (%c32{{(_[0-9]+)?}}, %c8{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}) args({{.*}} : memref<8x512x49xf32>, {{.*}} : memref<512xf32>, {{.*}} : memref<8x512x49xf32>)
// CHECK: gpu.binary
// CHECK-SAME: .maxntid 32, 8, 1
func.func @bias_7x7(%x: tensor<8x512x7x7xf32>, %b: tensor<512x1x1xf32>) -> tensor<8x512x7x7xf32> {
  %r = graph.add %x, %b : tensor<8x512x7x7xf32>, tensor<512x1x1xf32> -> tensor<8x512x7x7xf32>
  return %r : tensor<8x512x7x7xf32>
}

// -----

// Attention-score-shaped operands, [4, 12, 197, 197]: 197 is no multiple
// of 4 and not a power of 2, but the merged 1862832 elements are a
// multiple of 4: a 1-D loop of 16-byte vectors, the thread's index in
// 32-bit arithmetic (LLVM bounds it from the kernel's known grid and block
// sizes) widened once for the address; no division left (before the
// merge: scalar loads, 32 lanes over 197 columns, three divisions to
// delinearize the block index).
// CHECK-LABEL: func.func @scores_add
// CHECK: gpu.launch_func {{.+}} blocks in (%c1820{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}) threads in (%c256{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}})
// CHECK: gpu.binary
// CHECK-SAME: .maxntid 256, 1, 1
// CHECK-NOT: {{div|rem|mul.hi}}
// CHECK-SAME: mul.wide.u32
// CHECK-NOT: {{div|rem|mul.hi}}
// CHECK-SAME: ld.global.v4.b32
// CHECK-SAME: st.global.v4.b32
func.func @scores_add(%x: tensor<4x12x197x197xf32>, %y: tensor<4x12x197x197xf32>) -> tensor<4x12x197x197xf32> {
  %r = graph.add %x, %y : tensor<4x12x197x197xf32>, tensor<4x12x197x197xf32> -> tensor<4x12x197x197xf32>
  return %r : tensor<4x12x197x197xf32>
}
