// RUN: graph-opt %s --split-input-file --graph-cpu-quantized-matmul=vnni=true | FileCheck %s
// RUN: graph-opt %s --split-input-file --graph-cpu-quantized-matmul=vnni=false | FileCheck %s --check-prefix=OFF
// RUN: graph-opt %s --split-input-file --graph-cpu-quantized-matmul="vnni=true amx=true" | FileCheck %s --check-prefix=AMX
// RUN: graph-opt %s --split-input-file --graph-cpu-quantized-matmul="avx2=true" | FileCheck %s --check-prefix=AVX2

// matmul(dq(a), dq(w)) with a uint8 a (zero point 5, scale 0.5) and a
// constant int8 w (scale 0.25) becomes the integer kernel, then f32 and
// the two scales. The kernel's accumulators start at -za * colsum(w):
// colsum = [1+3+5+7, 2+4+6+8] = [16, 20], so [-80, -100], then zeros to 16
// lanes. The packed weights hold w[4 g + j][16 b + c] at byte 4 c + j:
// 1, 3, 5, 7 (column 0), 2, 4, 6, 8 (column 1), zeros.
// CHECK-LABEL: func.func @unsigned_a
// CHECK: %[[A8:.*]] = graph.cast %arg0 : tensor<3x4xui8> -> tensor<3x4xi8>
// CHECK: %[[W:.*]] = graph.constant dense<{{\[\[\[}}1, 3, 5, 7, 2, 4, 6, 8, 0, 0, {{.*}}> : tensor<1x1x64xi8>
// CHECK: %[[INIT:.*]] = graph.constant dense<[-80, -100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<16xi32>
// CHECK: %[[ACC:.*]] = call @__graphopt_int8_matmul_3x4x2_8x1_u(%[[A8]], %[[W]], %[[INIT]])
// CHECK: %[[F:.*]] = graph.cast %[[ACC]] : tensor<3x2xi32> -> tensor<3x2xf32>
// CHECK: %[[Y:.*]] = graph.mul %[[F]], %{{.*}} : tensor<3x2xf32>, tensor<f32>
// CHECK: %[[Z:.*]] = graph.mul %[[Y]], %{{.*}} : tensor<3x2xf32>, tensor<f32>
// CHECK-NOT: graph.matmul
// CHECK: return %[[Z]]
// The kernel: 4-byte groups of a broadcast to 16 lanes, vpdpbusd.
// CHECK: func.func private @llvm.x86.avx512.vpdpbusd.512(vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK: func.func private @__graphopt_int8_matmul_3x4x2_8x1_u(%{{.*}}: tensor<3x4xi8>, %{{.*}}: tensor<1x1x64xi8>, %{{.*}}: tensor<16xi32>) -> tensor<3x2xi32>
// CHECK: vector.transfer_read {{.*}} : tensor<3x4xi8>, vector<4xi8>
// CHECK: vector.bitcast {{.*}} : vector<4xi8> to vector<1xi32>
// CHECK: vector.broadcast {{.*}} : i32 to vector<16xi32>
// CHECK: func.call @llvm.x86.avx512.vpdpbusd.512
// AVX2 (no VNNI): a widened to 16 bits, the weights packed as 16-bit
// values in runs of 8 columns x 2 k values (w[2p + j][8h + c] at
// ((2h + p) * 8 + c) * 2 + j: 1, 3 and 2, 4 for k = 0, 1; 5, 7 and 6, 8 for
// k = 2, 3 sixteen values on), the same correction; the kernel broadcasts
// each pair of a's 16-bit values as a 32-bit word and calls vpmaddwd.
// AVX2-LABEL: func.func @unsigned_a
// AVX2: %[[A16:.*]] = graph.cast %arg0 : tensor<3x4xui8> -> tensor<3x4xi16>
// AVX2: %[[W:.*]] = graph.constant dense<{{\[\[\[}}1, 3, 2, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 7, 6, 8, 0, {{.*}}> : tensor<1x1x64xi16>
// AVX2: %[[INIT:.*]] = graph.constant dense<[-80, -100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<16xi32>
// AVX2: call @__graphopt_int8_matmul_3x4x2_4x1_avx2_u(%[[A16]], %[[W]], %[[INIT]])
// AVX2: func.func private @llvm.x86.avx2.pmadd.wd(vector<16xi16>, vector<16xi16>) -> vector<8xi32>
// AVX2: func.func private @__graphopt_int8_matmul_3x4x2_4x1_avx2_u(%{{.*}}: tensor<3x4xi16>, %{{.*}}: tensor<1x1x64xi16>
// AVX2: vector.transfer_read {{.*}} : tensor<3x4xi16>, vector<2xi16>
// AVX2: vector.broadcast {{.*}} : i32 to vector<8xi32>
// AVX2: func.call @llvm.x86.avx2.pmadd.wd
// OFF-LABEL: func.func @unsigned_a
// OFF: graph.matmul
// OFF-NOT: call @
// With AMX tiles, a is padded with zeros to whole tiles (16 rows of 64 bytes), the
// weights packed as one [16 x 64] tile per 16 columns and 64 k values (row
// r holds k = 4r..4r+3 of each column: 1, 3, 5, 7 and 2, 4, 6, 8 in row 0),
// the same correction, the 16 x 16 result sliced to 3 x 2.
// AMX-LABEL: func.func @unsigned_a
// AMX: %[[A8:.*]] = graph.cast %arg0 : tensor<3x4xui8> -> tensor<3x4xi8>
// AMX: %[[P:.*]] = graph.pad %[[A8]] {high = array<i64: 13, 60>, low = array<i64: 0, 0>} : tensor<3x4xi8> -> tensor<16x64xi8>
// AMX: %[[W:.*]] = graph.constant dense<"0x0103050702040608{{(00)+}}"> : tensor<1x1x16x64xi8>
// AMX: %[[INIT:.*]] = graph.constant dense<[-80, -100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<16xi32>
// AMX: %[[ACC:.*]] = call @__graphopt_int8_matmul_3x4x2_amx_u(%[[P]], %[[W]], %[[INIT]])
// AMX: graph.slice %[[ACC]] [0, 0] [3, 2] [1, 1] : tensor<16x16xi32> -> tensor<3x2xi32>
// The kernel: the permission request, the accumulator loaded from the
// corrections with row stride 0, a's and w's tiles, tdpbusd (zext: a is
// unsigned), the store.
// AMX: func.func private @__graphopt_amx_permission()
// AMX: llvm.inline_asm has_side_effects "syscall"
// AMX: func.func private @__graphopt_int8_matmul_3x4x2_amx_u(%{{.*}}: tensor<16x64xi8>, %{{.*}}: tensor<1x1x16x64xi8>, %{{.*}}: tensor<16xi32>) -> tensor<16x16xi32>
// AMX: call @__graphopt_amx_permission()
// AMX: %[[C0:.*]] = arith.constant 0 : index
// AMX: amx.tile_load %{{.*}}[%{{.*}}], %[[C0]] : memref<16xi32> into !amx.tile<16x16xi32>
// AMX: amx.tile_load %{{.*}} : memref<16x64xi8> into !amx.tile<16x64xi8>
// AMX: amx.tile_load %{{.*}} : memref<1x1x16x64xi8> into !amx.tile<16x64xi8>
// AMX: amx.tile_muli %{{.*}} zext, %{{.*}}, %{{.*}} : !amx.tile<16x64xi8>, !amx.tile<16x64xi8>, !amx.tile<16x16xi32>
// AMX: amx.tile_store %{{.*}} : memref<16x16xi32>, !amx.tile<16x16xi32>
func.func @unsigned_a(%a: tensor<3x4xui8>) -> tensor<3x2xf32> {
  %w = graph.constant dense<[[1, 2], [3, 4], [5, 6], [7, 8]]> : tensor<4x2xi8>
  %wf = graph.cast %w : tensor<4x2xi8> -> tensor<4x2xf32>
  %sw = graph.constant dense<0.25> : tensor<f32>
  %dw = graph.mul %wf, %sw : tensor<4x2xf32>, tensor<f32> -> tensor<4x2xf32>
  %ai = graph.cast %a : tensor<3x4xui8> -> tensor<3x4xi32>
  %za = graph.constant dense<5> : tensor<ui8>
  %zi = graph.cast %za : tensor<ui8> -> tensor<i32>
  %as = graph.sub %ai, %zi : tensor<3x4xi32>, tensor<i32> -> tensor<3x4xi32>
  %af = graph.cast %as : tensor<3x4xi32> -> tensor<3x4xf32>
  %sa = graph.constant dense<0.5> : tensor<f32>
  %da = graph.mul %af, %sa : tensor<3x4xf32>, tensor<f32> -> tensor<3x4xf32>
  %y = graph.matmul %da, %dw : tensor<3x4xf32>, tensor<4x2xf32> -> tensor<3x2xf32>
  return %y : tensor<3x2xf32>
}

