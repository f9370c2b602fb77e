// graph-cpu-prefetch: the k loop of a register block that reads a packed B
// panel prefetches the same row of the next panel (K rows further on in
// the [N/nr][K][nr] buffer) into L2, one prefetch per 64-byte line. B here
// is packed at run time (4096 rows of A: 512 micro-panels reuse each panel;
// the operands, 1.1 MiB together, are over a quarter of L2, below which
// run-time operands are read in place, not packed).
// (outline-kernels=0: the loop nests stay in the function checked.)
// RUN: graph-opt %s --graph-cpu-pipeline="vector-width=16 outline-kernels=0" --mlir-disable-threading --mlir-print-ir-after=graph-cpu-prefetch -o /dev/null 2>&1 | FileCheck %s

// CHECK-LABEL: func.func @runtime_b
// CHECK: %[[PACKED:.+]] = memref.alloc() {alignment = 64 : i64} : memref<16x64x32xf32>
// CHECK: %[[PANEL:.+]] = memref.subview %[[PACKED]][%{{.+}}, 0, 0] [1, 64, 32] [1, 1, 1]
// CHECK: scf.for
// CHECK: %[[ROW:.+]] = memref.subview %[[PANEL]][%{{.+}}, 0] [1, 32] [1, 1]
// CHECK: %[[K:.+]] = arith.constant 64 : index
// CHECK-NEXT: %[[NEXT:.+]] = arith.addi %c0, %[[K]] : index
// CHECK-NEXT: memref.prefetch %[[ROW]][%[[NEXT]], %c0], read, locality<2>, data
// CHECK: memref.prefetch %[[ROW]][%[[NEXT]], %{{.+}}], read, locality<2>, data
// CHECK-NEXT: vector.transfer_read %[[ROW]][%c0, %c0]
func.func @runtime_b(%x: tensor<4096x64xf32>, %y: tensor<64x512xf32>) -> tensor<4096x512xf32> {
  %r = graph.matmul %x, %y : tensor<4096x64xf32>, tensor<64x512xf32> -> tensor<4096x512xf32>
  return %r : tensor<4096x512xf32>
}

// A splat weight folds to one constant row: no panel, no prefetch.
// CHECK-LABEL: func.func @splat_weights
// CHECK-NOT: memref.prefetch
// CHECK: return
func.func @splat_weights(%x: tensor<64x256xf32>) -> tensor<64x512xf32> {
  %w = graph.constant dense<0.5> : tensor<256x512xf32>
  %r = graph.matmul %x, %w : tensor<64x256xf32>, tensor<256x512xf32> -> tensor<64x512xf32>
  return %r : tensor<64x512xf32>
}
