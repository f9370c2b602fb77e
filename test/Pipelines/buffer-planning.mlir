// Buffer planning: one-shot bufferization writes elementwise results in place
// into dead temporaries, and ownership-based deallocation frees every
// temporary once it is dead. Two matmuls need two buffers; the exp reuses the
// first matmul's buffer; the first buffer is freed, the second is returned.
// RUN: graph-opt %s --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg),graph-emit-c-interface,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},buffer-deallocation-pipeline,canonicalize)' | FileCheck %s

// CHECK-LABEL: func.func @main
// CHECK: %[[A:.+]] = memref.alloc()
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : {{.+}}) outs(%[[A]] :
// CHECK: linalg.generic {{.+}} ins(%[[A]] : {{.+}}) outs(%[[A]] :
// CHECK: math.exp
// CHECK: %[[C:.+]] = memref.alloc()
// CHECK-NOT: memref.alloc
// CHECK: linalg.matmul ins(%[[A]], %{{.+}} : {{.+}}) outs(%[[C]] :
// CHECK: memref.dealloc %[[A]]
// CHECK-NOT: memref.dealloc
// CHECK: return %[[C]]
func.func @main(%x: tensor<8x8xf32>, %y: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %a = graph.matmul %x, %y : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %b = graph.exp %a : tensor<8x8xf32> -> tensor<8x8xf32>
  %c = graph.matmul %b, %y : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  return %c : tensor<8x8xf32>
}
