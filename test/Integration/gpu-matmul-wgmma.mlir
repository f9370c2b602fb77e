// RUN: rm -rf %t && mkdir -p %t

// The Hopper warpgroup-MMA kernel of graph-gpu-matmul (chip sm_90a: f16
// and bf16 products with M, N multiples of 128 and K of 64): 128x128x64
// blocks of two warpgroups, `wgmma.mma_async.m64n128k16` reading A and B
// from 128-byte-swizzled shared tiles through matrix descriptors. Each
// operand is K-major (A stored [M, K], B stored [N, K]: layout row / col)
// or MN-major (A stored [K, M], B [K, N]: layout col / row); all four
// combinations below, plus C accumulated from its contents, a fused
// epilogue (bias, relu, f16 rounding), a batch and rows padded along M
// (200 rows read with a clamped index, only rows < 200 stored).
//
// The tiles are copied by TMA (default): thread 0 issues the boxes of
// each stage from tensor maps the runtime encodes, an mbarrier per stage
// counting their bytes; with tma=false by cp.async (every thread copying
// 16-byte vectors, rows past M clamped).
//
// No GPU has run this kernel. Here it runs under --cuda-emulate, whose
// wgmma emulation reads the matrices through the descriptors' fields
// (start address, leading / stride byte offsets, the 128-byte swizzle on
// the address bits) as the PTX ISA defines them, and whose TMA emulation
// copies each box through the emulated driver's tensor map (its own
// 128-byte swizzle on the shared address bits, elements outside the
// tensor zero; a wait on an mbarrier phase that never completes stops the
// run), against NumPy (products summed in f64, rounded once to the result
// type); on the CPU target against the same references. Tolerances as in
// gpu-matmul-kernels.mlir: f16 rtol 2e-3, f32 results of f16/bf16 inputs
// 1e-5 (products exact in f32, sums in another order); atol 1e-5.

// RUN: %if cuda-runtime %{ graph-opt %s --graph-cuda-pipeline="cpu-emulation=true chip=sm_90a" --mlir-print-ir-before=graph-gpu-launch-to-loops --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s --check-prefix=KERNELS %}
// One kernel per product (the f16 rounding fused), 256 threads, 128x128
// blocks, 3 stages of 16 KiB per operand (96 KiB of shared memory) and
// their 3 mbarriers (24 bytes); the tensor maps of A (boxes of 128 rows
// of 64) and B (MN-major: 64 k rows of 64 columns) asked of the runtime
// before the launch.
// KERNELS-LABEL: func.func @wg_f16_mm
// KERNELS: %[[SMEM:.*]] = arith.constant 98328 : i32
// KERNELS: %[[MA:.*]] = call @graphopt_cuda_tensor_map_f16(%{{.*}}, %c64, %c128)
// KERNELS: %[[MB:.*]] = call @graphopt_cuda_tensor_map_f16(%{{.*}}, %c64, %c64)
// KERNELS: gpu.launch {{.*}} in ({{.*}} = %c2, {{.*}} = %c2, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c256, {{.*}}) dynamic_shared_memory_size %[[SMEM]]
// KERNELS-NOT: nvgpu.device_async_copy
// KERNELS-COUNT-3: nvvm.mbarrier.init
// KERNELS: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c32768_i32
// KERNELS: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MA]], %{{.*}}, box[%c0_i32, %{{.*}}]
// KERNELS-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MB]], %{{.*}}, box[%{{.*}}, %c0_i32]
// KERNELS: gpu.barrier
// KERNELS: nvvm.mbarrier.try_wait.parity
// KERNELS: gpu.barrier
// KERNELS: nvvm.cp.async.bulk.tensor.shared.cluster.global
// KERNELS: nvvm.wgmma.fence.aligned
// KERNELS-COUNT-4: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// KERNELS: nvvm.wgmma.commit.group.sync.aligned
// KERNELS: nvvm.wgmma.wait.group.sync.aligned 0
// KERNELS: arith.truncf
// KERNELS-NOT: gpu.launch
// KERNELS-LABEL: func.func @wg_f16_a_bt
// KERNELS: nvvm.wgmma.mma_async {{.*}} A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// KERNELS-LABEL: func.func @wg_bf16_at_b
// KERNELS: nvvm.wgmma.mma_async {{.*}} A[<bf16>, <one>, <col>], B[<bf16>, <one>, <row>]
// KERNELS-LABEL: func.func @wg_bf16_at_bt
// KERNELS: nvvm.wgmma.mma_async {{.*}} A[<bf16>, <one>, <col>], B[<bf16>, <one>, <col>]
// KERNELS-LABEL: func.func @wg_f16_acc
// KERNELS: gpu.launch
// KERNELS: memref.load
// KERNELS: nvvm.wgmma.mma_async
// KERNELS-LABEL: func.func @wg_f16_linear_relu
// KERNELS: gpu.launch
// KERNELS-NOT: gpu.launch
// KERNELS: nvvm.wgmma.mma_async
// KERNELS: arith.maximumf
// A batch: 3-D boxes, the batch the third coordinate.
// KERNELS-LABEL: func.func @wg_f16_bmm
// KERNELS: gpu.launch {{.*}} in ({{.*}} = %c1, {{.*}} = %c1, {{.*}} = %c2)
// KERNELS: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} box[%{{.*}}, %{{.*}}, %{{.*}}]
// KERNELS: nvvm.wgmma.mma_async
// Rows past A's 200 are outside its tensor map: TMA reads them as zeros
// (no clamp).
// KERNELS-LABEL: func.func @wg_f16_rows
// KERNELS: call @graphopt_cuda_tensor_map_f16(%{{.*}}, %c64, %c128) : (memref<*xf16>
// KERNELS: gpu.launch {{.*}} in ({{.*}} = %c2, {{.*}} = %c2, {{.*}} = %c1)
// KERNELS-NOT: arith.minui
// KERNELS: nvvm.wgmma.mma_async
// KERNELS: scf.if
// KERNELS-NOT: gpu.launch

