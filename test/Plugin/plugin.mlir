// graphopt's dialect and passes inside the stock mlir-opt, loaded as a plugin.
// RUN: mlir-opt %s --load-dialect-plugin=%graphopt_lib/libGraphOptPlugin%shlibext \
// RUN:   --load-pass-plugin=%graphopt_lib/libGraphOptPlugin%shlibext \
// RUN:   --pass-pipeline='builtin.module(graph-optimize)' | FileCheck %s --check-prefix=OPT
// RUN: mlir-opt %s --load-dialect-plugin=%graphopt_lib/libGraphOptPlugin%shlibext \
// RUN:   --load-pass-plugin=%graphopt_lib/libGraphOptPlugin%shlibext \
// RUN:   --pass-pipeline='builtin.module(graph-cpu-pipeline)' | FileCheck %s --check-prefix=CPU
// The plugin loads the compiler layer only: no JIT (ExecutionEngine) and
// not libGraphOpt.so, which holds the execution layer and the C API.
// RUN: llvm-readelf -d %graphopt_lib/libGraphOptPlugin%shlibext | FileCheck %s --check-prefix=DEPS
// RUN: llvm-readelf -d %graphopt_lib/libGraphOptCompiler%shlibext | FileCheck %s --check-prefix=DEPS
// DEPS-NOT: ExecutionEngine
// DEPS-NOT: [libGraphOpt.so]
// DEPS: libMLIR.so
// DEPS-NOT: ExecutionEngine
// DEPS-NOT: [libGraphOpt.so]

// x * 1 folds away, the constant transpose is folded.
// OPT-LABEL: func.func @main
// OPT-SAME: (%[[X:.+]]: tensor<2x3xf32>)
// OPT: %[[C:.+]] = graph.constant dense<{{\[}}[1.000000e+00, 3.000000e+00, 5.000000e+00], [2.000000e+00, 4.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>
// OPT: %[[R:.+]] = graph.mul %[[X]], %[[C]]
// OPT: return %[[R]]

// The CPU pipeline reaches the LLVM dialect with a C interface wrapper.
// CPU: llvm.func @main
// CPU: llvm.func @_mlir_ciface_main
// CPU-NOT: graph.
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %one = graph.constant dense<1.0> : tensor<2x3xf32>
  %w = graph.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %wt = graph.transpose %w, [1, 0] : tensor<3x2xf32> -> tensor<2x3xf32>
  %a = graph.mul %x, %one : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %b = graph.mul %a, %wt : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  return %b : tensor<2x3xf32>
}
