// RUN: rm -rf %t && mkdir -p %t

// A function with a dynamic batch dim (tensor<?x8xf32> arguments) run with
// batch 1 and batch 7, checked against NumPy (test/lib/reference.py):
// elementwise add, matmul, bias add, softmax, reshape with -1, mean over the
// dynamic dim, transpose, concat along the dynamic dim and a keepdims sum.
// graph-run specializes the dynamic dims to the given inputs by default;
// every case also runs with --specialize-shapes=false, which compiles and
// runs the dynamic-shape code.

// RUN: %reference dynamic_b1 %t/b1
// RUN: graph-run %s --quiet \
// RUN:   --input=@%t/b1/x0.npy --input=@%t/b1/x1.npy \
// RUN:   --input=@%t/b1/x2.npy --input=@%t/b1/x3.npy \
// RUN:   --expected-output=@%t/b1/expected.npy \
// RUN:   --expected-output=@%t/b1/expected1.npy \
// RUN:   --expected-output=@%t/b1/expected2.npy \
// RUN:   --expected-output=@%t/b1/expected3.npy \
// RUN:   --expected-output=@%t/b1/expected4.npy \
// RUN:   --expected-output=@%t/b1/expected5.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: graph-run %s --specialize-shapes=false --quiet \
// RUN:   --input=@%t/b1/x0.npy --input=@%t/b1/x1.npy \
// RUN:   --input=@%t/b1/x2.npy --input=@%t/b1/x3.npy \
// RUN:   --expected-output=@%t/b1/expected.npy \
// RUN:   --expected-output=@%t/b1/expected1.npy \
// RUN:   --expected-output=@%t/b1/expected2.npy \
// RUN:   --expected-output=@%t/b1/expected3.npy \
// RUN:   --expected-output=@%t/b1/expected4.npy \
// RUN:   --expected-output=@%t/b1/expected5.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: %reference dynamic_b7 %t/b7
// RUN: graph-run %s --quiet \
// RUN:   --input=@%t/b7/x0.npy --input=@%t/b7/x1.npy \
// RUN:   --input=@%t/b7/x2.npy --input=@%t/b7/x3.npy \
// RUN:   --expected-output=@%t/b7/expected.npy \
// RUN:   --expected-output=@%t/b7/expected1.npy \
// RUN:   --expected-output=@%t/b7/expected2.npy \
// RUN:   --expected-output=@%t/b7/expected3.npy \
// RUN:   --expected-output=@%t/b7/expected4.npy \
// RUN:   --expected-output=@%t/b7/expected5.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: graph-run %s --specialize-shapes=false --quiet \
// RUN:   --input=@%t/b7/x0.npy --input=@%t/b7/x1.npy \
// RUN:   --input=@%t/b7/x2.npy --input=@%t/b7/x3.npy \
// RUN:   --expected-output=@%t/b7/expected.npy \
// RUN:   --expected-output=@%t/b7/expected1.npy \
// RUN:   --expected-output=@%t/b7/expected2.npy \
// RUN:   --expected-output=@%t/b7/expected3.npy \
// RUN:   --expected-output=@%t/b7/expected4.npy \
// RUN:   --expected-output=@%t/b7/expected5.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s

