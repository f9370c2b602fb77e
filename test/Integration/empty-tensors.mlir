// Zero-size tensors through the CPU pipeline (found by the ONNX node tests):
// an empty slice starting at the dim size, and a fused reduction over a
// zero-size dim (sum of nothing is 0, worked out by hand).
// RUN: graph-run %s --entry=empty_slice --seed=1 | FileCheck %s --check-prefix=SLICE
// RUN: graph-run %s --entry=empty_reduce --seed=1 | FileCheck %s --check-prefix=REDUCE
// SLICE: result 0: tensor<0xf32> = 0xf32
// SLICE-NEXT: []
// REDUCE: result 0: tensor<2x1x4xf32> = 2x1x4xf32
// REDUCE-NEXT: {{\[\[\[}}0, 0, 0, 0]], {{\[\[}}0, 0, 0, 0]]]
// Matmuls and convolutions with a zero-size dim (issue 19: M = 0 or K = 0
// with N >= 17 and a batch-0 convolution segfaulted in tiling). A sum over
// K = 0 terms is 0; a convolution without input channels is its bias.
// RUN: graph-run %s --entry=matmul_m0 --seed=1 | FileCheck %s --check-prefix=M0
// RUN: graph-run %s --entry=matmul_k0 --seed=1 --expected-output=4x20xf32=0 --quiet | FileCheck %s --check-prefix=OK
// RUN: graph-run %s --entry=conv_batch0 --seed=1 | FileCheck %s --check-prefix=CONV0
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/c0.npy', np.broadcast_to(np.arange(1, 5, dtype=np.float32).reshape(1, 4, 1, 1), (2, 4, 8, 8)).copy())"
// RUN: graph-run %s --entry=conv_c0 --input=2x0x8x8xf32=0 --input=4x0x3x3xf32=0 \
// RUN:   --input=4xf32=1,2,3,4 --quiet --expected-output=@%t/c0.npy | FileCheck %s --check-prefix=OK
// M0: result 0: tensor<0x20xf32> = 0x20xf32
// M0-NEXT: []
// CONV0: result 0: tensor<0x4x8x8xf32> = 0x4x8x8xf32
// CONV0-NEXT: []
// OK: result 0: matches expected
func.func @empty_slice(%x: tensor<4xf32>) -> tensor<0xf32> {
  %0 = graph.slice %x [4] [4] [1] : tensor<4xf32> -> tensor<0xf32>
  return %0 : tensor<0xf32>
}
func.func @empty_reduce(%x: tensor<2x0x4xf32>) -> tensor<2x1x4xf32> {
  %a = graph.abs %x : tensor<2x0x4xf32> -> tensor<2x0x4xf32>
  %r = graph.reduce sum %a axes = [1] keepdims : tensor<2x0x4xf32> -> tensor<2x1x4xf32>
  return %r : tensor<2x1x4xf32>
}
func.func @matmul_m0(%a: tensor<0x10xf32>, %b: tensor<10x20xf32>) -> tensor<0x20xf32> {
  %0 = graph.matmul %a, %b : tensor<0x10xf32>, tensor<10x20xf32> -> tensor<0x20xf32>
  return %0 : tensor<0x20xf32>
}
func.func @matmul_k0(%a: tensor<4x0xf32>, %b: tensor<0x20xf32>) -> tensor<4x20xf32> {
  %0 = graph.matmul %a, %b : tensor<4x0xf32>, tensor<0x20xf32> -> tensor<4x20xf32>
  return %0 : tensor<4x20xf32>
}
func.func @conv_batch0(%x: tensor<0x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<0x4x8x8xf32> {
  %r = graph.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<0x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<0x4x8x8xf32>
  return %r : tensor<0x4x8x8xf32>
}
func.func @conv_c0(%x: tensor<2x0x8x8xf32>, %w: tensor<4x0x3x3xf32>, %b: tensor<4xf32>) -> tensor<2x4x8x8xf32> {
  %r = graph.conv2d %x, %w, %b {padding = array<i64: 1, 1, 1, 1>} : (tensor<2x0x8x8xf32>, tensor<4x0x3x3xf32>, tensor<4xf32>) -> tensor<2x4x8x8xf32>
  return %r : tensor<2x4x8x8xf32>
}
