// graph-gpu-row-kernels in graph-cuda-pipeline: softmax along the last
// axis, layer norm and RMS norm (its decomposed form) are one kernel each, one warp per row (blockDim 32 x 4,
// .maxntid 32, 4, 1), in place of the decomposed chain (softmax: 6
// kernels; layer norm: 5 and a copy). Only the generated code is checked:
// these kernels have not run on a GPU (bench/gpu_check.py runs softmax,
// layer norm and RMS norm against PyTorch where one is lent); their numerics
// are checked under CPU emulation, which runs a warp's lanes in lockstep at
// the shuffles (test/Integration/row-kernels.mlir).
// RUN: graph-opt %s --split-input-file --graph-cuda-pipeline=lower-host=false | FileCheck %s
// RUN: graph-opt %s --split-input-file --graph-cuda-pipeline="chip=sm_80 features=+ptx70 lower-host=false" | FileCheck %s

// softmax f32, 1000 columns, 64 rows: 16 blocks of 4 warps, no other
// kernel, no copy and no scratch buffer (the result is the only allocation).
// In the PTX: the lanes' running max (max.NaN) and rescaled sums (ex2),
// then five butterfly steps of two shuffles each (max and sum), then the
// division.
// CHECK-LABEL: func.func @softmax_f32
// CHECK: gpu.alloc
// CHECK-NOT: gpu.alloc
// CHECK: gpu.launch_func @softmax_f32_kernel::@softmax_f32_kernel blocks in (%c16{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}) threads in (%c32{{(_[0-9]+)?}}, %c4{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}})
// CHECK-NOT: gpu.launch_func
// CHECK-NOT: gpu.memcpy
// CHECK: return
// CHECK: gpu.binary @softmax_f32_kernel
// CHECK-SAME: .maxntid 32, 4, 1
// CHECK-SAME: max.NaN.f32
// CHECK-SAME: ex2.approx
// CHECK-COUNT-10: shfl.sync.bfly.b32
// CHECK-SAME: div.rn.f32
// CHECK-NOT: shfl.sync
// CHECK-SAME: st.global.b32
// CHECK-NOT: gpu.binary
func.func @softmax_f32(%x: tensor<64x1000xf32>) -> tensor<64x1000xf32> {
  %r = graph.softmax %x axis = 1 : tensor<64x1000xf32> -> tensor<64x1000xf32>
  return %r : tensor<64x1000xf32>
}

// -----

// softmax f16 of rank 3 (axis 2): 2 x 8 = 16 rows of 128, read as f16 and
// widened (cvt.f32.f16), computed in f32, rounded once when stored
// (cvt.rn.f16.f32, st.global.b16).
// CHECK-LABEL: func.func @softmax_f16
// CHECK: gpu.launch_func {{.+}} blocks in (%c4{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}) threads in (%c32{{(_[0-9]+)?}}, %c4{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}})
// CHECK-NOT: gpu.launch_func
// CHECK: return
// CHECK: gpu.binary
// CHECK-SAME: ld.global.b16
// CHECK-SAME: cvt.f32.f16
// CHECK-COUNT-10: shfl.sync.bfly.b32
// CHECK-SAME: cvt.rn.f16.f32
// CHECK-SAME: st.global.b16
func.func @softmax_f16(%x: tensor<2x8x128xf16>) -> tensor<2x8x128xf16> {
  %r = graph.softmax %x axis = 2 : tensor<2x8x128xf16> -> tensor<2x8x128xf16>
  return %r : tensor<2x8x128xf16>
}

// -----

