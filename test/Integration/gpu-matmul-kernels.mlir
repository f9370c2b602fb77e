// RUN: rm -rf %t && mkdir -p %t

// The CUDA target's matmul kernels (graph-gpu-matmul: WMMA tensor cores for
// f16 and, by mma.sync, for bf16 (and f32 as opt-in TF32) with cp.async
// shared stages, fragments by ldmatrix for bf16/TF32; SIMT register tiles
// for f32 double-buffered through registers, a barrier per K step) run
// numerically
// under --cuda-emulate: graph-gpu-launch-to-loops emulates them block by
// block with the threads in lockstep at the barriers and each warp's
// fragments on its lane 0 (see docs/CUDA.md). Shapes are ones the tiles
// divide (64x64x32 for WMMA, 128x128x8 or 64x64x8 for SIMT), covering plain
// and batched products, accumulators loaded from C (a product added to an
// input), transposed operands (B stored [N, K] on tensor cores, A stored
// [K, M] on SIMT: linalg.generic with those maps), and epilogues applied in
// the kernel (the f16/bf16 rounding of every f16/bf16 product; bias + relu
// on tensor cores, bias + gelu on SIMT; none when C has another use), with
// 2 or more K steps. Each runs on the CPU target too (the same references:
// NumPy, products summed in f64, rounded once to the result type).
// Tolerances: f16 rtol 2e-3 (two ulps: f32 accumulation in another order),
// bf16 rtol 1e-2, f32 rtol 1e-5, atol 1e-5; attention rtol 1e-2, atol 1e-3
// (the CPU's decomposition rounds scores and probabilities to f16 in
// between, as in f16-batched-matmul.mlir).

// The emulated pipeline gives the contractions these kernels, as on a GPU
// (the IR the emulation starts from):
// RUN: %if cuda-runtime %{ graph-opt %s --graph-cuda-pipeline=cpu-emulation=true --mlir-print-ir-before=graph-gpu-launch-to-loops --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s --check-prefix=KERNELS %}
// KERNELS-LABEL: func.func @gk_f16_mm
// KERNELS: gpu.launch
// KERNELS-NOT: gpu.launch
// KERNELS: gpu.subgroup_mma_compute
// KERNELS-LABEL: func.func @gk_f16_bmm
// KERNELS: gpu.subgroup_mma_compute
// f16 attention is one fused kernel (graph-gpu-attention; more cases in
// gpu-attention-kernel.mlir):
// KERNELS-LABEL: func.func @gk_f16_sdpa
// KERNELS: gpu.launch
// KERNELS-NOT: gpu.launch
// KERNELS: nvvm.mma.sync
// KERNELS-LABEL: func.func @gk_f32_linear
// KERNELS: gpu.barrier
// KERNELS: vector.fma
// f32 attention is one fused SIMT kernel (graph-gpu-attention's f32 path;
// more cases in gpu-attention-f32.mlir):
// KERNELS-LABEL: func.func @gk_f32_sdpa
// KERNELS: gpu.launch
// KERNELS-NOT: gpu.launch
// KERNELS: math.fma
// KERNELS-NOT: gpu.launch
// bf16 on tensor cores: mma.sync m16n8k16 (fragments per lane, emulated
// warp by warp with the PTX fragment layout).
// KERNELS-LABEL: func.func @gk_bf16_mm
// KERNELS: gpu.barrier
// KERNELS: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>
// KERNELS-LABEL: func.func @gk_f16_a_bt
// KERNELS: gpu.subgroup_mma_load_matrix {{.*}} {leadDimension = 40 : index, transpose}
// KERNELS: gpu.subgroup_mma_compute {{.*}} {b_transpose}
// KERNELS-LABEL: func.func @gk_f32_at_b
// KERNELS: gpu.barrier
// KERNELS: vector.fma
// One kernel for matmul, bias, relu and the f16 roundings (the epilogue
// staged through shared memory after the K loop):
// KERNELS-LABEL: func.func @gk_f16_linear_relu
// KERNELS: gpu.launch
// KERNELS-NOT: gpu.launch
// KERNELS: gpu.subgroup_mma_compute
// KERNELS: gpu.subgroup_mma_store_matrix {{.*}} {leadDimension = 68 : index}
// KERNELS: gpu.barrier
// KERNELS: arith.maximumf
// KERNELS-LABEL: func.func @gk_f32_linear_gelu
// KERNELS: gpu.launch
// KERNELS-NOT: gpu.launch
// KERNELS: math.erf
// C used twice (returned, and by the relu): the kernel stores C and the
// relu stays a kernel of its own.
// KERNELS-LABEL: func.func @gk_f32_two_uses
// KERNELS-COUNT-2: gpu.launch
// Accumulating into a C that holds values: the fragments start from C.
// KERNELS-LABEL: func.func @gk_f16_acc
// KERNELS: gpu.subgroup_mma_load_matrix {{.*}} -> !gpu.mma_matrix<16x16xf32, "COp">
// KERNELS: gpu.subgroup_mma_compute
// bf16 with B stored [N, K]: B's fragments by plain ldmatrix (k
// contiguous), A's too.
// KERNELS-LABEL: func.func @gk_bf16_a_bt
// KERNELS: nvgpu.device_async_copy
// KERNELS: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false}
// KERNELS-NOT: transpose = true
// KERNELS: nvvm.mma.sync
// A stored [K, M] and B [K, N]: both by ldmatrix.trans.
// KERNELS-LABEL: func.func @gk_bf16_at_b
// KERNELS: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = true}
// KERNELS-NOT: transpose = false
// KERNELS: nvvm.mma.sync

