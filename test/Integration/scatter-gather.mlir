// RUN: rm -rf %t && mkdir -p %t

// graph.scatter (ScatterElements, torch.scatter / scatter_reduce) against a
// NumPy loop that applies the op's definition position by position
// (test/lib/reference.py, scatter_ref): reduction none along axis 1 with
// indices from the end (-1) and out of range (7 -> 4, -9 -> 0); add along
// axis 0 with duplicate indices and indices narrower than the data; mul,
// max and min along the last axis of rank-3 f32, i32 and i64 tensors.
// Tolerances: none, max, min and the integer results are copies or exact:
// rtol = atol = 0 for them would hold; f32 add and mul combine up to 3
// values each rounded to f32 where the reference rounds once:
// rtol = 1e-6, atol = 1e-6.
// RUN: %reference scatter %t/s
// RUN: graph-run %s --entry=scatter --quiet \
// RUN:   --input=@%t/s/x0.npy --input=@%t/s/x1.npy --input=@%t/s/x2.npy \
// RUN:   --input=@%t/s/x3.npy --input=@%t/s/x4.npy --input=@%t/s/x5.npy \
// RUN:   --input=@%t/s/x6.npy --input=@%t/s/x7.npy --input=@%t/s/x8.npy \
// RUN:   --input=@%t/s/x9.npy --input=@%t/s/x10.npy --input=@%t/s/x11.npy --input=@%t/s/x12.npy \
// RUN:   --expected-output=@%t/s/expected.npy --expected-output=@%t/s/expected1.npy \
// RUN:   --expected-output=@%t/s/expected2.npy --expected-output=@%t/s/expected3.npy \
// RUN:   --expected-output=@%t/s/expected4.npy --expected-output=@%t/s/expected5.npy \
// RUN:   --rtol=1e-6 --atol=1e-6 | FileCheck %s
// The same with the optimizer off, and with every dim dynamic (code for
// unknown sizes, not specialized).
// RUN: graph-run %s --entry=scatter --quiet --optimize=false \
// RUN:   --input=@%t/s/x0.npy --input=@%t/s/x1.npy --input=@%t/s/x2.npy \
// RUN:   --input=@%t/s/x3.npy --input=@%t/s/x4.npy --input=@%t/s/x5.npy \
// RUN:   --input=@%t/s/x6.npy --input=@%t/s/x7.npy --input=@%t/s/x8.npy \
// RUN:   --input=@%t/s/x9.npy --input=@%t/s/x10.npy --input=@%t/s/x11.npy --input=@%t/s/x12.npy \
// RUN:   --expected-output=@%t/s/expected.npy --expected-output=@%t/s/expected1.npy \
// RUN:   --expected-output=@%t/s/expected2.npy --expected-output=@%t/s/expected3.npy \
// RUN:   --expected-output=@%t/s/expected4.npy --expected-output=@%t/s/expected5.npy \
// RUN:   --rtol=1e-6 --atol=1e-6 | FileCheck %s
// RUN: graph-run %s --entry=scatter_dynamic --quiet --specialize-shapes=false \
// RUN:   --input=@%t/s/x0.npy --input=@%t/s/x1.npy --input=@%t/s/x2.npy \
// RUN:   --input=@%t/s/x3.npy --input=@%t/s/x4.npy --input=@%t/s/x5.npy \
// RUN:   --expected-output=@%t/s/expected.npy --expected-output=@%t/s/expected1.npy \
// RUN:   --rtol=1e-6 --atol=1e-6 | FileCheck %s --check-prefix=DYN

// CHECK: result 0: matches expected
// CHECK: result 1: matches expected
// CHECK: result 2: matches expected
// CHECK: result 3: matches expected
// CHECK: result 4: matches expected
// CHECK: result 5: matches expected
// DYN: result 0: matches expected
// DYN: result 1: matches expected

