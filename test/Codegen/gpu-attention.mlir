// RUN: graph-opt %s -split-input-file --graph-gpu-attention | FileCheck %s
// RUN: graph-opt %s -split-input-file --graph-gpu-attention --graph-gpu-attention-kernels --cse | FileCheck %s --check-prefix=KERNEL

// graph-gpu-attention: a supported fusion.attention (f16, static) becomes
// its operands' buffers, a fresh output buffer and a call of a private
// declaration carrying the scale (1/sqrt(64) by default) and `causal`;
// graph-gpu-attention-kernels puts the kernel in the call's place.
// CHECK-LABEL: func.func @causal
// CHECK-DAG: %[[Q:.+]] = bufferization.to_buffer %arg0 read_only : tensor<2x128x64xf16> to memref<2x128x64xf16>
// CHECK-DAG: %[[K:.+]] = bufferization.to_buffer %arg1 read_only
// CHECK-DAG: %[[V:.+]] = bufferization.to_buffer %arg2 read_only
// CHECK: %[[O:.+]] = memref.alloc() : memref<2x128x64xf16>
// CHECK: call @__graphopt_gpu_attention_0(%[[Q]], %[[K]], %[[V]], %[[O]]) {graphopt.causal, graphopt.scale = 1.250000e-01 : f64}
// CHECK: %[[T:.+]] = bufferization.to_tensor %[[O]] restrict writable
// CHECK: return %[[T]]
// CHECK: func.func private @__graphopt_gpu_attention_0(memref<2x128x64xf16>, memref<2x96x64xf16>, memref<2x96x64xf16>, memref<2x128x64xf16>)

// The kernel: grid (L / 64, batch), 128 threads. The Q tile goes through
// shared memory into A fragments (ldmatrix.x4, 4 per warp for D = 64);
// the K and V tiles' stages then reuse those bytes (two stages of 64 x
// (64 + 8) halves each: 64 keys per step for D <= 64), filled by cp.async
// a step ahead. One key loop
// (stopping, causal, at the block's last row) carrying O's 8 x 4
// accumulators and each lane's two row maxima and partial sums: S = Q K^T
// by 32 mma.sync (K's fragments by plain ldmatrix), the keys past S = 96
// in the last step's second half scored -inf (their K and V rows copy key
// 95), row maxima over the 4
// lanes of a row by two xor shuffles, exp, P straight from registers into
// 32 more mma.sync with V's fragments by ldmatrix.trans. No score or
// probability goes to shared memory. After the loop the partial sums are
// added across the lanes and O / l is stored, 2 halves per store. No call
// is left.
// KERNEL-LABEL: func.func @causal
// KERNEL-NOT: call
// KERNEL: gpu.launch blocks({{.*}}) in ({{.*}} = %c2, {{.*}} = %c2, {{.*}}) threads({{.*}}) in ({{.*}} = %c128, {{.*}}) dynamic_shared_memory_size
// KERNEL: %[[QS:.+]] = memref.view {{.*}} to memref<64x72xf16, #gpu.address_space<workgroup>>
// KERNEL: %[[KS:.+]] = memref.view {{.*}}[%c0][] {{.*}} to memref<2x64x72xf16, #gpu.address_space<workgroup>>
// KERNEL: %[[VS:.+]] = memref.view {{.*}} to memref<2x64x72xf16, #gpu.address_space<workgroup>>
// KERNEL: gpu.barrier
// KERNEL-COUNT-4: nvgpu.ldmatrix %[[QS]]
// KERNEL: gpu.barrier
// KERNEL: arith.minui
// KERNEL: arith.minui {{.*}}, %c95
// KERNEL: nvgpu.device_async_copy {{.*}}, %[[KS]][%c0,
// KERNEL: nvgpu.device_async_copy {{.*}}, %[[VS]][%c0,
// KERNEL: scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// KERNEL: nvgpu.device_async_wait {{.*}} {numGroups = 0 : i32}
// KERNEL-NEXT: gpu.barrier
// KERNEL: scf.if
// KERNEL: nvgpu.device_async_copy
// KERNEL-NOT: gpu.barrier
// KERNEL: nvgpu.ldmatrix %[[KS]]{{.*}} {numTiles = 4 : i32, transpose = false}
// KERNEL-NOT: gpu.barrier
// KERNEL-COUNT-32: nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32)
// KERNEL-NOT: {{gpu.barrier|memref.store}}
// KERNEL: arith.cmpi uge, {{.*}}, %c96
// KERNEL-NOT: {{gpu.barrier|memref.store}}
// KERNEL: gpu.shuffle xor {{.*}} : f32
// KERNEL-NOT: {{gpu.barrier|memref.store}}
// KERNEL: math.exp
// KERNEL-NOT: {{gpu.barrier|memref.store}}
// KERNEL: arith.truncf {{.*}} : vector<2xf32> to vector<2xf16>
// KERNEL-NOT: {{gpu.barrier|memref.store}}
// KERNEL: nvgpu.ldmatrix %[[VS]]{{.*}} {numTiles = 4 : i32, transpose = true}
// KERNEL-NOT: {{gpu.barrier|memref.store}}
// KERNEL-COUNT-32: nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32)
// KERNEL-NOT: nvvm.mma.sync
// KERNEL: scf.yield
// KERNEL: gpu.shuffle xor
// KERNEL: vector.store {{.*}} {alignment = 4 : i64} : memref<2x128x64xf16>, vector<2xf16>
// KERNEL-NOT: __graphopt_gpu_attention
func.func @causal(%q: tensor<2x128x64xf16>, %k: tensor<2x96x64xf16>, %v: tensor<2x96x64xf16>) -> tensor<2x128x64xf16> {
  %r = fusion.attention %q, %k, %v causal : (tensor<2x128x64xf16>, tensor<2x96x64xf16>, tensor<2x96x64xf16>) -> tensor<2x128x64xf16>
  return %r : tensor<2x128x64xf16>
}

