// RUN: rm -rf %t && mkdir -p %t

// f16 programs fed from f16 .npy files. graph-to-linalg computes f16 in f32
// (matmul and reductions accumulate in f32) and rounds each result to f16;
// the NumPy reference (test/lib/reference.py) does the same: f16 inputs
// widened to f32, f32 math, result rounded to f16.
//
// Tolerance rtol 1e-3: one f16 ulp is 2^-10 ~ 9.8e-4 of the value, and the
// two sides may round a value that lies near a halfway point differently
// (the f32 intermediate results differ in their last bits: different
// summation order, a polynomial exp). atol 1e-5 covers results near zero
// (gelu of negative x, whose formula cancels in f32: a few ulp of 1 + erf).

// RUN: %reference f16_ops %t/f16_ops
// RUN: graph-run %s --entry=f16_ops --quiet \
// RUN:   --input=@%t/f16_ops/x0.npy --input=@%t/f16_ops/x1.npy \
// RUN:   --expected-output=@%t/f16_ops/expected.npy \
// RUN:   --expected-output=@%t/f16_ops/expected1.npy \
// RUN:   --expected-output=@%t/f16_ops/expected2.npy \
// RUN:   --expected-output=@%t/f16_ops/expected3.npy \
// RUN:   --rtol=1e-3 --atol=1e-5 | FileCheck %s --check-prefix=FOUR
// RUN: %reference f16_matmul %t/f16_matmul
// RUN: graph-run %s --entry=f16_matmul --quiet \
// RUN:   --input=@%t/f16_matmul/x0.npy --input=@%t/f16_matmul/x1.npy \
// RUN:   --expected-output=@%t/f16_matmul/expected.npy \
// RUN:   --rtol=1e-3 --atol=1e-5 | FileCheck %s
// RUN: %reference f16_reduce_softmax %t/f16_reduce_softmax
// RUN: graph-run %s --entry=f16_reduce_softmax --quiet \
// RUN:   --input=@%t/f16_reduce_softmax/x0.npy \
// RUN:   --expected-output=@%t/f16_reduce_softmax/expected.npy \
// RUN:   --expected-output=@%t/f16_reduce_softmax/expected1.npy \
// RUN:   --expected-output=@%t/f16_reduce_softmax/expected2.npy \
// RUN:   --rtol=1e-3 --atol=1e-5 | FileCheck %s --check-prefix=THREE

// RUN: %reference f16_unary %t/f16_unary
// RUN: graph-run %s --entry=f16_unary --quiet \
// RUN:   --input=@%t/f16_unary/x0.npy \
// RUN:   --expected-output=@%t/f16_unary/expected.npy \
// RUN:   --expected-output=@%t/f16_unary/expected1.npy \
// RUN:   --expected-output=@%t/f16_unary/expected2.npy \
// RUN:   --rtol=1e-3 --atol=1e-5 | FileCheck %s --check-prefix=THREE

// CHECK: result 0: matches expected

// THREE: result 0: matches expected
// THREE: result 1: matches expected
// THREE: result 2: matches expected

// FOUR: result 0: matches expected
// FOUR: result 1: matches expected
// FOUR: result 2: matches expected
// FOUR: result 3: matches expected

func.func @f16_ops(%a: tensor<4x8xf16>, %b: tensor<8xf16>)
    -> (tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>) {
  %0 = graph.add %a, %b : tensor<4x8xf16>, tensor<8xf16> -> tensor<4x8xf16>
  %1 = graph.mul %a, %b : tensor<4x8xf16>, tensor<8xf16> -> tensor<4x8xf16>
  %2 = graph.exp %a : tensor<4x8xf16> -> tensor<4x8xf16>
  %3 = graph.div %a, %b : tensor<4x8xf16>, tensor<8xf16> -> tensor<4x8xf16>
  return %0, %1, %2, %3 : tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>
}

func.func @f16_matmul(%a: tensor<8x16xf16>, %b: tensor<16x4xf16>) -> tensor<8x4xf16> {
  %0 = graph.matmul %a, %b : tensor<8x16xf16>, tensor<16x4xf16> -> tensor<8x4xf16>
  return %0 : tensor<8x4xf16>
}

func.func @f16_reduce_softmax(%a: tensor<4x64xf16>) -> (tensor<4xf16>, tensor<4xf16>, tensor<4x64xf16>) {
  %0 = graph.reduce sum %a axes = [1] : tensor<4x64xf16> -> tensor<4xf16>
  %1 = graph.reduce mean %a axes = [1] : tensor<4x64xf16> -> tensor<4xf16>
  %2 = graph.softmax %a axis = 1 : tensor<4x64xf16> -> tensor<4x64xf16>
  return %0, %1, %2 : tensor<4xf16>, tensor<4xf16>, tensor<4x64xf16>
}

func.func @f16_unary(%a: tensor<3x37xf16>) -> (tensor<3x37xf16>, tensor<3x37xf16>, tensor<3x37xf16>) {
  %0 = graph.tanh %a : tensor<3x37xf16> -> tensor<3x37xf16>
  %1 = graph.sigmoid %a : tensor<3x37xf16> -> tensor<3x37xf16>
  %2 = graph.gelu %a : tensor<3x37xf16> -> tensor<3x37xf16>
  return %0, %1, %2 : tensor<3x37xf16>, tensor<3x37xf16>, tensor<3x37xf16>
}
