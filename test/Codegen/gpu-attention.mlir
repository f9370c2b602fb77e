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

// The kernel: grid (L / 64, batch), 128 threads; the causal key loop stops
// at the block's last row; pass 1 (statistics) and pass 2 (P V with the
// output fragments carried) are uniform loops with barriers; the output
// goes through shared memory, 4 halves per store. No call is left.
// KERNEL-LABEL: func.func @causal
// KERNEL-NOT: call
// KERNEL: gpu.launch blocks({{.*}}) in ({{.*}} = %c2, {{.*}} = %c2, {{.*}}) threads({{.*}}) in ({{.*}} = %c128, {{.*}}) dynamic_shared_memory_size
// KERNEL: arith.minui
// KERNEL: scf.for
// KERNEL: gpu.barrier
// KERNEL: gpu.subgroup_mma_load_matrix {{.*}} {leadDimension = 72 : index, transpose}
// KERNEL: gpu.subgroup_mma_compute {{.*}} {b_transpose}
// KERNEL: gpu.barrier
// KERNEL: arith.maximumf
// KERNEL: math.exp
// KERNEL: scf.for {{.*}} iter_args({{.*}}) -> (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">)
// KERNEL: arith.truncf {{.*}} : f32 to f16
// KERNEL: gpu.subgroup_mma_compute
// KERNEL: scf.yield
// KERNEL: gpu.subgroup_mma_store_matrix {{.*}} {leadDimension = 68 : index}
// KERNEL: vector.store {{.*}} {alignment = 8 : i64} : memref<2x128x64xf16>, vector<4xf16>
// KERNEL-NOT: __graphopt_gpu_attention
func.func @causal(%q: tensor<2x128x64xf16>, %k: tensor<2x96x64xf16>, %v: tensor<2x96x64xf16>) -> tensor<2x128x64xf16> {
  %r = fusion.attention %q, %k, %v causal : (tensor<2x128x64xf16>, tensor<2x96x64xf16>, tensor<2x96x64xf16>) -> tensor<2x128x64xf16>
  return %r : tensor<2x128x64xf16>
}

// -----

// Not supported, left to the decomposition: f32, a length that is not a
// multiple of 64, a mask.
// CHECK-LABEL: func.func @unsupported
// CHECK-COUNT-3: fusion.attention
// CHECK-NOT: call
func.func @unsupported(%q: tensor<1x64x64xf32>, %h: tensor<1x48x64xf16>, %k: tensor<1x64x64xf16>, %m: tensor<64x64xf16>) -> (tensor<1x64x64xf32>, tensor<1x48x64xf16>, tensor<1x64x64xf16>) {
  %a = fusion.attention %q, %q, %q : (tensor<1x64x64xf32>, tensor<1x64x64xf32>, tensor<1x64x64xf32>) -> tensor<1x64x64xf32>
  %b = fusion.attention %h, %k, %k : (tensor<1x48x64xf16>, tensor<1x64x64xf16>, tensor<1x64x64xf16>) -> tensor<1x48x64xf16>
  %c = fusion.attention %k, %k, %k mask(%m : tensor<64x64xf16>) : (tensor<1x64x64xf16>, tensor<1x64x64xf16>, tensor<1x64x64xf16>) -> tensor<1x64x64xf16>
  return %a, %b, %c : tensor<1x64x64xf32>, tensor<1x48x64xf16>, tensor<1x64x64xf16>
}
