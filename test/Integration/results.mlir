// RUN: rm -rf %t && mkdir -p %t

// Results and buffer ownership: several results, results that are the
// function's own input, a constant (splat and dense), the same value twice,
// a view (reshape) of an input, and a value computed twice. graph-run must
// hand back correct values without freeing an input, a global or a buffer
// twice; --benchmark calls each function again several times.

// RUN: %reference two_results %t/two_results
// RUN: graph-run %s --entry=two_results --quiet \
// RUN:   --input=@%t/two_results/x0.npy --input=@%t/two_results/x1.npy \
// RUN:   --expected-output=@%t/two_results/expected.npy \
// RUN:   --expected-output=@%t/two_results/expected1.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 --benchmark=3 | FileCheck %s --check-prefix=TWO

// --output writes a result as .npy (bf16 widened to f32), read back by NumPy.
// RUN: graph-run %s --entry=identity --quiet --input=2x3xf32=1,2,3,4,5,6 \
// RUN:   --output=@%t/identity.npy
// RUN: %python -c "import numpy as np, sys; a = np.load(sys.argv[1]); sys.exit(not (a.dtype == np.float32 and a.shape == (2, 3) and (a == np.arange(1, 7).reshape(2, 3)).all()))" %t/identity.npy
// RUN: graph-run %s --entry=bf16_result --quiet --input=3xf32=1,-2.5,3 \
// RUN:   --output=@%t/bf16.npy
// RUN: %python -c "import numpy as np, sys; a = np.load(sys.argv[1]); sys.exit(not (a.dtype == np.float32 and (a == [1, -2.5, 3]).all()))" %t/bf16.npy

// The expected values below are the literal inputs and constants.
// RUN: graph-run %s --entry=identity --quiet --input=2x3xf32=1,2,3,4,5,6 \
// RUN:   --expected-output=2x3xf32=1,2,3,4,5,6 --rtol=0 --atol=0 --benchmark=3 \
// RUN:   | FileCheck %s
// RUN: graph-run %s --entry=dense_constant --quiet \
// RUN:   --expected-output=2x2xf32=1.5,-2,0.25,8 --rtol=0 --atol=0 --benchmark=3 \
// RUN:   | FileCheck %s
// RUN: graph-run %s --entry=splat_constant --quiet \
// RUN:   --expected-output=3xi32=7 --rtol=0 --atol=0 --benchmark=3 \
// RUN:   | FileCheck %s
// RUN: graph-run %s --entry=same_twice --quiet --input=4xf32=1,-1,2,-2 \
// RUN:   --expected-output=4xf32=1,-1,2,-2 --expected-output=4xf32=1,-1,2,-2 \
// RUN:   --rtol=0 --atol=0 --benchmark=3 | FileCheck %s --check-prefix=TWO
// RUN: graph-run %s --entry=input_and_constant --quiet --input=2xf32=3,4 \
// RUN:   --expected-output=2xf32=3,4 --expected-output=2xf32=-1,1 \
// RUN:   --rtol=0 --atol=0 --benchmark=3 | FileCheck %s --check-prefix=TWO
// RUN: graph-run %s --entry=reshaped_input --quiet --input=2x3xf32=1,2,3,4,5,6 \
// RUN:   --expected-output=3x2xf32=1,2,3,4,5,6 --expected-output=6xf32=1,2,3,4,5,6 \
// RUN:   --rtol=0 --atol=0 --benchmark=3 | FileCheck %s --check-prefix=TWO
// RUN: graph-run %s --entry=relu_twice --quiet --input=4xf32=1,-1,2,-2 \
// RUN:   --expected-output=4xf32=1,0,2,0 --expected-output=4xf32=1,0,2,0 \
// RUN:   --rtol=0 --atol=0 --benchmark=3 | FileCheck %s --check-prefix=TWO
// RUN: graph-run %s --entry=constant_and_computed --quiet --input=2xf32=1,2 \
// RUN:   --expected-output=2xf32=10,20 --expected-output=2xf32=11,22 \
// RUN:   --expected-output=2xf32=10,20 \
// RUN:   --rtol=0 --atol=0 --benchmark=3 | FileCheck %s --check-prefix=THREE

// CHECK: result 0: matches expected
// CHECK: benchmark: @

// TWO: result 0: matches expected
// TWO: result 1: matches expected
// TWO: benchmark: @

// THREE: result 0: matches expected
// THREE: result 1: matches expected
// THREE: result 2: matches expected
// THREE: benchmark: @

func.func @two_results(%a: tensor<3x4xf32>, %b: tensor<4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  %s = graph.add %a, %b : tensor<3x4xf32>, tensor<4xf32> -> tensor<3x4xf32>
  %t = graph.tanh %a : tensor<3x4xf32> -> tensor<3x4xf32>
  %p = graph.mul %t, %b : tensor<3x4xf32>, tensor<4xf32> -> tensor<3x4xf32>
  return %s, %p : tensor<3x4xf32>, tensor<3x4xf32>
}

func.func @identity(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  return %x : tensor<2x3xf32>
}

func.func @dense_constant() -> tensor<2x2xf32> {
  %c = graph.constant dense<[[1.5, -2.0], [0.25, 8.0]]> : tensor<2x2xf32>
  return %c : tensor<2x2xf32>
}

func.func @splat_constant() -> tensor<3xi32> {
  %c = graph.constant dense<7> : tensor<3xi32>
  return %c : tensor<3xi32>
}

func.func @same_twice(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  return %x, %x : tensor<4xf32>, tensor<4xf32>
}

func.func @input_and_constant(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %c = graph.constant dense<[-1.0, 1.0]> : tensor<2xf32>
  return %x, %c : tensor<2xf32>, tensor<2xf32>
}

func.func @reshaped_input(%x: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<6xf32>) {
  %a = graph.reshape %x, [3, 2] : tensor<2x3xf32> -> tensor<3x2xf32>
  %b = graph.reshape %x, [-1] : tensor<2x3xf32> -> tensor<6xf32>
  return %a, %b : tensor<3x2xf32>, tensor<6xf32>
}

func.func @relu_twice(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %a = graph.relu %x : tensor<4xf32> -> tensor<4xf32>
  %b = graph.relu %x : tensor<4xf32> -> tensor<4xf32>
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}

// The constant is returned twice, once through an add that uses it.
func.func @constant_and_computed(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %c = graph.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %s = graph.add %x, %c : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  return %c, %s, %c : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

func.func @bf16_result(%x: tensor<3xf32>) -> tensor<3xbf16> {
  %r = graph.cast %x : tensor<3xf32> -> tensor<3xbf16>
  return %r : tensor<3xbf16>
}
