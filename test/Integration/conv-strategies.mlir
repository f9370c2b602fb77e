// RUN: rm -rf %t && mkdir -p %t

// The convolution strategies of lib/Conversion/GraphToLinalg/NNOps.cpp
// with a static batch, checked against NumPy (test/lib/reference.py:
// float64 sums rounded once to f32). Sums of 32-576 products of O(0.1-1)
// values: f32 accumulation in a different order differs by ~1e-6 relative,
// so rtol = atol = 1e-5; a misplaced tap, column or pixel is O(0.1).
//
// Stride-1 f32 convolutions whose padded width is at most 5/4 of the
// output's are implicit GEMMs: one matmul per kernel tap on the padded
// image flattened to [C, Hp * Wp], the padded columns computed and
// discarded.

// Batch 2, padding 1, bias.
// RUN: %reference conv2d_igemm_batch_bias %t/a
// RUN: graph-run %s --entry=batch_bias --quiet \
// RUN:   --input=@%t/a/x0.npy --input=@%t/a/x1.npy --input=@%t/a/x2.npy \
// RUN:   --expected-output=@%t/a/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s

// A 5x5 kernel with asymmetric padding [top 2, left 1, bottom 2, right 3].
// RUN: %reference conv2d_igemm_5x5_asymmetric %t/b
// RUN: graph-run %s --entry=asymmetric --quiet \
// RUN:   --input=@%t/b/x0.npy --input=@%t/b/x1.npy \
// RUN:   --expected-output=@%t/b/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s

// 64 channels at 28x28: the packed matmul kernel with a column remainder
// (28 x 30 = 840 = 26 x 32 + 8 columns).
// RUN: %reference conv2d_igemm_wide %t/c
// RUN: graph-run %s --entry=wide --quiet \
// RUN:   --input=@%t/c/x0.npy --input=@%t/c/x1.npy \
// RUN:   --expected-output=@%t/c/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s

// Few output pixels (7x7 = 49, not whole 32-column blocks) and more
// channels: pixels are the matmul's rows ([49, K] x [K, F], transposed
// back), for an im2col 3x3 convolution with bias, a 1x1 convolution with a
// batch of 2, and a stride-2 convolution.
// RUN: %reference conv2d_pixel_rows %t/d
// RUN: graph-run %s --entry=pixel_rows --quiet \
// RUN:   --input=@%t/d/x0.npy --input=@%t/d/x1.npy --input=@%t/d/x2.npy \
// RUN:   --expected-output=@%t/d/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: %reference conv2d_pixel_rows_pointwise %t/e
// RUN: graph-run %s --entry=pixel_rows_pointwise --quiet \
// RUN:   --input=@%t/e/x0.npy --input=@%t/e/x1.npy \
// RUN:   --expected-output=@%t/e/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: %reference conv2d_pixel_rows_strided %t/f
// RUN: graph-run %s --entry=pixel_rows_strided --quiet \
// RUN:   --input=@%t/f/x0.npy --input=@%t/f/x1.npy \
// RUN:   --expected-output=@%t/f/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s

// Batched im2col and pointwise convolutions (a loop over images): the
// epilogue (bias, residual, activation) is fused into the loop and applied
// to each image's matmul tiles in registers, and each image's result is
// stored in its slice of the output, without a temporary and a copy
// (fusion-tile-and-fuse: fuseIntoImageLoop, computeImagesInPlace). A 1x1
// convolution with a residual and a ReLU (batch 3), pixel rows with a
// clamp (batch 2), and a stride-2 3x3 convolution with no epilogue at all
// (batch 2), also on three threads.
// RUN: %reference conv2d_batch_pointwise_epilogue %t/bp
// RUN: graph-run %s --entry=batch_pointwise_epilogue --quiet \
// RUN:   --input=@%t/bp/x0.npy --input=@%t/bp/x1.npy --input=@%t/bp/x2.npy \
// RUN:   --input=@%t/bp/x3.npy \
// RUN:   --expected-output=@%t/bp/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: %reference conv2d_batch_pixel_rows_clamp %t/br
// RUN: graph-run %s --entry=batch_pixel_rows_clamp --quiet \
// RUN:   --input=@%t/br/x0.npy --input=@%t/br/x1.npy --input=@%t/br/x2.npy \
// RUN:   --expected-output=@%t/br/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: %reference conv2d_batch_strided_plain %t/bs
// RUN: graph-run %s --entry=batch_strided_plain --quiet \
// RUN:   --input=@%t/bs/x0.npy --input=@%t/bs/x1.npy \
// RUN:   --expected-output=@%t/bs/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: graph-run %s --entry=batch_strided_plain --quiet --threads=3 \
// RUN:   --input=@%t/bs/x0.npy --input=@%t/bs/x1.npy \
// RUN:   --expected-output=@%t/bs/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: graph-run %s --entry=batch_pointwise_epilogue --quiet --threads=3 \
// RUN:   --input=@%t/bp/x0.npy --input=@%t/bp/x1.npy --input=@%t/bp/x2.npy \
// RUN:   --input=@%t/bp/x3.npy \
// RUN:   --expected-output=@%t/bp/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// The generated code: no copy of an image's result, and the ReLU's max in
// the matmul's register tiles.
// RUN: graph-opt %s --graph-cpu-pipeline="vectorize=true" \
// RUN:   --mlir-print-ir-after=graph-cpu-outline-kernels -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=INPLACE
// INPLACE-LABEL: func.func @batch_pointwise_epilogue(
// INPLACE-NOT: memref.copy
// INPLACE: scf.for
// INPLACE: vector.fma {{.+}} : vector<{{[0-9]+}}xf32>
// INPLACE: arith.maximumf {{.+}} : vector<{{[0-9]+}}xf32>
// INPLACE-NOT: memref.copy
// INPLACE-LABEL: func.func @batch_pixel_rows_clamp(
// INPLACE-NOT: memref.copy
// INPLACE-LABEL: func.func @batch_strided_plain(
// INPLACE-NOT: memref.copy
// INPLACE-LABEL: func.func @direct_rgb(

// Stride-2 f32 convolutions with outputs at least 56 wide are the same
// tap chains over the input's four phase images (q[c][a][e][y][x] =
// xp[c][2y + a][2x + e], flattened): tap (i, j) reads phase (i % 2, j % 2)
// shifted by (i / 2, j / 2). phase_stem: a 7x7 RGB stem with constant
// weights (the direct kernel), batch 2, odd sizes; phase_even: a 4x4
// kernel with run-time weights, asymmetric padding and a bias.
// RUN: %reference conv2d_phase_stem %t/ps
// RUN: graph-run %s --entry=phase_stem --quiet --input=@%t/ps/x0.npy \
// RUN:   --expected-output=@%t/ps/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: %reference conv2d_phase_even %t/pe
// RUN: graph-run %s --entry=phase_even --quiet \
// RUN:   --input=@%t/pe/x0.npy --input=@%t/pe/x1.npy --input=@%t/pe/x2.npy \
// RUN:   --expected-output=@%t/pe/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: graph-opt %s --convert-graph-to-linalg | FileCheck %s --check-prefix=PHASE
// PHASE-DAG: #[[PH:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d3 * 2 + d1, d4 * 2 + d2)>
// PHASE-LABEL: func.func @phase_stem
// PHASE: tensor.pad %{{.+}} low[0, 0, 3, 3] high[0, 0, 6, 3]
// PHASE: linalg.generic {indexing_maps = [#[[PH]], {{.+}} ins(%{{.+}} : tensor<3x126x124xf32>) outs(%{{.+}} : tensor<3x2x2x63x62xf32>)
// PHASE: tensor.collapse_shape %{{.+}} : tensor<3x2x2x63x62xf32> into tensor<3x15624xf32>
// PHASE-COUNT-49: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<16x3xf32>, tensor<3x3658xf32>)
// PHASE-LABEL: func.func @phase_even
// PHASE: tensor.pad %{{.+}} low[0, 0, 1, 2] high[0, 0, 3, 1]
// PHASE: linalg.generic {indexing_maps = [#[[PH]], {{.+}} outs(%{{.+}} : tensor<5x2x2x62x64xf32>)
// PHASE-COUNT-16: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x5xf32>, tensor<5x3840xf32>)

