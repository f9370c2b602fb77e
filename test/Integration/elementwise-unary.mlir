// RUN: rm -rf %t && mkdir -p %t

// Elementwise unary ops on a 3x37 tensor (37 leaves a vector remainder),
// checked against NumPy (test/lib/reference.py). Inputs: [-5, 5) in general,
// [-20, 20) for exp, [0.01, 100) for log, sqrt and rsqrt (their domain),
// [-10, 10) for sigmoid and silu.
//
// Tolerances: rtol 1e-5 everywhere; atol 1e-5, except 1e-6 where the
// results are exact or correctly rounded (neg, abs, relu, sqrt, rsqrt).
// exp, log, tanh and erf are lowered to polynomial approximations (the
// graph-approximate-math pass), accurate to a few ulp: relative error far
// below 1e-5. Results near 0 need the atol: log near 1, silu, and gelu for
// negative x, where the specified formula x/2 * (1 + erf(x/sqrt 2)) cancels
// (1 + erf(-3) = 2e-5 in f32 keeps only ~2 significant digits). There a few
// ulp of the intermediate values is an absolute error of up to ~1e-6, which
// atol 1e-5 covers; the relative error of such tiny results can exceed 1e-5.

// RUN: %reference neg %t/neg
// RUN: graph-run %s --entry=neg --quiet --input=@%t/neg/x0.npy \
// RUN:   --expected-output=@%t/neg/expected.npy --rtol=1e-5 --atol=1e-6 \
// RUN:   | FileCheck %s
// RUN: %reference abs %t/abs
// RUN: graph-run %s --entry=abs --quiet --input=@%t/abs/x0.npy \
// RUN:   --expected-output=@%t/abs/expected.npy --rtol=1e-5 --atol=1e-6 \
// RUN:   | FileCheck %s
// RUN: %reference relu %t/relu
// RUN: graph-run %s --entry=relu --quiet --input=@%t/relu/x0.npy \
// RUN:   --expected-output=@%t/relu/expected.npy --rtol=1e-5 --atol=1e-6 \
// RUN:   | FileCheck %s
// RUN: %reference exp %t/exp
// RUN: graph-run %s --entry=exp --quiet --input=@%t/exp/x0.npy \
// RUN:   --expected-output=@%t/exp/expected.npy --rtol=1e-5 --atol=1e-5 \
// RUN:   | FileCheck %s
// RUN: %reference log %t/log
// RUN: graph-run %s --entry=log --quiet --input=@%t/log/x0.npy \
// RUN:   --expected-output=@%t/log/expected.npy --rtol=1e-5 --atol=1e-5 \
// RUN:   | FileCheck %s
// RUN: %reference sqrt %t/sqrt
// RUN: graph-run %s --entry=sqrt --quiet --input=@%t/sqrt/x0.npy \
// RUN:   --expected-output=@%t/sqrt/expected.npy --rtol=1e-5 --atol=1e-6 \
// RUN:   | FileCheck %s
// RUN: %reference rsqrt %t/rsqrt
// RUN: graph-run %s --entry=rsqrt --quiet --input=@%t/rsqrt/x0.npy \
// RUN:   --expected-output=@%t/rsqrt/expected.npy --rtol=1e-5 --atol=1e-6 \
// RUN:   | FileCheck %s
// RUN: %reference tanh %t/tanh
// RUN: graph-run %s --entry=tanh --quiet --input=@%t/tanh/x0.npy \
// RUN:   --expected-output=@%t/tanh/expected.npy --rtol=1e-5 --atol=1e-5 \
// RUN:   | FileCheck %s
// RUN: %reference sigmoid %t/sigmoid
// RUN: graph-run %s --entry=sigmoid --quiet --input=@%t/sigmoid/x0.npy \
// RUN:   --expected-output=@%t/sigmoid/expected.npy --rtol=1e-5 --atol=1e-5 \
// RUN:   | FileCheck %s
// RUN: %reference silu %t/silu
// RUN: graph-run %s --entry=silu --quiet --input=@%t/silu/x0.npy \
// RUN:   --expected-output=@%t/silu/expected.npy --rtol=1e-5 --atol=1e-5 \
// RUN:   | FileCheck %s
// RUN: %reference gelu %t/gelu
// RUN: graph-run %s --entry=gelu --quiet --input=@%t/gelu/x0.npy \
// RUN:   --expected-output=@%t/gelu/expected.npy --rtol=1e-5 --atol=1e-5 \
// RUN:   | FileCheck %s
// RUN: %reference gelu_tanh %t/gelu_tanh
// RUN: graph-run %s --entry=gelu_tanh --quiet --input=@%t/gelu_tanh/x0.npy \
// RUN:   --expected-output=@%t/gelu_tanh/expected.npy --rtol=1e-5 --atol=1e-5 \
// RUN:   | FileCheck %s

