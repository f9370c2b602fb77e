// RUN: rm -rf %t && mkdir -p %t

// Matmuls whose shapes the CUDA kernels' tiles do not divide, with at
// least graph-gpu-matmul's pad-min-work (2^22) multiply-adds: the operands
// are copied into zero-filled buffers padded to multiples of the tiles
// (64x64x32 on tensor cores, 128x128x8 or half that along M or N for
// SIMT; A, stored [M, K] and padded along M only, is read in place with
// its row index clamped), the tiled kernel runs on those, and C's valid part is read back
// (by the elementwise op after the product where there is one: the f16
// rounding, a bias). Before, these fell to the default one-thread-per-
// output kernel. Under --cuda-emulate against NumPy (products summed in
// f64, rounded once), and on the CPU target against the same references.
// Tolerances as in gpu-matmul-kernels.mlir: f16 rtol 2e-3, bf16 (products
// of bf16-rounded inputs, f32 result) 1e-5, f32 1e-5; atol 1e-5.

// The kernels (the IR the emulation starts from): a fill and a copy per
// padded operand, the tiled kernel, the elementwise op reading the padded
// C.
// RUN: %if cuda-runtime %{ graph-opt %s --graph-cuda-pipeline=cpu-emulation=true --mlir-print-ir-before=graph-gpu-launch-to-loops --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s --check-prefix=KERNELS %}
// KERNELS-LABEL: func.func @gp_f16
// KERNELS-COUNT-4: gpu.launch
// KERNELS: gpu.launch {{.*}} in ({{.*}} = %c2, {{.*}} = %c4, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c128,
// KERNELS: gpu.subgroup_mma_compute
// KERNELS: memref.subview %{{.*}}[0, 0] [200, 72] [1, 1] : memref<256x128xf32> to memref<200x72xf32, strided<[128, 1]>>
// KERNELS: gpu.launch
// KERNELS: arith.truncf
// KERNELS-NOT: gpu.launch
// KERNELS-LABEL: func.func @gp_bf16_bt
// KERNELS: nvvm.mma.sync
// KERNELS-LABEL: func.func @gp_f16_bmm
// KERNELS: gpu.launch {{.*}} in ({{.*}} = %c2, {{.*}} = %c2, {{.*}} = %c3)
// KERNELS: gpu.subgroup_mma_compute
// KERNELS-LABEL: func.func @gp_f32_bias
// KERNELS: gpu.launch {{.*}} in ({{.*}} = %c1, {{.*}} = %c2, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c256,
// KERNELS: vector.fma
// Padded along M only (A stored [M, K], K and N whole tiles) with C
// starting at zero and an elementwise op after the product: nothing is
// padded or copied. The kernel clamps A's row reads (arith.minui), applies
// the elementwise op (here the f16 rounding; a bias in f32; bf16 on
// mma.sync) and stores only the rows below M (scf.if): one kernel.
// KERNELS-LABEL: func.func @gp_f16_rows
// KERNELS-NOT: memref.alloc() : memref<128x
// KERNELS: gpu.launch {{.*}} in ({{.*}} = %c3, {{.*}} = %c2, {{.*}} = %c1)
// KERNELS: arith.minui
// KERNELS: gpu.subgroup_mma_compute
// KERNELS: arith.cmpi ult, {{.*}}, %c100
// KERNELS-NEXT: scf.if
// KERNELS: arith.truncf
// KERNELS-NOT: gpu.launch
// KERNELS-LABEL: func.func @gp_f32_rows_bias
// KERNELS: gpu.launch
// KERNELS: arith.minui
// KERNELS: vector.fma
// KERNELS: scf.if
// KERNELS: arith.addf
// KERNELS-NOT: gpu.launch
// KERNELS-LABEL: func.func @gp_bf16_rows
// KERNELS: gpu.launch
// KERNELS: arith.minui
// KERNELS: nvvm.mma.sync
// KERNELS: scf.if
// KERNELS: arith.truncf
// KERNELS-NOT: gpu.launch
// Too few rows to pad (M < 16): not padded; with M <= 8 the
// matrix-vector kernel (gpu-matmul-vector.mlir), 8 columns per block.
// KERNELS-LABEL: func.func @gp_f16_gemv
// KERNELS-NOT: gpu.subgroup_mma_compute
// KERNELS: gpu.launch blocks({{.*}}) in ({{.*}} = %c9,
// KERNELS-NOT: gpu.subgroup_mma_compute
// KERNELS: vector.fma
// KERNELS-NOT: gpu.subgroup_mma_compute

// RUN: %reference gp_f16 %t/a
// RUN: graph-run %s --entry=gp_f16 --quiet --rtol=2e-3 --atol=1e-5 --input=@%t/a/x0.npy --input=@%t/a/x1.npy --expected-output=@%t/a/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gp_f16 --target=cuda --cuda-emulate --quiet --rtol=2e-3 --atol=1e-5 --input=@%t/a/x0.npy --input=@%t/a/x1.npy --expected-output=@%t/a/expected.npy | FileCheck %s %}
func.func @gp_f16(%a: tensor<200x300xf16>, %b: tensor<300x72xf16>) -> tensor<200x72xf16> {
  %r = graph.matmul %a, %b : tensor<200x300xf16>, tensor<300x72xf16> -> tensor<200x72xf16>
  return %r : tensor<200x72xf16>
}

