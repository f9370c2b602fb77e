// RUN: rm -rf %t && mkdir -p %t

// The CUDA target's fused attention kernel (graph-gpu-attention: f16,
// static shapes, no mask; FlashAttention-2 style, one pass over the keys
// on mma.sync with ldmatrix fragments and cp.async stages, scores and
// probabilities only in registers, row maxima by warp shuffles) under
// --cuda-emulate (block by block, each warp's lanes in lockstep at its
// ldmatrix, mma.sync and shuffles), against NumPy's float64 attention rounded
// once to f16: batched 3-D with S != L, causal 4-D (the key loop stopping
// at the block's last row), head dim 128, an explicit scale over 3 heads,
// and a masked attention the kernel does not take (decomposed), also run on
// the CPU target against the same references. Tolerance rtol 2e-3 (two
// f16 ulps of the result), atol 1e-3: the kernel rounds each probability
// to f16 before P V, as FlashAttention does, a relative error of at most
// 2^-11 per term, so at most 2^-11 * max|v| = 9.8e-4 for |v| <= 2 (O is a
// convex combination of v's rows); the decomposed masked case rtol 1e-2,
// atol 1e-3 (scores and probabilities rounded to f16 in between, as in
// f16-batched-matmul.mlir).

// One kernel where the fused kernel applies (the IR the emulation starts
// from), the decomposition where it does not:
// RUN: %if cuda-runtime %{ graph-opt %s --graph-cuda-pipeline=cpu-emulation=true --mlir-print-ir-before=graph-gpu-launch-to-loops --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s --check-prefix=KERNELS %}
// KERNELS-LABEL: func.func @gk_attn_plain
// KERNELS: gpu.launch
// KERNELS-NOT: gpu.launch
// KERNELS: nvgpu.ldmatrix
// KERNELS: nvvm.mma.sync
// KERNELS: gpu.shuffle xor
// KERNELS-LABEL: func.func @gk_attn_causal
// KERNELS: gpu.launch
// KERNELS-NOT: gpu.launch
// KERNELS-LABEL: func.func @gk_attn_d128
// KERNELS: gpu.launch
// KERNELS-NOT: gpu.launch
// KERNELS-LABEL: func.func @gk_attn_scale
// KERNELS: gpu.launch
// KERNELS-NOT: gpu.launch
// bf16: the three input casts, then the fused kernel (bf16 K/V stages,
// bf16 fragments into mma.sync as i32 pairs).
// KERNELS-LABEL: func.func @gk_attn_bf16
// KERNELS-COUNT-4: gpu.launch
// KERNELS-NOT: gpu.launch
// KERNELS: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = true} : memref<2x64x72xbf16, #gpu.address_space<workgroup>>
// KERNELS: nvvm.mma.sync {{.*}} : (i32, i32, f32)
// A float mask [L, S] (added to the scaled scores) and an i1 mask
// [B, 1, L, S] (broadcast over the heads; false keys get -inf): the fused
// kernel too, reading the float mask a pair of adjacent keys at a time (a
// 4-byte load of 2 halves), the i1 mask per score element.
// KERNELS-LABEL: func.func @gk_attn_masked
// KERNELS: gpu.launch
// KERNELS-NOT: gpu.launch
// KERNELS: nvvm.mma.sync
// KERNELS: vector.load %{{.*}} : memref<64x64xf16>, vector<2xf16>
// KERNELS: arith.addf
// KERNELS-LABEL: func.func @gk_attn_bool_mask
// KERNELS: gpu.launch
// KERNELS-NOT: gpu.launch
// KERNELS: memref.load %{{.*}}[%{{.*}}, %c0, %{{.*}}, %{{.*}}] : memref<2x1x64x96xi1>
// KERNELS: arith.select

