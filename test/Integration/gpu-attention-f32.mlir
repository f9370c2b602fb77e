// RUN: rm -rf %t && mkdir -p %t

// f32 attention on CUDA as one fused SIMT kernel (graph-gpu-attention's
// f32 path: IEEE f32 FMAs, no tensor cores, the L x S scores never in
// memory): 64 query rows per block of 128 threads, 32 keys per step
// through shared memory, each thread 4 x 4 scores and 4 rows of O. Before,
// f32 attention was decomposed (13 kernels for ViT-B/16's, writing the
// L x S scores).
//
// Not run on a GPU. Here under --cuda-emulate (the block's threads in
// lockstep at its barriers, its shuffles per warp) against NumPy in
// float64, and on the CPU target against the same references. Tolerances:
// rtol 1e-5, atol 1e-6 (f32 sums in another order, exp in f32).

// RUN: %if cuda-runtime %{ graph-opt %s --graph-cuda-pipeline="cpu-emulation=true" --mlir-print-ir-before=graph-gpu-launch-to-loops --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s --check-prefix=KERNELS %}
// One kernel per attention: 2 x 3 heads x 2 blocks of 64 rows, 128
// threads, the Q tile, K, V (rows of 64 + 4 floats) and P^T (32 keys x 68)
// in 43520 bytes of shared memory; three barriers per step, 16-byte
// shared loads, FMAs, the row statistics by xor shuffles over 8 lanes.
// KERNELS-LABEL: func.func @gf_attn_plain
// KERNELS: %[[SMEM:.*]] = arith.constant 43520 : i32
// KERNELS: gpu.launch {{.*}} in ({{.*}} = %c2, {{.*}} = %c6, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c128, {{.*}}) dynamic_shared_memory_size %[[SMEM]]
// KERNELS-NOT: gpu.launch
// KERNELS: scf.for
// KERNELS: gpu.barrier
// KERNELS: gpu.barrier
// KERNELS: vector.load {{.*}} vector<4xf32>
// KERNELS: math.fma
// KERNELS: gpu.shuffle  xor {{.*}}, %c1_i32
// KERNELS: gpu.shuffle  xor {{.*}}, %c2_i32
// KERNELS: gpu.shuffle  xor {{.*}}, %c4_i32
// KERNELS: math.exp
// KERNELS: gpu.barrier
// KERNELS: math.fma
// KERNELS-NOT: gpu.launch
// KERNELS-LABEL: func.func @gf_attn_ragged_causal
// KERNELS: gpu.launch
// KERNELS: arith.minui
// KERNELS-NOT: gpu.launch
// KERNELS-LABEL: func.func @gf_attn_d40
// KERNELS: gpu.launch
// KERNELS-NOT: gpu.launch
// KERNELS-LABEL: func.func @gf_attn_d128_scale
// KERNELS: gpu.launch
// KERNELS-NOT: gpu.launch
// KERNELS-LABEL: func.func @gf_attn_bool_mask
// KERNELS: gpu.launch
// KERNELS-NOT: gpu.launch
// KERNELS-LABEL: func.func @gf_attn_float_mask
// KERNELS: gpu.launch
// KERNELS-NOT: gpu.launch

// RUN: %reference gf_attn_plain %t/a
// RUN: graph-run %s --entry=gf_attn_plain --quiet --rtol=1e-5 --atol=1e-6 --input=@%t/a/x0.npy --input=@%t/a/x1.npy --input=@%t/a/x2.npy --expected-output=@%t/a/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gf_attn_plain --target=cuda --cuda-emulate --quiet --rtol=1e-5 --atol=1e-6 --input=@%t/a/x0.npy --input=@%t/a/x1.npy --input=@%t/a/x2.npy --expected-output=@%t/a/expected.npy | FileCheck %s %}
func.func @gf_attn_plain(%q: tensor<2x3x128x64xf32>, %k: tensor<2x3x128x64xf32>, %v: tensor<2x3x128x64xf32>) -> tensor<2x3x128x64xf32> {
  %o = graph.scaled_dot_product_attention %q, %k, %v : (tensor<2x3x128x64xf32>, tensor<2x3x128x64xf32>, tensor<2x3x128x64xf32>) -> tensor<2x3x128x64xf32>
  return %o : tensor<2x3x128x64xf32>
}

// RUN: %reference gf_attn_ragged_causal %t/b
// RUN: graph-run %s --entry=gf_attn_ragged_causal --quiet --rtol=1e-5 --atol=1e-6 --input=@%t/b/x0.npy --input=@%t/b/x1.npy --input=@%t/b/x2.npy --expected-output=@%t/b/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gf_attn_ragged_causal --target=cuda --cuda-emulate --quiet --rtol=1e-5 --atol=1e-6 --input=@%t/b/x0.npy --input=@%t/b/x1.npy --input=@%t/b/x2.npy --expected-output=@%t/b/expected.npy | FileCheck %s %}
func.func @gf_attn_ragged_causal(%q: tensor<1x2x100x64xf32>, %k: tensor<1x2x100x64xf32>, %v: tensor<1x2x100x64xf32>) -> tensor<1x2x100x64xf32> {
  %o = fusion.attention %q, %k, %v causal : (tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>, tensor<1x2x100x64xf32>) -> tensor<1x2x100x64xf32>
  return %o : tensor<1x2x100x64xf32>
}

