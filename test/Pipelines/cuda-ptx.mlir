// graph-cuda-pipeline: every loop nest becomes an outlined kernel mapped to
// blocks x threads, lowered through NVVM to PTX for the chosen chip. With
// lower-host=false the host side stays at the gpu dialect level
// (gpu.launch_func on memrefs), which is what these checks read; the host
// lowering is tested in cuda-host.mlir.
// RUN: graph-opt %s --graph-cuda-pipeline=lower-host=false | FileCheck %s
// RUN: graph-opt %s --graph-cuda-pipeline="chip=sm_80 features=+ptx70 lower-host=false" | FileCheck %s --check-prefix=SM80

// The fused add + exp is one kernel: global loads, an FMA-based exp
// (ex2.approx after range reduction), one global store.
// CHECK-LABEL: func.func @elementwise
// CHECK-COUNT-1: gpu.launch_func
// CHECK: gpu.binary @{{.*}} [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80">
// CHECK-SAME: .target sm_90
// CHECK-SAME: ld.global
// CHECK-SAME: ex2.approx
// CHECK-SAME: st.global
// SM80: .target sm_80
func.func @elementwise(%x: tensor<1024xf32>, %y: tensor<1024xf32>) -> tensor<1024xf32> {
  %a = graph.add %x, %y : tensor<1024xf32>, tensor<1024xf32> -> tensor<1024xf32>
  %e = graph.exp %a : tensor<1024xf32> -> tensor<1024xf32>
  return %e : tensor<1024xf32>
}