// With tma=false: cp.async stages (no tensor maps or mbarriers), a proxy
// fence before the MMAs, A's rows past M clamped.
// RUN: %if cuda-runtime %{ graph-opt %s --graph-cuda-pipeline="cpu-emulation=true chip=sm_90a tma=false" --mlir-print-ir-before=graph-gpu-launch-to-loops --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s --check-prefix=CPASYNC %}
// CPASYNC-NOT: graphopt_cuda_tensor_map
// CPASYNC-LABEL: func.func @wg_f16_mm
// CPASYNC: %[[SMEM:.*]] = arith.constant 98304 : i32
// CPASYNC: gpu.launch {{.*}} dynamic_shared_memory_size %[[SMEM]]
// CPASYNC-NOT: mbarrier
// CPASYNC: nvgpu.device_async_copy
// CPASYNC: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CPASYNC: gpu.barrier
// CPASYNC-COUNT-4: nvvm.wgmma.mma_async
// CPASYNC-LABEL: func.func @wg_f16_rows
// CPASYNC: arith.minui
// CPASYNC: nvvm.wgmma.mma_async

// Without sm_90a the same products take the sm_80 kernels.
// RUN: %if cuda-runtime %{ graph-opt %s --graph-cuda-pipeline="cpu-emulation=true chip=sm_90" --mlir-print-ir-before=graph-gpu-launch-to-loops --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM90 %}
// SM90-NOT: wgmma
// SM90: gpu.subgroup_mma_compute
// SM90-NOT: wgmma

// RUN: %reference wg_f16_mm %t/a
// RUN: graph-run %s --entry=wg_f16_mm --quiet --rtol=2e-3 --atol=1e-5 --input=@%t/a/x0.npy --input=@%t/a/x1.npy --expected-output=@%t/a/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=wg_f16_mm --target=cuda --cuda-emulate --cuda-chip=sm_90a --quiet --rtol=2e-3 --atol=1e-5 --input=@%t/a/x0.npy --input=@%t/a/x1.npy --expected-output=@%t/a/expected.npy | FileCheck %s %}
// RUN: %if cuda-runtime %{ graph-run %s --entry=wg_f16_mm --target=cuda --cuda-emulate --cuda-chip=sm_90a --pipeline-options=tma=false --quiet --rtol=2e-3 --atol=1e-5 --input=@%t/a/x0.npy --input=@%t/a/x1.npy --expected-output=@%t/a/expected.npy | FileCheck %s %}
func.func @wg_f16_mm(%a: tensor<256x128xf16>, %b: tensor<128x256xf16>) -> tensor<256x256xf16> {
  %r = graph.matmul %a, %b : tensor<256x128xf16>, tensor<128x256xf16> -> tensor<256x256xf16>
  return %r : tensor<256x256xf16>
}