// Constant weights: the implicit GEMM's tap matmuls become the direct
// kernel (lib/Codegen/CPUConv.cpp; with AVX-512 an 8 x 48 output block,
// 8 x 3 vectors, in registers across all taps and channels, column
// remainders in narrower blocks; with AVX2's 8-lane vectors 4 x 24).
// The weights are the literal of formula_weight in test/lib/reference.py.
// direct_rgb: 16 channels (mr 8), 18 x 22 = 396 = 8 x 48 + 8 + 4 padded
// pixels; direct_pad: 12 channels (mr 6), 15 x 19 = 285 = 5 x 48 + 32 + 8
// + 4 + 1; with vector-width=8 (mr 4): 396 = 16 x 24 + 8 + 4, 285 = 11 x
// 24 + 16 + 4 + 1.
// RUN: %reference conv2d_direct_rgb %t/g
// RUN: graph-run %s --entry=direct_rgb --quiet --input=@%t/g/x0.npy \
// RUN:   --expected-output=@%t/g/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: graph-run %s --entry=direct_rgb --quiet --input=@%t/g/x0.npy \
// RUN:   --pipeline-options=vector-width=8 \
// RUN:   --expected-output=@%t/g/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: %reference conv2d_direct_pad %t/h
// RUN: graph-run %s --entry=direct_pad --quiet --input=@%t/h/x0.npy \
// RUN:   --expected-output=@%t/h/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: graph-run %s --entry=direct_pad --quiet --input=@%t/h/x0.npy \
// RUN:   --pipeline-options=vector-width=8 \
// RUN:   --expected-output=@%t/h/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// The direct kernel replaced the tap matmuls: no linalg.matmul is left.
// The taps are a loop over a table of their column offsets (i * 22 + j
// for tap (i, j): the padded image is 22 columns wide), each a loop over
// the 3 channels in which each FMA step reads the block's 3 image vectors
// and the mr weights of one panel, each a scalar load that is broadcast
// (vbroadcastss from memory).
// RUN: graph-opt %s --mlir-disable-threading --graph-cpu-pipeline="vector-width=16" --mlir-print-ir-after=graph-cpu-tile-and-vectorize -o /dev/null 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: graph-opt %s --mlir-disable-threading --graph-cpu-pipeline="vector-width=8" --mlir-print-ir-after=graph-cpu-tile-and-vectorize -o /dev/null 2>&1 | FileCheck %s --check-prefix=AVX2
// KERNEL-LABEL: func.func @direct_rgb
// KERNEL-NOT: linalg.matmul
// KERNEL: %[[OFF:.+]] = arith.constant dense<[0, 1, 2, 22, 23, 24, 44, 45, 46]> : tensor<9xindex>
// KERNEL: scf.for %{{.+}} = %c0 to %c384 step %c48
// KERNEL-NEXT: scf.for %[[T:.+]] = %c0 to %c9 step %c1
// KERNEL-NEXT: tensor.extract %[[OFF]][%[[T]]] : tensor<9xindex>
// KERNEL: scf.for %{{.+}} = %c0 to %c3 step %c1
// KERNEL-COUNT-3: vector.transfer_read {{.+}} : tensor<3x{{[0-9]+}}xf32>, vector<16xf32>
// KERNEL-NEXT: tensor.extract {{.+}} : tensor<2x27x8xf32>
// KERNEL-COUNT-24: vector.fma {{.+}} : vector<16xf32>
// KERNEL-LABEL: func.func @direct_pad
// KERNEL: scf.for %{{.+}} = %c0 to %c240 step %c48
// KERNEL: tensor.extract {{.+}} : tensor<2x72x6xf32>
// KERNEL-COUNT-18: vector.fma {{.+}} : vector<16xf32>
// AVX2-LABEL: func.func @direct_rgb
// AVX2: scf.for %{{.+}} = %c0 to %c384 step %c24
// AVX2-COUNT-3: vector.transfer_read {{.+}} : tensor<3x{{[0-9]+}}xf32>, vector<8xf32>
// AVX2-NEXT: tensor.extract {{.+}} : tensor<4x27x4xf32>
// AVX2-COUNT-12: vector.fma {{.+}} : vector<8xf32>

// Depthwise convolutions (f32): blocks of 4 output rows, each row in
// 16-lane chunks and a remainder (35 = 16 + 16 + 3 -> 4 lanes; 19 = 16 + 3
// -> 4), the block's accumulators in registers while every input row the
// block needs is read once per tap column and combined into each output row
// that uses it. The zero padding is read through, not materialized: padding
// rows are skipped in the first and last blocks (compile-time rows), and
// the left padding columns are lanes shifted in (shuffle + select); reads
// past a row's end and the last chunk's store are masked (no in_bounds).
// The interior blocks run in a loop (20 rows: row 0, 4 blocks, rows 17-19).
// Stride 2 takes the even lanes of two reads (one shuffle).
// RUN: %reference conv2d_depthwise_rows %t/i
// RUN: graph-run %s --entry=depthwise_rows --quiet --input=@%t/i/x0.npy \
// RUN:   --input=@%t/i/x1.npy --input=@%t/i/x2.npy \
// RUN:   --expected-output=@%t/i/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: %reference conv2d_depthwise_5x5_stride2 %t/j
// RUN: graph-run %s --entry=depthwise_5x5_stride2 --quiet --input=@%t/j/x0.npy \
// RUN:   --input=@%t/j/x1.npy \
// RUN:   --expected-output=@%t/j/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// Three threads (graph-cpu-parallelize) over the blocks of each kernel.
// RUN: graph-run %s --entry=direct_pad --quiet --threads=3 --input=@%t/h/x0.npy \
// RUN:   --expected-output=@%t/h/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: graph-run %s --entry=depthwise_rows --quiet --threads=3 --input=@%t/i/x0.npy \
// RUN:   --input=@%t/i/x1.npy --input=@%t/i/x2.npy \
// RUN:   --expected-output=@%t/i/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: graph-run %s --entry=batch_bias --quiet --threads=3 \
// RUN:   --input=@%t/a/x0.npy --input=@%t/a/x1.npy --input=@%t/a/x2.npy \
// RUN:   --expected-output=@%t/a/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// KERNEL-LABEL: func.func @depthwise_rows
// KERNEL-NOT: tensor.pad
// KERNEL-NOT: linalg.depthwise_conv_2d_nchw_chw
// KERNEL: vector.shuffle %{{.+}}, %{{.+}} [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14] : vector<16xf32>, vector<16xf32>
// KERNEL-NEXT: arith.select %{{.+}}, %{{.+}}, %{{.+}} : vector<16xi1>, vector<16xf32>
// KERNEL: vector.fma {{.+}} : vector<16xf32>
// KERNEL: vector.transfer_read %{{.+}}[%{{.+}}, %{{.+}}, %c0, %c31], %{{[a-z0-9_]+}} {in_bounds = [true]} : tensor<2x6x20x35xf32>, vector<4xf32>
// KERNEL: vector.transfer_read %{{.+}}[%{{.+}}, %{{.+}}, %c0, %c33], %{{[a-z0-9_]+}} : tensor<2x6x20x35xf32>, vector<4xf32>
// KERNEL: vector.fma {{.+}} : vector<4xf32>
// KERNEL: vector.transfer_write %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}, %c0, %c32] : vector<4xf32>, tensor<2x6x20x35xf32>
// KERNEL: scf.for %{{.+}} = %c0 to %c4 step %c1
// KERNEL-COUNT-4: vector.transfer_write %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}, %c0] {in_bounds = [true]} : vector<16xf32>, tensor<2x6x20x35xf32>
// KERNEL-LABEL: func.func @depthwise_5x5_stride2
// KERNEL: vector.shuffle

// With an epilogue (bias, residual, activation) and rows of at least one
// register block, a short convolution (few input channels) runs in output
// rows: the epilogue applied in registers, the final values stored once;
// each row's last block is shifted left to end at the row's end.
// RUN: %reference conv2d_direct_rows_epilogue %t/k
// RUN: graph-run %s --entry=direct_rows_epilogue --quiet --input=@%t/k/x0.npy \
// RUN:   --input=@%t/k/x1.npy --input=@%t/k/x2.npy \
// RUN:   --expected-output=@%t/k/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: graph-run %s --entry=direct_rows_epilogue --quiet --threads=3 --input=@%t/k/x0.npy \
// RUN:   --input=@%t/k/x1.npy --input=@%t/k/x2.npy \
// RUN:   --expected-output=@%t/k/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// KERNEL-LABEL: func.func @direct_rows_epilogue
// KERNEL-NOT: linalg.generic
// KERNEL-NOT: linalg.matmul
// KERNEL: arith.minsi
// KERNEL: vector.fma {{.+}} : vector<32xf32>
// KERNEL: arith.addf {{.+}} : vector<32xf32>
// KERNEL: arith.maximumf {{.+}} : vector<32xf32>
// KERNEL: vector.transfer_write {{.+}} : vector<32xf32>, tensor<1x16x7x34xf32>