// RUN: %reference gk_f16_mm %t/a
// RUN: graph-run %s --entry=gk_f16_mm --quiet --rtol=2e-3 --atol=1e-5 --input=@%t/a/x0.npy --input=@%t/a/x1.npy --expected-output=@%t/a/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_f16_mm --target=cuda --cuda-emulate --quiet --rtol=2e-3 --atol=1e-5 --input=@%t/a/x0.npy --input=@%t/a/x1.npy --expected-output=@%t/a/expected.npy | FileCheck %s %}
func.func @gk_f16_mm(%a: tensor<128x64xf16>, %b: tensor<64x64xf16>) -> tensor<128x64xf16> {
  %r = graph.matmul %a, %b : tensor<128x64xf16>, tensor<64x64xf16> -> tensor<128x64xf16>
  return %r : tensor<128x64xf16>
}

// RUN: %reference gk_f16_bmm %t/b
// RUN: graph-run %s --entry=gk_f16_bmm --quiet --rtol=2e-3 --atol=1e-5 --input=@%t/b/x0.npy --input=@%t/b/x1.npy --expected-output=@%t/b/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_f16_bmm --target=cuda --cuda-emulate --quiet --rtol=2e-3 --atol=1e-5 --input=@%t/b/x0.npy --input=@%t/b/x1.npy --expected-output=@%t/b/expected.npy | FileCheck %s %}
func.func @gk_f16_bmm(%a: tensor<2x64x96xf16>, %b: tensor<2x96x128xf16>) -> tensor<2x64x128xf16> {
  %r = graph.matmul %a, %b : tensor<2x64x96xf16>, tensor<2x96x128xf16> -> tensor<2x64x128xf16>
  return %r : tensor<2x64x128xf16>
}

// RUN: %reference gk_f16_sdpa %t/c
// RUN: graph-run %s --entry=gk_f16_sdpa --quiet --rtol=1e-2 --atol=1e-3 --input=@%t/c/x0.npy --input=@%t/c/x1.npy --input=@%t/c/x2.npy --expected-output=@%t/c/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_f16_sdpa --target=cuda --cuda-emulate --quiet --rtol=1e-2 --atol=1e-3 --input=@%t/c/x0.npy --input=@%t/c/x1.npy --input=@%t/c/x2.npy --expected-output=@%t/c/expected.npy | FileCheck %s %}
func.func @gk_f16_sdpa(%q: tensor<2x64x64xf16>, %k: tensor<2x64x64xf16>, %v: tensor<2x64x64xf16>) -> tensor<2x64x64xf16> {
  %r = graph.scaled_dot_product_attention %q, %k, %v : (tensor<2x64x64xf16>, tensor<2x64x64xf16>, tensor<2x64x64xf16>) -> tensor<2x64x64xf16>
  return %r : tensor<2x64x64xf16>
}