// CHECK: result 0: matches expected

func.func @neg(%x: tensor<3x37xf32>) -> tensor<3x37xf32> {
  %r = graph.neg %x : tensor<3x37xf32> -> tensor<3x37xf32>
  return %r : tensor<3x37xf32>
}

func.func @abs(%x: tensor<3x37xf32>) -> tensor<3x37xf32> {
  %r = graph.abs %x : tensor<3x37xf32> -> tensor<3x37xf32>
  return %r : tensor<3x37xf32>
}

func.func @relu(%x: tensor<3x37xf32>) -> tensor<3x37xf32> {
  %r = graph.relu %x : tensor<3x37xf32> -> tensor<3x37xf32>
  return %r : tensor<3x37xf32>
}

func.func @exp(%x: tensor<3x37xf32>) -> tensor<3x37xf32> {
  %r = graph.exp %x : tensor<3x37xf32> -> tensor<3x37xf32>
  return %r : tensor<3x37xf32>
}

func.func @log(%x: tensor<3x37xf32>) -> tensor<3x37xf32> {
  %r = graph.log %x : tensor<3x37xf32> -> tensor<3x37xf32>
  return %r : tensor<3x37xf32>
}

func.func @sqrt(%x: tensor<3x37xf32>) -> tensor<3x37xf32> {
  %r = graph.sqrt %x : tensor<3x37xf32> -> tensor<3x37xf32>
  return %r : tensor<3x37xf32>
}

func.func @rsqrt(%x: tensor<3x37xf32>) -> tensor<3x37xf32> {
  %r = graph.rsqrt %x : tensor<3x37xf32> -> tensor<3x37xf32>
  return %r : tensor<3x37xf32>
}

func.func @tanh(%x: tensor<3x37xf32>) -> tensor<3x37xf32> {
  %r = graph.tanh %x : tensor<3x37xf32> -> tensor<3x37xf32>
  return %r : tensor<3x37xf32>
}

func.func @sigmoid(%x: tensor<3x37xf32>) -> tensor<3x37xf32> {
  %r = graph.sigmoid %x : tensor<3x37xf32> -> tensor<3x37xf32>
  return %r : tensor<3x37xf32>
}

func.func @silu(%x: tensor<3x37xf32>) -> tensor<3x37xf32> {
  %r = graph.silu %x : tensor<3x37xf32> -> tensor<3x37xf32>
  return %r : tensor<3x37xf32>
}

func.func @gelu(%x: tensor<3x37xf32>) -> tensor<3x37xf32> {
  %r = graph.gelu %x : tensor<3x37xf32> -> tensor<3x37xf32>
  return %r : tensor<3x37xf32>
}

func.func @gelu_tanh(%x: tensor<3x37xf32>) -> tensor<3x37xf32> {
  %r = graph.gelu %x approximate = tanh : tensor<3x37xf32> -> tensor<3x37xf32>
  return %r : tensor<3x37xf32>
}
