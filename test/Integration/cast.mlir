// RUN: rm -rf %t && mkdir -p %t

// graph.cast between element types, checked exactly (rtol = atol = 0)
// against NumPy (test/lib/reference.py):
//  * f32 -> i32 truncates toward zero (-2.999 -> -2), incl. +-2^31 range ends;
//  * i32 -> f32 rounds to nearest even (16777217 -> 16777216);
//  * f32 -> f16 rounds to nearest even, incl. f16 subnormals and ties, and
//    f32 -> f16 -> f32 is not folded away (it is not lossless);
//  * f32 -> bf16 -> f32 rounds to nearest even;
//  * -> i1 tests != 0 (-0.0 -> false, NaN -> true); i1 -> f32/i32 gives 0/1;
//  * i32 -> i64 sign-extends; i64 -> i32 keeps the low 32 bits.

// RUN: %reference cast_f32_i32 %t/cast_f32_i32
// RUN: graph-run %s --entry=cast_f32_i32 --quiet \
// RUN:   --input=@%t/cast_f32_i32/x0.npy \
// RUN:   --expected-output=@%t/cast_f32_i32/expected.npy --rtol=0 --atol=0 \
// RUN:   | FileCheck %s
// RUN: %reference cast_i32_f32 %t/cast_i32_f32
// RUN: graph-run %s --entry=cast_i32_f32 --quiet \
// RUN:   --input=@%t/cast_i32_f32/x0.npy \
// RUN:   --expected-output=@%t/cast_i32_f32/expected.npy --rtol=0 --atol=0 \
// RUN:   | FileCheck %s
// RUN: %reference cast_f16_round_trip %t/cast_f16_round_trip
// RUN: graph-run %s --entry=cast_f16_round_trip --quiet \
// RUN:   --input=@%t/cast_f16_round_trip/x0.npy \
// RUN:   --expected-output=@%t/cast_f16_round_trip/expected.npy \
// RUN:   --expected-output=@%t/cast_f16_round_trip/expected1.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=TWO
// RUN: %reference cast_bf16_round_trip %t/cast_bf16_round_trip
// RUN: graph-run %s --entry=cast_bf16_round_trip --quiet \
// RUN:   --input=@%t/cast_bf16_round_trip/x0.npy \
// RUN:   --expected-output=@%t/cast_bf16_round_trip/expected.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s
// RUN: %reference cast_to_i1 %t/cast_to_i1
// RUN: graph-run %s --entry=cast_to_i1 --quiet \
// RUN:   --input=@%t/cast_to_i1/x0.npy --input=@%t/cast_to_i1/x1.npy \
// RUN:   --expected-output=@%t/cast_to_i1/expected.npy \
// RUN:   --expected-output=@%t/cast_to_i1/expected1.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=TWO
// RUN: %reference cast_from_i1 %t/cast_from_i1
// RUN: graph-run %s --entry=cast_from_i1 --quiet \
// RUN:   --input=@%t/cast_from_i1/x0.npy \
// RUN:   --expected-output=@%t/cast_from_i1/expected.npy \
// RUN:   --expected-output=@%t/cast_from_i1/expected1.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=TWO
// RUN: %reference cast_int_widths %t/cast_int_widths
// RUN: graph-run %s --entry=cast_int_widths --quiet \
// RUN:   --input=@%t/cast_int_widths/x0.npy --input=@%t/cast_int_widths/x1.npy \
// RUN:   --expected-output=@%t/cast_int_widths/expected.npy \
// RUN:   --expected-output=@%t/cast_int_widths/expected1.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=TWO

// CHECK: result 0: matches expected

// TWO: result 0: matches expected
// TWO: result 1: matches expected

func.func @cast_f32_i32(%x: tensor<32xf32>) -> tensor<32xi32> {
  %r = graph.cast %x : tensor<32xf32> -> tensor<32xi32>
  return %r : tensor<32xi32>
}

func.func @cast_i32_f32(%x: tensor<26xi32>) -> tensor<26xf32> {
  %r = graph.cast %x : tensor<26xi32> -> tensor<26xf32>
  return %r : tensor<26xf32>
}

func.func @cast_f16_round_trip(%x: tensor<37xf32>) -> (tensor<37xf16>, tensor<37xf32>) {
  %h = graph.cast %x : tensor<37xf32> -> tensor<37xf16>
  %r = graph.cast %h : tensor<37xf16> -> tensor<37xf32>
  return %h, %r : tensor<37xf16>, tensor<37xf32>
}

func.func @cast_bf16_round_trip(%x: tensor<25xf32>) -> tensor<25xf32> {
  %h = graph.cast %x : tensor<25xf32> -> tensor<25xbf16>
  %r = graph.cast %h : tensor<25xbf16> -> tensor<25xf32>
  return %r : tensor<25xf32>
}

func.func @cast_to_i1(%x: tensor<8xf32>, %y: tensor<8xi32>) -> (tensor<8xi1>, tensor<8xi1>) {
  %a = graph.cast %x : tensor<8xf32> -> tensor<8xi1>
  %b = graph.cast %y : tensor<8xi32> -> tensor<8xi1>
  return %a, %b : tensor<8xi1>, tensor<8xi1>
}

func.func @cast_from_i1(%x: tensor<9xi1>) -> (tensor<9xf32>, tensor<9xi32>) {
  %a = graph.cast %x : tensor<9xi1> -> tensor<9xf32>
  %b = graph.cast %x : tensor<9xi1> -> tensor<9xi32>
  return %a, %b : tensor<9xf32>, tensor<9xi32>
}

func.func @cast_int_widths(%x: tensor<13xi32>, %y: tensor<6xi64>) -> (tensor<13xi64>, tensor<6xi32>) {
  %a = graph.cast %x : tensor<13xi32> -> tensor<13xi64>
  %b = graph.cast %y : tensor<6xi64> -> tensor<6xi32>
  return %a, %b : tensor<13xi64>, tensor<6xi32>
}
