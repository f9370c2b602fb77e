// How --expected-output compares: equal infinities match; integers are
// compared exactly, so an i64 off by one at 2^60 is caught even though the
// two values are the same double.
// RUN: graph-run %s --entry=neg_f32 --quiet --input=3xf32=inf,-inf,1 \
// RUN:   --expected-output=3xf32=-inf,inf,-1 | FileCheck %s --check-prefix=INF
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([-2**60], dtype=np.int64)); np.save('%t/good.npy', np.array([2**60], dtype=np.int64)); np.save('%t/bad.npy', np.array([2**60 + 1], dtype=np.int64))"
// RUN: graph-run %s --entry=neg_i64 --quiet --input=@%t/x.npy \
// RUN:   --expected-output=@%t/good.npy --atol=0 --rtol=0 | FileCheck %s --check-prefix=I64
// RUN: not graph-run %s --entry=neg_i64 --quiet --input=@%t/x.npy \
// RUN:   --expected-output=@%t/bad.npy --atol=0 --rtol=0 2>&1 | FileCheck %s --check-prefix=I64-BAD

// INF: result 0: matches expected
// I64: result 0: matches expected
// I64-BAD: result 0 MISMATCH: 1 of 1 elements differ (integers compare exactly); worst at [0]: got 1152921504606846976, expected 1152921504606846977
func.func @neg_f32(%x: tensor<3xf32>) -> tensor<3xf32> {
  %r = graph.neg %x : tensor<3xf32> -> tensor<3xf32>
  return %r : tensor<3xf32>
}

func.func @neg_i64(%x: tensor<1xi64>) -> tensor<1xi64> {
  %r = graph.neg %x : tensor<1xi64> -> tensor<1xi64>
  return %r : tensor<1xi64>
}