// -----

// A signed a (no zero point) is read as a + 128 (its sign bits flipped by
// an xor with 0x80), so the correction is -128 * colsum = [-2048, -2560].
// CHECK-LABEL: func.func @signed_a
// CHECK-NOT: graph.cast %arg0 : tensor<3x4xi8> -> tensor<3x4xi8>
// CHECK: graph.constant dense<[-2048, -2560, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<16xi32>
// CHECK: call @__graphopt_int8_matmul_3x4x2_8x1_s(%arg0,
// CHECK: func.func private @__graphopt_int8_matmul_3x4x2_8x1_s
// CHECK: %[[FLIP:.*]] = arith.constant dense<-128> : vector<64xi8>
// CHECK: arith.xori %{{.*}}, %[[FLIP]] : vector<64xi8>
// AMX multiplies a signed a as it is (tdpbssd): no correction.
// AMX-LABEL: func.func @signed_a
// AMX: graph.constant dense<0> : tensor<16xi32>
// AMX: call @__graphopt_int8_matmul_3x4x2_amx_s(
// AMX: func.func private @__graphopt_int8_matmul_3x4x2_amx_s
// AMX-NOT: arith.xori
// AMX: amx.tile_muli %{{[^ ]*}}, %{{.*}}, %{{.*}} : !amx.tile<16x64xi8>
func.func @signed_a(%a: tensor<3x4xi8>) -> tensor<3x2xf32> {
  %w = graph.constant dense<[[1, 2], [3, 4], [5, 6], [7, 8]]> : tensor<4x2xi8>
  %wf = graph.cast %w : tensor<4x2xi8> -> tensor<4x2xf32>
  %sw = graph.constant dense<0.25> : tensor<f32>
  %dw = graph.mul %wf, %sw : tensor<4x2xf32>, tensor<f32> -> tensor<4x2xf32>
  %af = graph.cast %a : tensor<3x4xi8> -> tensor<3x4xf32>
  %sa = graph.constant dense<0.5> : tensor<f32>
  %da = graph.mul %af, %sa : tensor<3x4xf32>, tensor<f32> -> tensor<3x4xf32>
  %y = graph.matmul %da, %dw : tensor<3x4xf32>, tensor<4x2xf32> -> tensor<3x2xf32>
  return %y : tensor<3x2xf32>
}