#a = affine_map<(m, n, k) -> (m, k)>
#at = affine_map<(m, n, k) -> (k, m)>
#b = affine_map<(m, n, k) -> (k, n)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>

// RUN: %reference wg_f16_a_bt %t/b
// RUN: graph-run %s --entry=wg_f16_a_bt --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/b/x0.npy --input=@%t/b/x1.npy --expected-output=@%t/b/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=wg_f16_a_bt --target=cuda --cuda-emulate --cuda-chip=sm_90a --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/b/x0.npy --input=@%t/b/x1.npy --expected-output=@%t/b/expected.npy | FileCheck %s %}
func.func @wg_f16_a_bt(%a: tensor<128x192xf16>, %b: tensor<256x192xf16>) -> tensor<128x256xf32> {
  %e = tensor.empty() : tensor<128x256xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %r = linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<128x192xf16>, tensor<256x192xf16>) outs(%f : tensor<128x256xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<128x256xf32>
  return %r : tensor<128x256xf32>
}

// RUN: %reference wg_bf16_at_b %t/c
// RUN: graph-run %s --entry=wg_bf16_at_b --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/c/x0.npy --input=@%t/c/x1.npy --expected-output=@%t/c/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=wg_bf16_at_b --target=cuda --cuda-emulate --cuda-chip=sm_90a --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/c/x0.npy --input=@%t/c/x1.npy --expected-output=@%t/c/expected.npy | FileCheck %s %}
func.func @wg_bf16_at_b(%a: tensor<128x256xf32>, %b: tensor<128x128xf32>) -> tensor<256x128xf32> {
  %x = graph.cast %a : tensor<128x256xf32> -> tensor<128x256xbf16>
  %y = graph.cast %b : tensor<128x128xf32> -> tensor<128x128xbf16>
  %e = tensor.empty() : tensor<256x128xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<256x128xf32>) -> tensor<256x128xf32>
  %r = linalg.generic {indexing_maps = [#at, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<128x256xbf16>, tensor<128x128xbf16>) outs(%f : tensor<256x128xf32>) {
  ^bb0(%p0: bf16, %p1: bf16, %acc: f32):
    %xe = arith.extf %p0 : bf16 to f32
    %ye = arith.extf %p1 : bf16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<256x128xf32>
  return %r : tensor<256x128xf32>
}

// RUN: %reference wg_bf16_at_bt %t/d
// RUN: graph-run %s --entry=wg_bf16_at_bt --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/d/x0.npy --input=@%t/d/x1.npy --expected-output=@%t/d/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=wg_bf16_at_bt --target=cuda --cuda-emulate --cuda-chip=sm_90a --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/d/x0.npy --input=@%t/d/x1.npy --expected-output=@%t/d/expected.npy | FileCheck %s %}
// RUN: %if cuda-runtime %{ graph-run %s --entry=wg_bf16_at_bt --target=cuda --cuda-emulate --cuda-chip=sm_90a --pipeline-options=tma=false --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/d/x0.npy --input=@%t/d/x1.npy --expected-output=@%t/d/expected.npy | FileCheck %s %}
func.func @wg_bf16_at_bt(%a: tensor<64x128xf32>, %b: tensor<256x64xf32>) -> tensor<128x256xf32> {
  %x = graph.cast %a : tensor<64x128xf32> -> tensor<64x128xbf16>
  %y = graph.cast %b : tensor<256x64xf32> -> tensor<256x64xbf16>
  %e = tensor.empty() : tensor<128x256xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %r = linalg.generic {indexing_maps = [#at, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<64x128xbf16>, tensor<256x64xbf16>) outs(%f : tensor<128x256xf32>) {
  ^bb0(%p0: bf16, %p1: bf16, %acc: f32):
    %xe = arith.extf %p0 : bf16 to f32
    %ye = arith.extf %p1 : bf16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<128x256xf32>
  return %r : tensor<128x256xf32>
}

// C accumulated from its contents (no zero fill: the kernel loads it).
// RUN: %reference wg_f16_acc %t/e
// RUN: graph-run %s --entry=wg_f16_acc --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/e/x0.npy --input=@%t/e/x1.npy --input=@%t/e/x2.npy --expected-output=@%t/e/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=wg_f16_acc --target=cuda --cuda-emulate --cuda-chip=sm_90a --quiet --rtol=1e-5 --atol=1e-5 --input=@%t/e/x0.npy --input=@%t/e/x1.npy --input=@%t/e/x2.npy --expected-output=@%t/e/expected.npy | FileCheck %s %}
func.func @wg_f16_acc(%a: tensor<128x64xf16>, %b: tensor<128x64xf16>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<128x64xf16>, tensor<128x64xf16>) outs(%c : tensor<128x128xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// RUN: %reference wg_f16_linear_relu %t/f
// RUN: graph-run %s --entry=wg_f16_linear_relu --quiet --rtol=2e-3 --atol=1e-5 --input=@%t/f/x0.npy --input=@%t/f/x1.npy --input=@%t/f/x2.npy --expected-output=@%t/f/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=wg_f16_linear_relu --target=cuda --cuda-emulate --cuda-chip=sm_90a --quiet --rtol=2e-3 --atol=1e-5 --input=@%t/f/x0.npy --input=@%t/f/x1.npy --input=@%t/f/x2.npy --expected-output=@%t/f/expected.npy | FileCheck %s %}
func.func @wg_f16_linear_relu(%x: tensor<128x192xf16>, %w: tensor<192x256xf16>, %b: tensor<256xf16>) -> tensor<128x256xf16> {
  %y = graph.matmul %x, %w : tensor<128x192xf16>, tensor<192x256xf16> -> tensor<128x256xf16>
  %z = graph.add %y, %b : tensor<128x256xf16>, tensor<256xf16> -> tensor<128x256xf16>
  %r = graph.relu %z : tensor<128x256xf16> -> tensor<128x256xf16>
  return %r : tensor<128x256xf16>
}

// RUN: %reference wg_f16_bmm %t/g
// RUN: graph-run %s --entry=wg_f16_bmm --quiet --rtol=2e-3 --atol=1e-5 --input=@%t/g/x0.npy --input=@%t/g/x1.npy --expected-output=@%t/g/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=wg_f16_bmm --target=cuda --cuda-emulate --cuda-chip=sm_90a --quiet --rtol=2e-3 --atol=1e-5 --input=@%t/g/x0.npy --input=@%t/g/x1.npy --expected-output=@%t/g/expected.npy | FileCheck %s %}
// RUN: %if cuda-runtime %{ graph-run %s --entry=wg_f16_bmm --target=cuda --cuda-emulate --cuda-chip=sm_90a --pipeline-options=tma=false --quiet --rtol=2e-3 --atol=1e-5 --input=@%t/g/x0.npy --input=@%t/g/x1.npy --expected-output=@%t/g/expected.npy | FileCheck %s %}
func.func @wg_f16_bmm(%a: tensor<2x128x64xf16>, %b: tensor<2x64x128xf16>) -> tensor<2x128x128xf16> {
  %r = graph.matmul %a, %b : tensor<2x128x64xf16>, tensor<2x64x128xf16> -> tensor<2x128x128xf16>
  return %r : tensor<2x128x128xf16>
}

// 200 rows: padded to 256 (A read in place, its row index clamped; only
// rows < 200 stored).
// RUN: %reference wg_f16_rows %t/h
// RUN: graph-run %s --entry=wg_f16_rows --quiet --rtol=2e-3 --atol=1e-5 --input=@%t/h/x0.npy --input=@%t/h/x1.npy --expected-output=@%t/h/expected.npy | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=wg_f16_rows --target=cuda --cuda-emulate --cuda-chip=sm_90a --quiet --rtol=2e-3 --atol=1e-5 --input=@%t/h/x0.npy --input=@%t/h/x1.npy --expected-output=@%t/h/expected.npy | FileCheck %s %}
// RUN: %if cuda-runtime %{ graph-run %s --entry=wg_f16_rows --target=cuda --cuda-emulate --cuda-chip=sm_90a --pipeline-options=tma=false --quiet --rtol=2e-3 --atol=1e-5 --input=@%t/h/x0.npy --input=@%t/h/x1.npy --expected-output=@%t/h/expected.npy | FileCheck %s %}
func.func @wg_f16_rows(%a: tensor<200x128xf16>, %b: tensor<128x256xf16>) -> tensor<200x256xf16> {
  %r = graph.matmul %a, %b : tensor<200x128xf16>, tensor<128x256xf16> -> tensor<200x256xf16>
  return %r : tensor<200x256xf16>
}

// CHECK: result 0: matches expected
