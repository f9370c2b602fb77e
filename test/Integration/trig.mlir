// RUN: rm -rf %t && mkdir -p %t
// RUN: %reference trig %t

// graph.sin ... graph.atanh (libm's functions on the CPU) against NumPy's
// float64 values of the same f32 inputs, rounded once to f32. libm's f32
// functions are within a few ulp, so rtol = 1e-5 and atol = 1e-6 (the
// results near a zero of sin, cos, tan, asin, atan, asinh, atanh).
// RUN: graph-run %s --quiet \
// RUN:   --input=@%t/x0.npy --input=@%t/x1.npy --input=@%t/x2.npy \
// RUN:   --expected-output=@%t/expected.npy --expected-output=@%t/expected1.npy \
// RUN:   --expected-output=@%t/expected2.npy --expected-output=@%t/expected3.npy \
// RUN:   --expected-output=@%t/expected4.npy --expected-output=@%t/expected5.npy \
// RUN:   --expected-output=@%t/expected6.npy --expected-output=@%t/expected7.npy \
// RUN:   --expected-output=@%t/expected8.npy --expected-output=@%t/expected9.npy \
// RUN:   --expected-output=@%t/expected10.npy --rtol=1e-5 --atol=1e-6 | FileCheck %s
// CHECK-COUNT-11: matches expected

// Splat constants fold (ConstantEval: std::sin, ...), to values worked out
// by hand: sin(0) = 0, cosh(0) = 1, atan(1) = pi/4.
// RUN: graph-opt %s --canonicalize | FileCheck %s --check-prefix=FOLD
// FOLD-LABEL: func.func @folded
// FOLD-NEXT: graph.constant dense<0.000000e+00> : tensor<4xf32>
// FOLD-NEXT: graph.constant dense<1.000000e+00> : tensor<4xf32>
// FOLD-NEXT: graph.constant dense<0.785398185> : tensor<4xf32>

func.func @main(%a: tensor<37xf32>, %b: tensor<37xf32>, %c: tensor<37xf32>)
    -> (tensor<37xf32>, tensor<37xf32>, tensor<37xf32>, tensor<37xf32>,
        tensor<37xf32>, tensor<37xf32>, tensor<37xf32>, tensor<37xf32>,
        tensor<37xf32>, tensor<37xf32>, tensor<37xf32>) {
  %0 = graph.sin %c : tensor<37xf32> -> tensor<37xf32>
  %1 = graph.cos %c : tensor<37xf32> -> tensor<37xf32>
  %2 = graph.tan %c : tensor<37xf32> -> tensor<37xf32>
  %3 = graph.asin %a : tensor<37xf32> -> tensor<37xf32>
  %4 = graph.acos %a : tensor<37xf32> -> tensor<37xf32>
  %5 = graph.atan %c : tensor<37xf32> -> tensor<37xf32>
  %6 = graph.sinh %c : tensor<37xf32> -> tensor<37xf32>
  %7 = graph.cosh %c : tensor<37xf32> -> tensor<37xf32>
  %8 = graph.asinh %c : tensor<37xf32> -> tensor<37xf32>
  %9 = graph.acosh %b : tensor<37xf32> -> tensor<37xf32>
  %10 = graph.atanh %a : tensor<37xf32> -> tensor<37xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10
      : tensor<37xf32>, tensor<37xf32>, tensor<37xf32>, tensor<37xf32>,
        tensor<37xf32>, tensor<37xf32>, tensor<37xf32>, tensor<37xf32>,
        tensor<37xf32>, tensor<37xf32>, tensor<37xf32>
}

func.func @folded() -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %z = graph.constant dense<0.0> : tensor<4xf32>
  %o = graph.constant dense<1.0> : tensor<4xf32>
  %0 = graph.sin %z : tensor<4xf32> -> tensor<4xf32>
  %1 = graph.cosh %z : tensor<4xf32> -> tensor<4xf32>
  %2 = graph.atan %o : tensor<4xf32> -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