// -----

// Not supported, left to the decomposition: f32 with a head dim over 128
// (160; f32 up to 128 takes the SIMT kernel: the call on f32 buffers), a
// head dim that is not a multiple of 8 (36; 40 is taken, computed as 48).
// A mask is (its buffer the call's fourth operand).
// CHECK-LABEL: func.func @unsupported
// CHECK-COUNT-2: fusion.attention
// CHECK-NOT: fusion.attention
// CHECK: call @__graphopt_gpu_attention_{{[0-9]+}}({{.*}}) {{.*}} : (memref<1x64x64xf16>, memref<1x64x64xf16>, memref<1x64x64xf16>, memref<64x64xf16>, memref<1x64x64xf16>) -> ()
// CHECK: call @__graphopt_gpu_attention_{{[0-9]+}}({{.*}}) {{.*}} : (memref<1x64x128xf32>, memref<1x64x128xf32>, memref<1x64x128xf32>, memref<1x64x128xf32>) -> ()
func.func @unsupported(%q: tensor<1x64x160xf32>, %h: tensor<1x64x36xf16>, %k: tensor<1x64x64xf16>, %m: tensor<64x64xf16>, %f: tensor<1x64x128xf32>) -> (tensor<1x64x160xf32>, tensor<1x64x36xf16>, tensor<1x64x64xf16>, tensor<1x64x128xf32>) {
  %a = fusion.attention %q, %q, %q : (tensor<1x64x160xf32>, tensor<1x64x160xf32>, tensor<1x64x160xf32>) -> tensor<1x64x160xf32>
  %b = fusion.attention %h, %h, %h : (tensor<1x64x36xf16>, tensor<1x64x36xf16>, tensor<1x64x36xf16>) -> tensor<1x64x36xf16>
  %c = fusion.attention %k, %k, %k mask(%m : tensor<64x64xf16>) : (tensor<1x64x64xf16>, tensor<1x64x64xf16>, tensor<1x64x64xf16>) -> tensor<1x64x64xf16>
  %d = fusion.attention %f, %f, %f : (tensor<1x64x128xf32>, tensor<1x64x128xf32>, tensor<1x64x128xf32>) -> tensor<1x64x128xf32>
  return %a, %b, %c, %d : tensor<1x64x160xf32>, tensor<1x64x36xf16>, tensor<1x64x64xf16>, tensor<1x64x128xf32>
}

