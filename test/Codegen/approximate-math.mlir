// RUN: graph-opt %s --pass-pipeline='builtin.module(func.func(graph-approximate-math))' | FileCheck %s

// exp, tanh and erf on f32 vectors become arith polynomials (no libm
// calls); sqrt stays (it has a vector instruction).
// CHECK-LABEL: func.func @approx
// CHECK-NOT: math.exp
// CHECK-NOT: math.tanh
// CHECK-NOT: math.erf
// CHECK: math.sqrt
// CHECK: return
func.func @approx(%x: vector<16xf32>) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
  %e = math.exp %x : vector<16xf32>
  %t = math.tanh %x : vector<16xf32>
  %r = math.erf %x : vector<16xf32>
  %s = math.sqrt %x : vector<16xf32>
  return %e, %t, %r, %s : vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>
}
