// RUN: rm -rf %t && mkdir -p %t

// gather, dynamic_update_slice, pad, split, argmax and cumsum, checked
// against NumPy (test/lib/reference.py).
// Tolerances: the results of gather, dynamic_update_slice, pad, split and
// argmax are copies or indices, and integer cumsum is exact: rtol = atol = 0.
// f32 cumsum: rtol = atol = 1e-6 (partial sums of at most 8 values in
// [-2, 2), each rounded to f32).

// gather along axis 0 with i64 indices [3, 3] (in range, negative: from
// the end, and out of range: clamped, e.g. 12 -> 9, -11 -> 0), along axis 1
// of an i32 tensor with i32 indices, and with a rank-0 index (the axis is
// removed; an index from an argument stays an element-wise gather, a loop
// counter's is a slice: control-flow*.mlir): along the last axis (-2), and
// along axis 0 out of range (12: clamped to 9) and negative (-3).
// RUN: %reference gather %t/gather
// RUN: graph-run %s --entry=gather --quiet \
// RUN:   --input=@%t/gather/x0.npy --input=@%t/gather/x1.npy \
// RUN:   --input=@%t/gather/x2.npy --input=@%t/gather/x3.npy \
// RUN:   --input=@%t/gather/x4.npy --input=@%t/gather/x5.npy --input=@%t/gather/x6.npy \
// RUN:   --expected-output=@%t/gather/expected.npy \
// RUN:   --expected-output=@%t/gather/expected1.npy --expected-output=@%t/gather/expected2.npy \
// RUN:   --expected-output=@%t/gather/expected3.npy --expected-output=@%t/gather/expected4.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=GATHER

// dynamic_update_slice at index 2, -1 (the last), 7 (clamped to 4) and -9
// (-9 + 5 clamped to 0), and along axis 1 of an i64 tensor.
// RUN: %reference dynamic_update_slice %t/dynamic_update_slice
// RUN: graph-run %s --entry=dynamic_update_slice --quiet \
// RUN:   --input=@%t/dynamic_update_slice/x0.npy --input=@%t/dynamic_update_slice/x1.npy \
// RUN:   --input=@%t/dynamic_update_slice/x2.npy --input=@%t/dynamic_update_slice/x3.npy \
// RUN:   --input=@%t/dynamic_update_slice/x4.npy --input=@%t/dynamic_update_slice/x5.npy \
// RUN:   --input=@%t/dynamic_update_slice/x6.npy --input=@%t/dynamic_update_slice/x7.npy \
// RUN:   --expected-output=@%t/dynamic_update_slice/expected.npy --expected-output=@%t/dynamic_update_slice/expected1.npy \
// RUN:   --expected-output=@%t/dynamic_update_slice/expected2.npy --expected-output=@%t/dynamic_update_slice/expected3.npy \
// RUN:   --expected-output=@%t/dynamic_update_slice/expected4.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=FIVE

// pad: zeros; 1.5 low and high on both dims; an i32 tensor with -1.
// RUN: %reference pad %t/pad
// RUN: graph-run %s --entry=pad --quiet \
// RUN:   --input=@%t/pad/x0.npy --input=@%t/pad/x1.npy \
// RUN:   --expected-output=@%t/pad/expected.npy --expected-output=@%t/pad/expected1.npy \
// RUN:   --expected-output=@%t/pad/expected2.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=THREE

// split into 3 pieces along axis 1 and into 2 along axis 0 of an i32
// tensor.
// RUN: %reference split %t/split
// RUN: graph-run %s --entry=split --quiet \
// RUN:   --input=@%t/split/x0.npy --input=@%t/split/x1.npy \
// RUN:   --expected-output=@%t/split/expected.npy --expected-output=@%t/split/expected1.npy \
// RUN:   --expected-output=@%t/split/expected2.npy --expected-output=@%t/split/expected3.npy \
// RUN:   --expected-output=@%t/split/expected4.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=FIVE