// -----

// Left as they are: a weight value outside a signed byte (200, uint8
// weights with no zero point), a weight scale that varies along K (one per
// row of w), and weights that are not constants.
// CHECK-LABEL: func.func @not_rewritten
// CHECK-COUNT-3: graph.matmul
// CHECK-NOT: call @
func.func @not_rewritten(%a: tensor<3x4xui8>, %v: tensor<4x2xi8>)
    -> (tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>) {
  %af = graph.cast %a : tensor<3x4xui8> -> tensor<3x4xf32>
  %sa = graph.constant dense<0.5> : tensor<f32>
  %da = graph.mul %af, %sa : tensor<3x4xf32>, tensor<f32> -> tensor<3x4xf32>
  %w1 = graph.constant dense<[[1, 2], [3, 200], [5, 6], [7, 8]]> : tensor<4x2xui8>
  %w1f = graph.cast %w1 : tensor<4x2xui8> -> tensor<4x2xf32>
  %dw1 = graph.mul %w1f, %sa : tensor<4x2xf32>, tensor<f32> -> tensor<4x2xf32>
  %y1 = graph.matmul %da, %dw1 : tensor<3x4xf32>, tensor<4x2xf32> -> tensor<3x2xf32>
  %w2 = graph.constant dense<[[1, 2], [3, 4], [5, 6], [7, 8]]> : tensor<4x2xi8>
  %w2f = graph.cast %w2 : tensor<4x2xi8> -> tensor<4x2xf32>
  %s2 = graph.constant dense<[[0.5], [0.25], [0.125], [1.0]]> : tensor<4x1xf32>
  %dw2 = graph.mul %w2f, %s2 : tensor<4x2xf32>, tensor<4x1xf32> -> tensor<4x2xf32>
  %y2 = graph.matmul %da, %dw2 : tensor<3x4xf32>, tensor<4x2xf32> -> tensor<3x2xf32>
  %vf = graph.cast %v : tensor<4x2xi8> -> tensor<4x2xf32>
  %dv = graph.mul %vf, %sa : tensor<4x2xf32>, tensor<f32> -> tensor<4x2xf32>
  %y3 = graph.matmul %da, %dv : tensor<3x4xf32>, tensor<4x2xf32> -> tensor<3x2xf32>
  return %y1, %y2, %y3 : tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>
}

