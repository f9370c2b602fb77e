// RUN: rm -rf %t && mkdir -p %t

// graph.compare (all six directions, with broadcasting, on f32 and i32) and
// graph.select (broadcast condition, rank-0 on_false), checked against
// NumPy (test/lib/reference.py). The f32 operands are small integers, so
// that equal pairs (eq, le, ge) occur. Results are i1 and compared exactly.

// RUN: %reference compare_f32 %t/compare_f32
// RUN: graph-run %s --entry=compare_f32 --quiet \
// RUN:   --input=@%t/compare_f32/x0.npy --input=@%t/compare_f32/x1.npy \
// RUN:   --expected-output=@%t/compare_f32/expected.npy \
// RUN:   --expected-output=@%t/compare_f32/expected1.npy \
// RUN:   --expected-output=@%t/compare_f32/expected2.npy \
// RUN:   --expected-output=@%t/compare_f32/expected3.npy \
// RUN:   --expected-output=@%t/compare_f32/expected4.npy \
// RUN:   --expected-output=@%t/compare_f32/expected5.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=SIX
// RUN: %reference compare_i32 %t/compare_i32
// RUN: graph-run %s --entry=compare_i32 --quiet \
// RUN:   --input=@%t/compare_i32/x0.npy --input=@%t/compare_i32/x1.npy \
// RUN:   --expected-output=@%t/compare_i32/expected.npy \
// RUN:   --expected-output=@%t/compare_i32/expected1.npy \
// RUN:   --expected-output=@%t/compare_i32/expected2.npy \
// RUN:   --expected-output=@%t/compare_i32/expected3.npy \
// RUN:   --expected-output=@%t/compare_i32/expected4.npy \
// RUN:   --expected-output=@%t/compare_i32/expected5.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=SIX
// RUN: %reference select_bcast %t/select_bcast
// RUN: graph-run %s --entry=select_bcast --quiet \
// RUN:   --input=@%t/select_bcast/x0.npy --input=@%t/select_bcast/x1.npy \
// RUN:   --input=@%t/select_bcast/x2.npy \
// RUN:   --expected-output=@%t/select_bcast/expected.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s
// RUN: %reference select_from_compare %t/select_from_compare
// RUN: graph-run %s --entry=select_from_compare --quiet \
// RUN:   --input=@%t/select_from_compare/x0.npy \
// RUN:   --input=@%t/select_from_compare/x1.npy \
// RUN:   --expected-output=@%t/select_from_compare/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s

// Ordered float comparisons: with NaN every direction is false but ne.
// RUN: graph-run %s --entry=compare_f32 --quiet \
// RUN:   --input=4x6xf32=nan --input=6xf32=nan,1,0,-1,inf,-inf \
// RUN:   --expected-output=4x6xi1=false --expected-output=4x6xi1=true \
// RUN:   --expected-output=4x6xi1=false --expected-output=4x6xi1=false \
// RUN:   --expected-output=4x6xi1=false --expected-output=4x6xi1=false \
// RUN:   | FileCheck %s --check-prefix=SIX

// CHECK: result 0: matches expected

// SIX: result 0: matches expected
// SIX: result 1: matches expected
// SIX: result 2: matches expected
// SIX: result 3: matches expected
// SIX: result 4: matches expected
// SIX: result 5: matches expected

func.func @compare_f32(%a: tensor<4x6xf32>, %b: tensor<6xf32>)
    -> (tensor<4x6xi1>, tensor<4x6xi1>, tensor<4x6xi1>, tensor<4x6xi1>,
        tensor<4x6xi1>, tensor<4x6xi1>) {
  %eq = graph.compare eq, %a, %b : tensor<4x6xf32>, tensor<6xf32> -> tensor<4x6xi1>
  %ne = graph.compare ne, %a, %b : tensor<4x6xf32>, tensor<6xf32> -> tensor<4x6xi1>
  %lt = graph.compare lt, %a, %b : tensor<4x6xf32>, tensor<6xf32> -> tensor<4x6xi1>
  %le = graph.compare le, %a, %b : tensor<4x6xf32>, tensor<6xf32> -> tensor<4x6xi1>
  %gt = graph.compare gt, %a, %b : tensor<4x6xf32>, tensor<6xf32> -> tensor<4x6xi1>
  %ge = graph.compare ge, %a, %b : tensor<4x6xf32>, tensor<6xf32> -> tensor<4x6xi1>
  return %eq, %ne, %lt, %le, %gt, %ge : tensor<4x6xi1>, tensor<4x6xi1>,
      tensor<4x6xi1>, tensor<4x6xi1>, tensor<4x6xi1>, tensor<4x6xi1>
}

func.func @compare_i32(%a: tensor<5x1xi32>, %b: tensor<4xi32>)
    -> (tensor<5x4xi1>, tensor<5x4xi1>, tensor<5x4xi1>, tensor<5x4xi1>,
        tensor<5x4xi1>, tensor<5x4xi1>) {
  %eq = graph.compare eq, %a, %b : tensor<5x1xi32>, tensor<4xi32> -> tensor<5x4xi1>
  %ne = graph.compare ne, %a, %b : tensor<5x1xi32>, tensor<4xi32> -> tensor<5x4xi1>
  %lt = graph.compare lt, %a, %b : tensor<5x1xi32>, tensor<4xi32> -> tensor<5x4xi1>
  %le = graph.compare le, %a, %b : tensor<5x1xi32>, tensor<4xi32> -> tensor<5x4xi1>
  %gt = graph.compare gt, %a, %b : tensor<5x1xi32>, tensor<4xi32> -> tensor<5x4xi1>
  %ge = graph.compare ge, %a, %b : tensor<5x1xi32>, tensor<4xi32> -> tensor<5x4xi1>
  return %eq, %ne, %lt, %le, %gt, %ge : tensor<5x4xi1>, tensor<5x4xi1>,
      tensor<5x4xi1>, tensor<5x4xi1>, tensor<5x4xi1>, tensor<5x4xi1>
}

func.func @select_bcast(%c: tensor<4x1xi1>, %t: tensor<4x3xf32>, %f: tensor<f32>)
    -> tensor<4x3xf32> {
  %r = graph.select %c, %t, %f : tensor<4x1xi1>, tensor<4x3xf32>, tensor<f32> -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

func.func @select_from_compare(%a: tensor<3x8xf32>, %b: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %two = graph.constant dense<2.0> : tensor<f32>
  %c = graph.compare gt, %a, %b : tensor<3x8xf32>, tensor<3x8xf32> -> tensor<3x8xi1>
  %d = graph.sub %a, %b : tensor<3x8xf32>, tensor<3x8xf32> -> tensor<3x8xf32>
  %m = graph.mul %b, %two : tensor<3x8xf32>, tensor<f32> -> tensor<3x8xf32>
  %r = graph.select %c, %d, %m : tensor<3x8xi1>, tensor<3x8xf32>, tensor<3x8xf32> -> tensor<3x8xf32>
  return %r : tensor<3x8xf32>
}
