// RUN: rm -rf %t && mkdir -p %t

// Elementwise binary ops with NumPy broadcasting, checked against NumPy
// (test/lib/reference.py): row [4,3]x[3], outer [4,1]x[3], rank-0 scalars on
// either side, column [4,3]x[4,1], rank growth [2,1,4]x[3,1], equal shapes.

// RUN: %reference add_row %t/add_row
// RUN: graph-run %s --entry=add_row --quiet --input=@%t/add_row/x0.npy \
// RUN:   --input=@%t/add_row/x1.npy --expected-output=@%t/add_row/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: %reference sub_outer %t/sub_outer
// RUN: graph-run %s --entry=sub_outer --quiet --input=@%t/sub_outer/x0.npy \
// RUN:   --input=@%t/sub_outer/x1.npy --expected-output=@%t/sub_outer/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: %reference mul_scalar %t/mul_scalar
// RUN: graph-run %s --entry=mul_scalar --quiet --input=@%t/mul_scalar/x0.npy \
// RUN:   --input=@%t/mul_scalar/x1.npy --expected-output=@%t/mul_scalar/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: %reference div_col %t/div_col
// RUN: graph-run %s --entry=div_col --quiet --input=@%t/div_col/x0.npy \
// RUN:   --input=@%t/div_col/x1.npy --expected-output=@%t/div_col/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: %reference div_scalar_lhs %t/div_scalar_lhs
// RUN: graph-run %s --entry=div_scalar_lhs --quiet \
// RUN:   --input=@%t/div_scalar_lhs/x0.npy --input=@%t/div_scalar_lhs/x1.npy \
// RUN:   --expected-output=@%t/div_scalar_lhs/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: %reference max_3d %t/max_3d
// RUN: graph-run %s --entry=max_3d --quiet --input=@%t/max_3d/x0.npy \
// RUN:   --input=@%t/max_3d/x1.npy --expected-output=@%t/max_3d/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: %reference min_same %t/min_same
// RUN: graph-run %s --entry=min_same --quiet --input=@%t/min_same/x0.npy \
// RUN:   --input=@%t/min_same/x1.npy --expected-output=@%t/min_same/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: %reference pow_row %t/pow_row
// RUN: graph-run %s --entry=pow_row --quiet --input=@%t/pow_row/x0.npy \
// RUN:   --input=@%t/pow_row/x1.npy --expected-output=@%t/pow_row/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: %reference add_big %t/add_big
// RUN: graph-run %s --entry=add_big --quiet --input=@%t/add_big/x0.npy \
// RUN:   --input=@%t/add_big/x1.npy --expected-output=@%t/add_big/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s

// pow with constant exponents 2, 0.5, -0.5 (canonicalized to mul, sqrt and
// rsqrt) and 3 (kept as pow), with and without graph-level optimization.
// RUN: %reference pow_const %t/pow_const
// RUN: graph-run %s --entry=pow_const --quiet --input=@%t/pow_const/x0.npy \
// RUN:   --expected-output=@%t/pow_const/expected.npy \
// RUN:   --expected-output=@%t/pow_const/expected1.npy \
// RUN:   --expected-output=@%t/pow_const/expected2.npy \
// RUN:   --expected-output=@%t/pow_const/expected3.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=FOUR
// RUN: graph-run %s --entry=pow_const --quiet --optimize=0 \
// RUN:   --input=@%t/pow_const/x0.npy \
// RUN:   --expected-output=@%t/pow_const/expected.npy \
// RUN:   --expected-output=@%t/pow_const/expected1.npy \
// RUN:   --expected-output=@%t/pow_const/expected2.npy \
// RUN:   --expected-output=@%t/pow_const/expected3.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=FOUR

// x + neg(y) and neg(x - y) (canonicalized to subtractions).
// RUN: %reference add_neg %t/add_neg
// RUN: graph-run %s --entry=add_neg --quiet --input=@%t/add_neg/x0.npy \
// RUN:   --input=@%t/add_neg/x1.npy --expected-output=@%t/add_neg/expected.npy \
// RUN:   --expected-output=@%t/add_neg/expected1.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=TWO
// RUN: graph-run %s --entry=add_neg --quiet --optimize=0 \
// RUN:   --input=@%t/add_neg/x0.npy \
// RUN:   --input=@%t/add_neg/x1.npy --expected-output=@%t/add_neg/expected.npy \
// RUN:   --expected-output=@%t/add_neg/expected1.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=TWO