// RUN: %reference gk_attn_plain %t/a
// RUN: graph-run %s --entry=gk_attn_plain --quiet --rtol=2e-3 --atol=1e-3 --input=@%t/a/x0.npy --input=@%t/a/x1.npy --input=@%t/a/x2.npy --expected-output=@%t/a/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_attn_plain --target=cuda --cuda-emulate --quiet --rtol=2e-3 --atol=1e-3 --input=@%t/a/x0.npy --input=@%t/a/x1.npy --input=@%t/a/x2.npy --expected-output=@%t/a/expected.npy | FileCheck %s %}
func.func @gk_attn_plain(%q: tensor<2x128x64xf16>, %k: tensor<2x96x64xf16>, %v: tensor<2x96x64xf16>) -> tensor<2x128x64xf16> {
  %r = graph.scaled_dot_product_attention %q, %k, %v : (tensor<2x128x64xf16>, tensor<2x96x64xf16>, tensor<2x96x64xf16>) -> tensor<2x128x64xf16>
  return %r : tensor<2x128x64xf16>
}

// RUN: %reference gk_attn_causal %t/b
// RUN: graph-run %s --entry=gk_attn_causal --quiet --rtol=2e-3 --atol=1e-3 --input=@%t/b/x0.npy --input=@%t/b/x1.npy --input=@%t/b/x2.npy --expected-output=@%t/b/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_attn_causal --target=cuda --cuda-emulate --quiet --rtol=2e-3 --atol=1e-3 --input=@%t/b/x0.npy --input=@%t/b/x1.npy --input=@%t/b/x2.npy --expected-output=@%t/b/expected.npy | FileCheck %s %}
func.func @gk_attn_causal(%q: tensor<1x2x128x32xf16>, %k: tensor<1x2x128x32xf16>, %v: tensor<1x2x128x32xf16>) -> tensor<1x2x128x32xf16> {
  %r = graph.scaled_dot_product_attention %q, %k, %v {is_causal} : (tensor<1x2x128x32xf16>, tensor<1x2x128x32xf16>, tensor<1x2x128x32xf16>) -> tensor<1x2x128x32xf16>
  return %r : tensor<1x2x128x32xf16>
}

// RUN: %reference gk_attn_d128 %t/c
// RUN: graph-run %s --entry=gk_attn_d128 --quiet --rtol=2e-3 --atol=1e-3 --input=@%t/c/x0.npy --input=@%t/c/x1.npy --input=@%t/c/x2.npy --expected-output=@%t/c/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_attn_d128 --target=cuda --cuda-emulate --quiet --rtol=2e-3 --atol=1e-3 --input=@%t/c/x0.npy --input=@%t/c/x1.npy --input=@%t/c/x2.npy --expected-output=@%t/c/expected.npy | FileCheck %s %}
func.func @gk_attn_d128(%q: tensor<1x64x128xf16>, %k: tensor<1x64x128xf16>, %v: tensor<1x64x128xf16>) -> tensor<1x64x128xf16> {
  %r = graph.scaled_dot_product_attention %q, %k, %v : (tensor<1x64x128xf16>, tensor<1x64x128xf16>, tensor<1x64x128xf16>) -> tensor<1x64x128xf16>
  return %r : tensor<1x64x128xf16>
}

// RUN: %reference gk_attn_scale %t/d
// RUN: graph-run %s --entry=gk_attn_scale --quiet --rtol=2e-3 --atol=1e-3 --input=@%t/d/x0.npy --input=@%t/d/x1.npy --input=@%t/d/x2.npy --expected-output=@%t/d/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_attn_scale --target=cuda --cuda-emulate --quiet --rtol=2e-3 --atol=1e-3 --input=@%t/d/x0.npy --input=@%t/d/x1.npy --input=@%t/d/x2.npy --expected-output=@%t/d/expected.npy | FileCheck %s %}
func.func @gk_attn_scale(%q: tensor<3x64x16xf16>, %k: tensor<3x32x16xf16>, %v: tensor<3x32x16xf16>) -> tensor<3x64x16xf16> {
  %r = graph.scaled_dot_product_attention %q, %k, %v {scale = 5.000000e-01 : f64} : (tensor<3x64x16xf16>, tensor<3x32x16xf16>, tensor<3x32x16xf16>) -> tensor<3x64x16xf16>
  return %r : tensor<3x64x16xf16>
}

