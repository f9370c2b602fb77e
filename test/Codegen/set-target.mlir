// The CPU pipeline records the target on every LLVM function, so the LLVM IR
// carries it to any backend.
// RUN: graph-opt %s --graph-cpu-pipeline="target-cpu=x86-64-v3 target-features=+avx2,+fma" | FileCheck %s
// RUN: graph-opt %s --graph-cpu-pipeline="target-cpu=x86-64-v3 target-features=+avx2,+fma" | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=IR

// CHECK: llvm.func @main({{.*}} target_cpu = "x86-64-v3", target_features = #llvm.target_features<["+avx2", "+fma"]>
// IR: attributes #{{[0-9]+}} = { {{.*}}"target-cpu"="x86-64-v3" "target-features"="+avx2,+fma"
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = graph.exp %x : tensor<8xf32> -> tensor<8xf32>
  return %r : tensor<8xf32>
}