// split with a dynamic dim other than the axis, compiled as dynamic-shape
// code (tensor.extract_slice sized at run time).
// RUN: %reference split_dynamic %t/split_dynamic
// RUN: graph-run %s --entry=split_dynamic --quiet --specialize-shapes=false \
// RUN:   --input=@%t/split_dynamic/x0.npy --expected-output=@%t/split_dynamic/expected.npy \
// RUN:   --expected-output=@%t/split_dynamic/expected1.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=TWO

// argmax: ties go to the first index, a NaN is the maximum (the first
// NaN), an all -inf row gives 0; axis 0 with keepdims; i32 along axis 1 and
// along axis 2 with keepdims.
// RUN: %reference argmax %t/argmax
// RUN: graph-run %s --entry=argmax --quiet \
// RUN:   --input=@%t/argmax/x0.npy --input=@%t/argmax/x1.npy \
// RUN:   --expected-output=@%t/argmax/expected.npy --expected-output=@%t/argmax/expected1.npy \
// RUN:   --expected-output=@%t/argmax/expected2.npy --expected-output=@%t/argmax/expected3.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=FOUR

// cumsum of f32 along both axes, i32 along axis 0 and i64 (values up to
// 2^40) along its only axis.
// RUN: %reference cumsum %t/cumsum
// RUN: graph-run %s --entry=cumsum --quiet \
// RUN:   --input=@%t/cumsum/x0.npy --input=@%t/cumsum/x1.npy \
// RUN:   --input=@%t/cumsum/x2.npy --expected-output=@%t/cumsum/expected.npy \
// RUN:   --expected-output=@%t/cumsum/expected1.npy --expected-output=@%t/cumsum/expected2.npy \
// RUN:   --expected-output=@%t/cumsum/expected3.npy \
// RUN:   --rtol=1e-6 --atol=1e-6 | FileCheck %s --check-prefix=FOUR

// cumprod, the same shapes (factors near 1 and a zero; integers in
// [-9, 9], products exact). f32: rtol 1e-6 (a product of at most 8 factors
// rounded at each step, against the float64 product).
// RUN: %reference cumprod %t/cumprod
// RUN: graph-run %s --entry=cumprod --quiet \
// RUN:   --input=@%t/cumprod/x0.npy --input=@%t/cumprod/x1.npy \
// RUN:   --input=@%t/cumprod/x2.npy --expected-output=@%t/cumprod/expected.npy \
// RUN:   --expected-output=@%t/cumprod/expected1.npy --expected-output=@%t/cumprod/expected2.npy \
// RUN:   --expected-output=@%t/cumprod/expected3.npy \
// RUN:   --rtol=1e-6 --atol=1e-7 | FileCheck %s --check-prefix=FOUR

// TWO: result 0: matches expected
// TWO: result 1: matches expected

// GATHER: result 0: matches expected
// GATHER: result 1: matches expected
// GATHER: result 2: matches expected
// GATHER: result 3: matches expected
// GATHER: result 4: matches expected
// THREE: result 0: matches expected
// THREE: result 1: matches expected
// THREE: result 2: matches expected

// FOUR: result 0: matches expected
// FOUR: result 1: matches expected
// FOUR: result 2: matches expected
// FOUR: result 3: matches expected

// FIVE: result 0: matches expected
// FIVE: result 1: matches expected
// FIVE: result 2: matches expected
// FIVE: result 3: matches expected
// FIVE: result 4: matches expected