// A 2x2 max pooling after the epilogue is fused too: two rows per step,
// pooled in registers (maximum of the rows, then of lane pairs); the
// epilogue's result and the pooling's -inf fill are never stored, and the
// image is read without the zero row the padded-row kernel needs.
// RUN: %reference conv2d_direct_rows_pool %t/m
// RUN: graph-run %s --entry=direct_rows_pool --quiet --input=@%t/m/x0.npy \
// RUN:   --input=@%t/m/x1.npy \
// RUN:   --expected-output=@%t/m/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: graph-run %s --entry=direct_rows_pool --quiet --threads=3 --input=@%t/m/x0.npy \
// RUN:   --input=@%t/m/x1.npy \
// RUN:   --expected-output=@%t/m/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// KERNEL-LABEL: func.func @direct_rows_pool
// KERNEL-NOT: tensor.pad
// KERNEL-NOT: linalg.pooling
// KERNEL-NOT: linalg.fill
// KERNEL: vector.fma {{.+}} : vector<32xf32>
// KERNEL: vector.shuffle {{.+}} : vector<32xf32>, vector<32xf32>
// KERNEL: arith.maximumf {{.+}} : vector<16xf32>
// KERNEL: vector.transfer_write {{.+}} : vector<16xf32>, tensor<1x16x4x18xf32>

// Pooling rows in 16-lane chunks and a remainder (6 -> 8 lanes, the store
// masked), stride 2 by shuffles.
// RUN: %reference pool_rows %t/l
// RUN: graph-run %s --entry=pool_rows --quiet --input=@%t/l/x0.npy \
// RUN:   --expected-output=@%t/l/expected.npy --expected-output=@%t/l/expected1.npy \
// RUN:   --expected-output=@%t/l/expected2.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=POOL
// POOL: result 0: matches expected
// POOL: result 1: matches expected
// POOL: result 2: matches expected
// KERNEL-LABEL: func.func @pool_rows
// KERNEL-NOT: linalg.pooling
// KERNEL: arith.maximumf {{.+}} : vector<16xf32>
// KERNEL: arith.maximumf {{.+}} : vector<8xf32>
// KERNEL: vector.shuffle
// KERNEL: arith.addf {{.+}} : vector<16xf32>

// CHECK: result 0: matches expected

func.func @batch_bias(%x: tensor<2x5x12x14xf32>, %w: tensor<6x5x3x3xf32>, %b: tensor<6xf32>) -> tensor<2x6x12x14xf32> {
  %r = graph.conv2d %x, %w, %b {padding = array<i64: 1, 1, 1, 1>} : (tensor<2x5x12x14xf32>, tensor<6x5x3x3xf32>, tensor<6xf32>) -> tensor<2x6x12x14xf32>
  return %r : tensor<2x6x12x14xf32>
}

func.func @asymmetric(%x: tensor<1x3x16x20xf32>, %w: tensor<4x3x5x5xf32>) -> tensor<1x4x16x20xf32> {
  %r = graph.conv2d %x, %w {padding = array<i64: 2, 1, 2, 3>} : (tensor<1x3x16x20xf32>, tensor<4x3x5x5xf32>) -> tensor<1x4x16x20xf32>
  return %r : tensor<1x4x16x20xf32>
}

func.func @wide(%x: tensor<1x64x28x28xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<1x64x28x28xf32> {
  %r = graph.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x64x28x28xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x28x28xf32>
  return %r : tensor<1x64x28x28xf32>
}

func.func @pixel_rows(%x: tensor<1x16x7x7xf32>, %w: tensor<64x16x3x3xf32>, %b: tensor<64xf32>) -> tensor<1x64x7x7xf32> {
  %r = graph.conv2d %x, %w, %b {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x16x7x7xf32>, tensor<64x16x3x3xf32>, tensor<64xf32>) -> tensor<1x64x7x7xf32>
  return %r : tensor<1x64x7x7xf32>
}

func.func @pixel_rows_pointwise(%x: tensor<2x32x7x7xf32>, %w: tensor<64x32x1x1xf32>) -> tensor<2x64x7x7xf32> {
  %r = graph.conv2d %x, %w : (tensor<2x32x7x7xf32>, tensor<64x32x1x1xf32>) -> tensor<2x64x7x7xf32>
  return %r : tensor<2x64x7x7xf32>
}

func.func @pixel_rows_strided(%x: tensor<1x8x14x14xf32>, %w: tensor<96x8x3x3xf32>) -> tensor<1x96x7x7xf32> {
  %r = graph.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x14x14xf32>, tensor<96x8x3x3xf32>) -> tensor<1x96x7x7xf32>
  return %r : tensor<1x96x7x7xf32>
}

func.func @batch_pointwise_epilogue(%x: tensor<3x16x28x28xf32>, %w: tensor<32x16x1x1xf32>, %b: tensor<32xf32>, %r: tensor<3x32x28x28xf32>) -> tensor<3x32x28x28xf32> {
  %c = graph.conv2d %x, %w, %b : (tensor<3x16x28x28xf32>, tensor<32x16x1x1xf32>, tensor<32xf32>) -> tensor<3x32x28x28xf32>
  %s = graph.add %c, %r : tensor<3x32x28x28xf32>, tensor<3x32x28x28xf32> -> tensor<3x32x28x28xf32>
  %y = graph.relu %s : tensor<3x32x28x28xf32> -> tensor<3x32x28x28xf32>
  return %y : tensor<3x32x28x28xf32>
}

func.func @batch_pixel_rows_clamp(%x: tensor<2x16x7x7xf32>, %w: tensor<64x16x3x3xf32>, %b: tensor<64xf32>) -> tensor<2x64x7x7xf32> {
  %c = graph.conv2d %x, %w, %b {padding = array<i64: 1, 1, 1, 1>} : (tensor<2x16x7x7xf32>, tensor<64x16x3x3xf32>, tensor<64xf32>) -> tensor<2x64x7x7xf32>
  %y = graph.clamp %c {min = -0.5 : f64, max = 0.75 : f64} : tensor<2x64x7x7xf32> -> tensor<2x64x7x7xf32>
  return %y : tensor<2x64x7x7xf32>
}

func.func @batch_strided_plain(%x: tensor<2x8x30x30xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<2x16x15x15xf32> {
  %r = graph.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<2x8x30x30xf32>, tensor<16x8x3x3xf32>) -> tensor<2x16x15x15xf32>
  return %r : tensor<2x16x15x15xf32>
}

