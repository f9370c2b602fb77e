// graph.rem against values worked out by hand: the remainder of the
// division truncated toward zero, with the sign of lhs (C's fmod).
// Floats: 7 rem 3 = 1, -7 rem 3 = -1, 7 rem -3 = 1, -7 rem -3 = -1,
// 0.75 rem 0.5 = 0.25, 5.5 rem 2.5 = 0.5 (all exact in f32).
// Integers: the same four, then graph.div's rules: 5 rem 0 = 5,
// INT_MIN rem -1 = 0.
// RUN: graph-run %s --quiet \
// RUN:   --input=6xf32=7,-7,7,-7,0.75,5.5 --input=6xf32=3,3,-3,-3,0.5,2.5 \
// RUN:   --input=6xi32=7,-7,7,-7,5,-2147483648 --input=6xi32=3,3,-3,-3,0,-1 \
// RUN:   --expected-output=6xf32=1,-1,1,-1,0.25,0.5 \
// RUN:   --expected-output=6xi32=1,-1,1,-1,5,0 | FileCheck %s
// CHECK-COUNT-2: matches expected

// The same values fold when the operands are constants (ConstantEval).
// RUN: graph-opt %s --graph-optimize | FileCheck %s --check-prefix=FOLD
// FOLD-LABEL: func.func @folded
// FOLD: graph.constant dense<[1.000000e+00, -1.000000e+00, 1.000000e+00, -1.000000e+00, 2.500000e-01, 5.000000e-01]> : tensor<6xf32>
// FOLD: graph.constant dense<[1, -1, 1, -1, 5, 0]> : tensor<6xi32>
// FOLD-NOT: graph.rem

func.func @main(%a: tensor<6xf32>, %b: tensor<6xf32>, %c: tensor<6xi32>, %d: tensor<6xi32>) -> (tensor<6xf32>, tensor<6xi32>) {
  %r = graph.rem %a, %b : tensor<6xf32>, tensor<6xf32> -> tensor<6xf32>
  %s = graph.rem %c, %d : tensor<6xi32>, tensor<6xi32> -> tensor<6xi32>
  return %r, %s : tensor<6xf32>, tensor<6xi32>
}

func.func @folded() -> (tensor<6xf32>, tensor<6xi32>) {
  %a = graph.constant dense<[7.0, -7.0, 7.0, -7.0, 0.75, 5.5]> : tensor<6xf32>
  %b = graph.constant dense<[3.0, 3.0, -3.0, -3.0, 0.5, 2.5]> : tensor<6xf32>
  %c = graph.constant dense<[7, -7, 7, -7, 5, -2147483648]> : tensor<6xi32>
  %d = graph.constant dense<[3, 3, -3, -3, 0, -1]> : tensor<6xi32>
  %r = graph.rem %a, %b : tensor<6xf32>, tensor<6xf32> -> tensor<6xf32>
  %s = graph.rem %c, %d : tensor<6xi32>, tensor<6xi32> -> tensor<6xi32>
  return %r, %s : tensor<6xf32>, tensor<6xi32>
}