// RUN: %reference gk_f32_linear %t/d
// RUN: graph-run %s --entry=gk_f32_linear --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/d/x0.npy --input=@%t/d/x1.npy --input=@%t/d/x2.npy --expected-output=@%t/d/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_f32_linear --target=cuda --cuda-emulate --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/d/x0.npy --input=@%t/d/x1.npy --input=@%t/d/x2.npy --expected-output=@%t/d/expected.npy | FileCheck %s %}
func.func @gk_f32_linear(%x: tensor<128x48xf32>, %w: tensor<48x128xf32>, %b: tensor<128xf32>) -> tensor<128x128xf32> {
  %m = graph.matmul %x, %w : tensor<128x48xf32>, tensor<48x128xf32> -> tensor<128x128xf32>
  %r = graph.add %m, %b : tensor<128x128xf32>, tensor<128xf32> -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// RUN: %reference gk_f32_sdpa %t/e
// RUN: graph-run %s --entry=gk_f32_sdpa --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/e/x0.npy --input=@%t/e/x1.npy --input=@%t/e/x2.npy --expected-output=@%t/e/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_f32_sdpa --target=cuda --cuda-emulate --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/e/x0.npy --input=@%t/e/x1.npy --input=@%t/e/x2.npy --expected-output=@%t/e/expected.npy | FileCheck %s %}
func.func @gk_f32_sdpa(%q: tensor<1x64x64xf32>, %k: tensor<1x64x64xf32>, %v: tensor<1x64x64xf32>) -> tensor<1x64x64xf32> {
  %r = graph.scaled_dot_product_attention %q, %k, %v : (tensor<1x64x64xf32>, tensor<1x64x64xf32>, tensor<1x64x64xf32>) -> tensor<1x64x64xf32>
  return %r : tensor<1x64x64xf32>
}

// RUN: %reference gk_bf16_mm %t/f
// RUN: graph-run %s --entry=gk_bf16_mm --quiet --rtol=1e-2 --atol=1e-5 --input=@%t/f/x0.npy --input=@%t/f/x1.npy --expected-output=@%t/f/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_bf16_mm --target=cuda --cuda-emulate --quiet --rtol=1e-2 --atol=1e-5 --input=@%t/f/x0.npy --input=@%t/f/x1.npy --expected-output=@%t/f/expected.npy | FileCheck %s %}
func.func @gk_bf16_mm(%a: tensor<128x32xf32>, %b: tensor<32x128xf32>) -> tensor<128x128xbf16> {
  %x = graph.cast %a : tensor<128x32xf32> -> tensor<128x32xbf16>
  %y = graph.cast %b : tensor<32x128xf32> -> tensor<32x128xbf16>
  %r = graph.matmul %x, %y : tensor<128x32xbf16>, tensor<32x128xbf16> -> tensor<128x128xbf16>
  return %r : tensor<128x128xbf16>
}

#a = affine_map<(m, n, k) -> (m, k)>
#at = affine_map<(m, n, k) -> (k, m)>
#b = affine_map<(m, n, k) -> (k, n)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>

// RUN: %reference gk_f16_a_bt %t/g
// RUN: graph-run %s --entry=gk_f16_a_bt --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/g/x0.npy --input=@%t/g/x1.npy --expected-output=@%t/g/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_f16_a_bt --target=cuda --cuda-emulate --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/g/x0.npy --input=@%t/g/x1.npy --expected-output=@%t/g/expected.npy | FileCheck %s %}
func.func @gk_f16_a_bt(%a: tensor<64x96xf16>, %b: tensor<128x96xf16>) -> tensor<64x128xf32> {
  %e = tensor.empty() : tensor<64x128xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %r = linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<64x96xf16>, tensor<128x96xf16>) outs(%f : tensor<64x128xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}

// RUN: %reference gk_f32_at_b %t/h
// RUN: graph-run %s --entry=gk_f32_at_b --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/h/x0.npy --input=@%t/h/x1.npy --expected-output=@%t/h/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_f32_at_b --target=cuda --cuda-emulate --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/h/x0.npy --input=@%t/h/x1.npy --expected-output=@%t/h/expected.npy | FileCheck %s %}
func.func @gk_f32_at_b(%a: tensor<32x64xf32>, %b: tensor<32x128xf32>) -> tensor<64x128xf32> {
  %e = tensor.empty() : tensor<64x128xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %r = linalg.generic {indexing_maps = [#at, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<32x64xf32>, tensor<32x128xf32>) outs(%f : tensor<64x128xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}

// RUN: %reference gk_f16_linear_relu %t/i
// RUN: graph-run %s --entry=gk_f16_linear_relu --quiet --rtol=2e-3 --atol=1e-5 --input=@%t/i/x0.npy --input=@%t/i/x1.npy --input=@%t/i/x2.npy --expected-output=@%t/i/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_f16_linear_relu --target=cuda --cuda-emulate --quiet --rtol=2e-3 --atol=1e-5 --input=@%t/i/x0.npy --input=@%t/i/x1.npy --input=@%t/i/x2.npy --expected-output=@%t/i/expected.npy | FileCheck %s %}
func.func @gk_f16_linear_relu(%x: tensor<128x64xf16>, %w: tensor<64x128xf16>, %b: tensor<128xf16>) -> tensor<128x128xf16> {
  %y = graph.matmul %x, %w : tensor<128x64xf16>, tensor<64x128xf16> -> tensor<128x128xf16>
  %z = graph.add %y, %b : tensor<128x128xf16>, tensor<128xf16> -> tensor<128x128xf16>
  %r = graph.relu %z : tensor<128x128xf16> -> tensor<128x128xf16>
  return %r : tensor<128x128xf16>
}

// RUN: %reference gk_f32_linear_gelu %t/j
// RUN: graph-run %s --entry=gk_f32_linear_gelu --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/j/x0.npy --input=@%t/j/x1.npy --input=@%t/j/x2.npy --expected-output=@%t/j/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_f32_linear_gelu --target=cuda --cuda-emulate --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/j/x0.npy --input=@%t/j/x1.npy --input=@%t/j/x2.npy --expected-output=@%t/j/expected.npy | FileCheck %s %}
func.func @gk_f32_linear_gelu(%x: tensor<128x32xf32>, %w: tensor<32x256xf32>, %b: tensor<256xf32>) -> tensor<128x256xf32> {
  %y = graph.matmul %x, %w : tensor<128x32xf32>, tensor<32x256xf32> -> tensor<128x256xf32>
  %z = graph.add %y, %b : tensor<128x256xf32>, tensor<256xf32> -> tensor<128x256xf32>
  %r = graph.gelu %z : tensor<128x256xf32> -> tensor<128x256xf32>
  return %r : tensor<128x256xf32>
}

// RUN: %reference gk_f32_two_uses %t/k
// RUN: graph-run %s --entry=gk_f32_two_uses --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/k/x0.npy --input=@%t/k/x1.npy --expected-output=@%t/k/expected.npy --expected-output=@%t/k/expected1.npy | FileCheck %s --check-prefix=TWO
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_f32_two_uses --target=cuda --cuda-emulate --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/k/x0.npy --input=@%t/k/x1.npy --expected-output=@%t/k/expected.npy --expected-output=@%t/k/expected1.npy | FileCheck %s --check-prefix=TWO %}
func.func @gk_f32_two_uses(%x: tensor<128x16xf32>, %w: tensor<16x128xf32>) -> (tensor<128x128xf32>, tensor<128x128xf32>) {
  %y = graph.matmul %x, %w : tensor<128x16xf32>, tensor<16x128xf32> -> tensor<128x128xf32>
  %r = graph.relu %y : tensor<128x128xf32> -> tensor<128x128xf32>
  return %y, %r : tensor<128x128xf32>, tensor<128x128xf32>
}

// RUN: %reference gk_f16_acc %t/l
// RUN: graph-run %s --entry=gk_f16_acc --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/l/x0.npy --input=@%t/l/x1.npy --input=@%t/l/x2.npy --expected-output=@%t/l/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_f16_acc --target=cuda --cuda-emulate --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/l/x0.npy --input=@%t/l/x1.npy --input=@%t/l/x2.npy --expected-output=@%t/l/expected.npy | FileCheck %s %}
func.func @gk_f16_acc(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%c : tensor<64x64xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// RUN: %reference gk_bf16_a_bt %t/m
// RUN: graph-run %s --entry=gk_bf16_a_bt --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/m/x0.npy --input=@%t/m/x1.npy --expected-output=@%t/m/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_bf16_a_bt --target=cuda --cuda-emulate --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/m/x0.npy --input=@%t/m/x1.npy --expected-output=@%t/m/expected.npy | FileCheck %s %}
func.func @gk_bf16_a_bt(%a: tensor<64x64xf32>, %b: tensor<128x64xf32>) -> tensor<64x128xf32> {
  %x = graph.cast %a : tensor<64x64xf32> -> tensor<64x64xbf16>
  %y = graph.cast %b : tensor<128x64xf32> -> tensor<128x64xbf16>
  %e = tensor.empty() : tensor<64x128xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %r = linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<64x64xbf16>, tensor<128x64xbf16>) outs(%f : tensor<64x128xf32>) {
  ^bb0(%p: bf16, %q: bf16, %acc: f32):
    %pe = arith.extf %p : bf16 to f32
    %qe = arith.extf %q : bf16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}

// RUN: %reference gk_bf16_at_b %t/n
// RUN: graph-run %s --entry=gk_bf16_at_b --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/n/x0.npy --input=@%t/n/x1.npy --expected-output=@%t/n/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_bf16_at_b --target=cuda --cuda-emulate --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/n/x0.npy --input=@%t/n/x1.npy --expected-output=@%t/n/expected.npy | FileCheck %s %}
func.func @gk_bf16_at_b(%a: tensor<64x64xf32>, %b: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %x = graph.cast %a : tensor<64x64xf32> -> tensor<64x64xbf16>
  %y = graph.cast %b : tensor<64x128xf32> -> tensor<64x128xbf16>
  %e = tensor.empty() : tensor<64x128xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %r = linalg.generic {indexing_maps = [#at, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<64x64xbf16>, tensor<64x128xbf16>) outs(%f : tensor<64x128xf32>) {
  ^bb0(%p: bf16, %q: bf16, %acc: f32):
    %pe = arith.extf %p : bf16 to f32
    %qe = arith.extf %q : bf16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}

// F.linear as the PyTorch importer writes it: the [N, K] weight read in
// place by the tensor-core kernel (B^T fragments), no transpose kernel;
// bias and rounding in the kernel: one kernel. atol 1.6e-2: one f16 ulp
// of the product (|x w^T| < 16), which is rounded to f16 before the bias
// is added: an f32 sum in another order may round it the other way, and
// where the bias cancels it that ulp is the whole error.
// RUN: %if cuda-runtime %{ graph-opt %s --graph-cuda-pipeline=cpu-emulation=true --mlir-print-ir-before=graph-gpu-launch-to-loops --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s --check-prefix=LINEAR %}
// LINEAR-LABEL: func.func @gk_f16_linear_t
// LINEAR: gpu.launch
// LINEAR: gpu.subgroup_mma_load_matrix {{.*}} transpose}
// LINEAR-NOT: gpu.launch
// LINEAR: return
// RUN: %reference gk_f16_linear_t %t/lt
// RUN: graph-run %s --entry=gk_f16_linear_t --quiet --rtol=2e-3 --atol=1.6e-2 --input=@%t/lt/x0.npy --input=@%t/lt/x1.npy --input=@%t/lt/x2.npy --expected-output=@%t/lt/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_f16_linear_t --target=cuda --cuda-emulate --quiet --rtol=2e-3 --atol=1.6e-2 --input=@%t/lt/x0.npy --input=@%t/lt/x1.npy --input=@%t/lt/x2.npy --expected-output=@%t/lt/expected.npy | FileCheck %s %}
func.func @gk_f16_linear_t(%x: tensor<128x64xf16>, %w: tensor<128x64xf16>, %b: tensor<128xf16>) -> tensor<128x128xf16> {
  %wt = graph.transpose %w, [1, 0] : tensor<128x64xf16> -> tensor<64x128xf16>
  %h = graph.matmul %x, %wt : tensor<128x64xf16>, tensor<64x128xf16> -> tensor<128x128xf16>
  %y = graph.add %h, %b : tensor<128x128xf16>, tensor<128xf16> -> tensor<128x128xf16>
  return %y : tensor<128x128xf16>
}

// CHECK: result 0: matches expected
// TWO: result 0: matches expected
// TWO: result 1: matches expected

// f32 with the CUDA pipeline's tf32 option: mma.sync m16n8k8 on TF32
// multiplicands (cvt.rna as each fragment register is loaded, emulated on
// the f32's bits; the emulated mma reads the upper 19 bits of each
// register), f32 accumulation, the bias in the kernel. Against the TF32
// reference (inputs rounded to TF32 in NumPy, products summed in f64) and,
// as a check that the rounding happens, not within tolerance of the IEEE
// f32 result (which the CPU target and the CUDA default give: TF32 moves
// the results by ~1e-3).
// KERNELS-LABEL: func.func @gk_tf32_linear
// KERNELS-NOT: nvvm.mma.sync
// KERNELS: vector.fma
// RUN: %if cuda-runtime %{ graph-opt %s --graph-cuda-pipeline="cpu-emulation=true tf32=true" --mlir-print-ir-before=graph-gpu-launch-to-loops --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s --check-prefix=TF32 %}
// A [M, K] by ldmatrix (8x8 b16 matrices as 8 rows of 4 f32); B [K, N]
// element by element (ldmatrix cannot transpose 32-bit elements), from
// rows padded by 8 floats.
// TF32-LABEL: func.func @gk_tf32_linear
// TF32: gpu.launch
// TF32: memref.view {{.*}} to memref<2x64x36xf32, #gpu.address_space<workgroup>>
// TF32: memref.view {{.*}} to memref<2x32x72xf32, #gpu.address_space<workgroup>>
// TF32: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false}
// TF32: nvvm.convert.float.to.tf32 {{.*}} {rnd = #nvvm.fp_rnd_mode<rna>}
// TF32: memref.load
// TF32: nvvm.convert.float.to.tf32 {{.*}} {rnd = #nvvm.fp_rnd_mode<rna>}
// TF32: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<tf32>
// TF32-NOT: gpu.launch
// RUN: %reference gk_tf32_linear %t/t
// RUN: graph-run %s --entry=gk_tf32_linear --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/t/x0.npy --input=@%t/t/x1.npy --input=@%t/t/x2.npy --expected-output=@%t/t/expected1.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_tf32_linear --target=cuda --cuda-emulate --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/t/x0.npy --input=@%t/t/x1.npy --input=@%t/t/x2.npy --expected-output=@%t/t/expected1.npy | FileCheck %s %}
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_tf32_linear --target=cuda --cuda-emulate --pipeline-options=tf32=true --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/t/x0.npy --input=@%t/t/x1.npy --input=@%t/t/x2.npy --expected-output=@%t/t/expected.npy | FileCheck %s %}
// RUN: %if cuda-runtime %{ not graph-run %s --entry=gk_tf32_linear --target=cuda --cuda-emulate --pipeline-options=tf32=true --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/t/x0.npy --input=@%t/t/x1.npy --input=@%t/t/x2.npy --expected-output=@%t/t/expected1.npy %}
func.func @gk_tf32_linear(%x: tensor<128x64xf32>, %w: tensor<64x128xf32>, %b: tensor<128xf32>) -> tensor<128x128xf32> {
  %m = graph.matmul %x, %w : tensor<128x64xf32>, tensor<64x128xf32> -> tensor<128x128xf32>
  %r = graph.add %m, %b : tensor<128x128xf32>, tensor<128xf32> -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// TF32 the other way round: A stored [K, M] (element by element), B
// stored [N, K] (ldmatrix).
// TF32-LABEL: func.func @gk_tf32_at_bt
// TF32: gpu.launch
// TF32: memref.view {{.*}} to memref<2x32x72xf32, #gpu.address_space<workgroup>>
// TF32: memref.view {{.*}} to memref<2x64x36xf32, #gpu.address_space<workgroup>>
// TF32: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false}
// TF32: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<tf32>
// TF32-NOT: gpu.launch
// RUN: %reference gk_tf32_at_bt %t/u
// RUN: graph-run %s --entry=gk_tf32_at_bt --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/u/x0.npy --input=@%t/u/x1.npy --expected-output=@%t/u/expected1.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gk_tf32_at_bt --target=cuda --cuda-emulate --pipeline-options=tf32=true --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/u/x0.npy --input=@%t/u/x1.npy --expected-output=@%t/u/expected.npy | FileCheck %s %}
func.func @gk_tf32_at_bt(%a: tensor<64x64xf32>, %b: tensor<128x64xf32>) -> tensor<64x128xf32> {
  %e = tensor.empty() : tensor<64x128xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %r = linalg.generic {indexing_maps = [#at, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<64x64xf32>, tensor<128x64xf32>) outs(%f : tensor<64x128xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}
