// RUN: rm -rf %t && mkdir -p %t

// Batched (3-D) matmul in f16 and bf16, f16 scaled_dot_product_attention
// (whose decomposition has two batched matmuls) and f16 conv2d with a bias
// (im2col and a batched matmul), checked against NumPy
// (test/lib/reference.py: f32 math, the result rounded once). The scalar
// pipeline (--vectorize=false) first, then the default vectorized one.
// Tolerances: matmul, rtol 1e-3 (f16) and 1e-2 (bf16): one ulp; atol 1e-5.
// Attention and conv2d with a bias, rtol 1e-2, atol 1e-3: attention's
// decomposition rounds the scores and the probabilities to f16, and the
// conv's bias is added to the matmul result already rounded to f16 (see
// f16-nn.mlir for the stricter checks of once-rounded results).

// RUN: %reference f16_batched_matmul %t/f16_batched_matmul
// RUN: graph-run %s --entry=f16_batched_matmul --quiet --vectorize=false --rtol=1e-3 --atol=1e-5 \
// RUN:   --input=@%t/f16_batched_matmul/x0.npy --input=@%t/f16_batched_matmul/x1.npy \
// RUN:   --expected-output=@%t/f16_batched_matmul/expected.npy \
// RUN:   | FileCheck %s --check-prefix=ONE
// RUN: %reference bf16_batched_matmul %t/bf16_batched_matmul
// RUN: graph-run %s --entry=bf16_batched_matmul --quiet --vectorize=false --rtol=1e-2 --atol=1e-5 \
// RUN:   --input=@%t/bf16_batched_matmul/x0.npy --input=@%t/bf16_batched_matmul/x1.npy \
// RUN:   --expected-output=@%t/bf16_batched_matmul/expected.npy \
// RUN:   | FileCheck %s --check-prefix=ONE
// RUN: %reference f16_sdpa %t/f16_sdpa
// RUN: graph-run %s --entry=f16_sdpa --quiet --vectorize=false --rtol=1e-2 --atol=1e-3 \
// RUN:   --input=@%t/f16_sdpa/x0.npy --input=@%t/f16_sdpa/x1.npy \
// RUN:   --input=@%t/f16_sdpa/x2.npy --expected-output=@%t/f16_sdpa/expected.npy \
// RUN:   | FileCheck %s --check-prefix=ONE
// RUN: %reference f16_conv2d_bias %t/f16_conv2d_bias
// RUN: graph-run %s --entry=f16_conv2d_bias --quiet --vectorize=false --rtol=1e-2 --atol=1e-3 \
// RUN:   --input=@%t/f16_conv2d_bias/x0.npy --input=@%t/f16_conv2d_bias/x1.npy \
// RUN:   --input=@%t/f16_conv2d_bias/x2.npy --expected-output=@%t/f16_conv2d_bias/expected.npy \
// RUN:   | FileCheck %s --check-prefix=ONE
// RUN: graph-run %s --entry=f16_batched_matmul --quiet --rtol=1e-3 --atol=1e-5 \
// RUN:   --input=@%t/f16_batched_matmul/x0.npy --input=@%t/f16_batched_matmul/x1.npy \
// RUN:   --expected-output=@%t/f16_batched_matmul/expected.npy \
// RUN:   | FileCheck %s --check-prefix=ONE
// RUN: graph-run %s --entry=bf16_batched_matmul --quiet --rtol=1e-2 --atol=1e-5 \
// RUN:   --input=@%t/bf16_batched_matmul/x0.npy --input=@%t/bf16_batched_matmul/x1.npy \
// RUN:   --expected-output=@%t/bf16_batched_matmul/expected.npy \
// RUN:   | FileCheck %s --check-prefix=ONE
// RUN: graph-run %s --entry=f16_sdpa --quiet --rtol=1e-2 --atol=1e-3 \
// RUN:   --input=@%t/f16_sdpa/x0.npy --input=@%t/f16_sdpa/x1.npy \
// RUN:   --input=@%t/f16_sdpa/x2.npy --expected-output=@%t/f16_sdpa/expected.npy \
// RUN:   | FileCheck %s --check-prefix=ONE
// RUN: graph-run %s --entry=f16_conv2d_bias --quiet --rtol=1e-2 --atol=1e-3 \
// RUN:   --input=@%t/f16_conv2d_bias/x0.npy --input=@%t/f16_conv2d_bias/x1.npy \
// RUN:   --input=@%t/f16_conv2d_bias/x2.npy --expected-output=@%t/f16_conv2d_bias/expected.npy \
// RUN:   | FileCheck %s --check-prefix=ONE

// ONE: result 0: matches expected

func.func @f16_batched_matmul(%a: tensor<2x8x16xf16>, %b: tensor<2x16x8xf16>) -> tensor<2x8x8xf16> {
  %r = graph.matmul %a, %b : tensor<2x8x16xf16>, tensor<2x16x8xf16> -> tensor<2x8x8xf16>
  return %r : tensor<2x8x8xf16>
}

func.func @bf16_batched_matmul(%a: tensor<2x8x16xf32>, %b: tensor<2x16x8xf32>) -> tensor<2x8x8xbf16> {
  %x = graph.cast %a : tensor<2x8x16xf32> -> tensor<2x8x16xbf16>
  %y = graph.cast %b : tensor<2x16x8xf32> -> tensor<2x16x8xbf16>
  %r = graph.matmul %x, %y : tensor<2x8x16xbf16>, tensor<2x16x8xbf16> -> tensor<2x8x8xbf16>
  return %r : tensor<2x8x8xbf16>
}

func.func @f16_conv2d_bias(%x: tensor<2x3x8x8xf16>, %w: tensor<4x3x3x3xf16>, %b: tensor<4xf16>) -> tensor<2x4x8x8xf16> {
  %r = graph.conv2d %x, %w, %b {padding = array<i64: 1, 1, 1, 1>} : (tensor<2x3x8x8xf16>, tensor<4x3x3x3xf16>, tensor<4xf16>) -> tensor<2x4x8x8xf16>
  return %r : tensor<2x4x8x8xf16>
}

func.func @f16_sdpa(%q: tensor<2x8x16xf16>, %k: tensor<2x8x16xf16>, %v: tensor<2x8x16xf16>) -> tensor<2x8x16xf16> {
  %r = graph.scaled_dot_product_attention %q, %k, %v : (tensor<2x8x16xf16>, tensor<2x8x16xf16>, tensor<2x8x16xf16>) -> tensor<2x8x16xf16>
  return %r : tensor<2x8x16xf16>
}
