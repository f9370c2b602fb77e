// RUN: graph-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(graph-cpu-tile-and-vectorize{vector-width=16}))' | FileCheck %s

// A matmul becomes 8x32 register blocks: column blocks outermost, then row
// blocks, then a unit-step k loop whose accumulator (vector<8x32xf32>) is
// carried in registers (hoisted), with FMAs on 32-lane rows.
// CHECK-LABEL: func.func @matmul
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c32
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c8
// CHECK: vector.transfer_read {{.+}} vector<8x32xf32>
// CHECK: scf.for {{.+}} iter_args({{.+}}) -> ({{.*}}vector<8x32xf32>)
// CHECK-COUNT-8: vector.fma {{.+}} : vector<32xf32>
func.func @matmul(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// -----

// Elementwise: innermost dim in 16-lane vectors, outer dims in unit steps.
// CHECK-LABEL: func.func @elementwise
// CHECK: scf.for %{{.+}} step %c1
// CHECK: scf.for %{{.+}} step %c16
// CHECK: arith.addf %{{.+}}, %{{.+}} : vector<1x16xf32>
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @elementwise(%a: tensor<4x64xf32>, %b: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %r = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x64xf32>, tensor<4x64xf32>) outs(%a : tensor<4x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}

// -----

// An innermost dim of 20 is tiled by its largest divisor that fits a vector
// (10), so no tile is partial.
// CHECK-LABEL: func.func @odd_size
// CHECK: scf.for %{{.+}} step %c10
// CHECK: math.exp %{{.+}} : vector<1x10xf32>
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @odd_size(%a: tensor<3x20xf32>) -> tensor<3x20xf32> {
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<3x20xf32>) outs(%a : tensor<3x20xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  } -> tensor<3x20xf32>
  return %r : tensor<3x20xf32>
}

// -----

// Dynamic innermost dims and i1 data stay scalar (left for the loop
// lowering).
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: vector.
// CHECK: linalg.generic
// CHECK: linalg.generic
#map = affine_map<(d0) -> (d0)>
func.func @left_alone(%a: tensor<?xf32>, %m: tensor<8xi1>) -> (tensor<?xf32>, tensor<8xi1>) {
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : tensor<?xf32>) outs(%a : tensor<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<?xf32>
  %s = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%m : tensor<8xi1>) outs(%m : tensor<8xi1>) {
  ^bb0(%x: i1, %o: i1):
    %t = arith.constant true
    %n = arith.xori %x, %t : i1
    linalg.yield %n : i1
  } -> tensor<8xi1>
  return %r, %s : tensor<?xf32>, tensor<8xi1>
}

// -----

// A copy whose output dims permute its loops (the im2col of a convolution
// with pixels as the matmul's rows: out[oh][ow][c][kh][kw] =
// in[c][oh + kh][ow + kw]) runs its loops in the output's order, so the
// innermost loop (kw) reads and writes consecutive elements; in the loop
// order it came with (ow innermost) every write went 288 floats further.
// CHECK-LABEL: func.func @im2col
// CHECK: scf.for %{{.+}} = %c0 to %c7 step %c1
// CHECK-NEXT: scf.for %{{.+}} = %c0 to %c7 step %c1
// CHECK-NEXT: scf.for %{{.+}} = %c0 to %c32 step %c1
// CHECK-NEXT: scf.for %{{.+}} = %c0 to %c3 step %c1
// CHECK-NEXT: scf.for %{{.+}} = %c0 to %c3 step %c3
// CHECK: vector.transfer_read {{.+}} : tensor<1x1x3xf32>, vector<3xf32>
// CHECK: vector.transfer_write {{.+}} : vector<3xf32>, tensor<1x1x1x1x3xf32>
#in = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 + d3, d2 + d4)>
#out = affine_map<(d0, d1, d2, d3, d4) -> (d3, d4, d0, d1, d2)>
func.func @im2col(%x: tensor<32x9x9xf32>) -> tensor<7x7x32x3x3xf32> {
  %e = tensor.empty() : tensor<7x7x32x3x3xf32>
  %r = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<32x9x9xf32>) outs(%e : tensor<7x7x32x3x3xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<7x7x32x3x3xf32>
  return %r : tensor<7x7x32x3x3xf32>
}

// -----

// A transpose is tiled 16 x 16: 16 rows of the input read as vectors,
// transposed in registers by one shuffle, written as 16 rows of the output
// (not one scalar load per element).
// CHECK-LABEL: func.func @transpose
// CHECK: scf.for %{{.+}} = %c0 to %c48 step %c16
// CHECK-NEXT: scf.for %{{.+}} = %c0 to %c64 step %c16
// CHECK: vector.transfer_read {{.+}} : tensor<16x16xf32>, vector<16x16xf32>
// CHECK: vector.shuffle {{.+}} [0, 16, 32, 48, 64,
// CHECK: vector.transfer_write {{.+}} : vector<16x16xf32>, tensor<16x16xf32>
func.func @transpose(%x: tensor<64x48xf32>) -> tensor<48x64xf32> {
  %e = tensor.empty() : tensor<48x64xf32>
  %r = linalg.transpose ins(%x : tensor<64x48xf32>) outs(%e : tensor<48x64xf32>) permutation = [1, 0]
  return %r : tensor<48x64xf32>
}