#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>

// RUN: %reference gp_bf16_bt %t/b
// RUN: graph-run %s --entry=gp_bf16_bt --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/b/x0.npy --input=@%t/b/x1.npy --expected-output=@%t/b/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gp_bf16_bt --target=cuda --cuda-emulate --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/b/x0.npy --input=@%t/b/x1.npy --expected-output=@%t/b/expected.npy | FileCheck %s %}
func.func @gp_bf16_bt(%a: tensor<130x256xf32>, %b: tensor<130x256xf32>) -> tensor<130x130xf32> {
  %x = graph.cast %a : tensor<130x256xf32> -> tensor<130x256xbf16>
  %y = graph.cast %b : tensor<130x256xf32> -> tensor<130x256xbf16>
  %e = tensor.empty() : tensor<130x130xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<130x130xf32>) -> tensor<130x130xf32>
  %r = linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<130x256xbf16>, tensor<130x256xbf16>) outs(%f : tensor<130x130xf32>) {
  ^bb0(%p: bf16, %q: bf16, %acc: f32):
    %pe = arith.extf %p : bf16 to f32
    %qe = arith.extf %q : bf16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<130x130xf32>
  return %r : tensor<130x130xf32>
}

// RUN: %reference gp_f16_bmm %t/c
// RUN: graph-run %s --entry=gp_f16_bmm --quiet --rtol=2e-3 --atol=1e-5 --input=@%t/c/x0.npy --input=@%t/c/x1.npy --expected-output=@%t/c/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gp_f16_bmm --target=cuda --cuda-emulate --quiet --rtol=2e-3 --atol=1e-5 --input=@%t/c/x0.npy --input=@%t/c/x1.npy --expected-output=@%t/c/expected.npy | FileCheck %s %}
func.func @gp_f16_bmm(%a: tensor<3x100x200xf16>, %b: tensor<3x200x72xf16>) -> tensor<3x100x72xf16> {
  %r = graph.matmul %a, %b : tensor<3x100x200xf16>, tensor<3x200x72xf16> -> tensor<3x100x72xf16>
  return %r : tensor<3x100x72xf16>
}

// RUN: %reference gp_f32_bias %t/d
// RUN: graph-run %s --entry=gp_f32_bias --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/d/x0.npy --input=@%t/d/x1.npy --input=@%t/d/x2.npy --expected-output=@%t/d/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gp_f32_bias --target=cuda --cuda-emulate --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/d/x0.npy --input=@%t/d/x1.npy --input=@%t/d/x2.npy --expected-output=@%t/d/expected.npy | FileCheck %s %}
func.func @gp_f32_bias(%x: tensor<200x300xf32>, %w: tensor<300x72xf32>, %b: tensor<72xf32>) -> tensor<200x72xf32> {
  %m = graph.matmul %x, %w : tensor<200x300xf32>, tensor<300x72xf32> -> tensor<200x72xf32>
  %r = graph.add %m, %b : tensor<200x72xf32>, tensor<72xf32> -> tensor<200x72xf32>
  return %r : tensor<200x72xf32>
}

// RUN: %reference gp_f16_rows %t/f
// RUN: graph-run %s --entry=gp_f16_rows --quiet --rtol=2e-3 --atol=1e-5 --input=@%t/f/x0.npy --input=@%t/f/x1.npy --expected-output=@%t/f/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gp_f16_rows --target=cuda --cuda-emulate --quiet --rtol=2e-3 --atol=1e-5 --input=@%t/f/x0.npy --input=@%t/f/x1.npy --expected-output=@%t/f/expected.npy | FileCheck %s %}
func.func @gp_f16_rows(%a: tensor<100x256xf16>, %b: tensor<256x192xf16>) -> tensor<100x192xf16> {
  %r = graph.matmul %a, %b : tensor<100x256xf16>, tensor<256x192xf16> -> tensor<100x192xf16>
  return %r : tensor<100x192xf16>
}

// RUN: %reference gp_f32_rows_bias %t/g
// RUN: graph-run %s --entry=gp_f32_rows_bias --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/g/x0.npy --input=@%t/g/x1.npy --input=@%t/g/x2.npy --expected-output=@%t/g/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gp_f32_rows_bias --target=cuda --cuda-emulate --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/g/x0.npy --input=@%t/g/x1.npy --input=@%t/g/x2.npy --expected-output=@%t/g/expected.npy | FileCheck %s %}
func.func @gp_f32_rows_bias(%x: tensor<100x256xf32>, %w: tensor<256x256xf32>, %b: tensor<256xf32>) -> tensor<100x256xf32> {
  %m = graph.matmul %x, %w : tensor<100x256xf32>, tensor<256x256xf32> -> tensor<100x256xf32>
  %r = graph.add %m, %b : tensor<100x256xf32>, tensor<256xf32> -> tensor<100x256xf32>
  return %r : tensor<100x256xf32>
}

