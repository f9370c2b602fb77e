// RUN: rm -rf %t && mkdir -p %t

// Elementwise ops of the second op set (erf, hardswish, hardsigmoid,
// leaky_relu, clamp), checked against NumPy (test/lib/reference.py: math.erf,
// PyTorch's formulas relu6(x + 3) / 6 and x * relu6(x + 3) / 6, NaN passing
// through leaky_relu and clamp).
// Tolerances: rtol = atol = 1e-6. erf is a polynomial approximation good to a
// few ulp (values in [-1, 1]); hardswish/hardsigmoid are computed as
// x * (1/6) + 0.5, one rounding away from (x + 3) / 6. Integer clamp is exact.

// erf on [-4, 4), at 0, -0, 1e-8, and in the saturated tails.
// RUN: %reference erf %t/erf
// RUN: graph-run %s --entry=erf --quiet \
// RUN:   --input=@%t/erf/x0.npy --expected-output=@%t/erf/expected.npy \
// RUN:   --rtol=1e-6 --atol=1e-6 | FileCheck %s --check-prefix=ONE

// hardswish and hardsigmoid on [-6, 6) and at the kinks -3 and 3.
// RUN: %reference hardswish %t/hardswish
// RUN: graph-run %s --entry=hardswish --quiet \
// RUN:   --input=@%t/hardswish/x0.npy --expected-output=@%t/hardswish/expected.npy \
// RUN:   --rtol=1e-6 --atol=1e-6 | FileCheck %s --check-prefix=ONE
// RUN: %reference hardsigmoid %t/hardsigmoid
// RUN: graph-run %s --entry=hardsigmoid --quiet \
// RUN:   --input=@%t/hardsigmoid/x0.npy --expected-output=@%t/hardsigmoid/expected.npy \
// RUN:   --rtol=1e-6 --atol=1e-6 | FileCheck %s --check-prefix=ONE

// leaky_relu with the default alpha (0.01) and alpha = 0.2, with NaN,
// -inf and -0.
// RUN: %reference leaky_relu %t/leaky_relu
// RUN: graph-run %s --entry=leaky_relu --quiet \
// RUN:   --input=@%t/leaky_relu/x0.npy --expected-output=@%t/leaky_relu/expected.npy \
// RUN:   --expected-output=@%t/leaky_relu/expected1.npy \
// RUN:   --rtol=1e-6 --atol=1e-6 | FileCheck %s --check-prefix=TWO

// clamp on f32 to [0, 6], [-1.5, inf) and (-inf, 2.25], with NaN and
// infinities; on i32 and i64, where the f64 bounds round toward the range
// (ceil(min), floor(max): [-2.5, 3.7] is [-2, 3]) and saturate to the type
// (min = -1e10 on i32 is INT32_MIN).
// RUN: %reference clamp_f32 %t/clamp_f32
// RUN: graph-run %s --entry=clamp_f32 --quiet \
// RUN:   --input=@%t/clamp_f32/x0.npy --expected-output=@%t/clamp_f32/expected.npy \
// RUN:   --expected-output=@%t/clamp_f32/expected1.npy --expected-output=@%t/clamp_f32/expected2.npy \
// RUN:   --rtol=1e-6 --atol=1e-6 | FileCheck %s --check-prefix=THREE
// RUN: %reference clamp_int %t/clamp_int
// RUN: graph-run %s --entry=clamp_int --quiet \
// RUN:   --input=@%t/clamp_int/x0.npy --input=@%t/clamp_int/x1.npy \
// RUN:   --expected-output=@%t/clamp_int/expected.npy --expected-output=@%t/clamp_int/expected1.npy \
// RUN:   --expected-output=@%t/clamp_int/expected2.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=THREE

// ONE: result 0: matches expected

// TWO: result 0: matches expected
// TWO: result 1: matches expected

// THREE: result 0: matches expected
// THREE: result 1: matches expected
// THREE: result 2: matches expected

func.func @erf(%x: tensor<3x32xf32>) -> tensor<3x32xf32> {
  %r = graph.erf %x : tensor<3x32xf32> -> tensor<3x32xf32>
  return %r : tensor<3x32xf32>
}

func.func @hardswish(%x: tensor<37xf32>) -> tensor<37xf32> {
  %r = graph.hardswish %x : tensor<37xf32> -> tensor<37xf32>
  return %r : tensor<37xf32>
}

func.func @hardsigmoid(%x: tensor<37xf32>) -> tensor<37xf32> {
  %r = graph.hardsigmoid %x : tensor<37xf32> -> tensor<37xf32>
  return %r : tensor<37xf32>
}

func.func @leaky_relu(%x: tensor<37xf32>) -> (tensor<37xf32>, tensor<37xf32>) {
  %a = graph.leaky_relu %x : tensor<37xf32> -> tensor<37xf32>
  %b = graph.leaky_relu %x {alpha = 0.2 : f64} : tensor<37xf32> -> tensor<37xf32>
  return %a, %b : tensor<37xf32>, tensor<37xf32>
}

func.func @clamp_f32(%x: tensor<37xf32>) -> (tensor<37xf32>, tensor<37xf32>, tensor<37xf32>) {
  %a = graph.clamp %x {min = 0.0 : f64, max = 6.0 : f64} : tensor<37xf32> -> tensor<37xf32>
  %b = graph.clamp %x {min = -1.5 : f64} : tensor<37xf32> -> tensor<37xf32>
  %c = graph.clamp %x {max = 2.25 : f64} : tensor<37xf32> -> tensor<37xf32>
  return %a, %b, %c : tensor<37xf32>, tensor<37xf32>, tensor<37xf32>
}

func.func @clamp_int(%x: tensor<18xi32>, %y: tensor<6xi64>) -> (tensor<18xi32>, tensor<18xi32>, tensor<6xi64>) {
  %a = graph.clamp %x {min = -2.5 : f64, max = 3.7 : f64} : tensor<18xi32> -> tensor<18xi32>
  %b = graph.clamp %x {min = -1.0e10 : f64} : tensor<18xi32> -> tensor<18xi32>
  %c = graph.clamp %y {min = -3.0 : f64, max = 34359738368.0 : f64} : tensor<6xi64> -> tensor<6xi64>
  return %a, %b, %c : tensor<18xi32>, tensor<18xi32>, tensor<6xi64>
}
