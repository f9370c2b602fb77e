// graph.resize compiled and run on the CPU against values worked out by
// hand (ONNX Resize's formulas; the ONNX node suite checks the other modes
// against onnx.reference, test/e2e against PyTorch's F.interpolate).
// Input [[1, 2], [3, 4]]:
// - nearest, half_pixel, x2: output index o reads floor((o + 0.5) / 2).
// - linear, half_pixel, x2: coordinates -0.25, 0.25, 0.75, 1.25 per dim,
//   clamped at the edges: a row [a, b] becomes [a, .75a + .25b, .25a + .75b, b].
// - linear, align_corners, 2 -> 3: coordinates 0, 0.5, 1.
// - nearest, asymmetric + floor, 2 -> 3 along the last dim only
//   (PyTorch's "nearest"): index floor(o * 2 / 3) = 0, 0, 1.
// RUN: graph-run %s --quiet --input=1x1x2x2xf32=1,2,3,4 \
// RUN:   --expected-output=1x1x4x4xf32=1,1,2,2,1,1,2,2,3,3,4,4,3,3,4,4 \
// RUN:   --expected-output=1x1x4x4xf32=1,1.25,1.75,2,1.5,1.75,2.25,2.5,2.5,2.75,3.25,3.5,3,3.25,3.75,4 \
// RUN:   --expected-output=1x1x3x3xf32=1,1.5,2,2,2.5,3,3,3.5,4 \
// RUN:   --expected-output=1x1x2x3xf32=1,1,2,3,3,4 \
// RUN:   --rtol=1e-6 --atol=1e-6 | FileCheck %s
// CHECK-COUNT-4: matches expected

func.func @main(%x: tensor<1x1x2x2xf32>) -> (tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>, tensor<1x1x2x3xf32>) {
  %a = graph.resize %x {mode = "nearest", sizes = array<i64: -1, -1, 4, 4>, scales = array<f64: 1.0, 1.0, 2.0, 2.0>} : tensor<1x1x2x2xf32> -> tensor<1x1x4x4xf32>
  %b = graph.resize %x {mode = "linear", sizes = array<i64: -1, -1, 4, 4>, scales = array<f64: 1.0, 1.0, 2.0, 2.0>} : tensor<1x1x2x2xf32> -> tensor<1x1x4x4xf32>
  %c = graph.resize %x {mode = "linear", coordinate_transformation_mode = "align_corners", sizes = array<i64: -1, -1, 3, 3>, scales = array<f64: 1.0, 1.0, 1.5, 1.5>} : tensor<1x1x2x2xf32> -> tensor<1x1x3x3xf32>
  %d = graph.resize %x {mode = "nearest", coordinate_transformation_mode = "asymmetric", nearest_mode = "floor", sizes = array<i64: -1, -1, -1, 3>, scales = array<f64: 1.0, 1.0, 1.0, 1.5>} : tensor<1x1x2x2xf32> -> tensor<1x1x2x3xf32>
  return %a, %b, %c, %d : tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>, tensor<1x1x2x3xf32>
}