// CHECK: result 0: matches expected

// TWO: result 0: matches expected
// TWO: result 1: matches expected

// FOUR: result 0: matches expected
// FOUR: result 1: matches expected
// FOUR: result 2: matches expected
// FOUR: result 3: matches expected

func.func @add_row(%a: tensor<4x3xf32>, %b: tensor<3xf32>) -> tensor<4x3xf32> {
  %r = graph.add %a, %b : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

func.func @sub_outer(%a: tensor<4x1xf32>, %b: tensor<3xf32>) -> tensor<4x3xf32> {
  %r = graph.sub %a, %b : tensor<4x1xf32>, tensor<3xf32> -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

func.func @mul_scalar(%a: tensor<2x3x4xf32>, %b: tensor<f32>) -> tensor<2x3x4xf32> {
  %r = graph.mul %a, %b : tensor<2x3x4xf32>, tensor<f32> -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}

func.func @div_col(%a: tensor<4x3xf32>, %b: tensor<4x1xf32>) -> tensor<4x3xf32> {
  %r = graph.div %a, %b : tensor<4x3xf32>, tensor<4x1xf32> -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

func.func @div_scalar_lhs(%a: tensor<f32>, %b: tensor<5xf32>) -> tensor<5xf32> {
  %r = graph.div %a, %b : tensor<f32>, tensor<5xf32> -> tensor<5xf32>
  return %r : tensor<5xf32>
}

func.func @max_3d(%a: tensor<2x1x4xf32>, %b: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  %r = graph.max %a, %b : tensor<2x1x4xf32>, tensor<3x1xf32> -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}

func.func @min_same(%a: tensor<3x4xf32>, %b: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %r = graph.min %a, %b : tensor<3x4xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

func.func @pow_row(%a: tensor<4x3xf32>, %b: tensor<3xf32>) -> tensor<4x3xf32> {
  %r = graph.pow %a, %b : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

func.func @add_big(%a: tensor<33x65xf32>, %b: tensor<65xf32>) -> tensor<33x65xf32> {
  %r = graph.add %a, %b : tensor<33x65xf32>, tensor<65xf32> -> tensor<33x65xf32>
  return %r : tensor<33x65xf32>
}

func.func @pow_const(%x: tensor<9xf32>)
    -> (tensor<9xf32>, tensor<9xf32>, tensor<9xf32>, tensor<9xf32>) {
  %two = graph.constant dense<2.0> : tensor<f32>
  %half = graph.constant dense<0.5> : tensor<9xf32>
  %mhalf = graph.constant dense<-0.5> : tensor<f32>
  %three = graph.constant dense<3.0> : tensor<1xf32>
  %a = graph.pow %x, %two : tensor<9xf32>, tensor<f32> -> tensor<9xf32>
  %b = graph.pow %x, %half : tensor<9xf32>, tensor<9xf32> -> tensor<9xf32>
  %c = graph.pow %x, %mhalf : tensor<9xf32>, tensor<f32> -> tensor<9xf32>
  %d = graph.pow %x, %three : tensor<9xf32>, tensor<1xf32> -> tensor<9xf32>
  return %a, %b, %c, %d : tensor<9xf32>, tensor<9xf32>, tensor<9xf32>, tensor<9xf32>
}

func.func @add_neg(%a: tensor<2x5xf32>, %b: tensor<5xf32>) -> (tensor<2x5xf32>, tensor<2x5xf32>) {
  %nb = graph.neg %b : tensor<5xf32> -> tensor<5xf32>
  %s = graph.add %a, %nb : tensor<2x5xf32>, tensor<5xf32> -> tensor<2x5xf32>
  %d = graph.sub %a, %b : tensor<2x5xf32>, tensor<5xf32> -> tensor<2x5xf32>
  %n = graph.neg %d : tensor<2x5xf32> -> tensor<2x5xf32>
  return %s, %n : tensor<2x5xf32>, tensor<2x5xf32>
}
