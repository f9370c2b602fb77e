// RUN: rm -rf %t && mkdir -p %t

// Matrix-vector-like products (M <= 15; 8 before 2026-12-07) on graph-gpu-matmul's
// matrix-vector kernel, where they had one thread per output element
// summing all of K alone (batch-1 linear layers: a handful of blocks,
// B read with no parallelism over K). B stored [N, K] (a linear layer's
// weight, K contiguous): a warp per column, lanes over K with 16-byte
// loads, a shuffle butterfly. B stored [K, N]: 8 x 16-byte column groups
// per block, K split over 32 slices, the slices' sums added through
// shared memory. Under --cuda-emulate against NumPy (f32 results of
// f16/bf16 inputs: products exact in f32, sums in another order, rtol
// 1e-5; f16 / bf16 results: rtol 2e-3 / 1e-2); on the CPU target against
// the same references.

// RUN: %if cuda-runtime %{ graph-opt %s --graph-cuda-pipeline=cpu-emulation=true --mlir-print-ir-before=graph-gpu-launch-to-loops --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s --check-prefix=KERNELS %}
// N = 200: 16-byte column groups do not divide it; 8 columns of one
// element per block (25 blocks), the f16 rounding applied before the
// store: one kernel.
// KERNELS-LABEL: func.func @mv_f16_b
// KERNELS: gpu.launch blocks({{.*}}) in ({{.*}} = %c25, {{.*}} = %c1, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c256, {{.*}} = %c1, {{.*}} = %c1) dynamic_shared_memory_size
// KERNELS: vector.fma
// KERNELS: gpu.barrier
// KERNELS: arith.truncf
// KERNELS-NOT: gpu.launch
// A warp per column of the [3072, 768] weight (384 blocks of 8 warps),
// 16-byte loads (vector<8xf16>), a 5-shuffle butterfly, the bias added
// before the store: one kernel.
// KERNELS-LABEL: func.func @mv_f16_bt_bias
// KERNELS: gpu.launch blocks({{.*}}) in ({{.*}} = %c384, {{.*}} = %c1, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c32, {{.*}} = %c8, {{.*}} = %c1)
// KERNELS: vector.load {{.*}} vector<8xf16>
// KERNELS: vector.fma
// KERNELS-COUNT-5: gpu.shuffle  xor
// KERNELS: arith.addf
// KERNELS-NOT: gpu.launch
// KERNELS-LABEL: func.func @mv_f16_bt_odd_k
// KERNELS: vector.load {{.*}} vector<4xf16>
// KERNELS-LABEL: func.func @mv_f32_at_acc
// KERNELS: gpu.launch
// KERNELS-NOT: gpu.launch
// KERNELS-LABEL: func.func @mv_f32_rows8
// KERNELS: gpu.launch
// KERNELS-NOT: gpu.launch
// 9 to 15 rows (since 2026-12-07; was one thread per output): the same
// kernel with 8-byte vectors (each thread's M vector sums stay within 64
// floats), the transpose read in place and the bias added before the
// store; [K, N] with N = 72: 8 one-element columns per block.
// KERNELS-LABEL: func.func @mv_f16_rows12_linear
// KERNELS: gpu.launch blocks({{.*}}) in ({{.*}} = %c12, {{.*}} = %c1, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c32, {{.*}} = %c8, {{.*}} = %c1)
// KERNELS: vector.load {{.*}} vector<4xf16>
// KERNELS: vector.fma
// KERNELS-COUNT-5: gpu.shuffle  xor
// KERNELS-NOT: gpu.launch
// KERNELS-LABEL: func.func @mv_f32_rows15
// KERNELS: gpu.launch blocks({{.*}}) in ({{.*}} = %c9, {{.*}} = %c1, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c256,
// KERNELS-NOT: gpu.launch
// KERNELS-LABEL: func.func @mv_bf16_bmm
// KERNELS: gpu.launch blocks({{.*}}) in ({{.*}} = %c2, {{.*}} = %c1, {{.*}} = %c2)