// layer norm over 768 features, 128 rows: the mean (a warp sum), the
// variance (a warp sum of squared deviations), then the normalized,
// scaled and shifted row: one kernel, no copy.
// CHECK-LABEL: func.func @layer_norm_f32
// CHECK: gpu.launch_func {{.+}} blocks in (%c32{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}) threads in (%c32{{(_[0-9]+)?}}, %c4{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}})
// CHECK-NOT: gpu.launch_func
// CHECK-NOT: gpu.memcpy
// CHECK: return
// CHECK: gpu.binary
// CHECK-SAME: .maxntid 32, 4, 1
// CHECK-COUNT-5: shfl.sync.bfly.b32
// CHECK-SAME: mul.rn.f32
// CHECK-COUNT-5: shfl.sync.bfly.b32
// CHECK-SAME: rsqrt
// CHECK-SAME: st.global.b32
// CHECK-NOT: gpu.binary
func.func @layer_norm_f32(%x: tensor<128x768xf32>, %w: tensor<768xf32>, %b: tensor<768xf32>) -> tensor<128x768xf32> {
  %0 = graph.layer_norm %x, %w, %b : (tensor<128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<128x768xf32>
  return %0 : tensor<128x768xf32>
}

// -----

// bf16 layer norm over the two trailing dims (a row of 4 x 64 = 256): 6
// rows in 2 blocks (the second block's last two warps have no row).
// CHECK-LABEL: func.func @layer_norm_bf16
// CHECK: gpu.launch_func {{.+}} blocks in (%c2{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}) threads in (%c32{{(_[0-9]+)?}}, %c4{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}})
// CHECK-NOT: gpu.launch_func
// CHECK: return
// CHECK: gpu.binary
// CHECK-COUNT-10: shfl.sync.bfly.b32
// CHECK-SAME: st.global.b16
func.func @layer_norm_bf16(%x: tensor<6x4x64xbf16>, %w: tensor<4x64xbf16>, %b: tensor<4x64xbf16>) -> tensor<6x4x64xbf16> {
  %0 = graph.layer_norm %x, %w, %b : (tensor<6x4x64xbf16>, tensor<4x64xbf16>, tensor<4x64xbf16>) -> tensor<6x4x64xbf16>
  return %0 : tensor<6x4x64xbf16>
}

// -----

// A rank-1 softmax is one row.
// CHECK-LABEL: func.func @softmax_vector
// CHECK: gpu.launch_func {{.+}} blocks in (%c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}) threads in (%c32{{(_[0-9]+)?}}, %c4{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}})
// CHECK-NOT: gpu.launch_func
// CHECK: return
func.func @softmax_vector(%x: tensor<1000xf32>) -> tensor<1000xf32> {
  %r = graph.softmax %x axis = 0 : tensor<1000xf32> -> tensor<1000xf32>
  return %r : tensor<1000xf32>
}

// -----

// RMS normalization has no graph op: torch.nn.RMSNorm and LLaMA-style
// modules import as w * (x * rsqrt(mean(x * x) + eps)). That chain (factors
// in either order, the weight optional, on either side) is one warp-per-row
// kernel: the sum of squares (a warp sum: 5 butterfly steps), rsqrt, then
// x * inv * w. 128 rows of 4096: 32 blocks of 4 warps.
// CHECK-LABEL: func.func @rms_norm_f32
// CHECK: gpu.launch_func {{.+}} blocks in (%c32{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}) threads in (%c32{{(_[0-9]+)?}}, %c4{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}})
// CHECK-NOT: gpu.launch_func
// CHECK: return
// CHECK: gpu.binary
// CHECK-COUNT-5: shfl.sync.bfly.b32
// CHECK-NOT: shfl.sync
// CHECK-SAME: rsqrt.approx
// CHECK-SAME: st.global.b32
func.func @rms_norm_f32(%x: tensor<128x4096xf32>, %w: tensor<4096xf32>) -> tensor<128x4096xf32> {
  %eps = graph.constant dense<1.0e-06> : tensor<f32>
  %sq = graph.mul %x, %x : tensor<128x4096xf32>, tensor<128x4096xf32> -> tensor<128x4096xf32>
  %ms = graph.reduce mean %sq axes = [1] keepdims : tensor<128x4096xf32> -> tensor<128x1xf32>
  %a = graph.add %ms, %eps : tensor<128x1xf32>, tensor<f32> -> tensor<128x1xf32>
  %inv = graph.rsqrt %a : tensor<128x1xf32> -> tensor<128x1xf32>
  %n = graph.mul %x, %inv : tensor<128x4096xf32>, tensor<128x1xf32> -> tensor<128x4096xf32>
  %y = graph.mul %w, %n : tensor<4096xf32>, tensor<128x4096xf32> -> tensor<128x4096xf32>
  return %y : tensor<128x4096xf32>
}

// -----

// f16 without a weight, over the two trailing dims (rows of 4 x 64), the
// factors the other way round: one kernel, f16 read and widened, rounded
// once when stored.
// CHECK-LABEL: func.func @rms_norm_f16
// CHECK: gpu.launch_func
// CHECK-NOT: gpu.launch_func
// CHECK: return
// CHECK: gpu.binary
// CHECK-SAME: cvt.f32.f16
// CHECK-COUNT-5: shfl.sync.bfly.b32
// CHECK-SAME: cvt.rn.f16.f32
func.func @rms_norm_f16(%x: tensor<6x4x64xf16>) -> tensor<6x4x64xf16> {
  %eps = graph.constant dense<1.0e-05> : tensor<f16>
  %sq = graph.mul %x, %x : tensor<6x4x64xf16>, tensor<6x4x64xf16> -> tensor<6x4x64xf16>
  %ms = graph.reduce mean %sq axes = [1, 2] keepdims : tensor<6x4x64xf16> -> tensor<6x1x1xf16>
  %a = graph.add %eps, %ms : tensor<f16>, tensor<6x1x1xf16> -> tensor<6x1x1xf16>
  %inv = graph.rsqrt %a : tensor<6x1x1xf16> -> tensor<6x1x1xf16>
  %y = graph.mul %inv, %x : tensor<6x1x1xf16>, tensor<6x4x64xf16> -> tensor<6x4x64xf16>
  return %y : tensor<6x4x64xf16>
}

// -----

// Not RMS norm: the mean over a leading axis (not the row): the
// decomposed kernels stay (more than one launch).
// CHECK-LABEL: func.func @not_rms_norm
// CHECK: gpu.launch_func
// CHECK: gpu.launch_func
// CHECK: return
func.func @not_rms_norm(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %eps = graph.constant dense<1.0e-06> : tensor<f32>
  %sq = graph.mul %x, %x : tensor<64x256xf32>, tensor<64x256xf32> -> tensor<64x256xf32>
  %ms = graph.reduce mean %sq axes = [0] keepdims : tensor<64x256xf32> -> tensor<1x256xf32>
  %a = graph.add %ms, %eps : tensor<1x256xf32>, tensor<f32> -> tensor<1x256xf32>
  %inv = graph.rsqrt %a : tensor<1x256xf32> -> tensor<1x256xf32>
  %y = graph.mul %x, %inv : tensor<64x256xf32>, tensor<1x256xf32> -> tensor<64x256xf32>
  return %y : tensor<64x256xf32>
}
