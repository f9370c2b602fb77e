// RUN: rm -rf %t && mkdir -p %t

// Shape ops, checked exactly against NumPy (test/lib/reference.py):
// transpose (3-D permutations, a composed pair, i64 data, odd sizes), reshape (with -1,
// to and from rank 0), broadcast_to (incl. -1 entries and a composed pair),
// concat (axis 0 and 1, three operands) and slice (with steps, 2-D and 3-D).
// Data movement only: the results must be bit-exact (rtol = atol = 0).

// RUN: %reference transpose3d %t/transpose3d
// RUN: graph-run %s --entry=transpose3d --quiet \
// RUN:   --input=@%t/transpose3d/x0.npy \
// RUN:   --expected-output=@%t/transpose3d/expected.npy --rtol=0 --atol=0 \
// RUN:   | FileCheck %s
// RUN: %reference transpose_twice %t/transpose_twice
// RUN: graph-run %s --entry=transpose_twice --quiet \
// RUN:   --input=@%t/transpose_twice/x0.npy \
// RUN:   --expected-output=@%t/transpose_twice/expected.npy --rtol=0 --atol=0 \
// RUN:   | FileCheck %s
// RUN: graph-run %s --entry=transpose_twice --quiet --optimize=0 \
// RUN:   --input=@%t/transpose_twice/x0.npy \
// RUN:   --expected-output=@%t/transpose_twice/expected.npy --rtol=0 --atol=0 \
// RUN:   | FileCheck %s
// RUN: %reference transpose_i64 %t/transpose_i64
// RUN: graph-run %s --entry=transpose_i64 --quiet \
// RUN:   --input=@%t/transpose_i64/x0.npy \
// RUN:   --expected-output=@%t/transpose_i64/expected.npy --rtol=0 --atol=0 \
// RUN:   | FileCheck %s

// RUN: %reference transpose_big %t/transpose_big
// RUN: graph-run %s --entry=transpose_big --quiet \
// RUN:   --input=@%t/transpose_big/x0.npy --input=@%t/transpose_big/x1.npy \
// RUN:   --expected-output=@%t/transpose_big/expected.npy \
// RUN:   --expected-output=@%t/transpose_big/expected1.npy --rtol=0 --atol=0 \
// RUN:   | FileCheck %s --check-prefix=TWO

// RUN: %reference transpose_bytes %t/transpose_bytes
// RUN: graph-run %s --entry=transpose_bytes --quiet \
// RUN:   --input=@%t/transpose_bytes/x0.npy --input=@%t/transpose_bytes/x1.npy \
// RUN:   --expected-output=@%t/transpose_bytes/expected.npy \
// RUN:   --expected-output=@%t/transpose_bytes/expected1.npy --rtol=0 --atol=0 \
// RUN:   | FileCheck %s --check-prefix=TWO

// RUN: %reference reshape %t/reshape
// RUN: graph-run %s --entry=reshape --quiet --input=@%t/reshape/x0.npy \
// RUN:   --expected-output=@%t/reshape/expected.npy \
// RUN:   --expected-output=@%t/reshape/expected1.npy \
// RUN:   --expected-output=@%t/reshape/expected2.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=THREE
// RUN: %reference reshape_scalar %t/reshape_scalar
// RUN: graph-run %s --entry=reshape_scalar --quiet \
// RUN:   --input=@%t/reshape_scalar/x0.npy \
// RUN:   --expected-output=@%t/reshape_scalar/expected.npy \
// RUN:   --expected-output=@%t/reshape_scalar/expected1.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=TWO

// RUN: %reference broadcast_to %t/broadcast_to
// RUN: graph-run %s --entry=broadcast_to --quiet \
// RUN:   --input=@%t/broadcast_to/x0.npy --input=@%t/broadcast_to/x1.npy \
// RUN:   --expected-output=@%t/broadcast_to/expected.npy \
// RUN:   --expected-output=@%t/broadcast_to/expected1.npy \
// RUN:   --expected-output=@%t/broadcast_to/expected2.npy \
// RUN:   --expected-output=@%t/broadcast_to/expected3.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=FOUR
// RUN: graph-run %s --entry=broadcast_to --quiet --optimize=0 \
// RUN:   --input=@%t/broadcast_to/x0.npy --input=@%t/broadcast_to/x1.npy \
// RUN:   --expected-output=@%t/broadcast_to/expected.npy \
// RUN:   --expected-output=@%t/broadcast_to/expected1.npy \
// RUN:   --expected-output=@%t/broadcast_to/expected2.npy \
// RUN:   --expected-output=@%t/broadcast_to/expected3.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=FOUR

// RUN: %reference concat %t/concat
// RUN: graph-run %s --entry=concat --quiet \
// RUN:   --input=@%t/concat/x0.npy --input=@%t/concat/x1.npy \
// RUN:   --input=@%t/concat/x2.npy --input=@%t/concat/x3.npy \
// RUN:   --expected-output=@%t/concat/expected.npy \
// RUN:   --expected-output=@%t/concat/expected1.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=TWO

// RUN: %reference slice %t/slice
// RUN: graph-run %s --entry=slice --quiet \
// RUN:   --input=@%t/slice/x0.npy --input=@%t/slice/x1.npy \
// RUN:   --expected-output=@%t/slice/expected.npy \
// RUN:   --expected-output=@%t/slice/expected1.npy \
// RUN:   --expected-output=@%t/slice/expected2.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=THREE

// CHECK: result 0: matches expected

// TWO: result 0: matches expected
// TWO: result 1: matches expected

// THREE: result 0: matches expected
// THREE: result 1: matches expected
// THREE: result 2: matches expected

// FOUR: result 0: matches expected
// FOUR: result 1: matches expected
// FOUR: result 2: matches expected
// FOUR: result 3: matches expected