func.func @direct_rgb(%x: tensor<2x3x20x22xf32>) -> tensor<2x16x18x20xf32> {
  %w = graph.constant dense<[[[[-0.625, -0.5, -0.375], [0.0, 0.125, 0.25], [0.625, -0.625, -0.5]], [[-0.25, -0.125, 0.0], [0.375, 0.5, 0.625], [-0.375, -0.25, -0.125]], [[0.125, 0.25, 0.375], [-0.625, -0.5, -0.375], [0.0, 0.125, 0.25]]], [[[0.25, 0.375, 0.5], [-0.5, -0.375, -0.25], [0.125, 0.25, 0.375]], [[0.625, -0.625, -0.5], [-0.125, 0.0, 0.125], [0.5, 0.625, -0.625]], [[-0.375, -0.25, -0.125], [0.25, 0.375, 0.5], [-0.5, -0.375, -0.25]]], [[[-0.25, -0.125, 0.0], [0.375, 0.5, 0.625], [-0.375, -0.25, -0.125]], [[0.125, 0.25, 0.375], [-0.625, -0.5, -0.375], [0.0, 0.125, 0.25]], [[0.5, 0.625, -0.625], [-0.25, -0.125, 0.0], [0.375, 0.5, 0.625]]], [[[0.625, -0.625, -0.5], [-0.125, 0.0, 0.125], [0.5, 0.625, -0.625]], [[-0.375, -0.25, -0.125], [0.25, 0.375, 0.5], [-0.5, -0.375, -0.25]], [[0.0, 0.125, 0.25], [0.625, -0.625, -0.5], [-0.125, 0.0, 0.125]]], [[[0.125, 0.25, 0.375], [-0.625, -0.5, -0.375], [0.0, 0.125, 0.25]], [[0.5, 0.625, -0.625], [-0.25, -0.125, 0.0], [0.375, 0.5, 0.625]], [[-0.5, -0.375, -0.25], [0.125, 0.25, 0.375], [-0.625, -0.5, -0.375]]], [[[-0.375, -0.25, -0.125], [0.25, 0.375, 0.5], [-0.5, -0.375, -0.25]], [[0.0, 0.125, 0.25], [0.625, -0.625, -0.5], [-0.125, 0.0, 0.125]], [[0.375, 0.5, 0.625], [-0.375, -0.25, -0.125], [0.25, 0.375, 0.5]]], [[[0.5, 0.625, -0.625], [-0.25, -0.125, 0.0], [0.375, 0.5, 0.625]], [[-0.5, -0.375, -0.25], [0.125, 0.25, 0.375], [-0.625, -0.5, -0.375]], [[-0.125, 0.0, 0.125], [0.5, 0.625, -0.625], [-0.25, -0.125, 0.0]]], [[[0.0, 0.125, 0.25], [0.625, -0.625, -0.5], [-0.125, 0.0, 0.125]], [[0.375, 0.5, 0.625], [-0.375, -0.25, -0.125], [0.25, 0.375, 0.5]], [[-0.625, -0.5, -0.375], [0.0, 0.125, 0.25], [0.625, -0.625, -0.5]]], [[[-0.5, -0.375, -0.25], [0.125, 0.25, 0.375], [-0.625, -0.5, -0.375]], [[-0.125, 0.0, 0.125], [0.5, 0.625, -0.625], [-0.25, -0.125, 0.0]], [[0.25, 0.375, 0.5], [-0.5, -0.375, -0.25], [0.125, 0.25, 0.375]]], [[[0.375, 0.5, 0.625], [-0.375, -0.25, -0.125], [0.25, 0.375, 0.5]], [[-0.625, -0.5, -0.375], [0.0, 0.125, 0.25], [0.625, -0.625, -0.5]], [[-0.25, -0.125, 0.0], [0.375, 0.5, 0.625], [-0.375, -0.25, -0.125]]], [[[-0.125, 0.0, 0.125], [0.5, 0.625, -0.625], [-0.25, -0.125, 0.0]], [[0.25, 0.375, 0.5], [-0.5, -0.375, -0.25], [0.125, 0.25, 0.375]], [[0.625, -0.625, -0.5], [-0.125, 0.0, 0.125], [0.5, 0.625, -0.625]]], [[[-0.625, -0.5, -0.375], [0.0, 0.125, 0.25], [0.625, -0.625, -0.5]], [[-0.25, -0.125, 0.0], [0.375, 0.5, 0.625], [-0.375, -0.25, -0.125]], [[0.125, 0.25, 0.375], [-0.625, -0.5, -0.375], [0.0, 0.125, 0.25]]], [[[0.25, 0.375, 0.5], [-0.5, -0.375, -0.25], [0.125, 0.25, 0.375]], [[0.625, -0.625, -0.5], [-0.125, 0.0, 0.125], [0.5, 0.625, -0.625]], [[-0.375, -0.25, -0.125], [0.25, 0.375, 0.5], [-0.5, -0.375, -0.25]]], [[[-0.25, -0.125, 0.0], [0.375, 0.5, 0.625], [-0.375, -0.25, -0.125]], [[0.125, 0.25, 0.375], [-0.625, -0.5, -0.375], [0.0, 0.125, 0.25]], [[0.5, 0.625, -0.625], [-0.25, -0.125, 0.0], [0.375, 0.5, 0.625]]], [[[0.625, -0.625, -0.5], [-0.125, 0.0, 0.125], [0.5, 0.625, -0.625]], [[-0.375, -0.25, -0.125], [0.25, 0.375, 0.5], [-0.5, -0.375, -0.25]], [[0.0, 0.125, 0.25], [0.625, -0.625, -0.5], [-0.125, 0.0, 0.125]]], [[[0.125, 0.25, 0.375], [-0.625, -0.5, -0.375], [0.0, 0.125, 0.25]], [[0.5, 0.625, -0.625], [-0.25, -0.125, 0.0], [0.375, 0.5, 0.625]], [[-0.5, -0.375, -0.25], [0.125, 0.25, 0.375], [-0.625, -0.5, -0.375]]]]> : tensor<16x3x3x3xf32>
  %r = graph.conv2d %x, %w : (tensor<2x3x20x22xf32>, tensor<16x3x3x3xf32>) -> tensor<2x16x18x20xf32>
  return %r : tensor<2x16x18x20xf32>
}