// -----

// Ragged L and S (a ViT-like 197 tokens at D = 32): grid ceil(197 / 64) =
// 4 blocks per head; the Q rows clamped to row 196 on load; 4 key steps of
// 64, keys from 197 on scored -inf; each lane's two output rows stored
// only below 197 (an scf.if around each row's stores).
// KERNEL-LABEL: func.func @ragged
// KERNEL: gpu.launch blocks({{.*}}) in ({{.*}} = %c4, {{.*}} = %c3, {{.*}}) threads({{.*}}) in ({{.*}} = %c128,
// KERNEL: arith.minui {{.*}}, %c196
// KERNEL: vector.load %{{.*}} : memref<3x197x32xf16>, vector<8xf16>
// KERNEL: scf.for %{{.*}} = %c0 to %c4 step %c1
// KERNEL: arith.cmpi uge, {{.*}}, %c197
// KERNEL: scf.yield
// KERNEL: %[[IN:.+]] = arith.cmpi ult, %{{.*}}, %c197
// KERNEL: scf.if %[[IN]]
// KERNEL-COUNT-4: vector.store {{.*}} : memref<3x197x32xf16>, vector<2xf16>
func.func @ragged(%q: tensor<3x197x32xf16>) -> tensor<3x197x32xf16> {
  %r = fusion.attention %q, %q, %q : (tensor<3x197x32xf16>, tensor<3x197x32xf16>, tensor<3x197x32xf16>) -> tensor<3x197x32xf16>
  return %r : tensor<3x197x32xf16>
}

// -----

// D = 40 (Stable Diffusion's): computed as 48. The shared tiles have rows
// of 48 + 8 halves; the Q tile's columns 40..47 and then both K and V
// stages' are stored zeros (one 16-byte vector per row) before they are
// read; Q's fragments are 3 ldmatrix.x4 (48 / 16); O has 6 tiles of 8
// columns, of which the 5 real ones are stored for each of a lane's 2 rows.
// KERNEL-LABEL: func.func @d40
// KERNEL: %[[QS:.+]] = memref.view {{.*}} to memref<64x56xf16, #gpu.address_space<workgroup>>
// KERNEL: %[[KS:.+]] = memref.view {{.*}} to memref<2x64x56xf16, #gpu.address_space<workgroup>>
// KERNEL: vector.store %[[Z:.+]], %[[QS]][%{{.*}}, %c40] {alignment = 16 : i64} : memref<64x56xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// KERNEL: gpu.barrier
// KERNEL-COUNT-3: nvgpu.ldmatrix %[[QS]]
// KERNEL: gpu.barrier
// KERNEL: vector.store %[[Z]], %[[KS]][%c0, %{{.*}}, %c40]
// KERNEL: scf.for
// KERNEL: scf.yield
// KERNEL-COUNT-10: vector.store {{.*}} : memref<2x64x40xf16>, vector<2xf16>
// KERNEL-NOT: vector.store
func.func @d40(%q: tensor<2x64x40xf16>) -> tensor<2x64x40xf16> {
  %r = fusion.attention %q, %q, %q : (tensor<2x64x40xf16>, tensor<2x64x40xf16>, tensor<2x64x40xf16>) -> tensor<2x64x40xf16>
  return %r : tensor<2x64x40xf16>
}