// RUN: %reference gf_attn_d40 %t/c
// RUN: graph-run %s --entry=gf_attn_d40 --quiet --rtol=1e-5 --atol=1e-6 --input=@%t/c/x0.npy --input=@%t/c/x1.npy --input=@%t/c/x2.npy --expected-output=@%t/c/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gf_attn_d40 --target=cuda --cuda-emulate --quiet --rtol=1e-5 --atol=1e-6 --input=@%t/c/x0.npy --input=@%t/c/x1.npy --input=@%t/c/x2.npy --expected-output=@%t/c/expected.npy | FileCheck %s %}
func.func @gf_attn_d40(%q: tensor<2x96x40xf32>, %k: tensor<2x77x40xf32>, %v: tensor<2x77x40xf32>) -> tensor<2x96x40xf32> {
  %o = fusion.attention %q, %k, %v : (tensor<2x96x40xf32>, tensor<2x77x40xf32>, tensor<2x77x40xf32>) -> tensor<2x96x40xf32>
  return %o : tensor<2x96x40xf32>
}

// RUN: %reference gf_attn_d128_scale %t/d
// RUN: graph-run %s --entry=gf_attn_d128_scale --quiet --rtol=1e-5 --atol=1e-6 --input=@%t/d/x0.npy --input=@%t/d/x1.npy --input=@%t/d/x2.npy --expected-output=@%t/d/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gf_attn_d128_scale --target=cuda --cuda-emulate --quiet --rtol=1e-5 --atol=1e-6 --input=@%t/d/x0.npy --input=@%t/d/x1.npy --input=@%t/d/x2.npy --expected-output=@%t/d/expected.npy | FileCheck %s %}
func.func @gf_attn_d128_scale(%q: tensor<1x70x128xf32>, %k: tensor<1x45x128xf32>, %v: tensor<1x45x128xf32>) -> tensor<1x70x128xf32> {
  %o = fusion.attention %q, %k, %v scale = 0.05 : (tensor<1x70x128xf32>, tensor<1x45x128xf32>, tensor<1x45x128xf32>) -> tensor<1x70x128xf32>
  return %o : tensor<1x70x128xf32>
}

// RUN: %reference gf_attn_bool_mask %t/e
// RUN: graph-run %s --entry=gf_attn_bool_mask --quiet --rtol=1e-5 --atol=1e-6 --input=@%t/e/x0.npy --input=@%t/e/x1.npy --input=@%t/e/x2.npy --input=@%t/e/x3.npy --expected-output=@%t/e/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gf_attn_bool_mask --target=cuda --cuda-emulate --quiet --rtol=1e-5 --atol=1e-6 --input=@%t/e/x0.npy --input=@%t/e/x1.npy --input=@%t/e/x2.npy --input=@%t/e/x3.npy --expected-output=@%t/e/expected.npy | FileCheck %s %}
func.func @gf_attn_bool_mask(%q: tensor<2x2x80x32xf32>, %k: tensor<2x2x50x32xf32>, %v: tensor<2x2x50x32xf32>, %m: tensor<2x1x80x50xi1>) -> tensor<2x2x80x32xf32> {
  %o = fusion.attention %q, %k, %v mask(%m : tensor<2x1x80x50xi1>) : (tensor<2x2x80x32xf32>, tensor<2x2x50x32xf32>, tensor<2x2x50x32xf32>) -> tensor<2x2x80x32xf32>
  return %o : tensor<2x2x80x32xf32>
}

// RUN: %reference gf_attn_float_mask %t/f
// RUN: graph-run %s --entry=gf_attn_float_mask --quiet --rtol=1e-5 --atol=1e-6 --input=@%t/f/x0.npy --input=@%t/f/x1.npy --input=@%t/f/x2.npy --input=@%t/f/x3.npy --expected-output=@%t/f/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gf_attn_float_mask --target=cuda --cuda-emulate --quiet --rtol=1e-5 --atol=1e-6 --input=@%t/f/x0.npy --input=@%t/f/x1.npy --input=@%t/f/x2.npy --input=@%t/f/x3.npy --expected-output=@%t/f/expected.npy | FileCheck %s %}
func.func @gf_attn_float_mask(%q: tensor<3x64x96xf32>, %k: tensor<3x64x96xf32>, %v: tensor<3x64x96xf32>, %m: tensor<64x64xf32>) -> tensor<3x64x96xf32> {
  %o = fusion.attention %q, %k, %v mask(%m : tensor<64x64xf32>) : (tensor<3x64x96xf32>, tensor<3x64x96xf32>, tensor<3x64x96xf32>) -> tensor<3x64x96xf32>
  return %o : tensor<3x64x96xf32>
}

// CHECK: result 0: matches expected
