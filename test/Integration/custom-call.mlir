// The seed's "replace attention with a custom kernel", end to end: the
// attention subgraph below is replaced by fusion.custom_call
// (examples/patterns/attention_to_custom_kernel.mlir), --verify-rewrites
// checks the kernel against the subgraph on random and edge inputs, and the
// compiled program calls the C kernel from a shared library. The result is
// checked against NumPy (test/lib/reference.py, attention_custom_kernel);
// rtol = 1e-5, atol = 1e-6 (f32 softmax and two dot products of length 8/16).

// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -O2 -shared -fPIC %graphopt_src/examples/kernels/scaled_attention.c -o %t/libattn.so -lm
// RUN: graph-opt %s --replace-patterns=%graphopt_src/examples/patterns/attention_to_custom_kernel.mlir -o %t/rewritten.mlir
// RUN: FileCheck %s --check-prefix=IR < %t/rewritten.mlir
// RUN: %reference attention_custom_kernel %t/ref
// RUN: graph-run %t/rewritten.mlir --shared-lib=%t/libattn.so --quiet \
// RUN:   --input=@%t/ref/x0.npy --input=@%t/ref/x1.npy --input=@%t/ref/x2.npy \
// RUN:   --expected-output=@%t/ref/expected.npy --rtol=1e-5 --atol=1e-6 | FileCheck %s
// A missing kernel library is a clear error, not a crash.
// RUN: not graph-run %t/rewritten.mlir --shared-lib=%t/nonexistent.so --seed=1 2>&1 | FileCheck %s --check-prefix=NOLIB
// RUN: not graph-run %t/rewritten.mlir --seed=1 2>&1 | FileCheck %s --check-prefix=NOSYM

// IR: fusion.custom_call @scaled_attention
// IR-NOT: graph.softmax
// CHECK: result 0: matches expected
// NOLIB: shared library '{{.*}}nonexistent.so' does not exist
// NOSYM: _mlir_ciface_scaled_attention

func.func @main(%q: tensor<1x2x16x8xf32>, %k: tensor<1x2x16x8xf32>, %v: tensor<1x2x16x8xf32>) -> tensor<1x2x16x8xf32> {
  %kt = graph.transpose %k, [0, 1, 3, 2] : tensor<1x2x16x8xf32> -> tensor<1x2x8x16xf32>
  %s = graph.matmul %q, %kt : tensor<1x2x16x8xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x16x16xf32>
  %c = graph.constant dense<0.353553385> : tensor<f32>
  %ss = graph.mul %s, %c : tensor<1x2x16x16xf32>, tensor<f32> -> tensor<1x2x16x16xf32>
  %p = graph.softmax %ss axis = 3 : tensor<1x2x16x16xf32> -> tensor<1x2x16x16xf32>
  %o = graph.matmul %p, %v : tensor<1x2x16x16xf32>, tensor<1x2x16x8xf32> -> tensor<1x2x16x8xf32>
  return %o : tensor<1x2x16x8xf32>
}