func.func @gather(%t: tensor<10x4xf32>, %ids: tensor<3x3xi64>, %x: tensor<2x5x3xi32>, %cols: tensor<4xi32>, %s: tensor<i64>,
                  %s2: tensor<i64>, %s3: tensor<i32>) -> (tensor<3x3x4xf32>, tensor<2x4x3xi32>, tensor<2x5xi32>, tensor<4xf32>, tensor<4xf32>) {
  %a = graph.gather %t, %ids {axis = 0 : i64} : (tensor<10x4xf32>, tensor<3x3xi64>) -> tensor<3x3x4xf32>
  %b = graph.gather %x, %cols {axis = 1 : i64} : (tensor<2x5x3xi32>, tensor<4xi32>) -> tensor<2x4x3xi32>
  %c = graph.gather %x, %s {axis = 2 : i64} : (tensor<2x5x3xi32>, tensor<i64>) -> tensor<2x5xi32>
  %d = graph.gather %t, %s2 {axis = 0 : i64} : (tensor<10x4xf32>, tensor<i64>) -> tensor<4xf32>
  %e = graph.gather %t, %s3 {axis = 0 : i64} : (tensor<10x4xf32>, tensor<i32>) -> tensor<4xf32>
  return %a, %b, %c, %d, %e : tensor<3x3x4xf32>, tensor<2x4x3xi32>, tensor<2x5xi32>, tensor<4xf32>, tensor<4xf32>
}

func.func @dynamic_update_slice(%d: tensor<5x4xf32>, %u: tensor<4xf32>, %d3: tensor<2x3x4xi64>, %u3: tensor<2x4xi64>,
                                %i0: tensor<i64>, %i1: tensor<i64>, %i2: tensor<i64>, %i3: tensor<i64>)
    -> (tensor<5x4xf32>, tensor<5x4xf32>, tensor<5x4xf32>, tensor<5x4xf32>, tensor<2x3x4xi64>) {
  %a = graph.dynamic_update_slice %d, %u, %i0 {axis = 0 : i64} : (tensor<5x4xf32>, tensor<4xf32>, tensor<i64>) -> tensor<5x4xf32>
  %b = graph.dynamic_update_slice %d, %u, %i1 {axis = 0 : i64} : (tensor<5x4xf32>, tensor<4xf32>, tensor<i64>) -> tensor<5x4xf32>
  %c = graph.dynamic_update_slice %d, %u, %i2 {axis = 0 : i64} : (tensor<5x4xf32>, tensor<4xf32>, tensor<i64>) -> tensor<5x4xf32>
  %e = graph.dynamic_update_slice %d, %u, %i3 {axis = 0 : i64} : (tensor<5x4xf32>, tensor<4xf32>, tensor<i64>) -> tensor<5x4xf32>
  %f = graph.dynamic_update_slice %d3, %u3, %i0 {axis = 1 : i64} : (tensor<2x3x4xi64>, tensor<2x4xi64>, tensor<i64>) -> tensor<2x3x4xi64>
  return %a, %b, %c, %e, %f : tensor<5x4xf32>, tensor<5x4xf32>, tensor<5x4xf32>, tensor<5x4xf32>, tensor<2x3x4xi64>
}

func.func @pad(%x: tensor<2x3xf32>, %y: tensor<3x2x2xi32>) -> (tensor<2x6xf32>, tensor<5x6xf32>, tensor<4x2x5xi32>) {
  %a = graph.pad %x {low = array<i64: 0, 1>, high = array<i64: 0, 2>} : tensor<2x3xf32> -> tensor<2x6xf32>
  %b = graph.pad %x {low = array<i64: 2, 0>, high = array<i64: 1, 3>, value = 1.5 : f64} : tensor<2x3xf32> -> tensor<5x6xf32>
  %c = graph.pad %y {low = array<i64: 1, 0, 2>, high = array<i64: 0, 0, 1>, value = -1.0 : f64} : tensor<3x2x2xi32> -> tensor<4x2x5xi32>
  return %a, %b, %c : tensor<2x6xf32>, tensor<5x6xf32>, tensor<4x2x5xi32>
}