func.func @direct_pad(%x: tensor<1x8x15x17xf32>) -> tensor<1x12x15x17xf32> {
  %w = graph.constant dense<[[[[-0.625, -0.5, -0.375], [0.0, 0.125, 0.25], [0.625, -0.625, -0.5]], [[-0.25, -0.125, 0.0], [0.375, 0.5, 0.625], [-0.375, -0.25, -0.125]], [[0.125, 0.25, 0.375], [-0.625, -0.5, -0.375], [0.0, 0.125, 0.25]], [[0.5, 0.625, -0.625], [-0.25, -0.125, 0.0], [0.375, 0.5, 0.625]], [[-0.5, -0.375, -0.25], [0.125, 0.25, 0.375], [-0.625, -0.5, -0.375]], [[-0.125, 0.0, 0.125], [0.5, 0.625, -0.625], [-0.25, -0.125, 0.0]], [[0.25, 0.375, 0.5], [-0.5, -0.375, -0.25], [0.125, 0.25, 0.375]], [[0.625, -0.625, -0.5], [-0.125, 0.0, 0.125], [0.5, 0.625, -0.625]]], [[[0.25, 0.375, 0.5], [-0.5, -0.375, -0.25], [0.125, 0.25, 0.375]], [[0.625, -0.625, -0.5], [-0.125, 0.0, 0.125], [0.5, 0.625, -0.625]], [[-0.375, -0.25, -0.125], [0.25, 0.375, 0.5], [-0.5, -0.375, -0.25]], [[0.0, 0.125, 0.25], [0.625, -0.625, -0.5], [-0.125, 0.0, 0.125]], [[0.375, 0.5, 0.625], [-0.375, -0.25, -0.125], [0.25, 0.375, 0.5]], [[-0.625, -0.5, -0.375], [0.0, 0.125, 0.25], [0.625, -0.625, -0.5]], [[-0.25, -0.125, 0.0], [0.375, 0.5, 0.625], [-0.375, -0.25, -0.125]], [[0.125, 0.25, 0.375], [-0.625, -0.5, -0.375], [0.0, 0.125, 0.25]]], [[[-0.25, -0.125, 0.0], [0.375, 0.5, 0.625], [-0.375, -0.25, -0.125]], [[0.125, 0.25, 0.375], [-0.625, -0.5, -0.375], [0.0, 0.125, 0.25]], [[0.5, 0.625, -0.625], [-0.25, -0.125, 0.0], [0.375, 0.5, 0.625]], [[-0.5, -0.375, -0.25], [0.125, 0.25, 0.375], [-0.625, -0.5, -0.375]], [[-0.125, 0.0, 0.125], [0.5, 0.625, -0.625], [-0.25, -0.125, 0.0]], [[0.25, 0.375, 0.5], [-0.5, -0.375, -0.25], [0.125, 0.25, 0.375]], [[0.625, -0.625, -0.5], [-0.125, 0.0, 0.125], [0.5, 0.625, -0.625]], [[-0.375, -0.25, -0.125], [0.25, 0.375, 0.5], [-0.5, -0.375, -0.25]]], [[[0.625, -0.625, -0.5], [-0.125, 0.0, 0.125], [0.5, 0.625, -0.625]], [[-0.375, -0.25, -0.125], [0.25, 0.375, 0.5], [-0.5, -0.375, -0.25]], [[0.0, 0.125, 0.25], [0.625, -0.625, -0.5], [-0.125, 0.0, 0.125]], [[0.375, 0.5, 0.625], [-0.375, -0.25, -0.125], [0.25, 0.375, 0.5]], [[-0.625, -0.5, -0.375], [0.0, 0.125, 0.25], [0.625, -0.625, -0.5]], [[-0.25, -0.125, 0.0], [0.375, 0.5, 0.625], [-0.375, -0.25, -0.125]], [[0.125, 0.25, 0.375], [-0.625, -0.5, -0.375], [0.0, 0.125, 0.25]], [[0.5, 0.625, -0.625], [-0.25, -0.125, 0.0], [0.375, 0.5, 0.625]]], [[[0.125, 0.25, 0.375], [-0.625, -0.5, -0.375], [0.0, 0.125, 0.25]], [[0.5, 0.625, -0.625], [-0.25, -0.125, 0.0], [0.375, 0.5, 0.625]], [[-0.5, -0.375, -0.25], [0.125, 0.25, 0.375], [-0.625, -0.5, -0.375]], [[-0.125, 0.0, 0.125], [0.5, 0.625, -0.625], [-0.25, -0.125, 0.0]], [[0.25, 0.375, 0.5], [-0.5, -0.375, -0.25], [0.125, 0.25, 0.375]], [[0.625, -0.625, -0.5], [-0.125, 0.0, 0.125], [0.5, 0.625, -0.625]], [[-0.375, -0.25, -0.125], [0.25, 0.375, 0.5], [-0.5, -0.375, -0.25]], [[0.0, 0.125, 0.25], [0.625, -0.625, -0.5], [-0.125, 0.0, 0.125]]], [[[-0.375, -0.25, -0.125], [0.25, 0.375, 0.5], [-0.5, -0.375, -0.25]], [[0.0, 0.125, 0.25], [0.625, -0.625, -0.5], [-0.125, 0.0, 0.125]], [[0.375, 0.5, 0.625], [-0.375, -0.25, -0.125], [0.25, 0.375, 0.5]], [[-0.625, -0.5, -0.375], [0.0, 0.125, 0.25], [0.625, -0.625, -0.5]], [[-0.25, -0.125, 0.0], [0.375, 0.5, 0.625], [-0.375, -0.25, -0.125]], [[0.125, 0.25, 0.375], [-0.625, -0.5, -0.375], [0.0, 0.125, 0.25]], [[0.5, 0.625, -0.625], [-0.25, -0.125, 0.0], [0.375, 0.5, 0.625]], [[-0.5, -0.375, -0.25], [0.125, 0.25, 0.375], [-0.625, -0.5, -0.375]]], [[[0.5, 0.625, -0.625], [-0.25, -0.125, 0.0], [0.375, 0.5, 0.625]], [[-0.5, -0.375, -0.25], [0.125, 0.25, 0.375], [-0.625, -0.5, -0.375]], [[-0.125, 0.0, 0.125], [0.5, 0.625, -0.625], [-0.25, -0.125, 0.0]], [[0.25, 0.375, 0.5], [-0.5, -0.375, -0.25], [0.125, 0.25, 0.375]], [[0.625, -0.625, -0.5], [-0.125, 0.0, 0.125], [0.5, 0.625, -0.625]], [[-0.375, -0.25, -0.125], [0.25, 0.375, 0.5], [-0.5, -0.375, -0.25]], [[0.0, 0.125, 0.25], [0.625, -0.625, -0.5], [-0.125, 0.0, 0.125]], [[0.375, 0.5, 0.625], [-0.375, -0.25, -0.125], [0.25, 0.375, 0.5]]], [[[0.0, 0.125, 0.25], [0.625, -0.625, -0.5], [-0.125, 0.0, 0.125]], [[0.375, 0.5, 0.625], [-0.375, -0.25, -0.125], [0.25, 0.375, 0.5]], [[-0.625, -0.5, -0.375], [0.0, 0.125, 0.25], [0.625, -0.625, -0.5]], [[-0.25, -0.125, 0.0], [0.375, 0.5, 0.625], [-0.375, -0.25, -0.125]], [[0.125, 0.25, 0.375], [-0.625, -0.5, -0.375], [0.0, 0.125, 0.25]], [[0.5, 0.625, -0.625], [-0.25, -0.125, 0.0], [0.375, 0.5, 0.625]], [[-0.5, -0.375, -0.25], [0.125, 0.25, 0.375], [-0.625, -0.5, -0.375]], [[-0.125, 0.0, 0.125], [0.5, 0.625, -0.625], [-0.25, -0.125, 0.0]]], [[[-0.5, -0.375, -0.25], [0.125, 0.25, 0.375], [-0.625, -0.5, -0.375]], [[-0.125, 0.0, 0.125], [0.5, 0.625, -0.625], [-0.25, -0.125, 0.0]], [[0.25, 0.375, 0.5], [-0.5, -0.375, -0.25], [0.125, 0.25, 0.375]], [[0.625, -0.625, -0.5], [-0.125, 0.0, 0.125], [0.5, 0.625, -0.625]], [[-0.375, -0.25, -0.125], [0.25, 0.375, 0.5], [-0.5, -0.375, -0.25]], [[0.0, 0.125, 0.25], [0.625, -0.625, -0.5], [-0.125, 0.0, 0.125]], [[0.375, 0.5, 0.625], [-0.375, -0.25, -0.125], [0.25, 0.375, 0.5]], [[-0.625, -0.5, -0.375], [0.0, 0.125, 0.25], [0.625, -0.625, -0.5]]], [[[0.375, 0.5, 0.625], [-0.375, -0.25, -0.125], [0.25, 0.375, 0.5]], [[-0.625, -0.5, -0.375], [0.0, 0.125, 0.25], [0.625, -0.625, -0.5]], [[-0.25, -0.125, 0.0], [0.375, 0.5, 0.625], [-0.375, -0.25, -0.125]], [[0.125, 0.25, 0.375], [-0.625, -0.5, -0.375], [0.0, 0.125, 0.25]], [[0.5, 0.625, -0.625], [-0.25, -0.125, 0.0], [0.375, 0.5, 0.625]], [[-0.5, -0.375, -0.25], [0.125, 0.25, 0.375], [-0.625, -0.5, -0.375]], [[-0.125, 0.0, 0.125], [0.5, 0.625, -0.625], [-0.25, -0.125, 0.0]], [[0.25, 0.375, 0.5], [-0.5, -0.375, -0.25], [0.125, 0.25, 0.375]]], [[[-0.125, 0.0, 0.125], [0.5, 0.625, -0.625], [-0.25, -0.125, 0.0]], [[0.25, 0.375, 0.5], [-0.5, -0.375, -0.25], [0.125, 0.25, 0.375]], [[0.625, -0.625, -0.5], [-0.125, 0.0, 0.125], [0.5, 0.625, -0.625]], [[-0.375, -0.25, -0.125], [0.25, 0.375, 0.5], [-0.5, -0.375, -0.25]], [[0.0, 0.125, 0.25], [0.625, -0.625, -0.5], [-0.125, 0.0, 0.125]], [[0.375, 0.5, 0.625], [-0.375, -0.25, -0.125], [0.25, 0.375, 0.5]], [[-0.625, -0.5, -0.375], [0.0, 0.125, 0.25], [0.625, -0.625, -0.5]], [[-0.25, -0.125, 0.0], [0.375, 0.5, 0.625], [-0.375, -0.25, -0.125]]], [[[-0.625, -0.5, -0.375], [0.0, 0.125, 0.25], [0.625, -0.625, -0.5]], [[-0.25, -0.125, 0.0], [0.375, 0.5, 0.625], [-0.375, -0.25, -0.125]], [[0.125, 0.25, 0.375], [-0.625, -0.5, -0.375], [0.0, 0.125, 0.25]], [[0.5, 0.625, -0.625], [-0.25, -0.125, 0.0], [0.375, 0.5, 0.625]], [[-0.5, -0.375, -0.25], [0.125, 0.25, 0.375], [-0.625, -0.5, -0.375]], [[-0.125, 0.0, 0.125], [0.5, 0.625, -0.625], [-0.25, -0.125, 0.0]], [[0.25, 0.375, 0.5], [-0.5, -0.375, -0.25], [0.125, 0.25, 0.375]], [[0.625, -0.625, -0.5], [-0.125, 0.0, 0.125], [0.5, 0.625, -0.625]]]]> : tensor<12x8x3x3xf32>
  %r = graph.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x15x17xf32>, tensor<12x8x3x3xf32>) -> tensor<1x12x15x17xf32>
  %z = graph.relu %r : tensor<1x12x15x17xf32> -> tensor<1x12x15x17xf32>
  return %z : tensor<1x12x15x17xf32>
}

func.func @depthwise_rows(%x: tensor<2x6x20x35xf32>, %w: tensor<6x1x3x3xf32>, %b: tensor<6xf32>) -> tensor<2x6x20x35xf32> {
  %r = graph.conv2d %x, %w, %b {padding = array<i64: 1, 1, 1, 1>, groups = 6 : i64} : (tensor<2x6x20x35xf32>, tensor<6x1x3x3xf32>, tensor<6xf32>) -> tensor<2x6x20x35xf32>
  return %r : tensor<2x6x20x35xf32>
}

