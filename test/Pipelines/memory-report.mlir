// RUN: graph-opt %s --graph-cpu-pipeline=memory-report=- \
// RUN:   --mlir-print-ir-after=graph-cpu-early-dealloc --mlir-disable-threading \
// RUN:   -o /dev/null 2>&1 | FileCheck %s

// Four chained 64 x 64 f32 matmuls: each result 64 * 64 * 4 = 16384 bytes.
// After bufferization the host function allocates the returned buffer
// first and one buffer for each of m1, m2, m3 (m4 is written into the
// returned one); graph-cpu-early-dealloc frees m1 after m2 is computed and
// m2 after m3, not all at the end. Live bytes, in order: result + m1 =
// 32768, + m2 = 49152 (the peak: three buffers), - m1, + m3 = 49152,
// - m2, - m3 after m4. In all 4 x 16384 = 65536; the peak is 75.0% of it.
// (The four matmuls are one kernel function, called four times.)
// CHECK-LABEL: func.func @main
// CHECK: %[[R:.+]] = memref.alloc() {{.*}} : memref<64x64xf32>
// CHECK: %[[M1:.+]] = memref.alloc() {{.*}} : memref<64x64xf32>
// CHECK: call @[[K:main_kernel0]](%[[M1]],
// CHECK: %[[M2:.+]] = memref.alloc() {{.*}} : memref<64x64xf32>
// CHECK: call @[[K]](%[[M2]], %[[M1]])
// CHECK: memref.dealloc %[[M1]]
// CHECK-NEXT: %[[M3:.+]] = memref.alloc() {{.*}} : memref<64x64xf32>
// CHECK: call @[[K]](%[[M3]], %[[M2]])
// CHECK: memref.dealloc %[[M2]]
// CHECK-NEXT: call @[[K]](%[[R]], %[[M3]])
// CHECK: memref.dealloc %[[M3]]
// CHECK-NEXT: return %[[R]]
// CHECK: graph-cpu-memory-report: @main: 4 heap buffers, 65536 bytes in all; peak 49152 bytes live at once (75.0% of one buffer per tensor: 16384 bytes saved by freeing dead buffers); 0 stack buffers (0 bytes)
// CHECK-NEXT: peak reached at the allocation at loc(
// CHECK-COUNT-3: 16384 bytes allocated at loc(
func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %w = graph.constant dense<0.015625> : tensor<64x64xf32>
  %m1 = graph.matmul %x, %w : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  %m2 = graph.matmul %m1, %w : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  %m3 = graph.matmul %m2, %w : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  %m4 = graph.matmul %m3, %w : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  return %m4 : tensor<64x64xf32>
}
