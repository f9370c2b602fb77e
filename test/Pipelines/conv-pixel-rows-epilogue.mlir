// A 1x1 convolution with few output pixels (14 x 14) and many channels is
// computed with the pixels as the matmul's rows, [196, 256] x [256, 1024],
// and its [196, 1024] result is transposed to NCHW. fusion-tile-and-fuse
// folds that transpose into the epilogue (bias, residual add, ReLU: one
// generic reading the matmul's result through a transposed map), so the
// group is one loop over blocks of 256 channels with the matmul fused in:
// no full-size [196, 1024] result, transposed copy or bias pass.
// graph-cpu-tile-and-vectorize then reads each 14 x 16 block of the result
// and transposes it in registers; the bias is a per-channel broadcast along
// the pixels (16 x 1 -> 16 x 14), not a transposed broadcast (a shuffle of
// the whole tile, which made MobileNetV3's 7 x 7 convolutions 6x slower).
// RUN: graph-opt %s --graph-cpu-pipeline="vector-width=16" --mlir-print-ir-before=graph-cpu-tile-and-vectorize -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSED
// RUN: graph-opt %s --graph-cpu-pipeline="vector-width=16" --mlir-print-ir-after=graph-cpu-tile-and-vectorize -o /dev/null 2>&1 | FileCheck %s --check-prefix=VEC

// FUSED-LABEL: func.func @pixel_rows
// FUSED: scf.for %[[C:.+]] = %c0 to %c1024 step %c256 iter_args(%{{.+}}) -> (tensor<1024x196xf32>)
// FUSED: %[[MM:.+]] = linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<196x256xf32>, tensor<256x256xf32>) outs(%{{.+}} : tensor<196x256xf32>)
// FUSED-NOT: linalg.transpose
// FUSED: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]{{.*}} ins(%[[MM]], %{{.+}}, %{{.+}} : tensor<196x256xf32>, tensor<256xf32>, tensor<256x196xf32>)
// FUSED: arith.maximumf
// FUSED: } {graphopt.parallel}
// FUSED-NOT: linalg.transpose
// FUSED: return

// VEC-LABEL: func.func @pixel_rows
// VEC: vector.transfer_read %{{.+}} : tensor<14x16xf32>, vector<14x16xf32>
// VEC: vector.shuffle
// VEC: %[[BIAS:.+]] = vector.transfer_read %{{.+}} : tensor<16xf32>, vector<16xf32>
// VEC: %[[COL:.+]] = vector.shape_cast %[[BIAS]] : vector<16xf32> to vector<16x1xf32>
// VEC: vector.broadcast %[[COL]] : vector<16x1xf32> to vector<16x14xf32>
// VEC: arith.maximumf %{{.+}} : vector<16x14xf32>
func.func @pixel_rows(%x: tensor<1x256x14x14xf32>, %w: tensor<1024x256x1x1xf32>, %b: tensor<1024xf32>, %r: tensor<1x1024x14x14xf32>) -> tensor<1x1024x14x14xf32> {
  %c = graph.conv2d %x, %w, %b : (tensor<1x256x14x14xf32>, tensor<1024x256x1x1xf32>, tensor<1024xf32>) -> tensor<1x1024x14x14xf32>
  %a = graph.add %c, %r : tensor<1x1024x14x14xf32>, tensor<1x1024x14x14xf32> -> tensor<1x1024x14x14xf32>
  %y = graph.relu %a : tensor<1x1024x14x14xf32> -> tensor<1x1024x14x14xf32>
  return %y : tensor<1x1024x14x14xf32>
}
