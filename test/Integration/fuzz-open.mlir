// A bug the fuzzer found that is not fixed yet (fuzz_graph.py --zero-dims,
// seeds 20261212 program 227 and 20261215 program 796): a matmul with
// zero-size and dynamic batch dims, compiled without shape specialization,
// lowers to a memref.collapse_shape the verifier rejects ("collapsed dim
// must be dynamic if and only if reassociation group is dynamic"); it is a
// clear compile error, not a crash. The expected value is by hand: the
// result has a zero-size dim, so it is empty. XFAIL until fixed; the fix
// makes this an unexpected pass, which fails the suite until XFAIL goes.
// XFAIL: *
// RUN: graph-run %s --specialize-shapes=false --input=2x0x6x4xf32= \
// RUN:   --expected-output=2x0x3x4xf32= --quiet | FileCheck %s
// CHECK: result 0: matches expected
func.func @main(%x: tensor<?x?x?x?xf32>) -> tensor<?x0x3x?xf32> {
  %c = graph.constant dense<> : tensor<0x3x6xf32>
  %0 = graph.matmul %c, %x : tensor<0x3x6xf32>, tensor<?x?x?x?xf32> -> tensor<?x0x3x?xf32>
  return %0 : tensor<?x0x3x?xf32>
}