// bf16 (inputs given as f32, cast in the program): the same kernel with
// bf16 fragments and P rounded to bf16. Tolerance rtol 8e-3 (two bf16 ulps
// of the result), atol 4e-3 (P's rounding, 2^-8 max|v| with |v| <= 1).
// RUN: %reference gk_attn_bf16 %t/f
// RUN: graph-run %s --entry=gk_attn_bf16 --quiet --rtol=8e-3 --atol=4e-3 --input=@%t/f/x0.npy --input=@%t/f/x1.npy --input=@%t/f/x2.npy --expected-output=@%t/f/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_attn_bf16 --target=cuda --cuda-emulate --quiet --rtol=8e-3 --atol=4e-3 --input=@%t/f/x0.npy --input=@%t/f/x1.npy --input=@%t/f/x2.npy --expected-output=@%t/f/expected.npy | FileCheck %s %}
func.func @gk_attn_bf16(%a: tensor<1x2x128x64xf32>, %b: tensor<1x2x128x64xf32>, %c: tensor<1x2x128x64xf32>) -> tensor<1x2x128x64xbf16> {
  %q = graph.cast %a : tensor<1x2x128x64xf32> -> tensor<1x2x128x64xbf16>
  %k = graph.cast %b : tensor<1x2x128x64xf32> -> tensor<1x2x128x64xbf16>
  %v = graph.cast %c : tensor<1x2x128x64xf32> -> tensor<1x2x128x64xbf16>
  %r = graph.scaled_dot_product_attention %q, %k, %v {is_causal} : (tensor<1x2x128x64xbf16>, tensor<1x2x128x64xbf16>, tensor<1x2x128x64xbf16>) -> tensor<1x2x128x64xbf16>
  return %r : tensor<1x2x128x64xbf16>
}

// RUN: %reference gk_attn_masked %t/e
// RUN: graph-run %s --entry=gk_attn_masked --quiet --rtol=1e-2 --atol=1e-3 --input=@%t/e/x0.npy --input=@%t/e/x1.npy --input=@%t/e/x2.npy --input=@%t/e/x3.npy --expected-output=@%t/e/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_attn_masked --target=cuda --cuda-emulate --quiet --rtol=2e-3 --atol=1e-3 --input=@%t/e/x0.npy --input=@%t/e/x1.npy --input=@%t/e/x2.npy --input=@%t/e/x3.npy --expected-output=@%t/e/expected.npy | FileCheck %s %}
func.func @gk_attn_masked(%q: tensor<2x64x32xf16>, %k: tensor<2x64x32xf16>, %v: tensor<2x64x32xf16>, %m: tensor<64x64xf16>) -> tensor<2x64x32xf16> {
  %r = graph.scaled_dot_product_attention %q, %k, %v, %m : (tensor<2x64x32xf16>, tensor<2x64x32xf16>, tensor<2x64x32xf16>, tensor<64x64xf16>) -> tensor<2x64x32xf16>
  return %r : tensor<2x64x32xf16>
}

// CHECK: result 0: matches expected

// RUN: %reference gk_attn_bool_mask %t/g
// RUN: graph-run %s --entry=gk_attn_bool_mask --quiet --rtol=1e-2 --atol=1e-3 --input=@%t/g/x0.npy --input=@%t/g/x1.npy --input=@%t/g/x2.npy --input=@%t/g/x3.npy --expected-output=@%t/g/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_attn_bool_mask --target=cuda --cuda-emulate --quiet --rtol=2e-3 --atol=1e-3 --input=@%t/g/x0.npy --input=@%t/g/x1.npy --input=@%t/g/x2.npy --input=@%t/g/x3.npy --expected-output=@%t/g/expected.npy | FileCheck %s %}
func.func @gk_attn_bool_mask(%q: tensor<2x2x64x32xf16>, %k: tensor<2x2x96x32xf16>, %v: tensor<2x2x96x32xf16>, %m: tensor<2x1x64x96xi1>) -> tensor<2x2x64x32xf16> {
  %r = graph.scaled_dot_product_attention %q, %k, %v, %m : (tensor<2x2x64x32xf16>, tensor<2x2x96x32xf16>, tensor<2x2x96x32xf16>, tensor<2x1x64x96xi1>) -> tensor<2x2x64x32xf16>
  return %r : tensor<2x2x64x32xf16>
}