// RUN: %reference gp_bf16_rows %t/h
// RUN: graph-run %s --entry=gp_bf16_rows --quiet --rtol=1e-2 --atol=1e-5 --input=@%t/h/x0.npy --input=@%t/h/x1.npy --expected-output=@%t/h/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=gp_bf16_rows --target=cuda --cuda-emulate --quiet --rtol=1e-2 --atol=1e-5 --input=@%t/h/x0.npy --input=@%t/h/x1.npy --expected-output=@%t/h/expected.npy | FileCheck %s %}
func.func @gp_bf16_rows(%a: tensor<100x256xf32>, %b: tensor<256x192xf32>) -> tensor<100x192xbf16> {
  %x = graph.cast %a : tensor<100x256xf32> -> tensor<100x256xbf16>
  %y = graph.cast %b : tensor<256x192xf32> -> tensor<256x192xbf16>
  %r = graph.matmul %x, %y : tensor<100x256xbf16>, tensor<256x192xbf16> -> tensor<100x192xbf16>
  return %r : tensor<100x192xbf16>
}

// RUN: %reference gp_f16_gemv %t/e
// RUN: %if cuda-runtime %{ graph-run %s --entry=gp_f16_gemv --target=cuda --cuda-emulate --quiet --rtol=2e-3 --atol=1e-5 --input=@%t/e/x0.npy --input=@%t/e/x1.npy --expected-output=@%t/e/expected.npy | FileCheck %s %}
func.func @gp_f16_gemv(%a: tensor<4x40xf16>, %b: tensor<40x72xf16>) -> tensor<4x72xf16> {
  %r = graph.matmul %a, %b : tensor<4x40xf16>, tensor<40x72xf16> -> tensor<4x72xf16>
  return %r : tensor<4x72xf16>
}

// A constant weight (a dense_resource blob; the program and its NumPy
// reference are generated by Inputs/gen_constant_matmul.py) is padded once,
// at compile time, into a new constant global: no fill or copy kernel for
// it. f16 [512, 200] padded along N (4 kernels -> 2: the product, the
// rounding reading C's valid part); f32 [300, 72] along K and N (6 -> 4:
// A's fill and copy, the product, C's copy back). The original constant
// is gone from the module.
// RUN: %python %graphopt_src/test/Integration/Inputs/gen_constant_matmul.py %t/const
// RUN: %if cuda-runtime %{ graph-opt %t/const/constant-matmul.mlir --graph-cuda-pipeline=cpu-emulation=true --mlir-print-ir-before=graph-gpu-launch-to-loops --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONST %}
// CONST-LABEL: func.func @cp_f16_n
// CONST: memref.get_global @{{.*}}_padded : memref<512x256xf16>
// CONST-COUNT-2: gpu.launch blocks
// CONST-NOT: gpu.launch blocks
// CONST-LABEL: func.func @cp_f32_kn
// CONST: memref.get_global @{{.*}}_padded : memref<304x128xf32>
// CONST-COUNT-4: gpu.launch blocks
// CONST-NOT: gpu.launch blocks
// RUN: %if cuda-runtime %{ graph-opt %t/const/constant-matmul.mlir --graph-cuda-pipeline=cpu-emulation=true --mlir-print-ir-after=graph-gpu-matmul --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s --check-prefix=GLOBALS %}
// GLOBALS: memref.global "private" constant @__constant_512x200xf16_padded : memref<512x256xf16>
// GLOBALS-NOT: memref.global "private" constant @__constant_512x200xf16 :
// GLOBALS: memref.global "private" constant @__constant_300x72xf32_padded : memref<304x128xf32>
// GLOBALS-NOT: memref.global "private" constant @__constant_300x72xf32 :
// GLOBALS: func.func @cp_f16_n
// RUN: %if cuda-runtime %{ graph-run %t/const/constant-matmul.mlir --entry=cp_f16_n --target=cuda --cuda-emulate --quiet --rtol=2e-3 --atol=1e-5 --input=@%t/const/cp_f16_n/x0.npy --expected-output=@%t/const/cp_f16_n/expected.npy | FileCheck %s %}
// RUN: %if cuda-runtime %{ graph-run %t/const/constant-matmul.mlir --entry=cp_f32_kn --target=cuda --cuda-emulate --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/const/cp_f32_kn/x0.npy --expected-output=@%t/const/cp_f32_kn/expected.npy | FileCheck %s %}
// RUN: graph-run %t/const/constant-matmul.mlir --entry=cp_f32_kn --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/const/cp_f32_kn/x0.npy --expected-output=@%t/const/cp_f32_kn/expected.npy | FileCheck %s

// CHECK: result 0: matches expected