// -----

// A signed a with zero point -5: the kernel's bytes are a + 128, and
// a - (-5) = (a + 128) - 123, so the correction is -123 * colsum =
// [-1968, -2460].
// CHECK-LABEL: func.func @signed_a_zero_point
// CHECK: graph.constant dense<[-1968, -2460, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<16xi32>
// CHECK: call @__graphopt_int8_matmul_3x4x2_8x1_s(%arg0,
func.func @signed_a_zero_point(%a: tensor<3x4xi8>) -> tensor<3x2xf32> {
  %w = graph.constant dense<[[1, 2], [3, 4], [5, 6], [7, 8]]> : tensor<4x2xi8>
  %wf = graph.cast %w : tensor<4x2xi8> -> tensor<4x2xf32>
  %sw = graph.constant dense<0.25> : tensor<f32>
  %dw = graph.mul %wf, %sw : tensor<4x2xf32>, tensor<f32> -> tensor<4x2xf32>
  %ai = graph.cast %a : tensor<3x4xi8> -> tensor<3x4xi32>
  %za = graph.constant dense<-5> : tensor<i32>
  %as = graph.sub %ai, %za : tensor<3x4xi32>, tensor<i32> -> tensor<3x4xi32>
  %af = graph.cast %as : tensor<3x4xi32> -> tensor<3x4xf32>
  %sa = graph.constant dense<0.5> : tensor<f32>
  %da = graph.mul %af, %sa : tensor<3x4xf32>, tensor<f32> -> tensor<3x4xf32>
  %y = graph.matmul %da, %dw : tensor<3x4xf32>, tensor<4x2xf32> -> tensor<3x2xf32>
  return %y : tensor<3x2xf32>
}

// -----

