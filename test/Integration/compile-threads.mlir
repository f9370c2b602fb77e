// CPU code generation in parts on several threads (Runner.cpp,
// compileObjects): the module's functions are split into up to 8 parts,
// optimized and compiled in parallel, and the objects loaded into the JIT.
// The split depends only on the module, so the code is the same whatever
// the thread count: the compile cache's entries of a 1-thread and a
// 2-thread compile are compared byte for byte. The results are checked by
// hand: relu(x @ w + b) with w = 2 I, b = -1, and the outlined kernels give
// the split several functions.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env GRAPHOPT_CACHE_DIR=%t/one graph-run %s --compile-threads=1 --timing --quiet \
// RUN:   --input=2x2xf32=1,-2,3,0.25 --expected-output=2x2xf32=1,0,5,0 \
// RUN:   --expected-output=2x2xf32=2,-1,4,1.25 2>&1 | FileCheck %s --check-prefix=ONE
// ONE: graphopt: lowering {{.*}} s, LLVM {{.*}} s ({{[2-8]}} parts, 1 threads)
// ONE: result 0: matches expected
// ONE: result 1: matches expected
// RUN: env GRAPHOPT_CACHE_DIR=%t/two graph-run %s --compile-threads=2 --timing --quiet \
// RUN:   --input=2x2xf32=1,-2,3,0.25 --expected-output=2x2xf32=1,0,5,0 \
// RUN:   --expected-output=2x2xf32=2,-1,4,1.25 2>&1 | FileCheck %s --check-prefix=TWO
// TWO: graphopt: lowering {{.*}} s, LLVM {{.*}} s ({{[2-8]}} parts, 2 threads)
// TWO: result 0: matches expected
// TWO: result 1: matches expected
// RUN: %python -c "import glob, sys; a, b = [open(glob.glob(sys.argv[i] + '/*.gobj')[0], 'rb').read() for i in (1, 2)]; print('identical' if a == b else 'differ')" %t/one %t/two | FileCheck %s --check-prefix=SAME
// SAME: identical
func.func @main(%x: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  %w = graph.constant dense<[[2.0, 0.0], [0.0, 2.0]]> : tensor<2x2xf32>
  %b = graph.constant dense<-1.0> : tensor<f32>
  %m = graph.matmul %x, %w : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
  %a = graph.add %m, %b : tensor<2x2xf32>, tensor<f32> -> tensor<2x2xf32>
  %r = graph.relu %a : tensor<2x2xf32> -> tensor<2x2xf32>
  %c = graph.constant dense<1.0> : tensor<f32>
  %e = graph.add %x, %c : tensor<2x2xf32>, tensor<f32> -> tensor<2x2xf32>
  return %r, %e : tensor<2x2xf32>, tensor<2x2xf32>
}
