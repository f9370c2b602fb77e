// RUN: rm -rf %t && mkdir -p %t

// graph.scaled_dot_product_attention (decomposed into transpose, matmul,
// scale, mask, softmax, matmul), checked against NumPy's
// softmax(q k^T * scale + mask) v (test/lib/reference.py, sdpa()).
// Tolerances: rtol = atol = 1e-5: the probabilities are in [0, 1], the
// values O(1); exp is a polynomial approximation accurate to a few ulp.

// A bool mask [L, S] broadcast over the batch and heads (true = attend).
// RUN: %reference sdpa_bool_mask %t/sdpa_bool_mask
// RUN: graph-run %s --entry=sdpa_bool_mask --quiet \
// RUN:   --input=@%t/sdpa_bool_mask/x0.npy --input=@%t/sdpa_bool_mask/x1.npy \
// RUN:   --input=@%t/sdpa_bool_mask/x2.npy --input=@%t/sdpa_bool_mask/x3.npy \
// RUN:   --expected-output=@%t/sdpa_bool_mask/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=ONE

// A float mask [N, 1, L, S] added to the scores (with -inf entries),
// broadcast over the heads; an explicit scale.
// RUN: %reference sdpa_float_mask %t/sdpa_float_mask
// RUN: graph-run %s --entry=sdpa_float_mask --quiet \
// RUN:   --input=@%t/sdpa_float_mask/x0.npy --input=@%t/sdpa_float_mask/x1.npy \
// RUN:   --input=@%t/sdpa_float_mask/x2.npy --input=@%t/sdpa_float_mask/x3.npy \
// RUN:   --expected-output=@%t/sdpa_float_mask/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=ONE

// is_causal, L = S, and L = 3 < S = 5 (top-left aligned: key j <= query i),
// rank 2.
// RUN: %reference sdpa_causal %t/sdpa_causal
// RUN: graph-run %s --entry=sdpa_causal --quiet \
// RUN:   --input=@%t/sdpa_causal/x0.npy --input=@%t/sdpa_causal/x1.npy \
// RUN:   --input=@%t/sdpa_causal/x2.npy --input=@%t/sdpa_causal/x3.npy \
// RUN:   --input=@%t/sdpa_causal/x4.npy --input=@%t/sdpa_causal/x5.npy \
// RUN:   --expected-output=@%t/sdpa_causal/expected.npy --expected-output=@%t/sdpa_causal/expected1.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=TWO

// Batch dims [2, 1], [3] and [1, 3] broadcast to [2, 3]; Ev = 6 != E = 8.
// RUN: %reference sdpa_broadcast %t/sdpa_broadcast
// RUN: graph-run %s --entry=sdpa_broadcast --quiet \
// RUN:   --input=@%t/sdpa_broadcast/x0.npy --input=@%t/sdpa_broadcast/x1.npy \
// RUN:   --input=@%t/sdpa_broadcast/x2.npy --expected-output=@%t/sdpa_broadcast/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=ONE

// ONE: result 0: matches expected

// TWO: result 0: matches expected
// TWO: result 1: matches expected

func.func @sdpa_bool_mask(%q: tensor<2x3x5x8xf32>, %k: tensor<2x3x7x8xf32>, %v: tensor<2x3x7x4xf32>, %m: tensor<5x7xi1>) -> tensor<2x3x5x4xf32> {
  %r = graph.scaled_dot_product_attention %q, %k, %v, %m
      : (tensor<2x3x5x8xf32>, tensor<2x3x7x8xf32>, tensor<2x3x7x4xf32>, tensor<5x7xi1>) -> tensor<2x3x5x4xf32>
  return %r : tensor<2x3x5x4xf32>
}

func.func @sdpa_float_mask(%q: tensor<2x3x5x8xf32>, %k: tensor<2x3x5x8xf32>, %v: tensor<2x3x5x8xf32>, %m: tensor<2x1x5x5xf32>) -> tensor<2x3x5x8xf32> {
  %r = graph.scaled_dot_product_attention %q, %k, %v, %m {scale = 0.3 : f64}
      : (tensor<2x3x5x8xf32>, tensor<2x3x5x8xf32>, tensor<2x3x5x8xf32>, tensor<2x1x5x5xf32>) -> tensor<2x3x5x8xf32>
  return %r : tensor<2x3x5x8xf32>
}

func.func @sdpa_causal(%q: tensor<2x4x6x8xf32>, %k: tensor<2x4x6x8xf32>, %v: tensor<2x4x6x8xf32>,
                       %q2: tensor<3x8xf32>, %k2: tensor<5x8xf32>, %v2: tensor<5x2xf32>) -> (tensor<2x4x6x8xf32>, tensor<3x2xf32>) {
  %a = graph.scaled_dot_product_attention %q, %k, %v {is_causal}
      : (tensor<2x4x6x8xf32>, tensor<2x4x6x8xf32>, tensor<2x4x6x8xf32>) -> tensor<2x4x6x8xf32>
  %b = graph.scaled_dot_product_attention %q2, %k2, %v2 {is_causal}
      : (tensor<3x8xf32>, tensor<5x8xf32>, tensor<5x2xf32>) -> tensor<3x2xf32>
  return %a, %b : tensor<2x4x6x8xf32>, tensor<3x2xf32>
}

func.func @sdpa_broadcast(%q: tensor<2x1x5x8xf32>, %k: tensor<3x7x8xf32>, %v: tensor<1x3x7x6xf32>) -> tensor<2x3x5x6xf32> {
  %r = graph.scaled_dot_product_attention %q, %k, %v
      : (tensor<2x1x5x8xf32>, tensor<3x7x8xf32>, tensor<1x3x7x6xf32>) -> tensor<2x3x5x6xf32>
  return %r : tensor<2x3x5x6xf32>
}
