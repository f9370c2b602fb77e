// RUN: graph-run %s --entry=arith --quiet \
// RUN:   --expected-output=2x3xf32=11,12,13,21,22,23 \
// RUN:   --expected-output=2xf32=4,5 --expected-output=2xf32=3,-6 \
// RUN:   --expected-output=2xf32=0.25,-0.375 --expected-output=2xf32=1,0 \
// RUN:   --expected-output=2xf32=0,-1 --expected-output=2xf32=8,3 \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=ARITH
// RUN: graph-run %s --entry=arith --quiet --optimize=0 \
// RUN:   --expected-output=2x3xf32=11,12,13,21,22,23 \
// RUN:   --expected-output=2xf32=4,5 --expected-output=2xf32=3,-6 \
// RUN:   --expected-output=2xf32=0.25,-0.375 --expected-output=2xf32=1,0 \
// RUN:   --expected-output=2xf32=0,-1 --expected-output=2xf32=8,3 \
// RUN:   --rtol=1e-6 --atol=0 | FileCheck %s --check-prefix=ARITH

// RUN: graph-run %s --entry=unary --quiet \
// RUN:   --expected-output=3xf32=-1,2,-0 --expected-output=3xf32=1,2,0 \
// RUN:   --expected-output=3xf32=1,0,0 --expected-output=2xf32=1,3 \
// RUN:   --expected-output=2xf32=0,2 --expected-output=2xf32=2,0.5 \
// RUN:   --expected-output=2xf32=0.5,2 --expected-output=2xf32=0.8,0.5 \
// RUN:   --expected-output=2xf32=0.8239592165010823,0.8413447460685429 \
// RUN:   --rtol=1e-6 --atol=1e-6 | FileCheck %s --check-prefix=UNARY
// RUN: graph-run %s --entry=unary --quiet --optimize=0 \
// RUN:   --expected-output=3xf32=-1,2,-0 --expected-output=3xf32=1,2,0 \
// RUN:   --expected-output=3xf32=1,0,0 --expected-output=2xf32=1,3 \
// RUN:   --expected-output=2xf32=0,2 --expected-output=2xf32=2,0.5 \
// RUN:   --expected-output=2xf32=0.5,2 --expected-output=2xf32=0.8,0.5 \
// RUN:   --expected-output=2xf32=0.8239592165010823,0.8413447460685429 \
// RUN:   --rtol=1e-6 --atol=1e-6 | FileCheck %s --check-prefix=UNARY

// RUN: graph-run %s --entry=integer --quiet \
// RUN:   --expected-output=4xi32=3,-3,0,-2147483648 \
// RUN:   --expected-output=2xi32=-2147483648,0 \
// RUN:   --expected-output=2xi32=-2147483648,-5 \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=THREE
// RUN: graph-run %s --entry=integer --quiet --optimize=0 \
// RUN:   --expected-output=4xi32=3,-3,0,-2147483648 \
// RUN:   --expected-output=2xi32=-2147483648,0 \
// RUN:   --expected-output=2xi32=-2147483648,-5 \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=THREE

// RUN: graph-run %s --entry=integer64 --quiet \
// RUN:   --expected-output=3xi64=-9223372036854775808,0,-4 \
// RUN:   --expected-output=2xi64=-9223372036854775808,-9223372036854775808 \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=TWO
// RUN: graph-run %s --entry=integer64 --quiet --optimize=0 \
// RUN:   --expected-output=3xi64=-9223372036854775808,0,-4 \
// RUN:   --expected-output=2xi64=-9223372036854775808,-9223372036854775808 \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=TWO

// RUN: graph-run %s --entry=casts --quiet \
// RUN:   --expected-output=2xi32=2,-2 --expected-output=3xi1=true,true,false \
// RUN:   --expected-output=f32=0.0999755859375 \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=THREE
// RUN: graph-run %s --entry=casts --quiet --optimize=0 \
// RUN:   --expected-output=2xi32=2,-2 --expected-output=3xi1=true,true,false \
// RUN:   --expected-output=f32=0.0999755859375 \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=THREE

// RUN: graph-run %s --entry=compare_select --quiet \
// RUN:   --expected-output=3xi1=true,false,false --expected-output=3xf32=1,20,30 \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=TWO
// RUN: graph-run %s --entry=compare_select --quiet --optimize=0 \
// RUN:   --expected-output=3xi1=true,false,false --expected-output=3xf32=1,20,30 \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=TWO