// RUN: %reference mv_f16_b %t/a
// RUN: graph-run %s --entry=mv_f16_b --quiet --rtol=2e-3 --atol=1e-5 --input=@%t/a/x0.npy --input=@%t/a/x1.npy --expected-output=@%t/a/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=mv_f16_b --target=cuda --cuda-emulate --quiet --rtol=2e-3 --atol=1e-5 --input=@%t/a/x0.npy --input=@%t/a/x1.npy --expected-output=@%t/a/expected.npy | FileCheck %s %}
func.func @mv_f16_b(%a: tensor<4x512xf16>, %b: tensor<512x200xf16>) -> tensor<4x200xf16> {
  %r = graph.matmul %a, %b : tensor<4x512xf16>, tensor<512x200xf16> -> tensor<4x200xf16>
  return %r : tensor<4x200xf16>
}

#a = affine_map<(m, n, k) -> (m, k)>
#at = affine_map<(m, n, k) -> (k, m)>
#b = affine_map<(m, n, k) -> (k, n)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>

// RUN: %reference mv_f16_bt_bias %t/b
// RUN: graph-run %s --entry=mv_f16_bt_bias --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/b/x0.npy --input=@%t/b/x1.npy --input=@%t/b/x2.npy --expected-output=@%t/b/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=mv_f16_bt_bias --target=cuda --cuda-emulate --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/b/x0.npy --input=@%t/b/x1.npy --input=@%t/b/x2.npy --expected-output=@%t/b/expected.npy | FileCheck %s %}
func.func @mv_f16_bt_bias(%x: tensor<1x768xf16>, %w: tensor<3072x768xf16>, %bias: tensor<3072xf32>) -> tensor<1x3072xf32> {
  %e = tensor.empty() : tensor<1x3072xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x3072xf32>) -> tensor<1x3072xf32>
  %r = linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<1x768xf16>, tensor<3072x768xf16>) outs(%f : tensor<1x3072xf32>) {
  ^bb0(%p0: f16, %p1: f16, %acc: f32):
    %xe = arith.extf %p0 : f16 to f32
    %ye = arith.extf %p1 : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x3072xf32>
  %y = graph.add %r, %bias : tensor<1x3072xf32>, tensor<3072xf32> -> tensor<1x3072xf32>
  return %y : tensor<1x3072xf32>
}

// K = 100: 8-wide vectors do not divide it, 4-wide ones do.
// RUN: %reference mv_f16_bt_odd_k %t/c
// RUN: graph-run %s --entry=mv_f16_bt_odd_k --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/c/x0.npy --input=@%t/c/x1.npy --expected-output=@%t/c/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=mv_f16_bt_odd_k --target=cuda --cuda-emulate --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/c/x0.npy --input=@%t/c/x1.npy --expected-output=@%t/c/expected.npy | FileCheck %s %}
func.func @mv_f16_bt_odd_k(%x: tensor<2x100xf16>, %w: tensor<64x100xf16>) -> tensor<2x64xf32> {
  %e = tensor.empty() : tensor<2x64xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x64xf32>) -> tensor<2x64xf32>
  %r = linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<2x100xf16>, tensor<64x100xf16>) outs(%f : tensor<2x64xf32>) {
  ^bb0(%p0: f16, %p1: f16, %acc: f32):
    %xe = arith.extf %p0 : f16 to f32
    %ye = arith.extf %p1 : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x64xf32>
  return %r : tensor<2x64xf32>
}