// graph.gather_elements (GatherElements, torch.gather) against
// numpy.take_along_axis with the indices wrapped and clamped as the op
// defines: along axis 1 with indices from the end and out of range, narrower
// than the data in dim 0; along axis 0 with more positions than the data;
// along the last axis of an i64 tensor with i32 indices. Copies: exact.
// RUN: %reference gather_elements %t/g
// RUN: graph-run %s --entry=gather_elements --quiet \
// RUN:   --input=@%t/g/x0.npy --input=@%t/g/x1.npy --input=@%t/g/x2.npy \
// RUN:   --input=@%t/g/x3.npy --input=@%t/g/x4.npy --input=@%t/g/x5.npy \
// RUN:   --expected-output=@%t/g/expected.npy --expected-output=@%t/g/expected1.npy \
// RUN:   --expected-output=@%t/g/expected2.npy --rtol=0 --atol=0 | FileCheck %s --check-prefix=GATHER
// RUN: graph-run %s --entry=gather_elements_dynamic --quiet --specialize-shapes=false \
// RUN:   --input=@%t/g/x0.npy --input=@%t/g/x1.npy --input=@%t/g/x2.npy --input=@%t/g/x3.npy \
// RUN:   --expected-output=@%t/g/expected.npy --expected-output=@%t/g/expected1.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=GATHER
// GATHER: result 0: matches expected
// GATHER: result 1: matches expected

// Dynamic updates shorter than the indices at run time (not specialized):
// only the positions that have an update are written, nothing is read past
// the updates (values by hand; before, d[1] and d[2] got what lay beyond).
// Specialized, the shapes are an error.
// RUN: graph-run %s --entry=short_updates --specialize-shapes=false --input=4xf32=1,2,3,4 \
// RUN:   --input=3xi64=0,1,2 --input=1xf32=10 | FileCheck %s --check-prefix=SHORT
// SHORT: [10, 2, 3, 4]
// RUN: not graph-run %s --entry=short_updates --input=4xf32=1,2,3,4 --input=3xi64=0,1,2 \
// RUN:   --input=1xf32=10 2>&1 | FileCheck %s --check-prefix=SHORT-SPEC
// SHORT-SPEC: the input shapes are inconsistent with @short_updates

// An empty axis: nothing lands, the data comes back (values by hand).
// RUN: graph-run %s --entry=empty_axis --input=2x0xf32= --input=2x3xi64=0,1,2,3,4,5 \
// RUN:   --input=2x3xf32=1,2,3,4,5,6 | FileCheck %s --check-prefix=EMPTY
// EMPTY: tensor<2x0xf32>

