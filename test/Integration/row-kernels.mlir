// RUN: rm -rf %t && mkdir -p %t
// Softmax with masked rows and an f16 layer norm over two trailing dims,
// against NumPy (float64, test/lib/reference.py), on the CPU and on the
// CUDA target's row kernels (graph-gpu-row-kernels: a warp per row, lanes
// merged by shuffles) run by the CPU emulation, which runs a warp's lanes
// in lockstep at the shuffles (graph-gpu-launch-to-loops). The masked rows:
// -inf prefixes, a row masked but for one entry (probability 1), a wholly
// masked row and a row with a NaN (both NaN, as NumPy gives; NaN matches
// NaN). rtol = atol = 1e-6 for softmax (f32 results in [0, 1], exp and one
// division per element); f16 layer norm: one f16 rounding of an f32 result
// (2^-11 relative) plus f32 sums of 256 terms: rtol = atol = 2e-3.
// RUN: %reference row_softmax_masked %t/sm
// RUN: graph-run %s --entry=softmax_masked --quiet --input=@%t/sm/x0.npy \
// RUN:   --expected-output=@%t/sm/expected.npy --rtol=1e-6 --atol=1e-6 | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=softmax_masked --quiet --input=@%t/sm/x0.npy \
// RUN:   --target=cuda --cuda-emulate \
// RUN:   --expected-output=@%t/sm/expected.npy --rtol=1e-6 --atol=1e-6 | FileCheck %s %}
// RUN: %reference row_layer_norm_f16 %t/ln
// RUN: graph-run %s --entry=layer_norm_f16 --quiet --input=@%t/ln/x0.npy \
// RUN:   --input=@%t/ln/x1.npy --input=@%t/ln/x2.npy \
// RUN:   --expected-output=@%t/ln/expected.npy --rtol=2e-3 --atol=2e-3 | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=layer_norm_f16 --quiet --input=@%t/ln/x0.npy \
// RUN:   --input=@%t/ln/x1.npy --input=@%t/ln/x2.npy --target=cuda --cuda-emulate \
// RUN:   --expected-output=@%t/ln/expected.npy --rtol=2e-3 --atol=2e-3 | FileCheck %s %}
// RMS normalization (no graph op: the chain torch.nn.RMSNorm imports as,
// matched by graph-gpu-row-kernels): f32 with a weight, rows of 300 (not a
// multiple of 32), 37 rows; f16 without one over two trailing dims. f32:
// sums of 300 squares in f32, rsqrt and two products: rtol = 2e-6, atol =
// 1e-6. f16: the CPU decomposition rounds to f16 after each op (the
// square, the mean, the sum with eps, rsqrt, the product: ~5 roundings of
// 2^-11), the CUDA kernel once: rtol = atol = 4e-3.
// RUN: %reference row_rms_norm_f32 %t/rms
// RUN: graph-run %s --entry=rms_norm_f32 --quiet --input=@%t/rms/x0.npy --input=@%t/rms/x1.npy \
// RUN:   --expected-output=@%t/rms/expected.npy --rtol=2e-6 --atol=1e-6 | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=rms_norm_f32 --quiet --input=@%t/rms/x0.npy --input=@%t/rms/x1.npy \
// RUN:   --target=cuda --cuda-emulate \
// RUN:   --expected-output=@%t/rms/expected.npy --rtol=2e-6 --atol=1e-6 | FileCheck %s %}
// RUN: %reference row_rms_norm_f16 %t/rms16
// RUN: graph-run %s --entry=rms_norm_f16 --quiet --input=@%t/rms16/x0.npy \
// RUN:   --expected-output=@%t/rms16/expected.npy --rtol=4e-3 --atol=4e-3 | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --entry=rms_norm_f16 --quiet --input=@%t/rms16/x0.npy \
// RUN:   --target=cuda --cuda-emulate \
// RUN:   --expected-output=@%t/rms16/expected.npy --rtol=4e-3 --atol=4e-3 | FileCheck %s %}
// The emulated CUDA pipeline gives each one row kernel (one launch, with
// shuffles):
// RUN: %if cuda-runtime %{ graph-opt %s --graph-cuda-pipeline=cpu-emulation=true --mlir-print-ir-before=graph-gpu-launch-to-loops --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s --check-prefix=KERNELS %}
// KERNELS-LABEL: func.func @rms_norm_f32
// KERNELS: gpu.launch
// KERNELS: gpu.shuffle xor
// KERNELS-NOT: gpu.launch
// KERNELS-LABEL: func.func @rms_norm_f16
// KERNELS: gpu.launch
// KERNELS: gpu.shuffle xor
// KERNELS-NOT: gpu.launch
// CHECK: matches expected

func.func @softmax_masked(%x: tensor<37x300xf32>) -> tensor<37x300xf32> {
  %r = graph.softmax %x axis = 1 : tensor<37x300xf32> -> tensor<37x300xf32>
  return %r : tensor<37x300xf32>
}

func.func @layer_norm_f16(%x: tensor<6x4x64xf16>, %w: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<6x4x64xf16> {
  %0 = graph.layer_norm %x, %w, %b : (tensor<6x4x64xf16>, tensor<4x64xf16>, tensor<4x64xf16>) -> tensor<6x4x64xf16>
  return %0 : tensor<6x4x64xf16>
}

func.func @rms_norm_f32(%x: tensor<37x300xf32>, %w: tensor<300xf32>) -> tensor<37x300xf32> {
  %eps = graph.constant dense<1.0e-06> : tensor<f32>
  %sq = graph.mul %x, %x : tensor<37x300xf32>, tensor<37x300xf32> -> tensor<37x300xf32>
  %ms = graph.reduce mean %sq axes = [1] keepdims : tensor<37x300xf32> -> tensor<37x1xf32>
  %a = graph.add %ms, %eps : tensor<37x1xf32>, tensor<f32> -> tensor<37x1xf32>
  %inv = graph.rsqrt %a : tensor<37x1xf32> -> tensor<37x1xf32>
  %n = graph.mul %x, %inv : tensor<37x300xf32>, tensor<37x1xf32> -> tensor<37x300xf32>
  %y = graph.mul %n, %w : tensor<37x300xf32>, tensor<300xf32> -> tensor<37x300xf32>
  return %y : tensor<37x300xf32>
}

func.func @rms_norm_f16(%x: tensor<6x4x64xf16>) -> tensor<6x4x64xf16> {
  %eps = graph.constant dense<1.0e-05> : tensor<f16>
  %sq = graph.mul %x, %x : tensor<6x4x64xf16>, tensor<6x4x64xf16> -> tensor<6x4x64xf16>
  %ms = graph.reduce mean %sq axes = [1, 2] keepdims : tensor<6x4x64xf16> -> tensor<6x1x1xf16>
  %a = graph.add %ms, %eps : tensor<6x1x1xf16>, tensor<f16> -> tensor<6x1x1xf16>
  %inv = graph.rsqrt %a : tensor<6x1x1xf16> -> tensor<6x1x1xf16>
  %y = graph.mul %x, %inv : tensor<6x4x64xf16>, tensor<6x1x1xf16> -> tensor<6x4x64xf16>
  return %y : tensor<6x4x64xf16>
}
