// RUN: rm -rf %t && mkdir -p %t

// graph.softmax along axis 1 and axis 0 of 2-D tensors, the middle and last
// axes of a 3-D tensor, and on inputs in [-200, 200) where exp(x) alone
// would overflow f32, and on 1000-wide rows, checked against NumPy (test/lib/reference.py).
// rtol = atol = 1e-5: results are in [0, 1]; exp is a polynomial
// approximation accurate to a few ulp.

// RUN: %reference softmax_axis1 %t/softmax_axis1
// RUN: graph-run %s --entry=softmax_axis1 --quiet \
// RUN:   --input=@%t/softmax_axis1/x0.npy \
// RUN:   --expected-output=@%t/softmax_axis1/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: %reference softmax_axis0 %t/softmax_axis0
// RUN: graph-run %s --entry=softmax_axis0 --quiet \
// RUN:   --input=@%t/softmax_axis0/x0.npy \
// RUN:   --expected-output=@%t/softmax_axis0/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: %reference softmax_3d %t/softmax_3d
// RUN: graph-run %s --entry=softmax_3d --quiet \
// RUN:   --input=@%t/softmax_3d/x0.npy \
// RUN:   --expected-output=@%t/softmax_3d/expected.npy \
// RUN:   --expected-output=@%t/softmax_3d/expected1.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=TWO
// RUN: %reference softmax_large %t/softmax_large
// RUN: graph-run %s --entry=softmax_large --quiet \
// RUN:   --input=@%t/softmax_large/x0.npy \
// RUN:   --expected-output=@%t/softmax_large/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s

// RUN: %reference softmax_wide %t/softmax_wide
// RUN: graph-run %s --entry=softmax_wide --quiet \
// RUN:   --input=@%t/softmax_wide/x0.npy \
// RUN:   --expected-output=@%t/softmax_wide/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s

// CHECK: result 0: matches expected

// TWO: result 0: matches expected
// TWO: result 1: matches expected

func.func @softmax_axis1(%x: tensor<4x10xf32>) -> tensor<4x10xf32> {
  %r = graph.softmax %x axis = 1 : tensor<4x10xf32> -> tensor<4x10xf32>
  return %r : tensor<4x10xf32>
}

func.func @softmax_axis0(%x: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = graph.softmax %x axis = 0 : tensor<5x3xf32> -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

func.func @softmax_3d(%x: tensor<2x5x3xf32>) -> (tensor<2x5x3xf32>, tensor<2x5x3xf32>) {
  %a = graph.softmax %x axis = 1 : tensor<2x5x3xf32> -> tensor<2x5x3xf32>
  %b = graph.softmax %x axis = 2 : tensor<2x5x3xf32> -> tensor<2x5x3xf32>
  return %a, %b : tensor<2x5x3xf32>, tensor<2x5x3xf32>
}

func.func @softmax_large(%x: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %r = graph.softmax %x axis = 1 : tensor<3x8xf32> -> tensor<3x8xf32>
  return %r : tensor<3x8xf32>
}

func.func @softmax_wide(%x: tensor<7x1000xf32>) -> tensor<7x1000xf32> {
  %r = graph.softmax %x axis = 1 : tensor<7x1000xf32> -> tensor<7x1000xf32>
  return %r : tensor<7x1000xf32>
}
