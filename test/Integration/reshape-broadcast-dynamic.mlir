// A dynamic ?x? -> ? reshape feeding a broadcast, compiled for dynamic
// shapes: graph-fuse-elementwise must not propagate the reshape through the
// broadcast (it would split one dim into two dynamic ones, and MLIR 22's
// expand-strided-metadata crashes on the resulting memref.expand_shape).
// Found by scripts/fuzz_graph.py (seed 9001, program 1023). Expected values
// by hand: b * reshape(a, [-1]) = [[1, 1, 1] * [1, 2, 3], [2, 2, 2] * [1, 2, 3]].
// RUN: graph-run %s --specialize-shapes=false --input=1x3xf32=1,2,3 \
// RUN:   --input=2x3xf32=1,1,1,2,2,2 --expected-output=2x3xf32=1,2,3,2,4,6 \
// RUN:   --atol=0 --rtol=0 | FileCheck %s
// RUN: graph-run %s --input=1x3xf32=1,2,3 --input=2x3xf32=1,1,1,2,2,2 \
// RUN:   --expected-output=2x3xf32=1,2,3,2,4,6 --atol=0 --rtol=0 | FileCheck %s
// CHECK: result 0: matches expected

func.func @main(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = graph.reshape %a, [-1] : tensor<?x?xf32> -> tensor<?xf32>
  %m = graph.mul %b, %r : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  return %m : tensor<?x?xf32>
}