func.func @scatter(%d0: tensor<3x5xf32>, %i0: tensor<3x2xi64>, %u0: tensor<3x2xf32>,
                   %d1: tensor<4x3xf32>, %i1: tensor<5x2xi32>, %u1: tensor<5x2xf32>,
                   %d2: tensor<2x3x4xf32>, %i2: tensor<2x2x3xi64>, %u2: tensor<2x2x3xf32>,
                   %d3: tensor<2x3x4xi32>, %u3: tensor<2x2x3xi32>,
                   %d4: tensor<2x3x4xi64>, %u4: tensor<2x2x3xi64>)
    -> (tensor<3x5xf32>, tensor<4x3xf32>, tensor<2x3x4xf32>, tensor<2x3x4xi32>, tensor<2x3x4xi64>, tensor<2x3x4xf32>) {
  %a = graph.scatter none %d0, %i0, %u0 {axis = 1 : i64} : (tensor<3x5xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> tensor<3x5xf32>
  %b = graph.scatter add %d1, %i1, %u1 {axis = 0 : i64} : (tensor<4x3xf32>, tensor<5x2xi32>, tensor<5x2xf32>) -> tensor<4x3xf32>
  %c = graph.scatter mul %d2, %i2, %u2 {axis = 2 : i64} : (tensor<2x3x4xf32>, tensor<2x2x3xi64>, tensor<2x2x3xf32>) -> tensor<2x3x4xf32>
  %e = graph.scatter max %d3, %i2, %u3 {axis = 2 : i64} : (tensor<2x3x4xi32>, tensor<2x2x3xi64>, tensor<2x2x3xi32>) -> tensor<2x3x4xi32>
  %f = graph.scatter min %d4, %i2, %u4 {axis = 2 : i64} : (tensor<2x3x4xi64>, tensor<2x2x3xi64>, tensor<2x2x3xi64>) -> tensor<2x3x4xi64>
  %g = graph.scatter max %d2, %i2, %u2 {axis = 2 : i64} : (tensor<2x3x4xf32>, tensor<2x2x3xi64>, tensor<2x2x3xf32>) -> tensor<2x3x4xf32>
  return %a, %b, %c, %e, %f, %g : tensor<3x5xf32>, tensor<4x3xf32>, tensor<2x3x4xf32>, tensor<2x3x4xi32>, tensor<2x3x4xi64>, tensor<2x3x4xf32>
}

func.func @scatter_dynamic(%d0: tensor<?x?xf32>, %i0: tensor<?x?xi64>, %u0: tensor<?x?xf32>,
                           %d1: tensor<?x?xf32>, %i1: tensor<?x?xi32>, %u1: tensor<?x?xf32>)
    -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %a = graph.scatter none %d0, %i0, %u0 {axis = 1 : i64} : (tensor<?x?xf32>, tensor<?x?xi64>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %b = graph.scatter add %d1, %i1, %u1 {axis = 0 : i64} : (tensor<?x?xf32>, tensor<?x?xi32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %a, %b : tensor<?x?xf32>, tensor<?x?xf32>
}

func.func @empty_axis(%d: tensor<2x0xf32>, %i: tensor<2x3xi64>, %u: tensor<2x3xf32>) -> tensor<2x0xf32> {
  %r = graph.scatter add %d, %i, %u {axis = 1 : i64} : (tensor<2x0xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<2x0xf32>
  return %r : tensor<2x0xf32>
}

func.func @gather_elements(%x0: tensor<4x5xf32>, %i0: tensor<3x3xi64>, %x1: tensor<3x2xi32>, %i1: tensor<5x2xi64>,
                           %x2: tensor<2x3x4xi64>, %i2: tensor<2x3x6xi32>)
    -> (tensor<3x3xf32>, tensor<5x2xi32>, tensor<2x3x6xi64>) {
  %a = graph.gather_elements %x0, %i0 {axis = 1 : i64} : (tensor<4x5xf32>, tensor<3x3xi64>) -> tensor<3x3xf32>
  %b = graph.gather_elements %x1, %i1 {axis = 0 : i64} : (tensor<3x2xi32>, tensor<5x2xi64>) -> tensor<5x2xi32>
  %c = graph.gather_elements %x2, %i2 {axis = 2 : i64} : (tensor<2x3x4xi64>, tensor<2x3x6xi32>) -> tensor<2x3x6xi64>
  return %a, %b, %c : tensor<3x3xf32>, tensor<5x2xi32>, tensor<2x3x6xi64>
}

func.func @gather_elements_dynamic(%x0: tensor<?x?xf32>, %i0: tensor<?x?xi64>, %x1: tensor<?x2xi32>, %i1: tensor<?x2xi64>)
    -> (tensor<?x?xf32>, tensor<?x2xi32>) {
  %a = graph.gather_elements %x0, %i0 {axis = 1 : i64} : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  %b = graph.gather_elements %x1, %i1 {axis = 0 : i64} : (tensor<?x2xi32>, tensor<?x2xi64>) -> tensor<?x2xi32>
  return %a, %b : tensor<?x?xf32>, tensor<?x2xi32>
}

func.func @short_updates(%d: tensor<4xf32>, %i: tensor<?xi64>, %u: tensor<?xf32>) -> tensor<4xf32> {
  %r = graph.scatter none %d, %i, %u {axis = 0 : i64} : (tensor<4xf32>, tensor<?xi64>, tensor<?xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