// Ragged lengths (since 2026-12-07; were decomposed): L and S that are not
// multiples of the 64-row blocks or the key steps. The last block's extra
// query rows read row L - 1 and store nothing; the last key step's extra
// keys copy key S - 1 and score -inf. 197 tokens (ViT) at D = 64 (64-key
// steps), causal 4-D with L = S = 100, D = 128 with L = 70, S = 45 (32-key
// steps), and an i1 and a float mask with L = 80, S = 50 (the mask reads
// clamped to the mask's bounds), one kernel each. Tolerances as above.
// KERNELS-LABEL: func.func @gk_attn_ragged
// KERNELS: gpu.launch
// KERNELS-NOT: gpu.launch
// KERNELS-LABEL: func.func @gk_attn_ragged_causal
// KERNELS: gpu.launch
// KERNELS-NOT: gpu.launch
// KERNELS-LABEL: func.func @gk_attn_ragged_d128
// KERNELS: gpu.launch
// KERNELS-NOT: gpu.launch
// KERNELS-LABEL: func.func @gk_attn_ragged_mask
// KERNELS-COUNT-2: gpu.launch
// KERNELS-NOT: gpu.launch

// RUN: %reference gk_attn_ragged %t/h
// RUN: graph-run %s --entry=gk_attn_ragged --quiet --rtol=2e-3 --atol=1e-3 --input=@%t/h/x0.npy --input=@%t/h/x1.npy --input=@%t/h/x2.npy --expected-output=@%t/h/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_attn_ragged --target=cuda --cuda-emulate --quiet --rtol=2e-3 --atol=1e-3 --input=@%t/h/x0.npy --input=@%t/h/x1.npy --input=@%t/h/x2.npy --expected-output=@%t/h/expected.npy | FileCheck %s %}
func.func @gk_attn_ragged(%q: tensor<2x197x64xf16>, %k: tensor<2x197x64xf16>, %v: tensor<2x197x64xf16>) -> tensor<2x197x64xf16> {
  %r = graph.scaled_dot_product_attention %q, %k, %v : (tensor<2x197x64xf16>, tensor<2x197x64xf16>, tensor<2x197x64xf16>) -> tensor<2x197x64xf16>
  return %r : tensor<2x197x64xf16>
}

// RUN: %reference gk_attn_ragged_causal %t/i
// RUN: graph-run %s --entry=gk_attn_ragged_causal --quiet --rtol=2e-3 --atol=1e-3 --input=@%t/i/x0.npy --input=@%t/i/x1.npy --input=@%t/i/x2.npy --expected-output=@%t/i/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_attn_ragged_causal --target=cuda --cuda-emulate --quiet --rtol=2e-3 --atol=1e-3 --input=@%t/i/x0.npy --input=@%t/i/x1.npy --input=@%t/i/x2.npy --expected-output=@%t/i/expected.npy | FileCheck %s %}
func.func @gk_attn_ragged_causal(%q: tensor<1x2x100x32xf16>, %k: tensor<1x2x100x32xf16>, %v: tensor<1x2x100x32xf16>) -> tensor<1x2x100x32xf16> {
  %r = graph.scaled_dot_product_attention %q, %k, %v {is_causal} : (tensor<1x2x100x32xf16>, tensor<1x2x100x32xf16>, tensor<1x2x100x32xf16>) -> tensor<1x2x100x32xf16>
  return %r : tensor<1x2x100x32xf16>
}

// RUN: %reference gk_attn_ragged_d128 %t/j
// RUN: graph-run %s --entry=gk_attn_ragged_d128 --quiet --rtol=2e-3 --atol=1e-3 --input=@%t/j/x0.npy --input=@%t/j/x1.npy --input=@%t/j/x2.npy --expected-output=@%t/j/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_attn_ragged_d128 --target=cuda --cuda-emulate --quiet --rtol=2e-3 --atol=1e-3 --input=@%t/j/x0.npy --input=@%t/j/x1.npy --input=@%t/j/x2.npy --expected-output=@%t/j/expected.npy | FileCheck %s %}
func.func @gk_attn_ragged_d128(%q: tensor<1x70x128xf16>, %k: tensor<1x45x128xf16>, %v: tensor<1x45x128xf16>) -> tensor<1x70x128xf16> {
  %r = graph.scaled_dot_product_attention %q, %k, %v : (tensor<1x70x128xf16>, tensor<1x45x128xf16>, tensor<1x45x128xf16>) -> tensor<1x70x128xf16>
  return %r : tensor<1x70x128xf16>
}