func.func @depthwise_5x5_stride2(%x: tensor<1x8x23x37xf32>, %w: tensor<8x1x5x5xf32>) -> tensor<1x8x12x19xf32> {
  %r = graph.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 2, 2, 2, 2>, groups = 8 : i64} : (tensor<1x8x23x37xf32>, tensor<8x1x5x5xf32>) -> tensor<1x8x12x19xf32>
  return %r : tensor<1x8x12x19xf32>
}

func.func @direct_rows_epilogue(%x: tensor<2x3x9x36xf32>, %b: tensor<16xf32>, %res: tensor<2x16x7x34xf32>) -> tensor<2x16x7x34xf32> {
  %w = graph.constant dense<[[[[-0.625, -0.5, -0.375], [0.0, 0.125, 0.25], [0.625, -0.625, -0.5]], [[-0.25, -0.125, 0.0], [0.375, 0.5, 0.625], [-0.375, -0.25, -0.125]], [[0.125, 0.25, 0.375], [-0.625, -0.5, -0.375], [0.0, 0.125, 0.25]]], [[[0.25, 0.375, 0.5], [-0.5, -0.375, -0.25], [0.125, 0.25, 0.375]], [[0.625, -0.625, -0.5], [-0.125, 0.0, 0.125], [0.5, 0.625, -0.625]], [[-0.375, -0.25, -0.125], [0.25, 0.375, 0.5], [-0.5, -0.375, -0.25]]], [[[-0.25, -0.125, 0.0], [0.375, 0.5, 0.625], [-0.375, -0.25, -0.125]], [[0.125, 0.25, 0.375], [-0.625, -0.5, -0.375], [0.0, 0.125, 0.25]], [[0.5, 0.625, -0.625], [-0.25, -0.125, 0.0], [0.375, 0.5, 0.625]]], [[[0.625, -0.625, -0.5], [-0.125, 0.0, 0.125], [0.5, 0.625, -0.625]], [[-0.375, -0.25, -0.125], [0.25, 0.375, 0.5], [-0.5, -0.375, -0.25]], [[0.0, 0.125, 0.25], [0.625, -0.625, -0.5], [-0.125, 0.0, 0.125]]], [[[0.125, 0.25, 0.375], [-0.625, -0.5, -0.375], [0.0, 0.125, 0.25]], [[0.5, 0.625, -0.625], [-0.25, -0.125, 0.0], [0.375, 0.5, 0.625]], [[-0.5, -0.375, -0.25], [0.125, 0.25, 0.375], [-0.625, -0.5, -0.375]]], [[[-0.375, -0.25, -0.125], [0.25, 0.375, 0.5], [-0.5, -0.375, -0.25]], [[0.0, 0.125, 0.25], [0.625, -0.625, -0.5], [-0.125, 0.0, 0.125]], [[0.375, 0.5, 0.625], [-0.375, -0.25, -0.125], [0.25, 0.375, 0.5]]], [[[0.5, 0.625, -0.625], [-0.25, -0.125, 0.0], [0.375, 0.5, 0.625]], [[-0.5, -0.375, -0.25], [0.125, 0.25, 0.375], [-0.625, -0.5, -0.375]], [[-0.125, 0.0, 0.125], [0.5, 0.625, -0.625], [-0.25, -0.125, 0.0]]], [[[0.0, 0.125, 0.25], [0.625, -0.625, -0.5], [-0.125, 0.0, 0.125]], [[0.375, 0.5, 0.625], [-0.375, -0.25, -0.125], [0.25, 0.375, 0.5]], [[-0.625, -0.5, -0.375], [0.0, 0.125, 0.25], [0.625, -0.625, -0.5]]], [[[-0.5, -0.375, -0.25], [0.125, 0.25, 0.375], [-0.625, -0.5, -0.375]], [[-0.125, 0.0, 0.125], [0.5, 0.625, -0.625], [-0.25, -0.125, 0.0]], [[0.25, 0.375, 0.5], [-0.5, -0.375, -0.25], [0.125, 0.25, 0.375]]], [[[0.375, 0.5, 0.625], [-0.375, -0.25, -0.125], [0.25, 0.375, 0.5]], [[-0.625, -0.5, -0.375], [0.0, 0.125, 0.25], [0.625, -0.625, -0.5]], [[-0.25, -0.125, 0.0], [0.375, 0.5, 0.625], [-0.375, -0.25, -0.125]]], [[[-0.125, 0.0, 0.125], [0.5, 0.625, -0.625], [-0.25, -0.125, 0.0]], [[0.25, 0.375, 0.5], [-0.5, -0.375, -0.25], [0.125, 0.25, 0.375]], [[0.625, -0.625, -0.5], [-0.125, 0.0, 0.125], [0.5, 0.625, -0.625]]], [[[-0.625, -0.5, -0.375], [0.0, 0.125, 0.25], [0.625, -0.625, -0.5]], [[-0.25, -0.125, 0.0], [0.375, 0.5, 0.625], [-0.375, -0.25, -0.125]], [[0.125, 0.25, 0.375], [-0.625, -0.5, -0.375], [0.0, 0.125, 0.25]]], [[[0.25, 0.375, 0.5], [-0.5, -0.375, -0.25], [0.125, 0.25, 0.375]], [[0.625, -0.625, -0.5], [-0.125, 0.0, 0.125], [0.5, 0.625, -0.625]], [[-0.375, -0.25, -0.125], [0.25, 0.375, 0.5], [-0.5, -0.375, -0.25]]], [[[-0.25, -0.125, 0.0], [0.375, 0.5, 0.625], [-0.375, -0.25, -0.125]], [[0.125, 0.25, 0.375], [-0.625, -0.5, -0.375], [0.0, 0.125, 0.25]], [[0.5, 0.625, -0.625], [-0.25, -0.125, 0.0], [0.375, 0.5, 0.625]]], [[[0.625, -0.625, -0.5], [-0.125, 0.0, 0.125], [0.5, 0.625, -0.625]], [[-0.375, -0.25, -0.125], [0.25, 0.375, 0.5], [-0.5, -0.375, -0.25]], [[0.0, 0.125, 0.25], [0.625, -0.625, -0.5], [-0.125, 0.0, 0.125]]], [[[0.125, 0.25, 0.375], [-0.625, -0.5, -0.375], [0.0, 0.125, 0.25]], [[0.5, 0.625, -0.625], [-0.25, -0.125, 0.0], [0.375, 0.5, 0.625]], [[-0.5, -0.375, -0.25], [0.125, 0.25, 0.375], [-0.625, -0.5, -0.375]]]]> : tensor<16x3x3x3xf32>
  %r = graph.conv2d %x, %w, %b : (tensor<2x3x9x36xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<2x16x7x34xf32>
  %s = graph.add %r, %res : tensor<2x16x7x34xf32>, tensor<2x16x7x34xf32> -> tensor<2x16x7x34xf32>
  %z = graph.relu %s : tensor<2x16x7x34xf32> -> tensor<2x16x7x34xf32>
  return %z : tensor<2x16x7x34xf32>
}

func.func @direct_rows_pool(%x: tensor<2x3x11x38xf32>, %b: tensor<16xf32>) -> tensor<2x16x4x18xf32> {
  %w = graph.constant dense<[[[[-0.625, -0.5, -0.375], [0.0, 0.125, 0.25], [0.625, -0.625, -0.5]], [[-0.25, -0.125, 0.0], [0.375, 0.5, 0.625], [-0.375, -0.25, -0.125]], [[0.125, 0.25, 0.375], [-0.625, -0.5, -0.375], [0.0, 0.125, 0.25]]], [[[0.25, 0.375, 0.5], [-0.5, -0.375, -0.25], [0.125, 0.25, 0.375]], [[0.625, -0.625, -0.5], [-0.125, 0.0, 0.125], [0.5, 0.625, -0.625]], [[-0.375, -0.25, -0.125], [0.25, 0.375, 0.5], [-0.5, -0.375, -0.25]]], [[[-0.25, -0.125, 0.0], [0.375, 0.5, 0.625], [-0.375, -0.25, -0.125]], [[0.125, 0.25, 0.375], [-0.625, -0.5, -0.375], [0.0, 0.125, 0.25]], [[0.5, 0.625, -0.625], [-0.25, -0.125, 0.0], [0.375, 0.5, 0.625]]], [[[0.625, -0.625, -0.5], [-0.125, 0.0, 0.125], [0.5, 0.625, -0.625]], [[-0.375, -0.25, -0.125], [0.25, 0.375, 0.5], [-0.5, -0.375, -0.25]], [[0.0, 0.125, 0.25], [0.625, -0.625, -0.5], [-0.125, 0.0, 0.125]]], [[[0.125, 0.25, 0.375], [-0.625, -0.5, -0.375], [0.0, 0.125, 0.25]], [[0.5, 0.625, -0.625], [-0.25, -0.125, 0.0], [0.375, 0.5, 0.625]], [[-0.5, -0.375, -0.25], [0.125, 0.25, 0.375], [-0.625, -0.5, -0.375]]], [[[-0.375, -0.25, -0.125], [0.25, 0.375, 0.5], [-0.5, -0.375, -0.25]], [[0.0, 0.125, 0.25], [0.625, -0.625, -0.5], [-0.125, 0.0, 0.125]], [[0.375, 0.5, 0.625], [-0.375, -0.25, -0.125], [0.25, 0.375, 0.5]]], [[[0.5, 0.625, -0.625], [-0.25, -0.125, 0.0], [0.375, 0.5, 0.625]], [[-0.5, -0.375, -0.25], [0.125, 0.25, 0.375], [-0.625, -0.5, -0.375]], [[-0.125, 0.0, 0.125], [0.5, 0.625, -0.625], [-0.25, -0.125, 0.0]]], [[[0.0, 0.125, 0.25], [0.625, -0.625, -0.5], [-0.125, 0.0, 0.125]], [[0.375, 0.5, 0.625], [-0.375, -0.25, -0.125], [0.25, 0.375, 0.5]], [[-0.625, -0.5, -0.375], [0.0, 0.125, 0.25], [0.625, -0.625, -0.5]]], [[[-0.5, -0.375, -0.25], [0.125, 0.25, 0.375], [-0.625, -0.5, -0.375]], [[-0.125, 0.0, 0.125], [0.5, 0.625, -0.625], [-0.25, -0.125, 0.0]], [[0.25, 0.375, 0.5], [-0.5, -0.375, -0.25], [0.125, 0.25, 0.375]]], [[[0.375, 0.5, 0.625], [-0.375, -0.25, -0.125], [0.25, 0.375, 0.5]], [[-0.625, -0.5, -0.375], [0.0, 0.125, 0.25], [0.625, -0.625, -0.5]], [[-0.25, -0.125, 0.0], [0.375, 0.5, 0.625], [-0.375, -0.25, -0.125]]], [[[-0.125, 0.0, 0.125], [0.5, 0.625, -0.625], [-0.25, -0.125, 0.0]], [[0.25, 0.375, 0.5], [-0.5, -0.375, -0.25], [0.125, 0.25, 0.375]], [[0.625, -0.625, -0.5], [-0.125, 0.0, 0.125], [0.5, 0.625, -0.625]]], [[[-0.625, -0.5, -0.375], [0.0, 0.125, 0.25], [0.625, -0.625, -0.5]], [[-0.25, -0.125, 0.0], [0.375, 0.5, 0.625], [-0.375, -0.25, -0.125]], [[0.125, 0.25, 0.375], [-0.625, -0.5, -0.375], [0.0, 0.125, 0.25]]], [[[0.25, 0.375, 0.5], [-0.5, -0.375, -0.25], [0.125, 0.25, 0.375]], [[0.625, -0.625, -0.5], [-0.125, 0.0, 0.125], [0.5, 0.625, -0.625]], [[-0.375, -0.25, -0.125], [0.25, 0.375, 0.5], [-0.5, -0.375, -0.25]]], [[[-0.25, -0.125, 0.0], [0.375, 0.5, 0.625], [-0.375, -0.25, -0.125]], [[0.125, 0.25, 0.375], [-0.625, -0.5, -0.375], [0.0, 0.125, 0.25]], [[0.5, 0.625, -0.625], [-0.25, -0.125, 0.0], [0.375, 0.5, 0.625]]], [[[0.625, -0.625, -0.5], [-0.125, 0.0, 0.125], [0.5, 0.625, -0.625]], [[-0.375, -0.25, -0.125], [0.25, 0.375, 0.5], [-0.5, -0.375, -0.25]], [[0.0, 0.125, 0.25], [0.625, -0.625, -0.5], [-0.125, 0.0, 0.125]]], [[[0.125, 0.25, 0.375], [-0.625, -0.5, -0.375], [0.0, 0.125, 0.25]], [[0.5, 0.625, -0.625], [-0.25, -0.125, 0.0], [0.375, 0.5, 0.625]], [[-0.5, -0.375, -0.25], [0.125, 0.25, 0.375], [-0.625, -0.5, -0.375]]]]> : tensor<16x3x3x3xf32>
  %r = graph.conv2d %x, %w, %b : (tensor<2x3x11x38xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<2x16x9x36xf32>
  %z = graph.relu %r : tensor<2x16x9x36xf32> -> tensor<2x16x9x36xf32>
  %p = graph.max_pool2d %z {kernel = array<i64: 2, 2>} : (tensor<2x16x9x36xf32>) -> tensor<2x16x4x18xf32>
  return %p : tensor<2x16x4x18xf32>
}

func.func @pool_rows(%x: tensor<2x3x10x45xf32>) -> (tensor<2x3x5x22xf32>, tensor<2x3x5x23xf32>, tensor<2x3x5x23xf32>) {
  %m = graph.max_pool2d %x {kernel = array<i64: 2, 2>} : (tensor<2x3x10x45xf32>) -> tensor<2x3x5x22xf32>
  %p = graph.max_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<2x3x10x45xf32>) -> tensor<2x3x5x23xf32>
  %a = graph.avg_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<2x3x10x45xf32>) -> tensor<2x3x5x23xf32>
  return %m, %p, %a : tensor<2x3x5x22xf32>, tensor<2x3x5x23xf32>, tensor<2x3x5x23xf32>
}

