// RUN: rm -rf %t && mkdir -p %t

// Integer arithmetic, checked exactly against exact Python-integer
// arithmetic wrapped to the type (test/lib/reference.py):
//  * i32 add, sub, mul wrap (INT_MAX + 1 = INT_MIN, 65536 * 65537);
//  * div truncates toward zero (-7 / 2 = -3), x / 0 = 0 and
//    INT_MIN / -1 = INT_MIN (wrapping), as graph-to-linalg defines them;
//  * neg, abs (INT_MIN stays INT_MIN), relu, max, min;
//  * i64 with values beyond the i32 range (all exactly representable as
//    doubles, which is how graph-run compares), incl. INT64_MIN / -1.

// RUN: %reference i32_arith %t/i32_arith
// RUN: graph-run %s --entry=i32_arith --quiet \
// RUN:   --input=@%t/i32_arith/x0.npy --input=@%t/i32_arith/x1.npy \
// RUN:   --expected-output=@%t/i32_arith/expected.npy \
// RUN:   --expected-output=@%t/i32_arith/expected1.npy \
// RUN:   --expected-output=@%t/i32_arith/expected2.npy \
// RUN:   --expected-output=@%t/i32_arith/expected3.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=FOUR
// RUN: %reference i32_div_zero %t/i32_div_zero
// RUN: graph-run %s --entry=i32_div_zero --quiet \
// RUN:   --input=@%t/i32_div_zero/x0.npy --input=@%t/i32_div_zero/x1.npy \
// RUN:   --expected-output=@%t/i32_div_zero/expected.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s
// RUN: %reference i32_unary %t/i32_unary
// RUN: graph-run %s --entry=i32_unary --quiet \
// RUN:   --input=@%t/i32_unary/x0.npy --input=@%t/i32_unary/x1.npy \
// RUN:   --expected-output=@%t/i32_unary/expected.npy \
// RUN:   --expected-output=@%t/i32_unary/expected1.npy \
// RUN:   --expected-output=@%t/i32_unary/expected2.npy \
// RUN:   --expected-output=@%t/i32_unary/expected3.npy \
// RUN:   --expected-output=@%t/i32_unary/expected4.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=FIVE
// RUN: %reference i64_arith %t/i64_arith
// RUN: graph-run %s --entry=i64_arith --quiet \
// RUN:   --input=@%t/i64_arith/x0.npy --input=@%t/i64_arith/x1.npy \
// RUN:   --expected-output=@%t/i64_arith/expected.npy \
// RUN:   --expected-output=@%t/i64_arith/expected1.npy \
// RUN:   --expected-output=@%t/i64_arith/expected2.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=THREE

// CHECK: result 0: matches expected

// THREE: result 0: matches expected
// THREE: result 1: matches expected
// THREE: result 2: matches expected

// FOUR: result 0: matches expected
// FOUR: result 1: matches expected
// FOUR: result 2: matches expected
// FOUR: result 3: matches expected

// FIVE: result 0: matches expected
// FIVE: result 1: matches expected
// FIVE: result 2: matches expected
// FIVE: result 3: matches expected
// FIVE: result 4: matches expected

func.func @i32_arith(%a: tensor<22xi32>, %b: tensor<22xi32>)
    -> (tensor<22xi32>, tensor<22xi32>, tensor<22xi32>, tensor<22xi32>) {
  %0 = graph.add %a, %b : tensor<22xi32>, tensor<22xi32> -> tensor<22xi32>
  %1 = graph.sub %a, %b : tensor<22xi32>, tensor<22xi32> -> tensor<22xi32>
  %2 = graph.mul %a, %b : tensor<22xi32>, tensor<22xi32> -> tensor<22xi32>
  %3 = graph.div %a, %b : tensor<22xi32>, tensor<22xi32> -> tensor<22xi32>
  return %0, %1, %2, %3 : tensor<22xi32>, tensor<22xi32>, tensor<22xi32>, tensor<22xi32>
}

// Rows of the divisor: 0, -1, 3 (broadcast along the row).
func.func @i32_div_zero(%a: tensor<6xi32>, %b: tensor<3x1xi32>) -> tensor<3x6xi32> {
  %0 = graph.div %a, %b : tensor<6xi32>, tensor<3x1xi32> -> tensor<3x6xi32>
  return %0 : tensor<3x6xi32>
}

func.func @i32_unary(%a: tensor<14xi32>, %b: tensor<14xi32>)
    -> (tensor<14xi32>, tensor<14xi32>, tensor<14xi32>, tensor<14xi32>, tensor<14xi32>) {
  %0 = graph.neg %a : tensor<14xi32> -> tensor<14xi32>
  %1 = graph.abs %a : tensor<14xi32> -> tensor<14xi32>
  %2 = graph.relu %a : tensor<14xi32> -> tensor<14xi32>
  %3 = graph.max %a, %b : tensor<14xi32>, tensor<14xi32> -> tensor<14xi32>
  %4 = graph.min %a, %b : tensor<14xi32>, tensor<14xi32> -> tensor<14xi32>
  return %0, %1, %2, %3, %4 : tensor<14xi32>, tensor<14xi32>, tensor<14xi32>, tensor<14xi32>, tensor<14xi32>
}

func.func @i64_arith(%a: tensor<14xi64>, %b: tensor<14xi64>)
    -> (tensor<14xi64>, tensor<14xi64>, tensor<14xi64>) {
  %0 = graph.add %a, %b : tensor<14xi64>, tensor<14xi64> -> tensor<14xi64>
  %1 = graph.mul %a, %b : tensor<14xi64>, tensor<14xi64> -> tensor<14xi64>
  %2 = graph.div %a, %b : tensor<14xi64>, tensor<14xi64> -> tensor<14xi64>
  return %0, %1, %2 : tensor<14xi64>, tensor<14xi64>, tensor<14xi64>
}