// RUN: %reference gk_attn_ragged_mask %t/k
// RUN: graph-run %s --entry=gk_attn_ragged_mask --quiet --rtol=1e-2 --atol=1e-3 --input=@%t/k/x0.npy --input=@%t/k/x1.npy --input=@%t/k/x2.npy --input=@%t/k/x3.npy --input=@%t/k/x4.npy --expected-output=@%t/k/expected.npy --expected-output=@%t/k/expected1.npy | FileCheck %s --check-prefix=TWO
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_attn_ragged_mask --target=cuda --cuda-emulate --quiet --rtol=2e-3 --atol=1e-3 --input=@%t/k/x0.npy --input=@%t/k/x1.npy --input=@%t/k/x2.npy --input=@%t/k/x3.npy --input=@%t/k/x4.npy --expected-output=@%t/k/expected.npy --expected-output=@%t/k/expected1.npy | FileCheck %s --check-prefix=TWO %}
// TWO: result 0: matches expected
// TWO: result 1: matches expected
func.func @gk_attn_ragged_mask(%q: tensor<2x2x80x32xf16>, %k: tensor<2x2x50x32xf16>, %v: tensor<2x2x50x32xf16>, %m: tensor<2x1x80x50xi1>, %f: tensor<80x50xf16>) -> (tensor<2x2x80x32xf16>, tensor<2x2x80x32xf16>) {
  %r = graph.scaled_dot_product_attention %q, %k, %v, %m : (tensor<2x2x80x32xf16>, tensor<2x2x50x32xf16>, tensor<2x2x50x32xf16>, tensor<2x1x80x50xi1>) -> tensor<2x2x80x32xf16>
  %s = graph.scaled_dot_product_attention %q, %k, %v, %f : (tensor<2x2x80x32xf16>, tensor<2x2x50x32xf16>, tensor<2x2x50x32xf16>, tensor<80x50xf16>) -> tensor<2x2x80x32xf16>
  return %r, %s : tensor<2x2x80x32xf16>, tensor<2x2x80x32xf16>
}

// Head dims that are multiples of 8 but not of 16 (since 2026-12-07; were
// decomposed: 16 kernels for a [1, 12, 197, 40] attention): computed over
// zero columns in shared memory up to the next multiple of 16, the extra
// output columns not stored. Stable Diffusion's D = 40 with S = 77, and a
// causal D = 120 (32-key steps). Tolerances as above.
// KERNELS-LABEL: func.func @gk_attn_d40
// KERNELS: gpu.launch
// KERNELS-NOT: gpu.launch
// KERNELS-LABEL: func.func @gk_attn_d120_causal
// KERNELS: gpu.launch
// KERNELS-NOT: gpu.launch

// RUN: %reference gk_attn_d40 %t/l
// RUN: graph-run %s --entry=gk_attn_d40 --quiet --rtol=2e-3 --atol=1e-3 --input=@%t/l/x0.npy --input=@%t/l/x1.npy --input=@%t/l/x2.npy --expected-output=@%t/l/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_attn_d40 --target=cuda --cuda-emulate --quiet --rtol=2e-3 --atol=1e-3 --input=@%t/l/x0.npy --input=@%t/l/x1.npy --input=@%t/l/x2.npy --expected-output=@%t/l/expected.npy | FileCheck %s %}
func.func @gk_attn_d40(%q: tensor<2x96x40xf16>, %k: tensor<2x77x40xf16>, %v: tensor<2x77x40xf16>) -> tensor<2x96x40xf16> {
  %r = graph.scaled_dot_product_attention %q, %k, %v : (tensor<2x96x40xf16>, tensor<2x77x40xf16>, tensor<2x77x40xf16>) -> tensor<2x96x40xf16>
  return %r : tensor<2x96x40xf16>
}

