// Transcendental math on vectors stays vector code: polynomial
// approximations (with vector FMAs), no per-lane libm calls.
// RUN: graph-opt %s --graph-cpu-pipeline="vector-width=16" | FileCheck %s
// CHECK-LABEL: llvm.func @main
// CHECK-NOT: llvm.call @expf
// CHECK-NOT: llvm.call @tanhf
// CHECK-NOT: llvm.call @fmaf
// CHECK-NOT: llvm.call @erff
// CHECK: llvm.intr.fma({{.*}}) : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
// CHECK-LABEL: llvm.func @_mlir_ciface_main
func.func @main(%x: tensor<64xf32>) -> tensor<64xf32> {
  %a = graph.exp %x : tensor<64xf32> -> tensor<64xf32>
  %b = graph.tanh %a : tensor<64xf32> -> tensor<64xf32>
  %c = graph.gelu %b : tensor<64xf32> -> tensor<64xf32>
  return %c : tensor<64xf32>
}
