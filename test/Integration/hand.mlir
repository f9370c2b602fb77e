// RUN: graph-run %s --entry=softmax --quiet --input=2xf32=0,1.0986122886681098 \
// RUN:   --expected-output=2xf32=0.25,0.75 --rtol=1e-6 --atol=1e-6 | FileCheck %s
// RUN: graph-run %s --entry=sigmoid --quiet \
// RUN:   --input=3xf32=0,1.0986122886681098,-1.0986122886681098 \
// RUN:   --expected-output=3xf32=0.5,0.75,0.25 --rtol=1e-6 --atol=1e-6 | FileCheck %s
// RUN: graph-run %s --entry=silu --quiet --input=f32=1.0986122886681098 \
// RUN:   --expected-output=f32=0.8239592165010823 --rtol=1e-6 --atol=1e-6 | FileCheck %s
// RUN: graph-run %s --entry=tanh --quiet --input=2xf32=1.0986122886681098,0 \
// RUN:   --expected-output=2xf32=0.8,0 --rtol=1e-6 --atol=1e-6 | FileCheck %s
// RUN: graph-run %s --entry=gelu --quiet --input=3xf32=0,1,-1 \
// RUN:   --expected-output=3xf32=0,0.8413447460685429,-0.15865525393145707 \
// RUN:   --rtol=1e-6 --atol=1e-6 | FileCheck %s
// RUN: graph-run %s --entry=exp_log --quiet --input=2xf32=0,1.0986122886681098 \
// RUN:   --input=2xf32=1,7.38905609893065 \
// RUN:   --expected-output=2xf32=1,3 --expected-output=2xf32=0,2 \
// RUN:   --rtol=1e-6 --atol=1e-6 | FileCheck %s --check-prefix=TWO
// RUN: graph-run %s --entry=sqrt_rsqrt --quiet --input=2xf32=4,0.25 \
// RUN:   --expected-output=2xf32=2,0.5 --expected-output=2xf32=0.5,2 \
// RUN:   --rtol=1e-6 --atol=1e-6 | FileCheck %s --check-prefix=TWO
// RUN: graph-run %s --entry=matmul --quiet --input=2x2xf32=1,2,3,4 \
// RUN:   --input=2x2xf32=5,6,7,8 --expected-output=2x2xf32=19,22,43,50 \
// RUN:   --rtol=0 --atol=0 | FileCheck %s
// RUN: graph-run %s --entry=dot --quiet --input=3xf32=1,2,3 \
// RUN:   --input=3xf32=4,5,6 --expected-output=f32=32 \
// RUN:   --rtol=0 --atol=0 | FileCheck %s
// RUN: graph-run %s --entry=reduce --quiet --input=4xf32=1,2,3,4 \
// RUN:   --input=2x3xf32=1,5,3,-2,0,-7 --expected-output=f32=2.5 \
// RUN:   --expected-output=2xf32=5,0 --expected-output=3xf32=-2,0,-7 \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=THREE
// RUN: graph-run %s --entry=int_div --quiet --input=6xi32=7,-7,7,-7,5,-2147483648 \
// RUN:   --input=6xi32=2,2,-2,-2,0,-1 \
// RUN:   --expected-output=6xi32=3,-3,-3,3,0,-2147483648 \
// RUN:   --rtol=0 --atol=0 | FileCheck %s
// RUN: graph-run %s --entry=cast --quiet --input=4xf32=2.7,-2.7,0.5,-0.5 \
// RUN:   --expected-output=4xi32=2,-2,0,0 --rtol=0 --atol=0 | FileCheck %s
// RUN: graph-run %s --entry=nan --quiet --input=3xf32=nan,1,nan \
// RUN:   --input=3xf32=1,nan,nan \
// RUN:   --expected-output=3xf32=nan,nan,nan --expected-output=3xf32=nan,nan,nan \
// RUN:   --expected-output=3xf32=nan,1,nan \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=THREE

// CHECK: result 0: matches expected

// TWO: result 0: matches expected
// TWO: result 1: matches expected

// THREE: result 0: matches expected
// THREE: result 1: matches expected
// THREE: result 2: matches expected

