// graph-cpu-tile-and-vectorize applies a matmul's lane-wise consumer (what
// fusion left after it in the same tile: bias, activation, residual add) to
// each register block in the last reduction block, before the block's one
// store into the consumer's output; the consumer is gone. With
// fuse-matmul-epilogues=false the consumer stays a separate loop nest (of
// 16-lane vectors) that reads the stored blocks back.
// RUN: graph-opt %s --graph-cpu-pipeline="vector-width=16" --mlir-disable-threading --mlir-print-ir-after=graph-cpu-tile-and-vectorize -o /dev/null 2>&1 | FileCheck %s
// RUN: graph-opt %s --graph-cpu-pipeline="vector-width=16" --mlir-disable-threading --mlir-print-ir-before=graph-cpu-tile-and-vectorize -o /dev/null 2>&1 \
// RUN:   | graph-opt --pass-pipeline="builtin.module(func.func(graph-cpu-tile-and-vectorize{vector-width=16 fuse-matmul-epilogues=false}))" | FileCheck %s --check-prefix=OFF

// K = 512 in two reduction blocks of 256 (1024 rows: the run-time operands,
// 2.5 MB, are packed on any host with up to 10 MiB of L2): the bias and
// ReLU apply where the block loop is in its last block.
// CHECK-LABEL: func.func @two_k_blocks
// CHECK-NOT: linalg.generic
// CHECK: scf.for %[[KB:.+]] = %c0 to %c512 step %c256
// CHECK: %[[NEXT:.+]] = arith.addi %[[KB]], %c256 : index
// CHECK: %[[LAST:.+]] = arith.cmpi sge, %[[NEXT]], %c512 : index
// CHECK: %[[ACC:.+]]:3 = scf.for {{.+}} -> (tensor<8x32xf32>, tensor<8x32xf32>, vector<8x32xf32>)
// CHECK: %[[DONE:.+]] = scf.if %[[LAST]] -> (vector<8x32xf32>) {
// CHECK: %[[BIAS:.+]] = vector.transfer_read %arg2[%{{.+}}], %{{.+}} {in_bounds = [true]} : tensor<256xf32>, vector<32xf32>
// CHECK: %[[SUM:.+]] = arith.addf %{{.+}}, %[[BIAS]] : vector<32xf32>
// CHECK: arith.maximumf %[[SUM]], %{{.+}} : vector<32xf32>
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[ACC]]#2 : vector<8x32xf32>
// CHECK: vector.transfer_write %[[DONE]], %[[ACC]]#1[%c0, %c0] {in_bounds = [true, true]} : vector<8x32xf32>, tensor<8x32xf32>
// CHECK-NOT: linalg.generic
// CHECK: return
// OFF-LABEL: func.func @two_k_blocks
// OFF-NOT: scf.if %{{.+}} -> (vector<8x32xf32>)
// OFF: arith.maximumf %{{.+}} : vector<1x16xf32>
func.func @two_k_blocks(%x: tensor<1024x512xf32>, %w: tensor<512x256xf32>, %b: tensor<256xf32>) -> tensor<1024x256xf32> {
  %m = graph.matmul %x, %w : tensor<1024x512xf32>, tensor<512x256xf32> -> tensor<1024x256xf32>
  %a = graph.add %m, %b : tensor<1024x256xf32>, tensor<256xf32> -> tensor<1024x256xf32>
  %r = graph.relu %a : tensor<1024x256xf32> -> tensor<1024x256xf32>
  return %r : tensor<1024x256xf32>
}