// A second entry, @mlp: gelu(x @ w + b), its row max and its softmax, for
// x of 1 and 37 rows of 33 (sizes that are not multiples of a vector).
// RUN: %reference dynamic_mlp_b1 %t/mlp1
// RUN: graph-run %s --entry=mlp --quiet \
// RUN:   --input=@%t/mlp1/x0.npy --input=@%t/mlp1/x1.npy --input=@%t/mlp1/x2.npy \
// RUN:   --expected-output=@%t/mlp1/expected.npy \
// RUN:   --expected-output=@%t/mlp1/expected1.npy \
// RUN:   --expected-output=@%t/mlp1/expected2.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=MLP
// RUN: graph-run %s --specialize-shapes=false --entry=mlp --quiet \
// RUN:   --input=@%t/mlp1/x0.npy --input=@%t/mlp1/x1.npy --input=@%t/mlp1/x2.npy \
// RUN:   --expected-output=@%t/mlp1/expected.npy \
// RUN:   --expected-output=@%t/mlp1/expected1.npy \
// RUN:   --expected-output=@%t/mlp1/expected2.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=MLP
// RUN: %reference dynamic_mlp_b37 %t/mlp37
// RUN: graph-run %s --entry=mlp --quiet \
// RUN:   --input=@%t/mlp37/x0.npy --input=@%t/mlp37/x1.npy --input=@%t/mlp37/x2.npy \
// RUN:   --expected-output=@%t/mlp37/expected.npy \
// RUN:   --expected-output=@%t/mlp37/expected1.npy \
// RUN:   --expected-output=@%t/mlp37/expected2.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=MLP
// RUN: graph-run %s --specialize-shapes=false --entry=mlp --quiet \
// RUN:   --input=@%t/mlp37/x0.npy --input=@%t/mlp37/x1.npy --input=@%t/mlp37/x2.npy \
// RUN:   --expected-output=@%t/mlp37/expected.npy \
// RUN:   --expected-output=@%t/mlp37/expected1.npy \
// RUN:   --expected-output=@%t/mlp37/expected2.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=MLP

// MLP: result 0: matches expected
// MLP: result 1: matches expected
// MLP: result 2: matches expected

// CHECK: result 0: matches expected
// CHECK: result 1: matches expected
// CHECK: result 2: matches expected
// CHECK: result 3: matches expected
// CHECK: result 4: matches expected
// CHECK: result 5: matches expected

func.func @main(%x: tensor<?x8xf32>, %y: tensor<?x8xf32>, %w: tensor<8x4xf32>, %b: tensor<4xf32>)
    -> (tensor<?x4xf32>, tensor<?x4xf32>, tensor<8xf32>, tensor<8x?xf32>,
        tensor<?x8xf32>, tensor<?x1xf32>) {
  %s = graph.add %x, %y : tensor<?x8xf32>, tensor<?x8xf32> -> tensor<?x8xf32>
  %m = graph.matmul %s, %w : tensor<?x8xf32>, tensor<8x4xf32> -> tensor<?x4xf32>
  %l = graph.add %m, %b : tensor<?x4xf32>, tensor<4xf32> -> tensor<?x4xf32>
  %p = graph.softmax %l axis = 1 : tensor<?x4xf32> -> tensor<?x4xf32>
  %r = graph.reshape %x, [-1, 4] : tensor<?x8xf32> -> tensor<?x4xf32>
  %mean = graph.reduce mean %x axes = [0] : tensor<?x8xf32> -> tensor<8xf32>
  %t = graph.transpose %x, [1, 0] : tensor<?x8xf32> -> tensor<8x?xf32>
  %c = graph.concat %x, %y axis = 0 : tensor<?x8xf32>, tensor<?x8xf32> -> tensor<?x8xf32>
  %sum = graph.reduce sum %x axes = [1] keepdims : tensor<?x8xf32> -> tensor<?x1xf32>
  return %p, %r, %mean, %t, %c, %sum : tensor<?x4xf32>, tensor<?x4xf32>, tensor<8xf32>,
      tensor<8x?xf32>, tensor<?x8xf32>, tensor<?x1xf32>
}

func.func @mlp(%x: tensor<?x33xf32>, %w: tensor<33x65xf32>, %b: tensor<65xf32>)
    -> (tensor<?x65xf32>, tensor<?xf32>, tensor<?x65xf32>) {
  %m = graph.matmul %x, %w : tensor<?x33xf32>, tensor<33x65xf32> -> tensor<?x65xf32>
  %l = graph.add %m, %b : tensor<?x65xf32>, tensor<65xf32> -> tensor<?x65xf32>
  %h = graph.gelu %l : tensor<?x65xf32> -> tensor<?x65xf32>
  %mx = graph.reduce max %h axes = [1] : tensor<?x65xf32> -> tensor<?xf32>
  %p = graph.softmax %h axis = 1 : tensor<?x65xf32> -> tensor<?x65xf32>
  return %h, %mx, %p : tensor<?x65xf32>, tensor<?xf32>, tensor<?x65xf32>
}
