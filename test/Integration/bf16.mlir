// RUN: rm -rf %t && mkdir -p %t

// bf16 programs. NumPy has no bf16, so the inputs are f32 .npy files cast
// to bf16 in the program; the NumPy reference (test/lib/reference.py)
// rounds them to bf16 the same way (nearest even), computes in f32 as the
// lowering does, and rounds the results to bf16 (stored in f32 files, which
// graph-run converts to the result type before comparing).
//
// Tolerance rtol 1e-2: one bf16 ulp is 2^-7 ~ 7.8e-3 of the value at most,
// and a value near a halfway point may round either way. atol 1e-5 covers
// results near zero.

// RUN: %reference bf16_ops %t/bf16_ops
// RUN: graph-run %s --entry=bf16_ops --quiet \
// RUN:   --input=@%t/bf16_ops/x0.npy --input=@%t/bf16_ops/x1.npy \
// RUN:   --expected-output=@%t/bf16_ops/expected.npy \
// RUN:   --expected-output=@%t/bf16_ops/expected1.npy \
// RUN:   --expected-output=@%t/bf16_ops/expected2.npy \
// RUN:   --expected-output=@%t/bf16_ops/expected3.npy \
// RUN:   --rtol=1e-2 --atol=1e-5 | FileCheck %s --check-prefix=FOUR
// RUN: %reference bf16_matmul_reduce %t/bf16_matmul_reduce
// RUN: graph-run %s --entry=bf16_matmul_reduce --quiet \
// RUN:   --input=@%t/bf16_matmul_reduce/x0.npy \
// RUN:   --input=@%t/bf16_matmul_reduce/x1.npy \
// RUN:   --expected-output=@%t/bf16_matmul_reduce/expected.npy \
// RUN:   --expected-output=@%t/bf16_matmul_reduce/expected1.npy \
// RUN:   --rtol=1e-2 --atol=1e-5 | FileCheck %s --check-prefix=TWO

// bf16 literal inputs (hand-checked: every value is exact in bf16).
// RUN: graph-run %s --entry=bf16_literal --quiet \
// RUN:   --input=4xbf16=1,-2.5,8,0.0078125 --input=bf16=0.5 \
// RUN:   --expected-output=4xbf16=1.5,-2,8.5,0.5078125 \
// RUN:   --expected-output=4xf32=0.5,-1.25,4,0.00390625 \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=TWO

// TWO: result 0: matches expected
// TWO: result 1: matches expected

// FOUR: result 0: matches expected
// FOUR: result 1: matches expected
// FOUR: result 2: matches expected
// FOUR: result 3: matches expected

func.func @bf16_ops(%x: tensor<4x8xf32>, %y: tensor<8xf32>)
    -> (tensor<4x8xbf16>, tensor<4x8xbf16>, tensor<4x8xbf16>, tensor<4x8xbf16>) {
  %a = graph.cast %x : tensor<4x8xf32> -> tensor<4x8xbf16>
  %b = graph.cast %y : tensor<8xf32> -> tensor<8xbf16>
  %0 = graph.add %a, %b : tensor<4x8xbf16>, tensor<8xbf16> -> tensor<4x8xbf16>
  %1 = graph.mul %a, %b : tensor<4x8xbf16>, tensor<8xbf16> -> tensor<4x8xbf16>
  %2 = graph.exp %a : tensor<4x8xbf16> -> tensor<4x8xbf16>
  %3 = graph.div %a, %b : tensor<4x8xbf16>, tensor<8xbf16> -> tensor<4x8xbf16>
  return %0, %1, %2, %3 : tensor<4x8xbf16>, tensor<4x8xbf16>, tensor<4x8xbf16>, tensor<4x8xbf16>
}

func.func @bf16_matmul_reduce(%x: tensor<8x16xf32>, %y: tensor<16x4xf32>)
    -> (tensor<8x4xbf16>, tensor<8xbf16>) {
  %a = graph.cast %x : tensor<8x16xf32> -> tensor<8x16xbf16>
  %b = graph.cast %y : tensor<16x4xf32> -> tensor<16x4xbf16>
  %0 = graph.matmul %a, %b : tensor<8x16xbf16>, tensor<16x4xbf16> -> tensor<8x4xbf16>
  %1 = graph.reduce sum %a axes = [1] : tensor<8x16xbf16> -> tensor<8xbf16>
  return %0, %1 : tensor<8x4xbf16>, tensor<8xbf16>
}

// x + s and (x * s) cast to f32.
func.func @bf16_literal(%x: tensor<4xbf16>, %s: tensor<bf16>) -> (tensor<4xbf16>, tensor<4xf32>) {
  %0 = graph.add %x, %s : tensor<4xbf16>, tensor<bf16> -> tensor<4xbf16>
  %1 = graph.mul %x, %s : tensor<4xbf16>, tensor<bf16> -> tensor<4xbf16>
  %2 = graph.cast %1 : tensor<4xbf16> -> tensor<4xf32>
  return %0, %2 : tensor<4xbf16>, tensor<4xf32>
}
