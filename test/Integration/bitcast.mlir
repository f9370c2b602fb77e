// graph.bitcast (ONNX BitCast): each element's bits read as the other type,
// checked exactly against NumPy's view (test/lib/reference.py, case bitcast):
// f32 -> i32 (with -0.0, +-inf, NaN and a subnormal), i64 -> f64, and i1
// (a byte) -> ui8.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %reference bitcast %t/bitcast
// RUN: graph-run %s --quiet \
// RUN:   --input=@%t/bitcast/x0.npy --input=@%t/bitcast/x1.npy --input=@%t/bitcast/x2.npy \
// RUN:   --expected-output=@%t/bitcast/expected.npy \
// RUN:   --expected-output=@%t/bitcast/expected1.npy \
// RUN:   --expected-output=@%t/bitcast/expected2.npy --rtol=0 --atol=0 | FileCheck %s
// A constant folds to the same bits: 1.0f is 0x3F800000 = 1065353216.
// RUN: graph-opt %s --graph-optimize | FileCheck %s --check-prefix=FOLD
// CHECK: result 0: matches expected
// CHECK: result 1: matches expected
// CHECK: result 2: matches expected

// FOLD-LABEL: func.func @folded
// FOLD: graph.constant dense<1065353216> : tensor<2xi32>
// FOLD-NOT: graph.bitcast

func.func @main(%x: tensor<13xf32>, %y: tensor<6xi64>, %b: tensor<7xi1>)
    -> (tensor<13xi32>, tensor<6xf64>, tensor<7xui8>) {
  %0 = graph.bitcast %x : tensor<13xf32> -> tensor<13xi32>
  %1 = graph.bitcast %y : tensor<6xi64> -> tensor<6xf64>
  %2 = graph.bitcast %b : tensor<7xi1> -> tensor<7xui8>
  return %0, %1, %2 : tensor<13xi32>, tensor<6xf64>, tensor<7xui8>
}

func.func @folded() -> tensor<2xi32> {
  %c = graph.constant dense<1.0> : tensor<2xf32>
  %0 = graph.bitcast %c : tensor<2xf32> -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
