// RUN: graph-opt %s -graph-fold-constants -split-input-file | FileCheck %s
// RUN: graph-opt %s -graph-fold-constants="size-limit=4" -split-input-file | FileCheck %s --check-prefix=LIMIT
// RUN: graph-opt %s --pass-pipeline='builtin.module(func.func(graph-fold-constants{size-limit=4}))' -split-input-file | FileCheck %s --check-prefix=LIMIT

// Every expected value below was computed by hand from the op semantics, not
// copied from the pass's output.

// CHECK-LABEL: func.func @add_broadcast
// CHECK: %[[R:.+]] = graph.constant dense<{{\[}}[1.100000e+01, 1.200000e+01, 1.300000e+01], [2.100000e+01, 2.200000e+01, 2.300000e+01]]> : tensor<2x3xf32>
// CHECK-NOT: graph.add
// CHECK: return %[[R]]
// The 6-element result is over the limit of 4.
// LIMIT-LABEL: func.func @add_broadcast
// LIMIT: graph.add
func.func @add_broadcast() -> tensor<2x3xf32> {
  %a = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = graph.constant dense<[[10.0], [20.0]]> : tensor<2x1xf32>
  %0 = graph.add %a, %b : tensor<3xf32>, tensor<2x1xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A result of exactly size-limit elements is folded.
// CHECK-LABEL: func.func @sub_int
// CHECK: %[[R:.+]] = graph.constant dense<[4, -5, 4, 0]> : tensor<4xi32>
// CHECK: return %[[R]]
// LIMIT-LABEL: func.func @sub_int
// LIMIT: %[[R:.+]] = graph.constant dense<[4, -5, 4, 0]> : tensor<4xi32>
// LIMIT-NOT: graph.sub
// LIMIT: return %[[R]]
func.func @sub_int() -> tensor<4xi32> {
  %a = graph.constant dense<[5, -3, 7, 4]> : tensor<4xi32>
  %b = graph.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %0 = graph.sub %a, %b : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @mul_int_broadcast
// CHECK: %[[R:.+]] = graph.constant dense<{{\[}}[2, 3], [-2, -3]]> : tensor<2x2xi64>
// CHECK: return %[[R]]
func.func @mul_int_broadcast() -> tensor<2x2xi64> {
  %a = graph.constant dense<[2, 3]> : tensor<2xi64>
  %b = graph.constant dense<[[1], [-1]]> : tensor<2x1xi64>
  %0 = graph.mul %a, %b : tensor<2xi64>, tensor<2x1xi64> -> tensor<2x2xi64>
  return %0 : tensor<2x2xi64>
}

// -----

// Integer division truncates toward zero.
// CHECK-LABEL: func.func @div
// CHECK-DAG: %[[I:.+]] = graph.constant dense<[3, -3, -3, 3]> : tensor<4xi32>
// CHECK-DAG: %[[F:.+]] = graph.constant dense<[2.500000e-01, 3.750000e-01]> : tensor<2xf16>
// CHECK-NOT: graph.div
// CHECK: return %[[I]], %[[F]]
func.func @div() -> (tensor<4xi32>, tensor<2xf16>) {
  %a = graph.constant dense<[7, -7, 7, -7]> : tensor<4xi32>
  %b = graph.constant dense<[2, 2, -2, -2]> : tensor<4xi32>
  %0 = graph.div %a, %b : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %c = graph.constant dense<[1.0, 3.0]> : tensor<2xf16>
  %d = graph.constant dense<[4.0, 8.0]> : tensor<2xf16>
  %1 = graph.div %c, %d : tensor<2xf16>, tensor<2xf16> -> tensor<2xf16>
  return %0, %1 : tensor<4xi32>, tensor<2xf16>
}

// -----

// max and min propagate NaN.
// CHECK-LABEL: func.func @max_min
// CHECK-DAG: %[[MAX:.+]] = graph.constant dense<[1.000000e+00, 0x7FC00000, -2.000000e+00]> : tensor<3xf32>
// CHECK-DAG: %[[MIN:.+]] = graph.constant dense<[0.000000e+00, 0x7FC00000, -3.000000e+00]> : tensor<3xf32>
// CHECK-DAG: %[[IMAX:.+]] = graph.constant dense<[5, -1]> : tensor<2xi64>
// CHECK-NOT: graph.max
// CHECK-NOT: graph.min
// CHECK: return %[[MAX]], %[[MIN]], %[[IMAX]]
func.func @max_min() -> (tensor<3xf32>, tensor<3xf32>, tensor<2xi64>) {
  %a = graph.constant dense<[1.0, 0x7FC00000, -2.0]> : tensor<3xf32>
  %b = graph.constant dense<[0.0, 5.0, -3.0]> : tensor<3xf32>
  %0 = graph.max %a, %b : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  %1 = graph.min %a, %b : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  %c = graph.constant dense<[5, -7]> : tensor<2xi64>
  %d = graph.constant dense<[-9, -1]> : tensor<2xi64>
  %2 = graph.max %c, %d : tensor<2xi64>, tensor<2xi64> -> tensor<2xi64>
  return %0, %1, %2 : tensor<3xf32>, tensor<3xf32>, tensor<2xi64>
}

// -----

// Integer arithmetic wraps and division never traps: x / 0 = 0,
// INT_MIN / -1 = INT_MIN; neg and abs of INT_MIN are INT_MIN.
// CHECK-LABEL: func.func @integer_edges
// CHECK-DAG: %[[DIV:.+]] = graph.constant dense<[0, 0, -2147483648, -5]> : tensor<4xi32>
// CHECK-DAG: %[[LDIV:.+]] = graph.constant dense<[-9223372036854775808, 3]> : tensor<2xi64>
// CHECK-DAG: %[[ADD:.+]] = graph.constant dense<[-2147483648, 2147483647]> : tensor<2xi32>
// CHECK-DAG: %[[MUL:.+]] = graph.constant dense<[0, -9223372036854775808]> : tensor<2xi64>
// CHECK-DAG: %[[NEG:.+]] = graph.constant dense<[-2147483648, -1]> : tensor<2xi32>
// CHECK-DAG: %[[ABS:.+]] = graph.constant dense<[-2147483648, 1]> : tensor<2xi32>
// CHECK-NOT: graph.div
// CHECK-NOT: graph.add
// CHECK-NOT: graph.mul
// CHECK-NOT: graph.neg
// CHECK-NOT: graph.abs
// CHECK: return %[[DIV]], %[[LDIV]], %[[ADD]], %[[MUL]], %[[NEG]], %[[ABS]]
func.func @integer_edges() -> (tensor<4xi32>, tensor<2xi64>, tensor<2xi32>, tensor<2xi64>, tensor<2xi32>, tensor<2xi32>) {
  %a = graph.constant dense<[7, -7, -2147483648, 5]> : tensor<4xi32>
  %b = graph.constant dense<[0, 0, -1, -1]> : tensor<4xi32>
  %0 = graph.div %a, %b : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %la = graph.constant dense<[-9223372036854775808, -9]> : tensor<2xi64>
  %lc = graph.constant dense<[-1, -3]> : tensor<2xi64>
  %1 = graph.div %la, %lc : tensor<2xi64>, tensor<2xi64> -> tensor<2xi64>
  // 2147483647 + 1 wraps; -2147483648 + -1 wraps the other way.
  %c = graph.constant dense<[2147483647, -2147483648]> : tensor<2xi32>
  %d = graph.constant dense<[1, -1]> : tensor<2xi32>
  %2 = graph.add %c, %d : tensor<2xi32>, tensor<2xi32> -> tensor<2xi32>
  // 2^62 * 2 = 2^63 wraps to INT64_MIN.
  %e = graph.constant dense<[0, 4611686018427387904]> : tensor<2xi64>
  %f = graph.constant dense<[5, 2]> : tensor<2xi64>
  %3 = graph.mul %e, %f : tensor<2xi64>, tensor<2xi64> -> tensor<2xi64>
  %g = graph.constant dense<[-2147483648, 1]> : tensor<2xi32>
  %4 = graph.neg %g : tensor<2xi32> -> tensor<2xi32>
  %5 = graph.abs %g : tensor<2xi32> -> tensor<2xi32>
  return %0, %1, %2, %3, %4, %5 : tensor<4xi32>, tensor<2xi64>, tensor<2xi32>, tensor<2xi64>, tensor<2xi32>, tensor<2xi32>
}

// -----

// max and min order -0.0 below +0.0, as arith.maximumf/minimumf do.
// CHECK-LABEL: func.func @max_min_signed_zero
// CHECK-DAG: %[[MAX:.+]] = graph.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-DAG: %[[MIN:.+]] = graph.constant dense<-0.000000e+00> : tensor<2xf32>
// CHECK: return %[[MAX]], %[[MIN]]
func.func @max_min_signed_zero() -> (tensor<2xf32>, tensor<2xf32>) {
  %a = graph.constant dense<[-0.0, 0.0]> : tensor<2xf32>
  %b = graph.constant dense<[0.0, -0.0]> : tensor<2xf32>
  %0 = graph.max %a, %b : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  %1 = graph.min %a, %b : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @pow
// CHECK: %[[R:.+]] = graph.constant dense<[8.000000e+00, 9.000000e+00, 5.000000e-01]> : tensor<3xbf16>
// CHECK: return %[[R]]
func.func @pow() -> tensor<3xbf16> {
  %a = graph.constant dense<[2.0, 3.0, 4.0]> : tensor<3xbf16>
  %b = graph.constant dense<[3.0, 2.0, -0.5]> : tensor<3xbf16>
  %0 = graph.pow %a, %b : tensor<3xbf16>, tensor<3xbf16> -> tensor<3xbf16>
  return %0 : tensor<3xbf16>
}

// -----

// CHECK-LABEL: func.func @unary_int
// CHECK-DAG: %[[NEG:.+]] = graph.constant dense<[2, 0, -5]> : tensor<3xi32>
// CHECK-DAG: %[[ABS:.+]] = graph.constant dense<[2, 0, 5]> : tensor<3xi32>
// CHECK-DAG: %[[RELU:.+]] = graph.constant dense<[0, 0, 5]> : tensor<3xi32>
// CHECK-NOT: graph.neg
// CHECK-NOT: graph.abs
// CHECK-NOT: graph.relu
// CHECK: return %[[NEG]], %[[ABS]], %[[RELU]]
func.func @unary_int() -> (tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) {
  %x = graph.constant dense<[-2, 0, 5]> : tensor<3xi32>
  %0 = graph.neg %x : tensor<3xi32> -> tensor<3xi32>
  %1 = graph.abs %x : tensor<3xi32> -> tensor<3xi32>
  %2 = graph.relu %x : tensor<3xi32> -> tensor<3xi32>
  return %0, %1, %2 : tensor<3xi32>, tensor<3xi32>, tensor<3xi32>
}

// -----

// CHECK-LABEL: func.func @unary_float_exact
// CHECK-DAG: %[[SQRT:.+]] = graph.constant dense<[2.000000e+00, 3.000000e+00, 5.000000e-01]> : tensor<3xf32>
// CHECK-DAG: %[[RSQRT:.+]] = graph.constant dense<[5.000000e-01, 2.000000e+00, 2.500000e-01]> : tensor<3xf32>
// CHECK-DAG: %[[RELU:.+]] = graph.constant dense<[0.000000e+00, 0.000000e+00, 2.500000e+00]> : tensor<3xf32>
// CHECK-DAG: %[[ABS:.+]] = graph.constant dense<[1.500000e+00, 2.000000e+00]> : tensor<2xf16>
// CHECK-DAG: %[[NEG:.+]] = graph.constant dense<[-1.500000e+00, 2.000000e+00]> : tensor<2xbf16>
// CHECK: return %[[SQRT]], %[[RSQRT]], %[[RELU]], %[[ABS]], %[[NEG]]
func.func @unary_float_exact() -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2xf16>, tensor<2xbf16>) {
  %a = graph.constant dense<[4.0, 9.0, 0.25]> : tensor<3xf32>
  %0 = graph.sqrt %a : tensor<3xf32> -> tensor<3xf32>
  %b = graph.constant dense<[4.0, 0.25, 16.0]> : tensor<3xf32>
  %1 = graph.rsqrt %b : tensor<3xf32> -> tensor<3xf32>
  %c = graph.constant dense<[-1.5, 0.0, 2.5]> : tensor<3xf32>
  %2 = graph.relu %c : tensor<3xf32> -> tensor<3xf32>
  %d = graph.constant dense<[-1.5, 2.0]> : tensor<2xf16>
  %3 = graph.abs %d : tensor<2xf16> -> tensor<2xf16>
  %e = graph.constant dense<[1.5, -2.0]> : tensor<2xbf16>
  %4 = graph.neg %e : tensor<2xbf16> -> tensor<2xbf16>
  return %0, %1, %2, %3, %4 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2xf16>, tensor<2xbf16>
}

// -----

// Transcendental results rounded to f16 (spacing 2^-11 in [0.5, 1) and 2^-9
// in [2, 4)): exp(1) = 2.71828 -> 2.71875, ln 2 = 0.693147 -> 0.693359375,
// tanh(1) = 0.761594 -> 0.76171875, sigmoid(2) = 0.880797 -> 0.880859375,
// silu(1) = sigmoid(1) = 0.731059 -> 0.73095703125.
// CHECK-LABEL: func.func @unary_transcendental_f16
// CHECK-DAG: %[[EXP:.+]] = graph.constant dense<[1.000000e+00, 2.718750e+00]> : tensor<2xf16>
// CHECK-DAG: %[[LOG:.+]] = graph.constant dense<[0.000000e+00, 6.933590e-01]> : tensor<2xf16>
// CHECK-DAG: %[[TANH:.+]] = graph.constant dense<[0.000000e+00, 7.617180e-01]> : tensor<2xf16>
// CHECK-DAG: %[[SIG:.+]] = graph.constant dense<[5.000000e-01, 8.808590e-01]> : tensor<2xf16>
// CHECK-DAG: %[[SILU:.+]] = graph.constant dense<[0.000000e+00, 7.309570e-01]> : tensor<2xf16>
// CHECK: return %[[EXP]], %[[LOG]], %[[TANH]], %[[SIG]], %[[SILU]]
func.func @unary_transcendental_f16() -> (tensor<2xf16>, tensor<2xf16>, tensor<2xf16>, tensor<2xf16>, tensor<2xf16>) {
  %x = graph.constant dense<[0.0, 1.0]> : tensor<2xf16>
  %0 = graph.exp %x : tensor<2xf16> -> tensor<2xf16>
  %y = graph.constant dense<[1.0, 2.0]> : tensor<2xf16>
  %1 = graph.log %y : tensor<2xf16> -> tensor<2xf16>
  %2 = graph.tanh %x : tensor<2xf16> -> tensor<2xf16>
  %z = graph.constant dense<[0.0, 2.0]> : tensor<2xf16>
  %3 = graph.sigmoid %z : tensor<2xf16> -> tensor<2xf16>
  %4 = graph.silu %x : tensor<2xf16> -> tensor<2xf16>
  return %0, %1, %2, %3, %4 : tensor<2xf16>, tensor<2xf16>, tensor<2xf16>, tensor<2xf16>, tensor<2xf16>
}

// -----

// gelu(1) = 0.5 * (1 + erf(1/sqrt 2)) = 0.8413447; the tanh approximation
// gives 0.5 * (1 + tanh(sqrt(2/pi) * 1.044715)) = 0.8411920.
// gelu(-1) = -1 + gelu(1) = -0.1586553 and -0.1588080. The printer uses
// six digits where they identify the f32 value, nine otherwise; eight digits
// pin the value down.
// CHECK-LABEL: func.func @gelu
// CHECK-DAG: %[[ERF:.+]] = graph.constant dense<[0.000000e+00, 0.84134477{{[0-9]}}, -0.15865525{{[0-9]}}]> : tensor<3xf32>
// CHECK-DAG: %[[TANH:.+]] = graph.constant dense<[0.000000e+00, 8.411920e-01, -0.15880800{{[0-9]}}]> : tensor<3xf32>
// CHECK: return %[[ERF]], %[[TANH]]
func.func @gelu() -> (tensor<3xf32>, tensor<3xf32>) {
  %x = graph.constant dense<[0.0, 1.0, -1.0]> : tensor<3xf32>
  %0 = graph.gelu %x : tensor<3xf32> -> tensor<3xf32>
  %1 = graph.gelu %x approximate = tanh : tensor<3xf32> -> tensor<3xf32>
  return %0, %1 : tensor<3xf32>, tensor<3xf32>
}

// -----

// [1, 2, 3] against [2, 2, 2] in every direction; NaN is unordered.
// CHECK-LABEL: func.func @compare
// CHECK-DAG: %[[EQ:.+]] = graph.constant dense<[false, true, false]> : tensor<3xi1>
// CHECK-DAG: %[[NE:.+]] = graph.constant dense<[true, false, true]> : tensor<3xi1>
// CHECK-DAG: %[[LT:.+]] = graph.constant dense<[true, false, false]> : tensor<3xi1>
// CHECK-DAG: %[[LE:.+]] = graph.constant dense<[true, true, false]> : tensor<3xi1>
// CHECK-DAG: %[[GT:.+]] = graph.constant dense<[false, false, true]> : tensor<3xi1>
// CHECK-DAG: %[[GE:.+]] = graph.constant dense<[false, true, true]> : tensor<3xi1>
// CHECK-DAG: %[[NANEQ:.+]] = graph.constant dense<[false, true]> : tensor<2xi1>
// CHECK-DAG: %[[NANNE:.+]] = graph.constant dense<[true, false]> : tensor<2xi1>
// CHECK-NOT: graph.compare
// CHECK: return %[[EQ]], %[[NE]], %[[LT]], %[[LE]], %[[GT]], %[[GE]], %[[GE]], %[[NANEQ]], %[[NANNE]]
func.func @compare() -> (tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<2xi1>, tensor<2xi1>) {
  %a = graph.constant dense<[1, 2, 3]> : tensor<3xi32>
  %b = graph.constant dense<2> : tensor<i32>
  %0 = graph.compare eq, %a, %b : tensor<3xi32>, tensor<i32> -> tensor<3xi1>
  %1 = graph.compare ne, %a, %b : tensor<3xi32>, tensor<i32> -> tensor<3xi1>
  %2 = graph.compare lt, %a, %b : tensor<3xi32>, tensor<i32> -> tensor<3xi1>
  %3 = graph.compare le, %a, %b : tensor<3xi32>, tensor<i32> -> tensor<3xi1>
  %4 = graph.compare gt, %a, %b : tensor<3xi32>, tensor<i32> -> tensor<3xi1>
  %5 = graph.compare ge, %a, %b : tensor<3xi32>, tensor<i32> -> tensor<3xi1>
  %fa = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xbf16>
  %fb = graph.constant dense<[2.0, 2.0, 2.0]> : tensor<3xbf16>
  %6 = graph.compare ge, %fa, %fb : tensor<3xbf16>, tensor<3xbf16> -> tensor<3xi1>
  %n = graph.constant dense<[0x7FC00000, 1.0]> : tensor<2xf32>
  %7 = graph.compare eq, %n, %n : tensor<2xf32>, tensor<2xf32> -> tensor<2xi1>
  %8 = graph.compare ne, %n, %n : tensor<2xf32>, tensor<2xf32> -> tensor<2xi1>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<2xi1>, tensor<2xi1>
}

// -----

// CHECK-LABEL: func.func @select
// CHECK-DAG: %[[R:.+]] = graph.constant dense<[1.000000e+00, 2.000000e+01, 3.000000e+00]> : tensor<3xf32>
// CHECK-DAG: %[[B:.+]] = graph.constant dense<{{\[}}[1, 2, 3], [0, 0, 0]]> : tensor<2x3xi64>
// CHECK-NOT: graph.select
// CHECK: return %[[R]], %[[B]]
func.func @select() -> (tensor<3xf32>, tensor<2x3xi64>) {
  %c = graph.constant dense<[true, false, true]> : tensor<3xi1>
  %a = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = graph.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %0 = graph.select %c, %a, %b : tensor<3xi1>, tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  // All three operands broadcast.
  %c2 = graph.constant dense<[[true], [false]]> : tensor<2x1xi1>
  %a2 = graph.constant dense<[1, 2, 3]> : tensor<3xi64>
  %b2 = graph.constant dense<0> : tensor<i64>
  %1 = graph.select %c2, %a2, %b2 : tensor<2x1xi1>, tensor<3xi64>, tensor<i64> -> tensor<2x3xi64>
  return %0, %1 : tensor<3xf32>, tensor<2x3xi64>
}

// -----

// float -> int truncates toward zero; -> i1 tests != 0 (NaN != 0); i1 -> a
// number gives 0 or 1; integer widening sign-extends; f32 -> f16 rounds to
// nearest, ties to even: 1 + 2^-11 -> 1, 1 + 3 * 2^-11 -> 1 + 2^-9.
// CHECK-LABEL: func.func @cast
// CHECK-DAG: %[[TRUNC:.+]] = graph.constant dense<[1, -1, 2, 0]> : tensor<4xi32>
// CHECK-DAG: %[[FBOOL:.+]] = graph.constant dense<[false, false, true, true]> : tensor<4xi1>
// CHECK-DAG: %[[IBOOL:.+]] = graph.constant dense<[false, true, true]> : tensor<3xi1>
// CHECK-DAG: %[[BF:.+]] = graph.constant dense<[1.000000e+00, 0.000000e+00]> : tensor<2xf32>
// CHECK-DAG: %[[BI:.+]] = graph.constant dense<[1, 0]> : tensor<2xi64>
// CHECK-DAG: %[[SEXT:.+]] = graph.constant dense<[-1, 5]> : tensor<2xi64>
// CHECK-DAG: %[[HALF:.+]] = graph.constant dense<[1.000000e+00, 1.000000e+00, 1.001950e+00]> : tensor<3xf16>
// CHECK-DAG: %[[I2F:.+]] = graph.constant dense<[-3.000000e+00, 1.600000e+01]> : tensor<2xbf16>
// CHECK-NOT: graph.cast
// CHECK: return %[[TRUNC]], %[[FBOOL]], %[[IBOOL]], %[[BF]], %[[BI]], %[[SEXT]], %[[HALF]], %[[I2F]]
func.func @cast() -> (tensor<4xi32>, tensor<4xi1>, tensor<3xi1>, tensor<2xf32>, tensor<2xi64>, tensor<2xi64>, tensor<3xf16>, tensor<2xbf16>) {
  %f = graph.constant dense<[1.5, -1.5, 2.7, -0.0]> : tensor<4xf32>
  %0 = graph.cast %f : tensor<4xf32> -> tensor<4xi32>
  %g = graph.constant dense<[0.0, -0.0, 0.1, 0x7FC00000]> : tensor<4xf32>
  %1 = graph.cast %g : tensor<4xf32> -> tensor<4xi1>
  %i = graph.constant dense<[0, 2, -1]> : tensor<3xi32>
  %2 = graph.cast %i : tensor<3xi32> -> tensor<3xi1>
  %b = graph.constant dense<[true, false]> : tensor<2xi1>
  %3 = graph.cast %b : tensor<2xi1> -> tensor<2xf32>
  %4 = graph.cast %b : tensor<2xi1> -> tensor<2xi64>
  %j = graph.constant dense<[-1, 5]> : tensor<2xi32>
  %5 = graph.cast %j : tensor<2xi32> -> tensor<2xi64>
  %h = graph.constant dense<[1.0, 1.00048828125, 1.00146484375]> : tensor<3xf32>
  %6 = graph.cast %h : tensor<3xf32> -> tensor<3xf16>
  %k = graph.constant dense<[-3, 16]> : tensor<2xi64>
  %7 = graph.cast %k : tensor<2xi64> -> tensor<2xbf16>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<4xi32>, tensor<4xi1>, tensor<3xi1>, tensor<2xf32>, tensor<2xi64>, tensor<2xi64>, tensor<3xf16>, tensor<2xbf16>
}

// -----

// i64 -> i32 keeps the low 32 bits.
// CHECK-LABEL: func.func @cast_narrowing
// CHECK: %[[R:.+]] = graph.constant dense<[1, -1, -2147483648]> : tensor<3xi32>
// CHECK: return %[[R]]
func.func @cast_narrowing() -> tensor<3xi32> {
  %x = graph.constant dense<[4294967297, -1, 2147483648]> : tensor<3xi64>
  %0 = graph.cast %x : tensor<3xi64> -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

// NaN and out-of-range float -> int conversions are undefined: not folded.
// CHECK-LABEL: func.func @cast_undefined
// CHECK: %[[A:.+]] = graph.cast %{{.+}} : tensor<2xf32> -> tensor<2xi32>
// CHECK: %[[B:.+]] = graph.cast %{{.+}} : tensor<2xf32> -> tensor<2xi64>
// CHECK: return %[[A]], %[[B]]
func.func @cast_undefined() -> (tensor<2xi32>, tensor<2xi64>) {
  %n = graph.constant dense<[0x7FC00000, 1.0]> : tensor<2xf32>
  %0 = graph.cast %n : tensor<2xf32> -> tensor<2xi32>
  %big = graph.constant dense<[1.0e20, 1.0]> : tensor<2xf32>
  %1 = graph.cast %big : tensor<2xf32> -> tensor<2xi64>
  return %0, %1 : tensor<2xi32>, tensor<2xi64>
}

// -----

// result[i][j][k] = x[j][k][i] for the permutation [2, 0, 1].
// CHECK-LABEL: func.func @transpose
// CHECK-DAG: %[[T2:.+]] = graph.constant dense<{{\[}}[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi32>
// CHECK-DAG: %[[T3:.+]] = graph.constant dense<{{\[}}{{\[}}[0.000000e+00, 2.000000e+00], [4.000000e+00, 6.000000e+00]], {{\[}}[1.000000e+00, 3.000000e+00], [5.000000e+00, 7.000000e+00]]]> : tensor<2x2x2xf32>
// CHECK-NOT: graph.transpose
// CHECK: return %[[T2]], %[[T3]]
func.func @transpose() -> (tensor<3x2xi32>, tensor<2x2x2xf32>) {
  %x = graph.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %0 = graph.transpose %x, [1, 0] : tensor<2x3xi32> -> tensor<3x2xi32>
  %y = graph.constant dense<[[[0.0, 1.0], [2.0, 3.0]], [[4.0, 5.0], [6.0, 7.0]]]> : tensor<2x2x2xf32>
  %1 = graph.transpose %y, [2, 0, 1] : tensor<2x2x2xf32> -> tensor<2x2x2xf32>
  return %0, %1 : tensor<3x2xi32>, tensor<2x2x2xf32>
}

// -----

// CHECK-LABEL: func.func @reshape
// CHECK: %[[R:.+]] = graph.constant dense<{{\[}}[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi64>
// CHECK-NOT: graph.reshape
// CHECK: return %[[R]]
func.func @reshape() -> tensor<3x2xi64> {
  %x = graph.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  %0 = graph.reshape %x, [3, -1] : tensor<2x3xi64> -> tensor<3x2xi64>
  return %0 : tensor<3x2xi64>
}

// -----

// CHECK-LABEL: func.func @broadcast_to
// CHECK-DAG: %[[A:.+]] = graph.constant dense<{{\[}}[1.000000e+00, 2.000000e+00, 3.000000e+00], [1.000000e+00, 2.000000e+00, 3.000000e+00]]> : tensor<2x3xf32>
// CHECK-DAG: %[[B:.+]] = graph.constant dense<{{\[}}[true, true, true], [false, false, false]]> : tensor<2x3xi1>
// CHECK-NOT: graph.broadcast_to
// CHECK: return %[[A]], %[[B]]
func.func @broadcast_to() -> (tensor<2x3xf32>, tensor<2x3xi1>) {
  %x = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %0 = graph.broadcast_to %x, [2, 3] : tensor<3xf32> -> tensor<2x3xf32>
  %y = graph.constant dense<[[true], [false]]> : tensor<2x1xi1>
  %1 = graph.broadcast_to %y, [-1, 3] : tensor<2x1xi1> -> tensor<2x3xi1>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xi1>
}

// -----

// Rows 0 and 2, columns 1 and 3.
// CHECK-LABEL: func.func @slice
// CHECK: %[[R:.+]] = graph.constant dense<{{\[}}[2, 4], [10, 12]]> : tensor<2x2xi32>
// CHECK-NOT: graph.slice
// CHECK: return %[[R]]
func.func @slice() -> tensor<2x2xi32> {
  %x = graph.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]> : tensor<3x4xi32>
  %0 = graph.slice %x [0, 1] [3, 4] [2, 2] : tensor<3x4xi32> -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

// CHECK-LABEL: func.func @concat
// CHECK-DAG: %[[A0:.+]] = graph.constant dense<{{\[}}[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
// CHECK-DAG: %[[A1:.+]] = graph.constant dense<{{\[}}[7, 3, 4], [8, 5, 6]]> : tensor<2x3xi32>
// CHECK-DAG: %[[S:.+]] = graph.constant dense<[1.000000e+00, 1.000000e+00, 2.000000e+00, 2.000000e+00, 2.000000e+00]> : tensor<5xf16>
// CHECK-NOT: graph.concat
// CHECK: return %[[A0]], %[[A1]], %[[S]]
func.func @concat() -> (tensor<3x2xi32>, tensor<2x3xi32>, tensor<5xf16>) {
  %a = graph.constant dense<[[1, 2]]> : tensor<1x2xi32>
  %b = graph.constant dense<[[3, 4], [5, 6]]> : tensor<2x2xi32>
  %0 = graph.concat %a, %b axis = 0 : tensor<1x2xi32>, tensor<2x2xi32> -> tensor<3x2xi32>
  %c = graph.constant dense<[[7], [8]]> : tensor<2x1xi32>
  %1 = graph.concat %c, %b axis = 1 : tensor<2x1xi32>, tensor<2x2xi32> -> tensor<2x3xi32>
  // Splat operands, non-splat result.
  %ones = graph.constant dense<1.0> : tensor<2xf16>
  %twos = graph.constant dense<2.0> : tensor<3xf16>
  %2 = graph.concat %ones, %twos axis = 0 : tensor<2xf16>, tensor<3xf16> -> tensor<5xf16>
  return %0, %1, %2 : tensor<3x2xi32>, tensor<2x3xi32>, tensor<5xf16>
}

// -----

// x = [[1, 2, 3], [4, 5, 6]].
// CHECK-LABEL: func.func @reduce
// CHECK-DAG: %[[SUM:.+]] = graph.constant dense<[6.000000e+00, 1.500000e+01]> : tensor<2xf32>
// CHECK-DAG: %[[MEAN:.+]] = graph.constant dense<[2.500000e+00, 3.500000e+00, 4.500000e+00]> : tensor<3xf32>
// CHECK-DAG: %[[MAX:.+]] = graph.constant dense<6.000000e+00> : tensor<f32>
// CHECK-DAG: %[[MIN:.+]] = graph.constant dense<{{\[}}[1.000000e+00], [4.000000e+00]]> : tensor<2x1xf32>
// CHECK-DAG: %[[ISUM:.+]] = graph.constant dense<[4, 2]> : tensor<2xi32>
// CHECK-DAG: %[[IMAX:.+]] = graph.constant dense<{{\[}}[3, 4]]> : tensor<1x2xi64>
// CHECK-DAG: %[[NAN:.+]] = graph.constant dense<[0x7FC00000, 3.000000e+00]> : tensor<2xf32>
// CHECK-DAG: %[[HMEAN:.+]] = graph.constant dense<[5.000000e-01, 2.500000e+00]> : tensor<2xf16>
// CHECK-NOT: graph.reduce
// CHECK: return %[[SUM]], %[[MEAN]], %[[MAX]], %[[MIN]], %[[ISUM]], %[[IMAX]], %[[NAN]], %[[HMEAN]]
func.func @reduce() -> (tensor<2xf32>, tensor<3xf32>, tensor<f32>, tensor<2x1xf32>, tensor<2xi32>, tensor<1x2xi64>, tensor<2xf32>, tensor<2xf16>) {
  %x = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %0 = graph.reduce sum %x axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  %1 = graph.reduce mean %x axes = [0] : tensor<2x3xf32> -> tensor<3xf32>
  %2 = graph.reduce max %x axes = [0, 1] : tensor<2x3xf32> -> tensor<f32>
  %3 = graph.reduce min %x axes = [1] keepdims : tensor<2x3xf32> -> tensor<2x1xf32>
  %i = graph.constant dense<[[1, -2], [3, 4]]> : tensor<2x2xi32>
  %4 = graph.reduce sum %i axes = [0] : tensor<2x2xi32> -> tensor<2xi32>
  %l = graph.constant dense<[[1, 4], [3, -5]]> : tensor<2x2xi64>
  %5 = graph.reduce max %l axes = [0] keepdims : tensor<2x2xi64> -> tensor<1x2xi64>
  // max propagates NaN.
  %n = graph.constant dense<[[1.0, 0x7FC00000], [2.0, 3.0]]> : tensor<2x2xf32>
  %6 = graph.reduce max %n axes = [1] : tensor<2x2xf32> -> tensor<2xf32>
  // Row means: (0 + 1) / 2 and (2 + 3) / 2.
  %h = graph.constant dense<[[0.0, 1.0], [2.0, 3.0]]> : tensor<2x2xf16>
  %7 = graph.reduce mean %h axes = [1] : tensor<2x2xf16> -> tensor<2xf16>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<2xf32>, tensor<3xf32>, tensor<f32>, tensor<2x1xf32>, tensor<2xi32>, tensor<1x2xi64>, tensor<2xf32>, tensor<2xf16>
}

// -----

// Integer sums wrap: 2147483647 + 1 = INT_MIN. Zero elements are not folded.
// CHECK-LABEL: func.func @reduce_edges
// CHECK: %[[W:.+]] = graph.constant dense<[-2147483648, 3]> : tensor<2xi32>
// CHECK: %[[Z:.+]] = graph.reduce mean
// CHECK: return %[[W]], %[[Z]]
func.func @reduce_edges() -> (tensor<2xi32>, tensor<3xf32>) {
  %x = graph.constant dense<[[2147483647, 1], [1, 2]]> : tensor<2x2xi32>
  %0 = graph.reduce sum %x axes = [1] : tensor<2x2xi32> -> tensor<2xi32>
  %e = graph.constant dense<> : tensor<0x3xf32>
  %1 = graph.reduce mean %e axes = [0] : tensor<0x3xf32> -> tensor<3xf32>
  return %0, %1 : tensor<2xi32>, tensor<3xf32>
}

// -----

// softmax([0, ln 3]) = [1, 3] / 4 = [0.25, 0.75] (ln 3 rounded to f16 is
// 1.0986328125; the error, 2e-5, stays far below half an f16 step).
// Along axis 0 of [[0, 2], [ln 3, 2]]: columns [0.25, 0.75] and [0.5, 0.5].
// CHECK-LABEL: func.func @softmax
// CHECK-DAG: %[[A:.+]] = graph.constant dense<[2.500000e-01, 7.500000e-01]> : tensor<2xf16>
// CHECK-DAG: %[[B:.+]] = graph.constant dense<{{\[}}[2.500000e-01, 5.000000e-01], [7.500000e-01, 5.000000e-01]]> : tensor<2x2xf32>
// CHECK-NOT: graph.softmax
// CHECK: return %[[A]], %[[B]]
func.func @softmax() -> (tensor<2xf16>, tensor<2x2xf32>) {
  %x = graph.constant dense<[0.0, 1.0986328125]> : tensor<2xf16>
  %0 = graph.softmax %x axis = 0 : tensor<2xf16> -> tensor<2xf16>
  %y = graph.constant dense<[[0.0, 2.0], [1.0986122886681098, 2.0]]> : tensor<2x2xf32>
  %1 = graph.softmax %y axis = 0 : tensor<2x2xf32> -> tensor<2x2xf32>
  return %0, %1 : tensor<2xf16>, tensor<2x2xf32>
}

// -----

// Folding proceeds through a chain: (a + b) * a - a = [3, 10]; an op with a
// non-constant operand stays.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[ARG:.+]]: tensor<2xf32>)
// CHECK: %[[C:.+]] = graph.constant dense<[3.000000e+00, 1.000000e+01]> : tensor<2xf32>
// CHECK: %[[R:.+]] = graph.add %[[ARG]], %[[C]]
// CHECK: return %[[R]]
func.func @chain(%arg: tensor<2xf32>) -> tensor<2xf32> {
  %a = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = graph.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %0 = graph.add %a, %b : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  %1 = graph.mul %0, %a : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  %2 = graph.sub %1, %a : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  %3 = graph.add %arg, %2 : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  return %3 : tensor<2xf32>
}

// -----

// matmul is not evaluated, and a dynamic result has no constant value.
// CHECK-LABEL: func.func @not_folded
// CHECK: %[[M:.+]] = graph.matmul
// CHECK: %[[D:.+]] = graph.add
// CHECK: return %[[M]], %[[D]]
func.func @not_folded() -> (tensor<2x2xf32>, tensor<?xf32>) {
  %a = graph.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %0 = graph.matmul %a, %a : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
  %b = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = graph.add %b, %b : tensor<2xf32>, tensor<2xf32> -> tensor<?xf32>
  return %0, %1 : tensor<2x2xf32>, tensor<?xf32>
}

// -----

// Over the limit (4): shape ops and reductions are not folded (the
// transpose, the reduce, the concat); an elementwise result of the shape
// of a non-splat operand is (the cast and the mul of six elements: the
// program holds those six already).
// LIMIT-LABEL: func.func @over_limit
// LIMIT: graph.transpose
// LIMIT: graph.reduce
// LIMIT: graph.concat
// LIMIT-NOT: graph.cast
// LIMIT-NOT: graph.mul
// CHECK-LABEL: func.func @over_limit
// CHECK-NOT: graph.transpose
// CHECK-NOT: graph.reduce
// CHECK-NOT: graph.concat
// CHECK: return
func.func @over_limit() -> (tensor<3x2xf32>, tensor<5xf32>, tensor<6xf32>, tensor<2x3xf32>) {
  %q = graph.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi8>
  %qf = graph.cast %q : tensor<2x3xi8> -> tensor<2x3xf32>
  %s = graph.constant dense<0.5> : tensor<f32>
  %dq = graph.mul %qf, %s : tensor<2x3xf32>, tensor<f32> -> tensor<2x3xf32>
  %x = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %0 = graph.transpose %x, [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %y = graph.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0], [1.0, 2.0, 3.0, 4.0, 5.0]]> : tensor<2x5xf32>
  %1 = graph.reduce sum %y axes = [0] : tensor<2x5xf32> -> tensor<5xf32>
  %z = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %2 = graph.concat %z, %z axis = 0 : tensor<3xf32>, tensor<3xf32> -> tensor<6xf32>
  return %0, %1, %2, %dq : tensor<3x2xf32>, tensor<5xf32>, tensor<6xf32>, tensor<2x3xf32>
}