// RUN: %reference gk_attn_d120_causal %t/m
// RUN: graph-run %s --entry=gk_attn_d120_causal --quiet --rtol=2e-3 --atol=1e-3 --input=@%t/m/x0.npy --input=@%t/m/x1.npy --input=@%t/m/x2.npy --expected-output=@%t/m/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_attn_d120_causal --target=cuda --cuda-emulate --quiet --rtol=2e-3 --atol=1e-3 --input=@%t/m/x0.npy --input=@%t/m/x1.npy --input=@%t/m/x2.npy --expected-output=@%t/m/expected.npy | FileCheck %s %}
func.func @gk_attn_d120_causal(%q: tensor<1x2x64x120xf16>, %k: tensor<1x2x64x120xf16>, %v: tensor<1x2x64x120xf16>) -> tensor<1x2x64x120xf16> {
  %r = graph.scaled_dot_product_attention %q, %k, %v {is_causal} : (tensor<1x2x64x120xf16>, tensor<1x2x64x120xf16>, tensor<1x2x64x120xf16>) -> tensor<1x2x64x120xf16>
  return %r : tensor<1x2x64x120xf16>
}

// Head dims over 128, up to 256 (since 2026-12-07; were decomposed): the
// same kernel with 32-key steps, O's accumulators in registers (233
// registers a thread at D = 160, 253 at D = 256 for sm_90, no spills;
// cuda-attention-ptx.mlir), the K and V stages over 48 KiB of shared
// memory (the runtime opts in). Gemma's D = 256 with S = 40, and Stable
// Diffusion's D = 160 causal with L = S = 70. Tolerances as above.
// KERNELS-LABEL: func.func @gk_attn_d256
// KERNELS: gpu.launch
// KERNELS-NOT: gpu.launch
// KERNELS-LABEL: func.func @gk_attn_d160_causal
// KERNELS: gpu.launch
// KERNELS-NOT: gpu.launch

// RUN: %reference gk_attn_d256 %t/n
// RUN: graph-run %s --entry=gk_attn_d256 --quiet --rtol=2e-3 --atol=1e-3 --input=@%t/n/x0.npy --input=@%t/n/x1.npy --input=@%t/n/x2.npy --expected-output=@%t/n/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_attn_d256 --target=cuda --cuda-emulate --quiet --rtol=2e-3 --atol=1e-3 --input=@%t/n/x0.npy --input=@%t/n/x1.npy --input=@%t/n/x2.npy --expected-output=@%t/n/expected.npy | FileCheck %s %}
func.func @gk_attn_d256(%q: tensor<1x64x256xf16>, %k: tensor<1x40x256xf16>, %v: tensor<1x40x256xf16>) -> tensor<1x64x256xf16> {
  %r = graph.scaled_dot_product_attention %q, %k, %v : (tensor<1x64x256xf16>, tensor<1x40x256xf16>, tensor<1x40x256xf16>) -> tensor<1x64x256xf16>
  return %r : tensor<1x64x256xf16>
}

// RUN: %reference gk_attn_d160_causal %t/o
// RUN: graph-run %s --entry=gk_attn_d160_causal --quiet --rtol=2e-3 --atol=1e-3 --input=@%t/o/x0.npy --input=@%t/o/x1.npy --input=@%t/o/x2.npy --expected-output=@%t/o/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_attn_d160_causal --target=cuda --cuda-emulate --quiet --rtol=2e-3 --atol=1e-3 --input=@%t/o/x0.npy --input=@%t/o/x1.npy --input=@%t/o/x2.npy --expected-output=@%t/o/expected.npy | FileCheck %s %}
func.func @gk_attn_d160_causal(%q: tensor<1x2x70x160xf16>, %k: tensor<1x2x70x160xf16>, %v: tensor<1x2x70x160xf16>) -> tensor<1x2x70x160xf16> {
  %r = graph.scaled_dot_product_attention %q, %k, %v {is_causal} : (tensor<1x2x70x160xf16>, tensor<1x2x70x160xf16>, tensor<1x2x70x160xf16>) -> tensor<1x2x70x160xf16>
  return %r : tensor<1x2x70x160xf16>
}