// A stored [K, M], C accumulated from its contents.
// RUN: %reference mv_f32_at_acc %t/d
// RUN: graph-run %s --entry=mv_f32_at_acc --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/d/x0.npy --input=@%t/d/x1.npy --input=@%t/d/x2.npy --expected-output=@%t/d/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=mv_f32_at_acc --target=cuda --cuda-emulate --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/d/x0.npy --input=@%t/d/x1.npy --input=@%t/d/x2.npy --expected-output=@%t/d/expected.npy | FileCheck %s %}
func.func @mv_f32_at_acc(%a: tensor<64x3xf32>, %b: tensor<64x128xf32>, %c: tensor<3x128xf32>) -> tensor<3x128xf32> {
  %r = linalg.generic {indexing_maps = [#at, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<64x3xf32>, tensor<64x128xf32>) outs(%c : tensor<3x128xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<3x128xf32>
  return %r : tensor<3x128xf32>
}

// RUN: %reference mv_f32_rows8 %t/e
// RUN: graph-run %s --entry=mv_f32_rows8 --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/e/x0.npy --input=@%t/e/x1.npy --expected-output=@%t/e/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=mv_f32_rows8 --target=cuda --cuda-emulate --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/e/x0.npy --input=@%t/e/x1.npy --expected-output=@%t/e/expected.npy | FileCheck %s %}
func.func @mv_f32_rows8(%a: tensor<8x128xf32>, %b: tensor<128x64xf32>) -> tensor<8x64xf32> {
  %r = graph.matmul %a, %b : tensor<8x128xf32>, tensor<128x64xf32> -> tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}

// RUN: %reference mv_f16_rows12_linear %t/r12
// RUN: graph-run %s --entry=mv_f16_rows12_linear --quiet --rtol=2e-3 --atol=1e-3 --input=@%t/r12/x0.npy --input=@%t/r12/x1.npy --input=@%t/r12/x2.npy --expected-output=@%t/r12/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=mv_f16_rows12_linear --target=cuda --cuda-emulate --quiet --rtol=2e-3 --atol=1e-3 --input=@%t/r12/x0.npy --input=@%t/r12/x1.npy --input=@%t/r12/x2.npy --expected-output=@%t/r12/expected.npy | FileCheck %s %}
func.func @mv_f16_rows12_linear(%x: tensor<12x256xf16>, %w: tensor<96x256xf16>, %b: tensor<96xf16>) -> tensor<12x96xf16> {
  %wt = graph.transpose %w, [1, 0] : tensor<96x256xf16> -> tensor<256x96xf16>
  %m = graph.matmul %x, %wt : tensor<12x256xf16>, tensor<256x96xf16> -> tensor<12x96xf16>
  %y = graph.add %m, %b : tensor<12x96xf16>, tensor<96xf16> -> tensor<12x96xf16>
  return %y : tensor<12x96xf16>
}

// RUN: %reference mv_f32_rows15 %t/r15
// RUN: graph-run %s --entry=mv_f32_rows15 --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/r15/x0.npy --input=@%t/r15/x1.npy --expected-output=@%t/r15/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=mv_f32_rows15 --target=cuda --cuda-emulate --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/r15/x0.npy --input=@%t/r15/x1.npy --expected-output=@%t/r15/expected.npy | FileCheck %s %}
func.func @mv_f32_rows15(%a: tensor<15x200xf32>, %b: tensor<200x72xf32>) -> tensor<15x72xf32> {
  %r = graph.matmul %a, %b : tensor<15x200xf32>, tensor<200x72xf32> -> tensor<15x72xf32>
  return %r : tensor<15x72xf32>
}

// RUN: %reference mv_bf16_bmm %t/f
// RUN: graph-run %s --entry=mv_bf16_bmm --quiet --rtol=1e-2 --atol=1e-5 --input=@%t/f/x0.npy --input=@%t/f/x1.npy --expected-output=@%t/f/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=mv_bf16_bmm --target=cuda --cuda-emulate --quiet --rtol=1e-2 --atol=1e-5 --input=@%t/f/x0.npy --input=@%t/f/x1.npy --expected-output=@%t/f/expected.npy | FileCheck %s %}
func.func @mv_bf16_bmm(%a: tensor<2x2x256xf32>, %b: tensor<2x256x128xf32>) -> tensor<2x2x128xbf16> {
  %x = graph.cast %a : tensor<2x2x256xf32> -> tensor<2x2x256xbf16>
  %y = graph.cast %b : tensor<2x256x128xf32> -> tensor<2x256x128xbf16>
  %r = graph.matmul %x, %y : tensor<2x2x256xbf16>, tensor<2x256x128xbf16> -> tensor<2x2x128xbf16>
  return %r : tensor<2x2x128xbf16>
}

// F.linear as the PyTorch importer writes it (graph.transpose of the
// [N, K] weight, then graph.matmul): graph-gpu-matmul reads the weight in
// place (the transpose's copy kernel goes), a warp per column, the bias
// and rounding applied before the store: one kernel. atol 3.2e-2: one f16
// ulp of the product (|x w^T| < 32), rounded to f16 before the bias.
// RUN: %if cuda-runtime %{ graph-opt %s --graph-cuda-pipeline=cpu-emulation=true --mlir-print-ir-before=graph-gpu-launch-to-loops --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s --check-prefix=LINEAR %}
// LINEAR-LABEL: func.func @mv_f16_linear_t
// LINEAR: gpu.launch blocks({{.*}}) in ({{.*}} = %c16, {{.*}} = %c1, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c32, {{.*}} = %c8, {{.*}} = %c1)
// LINEAR: gpu.shuffle
// LINEAR-NOT: gpu.launch
// LINEAR: return
// RUN: %reference mv_f16_linear_t %t/g
// RUN: graph-run %s --entry=mv_f16_linear_t --quiet --rtol=2e-3 --atol=3.2e-2 --input=@%t/g/x0.npy --input=@%t/g/x1.npy --input=@%t/g/x2.npy --expected-output=@%t/g/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=mv_f16_linear_t --target=cuda --cuda-emulate --quiet --rtol=2e-3 --atol=3.2e-2 --input=@%t/g/x0.npy --input=@%t/g/x1.npy --input=@%t/g/x2.npy --expected-output=@%t/g/expected.npy | FileCheck %s %}
func.func @mv_f16_linear_t(%x: tensor<2x256xf16>, %w: tensor<128x256xf16>, %b: tensor<128xf16>) -> tensor<2x128xf16> {
  %wt = graph.transpose %w, [1, 0] : tensor<128x256xf16> -> tensor<256x128xf16>
  %h = graph.matmul %x, %wt : tensor<2x256xf16>, tensor<256x128xf16> -> tensor<2x128xf16>
  %y = graph.add %h, %b : tensor<2x128xf16>, tensor<128xf16> -> tensor<2x128xf16>
  return %y : tensor<2x128xf16>
}

// N not a multiple of 8 (a 10-class head, B stored [N, K]; 13 columns of
// a [K, N] B): the last block's extra columns read column N - 1 and store
// nothing (2 blocks each).
// RUN: %if cuda-runtime %{ graph-opt %s --graph-cuda-pipeline=cpu-emulation=true --mlir-print-ir-before=graph-gpu-launch-to-loops --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s --check-prefix=RAGGED %}
// RAGGED-LABEL: func.func @mv_f32_head_bt
// RAGGED: gpu.launch blocks({{.*}}) in ({{.*}} = %c2, {{.*}} = %c1, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c32, {{.*}} = %c8,
// RAGGED: arith.minui
// RAGGED-LABEL: func.func @mv_f32_odd_n
// RAGGED: gpu.launch blocks({{.*}}) in ({{.*}} = %c2, {{.*}} = %c1, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c256,
// RAGGED: arith.minui
// RUN: %reference mv_f32_head_bt %t/h
// RUN: graph-run %s --entry=mv_f32_head_bt --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/h/x0.npy --input=@%t/h/x1.npy --expected-output=@%t/h/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=mv_f32_head_bt --target=cuda --cuda-emulate --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/h/x0.npy --input=@%t/h/x1.npy --expected-output=@%t/h/expected.npy | FileCheck %s %}
func.func @mv_f32_head_bt(%x: tensor<8x128xf32>, %w: tensor<10x128xf32>) -> tensor<8x10xf32> {
  %e = tensor.empty() : tensor<8x10xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x10xf32>) -> tensor<8x10xf32>
  %r = linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<8x128xf32>, tensor<10x128xf32>) outs(%f : tensor<8x10xf32>) {
  ^bb0(%p0: f32, %p1: f32, %acc: f32):
    %p = arith.mulf %p0, %p1 : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x10xf32>
  return %r : tensor<8x10xf32>
}

// RUN: %reference mv_f32_odd_n %t/i
// RUN: graph-run %s --entry=mv_f32_odd_n --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/i/x0.npy --input=@%t/i/x1.npy --expected-output=@%t/i/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=mv_f32_odd_n --target=cuda --cuda-emulate --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/i/x0.npy --input=@%t/i/x1.npy --expected-output=@%t/i/expected.npy | FileCheck %s %}
func.func @mv_f32_odd_n(%a: tensor<3x64xf32>, %b: tensor<64x13xf32>) -> tensor<3x13xf32> {
  %r = graph.matmul %a, %b : tensor<3x64xf32>, tensor<64x13xf32> -> tensor<3x13xf32>
  return %r : tensor<3x13xf32>
}

// CHECK: result 0: matches expected