func.func @transpose3d(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %r = graph.transpose %x, [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  return %r : tensor<4x2x3xf32>
}

// transpose(transpose(x, [1, 2, 0]), [1, 2, 0]) = transpose(x, [2, 0, 1]).
func.func @transpose_twice(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %a = graph.transpose %x, [1, 2, 0] : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %b = graph.transpose %a, [1, 2, 0] : tensor<3x4x2xf32> -> tensor<4x2x3xf32>
  return %b : tensor<4x2x3xf32>
}

func.func @transpose_i64(%x: tensor<3x5xi64>) -> tensor<5x3xi64> {
  %r = graph.transpose %x, [1, 0] : tensor<3x5xi64> -> tensor<5x3xi64>
  return %r : tensor<5x3xi64>
}

// Sizes that are not multiples of a vector.
func.func @transpose_big(%x: tensor<17x33xf32>, %y: tensor<5x17x9xf32>)
    -> (tensor<33x17xf32>, tensor<17x9x5xf32>) {
  %a = graph.transpose %x, [1, 0] : tensor<17x33xf32> -> tensor<33x17xf32>
  %b = graph.transpose %y, [1, 2, 0] : tensor<5x17x9xf32> -> tensor<17x9x5xf32>
  return %a, %b : tensor<33x17xf32>, tensor<17x9x5xf32>
}

// Byte relayouts, vectorized as 16 x 16 tiles transposed in registers.
func.func @transpose_bytes(%x: tensor<2x32x8x16xui8>, %y: tensor<1x16x48x32xi8>)
    -> (tensor<2x8x16x32xui8>, tensor<1x32x16x48xi8>) {
  %a = graph.transpose %x, [0, 2, 3, 1] : tensor<2x32x8x16xui8> -> tensor<2x8x16x32xui8>
  %b = graph.transpose %y, [0, 3, 1, 2] : tensor<1x16x48x32xi8> -> tensor<1x32x16x48xi8>
  return %a, %b : tensor<2x8x16x32xui8>, tensor<1x32x16x48xi8>
}

func.func @reshape(%x: tensor<2x3x4xf32>) -> (tensor<4x6xf32>, tensor<24xf32>, tensor<2x4x3xf32>) {
  %a = graph.reshape %x, [4, -1] : tensor<2x3x4xf32> -> tensor<4x6xf32>
  %b = graph.reshape %x, [-1] : tensor<2x3x4xf32> -> tensor<24xf32>
  %c = graph.reshape %a, [2, -1, 3] : tensor<4x6xf32> -> tensor<2x4x3xf32>
  return %a, %b, %c : tensor<4x6xf32>, tensor<24xf32>, tensor<2x4x3xf32>
}

func.func @reshape_scalar(%x: tensor<1x1xf32>) -> (tensor<f32>, tensor<1x1x1xf32>) {
  %a = graph.reshape %x, [] : tensor<1x1xf32> -> tensor<f32>
  %b = graph.reshape %a, [1, 1, -1] : tensor<f32> -> tensor<1x1x1xf32>
  return %a, %b : tensor<f32>, tensor<1x1x1xf32>
}

func.func @broadcast_to(%a: tensor<3xf32>, %b: tensor<3x1xf32>)
    -> (tensor<4x3xf32>, tensor<2x3x4xf32>, tensor<2x3x5xf32>, tensor<2x5x3xf32>) {
  %r0 = graph.broadcast_to %a, [4, 3] : tensor<3xf32> -> tensor<4x3xf32>
  %r1 = graph.broadcast_to %b, [2, 3, 4] : tensor<3x1xf32> -> tensor<2x3x4xf32>
  %r2 = graph.broadcast_to %b, [2, -1, 5] : tensor<3x1xf32> -> tensor<2x3x5xf32>
  %i = graph.broadcast_to %a, [5, 3] : tensor<3xf32> -> tensor<5x3xf32>
  %r3 = graph.broadcast_to %i, [2, 5, 3] : tensor<5x3xf32> -> tensor<2x5x3xf32>
  return %r0, %r1, %r2, %r3 : tensor<4x3xf32>, tensor<2x3x4xf32>, tensor<2x3x5xf32>, tensor<2x5x3xf32>
}

func.func @concat(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>, %c: tensor<2x1xf32>, %d: tensor<2x4xf32>)
    -> (tensor<6x3xf32>, tensor<2x8xf32>) {
  %r0 = graph.concat %a, %b axis = 0 : tensor<2x3xf32>, tensor<4x3xf32> -> tensor<6x3xf32>
  %r1 = graph.concat %a, %c, %d axis = 1 : tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x4xf32> -> tensor<2x8xf32>
  return %r0, %r1 : tensor<6x3xf32>, tensor<2x8xf32>
}

// x[1:6:2, 0:7:3], x[2:4, :], y[1:4:2, 0:5:4, 1:6:2].
func.func @slice(%x: tensor<6x8xf32>, %y: tensor<4x5x6xf32>)
    -> (tensor<3x3xf32>, tensor<2x8xf32>, tensor<2x2x3xf32>) {
  %r0 = graph.slice %x [1, 0] [6, 7] [2, 3] : tensor<6x8xf32> -> tensor<3x3xf32>
  %r1 = graph.slice %x [2, 0] [4, 8] [1, 1] : tensor<6x8xf32> -> tensor<2x8xf32>
  %r2 = graph.slice %y [1, 0, 1] [4, 5, 6] [2, 4, 2] : tensor<4x5x6xf32> -> tensor<2x2x3xf32>
  return %r0, %r1, %r2 : tensor<3x3xf32>, tensor<2x8xf32>, tensor<2x2x3xf32>
}
