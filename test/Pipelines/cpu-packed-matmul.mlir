// The CPU pipeline on a matmul large enough for the packed kernel, with a
// fused bias + ReLU epilogue (one output group, 256 x 256 tiles):
//  - after tiling, A is packed into [M/8][K][8] micro-panels and B into [N/32][K][32]
//    panels once, outside the group's tile loop; inside each 256-column
//    tile the register kernel (8 x 32 block, unit k step of FMAs on 32-lane
//    rows), with bias + ReLU applied to the block in registers in the last
//    reduction block (K = 512 in two blocks of 256) before its one store;
//  - after llc, the inner loop prefetches the next B panel's row into L2
//    (512 rows x 32 floats further on: 65536 bytes; graph-cpu-prefetch),
//    loads B's row, broadcasts A's 8 floats from its micro-panel one by
//    one (a scalar load each, folded into vbroadcastss) and multiplies zmm
//    registers.
// RUN: graph-opt %s --mlir-disable-threading --graph-cpu-pipeline="vector-width=16" --mlir-print-ir-after=graph-cpu-tile-and-vectorize -o /dev/null 2>&1 | FileCheck %s --check-prefix=TILE
// RUN: graph-opt %s --graph-cpu-pipeline="vector-width=16" | mlir-translate --mlir-to-llvmir | llc -O3 -mattr=+avx512f | FileCheck %s --check-prefix=ASM

// TILE-LABEL: func.func @main
// TILE: tensor.expand_shape %arg0 {{\[}}[0, 1], [2]] output_shape [32, 8, 512]
// TILE: scf.for {{.+}} -> (tensor<32x512x8xf32>)
// TILE: tensor.expand_shape %arg1 {{\[}}[0], [1, 2]] output_shape [512, 16, 32]
// TILE: scf.for {{.+}} -> (tensor<16x512x32xf32>)
// TILE: scf.for %{{.+}} = %c0 to %c512 step %c256 iter_args(%{{.+}}) -> (tensor<256x512xf32>)
// TILE: scf.for {{.+}} iter_args({{.+}}) -> ({{.*}}vector<8x32xf32>)
// TILE-COUNT-8: vector.fma {{.+}} : vector<32xf32>
// TILE: scf.if {{.+}} -> (vector<8x32xf32>)
// TILE-COUNT-8: arith.maximumf {{.+}} : vector<32xf32>
// TILE-NOT: linalg.generic

// ASM: prefetcht1 65536(%{{.+}})
// ASM: vmovups ({{.+}}), %zmm{{[0-9]+}}
// ASM: vbroadcastss {{-?[0-9]*}}({{.+}}), %zmm{{[0-9]+}}
// ASM: vfmadd231ps %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm{{[0-9]+}}
func.func @main(%x: tensor<256x512xf32>, %w: tensor<512x512xf32>, %b: tensor<512xf32>) -> tensor<256x512xf32> {
  %m = graph.matmul %x, %w : tensor<256x512xf32>, tensor<512x512xf32> -> tensor<256x512xf32>
  %a = graph.add %m, %b : tensor<256x512xf32>, tensor<512xf32> -> tensor<256x512xf32>
  %r = graph.relu %a : tensor<256x512xf32> -> tensor<256x512xf32>
  return %r : tensor<256x512xf32>
}
