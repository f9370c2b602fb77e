// Dynamic dims are checked once per call against what the program needs
// (issue 19: unequal sizes read out of bounds or crashed). Each error names
// the input, the dim, both sizes and the op.
// RUN: not graph-run %s --entry=add --specialize-shapes=false --input=4xf32=1,2,3,4 --input=2xf32=10,20 2>&1 | FileCheck %s --check-prefix=ADD
// RUN: not graph-run %s --entry=add --specialize-shapes=false --input=4xf32=1,2,3,4 --input=1xf32=10 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: graph-run %s --entry=add --specialize-shapes=false --input=4xf32=1,2,3,4 --input=4xf32=10 --expected-output=4xf32=11,12,13,14 --quiet | FileCheck %s --check-prefix=OK
// RUN: not graph-run %s --entry=add --specialize-shapes=false --input=10000000xf32=1 --input=1xf32=10 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: not graph-run %s --entry=mm --specialize-shapes=false --input=3x5xf32=1 --input=4x8xf32=1 2>&1 | FileCheck %s --check-prefix=MM
// 3x4 ones times 4x8 ones: 4 everywhere.
// RUN: graph-run %s --entry=mm --specialize-shapes=false --input=3x4xf32=1 --input=4x8xf32=1 --expected-output=3x8xf32=4 --quiet | FileCheck %s --check-prefix=OK
// RUN: not graph-run %s --entry=chain --specialize-shapes=false --input=3x5xf32=1 --input=4xf32=1 --input=4x3xf32=1 2>&1 | FileCheck %s --check-prefix=STATIC
// RUN: not graph-run %s --entry=chain --specialize-shapes=false --input=3x4xf32=1 --input=4xf32=1 --input=4x2xf32=1 2>&1 | FileCheck %s --check-prefix=TRANSPOSED
// tanh(1 + 1) + 1 = 1.96402758 at every element.
// RUN: graph-run %s --entry=chain --specialize-shapes=false --input=3x4xf32=1 --input=4xf32=1 --input=4x3xf32=1 --expected-output=4x3xf32=1.96402758 --quiet | FileCheck %s --check-prefix=OK
// Specialized (the default): the same message, before compiling.
// RUN: not graph-run %s --entry=add --input=4xf32=1,2,3,4 --input=2xf32=10,20 2>&1 | FileCheck %s --check-prefix=SPEC

// ADD: graph-run: error: input 1 of @add: dim 0 is 2 but dim 0 of input 0 is 4; the program needs them equal for graph.add at {{.*}}dynamic-checks.mlir:28:8
// ONE: input 1 of @add: dim 0 is 1 but dim 0 of input 0 is 4; {{.*}} (a dynamic dim of size 1 is not broadcast at run time)
// BIG: input 1 of @add: dim 0 is 1 but dim 0 of input 0 is 10000000
// MM: input 1 of @mm: dim 0 is 4 but dim 1 of input 0 is 5; the program needs them equal for graph.matmul
// STATIC: input 0 of @chain: dim 1 is 5 but the static size is 4; the program needs them equal for graph.add
// TRANSPOSED: input 2 of @chain: dim 1 is 2 but dim 0 of input 0 is 3; the program needs them equal for graph.add
// OK: result 0: matches expected
// SPEC: input 1 of @add: dim 0 is 2 but dim 0 of input 0 is 4

func.func @add(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = graph.add %a, %b : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
func.func @mm(%a: tensor<?x?xf32>, %b: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %0 = graph.matmul %a, %b : tensor<?x?xf32>, tensor<?x8xf32> -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}
// Through a unary op and a transpose: %c must be the transpose's shape.
func.func @chain(%a: tensor<?x?xf32>, %b: tensor<4xf32>, %c: tensor<?x?xf32>) -> tensor<4x?xf32> {
  %0 = graph.add %a, %b : tensor<?x?xf32>, tensor<4xf32> -> tensor<?x4xf32>
  %1 = graph.tanh %0 : tensor<?x4xf32> -> tensor<?x4xf32>
  %2 = graph.transpose %1, [1, 0] : tensor<?x4xf32> -> tensor<4x?xf32>
  %3 = graph.add %2, %c : tensor<4x?xf32>, tensor<?x?xf32> -> tensor<4x?xf32>
  return %3 : tensor<4x?xf32>
}
