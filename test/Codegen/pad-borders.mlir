// A padding that stays materialized (here the padded image the direct
// convolution kernel reads: one extra row below for its flat reads) is
// the source inserted into an empty tensor and only the border filled,
// one fill per padded side, rather than a fill of the whole padded tensor
// followed by the copy of the source over its interior. The leading dims
// are not padded here (batch, channels): one loop over their positions
// fills the border of each [1, 1, 23, 22] image, the row above, the two
// rows below, then the left and right columns in a loop over its 20
// interior rows. The loop is marked parallel (one kernel, on the threads):
// one loop per side, each a row's memset per channel, stayed in the
// caller below the outlining's size, where LLVM unrolled them into blocks
// of thousands of stores (ResNet-50: 0.6 s of the entry's machine
// scheduling; docs/Performance.md, twenty-third session). (Empty tensors
// leave the pass as bufferization.alloc_tensor, which CSE does not merge:
// see matmul-epilogue.mlir.) Numerics: test/Integration/conv-strategies.mlir
// and nn.mlir.
// RUN: graph-opt %s --graph-cpu-pipeline="vector-width=16" --mlir-print-ir-after=graph-cpu-tile-and-vectorize -o /dev/null 2>&1 | FileCheck %s

// CHECK-LABEL: func.func @conv_pad
// CHECK-NOT: tensor.pad
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG: %[[C20:.+]] = arith.constant 20 : index
// CHECK: %[[E:.+]] = bufferization.alloc_tensor() : tensor<1x8x23x22xf32>
// CHECK: %[[S:.+]] = tensor.insert_slice %arg0 into %[[E]][0, 0, 1, 1] [1, 8, 20, 20] [1, 1, 1, 1]
// CHECK: %[[T:.+]] = scf.for %[[C:.+]] = %{{.+}} to %[[C8]] step %{{.+}} iter_args(%[[A:.+]] = %[[S]])
// CHECK: %[[I:.+]] = tensor.extract_slice %[[A]][0, %[[C]], 0, 0] [1, 1, 23, 22] [1, 1, 1, 1]
// The row above, the two rows below.
// CHECK: tensor.extract_slice %[[I]][0, 0, 0, 0] [1, 1, 1, 22] [1, 1, 1, 1]
// CHECK: linalg.fill {{.+}} -> tensor<1x1x1x22xf32>
// CHECK: linalg.fill {{.+}} -> tensor<1x1x2x22xf32>
// CHECK: tensor.insert_slice {{.+}}[0, 0, 21, 0] [1, 1, 2, 22] [1, 1, 1, 1]
// The left and the right column, row by row.
// CHECK: scf.for %{{.+}} = %{{.+}} to %[[C20]] step
// CHECK: linalg.fill {{.+}} -> tensor<1x1x1x1xf32>
// CHECK: tensor.insert_slice {{.+}}[0, 0, %{{.+}}, 0] [1, 1, 1, 1] [1, 1, 1, 1]
// CHECK: scf.for %{{.+}} = %{{.+}} to %[[C20]] step
// CHECK: linalg.fill {{.+}} -> tensor<1x1x1x1xf32>
// CHECK: tensor.insert_slice {{.+}}[0, 0, %{{.+}}, 21] [1, 1, 1, 1] [1, 1, 1, 1]
// CHECK: tensor.insert_slice {{.+}} into %[[A]][0, %[[C]], 0, 0] [1, 1, 23, 22] [1, 1, 1, 1]
// CHECK: } {graphopt.parallel}
func.func @conv_pad(%x: tensor<1x8x20x20xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16x20x20xf32> {
  %r = graph.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x20x20xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x20x20xf32>
  return %r : tensor<1x16x20x20xf32>
}
