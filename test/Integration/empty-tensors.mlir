// Zero-size tensors through the CPU pipeline (found by the ONNX node tests):
// an empty slice starting at the dim size, and a fused reduction over a
// zero-size dim (sum of nothing is 0, worked out by hand).
// RUN: graph-run %s --entry=empty_slice --seed=1 | FileCheck %s --check-prefix=SLICE
// RUN: graph-run %s --entry=empty_reduce --seed=1 | FileCheck %s --check-prefix=REDUCE
// SLICE: result 0: tensor<0xf32> = 0xf32
// SLICE-NEXT: []
// REDUCE: result 0: tensor<2x1x4xf32> = 2x1x4xf32
// REDUCE-NEXT: {{\[\[\[}}0, 0, 0, 0]], {{\[\[}}0, 0, 0, 0]]]
func.func @empty_slice(%x: tensor<4xf32>) -> tensor<0xf32> {
  %0 = graph.slice %x [4] [4] [1] : tensor<4xf32> -> tensor<0xf32>
  return %0 : tensor<0xf32>
}
func.func @empty_reduce(%x: tensor<2x0x4xf32>) -> tensor<2x1x4xf32> {
  %a = graph.abs %x : tensor<2x0x4xf32> -> tensor<2x0x4xf32>
  %r = graph.reduce sum %a axes = [1] keepdims : tensor<2x0x4xf32> -> tensor<2x1x4xf32>
  return %r : tensor<2x1x4xf32>
}
