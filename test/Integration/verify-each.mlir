// The compile pipeline verifies the IR once, after its last pass;
// --verify-each (Python: verify_each=True) verifies after every pass, a
// debugging aid for pass authors. Both compile the same program: a matmul
// with a bias and ReLU (values worked out by hand: x = [[1, 2], [3, 4]],
// w = [[1, -1], [0.5, 2]], b = [0, -10]: x @ w = [[2, 3], [5, 5]],
// + b = [[2, -7], [5, -5]], relu = [[2, 0], [5, 0]]).
// RUN: graph-run %s --quiet --input=2x2xf32=1,2,3,4 --input=2x2xf32=1,-1,0.5,2 \
// RUN:   --input=2xf32=0,-10 --expected-output=2x2xf32=2,0,5,0 | FileCheck %s
// RUN: graph-run %s --quiet --verify-each --input=2x2xf32=1,2,3,4 --input=2x2xf32=1,-1,0.5,2 \
// RUN:   --input=2xf32=0,-10 --expected-output=2x2xf32=2,0,5,0 | FileCheck %s
// RUN: %graphopt_python -c "import graphopt, numpy as np, sys; p = graphopt.Program(open(sys.argv[1]).read(), verify_each=True); r = p(np.array([[1, 2], [3, 4]], np.float32), np.array([[1, -1], [0.5, 2]], np.float32), np.array([0, -10], np.float32)); assert (r == np.array([[2, 0], [5, 0]], np.float32)).all(), r; print('python: result 0: matches expected')" %s | FileCheck %s

// CHECK: result 0: matches expected
func.func @main(%x: tensor<2x2xf32>, %w: tensor<2x2xf32>, %b: tensor<2xf32>) -> tensor<2x2xf32> {
  %m = graph.matmul %x, %w : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
  %a = graph.add %m, %b : tensor<2x2xf32>, tensor<2xf32> -> tensor<2x2xf32>
  %r = graph.relu %a : tensor<2x2xf32> -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
