// A padding that stays materialized (here the padded image the direct
// convolution kernel reads: one extra row below for its flat reads) is
// the source inserted into an empty tensor and only the border filled,
// one fill per padded side, rather than a fill of the whole padded tensor
// followed by the copy of the source over its interior. Each side's slab
// is filled in a loop over the positions of the dims before the padded one
// (the 8 channels here; images and channels at batch > 1), one
// [1, 1, rows, columns] fill each: filled in one piece, the slab became
// loops that LLVM unrolled over the images and channels (docs/
// Performance.md, thirteenth session). (Empty tensors leave the pass as
// bufferization.alloc_tensor, which CSE does not merge: see
// matmul-epilogue.mlir.) Numerics: test/Integration/conv-strategies.mlir
// and nn.mlir.
// RUN: graph-opt %s --graph-cpu-pipeline="vector-width=16" --mlir-print-ir-after=graph-cpu-tile-and-vectorize -o /dev/null 2>&1 | FileCheck %s

// CHECK-LABEL: func.func @conv_pad
// CHECK-NOT: tensor.pad
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG: %[[C160:.+]] = arith.constant 160 : index
// CHECK: %[[E:.+]] = bufferization.alloc_tensor() : tensor<1x8x23x22xf32>
// CHECK: %[[S:.+]] = tensor.insert_slice %arg0 into %[[E]][0, 0, 1, 1] [1, 8, 20, 20] [1, 1, 1, 1]
// The row above, the two rows below, the left and the right column.
// CHECK: %[[T:.+]] = scf.for %[[C:.+]] = %{{.+}} to %[[C8]] step %{{.+}} iter_args(%[[A:.+]] = %[[S]])
// CHECK: tensor.extract_slice %[[A]][0, %[[C]], 0, 0] [1, 1, 1, 22] [1, 1, 1, 1]
// CHECK: linalg.fill {{.+}} -> tensor<1x1x1x22xf32>
// CHECK: tensor.insert_slice {{.+}} into %[[A]][0, %[[C]], 0, 0] [1, 1, 1, 22] [1, 1, 1, 1]
// CHECK: scf.for {{.+}} iter_args(%{{.+}} = %[[T]])
// CHECK: linalg.fill {{.+}} -> tensor<1x1x2x22xf32>
// CHECK: tensor.insert_slice {{.+}}[0, %{{.+}}, 21, 0] [1, 1, 2, 22] [1, 1, 1, 1]
// The columns: a loop over the 8 x 20 (channel, row) positions.
// CHECK: scf.for %{{.+}} = %{{.+}} to %[[C160]] step
// CHECK: linalg.fill {{.+}} -> tensor<1x1x1x1xf32>
// CHECK: tensor.insert_slice {{.+}}[0, %{{.+}}, %{{.+}}, 0] [1, 1, 1, 1] [1, 1, 1, 1]
// CHECK: scf.for %{{.+}} = %{{.+}} to %[[C160]] step
// CHECK: linalg.fill {{.+}} -> tensor<1x1x1x1xf32>
// CHECK: tensor.insert_slice {{.+}}[0, %{{.+}}, %{{.+}}, 21] [1, 1, 1, 1] [1, 1, 1, 1]
func.func @conv_pad(%x: tensor<1x8x20x20xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16x20x20xf32> {
  %r = graph.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x20x20xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x20x20xf32>
  return %r : tensor<1x16x20x20xf32>
}
