// RUN: rm -rf %t && mkdir -p %t

// graph.bitwise_and/or/xor (i32 with broadcasting, ui8) and
// graph.shift_left/shift_right (i32, i8, ui16, i64), checked exactly
// against Python-integer arithmetic wrapped to the type
// (test/lib/reference.py, bits_of): right shifts of signed types are
// arithmetic, of unsigned ones logical; an amount that is negative or at
// least the bit width gives 0, or -1 for a right shift of a negative value.
// Also with --vectorize=0 (scalar loops) and through CUDA emulation
// (test/Integration/cuda-emulate.test reruns these commands).

// RUN: %reference bitwise_ops %t/bitwise_ops
// RUN: graph-run %s --entry=bitwise_ops --quiet \
// RUN:   --input=@%t/bitwise_ops/x0.npy --input=@%t/bitwise_ops/x1.npy \
// RUN:   --input=@%t/bitwise_ops/x2.npy --input=@%t/bitwise_ops/x3.npy \
// RUN:   --expected-output=@%t/bitwise_ops/expected.npy \
// RUN:   --expected-output=@%t/bitwise_ops/expected1.npy \
// RUN:   --expected-output=@%t/bitwise_ops/expected2.npy \
// RUN:   --expected-output=@%t/bitwise_ops/expected3.npy \
// RUN:   --expected-output=@%t/bitwise_ops/expected4.npy \
// RUN:   --expected-output=@%t/bitwise_ops/expected5.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=SIX
// RUN: %reference shifts %t/shifts
// RUN: graph-run %s --entry=shifts --quiet \
// RUN:   --input=@%t/shifts/x0.npy --input=@%t/shifts/x1.npy \
// RUN:   --input=@%t/shifts/x2.npy --input=@%t/shifts/x3.npy \
// RUN:   --input=@%t/shifts/x4.npy --input=@%t/shifts/x5.npy \
// RUN:   --input=@%t/shifts/x6.npy --input=@%t/shifts/x7.npy \
// RUN:   --expected-output=@%t/shifts/expected.npy \
// RUN:   --expected-output=@%t/shifts/expected1.npy \
// RUN:   --expected-output=@%t/shifts/expected2.npy \
// RUN:   --expected-output=@%t/shifts/expected3.npy \
// RUN:   --expected-output=@%t/shifts/expected4.npy \
// RUN:   --expected-output=@%t/shifts/expected5.npy \
// RUN:   --expected-output=@%t/shifts/expected6.npy \
// RUN:   --expected-output=@%t/shifts/expected7.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=EIGHT
// RUN: graph-run %s --entry=shifts --quiet --vectorize=0 \
// RUN:   --input=@%t/shifts/x0.npy --input=@%t/shifts/x1.npy \
// RUN:   --input=@%t/shifts/x2.npy --input=@%t/shifts/x3.npy \
// RUN:   --input=@%t/shifts/x4.npy --input=@%t/shifts/x5.npy \
// RUN:   --input=@%t/shifts/x6.npy --input=@%t/shifts/x7.npy \
// RUN:   --expected-output=@%t/shifts/expected.npy \
// RUN:   --expected-output=@%t/shifts/expected1.npy \
// RUN:   --expected-output=@%t/shifts/expected2.npy \
// RUN:   --expected-output=@%t/shifts/expected3.npy \
// RUN:   --expected-output=@%t/shifts/expected4.npy \
// RUN:   --expected-output=@%t/shifts/expected5.npy \
// RUN:   --expected-output=@%t/shifts/expected6.npy \
// RUN:   --expected-output=@%t/shifts/expected7.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=EIGHT

// SIX-COUNT-6: matches expected
// EIGHT-COUNT-8: matches expected

func.func @bitwise_ops(%x: tensor<2x8xi32>, %y: tensor<8xi32>, %u: tensor<8xui8>, %v: tensor<8xui8>)
    -> (tensor<2x8xi32>, tensor<2x8xi32>, tensor<2x8xi32>, tensor<8xui8>, tensor<8xui8>, tensor<8xui8>) {
  %0 = graph.bitwise_and %x, %y : tensor<2x8xi32>, tensor<8xi32> -> tensor<2x8xi32>
  %1 = graph.bitwise_or %x, %y : tensor<2x8xi32>, tensor<8xi32> -> tensor<2x8xi32>
  %2 = graph.bitwise_xor %x, %y : tensor<2x8xi32>, tensor<8xi32> -> tensor<2x8xi32>
  %3 = graph.bitwise_and %u, %v : tensor<8xui8>, tensor<8xui8> -> tensor<8xui8>
  %4 = graph.bitwise_or %u, %v : tensor<8xui8>, tensor<8xui8> -> tensor<8xui8>
  %5 = graph.bitwise_xor %u, %v : tensor<8xui8>, tensor<8xui8> -> tensor<8xui8>
  return %0, %1, %2, %3, %4, %5 : tensor<2x8xi32>, tensor<2x8xi32>, tensor<2x8xi32>, tensor<8xui8>, tensor<8xui8>, tensor<8xui8>
}

func.func @shifts(%x: tensor<12xi32>, %n: tensor<12xi32>, %b: tensor<8xi8>, %m: tensor<8xi8>,
                  %h: tensor<8xui16>, %k: tensor<8xui16>, %w: tensor<8xi64>, %j: tensor<8xi64>)
    -> (tensor<12xi32>, tensor<12xi32>, tensor<8xi8>, tensor<8xi8>, tensor<8xui16>, tensor<8xui16>, tensor<8xi64>, tensor<8xi64>) {
  %0 = graph.shift_left %x, %n : tensor<12xi32>, tensor<12xi32> -> tensor<12xi32>
  %1 = graph.shift_right %x, %n : tensor<12xi32>, tensor<12xi32> -> tensor<12xi32>
  %2 = graph.shift_left %b, %m : tensor<8xi8>, tensor<8xi8> -> tensor<8xi8>
  %3 = graph.shift_right %b, %m : tensor<8xi8>, tensor<8xi8> -> tensor<8xi8>
  %4 = graph.shift_left %h, %k : tensor<8xui16>, tensor<8xui16> -> tensor<8xui16>
  %5 = graph.shift_right %h, %k : tensor<8xui16>, tensor<8xui16> -> tensor<8xui16>
  %6 = graph.shift_left %w, %j : tensor<8xi64>, tensor<8xi64> -> tensor<8xi64>
  %7 = graph.shift_right %w, %j : tensor<8xi64>, tensor<8xi64> -> tensor<8xi64>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<12xi32>, tensor<12xi32>, tensor<8xi8>, tensor<8xi8>, tensor<8xui16>, tensor<8xui16>, tensor<8xi64>, tensor<8xi64>
}