// -----

// An elementwise op reading one input transposed (a convolution's epilogue
// on the [pixels][channels] matmul result, written NCHW) is tiled like a
// transpose: 16 channels x 14 pixels (196 = 14 x 14, not a power of two),
// the transposed input read as 14 rows of 16 and shuffled, the bias read
// once per tile, each output row written as 14 consecutive floats.
// CHECK-LABEL: func.func @transposed_epilogue
// CHECK: scf.for %{{.+}} = %c0 to %c64 step %c16
// CHECK-NEXT: scf.for %{{.+}} = %c0 to %c196 step %c14
// CHECK: vector.transfer_read {{.+}} : tensor<14x16xf32>, vector<14x16xf32>
// CHECK: vector.shuffle
// CHECK: vector.transfer_read {{.+}} : tensor<16xf32>, vector<16xf32>
// CHECK: arith.addf {{.+}} : vector<16x14xf32>
// CHECK: vector.transfer_write {{.+}} : vector<16x14xf32>, tensor<16x14xf32>
#t = affine_map<(d0, d1) -> (d1, d0)>
#b = affine_map<(d0, d1) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @transposed_epilogue(%m: tensor<196x64xf32>, %bias: tensor<64xf32>) -> tensor<64x196xf32> {
  %e = tensor.empty() : tensor<64x196xf32>
  %r = linalg.generic {indexing_maps = [#t, #b, #id], iterator_types = ["parallel", "parallel"]} ins(%m, %bias : tensor<196x64xf32>, tensor<64xf32>) outs(%e : tensor<64x196xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<64x196xf32>
  return %r : tensor<64x196xf32>
}

// -----

// The phase split ahead of a stride-2 or Winograd convolution (out[c, py,
// px, i, j] = in[c, 2i + py, 2j + px]) whose phase width, 29, no vector
// width divides: tiled per input row (channel, row phase, row), each
// 58-element row read as 32-lane vectors and split into its even (px = 0)
// and odd (px = 1) elements by two shuffles. One whole 16-column chunk in
// a loop, then a masked chunk for the last 13 columns (in_bounds not
// set). It was a scalar loop nest that LLVM unrolled into blocks of 1,400
// loads and stores. Numerics: test/Integration/conv-strategies.mlir
// (stride-2 and Winograd convolutions against NumPy).
// CHECK-LABEL: func.func @phase_split
// CHECK: scf.for %{{.+}} = %c0 to %c4 step %c1
// CHECK: scf.for %{{.+}} = %c0 to %c2 step %c1
// CHECK: scf.for %{{.+}} = %c0 to %c29 step %c1
// CHECK: %[[ROW:.+]] = tensor.extract_slice %{{.+}} [1, 1, 58] [1, 1, 1] : tensor<4x58x58xf32> to tensor<1x1x58xf32>
// CHECK: scf.for %[[J:.+]] = %c0 to %c16 step %c16
// CHECK: %[[COL:.+]] = arith.addi %[[J]], %[[J]]
// CHECK: %[[V:.+]] = vector.transfer_read %[[ROW]][%c0, %c0, %[[COL]]], %{{.+}} {in_bounds = [true]} : tensor<1x1x58xf32>, vector<32xf32>
// CHECK: %[[EVEN:.+]] = vector.shuffle %[[V]], %[[V]] [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30]
// CHECK: vector.transfer_write %[[EVEN]], %{{.+}}[%c0, %c0, %c0, %c0, %[[J]]] {in_bounds = [true]} : vector<16xf32>, tensor<1x1x2x1x29xf32>
// CHECK: %[[ODD:.+]] = vector.shuffle %[[V]], %[[V]] [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31]
// CHECK: vector.transfer_write %[[ODD]], %{{.+}}[%c0, %c0, %c1, %c0, %[[J]]] {in_bounds = [true]}
// CHECK: %[[TAIL:.+]] = vector.transfer_read %[[ROW]][%c0, %c0, %c32], %{{.+}} : tensor<1x1x58xf32>, vector<32xf32>
// CHECK: vector.shuffle %[[TAIL]], %[[TAIL]] [0, 2
// CHECK: vector.transfer_write %{{.+}}[%c0, %c0, %c0, %c0, %c16] : vector<16xf32>, tensor<1x1x2x1x29xf32>
// CHECK: vector.shuffle %[[TAIL]], %[[TAIL]] [1, 3
// CHECK: vector.transfer_write %{{.+}}[%c0, %c0, %c1, %c0, %c16] : vector<16xf32>, tensor<1x1x2x1x29xf32>
// CHECK: } {graphopt.parallel}
#in = affine_map<(c, py, px, i, j) -> (c, i * 2 + py, j * 2 + px)>
#out = affine_map<(c, py, px, i, j) -> (c, py, px, i, j)>
func.func @phase_split(%x: tensor<4x58x58xf32>) -> tensor<4x2x2x29x29xf32> {
  %e = tensor.empty() : tensor<4x2x2x29x29xf32>
  %r = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<4x58x58xf32>) outs(%e : tensor<4x2x2x29x29xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<4x2x2x29x29xf32>
  return %r : tensor<4x2x2x29x29xf32>
}