// Small cases with literal inputs whose expected values were worked out by
// hand (no NumPy, no graphopt output):
//  softmax([0, ln 3]) = [1, 3] / 4 = [0.25, 0.75]; ln 3 = 1.0986122886681098.
//  sigmoid([0, ln 3, -ln 3]) = [1/2, 1/(1 + 1/3), 1/(1 + 3)] = [0.5, 0.75, 0.25].
//  silu(ln 3) = ln 3 * 0.75 = 0.8239592165010823.
//  tanh(ln 3) = (3 - 1/3) / (3 + 1/3) = 0.8.
//  gelu(x) = x Phi(x) (exact form): gelu(0) = 0, gelu(1) = Phi(1) =
//    0.8413447460685429 (the normal CDF table value), and
//    gelu(-1) = -Phi(-1) = Phi(1) - 1 = -0.15865525393145707.
//  exp([0, ln 3]) = [1, 3]; log([1, e^2]) = [0, 2]; sqrt([4, 0.25]) =
//    [2, 0.5]; rsqrt([4, 0.25]) = [0.5, 2].
//  [[1, 2], [3, 4]] @ [[5, 6], [7, 8]] = [[19, 22], [43, 50]];
//    [1, 2, 3] . [4, 5, 6] = 32.
//  mean([1, 2, 3, 4]) = 2.5; max/min over rows of [[1, 5, 3], [-2, 0, -7]].
//  i32 div: [7, -7, 7, -7, 5, INT_MIN] / [2, 2, -2, -2, 0, -1]
//    = [3, -3, -3, 3, 0, INT_MIN] (truncation, x/0 = 0, wrap).
//  cast f32 -> i32: [2.7, -2.7, 0.5, -0.5] -> [2, -2, 0, 0].
//  NaN: max(NaN, 1) = NaN, min(1, NaN) = NaN, relu(NaN) = NaN (torch
//    semantics); graph-run counts NaN as equal to NaN.
// Tolerances: 1e-6 absolute and relative for the transcendental cases (a
// few f32 ulp), exact for the rest.

func.func @softmax(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = graph.softmax %x axis = 0 : tensor<2xf32> -> tensor<2xf32>
  return %r : tensor<2xf32>
}

func.func @sigmoid(%x: tensor<3xf32>) -> tensor<3xf32> {
  %r = graph.sigmoid %x : tensor<3xf32> -> tensor<3xf32>
  return %r : tensor<3xf32>
}

func.func @silu(%x: tensor<f32>) -> tensor<f32> {
  %r = graph.silu %x : tensor<f32> -> tensor<f32>
  return %r : tensor<f32>
}

func.func @tanh(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = graph.tanh %x : tensor<2xf32> -> tensor<2xf32>
  return %r : tensor<2xf32>
}

func.func @gelu(%x: tensor<3xf32>) -> tensor<3xf32> {
  %r = graph.gelu %x : tensor<3xf32> -> tensor<3xf32>
  return %r : tensor<3xf32>
}

func.func @exp_log(%x: tensor<2xf32>, %y: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %a = graph.exp %x : tensor<2xf32> -> tensor<2xf32>
  %b = graph.log %y : tensor<2xf32> -> tensor<2xf32>
  return %a, %b : tensor<2xf32>, tensor<2xf32>
}

func.func @sqrt_rsqrt(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %a = graph.sqrt %x : tensor<2xf32> -> tensor<2xf32>
  %b = graph.rsqrt %x : tensor<2xf32> -> tensor<2xf32>
  return %a, %b : tensor<2xf32>, tensor<2xf32>
}

func.func @matmul(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %r = graph.matmul %a, %b : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

func.func @dot(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<f32> {
  %r = graph.matmul %a, %b : tensor<3xf32>, tensor<3xf32> -> tensor<f32>
  return %r : tensor<f32>
}

func.func @reduce(%x: tensor<4xf32>, %y: tensor<2x3xf32>) -> (tensor<f32>, tensor<2xf32>, tensor<3xf32>) {
  %m = graph.reduce mean %x axes = [0] : tensor<4xf32> -> tensor<f32>
  %mx = graph.reduce max %y axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  %mn = graph.reduce min %y axes = [0] : tensor<2x3xf32> -> tensor<3xf32>
  return %m, %mx, %mn : tensor<f32>, tensor<2xf32>, tensor<3xf32>
}

func.func @int_div(%a: tensor<6xi32>, %b: tensor<6xi32>) -> tensor<6xi32> {
  %r = graph.div %a, %b : tensor<6xi32>, tensor<6xi32> -> tensor<6xi32>
  return %r : tensor<6xi32>
}

func.func @cast(%x: tensor<4xf32>) -> tensor<4xi32> {
  %r = graph.cast %x : tensor<4xf32> -> tensor<4xi32>
  return %r : tensor<4xi32>
}

func.func @nan(%a: tensor<3xf32>, %b: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %mx = graph.max %a, %b : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  %mn = graph.min %b, %a : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  %r = graph.relu %a : tensor<3xf32> -> tensor<3xf32>
  return %mx, %mn, %r : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}