// RUN: graph-run %s --entry=shapes --quiet \
// RUN:   --expected-output=3x2xf32=1,4,2,5,3,6 --expected-output=3x2xf32=1,2,3,4,5,6 \
// RUN:   --expected-output=2x2xf32=1,2,1,2 --expected-output=2x2xf32=1,3,2,4 \
// RUN:   --expected-output=3xf32=0,2,4 \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=SHAPES
// RUN: graph-run %s --entry=shapes --quiet --optimize=0 \
// RUN:   --expected-output=3x2xf32=1,4,2,5,3,6 --expected-output=3x2xf32=1,2,3,4,5,6 \
// RUN:   --expected-output=2x2xf32=1,2,1,2 --expected-output=2x2xf32=1,3,2,4 \
// RUN:   --expected-output=3xf32=0,2,4 \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=SHAPES

// RUN: graph-run %s --entry=reductions --quiet \
// RUN:   --expected-output=2xf32=4,6 --expected-output=f32=2.5 \
// RUN:   --expected-output=2x1xf32=2,4 --expected-output=2xf32=0.25,0.75 \
// RUN:   --rtol=1e-6 --atol=1e-6 | FileCheck %s --check-prefix=FOUR
// RUN: graph-run %s --entry=reductions --quiet --optimize=0 \
// RUN:   --expected-output=2xf32=4,6 --expected-output=f32=2.5 \
// RUN:   --expected-output=2x1xf32=2,4 --expected-output=2xf32=0.25,0.75 \
// RUN:   --rtol=1e-6 --atol=1e-6 | FileCheck %s --check-prefix=FOUR

// RUN: graph-run %s --entry=splats --quiet \
// RUN:   --expected-output=2x2xf32=5 --expected-output=3xi32=0 \
// RUN:   --expected-output=2x3xf32=-1.5 --expected-output=2x2xf32=19,22,43,50 \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=FOUR
// RUN: graph-run %s --entry=splats --quiet --optimize=0 \
// RUN:   --expected-output=2x2xf32=5 --expected-output=3xi32=0 \
// RUN:   --expected-output=2x3xf32=-1.5 --expected-output=2x2xf32=19,22,43,50 \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=FOUR

// TWO: result 0: matches expected
// TWO: result 1: matches expected

// THREE: result 0: matches expected
// THREE: result 1: matches expected
// THREE: result 2: matches expected

// FOUR: result 0: matches expected
// FOUR: result 1: matches expected
// FOUR: result 2: matches expected
// FOUR: result 3: matches expected

// SHAPES-COUNT-5: matches expected

// ARITH-COUNT-7: matches expected

// UNARY-COUNT-9: matches expected

// add (broadcast), sub, mul, div, max, min, pow.

// Programs on constants only. By default graph-level optimization evaluates
// them at compile time (graph-fold-constants and the op folders, including
// the splat folds); with --optimize=0 the same ops are compiled and run.
// Both must give the hand-computed values below (no NumPy, no graphopt
// output). The transcendental cases allow 1e-6 (a few f32 ulp); the rest is
// exact.
//   ln 3 = 1.0986122886681098, e^2 = 7.38905609893065,
//   silu(ln 3) = 0.75 ln 3 = 0.8239592165010823, gelu(1) = Phi(1) =
//   0.8413447460685429, f16(0.1) = 1638/16384 = 0.0999755859375.

