// RUN: graph-opt %s -canonicalize -split-input-file | FileCheck %s

//===----------------------------------------------------------------------===//
// Identities: x + 0, 0 + x, x - 0, x * 1, 1 * x, x * 0, x / 1, pow(x, 1)
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @add_zero
// CHECK-SAME: (%[[X:.+]]: tensor<4xi32>)
// CHECK-NOT: graph.add
// CHECK: return %[[X]], %[[X]]
func.func @add_zero(%x: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %zero = graph.constant dense<0> : tensor<4xi32>
  %0 = graph.add %x, %zero : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %1 = graph.add %zero, %x : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  return %0, %1 : tensor<4xi32>, tensor<4xi32>
}

// -----

// -0.0 is the float identity of addition: x + -0.0 == x for every x.
// CHECK-LABEL: func.func @add_negative_zero_float
// CHECK-SAME: (%[[X:.+]]: tensor<2x?xf32>)
// CHECK-NOT: graph.add
// CHECK: return %[[X]]
func.func @add_negative_zero_float(%x: tensor<2x?xf32>) -> tensor<2x?xf32> {
  %zero = graph.constant dense<-0.0> : tensor<f32>
  %0 = graph.add %x, %zero : tensor<2x?xf32>, tensor<f32> -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// -----

// x + +0.0 is not x when x is -0.0 (-0.0 + +0.0 = +0.0): not folded.
// CHECK-LABEL: func.func @add_positive_zero_float
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>)
// CHECK: %[[ZERO:.+]] = graph.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK: %[[R:.+]] = graph.add %[[X]], %[[ZERO]]
// CHECK: return %[[R]]
func.func @add_positive_zero_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = graph.constant dense<0.0> : tensor<4xf32>
  %0 = graph.add %zero, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The zero broadcasts x to a larger shape: the result is not x.
// CHECK-LABEL: func.func @add_zero_broadcasts
// CHECK-SAME: (%[[X:.+]]: tensor<3xi64>)
// CHECK: %[[ZERO:.+]] = graph.constant dense<0> : tensor<4x3xi64>
// CHECK: %[[R:.+]] = graph.add %[[X]], %[[ZERO]]
// CHECK: return %[[R]]
func.func @add_zero_broadcasts(%x: tensor<3xi64>) -> tensor<4x3xi64> {
  %zero = graph.constant dense<0> : tensor<4x3xi64>
  %0 = graph.add %x, %zero : tensor<3xi64>, tensor<4x3xi64> -> tensor<4x3xi64>
  return %0 : tensor<4x3xi64>
}

// -----

// The written result type is more static than x's: folding to x would
// change the type seen by the return.
// CHECK-LABEL: func.func @add_zero_type_differs
// CHECK-SAME: (%[[X:.+]]: tensor<?xi32>)
// CHECK: %[[R:.+]] = graph.add %[[X]], %{{.+}} : tensor<?xi32>, tensor<i32> -> tensor<4xi32>
// CHECK: return %[[R]]
func.func @add_zero_type_differs(%x: tensor<?xi32>) -> tensor<4xi32> {
  %zero = graph.constant dense<0> : tensor<i32>
  %0 = graph.add %x, %zero : tensor<?xi32>, tensor<i32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @sub_zero
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>, %[[Y:.+]]: tensor<4xi32>)
// CHECK-NOT: graph.sub
// CHECK: return %[[X]], %[[Y]]
func.func @sub_zero(%x: tensor<4xf32>, %y: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %fzero = graph.constant dense<0.0> : tensor<4xf32>
  %izero = graph.constant dense<0> : tensor<i32>
  %0 = graph.sub %x, %fzero : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %1 = graph.sub %y, %izero : tensor<4xi32>, tensor<i32> -> tensor<4xi32>
  return %0, %1 : tensor<4xf32>, tensor<4xi32>
}

// -----

// x - -0.0 = x + +0.0, which is not x when x is -0.0: not folded.
// CHECK-LABEL: func.func @sub_negative_zero_float
// CHECK-SAME: (%[[X:.+]]: tensor<4xf16>)
// CHECK: %[[R:.+]] = graph.sub %[[X]], %{{.+}}
// CHECK: return %[[R]]
func.func @sub_negative_zero_float(%x: tensor<4xf16>) -> tensor<4xf16> {
  %zero = graph.constant dense<-0.0> : tensor<f16>
  %0 = graph.sub %x, %zero : tensor<4xf16>, tensor<f16> -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// 0 - x is not x.
// CHECK-LABEL: func.func @zero_sub
// CHECK-SAME: (%[[X:.+]]: tensor<4xi32>)
// CHECK: %[[ZERO:.+]] = graph.constant dense<0> : tensor<4xi32>
// CHECK: %[[R:.+]] = graph.sub %[[ZERO]], %[[X]]
// CHECK: return %[[R]]
func.func @zero_sub(%x: tensor<4xi32>) -> tensor<4xi32> {
  %zero = graph.constant dense<0> : tensor<4xi32>
  %0 = graph.sub %zero, %x : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @mul_one
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>, %[[Y:.+]]: tensor<?x3xbf16>)
// CHECK-NOT: graph.mul
// CHECK: return %[[X]], %[[Y]]
func.func @mul_one(%x: tensor<4xf32>, %y: tensor<?x3xbf16>) -> (tensor<4xf32>, tensor<?x3xbf16>) {
  %one = graph.constant dense<1.0> : tensor<4xf32>
  %bone = graph.constant dense<1.0> : tensor<3xbf16>
  %0 = graph.mul %x, %one : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %1 = graph.mul %bone, %y : tensor<3xbf16>, tensor<?x3xbf16> -> tensor<?x3xbf16>
  return %0, %1 : tensor<4xf32>, tensor<?x3xbf16>
}

// -----

// x * 0 = 0 for integers, whichever side the zero is on.
// CHECK-LABEL: func.func @mul_zero_int
// CHECK: %[[ZERO:.+]] = graph.constant dense<0> : tensor<2x3xi32>
// CHECK-NOT: graph.mul
// CHECK: return %[[ZERO]], %[[ZERO]]
func.func @mul_zero_int(%x: tensor<2x3xi32>) -> (tensor<2x3xi32>, tensor<2x3xi32>) {
  %zero = graph.constant dense<0> : tensor<i32>
  %0 = graph.mul %x, %zero : tensor<2x3xi32>, tensor<i32> -> tensor<2x3xi32>
  %1 = graph.mul %zero, %x : tensor<i32>, tensor<2x3xi32> -> tensor<2x3xi32>
  return %0, %1 : tensor<2x3xi32>, tensor<2x3xi32>
}

// -----

// Not for floats: NaN * 0 and inf * 0 are NaN.
// CHECK-LABEL: func.func @mul_zero_float
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>)
// CHECK: %[[ZERO:.+]] = graph.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK: %[[R:.+]] = graph.mul %[[X]], %[[ZERO]]
// CHECK: return %[[R]]
func.func @mul_zero_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = graph.constant dense<0.0> : tensor<4xf32>
  %0 = graph.mul %x, %zero : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// With a dynamic result shape there is no constant to build.
// CHECK-LABEL: func.func @mul_zero_int_dynamic
// CHECK-SAME: (%[[X:.+]]: tensor<?xi64>)
// CHECK: %[[R:.+]] = graph.mul %[[X]], %{{.+}} : tensor<?xi64>, tensor<i64> -> tensor<?xi64>
// CHECK: return %[[R]]
func.func @mul_zero_int_dynamic(%x: tensor<?xi64>) -> tensor<?xi64> {
  %zero = graph.constant dense<0> : tensor<i64>
  %0 = graph.mul %x, %zero : tensor<?xi64>, tensor<i64> -> tensor<?xi64>
  return %0 : tensor<?xi64>
}

