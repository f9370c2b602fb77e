// graph-run compiles for the shapes it is given (dynamic dims fixed), so
// inputs that contradict each other are an error (from the entry's dim
// equalities before compiling, else the op's verifier), not an
// out-of-bounds read; --specialize-shapes=false runs the dynamic-shape code.
// Values are worked out by hand: [1,2,3] + [10,20,30] per row.
// RUN: graph-run %s --input=2x3xf32=1,2,3,1,2,3 --input=2x3xf32=10,20,30,10,20,30 \
// RUN:   --expected-output=2x3xf32=11,22,33,11,22,33 --quiet | FileCheck %s --check-prefix=OK
// RUN: graph-run %s --specialize-shapes=false --input=2x3xf32=1,2,3,1,2,3 \
// RUN:   --input=2x3xf32=10,20,30,10,20,30 --expected-output=2x3xf32=11,22,33,11,22,33 \
// RUN:   --quiet | FileCheck %s --check-prefix=OK
// RUN: not graph-run %s --input=2x3xf32=1 --input=5x3xf32=2 2>&1 | FileCheck %s --check-prefix=BAD

// OK: result 0: matches expected
// BAD: graph-run: error: input 1 of @main: dim 0 is 5 but dim 0 of input 0 is 2; the program needs them equal for graph.add
func.func @main(%x: tensor<?x3xf32>, %y: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %z = graph.add %x, %y : tensor<?x3xf32>, tensor<?x3xf32> -> tensor<?x3xf32>
  return %z : tensor<?x3xf32>
}
