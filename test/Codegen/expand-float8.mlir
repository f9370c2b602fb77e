// RUN: graph-opt %s --pass-pipeline='builtin.module(func.func(graph-expand-float8))' | FileCheck %s

// Conversions to and from the 8-bit floats become integer and f32 (f64)
// arithmetic on scalars and vectors; nothing of f8 is left but bitcasts
// from and to i8. The values are checked against ml_dtypes in
// test/Python/float8.test.

// CHECK-LABEL: func.func @ext
// CHECK-NOT: arith.extf {{.*}}f8E4M3FN
// CHECK: arith.bitcast %{{.*}} : vector<8xf8E4M3FN> to vector<8xi8>
// CHECK: arith.extui %{{.*}} : vector<8xi8> to vector<8xi32>
// CHECK: arith.uitofp
// CHECK: arith.bitcast %{{.*}} : vector<8xi32> to vector<8xf32>
func.func @ext(%x: vector<8xf8E4M3FN>) -> vector<8xf32> {
  %y = arith.extf %x : vector<8xf8E4M3FN> to vector<8xf32>
  return %y : vector<8xf32>
}

// E5M2 has infinities: the all-ones exponent with a zero mantissa.
// CHECK-LABEL: func.func @ext_e5m2
// CHECK: arith.constant 2139095040 : i32
// CHECK: arith.bitcast %{{.*}} : i32 to f32
func.func @ext_e5m2(%x: f8E5M2) -> f32 {
  %y = arith.extf %x : f8E5M2 to f32
  return %y : f32
}

// Round to nearest even (math.roundeven of |x| over its quantum), the
// clamp to the largest finite value (448), the NaN code 0x7F.
// CHECK-LABEL: func.func @trunc
// CHECK-NOT: arith.truncf {{.*}}to f8
// CHECK: arith.constant 4.480000e+02 : f32
// CHECK: math.roundeven %{{.*}} : f32
// CHECK: arith.select %{{.*}}, %c127_i32, %{{.*}} : i32
// CHECK: arith.trunci %{{.*}} : i32 to i8
// CHECK: arith.bitcast %{{.*}} : i8 to f8E4M3FN
func.func @trunc(%x: f32) -> f8E4M3FN {
  %y = arith.truncf %x : f32 to f8E4M3FN
  return %y : f8E4M3FN
}

// From f64 the arithmetic is f64's (one rounding).
// CHECK-LABEL: func.func @trunc_f64
// CHECK: math.roundeven %{{.*}} : vector<4xf64>
// CHECK: arith.trunci %{{.*}} : vector<4xi64> to vector<4xi8>
func.func @trunc_f64(%x: vector<4xf64>) -> vector<4xf8E5M2FNUZ> {
  %y = arith.truncf %x : vector<4xf64> to vector<4xf8E5M2FNUZ>
  return %y : vector<4xf8E5M2FNUZ>
}

// Constants: their bits as i8.
// CHECK-LABEL: func.func @constants
// CHECK: arith.constant dense<[56, -64]> : vector<2xi8>
// CHECK: arith.bitcast %{{.*}} : vector<2xi8> to vector<2xf8E4M3FN>
func.func @constants() -> vector<2xf8E4M3FN> {
  %c = arith.constant dense<[1.0, -2.0]> : vector<2xf8E4M3FN>
  return %c : vector<2xf8E4M3FN>
}