func.func @split(%x: tensor<3x6xf32>, %y: tensor<5x2x3xi32>) -> (tensor<3x1xf32>, tensor<3x2xf32>, tensor<3x3xf32>, tensor<2x2x3xi32>, tensor<3x2x3xi32>) {
  %a:3 = graph.split %x {axis = 1 : i64, sizes = array<i64: 1, 2, 3>} : tensor<3x6xf32> -> tensor<3x1xf32>, tensor<3x2xf32>, tensor<3x3xf32>
  %b:2 = graph.split %y {axis = 0 : i64, sizes = array<i64: 2, 3>} : tensor<5x2x3xi32> -> tensor<2x2x3xi32>, tensor<3x2x3xi32>
  return %a#0, %a#1, %a#2, %b#0, %b#1 : tensor<3x1xf32>, tensor<3x2xf32>, tensor<3x3xf32>, tensor<2x2x3xi32>, tensor<3x2x3xi32>
}

func.func @split_dynamic(%x: tensor<?x6xf32>) -> (tensor<?x2xf32>, tensor<?x4xf32>) {
  %r:2 = graph.split %x {axis = 1 : i64, sizes = array<i64: 2, 4>} : tensor<?x6xf32> -> tensor<?x2xf32>, tensor<?x4xf32>
  return %r#0, %r#1 : tensor<?x2xf32>, tensor<?x4xf32>
}

func.func @argmax(%x: tensor<4x7xf32>, %y: tensor<3x4x5xi32>) -> (tensor<4xi64>, tensor<1x7xi64>, tensor<3x5xi64>, tensor<3x4x1xi64>) {
  %a = graph.argmax %x {axis = 1 : i64} : tensor<4x7xf32> -> tensor<4xi64>
  %b = graph.argmax %x {axis = 0 : i64, keepdims} : tensor<4x7xf32> -> tensor<1x7xi64>
  %c = graph.argmax %y {axis = 1 : i64} : tensor<3x4x5xi32> -> tensor<3x5xi64>
  %d = graph.argmax %y {axis = 2 : i64, keepdims} : tensor<3x4x5xi32> -> tensor<3x4x1xi64>
  return %a, %b, %c, %d : tensor<4xi64>, tensor<1x7xi64>, tensor<3x5xi64>, tensor<3x4x1xi64>
}

func.func @cumsum(%x: tensor<3x8xf32>, %y: tensor<4x3xi32>, %z: tensor<5xi64>) -> (tensor<3x8xf32>, tensor<3x8xf32>, tensor<4x3xi32>, tensor<5xi64>) {
  %a = graph.cumsum %x {axis = 1 : i64} : tensor<3x8xf32> -> tensor<3x8xf32>
  %b = graph.cumsum %x {axis = 0 : i64} : tensor<3x8xf32> -> tensor<3x8xf32>
  %c = graph.cumsum %y {axis = 0 : i64} : tensor<4x3xi32> -> tensor<4x3xi32>
  %d = graph.cumsum %z {axis = 0 : i64} : tensor<5xi64> -> tensor<5xi64>
  return %a, %b, %c, %d : tensor<3x8xf32>, tensor<3x8xf32>, tensor<4x3xi32>, tensor<5xi64>
}

func.func @cumprod(%x: tensor<3x8xf32>, %y: tensor<4x3xi32>, %z: tensor<5xi64>) -> (tensor<3x8xf32>, tensor<3x8xf32>, tensor<4x3xi32>, tensor<5xi64>) {
  %a = graph.cumprod %x {axis = 1 : i64} : tensor<3x8xf32> -> tensor<3x8xf32>
  %b = graph.cumprod %x {axis = 0 : i64} : tensor<3x8xf32> -> tensor<3x8xf32>
  %c = graph.cumprod %y {axis = 0 : i64} : tensor<4x3xi32> -> tensor<4x3xi32>
  %d = graph.cumprod %z {axis = 0 : i64} : tensor<5xi64> -> tensor<5xi64>
  return %a, %b, %c, %d : tensor<3x8xf32>, tensor<3x8xf32>, tensor<4x3xi32>, tensor<5xi64>
}
