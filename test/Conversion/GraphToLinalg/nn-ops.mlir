// RUN: graph-opt %s -convert-graph-to-linalg -split-input-file | FileCheck %s
// RUN: graph-opt %s --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg))' -split-input-file | FileCheck %s

// Lowering of the second op set's neural-network and indexing ops
// (lib/Conversion/GraphToLinalg/NNOps.cpp) and of its elementwise ops.

// conv2d with groups = 1 and a dynamic batch: im2col (a copying
// linalg.generic gathering cols[n, c, i, j, p, q] = x[n, c, p*sh + i*dh,
// q*sw + j*dw] from the padded input), then the [F, C*KH*KW] weight times the
// [N, C*KH*KW, OH*OW] columns with the matmul lowering
// (linalg.batch_matmul), the bias added per channel, and a reshape to NCHW.
// The batch stays dynamic.
// CHECK-DAG: #[[$IM2COL:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4 * 2 + d2, d5 * 2 + d3)>
// CHECK-DAG: #[[$ID6:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>
// CHECK-LABEL: func.func @conv2d_im2col
// CHECK-SAME: (%[[X:.+]]: tensor<?x3x8x8xf32>, %[[W:.+]]: tensor<4x3x3x3xf32>, %[[B:.+]]: tensor<4xf32>)
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[XP:.+]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: tensor.yield %[[ZERO]] : f32
// CHECK: } : tensor<?x3x8x8xf32> to tensor<?x3x10x10xf32>
// CHECK: %[[N:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x3x8x8xf32>
// The windows reach 9 of the 10 padded rows and columns: the copy reads
// that extent.
// CHECK: %[[XR:.+]] = tensor.extract_slice %[[XP]][0, 0, 0, 0] [%{{.+}}, 3, 9, 9] [1, 1, 1, 1] : tensor<?x3x10x10xf32> to tensor<?x3x9x9xf32>
// CHECK: %[[COLS0:.+]] = tensor.empty(%[[N]]) : tensor<?x3x3x3x4x4xf32>
// CHECK: %[[COLS:.+]] = linalg.generic {indexing_maps = [#[[$IM2COL]], #[[$ID6]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
// CHECK-SAME: ins(%[[XR]] : tensor<?x3x9x9xf32>) outs(%[[COLS0]] : tensor<?x3x3x3x4x4xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]] : f32
// CHECK: tensor.expand_shape %{{.+}} output_shape [%{{.+}}, 27, 16] : tensor<?xf32> into tensor<?x27x16xf32>
// CHECK: tensor.expand_shape %{{.+}} output_shape [4, 27] : tensor<108xf32> into tensor<4x27xf32>
// CHECK: %[[MM:.+]] = linalg.batch_matmul ins(%{{.+}}, %{{.+}} : tensor<?x4x27xf32>, tensor<?x27x16xf32>) outs(%{{.+}} : tensor<?x4x16xf32>) -> tensor<?x4x16xf32>
// CHECK: %[[B2:.+]] = tensor.expand_shape %[[B]] {{\[}}[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[MM]], %[[B2]] : tensor<?x4x16xf32>, tensor<4x1xf32>)
// CHECK: arith.addf
// CHECK: %[[R:.+]] = tensor.expand_shape %{{.+}} output_shape [%{{.+}}, 4, 4, 4] : tensor<?xf32> into tensor<?x4x4x4xf32>
// CHECK-NOT: linalg.conv
// CHECK: return %[[R]]
func.func @conv2d_im2col(%x: tensor<?x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<?x4x4x4xf32> {
  %0 = graph.conv2d %x, %w, %b {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<?x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<?x4x4x4xf32>
  return %0 : tensor<?x4x4x4xf32>
}

// -----

// A static batch: per image, im2col (without the batch dim) and a plain
// [F, C*KH*KW] x [C*KH*KW, OH*OW] linalg.matmul whose left operand is the
// collapsed weight itself. Dilation enters the im2col map; asymmetric
// padding [top, left, bottom, right] pads each side as given.
// CHECK-DAG: #[[$MAP:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d3 + d1 * 2, d4 + d2 * 3)>
// CHECK-LABEL: func.func @conv2d_dilated_asymmetric
// CHECK-SAME: (%[[X:.+]]: tensor<1x2x7x7xf32>, %[[W:.+]]: tensor<5x2x2x2xf32>)
// CHECK: %[[XP:.+]] = tensor.pad %[[X]] low[0, 0, 0, 2] high[0, 0, 1, 3]
// CHECK: } : tensor<1x2x7x7xf32> to tensor<1x2x8x12xf32>
// CHECK: %[[W2:.+]] = tensor.collapse_shape %[[W]] {{\[}}[0], [1, 2, 3]] : tensor<5x2x2x2xf32> into tensor<5x8xf32>
// CHECK: %[[IMG:.+]] = tensor.extract_slice %[[XP]][%{{.+}}, 0, 0, 0] [1, 2, 8, 12] [1, 1, 1, 1] : tensor<1x2x8x12xf32> to tensor<2x8x12xf32>
// CHECK: linalg.generic {indexing_maps = [#[[$MAP]], #{{.+}}]
// CHECK-SAME: ins(%[[IMG]] : tensor<2x8x12xf32>) outs(%{{.+}} : tensor<2x2x2x6x9xf32>)
// CHECK: %[[COLS:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0, 1, 2], [3, 4]] : tensor<2x2x2x6x9xf32> into tensor<8x54xf32>
// CHECK: linalg.matmul ins(%[[W2]], %[[COLS]] : tensor<5x8xf32>, tensor<8x54xf32>)
// CHECK: into tensor<1x5x6x9xf32>
func.func @conv2d_dilated_asymmetric(%x: tensor<1x2x7x7xf32>, %w: tensor<5x2x2x2xf32>) -> tensor<1x5x6x9xf32> {
  %0 = graph.conv2d %x, %w {padding = array<i64: 0, 2, 1, 3>, dilations = array<i64: 2, 3>} : (tensor<1x2x7x7xf32>, tensor<5x2x2x2xf32>) -> tensor<1x5x6x9xf32>
  return %0 : tensor<1x5x6x9xf32>
}

// -----

// A 1x1, stride-1 convolution skips the im2col copy: each image reshaped to
// [C, H*W] is the matmul operand. A batch of 2 is an scf.for over the
// images, each a [F, C] x [C, H*W] matmul expanded to [F, H, W] and
// inserted into the NCHW result (so that an epilogue can be fused into the
// loop).
// CHECK-LABEL: func.func @conv2d_pointwise
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x8x8xf32>, %[[W:.+]]: tensor<4x3x1x1xf32>)
// CHECK: %[[W2:.+]] = tensor.collapse_shape %[[W]] {{\[}}[0], [1, 2, 3]] : tensor<4x3x1x1xf32> into tensor<4x3xf32>
// CHECK: %[[LOOP:.+]] = scf.for %[[N:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %{{.+}}) -> (tensor<2x4x8x8xf32>)
// CHECK: %[[IMG:.+]] = tensor.extract_slice %[[X]][%[[N]], 0, 0, 0] [1, 3, 8, 8] [1, 1, 1, 1] : tensor<2x3x8x8xf32> to tensor<3x8x8xf32>
// CHECK: %[[X2:.+]] = tensor.collapse_shape %[[IMG]] {{\[}}[0], [1, 2]] : tensor<3x8x8xf32> into tensor<3x64xf32>
// CHECK: %[[MM:.+]] = linalg.matmul ins(%[[W2]], %[[X2]] : tensor<4x3xf32>, tensor<3x64xf32>) outs(%{{.+}} : tensor<4x64xf32>)
// CHECK: %[[IMG4:.+]] = tensor.expand_shape %[[MM]] {{\[}}[0], [1, 2]] output_shape [4, 8, 8] : tensor<4x64xf32> into tensor<4x8x8xf32>
// CHECK: tensor.insert_slice %[[IMG4]] into %[[ACC]][%[[N]], 0, 0, 0] [1, 4, 8, 8] [1, 1, 1, 1] : tensor<4x8x8xf32> into tensor<2x4x8x8xf32>
// CHECK: return %[[LOOP]]
// CHECK-NOT: tensor.pad
func.func @conv2d_pointwise(%x: tensor<2x3x8x8xf32>, %w: tensor<4x3x1x1xf32>) -> tensor<2x4x8x8xf32> {
  %0 = graph.conv2d %x, %w : (tensor<2x3x8x8xf32>, tensor<4x3x1x1xf32>) -> tensor<2x4x8x8xf32>
  return %0 : tensor<2x4x8x8xf32>
}

// -----

// A stride-1 3x3 convolution of f32 with a static batch: no im2col. The
// input is padded with one extra zero row at the bottom and flattened per
// image to [C, Hp * Wp]; each tap (i, j) of the kernel is a [F, C] x
// [C, OH * Wp] matmul whose right operand is the flattened image sliced at
// i * Wp + j, all nine accumulating into one [F, OH * Wp] tensor, whose
// first OW of every Wp columns are the output.
// CHECK-LABEL: func.func @conv2d_implicit_gemm
// CHECK-SAME: (%[[X:.+]]: tensor<1x2x8x8xf32>, %[[W:.+]]: tensor<4x2x3x3xf32>)
// CHECK: %[[XP:.+]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 2, 1]
// CHECK: } : tensor<1x2x8x8xf32> to tensor<1x2x11x10xf32>
// CHECK: %[[IMG:.+]] = tensor.extract_slice %[[XP]][%{{.+}}, 0, 0, 0] [1, 2, 11, 10] [1, 1, 1, 1]
// CHECK: %[[XF:.+]] = tensor.collapse_shape %[[IMG]] {{\[}}[0], [1, 2]] : tensor<2x11x10xf32> into tensor<2x110xf32>
// CHECK: %[[ACC0:.+]] = linalg.fill
// CHECK: %[[T00:.+]] = tensor.extract_slice %[[W]][0, 0, 0, 0] [4, 2, 1, 1] [1, 1, 1, 1] : tensor<4x2x3x3xf32> to tensor<4x2xf32>
// CHECK: %[[S00:.+]] = tensor.extract_slice %[[XF]][0, 0] [2, 80] [1, 1] : tensor<2x110xf32> to tensor<2x80xf32>
// CHECK: %[[ACC1:.+]] = linalg.matmul ins(%[[T00]], %[[S00]] : tensor<4x2xf32>, tensor<2x80xf32>) outs(%[[ACC0]] : tensor<4x80xf32>)
// CHECK: %[[S01:.+]] = tensor.extract_slice %[[XF]][0, 1] [2, 80] [1, 1]
// CHECK: linalg.matmul ins(%{{.+}}, %[[S01]] : tensor<4x2xf32>, tensor<2x80xf32>) outs(%[[ACC1]] : tensor<4x80xf32>)
// CHECK: tensor.extract_slice %[[XF]][0, 22] [2, 80] [1, 1]
// CHECK: %[[ACC9:.+]] = linalg.matmul
// CHECK-NOT: linalg.matmul
// CHECK: %[[ROWS:.+]] = tensor.expand_shape %[[ACC9]] {{\[}}[0], [1, 2]] output_shape [4, 8, 10] : tensor<4x80xf32> into tensor<4x8x10xf32>
// CHECK: tensor.extract_slice %[[ROWS]][0, 0, 0] [4, 8, 8] [1, 1, 1] : tensor<4x8x10xf32> to tensor<4x8x8xf32>
// CHECK-NOT: linalg.generic
func.func @conv2d_implicit_gemm(%x: tensor<1x2x8x8xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x8x8xf32> {
  %0 = graph.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x2x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// -----

// Few output pixels (7x7 = 49, not a multiple of 32) and more channels:
// pixels are the matmul's rows. [OH*OW, C] (the image, transposed) times
// [C, F] (the weight, transposed), and the [OH*OW, F] result transposed
// back to [F, OH*OW].
// CHECK-LABEL: func.func @conv2d_pixel_rows
// CHECK-SAME: (%[[X:.+]]: tensor<1x32x7x7xf32>, %[[W:.+]]: tensor<64x32x1x1xf32>)
// CHECK: %[[W2:.+]] = tensor.collapse_shape %[[W]] {{\[}}[0], [1, 2, 3]] : tensor<64x32x1x1xf32> into tensor<64x32xf32>
// CHECK: %[[WT:.+]] = linalg.transpose ins(%[[W2]] : tensor<64x32xf32>) outs(%{{.+}} : tensor<32x64xf32>) permutation = [1, 0]
// CHECK: %[[XT:.+]] = linalg.transpose ins(%{{.+}} : tensor<32x49xf32>) outs(%{{.+}} : tensor<49x32xf32>) permutation = [1, 0]
// CHECK: %[[MM:.+]] = linalg.matmul ins(%[[XT]], %[[WT]] : tensor<49x32xf32>, tensor<32x64xf32>) outs(%{{.+}} : tensor<49x64xf32>)
// CHECK: linalg.transpose ins(%[[MM]] : tensor<49x64xf32>) outs(%{{.+}} : tensor<64x49xf32>) permutation = [1, 0]
func.func @conv2d_pixel_rows(%x: tensor<1x32x7x7xf32>, %w: tensor<64x32x1x1xf32>) -> tensor<1x64x7x7xf32> {
  %0 = graph.conv2d %x, %w : (tensor<1x32x7x7xf32>, tensor<64x32x1x1xf32>) -> tensor<1x64x7x7xf32>
  return %0 : tensor<1x64x7x7xf32>
}

// -----

// Depthwise (groups = C = F): linalg.depthwise_conv_2d_nchw_chw on the
// padded input with the weight collapsed to [C, KH, KW]; the bias,
// broadcast along the channels, is the accumulator's initial value.
// CHECK-DAG: #[[$CH:.+]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-DAG: #[[$ID4:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @conv2d_depthwise
// CHECK-SAME: (%[[X:.+]]: tensor<?x3x8x8xf32>, %[[W:.+]]: tensor<3x1x3x3xf32>, %[[B:.+]]: tensor<3xf32>)
// CHECK: %[[XP:.+]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: %[[N:.+]] = tensor.dim %[[X]], %{{.+}}
// CHECK: %[[E:.+]] = tensor.empty(%[[N]]) : tensor<?x3x8x8xf32>
// CHECK: %[[INIT:.+]] = linalg.generic {indexing_maps = [#[[$CH]], #[[$ID4]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[B]] : tensor<3xf32>) outs(%[[E]] : tensor<?x3x8x8xf32>)
// CHECK: %[[W3:.+]] = tensor.collapse_shape %[[W]] {{\[}}[0, 1], [2], [3]] : tensor<3x1x3x3xf32> into tensor<3x3x3xf32>
// CHECK: %[[R:.+]] = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%[[XP]], %[[W3]] : tensor<?x3x10x10xf32>, tensor<3x3x3xf32>) outs(%[[INIT]] : tensor<?x3x8x8xf32>) -> tensor<?x3x8x8xf32>
// CHECK-NOT: linalg.batch_matmul
// CHECK: return %[[R]]
func.func @conv2d_depthwise(%x: tensor<?x3x8x8xf32>, %w: tensor<3x1x3x3xf32>, %b: tensor<3xf32>) -> tensor<?x3x8x8xf32> {
  %0 = graph.conv2d %x, %w, %b {groups = 3 : i64, padding = array<i64: 1, 1, 1, 1>} : (tensor<?x3x8x8xf32>, tensor<3x1x3x3xf32>, tensor<3xf32>) -> tensor<?x3x8x8xf32>
  return %0 : tensor<?x3x8x8xf32>
}

// -----

// Grouped (1 < groups, not depthwise): input, weight and the zero-filled
// accumulator are expanded to [N, G, C/G, H, W], [G, F/G, C/G, KH, KW] and
// [N, G, F/G, OH, OW] for linalg.conv_2d_ngchw_gfchw, then collapsed back.
// CHECK-LABEL: func.func @conv2d_grouped
// CHECK-SAME: (%[[X:.+]]: tensor<1x4x8x8xf32>, %[[W:.+]]: tensor<6x2x3x3xf32>)
// CHECK: %[[FILL:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x6x3x3xf32>)
// CHECK: %[[X5:.+]] = tensor.expand_shape %[[X]] {{\[}}[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 8, 8] : tensor<1x4x8x8xf32> into tensor<1x2x2x8x8xf32>
// CHECK: %[[W5:.+]] = tensor.expand_shape %[[W]] {{\[}}[0, 1], [2], [3], [4]] output_shape [2, 3, 2, 3, 3] : tensor<6x2x3x3xf32> into tensor<2x3x2x3x3xf32>
// CHECK: %[[I5:.+]] = tensor.expand_shape %[[FILL]] {{\[}}[0], [1, 2], [3], [4]] output_shape [1, 2, 3, 3, 3] : tensor<1x6x3x3xf32> into tensor<1x2x3x3x3xf32>
// CHECK: %[[R5:.+]] = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%[[X5]], %[[W5]] : tensor<1x2x2x8x8xf32>, tensor<2x3x2x3x3xf32>) outs(%[[I5]] : tensor<1x2x3x3x3xf32>)
// CHECK: %[[R:.+]] = tensor.collapse_shape %[[R5]] {{\[}}[0], [1, 2], [3], [4]] : tensor<1x2x3x3x3xf32> into tensor<1x6x3x3xf32>
// CHECK: return %[[R]]
func.func @conv2d_grouped(%x: tensor<1x4x8x8xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<1x6x3x3xf32> {
  %0 = graph.conv2d %x, %w {groups = 2 : i64, strides = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x3x3xf32>
  return %0 : tensor<1x6x3x3xf32>
}

// -----

// A depthwise multiplier other than 1 (groups = C, F = 2C) is a grouped
// convolution.
// CHECK-LABEL: func.func @conv2d_channel_multiplier
// CHECK: linalg.conv_2d_ngchw_gfchw
// CHECK-SAME: ins(%{{.+}}, %{{.+}} : tensor<1x3x1x6x6xf32>, tensor<3x2x1x3x3xf32>) outs(%{{.+}} : tensor<1x3x2x4x4xf32>)
// CHECK-NOT: linalg.depthwise_conv_2d_nchw_chw
func.func @conv2d_channel_multiplier(%x: tensor<1x3x6x6xf32>, %w: tensor<6x1x3x3xf32>) -> tensor<1x6x4x4xf32> {
  %0 = graph.conv2d %x, %w {groups = 3 : i64} : (tensor<1x3x6x6xf32>, tensor<6x1x3x3xf32>) -> tensor<1x6x4x4xf32>
  return %0 : tensor<1x6x4x4xf32>
}

// -----

// max_pool2d: the input padded with -inf (plus the extra bottom/right rows
// that ceil_mode's last window needs: 1 + 1), a -inf filled accumulator and
// linalg.pooling_nchw_max with the kernel as a shape-only operand.
// CHECK-LABEL: func.func @max_pool2d
// CHECK-SAME: (%[[X:.+]]: tensor<?x3x8x8xf32>)
// CHECK: %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK: %[[XP:.+]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 2, 2]
// CHECK: tensor.yield %[[NEGINF]] : f32
// CHECK: } : tensor<?x3x8x8xf32> to tensor<?x3x11x11xf32>
// CHECK: %[[FILL:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<?x3x5x5xf32>)
// CHECK: %[[K:.+]] = tensor.empty() : tensor<3x3xf32>
// CHECK: %[[R:.+]] = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%[[XP]], %[[K]] : tensor<?x3x11x11xf32>, tensor<3x3xf32>) outs(%[[FILL]] : tensor<?x3x5x5xf32>)
// CHECK: return %[[R]]
func.func @max_pool2d(%x: tensor<?x3x8x8xf32>) -> tensor<?x3x5x5xf32> {
  %0 = graph.max_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, ceil_mode} : (tensor<?x3x8x8xf32>) -> tensor<?x3x5x5xf32>
  return %0 : tensor<?x3x5x5xf32>
}

// -----

// Integer max pooling pads with INT_MIN; dilation is passed through.
// CHECK-LABEL: func.func @max_pool2d_i32_dilated
// CHECK: %[[MIN:.+]] = arith.constant -2147483648 : i32
// CHECK: linalg.fill ins(%{{.+}} : i32)
// CHECK: linalg.pooling_nchw_max {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
// CHECK-SAME: -> tensor<1x2x3x3xi32>
func.func @max_pool2d_i32_dilated(%x: tensor<1x2x7x7xi32>) -> tensor<1x2x3x3xi32> {
  %0 = graph.max_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>, dilations = array<i64: 2, 2>} : (tensor<1x2x7x7xi32>) -> tensor<1x2x3x3xi32>
  return %0 : tensor<1x2x3x3xi32>
}

// -----

// avg_pool2d: linalg.pooling_nchw_sum over the zero-padded input, times a
// constant [OH, OW] table of 1 / divisor. Without count_include_pad the
// divisor counts only input elements: with a 5x5 input, 2x2 windows, stride
// 2 and padding 1, the window rows (and columns) are [-1, 1), [1, 3),
// [3, 5), holding 1, 2 and 2 input rows.
// CHECK-LABEL: func.func @avg_pool2d
// CHECK: tensor.pad %{{.+}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: %[[SUM:.+]] = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%{{.+}}, %{{.+}} : tensor<1x3x7x7xf32>, tensor<2x2xf32>) outs(%{{.+}} : tensor<1x3x3x3xf32>)
// CHECK: %[[INV:.+]] = arith.constant dense<{{\[}}[1.000000e+00, 5.000000e-01, 5.000000e-01], [5.000000e-01, 2.500000e-01, 2.500000e-01], [5.000000e-01, 2.500000e-01, 2.500000e-01]]> : tensor<3x3xf32>
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[SUM]], %[[INV]] : tensor<1x3x3x3xf32>, tensor<3x3xf32>)
// CHECK: arith.mulf
func.func @avg_pool2d(%x: tensor<1x3x5x5xf32>) -> tensor<1x3x3x3xf32> {
  %0 = graph.avg_pool2d %x {kernel = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x3x5x5xf32>) -> tensor<1x3x3x3xf32>
  return %0 : tensor<1x3x3x3xf32>
}

// -----

// With count_include_pad every window counts 4.
// CHECK-LABEL: func.func @avg_pool2d_include_pad
// CHECK: arith.constant dense<2.500000e-01> : tensor<3x3xf32>
func.func @avg_pool2d_include_pad(%x: tensor<1x3x5x5xf32>) -> tensor<1x3x3x3xf32> {
  %0 = graph.avg_pool2d %x {kernel = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, count_include_pad} : (tensor<1x3x5x5xf32>) -> tensor<1x3x3x3xf32>
  return %0 : tensor<1x3x3x3xf32>
}

// -----

// f16 pooling sums in f32 and rounds once.
// CHECK-LABEL: func.func @avg_pool2d_f16
// CHECK: arith.extf %{{.+}} : f16 to f32
// CHECK: linalg.pooling_nchw_sum
// CHECK-SAME: -> tensor<1x1x2x2xf32>
// CHECK: arith.mulf %{{.+}}, %{{.+}} : f32
// CHECK: arith.truncf %{{.+}} : f32 to f16
func.func @avg_pool2d_f16(%x: tensor<1x1x4x4xf16>) -> tensor<1x1x2x2xf16> {
  %0 = graph.avg_pool2d %x {kernel = array<i64: 2, 2>} : (tensor<1x1x4x4xf16>) -> tensor<1x1x2x2xf16>
  return %0 : tensor<1x1x2x2xf16>
}

// -----

// Composite ops are expanded by the graph-decompose patterns within the
// conversion; nothing of the graph dialect remains.
// CHECK-LABEL: func.func @composites
// CHECK-NOT: graph.
// CHECK: linalg.batch_matmul
// CHECK: math.exp
// CHECK: math.sqrt
// CHECK: tensor.extract_slice
// CHECK: return
func.func @composites(%q: tensor<2x4x8xf32>, %x: tensor<2x3x8xf32>, %w: tensor<8xf32>, %s: tensor<4x6xf32>) -> (tensor<2x4x8xf32>, tensor<2x3x8xf32>, tensor<4x2xf32>, tensor<4x4xf32>) {
  %0 = graph.scaled_dot_product_attention %q, %q, %q {is_causal} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %1 = graph.layer_norm %x, %w, %w : (tensor<2x3x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x3x8xf32>
  %2:2 = graph.split %s {axis = 1 : i64, sizes = array<i64: 2, 4>} : tensor<4x6xf32> -> tensor<4x2xf32>, tensor<4x4xf32>
  return %0, %1, %2#0, %2#1 : tensor<2x4x8xf32>, tensor<2x3x8xf32>, tensor<4x2xf32>, tensor<4x4xf32>
}

// -----

// split with a dynamic dim other than the axis (which graph-decompose leaves
// alone): one tensor.extract_slice per piece, sized from the run-time dim.
// CHECK-LABEL: func.func @split_dynamic
// CHECK-SAME: (%[[X:.+]]: tensor<?x6xf32>)
// CHECK: %[[N:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x6xf32>
// CHECK: %[[A:.+]] = tensor.extract_slice %[[X]][0, 0] [%[[N]], 2] [1, 1] : tensor<?x6xf32> to tensor<?x2xf32>
// CHECK: %[[B:.+]] = tensor.extract_slice %[[X]][0, 2] [%[[N]], 4] [1, 1] : tensor<?x6xf32> to tensor<?x4xf32>
// CHECK: return %[[A]], %[[B]]
func.func @split_dynamic(%x: tensor<?x6xf32>) -> (tensor<?x2xf32>, tensor<?x4xf32>) {
  %0:2 = graph.split %x {axis = 1 : i64, sizes = array<i64: 2, 4>} : tensor<?x6xf32> -> tensor<?x2xf32>, tensor<?x4xf32>
  return %0#0, %0#1 : tensor<?x2xf32>, tensor<?x4xf32>
}

// -----

// gather: a linalg.generic over the result reading the indices; each index
// is wrapped (negative + size) and clamped into [0, size - 1] before the
// tensor.extract.
// CHECK-DAG: #[[$IDX:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[$ID3:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @gather
// CHECK-SAME: (%[[T:.+]]: tensor<10x4xf32>, %[[I:.+]]: tensor<2x3xi64>)
// CHECK: %[[SIZE:.+]] = arith.constant 10 : index
// CHECK: linalg.generic {indexing_maps = [#[[$IDX]], #[[$ID3]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[I]] : tensor<2x3xi64>)
// CHECK: ^bb0(%[[IN:.+]]: i64, %{{.+}}: f32):
// CHECK: %[[IX:.+]] = arith.index_cast %[[IN]] : i64 to index
// CHECK: %[[NEG:.+]] = arith.cmpi slt, %[[IX]], %{{.+}} : index
// CHECK: %[[WRAP:.+]] = arith.addi %[[IX]], %[[SIZE]] : index
// CHECK: %[[SEL:.+]] = arith.select %[[NEG]], %[[WRAP]], %[[IX]] : index
// CHECK: %[[LO:.+]] = arith.maxsi %[[SEL]], %{{.+}} : index
// CHECK: %[[C:.+]] = arith.minsi %[[LO]], %{{.+}} : index
// CHECK: %[[J:.+]] = linalg.index 2 : index
// CHECK: %[[V:.+]] = tensor.extract %[[T]][%[[C]], %[[J]]] : tensor<10x4xf32>
// CHECK: linalg.yield %[[V]] : f32
func.func @gather(%t: tensor<10x4xf32>, %i: tensor<2x3xi64>) -> tensor<2x3x4xf32> {
  %0 = graph.gather %t, %i {axis = 0 : i64} : (tensor<10x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// gather with a rank-0 index the host knows (a graph.loop's counter: a
// recurrent loop reading its step's input): the index normalized as above,
// then a slice at that offset with the axis dropped; no element-wise
// gather. A rank-0 index from an argument stays element-wise (on CUDA it is
// in device memory).
// CHECK-LABEL: func.func @gather_scalar
// CHECK-SAME: (%[[T:.+]]: tensor<32x8x16xf32>, %[[I:.+]]: tensor<i64>
// CHECK: scf.while
// CHECK: %[[C:.+]] = arith.minsi
// CHECK: tensor.extract_slice %[[T]][%[[C]], 0, 0] [1, 8, 16] [1, 1, 1] : tensor<32x8x16xf32> to tensor<8x16xf32>
// CHECK: scf.yield
// CHECK: linalg.generic
// CHECK: tensor.extract %[[T]]
func.func @gather_scalar(%t: tensor<32x8x16xf32>, %i: tensor<i64>, %h: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %n = graph.constant dense<32> : tensor<i64>
  %go = graph.constant dense<true> : tensor<i1>
  %r = graph.loop %n, %go, %h : (tensor<i64>, tensor<i1>, tensor<8x16xf32>) -> (tensor<8x16xf32>) {
  ^bb0(%step: tensor<i64>, %acc: tensor<8x16xf32>):
    %g = graph.gather %t, %step {axis = 0 : i64} : (tensor<32x8x16xf32>, tensor<i64>) -> tensor<8x16xf32>
    %s = graph.add %acc, %g : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
    graph.yield %go, %s : tensor<i1>, tensor<8x16xf32>
  }
  %0 = graph.gather %t, %i {axis = 0 : i64} : (tensor<32x8x16xf32>, tensor<i64>) -> tensor<8x16xf32>
  return %r, %0 : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// dynamic_update_slice: the rank-0 index extracted, normalized like
// gather's, and a tensor.insert_slice of size 1 along the axis.
// CHECK-LABEL: func.func @dynamic_update_slice
// CHECK-SAME: (%[[D:.+]]: tensor<5x4xf32>, %[[U:.+]]: tensor<4xf32>, %[[I:.+]]: tensor<i64>)
// CHECK: %[[E:.+]] = tensor.extract %[[I]][] : tensor<i64>
// CHECK: arith.index_cast %[[E]] : i64 to index
// CHECK: %[[C:.+]] = arith.minsi
// CHECK: %[[R:.+]] = tensor.insert_slice %[[U]] into %[[D]][%[[C]], 0] [1, 4] [1, 1] : tensor<4xf32> into tensor<5x4xf32>
// CHECK: return %[[R]]
func.func @dynamic_update_slice(%d: tensor<5x4xf32>, %u: tensor<4xf32>, %i: tensor<i64>) -> tensor<5x4xf32> {
  %0 = graph.dynamic_update_slice %d, %u, %i {axis = 0 : i64} : (tensor<5x4xf32>, tensor<4xf32>, tensor<i64>) -> tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}

// -----

// pad: tensor.pad with the value converted to the element type.
// CHECK-LABEL: func.func @pad
// CHECK: %[[V:.+]] = arith.constant -1 : i32
// CHECK: tensor.pad %{{.+}} low[1, 1] high[0, 2]
// CHECK: tensor.yield %[[V]] : i32
// CHECK: } : tensor<?x3xi32> to tensor<?x6xi32>
func.func @pad(%x: tensor<?x3xi32>) -> tensor<?x6xi32> {
  %0 = graph.pad %x {low = array<i64: 1, 1>, high = array<i64: 0, 2>, value = -1.0 : f64} : tensor<?x3xi32> -> tensor<?x6xi32>
  return %0 : tensor<?x6xi32>
}

// -----

// argmax: one linalg.generic reducing along the axis into a (value, index)
// pair: take x when x > best (strictly: the first maximum wins on ties), or
// x is NaN and best is not, or at index 0; keepdims re-inserts the axis.
// CHECK-DAG: #[[$IN:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$OUT:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @argmax
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<4xf32>)
// CHECK: linalg.fill ins(%{{.+}} : i64) outs(%{{.+}} : tensor<4xi64>)
// CHECK: %[[R:.+]]:2 = linalg.generic {indexing_maps = [#[[$IN]], #[[$OUT]], #[[$OUT]]], iterator_types = ["parallel", "reduction"]}
// CHECK: ^bb0(%[[X:.+]]: f32, %[[BEST:.+]]: f32, %[[BI:.+]]: i64):
// CHECK: %[[I:.+]] = linalg.index 1 : index
// CHECK: arith.cmpf ogt, %[[X]], %[[BEST]] : f32
// CHECK: arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK: arith.cmpf uno, %[[BEST]], %[[BEST]] : f32
// CHECK: %[[FIRST:.+]] = arith.cmpi eq, %{{.+}}, %{{.+}} : i64
// CHECK: %[[TAKE:.+]] = arith.ori %{{.+}}, %[[FIRST]] : i1
// CHECK: %[[NV:.+]] = arith.select %[[TAKE]], %[[X]], %[[BEST]] : f32
// CHECK: %[[NI:.+]] = arith.select %[[TAKE]], %{{.+}}, %[[BI]] : i64
// CHECK: linalg.yield %[[NV]], %[[NI]] : f32, i64
// CHECK: tensor.expand_shape %[[R]]#1 {{\[}}[0, 1]] output_shape [4, 1] : tensor<4xi64> into tensor<4x1xi64>
func.func @argmax(%x: tensor<4x10xf32>) -> tensor<4x1xi64> {
  %0 = graph.argmax %x {axis = 1 : i64, keepdims} : tensor<4x10xf32> -> tensor<4x1xi64>
  return %0 : tensor<4x1xi64>
}

// -----

// cumsum: an scf.for over the positions along the axis carrying the result
// and the running total (a unit slice), which a linalg.generic adds each
// position's slice into.
// CHECK-LABEL: func.func @cumsum
// CHECK-SAME: (%[[X:.+]]: tensor<?x5xf32>)
// CHECK: %[[N:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x5xf32>
// CHECK: %[[OUT:.+]] = tensor.empty(%[[N]]) : tensor<?x5xf32>
// CHECK: %[[ACC:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<?x1xf32>)
// CHECK: %[[C5:.+]] = arith.constant 5 : index
// CHECK: %[[R:.+]]:2 = scf.for %[[IV:.+]] = %{{.+}} to %[[C5]] step %{{.+}} iter_args(%[[RES:.+]] = %[[OUT]], %[[TOT:.+]] = %[[ACC]]) -> (tensor<?x5xf32>, tensor<?x1xf32>) {
// CHECK: %[[SL:.+]] = tensor.extract_slice %[[X]][0, %[[IV]]] [%[[N]], 1] [1, 1] : tensor<?x5xf32> to tensor<?x1xf32>
// CHECK: %[[SUM:.+]] = linalg.generic
// CHECK-SAME: ins(%[[SL]] : tensor<?x1xf32>) outs(%[[TOT]] : tensor<?x1xf32>)
// CHECK: arith.addf
// CHECK: %[[UPD:.+]] = tensor.insert_slice %[[SUM]] into %[[RES]][0, %[[IV]]] [%[[N]], 1] [1, 1]
// CHECK: scf.yield %[[UPD]], %[[SUM]] : tensor<?x5xf32>, tensor<?x1xf32>
// CHECK: return %[[R]]#0
func.func @cumsum(%x: tensor<?x5xf32>) -> tensor<?x5xf32> {
  %0 = graph.cumsum %x {axis = 1 : i64} : tensor<?x5xf32> -> tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}

// -----

// Along a dynamic axis the trip count is the run-time dim.
// CHECK-LABEL: func.func @cumsum_dynamic_axis
// CHECK-SAME: (%[[X:.+]]: tensor<?x3xi64>)
// CHECK: tensor.dim
// CHECK: %[[N:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x3xi64>
// CHECK: scf.for %{{.+}} = %{{.+}} to %[[N]] step
// CHECK-SAME: -> (tensor<?x3xi64>, tensor<1x3xi64>)
// CHECK: arith.addi %{{.+}}, %{{.+}} : i64
func.func @cumsum_dynamic_axis(%x: tensor<?x3xi64>) -> tensor<?x3xi64> {
  %0 = graph.cumsum %x {axis = 0 : i64} : tensor<?x3xi64> -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

// -----

// cumprod: the same loop, the running product starting at 1 and multiplied.
// CHECK-LABEL: func.func @cumprod
// CHECK: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[ACC:.+]] = linalg.fill ins(%[[ONE]] : f32) outs(%{{.+}} : tensor<4x1xf32>)
// CHECK: scf.for %{{.+}} iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %[[ACC]]) -> (tensor<4x5xf32>, tensor<4x1xf32>)
// CHECK: linalg.generic
// CHECK: arith.mulf
// CHECK-NOT: arith.addf
// CHECK: tensor.insert_slice
func.func @cumprod(%x: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %0 = graph.cumprod %x {axis = 1 : i64} : tensor<4x5xf32> -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// CHECK-LABEL: func.func @cumprod_i32
// CHECK: %[[ONE:.+]] = arith.constant 1 : i32
// CHECK: linalg.fill ins(%[[ONE]] : i32)
// CHECK: arith.muli %{{.+}}, %{{.+}} : i32
func.func @cumprod_i32(%x: tensor<6xi32>) -> tensor<6xi32> {
  %0 = graph.cumprod %x {axis = 0 : i64} : tensor<6xi32> -> tensor<6xi32>
  return %0 : tensor<6xi32>
}

// -----

// Elementwise ops of the second set.
// CHECK-LABEL: func.func @elementwise
// CHECK: math.erf %{{.+}} : f32
// hardswish: x * min(max(x * (1/6) + 0.5, 0), 1)
// CHECK: %[[S:.+]] = arith.mulf %[[IN:.+]], %{{.+}} : f32
// CHECK: arith.addf %[[S]], %{{.+}} : f32
// CHECK: arith.maximumf
// CHECK: %[[HS:.+]] = arith.minimumf
// CHECK: arith.mulf %[[IN]], %[[HS]] : f32
// hardsigmoid: min(max(x * (1/6) + 0.5, 0), 1)
// CHECK: arith.constant 0.166666672 : f32
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// leaky_relu: x < 0 (ordered: NaN passes through) ? alpha * x : x
// CHECK: %[[A:.+]] = arith.constant 2.000000e-01 : f32
// CHECK: %[[AX:.+]] = arith.mulf %[[X:.+]], %[[A]] : f32
// CHECK: %[[NEG:.+]] = arith.cmpf olt, %[[X]], %{{.+}} : f32
// CHECK: arith.select %[[NEG]], %[[AX]], %[[X]] : f32
// float clamp: maximumf/minimumf (NaN propagates)
// CHECK: arith.constant -1.000000e+00 : f32
// CHECK: arith.maximumf
// CHECK: arith.constant 6.000000e+00 : f32
// CHECK: arith.minimumf
// integer clamp: ceil(min), floor(max), saturated to the type
// CHECK: %[[LO:.+]] = arith.constant -1 : i32
// CHECK: arith.maxsi %{{.+}}, %[[LO]] : i32
// CHECK: %[[HI:.+]] = arith.constant 2147483647 : i32
// CHECK: arith.minsi %{{.+}}, %[[HI]] : i32
func.func @elementwise(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>) {
  %0 = graph.erf %x : tensor<4xf32> -> tensor<4xf32>
  %1 = graph.hardswish %x : tensor<4xf32> -> tensor<4xf32>
  %2 = graph.hardsigmoid %x : tensor<4xf32> -> tensor<4xf32>
  %3 = graph.leaky_relu %x {alpha = 0.2 : f64} : tensor<4xf32> -> tensor<4xf32>
  %4 = graph.clamp %x {min = -1.0 : f64, max = 6.0 : f64} : tensor<4xf32> -> tensor<4xf32>
  %5 = graph.clamp %i {min = -1.5 : f64, max = 1.0e10 : f64} : tensor<4xi32> -> tensor<4xi32>
  return %0, %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>
}
