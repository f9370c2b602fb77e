// A padding that stays materialized (here the padded image the direct
// convolution kernel reads: one extra row below for its flat reads) is
// the source inserted into an empty tensor and only the border filled,
// one linalg.fill per padded side, rather than a fill of the whole padded
// tensor followed by the copy of the source over its interior. (Empty
// tensors leave the pass as bufferization.alloc_tensor, which CSE does not
// merge: see matmul-epilogue.mlir.) Numerics:
// test/Integration/conv-strategies.mlir and nn.mlir.
// RUN: graph-opt %s --graph-cpu-pipeline="vector-width=16" --mlir-print-ir-after=graph-cpu-tile-and-vectorize -o /dev/null 2>&1 | FileCheck %s

// CHECK-LABEL: func.func @conv_pad
// CHECK-NOT: tensor.pad
// CHECK: %[[E:.+]] = bufferization.alloc_tensor() : tensor<1x8x23x22xf32>
// CHECK: tensor.insert_slice %arg0 into %[[E]][0, 0, 1, 1] [1, 8, 20, 20] [1, 1, 1, 1]
// CHECK: linalg.fill {{.+}} -> tensor<1x8x1x22xf32>
// CHECK: tensor.insert_slice {{.+}}[0, 0, 0, 0] [1, 8, 1, 22] [1, 1, 1, 1]
// CHECK: linalg.fill {{.+}} -> tensor<1x8x2x22xf32>
// CHECK: tensor.insert_slice {{.+}}[0, 0, 21, 0] [1, 8, 2, 22] [1, 1, 1, 1]
// CHECK: linalg.fill {{.+}} -> tensor<1x8x20x1xf32>
// CHECK: tensor.insert_slice {{.+}}[0, 0, 1, 0] [1, 8, 20, 1] [1, 1, 1, 1]
// CHECK: linalg.fill {{.+}} -> tensor<1x8x20x1xf32>
// CHECK: tensor.insert_slice {{.+}}[0, 0, 1, 21] [1, 8, 20, 1] [1, 1, 1, 1]
func.func @conv_pad(%x: tensor<1x8x20x20xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16x20x20xf32> {
  %r = graph.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x20x20xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x20x20xf32>
  return %r : tensor<1x16x20x20xf32>
}