func.func @phase_stem(%x: tensor<2x3x117x118xf32>) -> tensor<2x16x59x59xf32> {
  %w = graph.constant dense<[[[[-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125], [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, -0.625], [0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0], [-0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625], [0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125], [-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5], [0.375, 0.5, 0.625, -0.625, -0.5, -0.375, -0.25]], [[-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5], [0.375, 0.5, 0.625, -0.625, -0.5, -0.375, -0.25], [-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375], [0.25, 0.375, 0.5, 0.625, -0.625, -0.5, -0.375], [-0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25], [0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5], [-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125]], [[0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5], [-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125], [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, -0.625], [0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0], [-0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625], [0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125], [-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5]]], [[[0.25, 0.375, 0.5, 0.625, -0.625, -0.5, -0.375], [-0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25], [0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5], [-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125], [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, -0.625], [0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0], [-0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625]], [[0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0], [-0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625], [0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125], [-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5], [0.375, 0.5, 0.625, -0.625, -0.5, -0.375, -0.25], [-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375], [0.25, 0.375, 0.5, 0.625, -0.625, -0.5, -0.375]], [[-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375], [0.25, 0.375, 0.5, 0.625, -0.625, -0.5, -0.375], [-0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25], [0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5], [-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125], [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, -0.625], [0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0]]], [[[-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5], [0.375, 0.5, 0.625, -0.625, -0.5, -0.375, -0.25], [-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375], [0.25, 0.375, 0.5, 0.625, -0.625, -0.5, -0.375], [-0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25], [0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5], [-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125]], [[0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5], [-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125], [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, -0.625], [0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0], [-0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625], [0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125], [-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5]], [[0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125], [-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5], [0.375, 0.5, 0.625, -0.625, -0.5, -0.375, -0.25], [-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375], [0.25, 0.375, 0.5, 0.625, -0.625, -0.5, -0.375], [-0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25], [0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5]]], [[[0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0], [-0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625], [0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125], [-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5], [0.375, 0.5, 0.625, -0.625, -0.5, -0.375, -0.25], [-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375], [0.25, 0.375, 0.5, 0.625, -0.625, -0.5, -0.375]], [[-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375], [0.25, 0.375, 0.5, 0.625, -0.625, -0.5, -0.375], [-0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25], [0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5], [-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125], [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, -0.625], [0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0]], [[0.0, 0.125, 0.25, 0.375, 0.5, 0.625, -0.625], [0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0], [-0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625], [0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125], [-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5], [0.375, 0.5, 0.625, -0.625, -0.5, -0.375, -0.25], [-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375]]], [[[0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5], [-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125], [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, -0.625], [0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0], [-0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625], [0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125], [-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5]], [[0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125], [-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5], [0.375, 0.5, 0.625, -0.625, -0.5, -0.375, -0.25], [-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375], [0.25, 0.375, 0.5, 0.625, -0.625, -0.5, -0.375], [-0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25], [0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5]], [[-0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25], [0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5], [-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125], [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, -0.625], [0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0], [-0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625], [0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125]]], [[[-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375], [0.25, 0.375, 0.5, 0.625, -0.625, -0.5, -0.375], [-0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25], [0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5], [-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125], [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, -0.625], [0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0]], [[0.0, 0.125, 0.25, 0.375, 0.5, 0.625, -0.625], [0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0], [-0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625], [0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125], [-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5], [0.375, 0.5, 0.625, -0.625, -0.5, -0.375, -0.25], [-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375]], [[0.375, 0.5, 0.625, -0.625, -0.5, -0.375, -0.25], [-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375], [0.25, 0.375, 0.5, 0.625, -0.625, -0.5, -0.375], [-0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25], [0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5], [-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125], [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, -0.625]]], [[[0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125], [-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5], [0.375, 0.5, 0.625, -0.625, -0.5, -0.375, -0.25], [-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375], [0.25, 0.375, 0.5, 0.625, -0.625, -0.5, -0.375], [-0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25], [0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5]], [[-0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25], [0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5], [-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125], [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, -0.625], [0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0], [-0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625], [0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125]], [[-0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625], [0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125], [-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5], [0.375, 0.5, 0.625, -0.625, -0.5, -0.375, -0.25], [-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375], [0.25, 0.375, 0.5, 0.625, -0.625, -0.5, -0.375], [-0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25]]], [[[0.0, 0.125, 0.25, 0.375, 0.5, 0.625, -0.625], [0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0], [-0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625], [0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125], [-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5], [0.375, 0.5, 0.625, -0.625, -0.5, -0.375, -0.25], [-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375]], [[0.375, 0.5, 0.625, -0.625, -0.5, -0.375, -0.25], [-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375], [0.25, 0.375, 0.5, 0.625, -0.625, -0.5, -0.375], [-0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25], [0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5], [-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125], [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, -0.625]], [[-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125], [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, -0.625], [0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0], [-0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625], [0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125], [-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5], [0.375, 0.5, 0.625, -0.625, -0.5, -0.375, -0.25]]], [[[-0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25], [0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5], [-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125], [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, -0.625], [0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0], [-0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625], [0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125]], [[-0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625], [0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125], [-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5], [0.375, 0.5, 0.625, -0.625, -0.5, -0.375, -0.25], [-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375], [0.25, 0.375, 0.5, 0.625, -0.625, -0.5, -0.375], [-0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25]], [[0.25, 0.375, 0.5, 0.625, -0.625, -0.5, -0.375], [-0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25], [0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5], [-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125], [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, -0.625], [0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0], [-0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625]]], [[[0.375, 0.5, 0.625, -0.625, -0.5, -0.375, -0.25], [-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375], [0.25, 0.375, 0.5, 0.625, -0.625, -0.5, -0.375], [-0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25], [0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5], [-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125], [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, -0.625]], [[-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125], [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, -0.625], [0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0], [-0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625], [0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125], [-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5], [0.375, 0.5, 0.625, -0.625, -0.5, -0.375, -0.25]], [[-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5], [0.375, 0.5, 0.625, -0.625, -0.5, -0.375, -0.25], [-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375], [0.25, 0.375, 0.5, 0.625, -0.625, -0.5, -0.375], [-0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25], [0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5], [-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125]]], [[[-0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625], [0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125], [-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5], [0.375, 0.5, 0.625, -0.625, -0.5, -0.375, -0.25], [-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375], [0.25, 0.375, 0.5, 0.625, -0.625, -0.5, -0.375], [-0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25]], [[0.25, 0.375, 0.5, 0.625, -0.625, -0.5, -0.375], [-0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25], [0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5], [-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125], [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, -0.625], [0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0], [-0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625]], [[0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0], [-0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625], [0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125], [-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5], [0.375, 0.5, 0.625, -0.625, -0.5, -0.375, -0.25], [-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375], [0.25, 0.375, 0.5, 0.625, -0.625, -0.5, -0.375]]], [[[-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125], [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, -0.625], [0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0], [-0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625], [0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125], [-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5], [0.375, 0.5, 0.625, -0.625, -0.5, -0.375, -0.25]], [[-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5], [0.375, 0.5, 0.625, -0.625, -0.5, -0.375, -0.25], [-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375], [0.25, 0.375, 0.5, 0.625, -0.625, -0.5, -0.375], [-0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25], [0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5], [-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125]], [[0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5], [-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125], [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, -0.625], [0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0], [-0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625], [0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125], [-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5]]], [[[0.25, 0.375, 0.5, 0.625, -0.625, -0.5, -0.375], [-0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25], [0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5], [-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125], [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, -0.625], [0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0], [-0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625]], [[0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0], [-0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625], [0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125], [-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5], [0.375, 0.5, 0.625, -0.625, -0.5, -0.375, -0.25], [-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375], [0.25, 0.375, 0.5, 0.625, -0.625, -0.5, -0.375]], [[-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375], [0.25, 0.375, 0.5, 0.625, -0.625, -0.5, -0.375], [-0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25], [0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5], [-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125], [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, -0.625], [0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0]]], [[[-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5], [0.375, 0.5, 0.625, -0.625, -0.5, -0.375, -0.25], [-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375], [0.25, 0.375, 0.5, 0.625, -0.625, -0.5, -0.375], [-0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25], [0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5], [-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125]], [[0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5], [-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125], [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, -0.625], [0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0], [-0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625], [0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125], [-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5]], [[0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125], [-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5], [0.375, 0.5, 0.625, -0.625, -0.5, -0.375, -0.25], [-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375], [0.25, 0.375, 0.5, 0.625, -0.625, -0.5, -0.375], [-0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25], [0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5]]], [[[0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0], [-0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625], [0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125], [-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5], [0.375, 0.5, 0.625, -0.625, -0.5, -0.375, -0.25], [-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375], [0.25, 0.375, 0.5, 0.625, -0.625, -0.5, -0.375]], [[-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375], [0.25, 0.375, 0.5, 0.625, -0.625, -0.5, -0.375], [-0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25], [0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5], [-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125], [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, -0.625], [0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0]], [[0.0, 0.125, 0.25, 0.375, 0.5, 0.625, -0.625], [0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0], [-0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625], [0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125], [-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5], [0.375, 0.5, 0.625, -0.625, -0.5, -0.375, -0.25], [-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375]]], [[[0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5], [-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125], [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, -0.625], [0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0], [-0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625], [0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125], [-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5]], [[0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125], [-0.25, -0.125, 0.0, 0.125, 0.25, 0.375, 0.5], [0.375, 0.5, 0.625, -0.625, -0.5, -0.375, -0.25], [-0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375], [0.25, 0.375, 0.5, 0.625, -0.625, -0.5, -0.375], [-0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25], [0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5]], [[-0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25], [0.125, 0.25, 0.375, 0.5, 0.625, -0.625, -0.5], [-0.625, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125], [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, -0.625], [0.625, -0.625, -0.5, -0.375, -0.25, -0.125, 0.0], [-0.125, 0.0, 0.125, 0.25, 0.375, 0.5, 0.625], [0.5, 0.625, -0.625, -0.5, -0.375, -0.25, -0.125]]]]> : tensor<16x3x7x7xf32>
  %r = graph.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 3, 3, 3, 3>} : (tensor<2x3x117x118xf32>, tensor<16x3x7x7xf32>) -> tensor<2x16x59x59xf32>
  return %r : tensor<2x16x59x59xf32>
}

func.func @phase_even(%x: tensor<1x5x120x125xf32>, %w: tensor<8x5x4x4xf32>, %b: tensor<8xf32>) -> tensor<1x8x60x63xf32> {
  %r = graph.conv2d %x, %w, %b {strides = array<i64: 2, 2>, padding = array<i64: 1, 2, 2, 1>} : (tensor<1x5x120x125xf32>, tensor<8x5x4x4xf32>, tensor<8xf32>) -> tensor<1x8x60x63xf32>
  return %r : tensor<1x8x60x63xf32>
}
