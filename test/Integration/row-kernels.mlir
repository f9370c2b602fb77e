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
// CHECK: matches expected

func.func @softmax_masked(%x: tensor<37x300xf32>) -> tensor<37x300xf32> {
  %r = graph.softmax %x axis = 1 : tensor<37x300xf32> -> tensor<37x300xf32>
  return %r : tensor<37x300xf32>
}

func.func @layer_norm_f16(%x: tensor<6x4x64xf16>, %w: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<6x4x64xf16> {
  %0 = graph.layer_norm %x, %w, %b : (tensor<6x4x64xf16>, tensor<4x64xf16>, tensor<4x64xf16>) -> tensor<6x4x64xf16>
  return %0 : tensor<6x4x64xf16>
}