// -----

// CHECK-LABEL: func.func @div_one
// CHECK-SAME: (%[[X:.+]]: tensor<4xf16>, %[[Y:.+]]: tensor<4xi32>)
// CHECK-NOT: graph.div
// CHECK: return %[[X]], %[[Y]]
func.func @div_one(%x: tensor<4xf16>, %y: tensor<4xi32>) -> (tensor<4xf16>, tensor<4xi32>) {
  %fone = graph.constant dense<1.0> : tensor<f16>
  %ione = graph.constant dense<1> : tensor<4xi32>
  %0 = graph.div %x, %fone : tensor<4xf16>, tensor<f16> -> tensor<4xf16>
  %1 = graph.div %y, %ione : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  return %0, %1 : tensor<4xf16>, tensor<4xi32>
}

// -----

// 1 / x is not x.
// CHECK-LABEL: func.func @one_div
// CHECK: %[[R:.+]] = graph.div
// CHECK: return %[[R]]
func.func @one_div(%x: tensor<4xf32>) -> tensor<4xf32> {
  %one = graph.constant dense<1.0> : tensor<4xf32>
  %0 = graph.div %one, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// graph.pow
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @pow_one
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>)
// CHECK-NOT: graph.pow
// CHECK: return %[[X]]
func.func @pow_one(%x: tensor<4xf32>) -> tensor<4xf32> {
  %one = graph.constant dense<1.0> : tensor<f32>
  %0 = graph.pow %x, %one : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @pow_two
// CHECK-SAME: (%[[X:.+]]: tensor<?x4xf16>)
// CHECK: %[[R:.+]] = graph.mul %[[X]], %[[X]] : tensor<?x4xf16>, tensor<?x4xf16> -> tensor<?x4xf16>
// CHECK-NOT: graph.pow
// CHECK: return %[[R]]
func.func @pow_two(%x: tensor<?x4xf16>) -> tensor<?x4xf16> {
  %two = graph.constant dense<2.0> : tensor<f16>
  %0 = graph.pow %x, %two : tensor<?x4xf16>, tensor<f16> -> tensor<?x4xf16>
  return %0 : tensor<?x4xf16>
}

// -----

// pow(x, 0.5) is not rewritten to sqrt: they differ at -0.0 and -inf.
// CHECK-LABEL: func.func @pow_half
// CHECK-NOT: graph.sqrt
// CHECK: graph.pow
// CHECK-NOT: graph.sqrt
func.func @pow_half(%x: tensor<4xf32>) -> tensor<4xf32> {
  %half = graph.constant dense<0.5> : tensor<4xf32>
  %0 = graph.pow %x, %half : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Nor pow(x, -0.5) to rsqrt.
// CHECK-LABEL: func.func @pow_minus_half
// CHECK-NOT: graph.rsqrt
// CHECK: graph.pow
// CHECK-NOT: graph.rsqrt
func.func @pow_minus_half(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %c = graph.constant dense<-0.5> : tensor<bf16>
  %0 = graph.pow %x, %c : tensor<4xbf16>, tensor<bf16> -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

// The exponent broadcasts the base: x * x would have x's shape.
// CHECK-LABEL: func.func @pow_two_broadcasts
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>)
// CHECK: %[[R:.+]] = graph.pow %[[X]], %{{.+}} : tensor<4xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
// CHECK: return %[[R]]
func.func @pow_two_broadcasts(%x: tensor<4xf32>) -> tensor<3x4xf32> {
  %two = graph.constant dense<2.0> : tensor<3x4xf32>
  %0 = graph.pow %x, %two : tensor<4xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// Other exponents, and non-constant ones, stay.
// CHECK-LABEL: func.func @pow_other
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>, %[[Y:.+]]: tensor<4xf32>)
// CHECK: %[[A:.+]] = graph.pow %[[X]], %{{.+}}
// CHECK: %[[B:.+]] = graph.pow %[[X]], %[[Y]]
// CHECK: return %[[A]], %[[B]]
func.func @pow_other(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %three = graph.constant dense<3.0> : tensor<f32>
  %0 = graph.pow %x, %three : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  %1 = graph.pow %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// neg, add of neg, constants to the rhs
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @neg_neg
// CHECK-SAME: (%[[X:.+]]: tensor<?xf32>)
// CHECK-NOT: graph.neg
// CHECK: return %[[X]]
func.func @neg_neg(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = graph.neg %x : tensor<?xf32> -> tensor<?xf32>
  %1 = graph.neg %0 : tensor<?xf32> -> tensor<?xf32>
  return %1 : tensor<?xf32>
}

// -----

// The outer neg's type is more static than x's: not folded.
// CHECK-LABEL: func.func @neg_neg_type_differs
// CHECK-SAME: (%[[X:.+]]: tensor<?xi32>)
// CHECK: %[[A:.+]] = graph.neg %[[X]] : tensor<?xi32> -> tensor<4xi32>
// CHECK: %[[B:.+]] = graph.neg %[[A]] : tensor<4xi32> -> tensor<4xi32>
// CHECK: return %[[B]]
func.func @neg_neg_type_differs(%x: tensor<?xi32>) -> tensor<4xi32> {
  %0 = graph.neg %x : tensor<?xi32> -> tensor<4xi32>
  %1 = graph.neg %0 : tensor<4xi32> -> tensor<4xi32>
  return %1 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @neg_sub
// CHECK-SAME: (%[[A:.+]]: tensor<4xi32>, %[[B:.+]]: tensor<3x1xi32>)
// CHECK: %[[R:.+]] = graph.sub %[[B]], %[[A]] : tensor<3x1xi32>, tensor<4xi32> -> tensor<3x4xi32>
// CHECK-NOT: graph.neg
// CHECK: return %[[R]]
func.func @neg_sub(%a: tensor<4xi32>, %b: tensor<3x1xi32>) -> tensor<3x4xi32> {
  %0 = graph.sub %a, %b : tensor<4xi32>, tensor<3x1xi32> -> tensor<3x4xi32>
  %1 = graph.neg %0 : tensor<3x4xi32> -> tensor<3x4xi32>
  return %1 : tensor<3x4xi32>
}

// -----

// The sub has another user: rewriting would duplicate it.
// CHECK-LABEL: func.func @neg_sub_multi_use
// CHECK-SAME: (%[[A:.+]]: tensor<4xi32>, %[[B:.+]]: tensor<4xi32>)
// CHECK: %[[S:.+]] = graph.sub %[[A]], %[[B]]
// CHECK: %[[N:.+]] = graph.neg %[[S]]
// CHECK: return %[[S]], %[[N]]
func.func @neg_sub_multi_use(%a: tensor<4xi32>, %b: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %0 = graph.sub %a, %b : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %1 = graph.neg %0 : tensor<4xi32> -> tensor<4xi32>
  return %0, %1 : tensor<4xi32>, tensor<4xi32>
}

// -----

// For floats -(a - b) and b - a differ in the sign of a zero result (a == b):
// not rewritten.
// CHECK-LABEL: func.func @neg_sub_float
// CHECK-SAME: (%[[A:.+]]: tensor<4xf32>, %[[B:.+]]: tensor<4xf32>)
// CHECK: %[[S:.+]] = graph.sub %[[A]], %[[B]]
// CHECK: %[[N:.+]] = graph.neg %[[S]]
// CHECK: return %[[N]]
func.func @neg_sub_float(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.sub %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %1 = graph.neg %0 : tensor<4xf32> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @add_neg
// CHECK-SAME: (%[[X:.+]]: tensor<4x3xf32>, %[[Y:.+]]: tensor<3xf32>)
// CHECK: %[[R:.+]] = graph.sub %[[X]], %[[Y]] : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
// CHECK-NOT: graph.neg
// CHECK-NOT: graph.add
// CHECK: return %[[R]]
func.func @add_neg(%x: tensor<4x3xf32>, %y: tensor<3xf32>) -> tensor<4x3xf32> {
  %0 = graph.neg %y : tensor<3xf32> -> tensor<3xf32>
  %1 = graph.add %x, %0 : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
  return %1 : tensor<4x3xf32>
}

// -----

// Only a neg on the rhs is rewritten (and only constants are moved to the
// rhs), so neg(y) + x stays.
// CHECK-LABEL: func.func @neg_add
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>, %[[Y:.+]]: tensor<4xf32>)
// CHECK: %[[N:.+]] = graph.neg %[[Y]]
// CHECK: %[[R:.+]] = graph.add %[[N]], %[[X]]
// CHECK: return %[[R]]
func.func @neg_add(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.neg %y : tensor<4xf32> -> tensor<4xf32>
  %1 = graph.add %0, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @constant_to_rhs
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>, %[[Y:.+]]: tensor<4xi32>)
// CHECK-DAG: %[[C:.+]] = graph.constant dense<2.500000e+00> : tensor<f32>
// CHECK-DAG: %[[D:.+]] = graph.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
// CHECK: %[[A:.+]] = graph.add %[[X]], %[[C]] : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
// CHECK: %[[M:.+]] = graph.mul %[[Y]], %[[D]] : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
// CHECK: return %[[A]], %[[M]]
func.func @constant_to_rhs(%x: tensor<4xf32>, %y: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %c = graph.constant dense<2.5> : tensor<f32>
  %d = graph.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %0 = graph.add %c, %x : tensor<f32>, tensor<4xf32> -> tensor<4xf32>
  %1 = graph.mul %d, %y : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  return %0, %1 : tensor<4xf32>, tensor<4xi32>
}

// -----

// sub is not commutative: the constant stays on the lhs.
// CHECK-LABEL: func.func @constant_stays_lhs_of_sub
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>)
// CHECK: %[[C:.+]] = graph.constant dense<2.500000e+00> : tensor<f32>
// CHECK: %[[R:.+]] = graph.sub %[[C]], %[[X]]
// CHECK: return %[[R]]
func.func @constant_stays_lhs_of_sub(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = graph.constant dense<2.5> : tensor<f32>
  %0 = graph.sub %c, %x : tensor<f32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Idempotent ops, max/min of x and x
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @abs_abs
// CHECK-SAME: (%[[X:.+]]: tensor<4xi32>)
// CHECK: %[[A:.+]] = graph.abs %[[X]]
// CHECK-NOT: graph.abs
// CHECK: return %[[A]]
func.func @abs_abs(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = graph.abs %x : tensor<4xi32> -> tensor<4xi32>
  %1 = graph.abs %0 : tensor<4xi32> -> tensor<4xi32>
  return %1 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @relu_relu
// CHECK-SAME: (%[[X:.+]]: tensor<?x8xf32>)
// CHECK: %[[A:.+]] = graph.relu %[[X]]
// CHECK-NOT: graph.relu
// CHECK: return %[[A]]
func.func @relu_relu(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %0 = graph.relu %x : tensor<?x8xf32> -> tensor<?x8xf32>
  %1 = graph.relu %0 : tensor<?x8xf32> -> tensor<?x8xf32>
  %2 = graph.relu %1 : tensor<?x8xf32> -> tensor<?x8xf32>
  return %2 : tensor<?x8xf32>
}

// -----

// The outer relu refines the type: it stays.
// CHECK-LABEL: func.func @relu_relu_type_differs
// CHECK: %[[A:.+]] = graph.relu %{{.+}} : tensor<?xf32> -> tensor<?xf32>
// CHECK: %[[B:.+]] = graph.relu %[[A]] : tensor<?xf32> -> tensor<8xf32>
// CHECK: return %[[B]]
func.func @relu_relu_type_differs(%x: tensor<?xf32>) -> tensor<8xf32> {
  %0 = graph.relu %x : tensor<?xf32> -> tensor<?xf32>
  %1 = graph.relu %0 : tensor<?xf32> -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

// Not idempotent: exp(exp(x)) stays.
// CHECK-LABEL: func.func @exp_exp
// CHECK: graph.exp
// CHECK: graph.exp
func.func @exp_exp(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.exp %x : tensor<4xf32> -> tensor<4xf32>
  %1 = graph.exp %0 : tensor<4xf32> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @max_min_same
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>, %[[Y:.+]]: tensor<?xi64>)
// CHECK-NOT: graph.max
// CHECK-NOT: graph.min
// CHECK: return %[[X]], %[[Y]]
func.func @max_min_same(%x: tensor<4xf32>, %y: tensor<?xi64>) -> (tensor<4xf32>, tensor<?xi64>) {
  %0 = graph.max %x, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %1 = graph.min %y, %y : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64>
  return %0, %1 : tensor<4xf32>, tensor<?xi64>
}

// -----

// CHECK-LABEL: func.func @max_different
// CHECK: %[[R:.+]] = graph.max
// CHECK: return %[[R]]
func.func @max_different(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.max %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// graph.select
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @select_splat_condition
// CHECK-SAME: (%[[A:.+]]: tensor<4xf32>, %[[B:.+]]: tensor<4xf32>)
// CHECK-NOT: graph.select
// CHECK: return %[[A]], %[[B]]
func.func @select_splat_condition(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %t = graph.constant dense<true> : tensor<4xi1>
  %f = graph.constant dense<false> : tensor<i1>
  %0 = graph.select %t, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %1 = graph.select %f, %a, %b : tensor<i1>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// The chosen value would need broadcasting: not folded.
// CHECK-LABEL: func.func @select_splat_condition_broadcasts
// CHECK-SAME: (%[[A:.+]]: tensor<f32>, %[[B:.+]]: tensor<4xf32>)
// CHECK: %[[R:.+]] = graph.select %{{.+}}, %[[A]], %[[B]]
// CHECK: return %[[R]]
func.func @select_splat_condition_broadcasts(%a: tensor<f32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %t = graph.constant dense<true> : tensor<4xi1>
  %0 = graph.select %t, %a, %b : tensor<4xi1>, tensor<f32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @select_same_values
// CHECK-SAME: (%[[C:.+]]: tensor<4xi1>, %[[A:.+]]: tensor<4xi32>)
// CHECK-NOT: graph.select
// CHECK: return %[[A]]
func.func @select_same_values(%c: tensor<4xi1>, %a: tensor<4xi32>) -> tensor<4xi32> {
  %0 = graph.select %c, %a, %a : tensor<4xi1>, tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// A non-splat constant condition is graph-fold-constants' business.
// CHECK-LABEL: func.func @select_dense_condition
// CHECK: %[[R:.+]] = graph.select
// CHECK: return %[[R]]
func.func @select_dense_condition(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %c = graph.constant dense<[true, false]> : tensor<2xi1>
  %0 = graph.select %c, %a, %b : tensor<2xi1>, tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

//===----------------------------------------------------------------------===//
// graph.cast
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @cast_same_type
// CHECK-SAME: (%[[X:.+]]: tensor<2x?xf32>)
// CHECK-NOT: graph.cast
// CHECK: return %[[X]]
func.func @cast_same_type(%x: tensor<2x?xf32>) -> tensor<2x?xf32> {
  %0 = graph.cast %x : tensor<2x?xf32> -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// -----

// Same element type, but the cast makes the shape static: kept.
// CHECK-LABEL: func.func @cast_same_element_type
// CHECK: %[[R:.+]] = graph.cast %{{.+}} : tensor<?xf32> -> tensor<4xf32>
// CHECK: return %[[R]]
func.func @cast_same_element_type(%x: tensor<?xf32>) -> tensor<4xf32> {
  %0 = graph.cast %x : tensor<?xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Every f16 and bf16 value is an f32 value: the round trips are exact.
// CHECK-LABEL: func.func @cast_round_trip_lossless
// CHECK-SAME: (%[[H:.+]]: tensor<4xf16>, %[[B:.+]]: tensor<4xbf16>)
// CHECK-NOT: graph.cast
// CHECK: return %[[H]], %[[B]]
func.func @cast_round_trip_lossless(%h: tensor<4xf16>, %b: tensor<4xbf16>) -> (tensor<4xf16>, tensor<4xbf16>) {
  %0 = graph.cast %h : tensor<4xf16> -> tensor<4xf32>
  %1 = graph.cast %0 : tensor<4xf32> -> tensor<4xf16>
  %2 = graph.cast %b : tensor<4xbf16> -> tensor<4xf32>
  %3 = graph.cast %2 : tensor<4xf32> -> tensor<4xbf16>
  return %1, %3 : tensor<4xf16>, tensor<4xbf16>
}

// -----

// Integer widening and i1 -> anything are exact too.
// CHECK-LABEL: func.func @cast_round_trip_lossless_int
// CHECK-SAME: (%[[I:.+]]: tensor<4xi32>, %[[P:.+]]: tensor<4xi1>)
// CHECK-NOT: graph.cast
// CHECK: return %[[I]], %[[P]], %[[P]]
func.func @cast_round_trip_lossless_int(%i: tensor<4xi32>, %p: tensor<4xi1>) -> (tensor<4xi32>, tensor<4xi1>, tensor<4xi1>) {
  %0 = graph.cast %i : tensor<4xi32> -> tensor<4xi64>
  %1 = graph.cast %0 : tensor<4xi64> -> tensor<4xi32>
  %2 = graph.cast %p : tensor<4xi1> -> tensor<4xf32>
  %3 = graph.cast %2 : tensor<4xf32> -> tensor<4xi1>
  %4 = graph.cast %p : tensor<4xi1> -> tensor<4xi32>
  %5 = graph.cast %4 : tensor<4xi32> -> tensor<4xi1>
  return %1, %3, %5 : tensor<4xi32>, tensor<4xi1>, tensor<4xi1>
}

// -----

// f32 -> f16 rounds: the round trip is not the identity.
// CHECK-LABEL: func.func @cast_round_trip_lossy
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>)
// CHECK: %[[A:.+]] = graph.cast %[[X]] : tensor<4xf32> -> tensor<4xf16>
// CHECK: %[[B:.+]] = graph.cast %[[A]] : tensor<4xf16> -> tensor<4xf32>
// CHECK: return %[[B]]
func.func @cast_round_trip_lossy(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.cast %x : tensor<4xf32> -> tensor<4xf16>
  %1 = graph.cast %0 : tensor<4xf16> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Narrowing, float -> int and int -> i1 lose information.
// CHECK-LABEL: func.func @cast_round_trip_lossy_int
// CHECK-SAME: (%[[I:.+]]: tensor<4xi64>, %[[F:.+]]: tensor<4xf32>, %[[J:.+]]: tensor<4xi32>)
// CHECK: %[[A:.+]] = graph.cast %[[I]] : tensor<4xi64> -> tensor<4xi32>
// CHECK: %[[B:.+]] = graph.cast %[[A]] : tensor<4xi32> -> tensor<4xi64>
// CHECK: %[[C:.+]] = graph.cast %[[F]] : tensor<4xf32> -> tensor<4xi32>
// CHECK: %[[D:.+]] = graph.cast %[[C]] : tensor<4xi32> -> tensor<4xf32>
// CHECK: %[[E:.+]] = graph.cast %[[J]] : tensor<4xi32> -> tensor<4xi1>
// CHECK: %[[G:.+]] = graph.cast %[[E]] : tensor<4xi1> -> tensor<4xi32>
// CHECK: return %[[B]], %[[D]], %[[G]]
func.func @cast_round_trip_lossy_int(%i: tensor<4xi64>, %f: tensor<4xf32>, %j: tensor<4xi32>) -> (tensor<4xi64>, tensor<4xf32>, tensor<4xi32>) {
  %0 = graph.cast %i : tensor<4xi64> -> tensor<4xi32>
  %1 = graph.cast %0 : tensor<4xi32> -> tensor<4xi64>
  %2 = graph.cast %f : tensor<4xf32> -> tensor<4xi32>
  %3 = graph.cast %2 : tensor<4xi32> -> tensor<4xf32>
  %4 = graph.cast %j : tensor<4xi32> -> tensor<4xi1>
  %5 = graph.cast %4 : tensor<4xi1> -> tensor<4xi32>
  return %1, %3, %5 : tensor<4xi64>, tensor<4xf32>, tensor<4xi32>
}

// -----

// The outer cast's type is not the original type (here: the shape is more
// static), so the pair does not cancel.
// CHECK-LABEL: func.func @cast_round_trip_type_differs
// CHECK: graph.cast %{{.+}} : tensor<?xf16> -> tensor<?xf32>
// CHECK: graph.cast %{{.+}} : tensor<?xf32> -> tensor<4xf16>
func.func @cast_round_trip_type_differs(%h: tensor<?xf16>) -> tensor<4xf16> {
  %0 = graph.cast %h : tensor<?xf16> -> tensor<?xf32>
  %1 = graph.cast %0 : tensor<?xf32> -> tensor<4xf16>
  return %1 : tensor<4xf16>
}

// -----

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @transpose_identity
// CHECK-SAME: (%[[X:.+]]: tensor<2x?x4xf32>)
// CHECK-NOT: graph.transpose
// CHECK: return %[[X]]
func.func @transpose_identity(%x: tensor<2x?x4xf32>) -> tensor<2x?x4xf32> {
  %0 = graph.transpose %x, [0, 1, 2] : tensor<2x?x4xf32> -> tensor<2x?x4xf32>
  return %0 : tensor<2x?x4xf32>
}

// -----

// result[i] = mid[q[i]] = x[p[q[i]]]: p = [1, 2, 0], q = [2, 0, 1] gives
// [0, 1, 2], the identity, which then folds away.
// CHECK-LABEL: func.func @transpose_transpose_identity
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4xf32>)
// CHECK-NOT: graph.transpose
// CHECK: return %[[X]]
func.func @transpose_transpose_identity(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = graph.transpose %x, [1, 2, 0] : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %1 = graph.transpose %0, [2, 0, 1] : tensor<3x4x2xf32> -> tensor<2x3x4xf32>
  return %1 : tensor<2x3x4xf32>
}

// -----

// p = [1, 2, 0], q = [1, 0, 2]: composed [p[1], p[0], p[2]] = [2, 1, 0].
// CHECK-LABEL: func.func @transpose_transpose
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4xi1>)
// CHECK: %[[R:.+]] = graph.transpose %[[X]], [2, 1, 0] : tensor<2x3x4xi1> -> tensor<4x3x2xi1>
// CHECK-NOT: graph.transpose
// CHECK: return %[[R]]
func.func @transpose_transpose(%x: tensor<2x3x4xi1>) -> tensor<4x3x2xi1> {
  %0 = graph.transpose %x, [1, 2, 0] : tensor<2x3x4xi1> -> tensor<3x4x2xi1>
  %1 = graph.transpose %0, [1, 0, 2] : tensor<3x4x2xi1> -> tensor<4x3x2xi1>
  return %1 : tensor<4x3x2xi1>
}

// -----

// A transpose that moves only dims of size 1 is a reshape (no copy).
// CHECK-LABEL: func.func @transpose_unit_dims
// CHECK-SAME: (%[[X:.+]]: tensor<1x128x768xf32>)
// CHECK: %[[R:.+]] = graph.reshape %[[X]], [128, 1, 768] : tensor<1x128x768xf32> -> tensor<128x1x768xf32>
// CHECK-NOT: graph.transpose
// CHECK: return %[[R]]
func.func @transpose_unit_dims(%x: tensor<1x128x768xf32>) -> tensor<128x1x768xf32> {
  %0 = graph.transpose %x, [1, 0, 2] : tensor<1x128x768xf32> -> tensor<128x1x768xf32>
  return %0 : tensor<128x1x768xf32>
}

// -----

// One that reorders dims of other sizes stays a transpose.
// CHECK-LABEL: func.func @transpose_moves_data
// CHECK: graph.transpose %{{.+}}, [2, 0, 1] : tensor<1x128x768xf32> -> tensor<768x1x128xf32>
// CHECK-NOT: graph.reshape
func.func @transpose_moves_data(%x: tensor<1x128x768xf32>) -> tensor<768x1x128xf32> {
  %0 = graph.transpose %x, [2, 0, 1] : tensor<1x128x768xf32> -> tensor<768x1x128xf32>
  return %0 : tensor<768x1x128xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_noop
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>)
// CHECK-NOT: graph.reshape
// CHECK: return %[[X]]
func.func @reshape_noop(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = graph.reshape %x, [2, -1] : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A no-op reshape is folded only when the shape is static.
// CHECK-LABEL: func.func @reshape_dynamic_kept
// CHECK: %[[R:.+]] = graph.reshape %{{.+}}, [-1, 4] : tensor<?x4xf32> -> tensor<?x4xf32>
// CHECK: return %[[R]]
func.func @reshape_dynamic_kept(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = graph.reshape %x, [-1, 4] : tensor<?x4xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_reshape
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4xf32>)
// CHECK: %[[R:.+]] = graph.reshape %[[X]], [4, -1] : tensor<2x3x4xf32> -> tensor<4x6xf32>
// CHECK-NOT: graph.reshape
// CHECK: return %[[R]]
func.func @reshape_reshape(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %0 = graph.reshape %x, [6, 4] : tensor<2x3x4xf32> -> tensor<6x4xf32>
  %1 = graph.reshape %0, [24] : tensor<6x4xf32> -> tensor<24xf32>
  %2 = graph.reshape %1, [4, -1] : tensor<24xf32> -> tensor<4x6xf32>
  return %2 : tensor<4x6xf32>
}

// -----

// A chain back to the input shape disappears.
// CHECK-LABEL: func.func @reshape_reshape_noop
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xi32>)
// CHECK-NOT: graph.reshape
// CHECK: return %[[X]]
func.func @reshape_reshape_noop(%x: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %0 = graph.reshape %x, [6] : tensor<2x3xi32> -> tensor<6xi32>
  %1 = graph.reshape %0, [2, 3] : tensor<6xi32> -> tensor<2x3xi32>
  return %1 : tensor<2x3xi32>
}

// -----

// CHECK-LABEL: func.func @broadcast_noop
// CHECK-SAME: (%[[X:.+]]: tensor<4x3xf32>)
// CHECK-NOT: graph.broadcast_to
// CHECK: return %[[X]]
func.func @broadcast_noop(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %0 = graph.broadcast_to %x, [4, -1] : tensor<4x3xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_broadcast
// CHECK-SAME: (%[[X:.+]]: tensor<3xf32>)
// CHECK: %[[R:.+]] = graph.broadcast_to %[[X]], [2, 4, 3] : tensor<3xf32> -> tensor<2x4x3xf32>
// CHECK-NOT: graph.broadcast_to
// CHECK: return %[[R]]
func.func @broadcast_broadcast(%x: tensor<3xf32>) -> tensor<2x4x3xf32> {
  %0 = graph.broadcast_to %x, [4, 3] : tensor<3xf32> -> tensor<4x3xf32>
  %1 = graph.broadcast_to %0, [2, 4, 3] : tensor<4x3xf32> -> tensor<2x4x3xf32>
  return %1 : tensor<2x4x3xf32>
}

// -----

// The outer -1 refers to the inner result's dim: not composed.
// CHECK-LABEL: func.func @broadcast_broadcast_minus_one
// CHECK-SAME: (%[[X:.+]]: tensor<3xf32>)
// CHECK: %[[A:.+]] = graph.broadcast_to %[[X]], [4, 3]
// CHECK: %[[B:.+]] = graph.broadcast_to %[[A]], [2, -1, 3]
// CHECK: return %[[B]]
func.func @broadcast_broadcast_minus_one(%x: tensor<3xf32>) -> tensor<2x4x3xf32> {
  %0 = graph.broadcast_to %x, [4, 3] : tensor<3xf32> -> tensor<4x3xf32>
  %1 = graph.broadcast_to %0, [2, -1, 3] : tensor<4x3xf32> -> tensor<2x4x3xf32>
  return %1 : tensor<2x4x3xf32>
}

// -----

// CHECK-LABEL: func.func @slice_noop
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>)
// CHECK-NOT: graph.slice
// CHECK: return %[[X]]
func.func @slice_noop(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = graph.slice %x [0, 0] [4, 8] [1, 1] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @slice_kept
// CHECK: %[[A:.+]] = graph.slice %{{.+}} [1] [4] [1]
// CHECK: %[[B:.+]] = graph.slice %{{.+}} [0] [4] [2]
// CHECK: return %[[A]], %[[B]]
func.func @slice_kept(%x: tensor<4xf32>) -> (tensor<3xf32>, tensor<2xf32>) {
  %0 = graph.slice %x [1] [4] [1] : tensor<4xf32> -> tensor<3xf32>
  %1 = graph.slice %x [0] [4] [2] : tensor<4xf32> -> tensor<2xf32>
  return %0, %1 : tensor<3xf32>, tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @concat_one
// CHECK-SAME: (%[[X:.+]]: tensor<?x3xf16>)
// CHECK-NOT: graph.concat
// CHECK: return %[[X]]
func.func @concat_one(%x: tensor<?x3xf16>) -> tensor<?x3xf16> {
  %0 = graph.concat %x axis = 0 : tensor<?x3xf16> -> tensor<?x3xf16>
  return %0 : tensor<?x3xf16>
}

// -----

// CHECK-LABEL: func.func @reduce_no_axes
// CHECK-SAME: (%[[X:.+]]: tensor<4x?xi32>)
// CHECK-NOT: graph.reduce
// CHECK: return %[[X]], %[[X]]
func.func @reduce_no_axes(%x: tensor<4x?xi32>) -> (tensor<4x?xi32>, tensor<4x?xi32>) {
  %0 = graph.reduce sum %x axes = [] : tensor<4x?xi32> -> tensor<4x?xi32>
  %1 = graph.reduce max %x axes = [] keepdims : tensor<4x?xi32> -> tensor<4x?xi32>
  return %0, %1 : tensor<4x?xi32>, tensor<4x?xi32>
}

// -----

//===----------------------------------------------------------------------===//
// Splat constants fold; values computed by hand.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @splat_binary
// CHECK-DAG: %[[ADD:.+]] = graph.constant dense<3.500000e+00> : tensor<2x3xf32>
// CHECK-DAG: %[[SUB:.+]] = graph.constant dense<-2> : tensor<4xi32>
// CHECK-DAG: %[[MUL:.+]] = graph.constant dense<12> : tensor<4xi32>
// CHECK-DAG: %[[DIV:.+]] = graph.constant dense<-3> : tensor<4xi32>
// CHECK-DAG: %[[FDIV:.+]] = graph.constant dense<-2.500000e-01> : tensor<4xf16>
// CHECK-DAG: %[[MAX:.+]] = graph.constant dense<7> : tensor<4xi64>
// CHECK-DAG: %[[MIN:.+]] = graph.constant dense<-2> : tensor<4xi64>
// CHECK-DAG: %[[POW:.+]] = graph.constant dense<8.000000e+00> : tensor<4xbf16>
// CHECK-NOT: graph.add
// CHECK-NOT: graph.sub
// CHECK-NOT: graph.mul
// CHECK-NOT: graph.div
// CHECK-NOT: graph.max
// CHECK-NOT: graph.min
// CHECK-NOT: graph.pow
// CHECK: return %[[ADD]], %[[SUB]], %[[MUL]], %[[DIV]], %[[FDIV]], %[[MAX]], %[[MIN]], %[[POW]]
func.func @splat_binary() -> (tensor<2x3xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xf16>, tensor<4xi64>, tensor<4xi64>, tensor<4xbf16>) {
  %a = graph.constant dense<1.5> : tensor<3xf32>
  %b = graph.constant dense<2.0> : tensor<2x1xf32>
  %0 = graph.add %a, %b : tensor<3xf32>, tensor<2x1xf32> -> tensor<2x3xf32>
  %i5 = graph.constant dense<5> : tensor<4xi32>
  %i7 = graph.constant dense<7> : tensor<4xi32>
  %1 = graph.sub %i5, %i7 : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %i3 = graph.constant dense<3> : tensor<4xi32>
  %i4 = graph.constant dense<4> : tensor<i32>
  %2 = graph.mul %i3, %i4 : tensor<4xi32>, tensor<i32> -> tensor<4xi32>
  // Integer division truncates toward zero: 7 / -2 = -3.
  %im2 = graph.constant dense<-2> : tensor<4xi32>
  %3 = graph.div %i7, %im2 : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %h1 = graph.constant dense<1.0> : tensor<4xf16>
  %hm4 = graph.constant dense<-4.0> : tensor<4xf16>
  %4 = graph.div %h1, %hm4 : tensor<4xf16>, tensor<4xf16> -> tensor<4xf16>
  %l7 = graph.constant dense<7> : tensor<4xi64>
  %lm2 = graph.constant dense<-2> : tensor<4xi64>
  %5 = graph.max %l7, %lm2 : tensor<4xi64>, tensor<4xi64> -> tensor<4xi64>
  %6 = graph.min %l7, %lm2 : tensor<4xi64>, tensor<4xi64> -> tensor<4xi64>
  %b2 = graph.constant dense<2.0> : tensor<4xbf16>
  %b3 = graph.constant dense<3.0> : tensor<bf16>
  %7 = graph.pow %b2, %b3 : tensor<4xbf16>, tensor<bf16> -> tensor<4xbf16>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<2x3xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xf16>, tensor<4xi64>, tensor<4xi64>, tensor<4xbf16>
}

// -----

// Integers wrap to their width; floats are rounded once to the result type
// (ties to even): 1 + 2^-8 is halfway between two bf16 values, 2048 + 1
// halfway between two f16 values, and both round down to the even one.
// CHECK-LABEL: func.func @splat_rounding
// CHECK-DAG: %[[WRAP:.+]] = graph.constant dense<-2147483648> : tensor<2xi32>
// CHECK-DAG: %[[BF:.+]] = graph.constant dense<1.000000e+00> : tensor<2xbf16>
// CHECK-DAG: %[[H:.+]] = graph.constant dense<2.048000e+03> : tensor<2xf16>
// CHECK: return %[[WRAP]], %[[BF]], %[[H]]
func.func @splat_rounding() -> (tensor<2xi32>, tensor<2xbf16>, tensor<2xf16>) {
  %max = graph.constant dense<2147483647> : tensor<2xi32>
  %one = graph.constant dense<1> : tensor<2xi32>
  %0 = graph.add %max, %one : tensor<2xi32>, tensor<2xi32> -> tensor<2xi32>
  %b1 = graph.constant dense<1.0> : tensor<2xbf16>
  %beps = graph.constant dense<0.00390625> : tensor<2xbf16>
  %1 = graph.add %b1, %beps : tensor<2xbf16>, tensor<2xbf16> -> tensor<2xbf16>
  %h2048 = graph.constant dense<2048.0> : tensor<2xf16>
  %h1 = graph.constant dense<1.0> : tensor<2xf16>
  %2 = graph.add %h2048, %h1 : tensor<2xf16>, tensor<2xf16> -> tensor<2xf16>
  return %0, %1, %2 : tensor<2xi32>, tensor<2xbf16>, tensor<2xf16>
}

// -----

// Integer division never traps: x / 0 = 0 and INT_MIN / -1 = INT_MIN;
// neg and abs of INT_MIN give INT_MIN. -0.0 + +0.0 = +0.0: the identity
// fold does not apply to +0.0, the value is computed.
// CHECK-LABEL: func.func @splat_integer_edges
// CHECK-DAG: %[[DIV0:.+]] = graph.constant dense<0> : tensor<2xi32>
// CHECK-DAG: %[[MIN32:.+]] = graph.constant dense<-2147483648> : tensor<2xi32>
// CHECK-DAG: %[[MIN64:.+]] = graph.constant dense<-9223372036854775808> : tensor<2xi64>
// CHECK-DAG: %[[PZERO:.+]] = graph.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-NOT: graph.div
// CHECK-NOT: graph.neg
// CHECK-NOT: graph.abs
// CHECK-NOT: graph.add
// CHECK: return %[[DIV0]], %[[MIN32]], %[[MIN64]], %[[MIN32]], %[[MIN32]], %[[PZERO]]
func.func @splat_integer_edges() -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi64>, tensor<2xi32>, tensor<2xi32>, tensor<2xf32>) {
  %seven = graph.constant dense<7> : tensor<2xi32>
  %zero = graph.constant dense<0> : tensor<2xi32>
  %0 = graph.div %seven, %zero : tensor<2xi32>, tensor<2xi32> -> tensor<2xi32>
  %min = graph.constant dense<-2147483648> : tensor<2xi32>
  %m1 = graph.constant dense<-1> : tensor<2xi32>
  %1 = graph.div %min, %m1 : tensor<2xi32>, tensor<2xi32> -> tensor<2xi32>
  %lmin = graph.constant dense<-9223372036854775808> : tensor<2xi64>
  %lm1 = graph.constant dense<-1> : tensor<i64>
  %2 = graph.div %lmin, %lm1 : tensor<2xi64>, tensor<i64> -> tensor<2xi64>
  %3 = graph.neg %min : tensor<2xi32> -> tensor<2xi32>
  %4 = graph.abs %min : tensor<2xi32> -> tensor<2xi32>
  %nz = graph.constant dense<-0.0> : tensor<2xf32>
  %pz = graph.constant dense<0.0> : tensor<2xf32>
  %5 = graph.add %nz, %pz : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<2xi32>, tensor<2xi32>, tensor<2xi64>, tensor<2xi32>, tensor<2xi32>, tensor<2xf32>
}

// -----

// max and min propagate NaN (torch.maximum).
// CHECK-LABEL: func.func @splat_max_nan
// CHECK: %[[NAN:.+]] = graph.constant dense<0x7FC00000> : tensor<3xf32>
// CHECK-NOT: graph.max
// CHECK-NOT: graph.min
// CHECK: return %[[NAN]], %[[NAN]]
func.func @splat_max_nan() -> (tensor<3xf32>, tensor<3xf32>) {
  %nan = graph.constant dense<0x7FC00000> : tensor<3xf32>
  %one = graph.constant dense<1.0> : tensor<3xf32>
  %0 = graph.max %one, %nan : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  %1 = graph.min %nan, %one : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return %0, %1 : tensor<3xf32>, tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @splat_unary
// CHECK-DAG: %[[NEG:.+]] = graph.constant dense<-3> : tensor<4xi32>
// CHECK-DAG: %[[ABS:.+]] = graph.constant dense<2.500000e+00> : tensor<4xf32>
// CHECK-DAG: %[[ONE:.+]] = graph.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-DAG: %[[ZERO:.+]] = graph.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-DAG: %[[TWO:.+]] = graph.constant dense<2.000000e+00> : tensor<4xf32>
// CHECK-DAG: %[[HALF:.+]] = graph.constant dense<5.000000e-01> : tensor<4xf32>
// CHECK-DAG: %[[IRELU:.+]] = graph.constant dense<0> : tensor<4xi64>
// CHECK-NOT: graph.neg
// CHECK-NOT: graph.abs
// CHECK-NOT: graph.exp
// CHECK-NOT: graph.log
// CHECK-NOT: graph.sqrt
// CHECK-NOT: graph.rsqrt
// CHECK-NOT: graph.tanh
// CHECK-NOT: graph.sigmoid
// CHECK-NOT: graph.relu
// CHECK-NOT: graph.silu
// CHECK-NOT: graph.gelu
// CHECK: return %[[NEG]], %[[ABS]], %[[ONE]], %[[ZERO]], %[[TWO]], %[[HALF]], %[[ZERO]], %[[HALF]], %[[ZERO]], %[[IRELU]], %[[ZERO]], %[[ZERO]], %[[ZERO]]
func.func @splat_unary() -> (tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi64>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %i3 = graph.constant dense<3> : tensor<4xi32>
  %0 = graph.neg %i3 : tensor<4xi32> -> tensor<4xi32>
  %m = graph.constant dense<-2.5> : tensor<4xf32>
  %1 = graph.abs %m : tensor<4xf32> -> tensor<4xf32>
  %z = graph.constant dense<0.0> : tensor<4xf32>
  // exp(0) = 1
  %2 = graph.exp %z : tensor<4xf32> -> tensor<4xf32>
  // log(1) = 0
  %one = graph.constant dense<1.0> : tensor<4xf32>
  %3 = graph.log %one : tensor<4xf32> -> tensor<4xf32>
  // sqrt(4) = 2, rsqrt(4) = 0.5
  %four = graph.constant dense<4.0> : tensor<4xf32>
  %4 = graph.sqrt %four : tensor<4xf32> -> tensor<4xf32>
  %5 = graph.rsqrt %four : tensor<4xf32> -> tensor<4xf32>
  // tanh(0) = 0, sigmoid(0) = 1/2
  %6 = graph.tanh %z : tensor<4xf32> -> tensor<4xf32>
  %7 = graph.sigmoid %z : tensor<4xf32> -> tensor<4xf32>
  // relu(-2.5) = 0, relu(-7) = 0
  %8 = graph.relu %m : tensor<4xf32> -> tensor<4xf32>
  %im7 = graph.constant dense<-7> : tensor<4xi64>
  %9 = graph.relu %im7 : tensor<4xi64> -> tensor<4xi64>
  // silu(0) = gelu(0) = 0, both approximations
  %10 = graph.silu %z : tensor<4xf32> -> tensor<4xf32>
  %11 = graph.gelu %z : tensor<4xf32> -> tensor<4xf32>
  %12 = graph.gelu %z approximate = tanh : tensor<4xf32> -> tensor<4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12 : tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi64>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Float comparisons are ordered: NaN compares false except under ne.
// CHECK-LABEL: func.func @splat_compare
// CHECK-DAG: %[[T:.+]] = graph.constant dense<true> : tensor<2xi1>
// CHECK-DAG: %[[F:.+]] = graph.constant dense<false> : tensor<2xi1>
// CHECK-NOT: graph.compare
// CHECK: return %[[T]], %[[F]], %[[F]], %[[T]], %[[F]], %[[F]], %[[T]], %[[T]]
func.func @splat_compare() -> (tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>) {
  %a = graph.constant dense<2> : tensor<2xi32>
  %b = graph.constant dense<-1> : tensor<i32>
  %0 = graph.compare gt, %a, %b : tensor<2xi32>, tensor<i32> -> tensor<2xi1>
  %1 = graph.compare lt, %a, %b : tensor<2xi32>, tensor<i32> -> tensor<2xi1>
  %2 = graph.compare eq, %a, %b : tensor<2xi32>, tensor<i32> -> tensor<2xi1>
  %nan = graph.constant dense<0x7FC00000> : tensor<2xf32>
  %n0 = graph.compare ne, %nan, %nan : tensor<2xf32>, tensor<2xf32> -> tensor<2xi1>
  %n1 = graph.compare eq, %nan, %nan : tensor<2xf32>, tensor<2xf32> -> tensor<2xi1>
  %n2 = graph.compare ge, %nan, %nan : tensor<2xf32>, tensor<2xf32> -> tensor<2xi1>
  %h = graph.constant dense<1.5> : tensor<2xf16>
  %3 = graph.compare le, %h, %h : tensor<2xf16>, tensor<2xf16> -> tensor<2xi1>
  // i1 compares as 0 < 1.
  %t = graph.constant dense<true> : tensor<2xi1>
  %f = graph.constant dense<false> : tensor<2xi1>
  %4 = graph.compare gt, %t, %f : tensor<2xi1>, tensor<2xi1> -> tensor<2xi1>
  return %0, %1, %2, %n0, %n1, %n2, %3, %4 : tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>
}

// -----

// Casts: float -> int truncates toward zero; to i1 tests != 0; i1 gives 0
// or 1; integer widening sign-extends.
// CHECK-LABEL: func.func @splat_cast
// CHECK-DAG: %[[TRUNC:.+]] = graph.constant dense<-2> : tensor<3xi32>
// CHECK-DAG: %[[BOOL:.+]] = graph.constant dense<true> : tensor<3xi1>
// CHECK-DAG: %[[ONE:.+]] = graph.constant dense<1> : tensor<3xi32>
// CHECK-DAG: %[[SEXT:.+]] = graph.constant dense<-1> : tensor<3xi64>
// CHECK-DAG: %[[F:.+]] = graph.constant dense<1.000000e+00> : tensor<3xf16>
// CHECK-DAG: %[[G:.+]] = graph.constant dense<-7.000000e+00> : tensor<3xbf16>
// CHECK-NOT: graph.cast
// CHECK: return %[[TRUNC]], %[[BOOL]], %[[ONE]], %[[SEXT]], %[[F]], %[[G]]
func.func @splat_cast() -> (tensor<3xi32>, tensor<3xi1>, tensor<3xi32>, tensor<3xi64>, tensor<3xf16>, tensor<3xbf16>) {
  %x = graph.constant dense<-2.7> : tensor<3xf32>
  %0 = graph.cast %x : tensor<3xf32> -> tensor<3xi32>
  %h = graph.constant dense<0.5> : tensor<3xf16>
  %1 = graph.cast %h : tensor<3xf16> -> tensor<3xi1>
  %t = graph.constant dense<true> : tensor<3xi1>
  %2 = graph.cast %t : tensor<3xi1> -> tensor<3xi32>
  %m = graph.constant dense<-1> : tensor<3xi32>
  %3 = graph.cast %m : tensor<3xi32> -> tensor<3xi64>
  %4 = graph.cast %t : tensor<3xi1> -> tensor<3xf16>
  %l = graph.constant dense<-7> : tensor<3xi64>
  %5 = graph.cast %l : tensor<3xi64> -> tensor<3xbf16>
  return %0, %1, %2, %3, %4, %5 : tensor<3xi32>, tensor<3xi1>, tensor<3xi32>, tensor<3xi64>, tensor<3xf16>, tensor<3xbf16>
}

// -----

// Shape ops on a splat give a splat of the result shape.
// CHECK-LABEL: func.func @splat_shape_ops
// CHECK-DAG: %[[T:.+]] = graph.constant dense<2.000000e+00> : tensor<3x2xf32>
// CHECK-DAG: %[[R:.+]] = graph.constant dense<2.000000e+00> : tensor<6xf32>
// CHECK-DAG: %[[B:.+]] = graph.constant dense<7> : tensor<4x2x3xi32>
// CHECK-DAG: %[[S:.+]] = graph.constant dense<2.000000e+00> : tensor<1x2xf32>
// CHECK-DAG: %[[SEL:.+]] = graph.constant dense<5> : tensor<2x3xi32>
// CHECK-NOT: graph.transpose
// CHECK-NOT: graph.reshape
// CHECK-NOT: graph.broadcast_to
// CHECK-NOT: graph.slice
// CHECK-NOT: graph.select
// CHECK: return %[[T]], %[[R]], %[[B]], %[[S]], %[[SEL]]
func.func @splat_shape_ops() -> (tensor<3x2xf32>, tensor<6xf32>, tensor<4x2x3xi32>, tensor<1x2xf32>, tensor<2x3xi32>) {
  %x = graph.constant dense<2.0> : tensor<2x3xf32>
  %0 = graph.transpose %x, [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %1 = graph.reshape %x, [-1] : tensor<2x3xf32> -> tensor<6xf32>
  %i = graph.constant dense<7> : tensor<3xi32>
  %2 = graph.broadcast_to %i, [4, 2, 3] : tensor<3xi32> -> tensor<4x2x3xi32>
  %3 = graph.slice %x [1, 0] [2, 3] [1, 2] : tensor<2x3xf32> -> tensor<1x2xf32>
  // Splat condition, splat values of different shapes: the value broadcasts.
  %c = graph.constant dense<false> : tensor<2x1xi1>
  %a = graph.constant dense<3> : tensor<i32>
  %b = graph.constant dense<5> : tensor<3xi32>
  %4 = graph.select %c, %a, %b : tensor<2x1xi1>, tensor<i32>, tensor<3xi32> -> tensor<2x3xi32>
  return %0, %1, %2, %3, %4 : tensor<3x2xf32>, tensor<6xf32>, tensor<4x2x3xi32>, tensor<1x2xf32>, tensor<2x3xi32>
}

// -----

// Dense (non-splat) operands are left to graph-fold-constants.
// CHECK-LABEL: func.func @dense_not_folded
// CHECK: %[[R:.+]] = graph.add
// CHECK: return %[[R]]
func.func @dense_not_folded() -> tensor<2xf32> {
  %a = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = graph.constant dense<3.0> : tensor<2xf32>
  %0 = graph.add %a, %b : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Reductions and concatenations of splats are not folded by canonicalization.
// CHECK-LABEL: func.func @splat_reduce_concat_not_folded
// CHECK: %[[R:.+]] = graph.reduce sum
// CHECK: %[[C:.+]] = graph.concat
// CHECK: return %[[R]], %[[C]]
func.func @splat_reduce_concat_not_folded() -> (tensor<f32>, tensor<4xf32>) {
  %a = graph.constant dense<1.0> : tensor<2xf32>
  %0 = graph.reduce sum %a axes = [0] : tensor<2xf32> -> tensor<f32>
  %1 = graph.concat %a, %a axis = 0 : tensor<2xf32>, tensor<2xf32> -> tensor<4xf32>
  return %0, %1 : tensor<f32>, tensor<4xf32>
}

// -----

// Unknown shapes give no constant.
// CHECK-LABEL: func.func @splat_dynamic_result
// CHECK: %[[R:.+]] = graph.add
// CHECK: return %[[R]]
func.func @splat_dynamic_result() -> tensor<?xf32> {
  %a = graph.constant dense<1.0> : tensor<2xf32>
  %0 = graph.add %a, %a : tensor<2xf32>, tensor<2xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// broadcast_to chains compose only from a static input: a dynamic dim was
// assumed equal to the inner target, not to the outer one.
// CHECK-LABEL: func.func @broadcast_chain_dynamic
// CHECK: graph.broadcast_to %{{.+}}, [1]
// CHECK: graph.broadcast_to %{{.+}}, [5]
func.func @broadcast_chain_dynamic(%x: tensor<?xf32>) -> tensor<5xf32> {
  %a = graph.broadcast_to %x, [1] : tensor<?xf32> -> tensor<1xf32>
  %b = graph.broadcast_to %a, [5] : tensor<1xf32> -> tensor<5xf32>
  return %b : tensor<5xf32>
}

// -----

// A graph.if on a constant condition inlines the chosen region, casting a
// yielded value whose type is more static than the result's. A yielded
// value that is already such a cast, made when an earlier graph.if folded,
// stays where it is: it must still dominate its users between the two
// (fuzz_graph.py --seed 20261301, program 27, specialized to static
// shapes: "operand #0 does not dominate this use").
// CHECK-LABEL: func.func @constant_if_yields_earlier_cast
// CHECK: %[[E:.+]] = graph.add %{{.+}}, %{{.+}} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %[[C:.+]] = graph.cast %[[E]] : tensor<4xf32> -> tensor<?xf32>
// CHECK-NEXT: %[[S:.+]] = graph.neg %[[C]]
// CHECK-NEXT: return %[[C]], %[[S]]
func.func @constant_if_yields_earlier_cast(%x: tensor<4xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %t = graph.constant dense<true> : tensor<i1>
  %f = graph.constant dense<false> : tensor<i1>
  %a = graph.if %t : tensor<i1> -> tensor<?xf32> {
    %e = graph.add %x, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
    graph.yield %e : tensor<4xf32>
  } else {
    graph.yield %x : tensor<4xf32>
  }
  %s = graph.neg %a : tensor<?xf32> -> tensor<?xf32>
  %b = graph.if %f : tensor<i1> -> tensor<?xf32> {
    graph.yield %s : tensor<?xf32>
  } else {
    graph.yield %a : tensor<?xf32>
  }
  return %b, %s : tensor<?xf32>, tensor<?xf32>
}