// max_pool2d(dq(x)) pools the uint8 integers, then dequantizes the pooled
// result (per-channel scales, all positive; zero point 3): with or without
// VNNI.
// CHECK-LABEL: func.func @pool_of_dequantized
// CHECK: %[[P:.*]] = graph.max_pool2d %arg0 {{.*}} : (tensor<1x2x8x8xui8>) -> tensor<1x2x4x4xui8>
// CHECK: %[[W:.*]] = graph.cast %[[P]] : tensor<1x2x4x4xui8> -> tensor<1x2x4x4xi32>
// CHECK: %[[S:.*]] = graph.sub %[[W]], %{{.*}} : tensor<1x2x4x4xi32>, tensor<i32> -> tensor<1x2x4x4xi32>
// CHECK: %[[F:.*]] = graph.cast %[[S]] : tensor<1x2x4x4xi32> -> tensor<1x2x4x4xf32>
// CHECK: %[[D:.*]] = graph.mul %[[F]], %{{.*}} : tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32> -> tensor<1x2x4x4xf32>
// CHECK: return %[[D]]
// OFF-LABEL: func.func @pool_of_dequantized
// OFF: graph.max_pool2d %arg0 {{.*}} : (tensor<1x2x8x8xui8>) -> tensor<1x2x4x4xui8>
func.func @pool_of_dequantized(%x: tensor<1x2x8x8xui8>) -> tensor<1x2x4x4xf32> {
  %xi = graph.cast %x : tensor<1x2x8x8xui8> -> tensor<1x2x8x8xi32>
  %z = graph.constant dense<3> : tensor<i32>
  %xs = graph.sub %xi, %z : tensor<1x2x8x8xi32>, tensor<i32> -> tensor<1x2x8x8xi32>
  %xf = graph.cast %xs : tensor<1x2x8x8xi32> -> tensor<1x2x8x8xf32>
  %s = graph.constant dense<[[[[0.5]], [[0.25]]]]> : tensor<1x2x1x1xf32>
  %d = graph.mul %xf, %s : tensor<1x2x8x8xf32>, tensor<1x2x1x1xf32> -> tensor<1x2x8x8xf32>
  %p = graph.max_pool2d %d {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32>
  return %p : tensor<1x2x4x4xf32>
}

// -----

// Left in f32: a negative scale (dequantization decreasing: the maximum of
// the integers is the minimum of the values), a scale that varies along W,
// and a window wholly in the padding (-inf in f32: kernel 2 with dilation
// 3 reads rows -1 and 2 of a 2-row image padded by 1).
// CHECK-LABEL: func.func @pools_not_rewritten
// CHECK-COUNT-2: graph.max_pool2d {{.*}} : (tensor<1x2x4x4xf32>)
// CHECK: graph.max_pool2d {{.*}} : (tensor<1x2x2x2xf32>)
func.func @pools_not_rewritten(%x: tensor<1x2x4x4xui8>, %y: tensor<1x2x2x2xui8>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x1x1xf32>) {
  %xf = graph.cast %x : tensor<1x2x4x4xui8> -> tensor<1x2x4x4xf32>
  %neg = graph.constant dense<[[[[0.5]], [[-0.25]]]]> : tensor<1x2x1x1xf32>
  %d0 = graph.mul %xf, %neg : tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32> -> tensor<1x2x4x4xf32>
  %p0 = graph.max_pool2d %d0 {kernel = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  %cols = graph.constant dense<[0.5, 0.25, 0.5, 0.25]> : tensor<4xf32>
  %d1 = graph.mul %xf, %cols : tensor<1x2x4x4xf32>, tensor<4xf32> -> tensor<1x2x4x4xf32>
  %p1 = graph.max_pool2d %d1 {kernel = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  %yf = graph.cast %y : tensor<1x2x2x2xui8> -> tensor<1x2x2x2xf32>
  %half = graph.constant dense<0.5> : tensor<f32>
  %d2 = graph.mul %yf, %half : tensor<1x2x2x2xf32>, tensor<f32> -> tensor<1x2x2x2xf32>
  %p2 = graph.max_pool2d %d2 {kernel = array<i64: 2, 2>, dilations = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x2x2x2xf32>) -> tensor<1x2x1x1xf32>
  return %p0, %p1, %p2 : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x1x1xf32>
}