func.func @arith() -> (tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>,
                       tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %a = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = graph.constant dense<[[10.0], [20.0]]> : tensor<2x1xf32>
  %c = graph.constant dense<[5.0, 7.0]> : tensor<2xf32>
  %d = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %e = graph.constant dense<[1.5, -2.0]> : tensor<2xf32>
  %f = graph.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %g = graph.constant dense<[1.0, 3.0]> : tensor<2xf32>
  %h = graph.constant dense<[4.0, -8.0]> : tensor<2xf32>
  %i = graph.constant dense<[1.0, -1.0]> : tensor<2xf32>
  %z = graph.constant dense<[0.0, 0.0]> : tensor<2xf32>
  %p = graph.constant dense<[2.0, 9.0]> : tensor<2xf32>
  %q = graph.constant dense<[3.0, 0.5]> : tensor<2xf32>
  %0 = graph.add %a, %b : tensor<3xf32>, tensor<2x1xf32> -> tensor<2x3xf32>
  %1 = graph.sub %c, %d : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  %2 = graph.mul %e, %f : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  %3 = graph.div %g, %h : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  %4 = graph.max %i, %z : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  %5 = graph.min %i, %z : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  %6 = graph.pow %p, %q : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>,
      tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// neg, abs, relu, exp, log, sqrt, rsqrt, [tanh, sigmoid], [silu, gelu].
func.func @unary() -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2xf32>,
                       tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>,
                       tensor<2xf32>) {
  %x = graph.constant dense<[1.0, -2.0, 0.0]> : tensor<3xf32>
  %l = graph.constant dense<[0.0, 1.0986122886681098]> : tensor<2xf32>
  %e = graph.constant dense<[1.0, 7.38905609893065]> : tensor<2xf32>
  %s = graph.constant dense<[4.0, 0.25]> : tensor<2xf32>
  %t = graph.constant dense<[1.0986122886681098, 0.0]> : tensor<2xf32>
  %u = graph.constant dense<[1.0986122886681098, 1.0]> : tensor<2xf32>
  %0 = graph.neg %x : tensor<3xf32> -> tensor<3xf32>
  %1 = graph.abs %x : tensor<3xf32> -> tensor<3xf32>
  %2 = graph.relu %x : tensor<3xf32> -> tensor<3xf32>
  %3 = graph.exp %l : tensor<2xf32> -> tensor<2xf32>
  %4 = graph.log %e : tensor<2xf32> -> tensor<2xf32>
  %5 = graph.sqrt %s : tensor<2xf32> -> tensor<2xf32>
  %6 = graph.rsqrt %s : tensor<2xf32> -> tensor<2xf32>
  %th = graph.tanh %t : tensor<2xf32> -> tensor<2xf32>
  %sg = graph.sigmoid %t : tensor<2xf32> -> tensor<2xf32>
  %7 = graph.slice %th [0] [1] [1] : tensor<2xf32> -> tensor<1xf32>
  %8 = graph.slice %sg [1] [2] [1] : tensor<2xf32> -> tensor<1xf32>
  %9 = graph.concat %7, %8 axis = 0 : tensor<1xf32>, tensor<1xf32> -> tensor<2xf32>
  %si = graph.silu %u : tensor<2xf32> -> tensor<2xf32>
  %ge = graph.gelu %u : tensor<2xf32> -> tensor<2xf32>
  %10 = graph.slice %si [0] [1] [1] : tensor<2xf32> -> tensor<1xf32>
  %11 = graph.slice %ge [1] [2] [1] : tensor<2xf32> -> tensor<1xf32>
  %12 = graph.concat %10, %11 axis = 0 : tensor<1xf32>, tensor<1xf32> -> tensor<2xf32>
  return %0, %1, %2, %3, %4, %5, %6, %9, %12 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>,
      tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// div (truncation, x / 0 = 0, INT_MIN / -1 = INT_MIN), add and mul that wrap,
// neg(INT_MIN) = INT_MIN.
func.func @integer() -> (tensor<4xi32>, tensor<2xi32>, tensor<2xi32>) {
  %a = graph.constant dense<[7, -7, 5, -2147483648]> : tensor<4xi32>
  %b = graph.constant dense<[2, 2, 0, -1]> : tensor<4xi32>
  %c = graph.constant dense<[2147483647, 65536]> : tensor<2xi32>
  %d = graph.constant dense<[1, 65536]> : tensor<2xi32>
  %n = graph.constant dense<[-2147483648, 5]> : tensor<2xi32>
  %0 = graph.div %a, %b : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %s = graph.add %c, %d : tensor<2xi32>, tensor<2xi32> -> tensor<2xi32>
  %m = graph.mul %c, %d : tensor<2xi32>, tensor<2xi32> -> tensor<2xi32>
  %s0 = graph.slice %s [0] [1] [1] : tensor<2xi32> -> tensor<1xi32>
  %m1 = graph.slice %m [1] [2] [1] : tensor<2xi32> -> tensor<1xi32>
  %1 = graph.concat %s0, %m1 axis = 0 : tensor<1xi32>, tensor<1xi32> -> tensor<2xi32>
  %2 = graph.neg %n : tensor<2xi32> -> tensor<2xi32>
  return %0, %1, %2 : tensor<4xi32>, tensor<2xi32>, tensor<2xi32>
}

// i64: INT64_MIN / -1 = INT64_MIN, x / 0 = 0, -9 / 2 = -4; INT64_MAX + 1
// and neg(INT64_MIN) wrap to INT64_MIN.
func.func @integer64() -> (tensor<3xi64>, tensor<2xi64>) {
  %a = graph.constant dense<[-9223372036854775808, 7, -9]> : tensor<3xi64>
  %b = graph.constant dense<[-1, 0, 2]> : tensor<3xi64>
  %c = graph.constant dense<9223372036854775807> : tensor<1xi64>
  %d = graph.constant dense<1> : tensor<1xi64>
  %e = graph.constant dense<-9223372036854775808> : tensor<1xi64>
  %0 = graph.div %a, %b : tensor<3xi64>, tensor<3xi64> -> tensor<3xi64>
  %s = graph.add %c, %d : tensor<1xi64>, tensor<1xi64> -> tensor<1xi64>
  %n = graph.neg %e : tensor<1xi64> -> tensor<1xi64>
  %1 = graph.concat %s, %n axis = 0 : tensor<1xi64>, tensor<1xi64> -> tensor<2xi64>
  return %0, %1 : tensor<3xi64>, tensor<2xi64>
}

// f32 -> i32 truncates; i32 -> i1 tests != 0; f32 -> f16 -> f32 rounds.
func.func @casts() -> (tensor<2xi32>, tensor<3xi1>, tensor<f32>) {
  %a = graph.constant dense<[2.7, -2.7]> : tensor<2xf32>
  %b = graph.constant dense<[3, -1, 0]> : tensor<3xi32>
  %c = graph.constant dense<0.1> : tensor<f32>
  %0 = graph.cast %a : tensor<2xf32> -> tensor<2xi32>
  %1 = graph.cast %b : tensor<3xi32> -> tensor<3xi1>
  %h = graph.cast %c : tensor<f32> -> tensor<f16>
  %2 = graph.cast %h : tensor<f16> -> tensor<f32>
  return %0, %1, %2 : tensor<2xi32>, tensor<3xi1>, tensor<f32>
}

func.func @compare_select() -> (tensor<3xi1>, tensor<3xf32>) {
  %a = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = graph.constant dense<2.0> : tensor<1xf32>
  %c = graph.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %m = graph.compare lt, %a, %b : tensor<3xf32>, tensor<1xf32> -> tensor<3xi1>
  %s = graph.select %m, %a, %c : tensor<3xi1>, tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return %m, %s : tensor<3xi1>, tensor<3xf32>
}

// transpose, reshape, broadcast_to, concat (axis 1), slice (step 2).
func.func @shapes() -> (tensor<3x2xf32>, tensor<3x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>,
                        tensor<3xf32>) {
  %x = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %r = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %c0 = graph.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %c1 = graph.constant dense<[[3.0], [4.0]]> : tensor<2x1xf32>
  %v = graph.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<6xf32>
  %0 = graph.transpose %x, [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %1 = graph.reshape %x, [3, -1] : tensor<2x3xf32> -> tensor<3x2xf32>
  %2 = graph.broadcast_to %r, [2, 2] : tensor<2xf32> -> tensor<2x2xf32>
  %3 = graph.concat %c0, %c1 axis = 1 : tensor<2x1xf32>, tensor<2x1xf32> -> tensor<2x2xf32>
  %4 = graph.slice %v [0] [5] [2] : tensor<6xf32> -> tensor<3xf32>
  return %0, %1, %2, %3, %4 : tensor<3x2xf32>, tensor<3x2xf32>, tensor<2x2xf32>,
      tensor<2x2xf32>, tensor<3xf32>
}

func.func @reductions() -> (tensor<2xf32>, tensor<f32>, tensor<2x1xf32>, tensor<2xf32>) {
  %x = graph.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %l = graph.constant dense<[0.0, 1.0986122886681098]> : tensor<2xf32>
  %0 = graph.reduce sum %x axes = [0] : tensor<2x2xf32> -> tensor<2xf32>
  %1 = graph.reduce mean %x axes = [0, 1] : tensor<2x2xf32> -> tensor<f32>
  %2 = graph.reduce max %x axes = [1] keepdims : tensor<2x2xf32> -> tensor<2x1xf32>
  %3 = graph.softmax %l axis = 0 : tensor<2xf32> -> tensor<2xf32>
  return %0, %1, %2, %3 : tensor<2xf32>, tensor<f32>, tensor<2x1xf32>, tensor<2xf32>
}

// Splat operands: 2 + 3 = 5; 4 / 0 = 0 (i32); neg of a broadcast splat;
// and a matmul of constants (never folded).
func.func @splats() -> (tensor<2x2xf32>, tensor<3xi32>, tensor<2x3xf32>, tensor<2x2xf32>) {
  %a = graph.constant dense<2.0> : tensor<2x2xf32>
  %b = graph.constant dense<3.0> : tensor<2x2xf32>
  %c = graph.constant dense<4> : tensor<3xi32>
  %d = graph.constant dense<0> : tensor<3xi32>
  %e = graph.constant dense<1.5> : tensor<3xf32>
  %m = graph.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %n = graph.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32>
  %0 = graph.add %a, %b : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
  %1 = graph.div %c, %d : tensor<3xi32>, tensor<3xi32> -> tensor<3xi32>
  %bc = graph.broadcast_to %e, [2, 3] : tensor<3xf32> -> tensor<2x3xf32>
  %2 = graph.neg %bc : tensor<2x3xf32> -> tensor<2x3xf32>
  %3 = graph.matmul %m, %n : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
  return %0, %1, %2, %3 : tensor<2x2xf32>, tensor<3xi32>, tensor<2x3xf32>, tensor<2x2xf32>
}