// (K = 1024 in the functions below: two run-time operands that together
// fit in a quarter of L2 are read in place, not packed.)
// 196 columns: the matmul and its residual add split at column 192, the
// packed 8 x 32 blocks and the 8 x 4 remainder each add the residual's row
// segment in registers; no zero fill is left.
// CHECK-LABEL: func.func @split_columns
// CHECK-NOT: linalg
// CHECK: scf.if %{{.+}} -> (vector<8x32xf32>) {
// CHECK: vector.transfer_read %{{.+}}[%{{.+}}, %{{.+}}], %{{.+}} {in_bounds = [true]} : tensor<64x192xf32>, vector<32xf32>
// CHECK: arith.addf %{{.+}} : vector<32xf32>
// CHECK-NOT: linalg
// CHECK: vector.transfer_read %{{.+}}[%{{.+}}, %{{.+}}], %{{.+}} {in_bounds = [true]} : tensor<64x4xf32>, vector<4xf32>
// CHECK: arith.addf %{{.+}} : vector<4xf32>
// CHECK-NOT: linalg
// CHECK: return
func.func @split_columns(%x: tensor<64x1024xf32>, %w: tensor<1024x196xf32>, %res: tensor<64x196xf32>) -> tensor<64x196xf32> {
  %m = graph.matmul %x, %w : tensor<64x1024xf32>, tensor<1024x196xf32> -> tensor<64x196xf32>
  %a = graph.add %m, %res : tensor<64x196xf32>, tensor<64x196xf32> -> tensor<64x196xf32>
  return %a : tensor<64x196xf32>
}

// Split without a consumer: the 4 columns after the whole blocks are one
// 16-column vector block ending at the last column, [180, 196), which
// overlaps the 192-column part and computes columns 180-191 again (to the
// same values: the output starts as a zero fill); both parts write into the
// unfilled output, the tail into the tensor the head is inserted into, and
// no loop zero-fills the whole 64 x 196 tensor (each part zeroes its own
// blocks in registers).
// CHECK-LABEL: func.func @split_plain
// CHECK-NOT: -> (tensor<64x196xf32>)
// CHECK: -> (tensor<64x192xf32>)
// CHECK-NOT: -> (tensor<64x196xf32>)
// CHECK: %[[HEAD:.+]] = tensor.insert_slice %{{.+}} into %{{.+}}[0, 0] [64, 192] [1, 1] : tensor<64x192xf32> into tensor<64x196xf32>
// CHECK: tensor.extract_slice %arg1[0, 180] [1024, 16] [1, 1] : tensor<1024x196xf32> to tensor<1024x16xf32>
// CHECK: -> (tensor<64x16xf32>)
// CHECK-NOT: -> (tensor<64x196xf32>)
// CHECK: tensor.insert_slice %{{.+}} into %[[HEAD]][0, 180] [64, 16] [1, 1] : tensor<64x16xf32> into tensor<64x196xf32>
// CHECK: return
func.func @split_plain(%x: tensor<64x1024xf32>, %w: tensor<1024x196xf32>) -> tensor<64x196xf32> {
  %m = graph.matmul %x, %w : tensor<64x1024xf32>, tensor<1024x196xf32> -> tensor<64x196xf32>
  return %m : tensor<64x196xf32>
}

// Two same-shaped matmuls: CSE merged their zero fills (and the empty
// tensors under them) before this pass. Each gets a fill of its own, and
// empty tensors leave the pass as bufferization.alloc_tensor (which CSE
// does not merge), so that each result has a buffer of its own, written in
// place: merged, one-shot bufferization wrote the second into a new buffer
// and copied it over element by element.
// (Checked once copies are expanded into loops: copies between a buffer
// and itself that bufferization leaves are folded by then.)
// RUN: graph-opt %s --graph-cpu-pipeline="vector-width=16" --mlir-disable-threading --mlir-print-ir-after=graph-cpu-expand-copies -o /dev/null 2>&1 | FileCheck %s --check-prefix=BUF
// BUF-LABEL: func.func @same_shapes
// BUF-COUNT-2: memref.alloc() {alignment = 64 : i64} : memref<64x196xf32>
// BUF-NOT: memref.alloc() {{.*}} : memref<64x196xf32>
// BUF-NOT: memref.load
// BUF: return
func.func @same_shapes(%x: tensor<64x1024xf32>, %w1: tensor<1024x196xf32>, %w2: tensor<1024x196xf32>) -> (tensor<64x196xf32>, tensor<64x196xf32>) {
  %a = graph.matmul %x, %w1 : tensor<64x1024xf32>, tensor<1024x196xf32> -> tensor<64x196xf32>
  %b = graph.matmul %x, %w2 : tensor<64x1024xf32>, tensor<1024x196xf32> -> tensor<64x196xf32>
  return %a, %b : tensor<64x196xf32>, tensor<64x196xf32>
}
