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

// A rank-4 (NCHW) elementwise op on contiguous operands of one shape:
// its dims are merged into one (graph-gpu-collapse-elementwise, since
// 2026-12-07), a 1-D loop of 16-byte vectors, blocks of 256 threads.
// CHECK-LABEL: func.func @nchw_add
// CHECK: gpu.launch_func {{.+}} blocks in (%c2048{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}) threads in (%c256{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}})
// CHECK: .maxntid 256, 1, 1
func.func @nchw_add(%a: tensor<8x16x128x128xf32>, %b: tensor<8x16x128x128xf32>) -> tensor<8x16x128x128xf32> {
  %c = graph.add %a, %b : tensor<8x16x128x128xf32>, tensor<8x16x128x128xf32> -> tensor<8x16x128x128xf32>
  return %c : tensor<8x16x128x128xf32>
}

// A rank-4 elementwise op whose dims cannot merge (an operand broadcast
// over dims 0 and 2): the outer dims of each block's threads are
// collapsed into one, so the innermost, contiguous dim is the x threads
// (32 lanes of a warp on consecutive elements) and a block has 8 x 32
// threads; mapped as they were, the innermost dim became a sequential
// loop and a block had 8 threads, a row apart.
// CHECK-LABEL: func.func @nchw_add_broadcast
// CHECK: gpu.launch_func {{.+}} threads in (%c32{{(_[0-9]+)?}}, %c8{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}})
// CHECK: .maxntid 32, 8, 1
func.func @nchw_add_broadcast(%a: tensor<8x16x128x128xf32>, %b: tensor<16x1x128xf32>) -> tensor<8x16x128x128xf32> {
  %c = graph.add %a, %b : tensor<8x16x128x128xf32>, tensor<16x1x128xf32> -> tensor<8x16x128x128xf32>
  return %c : tensor<8x16x128x128xf32>
}
