// RUN: graph-opt %s -split-input-file -convert-fusion-attention | FileCheck %s
// RUN: graph-opt %s -split-input-file -convert-fusion-attention="block-rows=32 block-cols=16" | FileCheck %s --check-prefix=BLOCKS
// RUN: not graph-opt %s -split-input-file -convert-fusion-attention="block-rows=0" 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: convert-fusion-attention: block sizes must be positive, got 0x64

// Batch loop, query blocks of 64 rows with (Q * scale)^T once per block, key
// blocks of 64 carrying (m, l, acc). The scores are transposed (S^T = K
// (Q * scale)^T, keys down, read from K in place: no transpose of K), so
// the row max and row sum reduce over the rows of S^T (iterators reduction,
// parallel) and P^T V is a matmul with transposed-A maps; no index mask
// without causal/padding.
// CHECK-DAG: #[[SWAP:[a-z0-9_]+]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[PT:[a-z0-9_]+]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-LABEL: func.func @plain
// CHECK-SAME: (%[[Q:[a-z0-9_]+]]: tensor<2x128x64xf32>, %[[K:[a-z0-9_]+]]: tensor<2x128x64xf32>, %[[V:[a-z0-9_]+]]: tensor<2x128x64xf32>)
// CHECK-DAG: %[[C64:[a-z0-9_]+]] = arith.constant 64 : index
// CHECK-DAG: %[[C128:[a-z0-9_]+]] = arith.constant 128 : index
// CHECK-DAG: %[[C2:[a-z0-9_]+]] = arith.constant 2 : index
// CHECK-DAG: %[[SCALE:[a-z0-9_]+]] = arith.constant 1.250000e-01 : f32
// CHECK: %[[OUT:[a-z0-9_]+]] = tensor.empty() : tensor<2x128x64xf32>
// CHECK: %[[R:[a-z0-9_]+]] = scf.for %[[B:[a-z0-9_]+]] = %{{.+}} to %[[C2]] step %{{.+}} iter_args(%{{.+}} = %[[OUT]])
// CHECK: %[[KB:[a-z0-9_]+]] = tensor.extract_slice %[[K]][%[[B]], 0, 0] [1, 128, 64] [1, 1, 1] : tensor<2x128x64xf32> to tensor<128x64xf32>
// CHECK-NOT: linalg.transpose
// CHECK: scf.for %[[I0:[a-z0-9_]+]] = %{{.+}} to %[[C128]] step %[[C64]]
// CHECK: %[[QST:[a-z0-9_]+]] = linalg.generic {indexing_maps = [#[[SWAP]], #{{.+}}]
// CHECK: arith.mulf %{{.+}}, %[[SCALE]]
// CHECK: scf.for %[[J0:[a-z0-9_]+]] = %{{.+}} to %[[C128]] step %[[C64]] iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>)
// CHECK: %[[KBLK:[a-z0-9_]+]] = tensor.extract_slice %[[KB]][%[[J0]], 0] [64, 64] [1, 1]
// CHECK: %[[S:[a-z0-9_]+]] = linalg.matmul ins(%[[KBLK]], %[[QST]] : tensor<64x64xf32>, tensor<64x64xf32>) outs(%{{.+}} : tensor<64x64xf32>) -> tensor<64x64xf32>
// CHECK-NOT: linalg.index
// CHECK: linalg.generic {{.+}} iterator_types = ["reduction", "parallel"]} ins(%[[S]] : tensor<64x64xf32>)
// CHECK: arith.maximumf
// CHECK: math.exp
// CHECK: %[[P:[a-z0-9_]+]] = linalg.generic {{.+}} outs(%[[S]] : tensor<64x64xf32>)
// CHECK: math.exp
// CHECK: linalg.generic {{.+}} iterator_types = ["reduction", "parallel"]} ins(%[[P]] : tensor<64x64xf32>)
// CHECK: arith.addf
// CHECK: arith.mulf
// CHECK: linalg.matmul indexing_maps = [#[[PT]], #{{.+}}, #{{.+}}] ins(%[[P]], %{{.+}} : tensor<64x64xf32>, tensor<64x64xf32>) outs(%{{.+}} : tensor<64x64xf32>)
// CHECK: scf.yield
// CHECK: arith.divf
// CHECK: tensor.insert_slice %{{.+}} into %{{.+}}[%[[B]], %[[I0]], 0] [1, 64, 64] [1, 1, 1] : tensor<64x64xf32> into tensor<2x128x64xf32>
// CHECK: return %[[R]]

// BLOCKS-LABEL: func.func @plain
// BLOCKS: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c32
// BLOCKS: linalg.generic {{.+}} outs(%{{.+}} : tensor<64x32xf32>)
// BLOCKS: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c16 {{.+}} -> (tensor<32xf32>, tensor<32xf32>, tensor<32x64xf32>)
// BLOCKS: linalg.matmul {{.+}} -> tensor<16x32xf32>
func.func @plain(%q: tensor<2x128x64xf32>, %k: tensor<2x128x64xf32>, %v: tensor<2x128x64xf32>) -> tensor<2x128x64xf32> {
  %o = fusion.attention %q, %k, %v : (tensor<2x128x64xf32>, tensor<2x128x64xf32>, tensor<2x128x64xf32>) -> tensor<2x128x64xf32>
  return %o : tensor<2x128x64xf32>
}

// -----

// L = 77 and S = 130 split evenly: 2 query blocks of 40 rows, 3 key blocks
// of 48 (padded to 80 and 144). K and V are padded with zeros, the mask
// once and transposed once to the layout of the score blocks ([S, L]; a
// boolean one converted to i8 first, so that the blocks reading it
// vectorize); the last query block writes its 37 valid rows. Causal: key
// blocks end at the diagonal; those left of `split` (below the diagonal, all
// keys valid) skip the index mask, the others compare positions (key: dim
// 0 of the transposed block, query: dim 1).
// CHECK-LABEL: func.func @causal_padded
// CHECK: %[[M8:[a-z0-9_]+]] = linalg.generic {{.+}} ins(%{{.+}} : tensor<77x130xi1>) outs(%{{.+}} : tensor<77x130xi8>)
// CHECK: arith.extui %{{.+}} : i1 to i8
// CHECK: %[[MP:[a-z0-9_]+]] = tensor.insert_slice %[[M8]] into %{{.+}}[0, 0] [77, 130] [1, 1] : tensor<77x130xi8> into tensor<80x144xi8>
// CHECK: %[[MT:[a-z0-9_]+]] = linalg.transpose ins(%[[MP]] : tensor<80x144xi8>) outs(%{{.+}} : tensor<144x80xi8>) permutation = [1, 0]
// CHECK: scf.for %[[B:[a-z0-9_]+]] =
// CHECK: tensor.insert_slice %{{.+}} into %{{.+}}[0, 0] [130, 16] [1, 1] : tensor<130x16xf32> into tensor<144x16xf32>
// CHECK: tensor.insert_slice %{{.+}} into %{{.+}}[0, 0] [130, 8] [1, 1] : tensor<130x8xf32> into tensor<144x8xf32>
// CHECK: scf.for %[[I0:[a-z0-9_]+]] = %{{.+}} to %c80 step %c40
// CHECK: %[[ROWS:[a-z0-9_]+]] = affine.min #{{.+}}(%[[I0]])
// CHECK: tensor.extract_slice %{{.+}}[%[[I0]], 0] [%[[ROWS]], 16] [1, 1] : tensor<77x16xf32> to tensor<?x16xf32>
// CHECK: linalg.generic {{.+}} outs(%{{.+}} : tensor<16x40xf32>)
// CHECK: %[[FIRST:[a-z0-9_]+]]:3 = scf.for %[[J1:[a-z0-9_]+]] = %c0 to %[[SPLIT:[a-z0-9_]+]] step %c48
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<48x16xf32>, tensor<16x40xf32>) {{.+}} -> tensor<48x40xf32>
// CHECK: tensor.extract_slice %[[MT]][%[[J1]], %[[I0]]] [48, 40] [1, 1] : tensor<144x80xi8> to tensor<48x40xi8>
// CHECK-NOT: linalg.index
// CHECK: arith.cmpi ne
// CHECK: arith.select
// CHECK: scf.yield
// CHECK: scf.for %[[J0:[a-z0-9_]+]] = %[[SPLIT]] to %{{.+}} step %c48 iter_args(%{{.+}} = %[[FIRST]]#0, %{{.+}} = %[[FIRST]]#1, %{{.+}} = %[[FIRST]]#2)
// CHECK: linalg.generic
// CHECK: %[[J:[a-z0-9_]+]] = linalg.index 0 : index
// CHECK: %[[GJ:[a-z0-9_]+]] = arith.addi %[[J0]], %[[J]]
// CHECK: %[[I:[a-z0-9_]+]] = linalg.index 1 : index
// CHECK: %[[GI:[a-z0-9_]+]] = arith.addi %[[I0]], %[[I]]
// CHECK: %[[DIAG:[a-z0-9_]+]] = arith.cmpi ule, %[[GJ]], %[[GI]]
// CHECK: %[[VALID:[a-z0-9_]+]] = arith.cmpi ult, %[[GJ]], %c130
// CHECK: arith.andi %[[DIAG]], %[[VALID]]
// CHECK: tensor.extract_slice %{{.+}}[0, 0] [%[[ROWS]], 8] [1, 1] : tensor<40x8xf32> to tensor<?x8xf32>
// CHECK: tensor.insert_slice %{{.+}} into %{{.+}}[%[[B]], %[[I0]], 0] [1, %[[ROWS]], 8]
func.func @causal_padded(%q: tensor<3x77x16xf32>, %k: tensor<3x130x16xf32>, %v: tensor<3x130x8xf32>, %m: tensor<77x130xi1>) -> tensor<3x77x8xf32> {
  %o = fusion.attention %q, %k, %v mask(%m : tensor<77x130xi1>) causal : (tensor<3x77x16xf32>, tensor<3x130x16xf32>, tensor<3x130x8xf32>) -> tensor<3x77x8xf32>
  return %o : tensor<3x77x8xf32>
}

// -----

// f16 computes in f32: Q is widened and scaled once per block, the matmuls
// accumulate in f32, the result is rounded once. A 1-D float mask is read
// as [1, S] (transposed: [S, 1]) and broadcast along the rows. One block
// each way (L, S <= 64).
// CHECK-LABEL: func.func @f16_row_mask
// CHECK: tensor.expand_shape %{{.+}} {{\[}}[0, 1]] output_shape [1, 8] : tensor<8xf16> into tensor<1x8xf16>
// CHECK: arith.extf %{{.+}} : f16 to f32
// CHECK: arith.mulf %{{.+}}, %{{.+}} : f32
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x32xf16>, tensor<32x8xf32>) outs(%{{.+}} : tensor<8x8xf32>)
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}], iterator_types = ["parallel", "parallel"]} ins(%{{.+}} : tensor<8x1xf16>) outs(%{{.+}} : tensor<8x8xf32>)
// CHECK: arith.extf
// CHECK: arith.addf
// CHECK: linalg.matmul indexing_maps = [#{{.+}}, #{{.+}}, #{{.+}}] ins(%{{.+}}, %{{.+}} : tensor<8x8xf32>, tensor<8x16xf16>) outs(%{{.+}} : tensor<8x16xf32>)
// CHECK: arith.truncf %{{.+}} : f32 to f16
func.func @f16_row_mask(%q: tensor<8x32xf16>, %k: tensor<8x32xf16>, %v: tensor<8x16xf16>, %m: tensor<8xf16>) -> tensor<8x16xf16> {
  %o = fusion.attention %q, %k, %v mask(%m : tensor<8xf16>) : (tensor<8x32xf16>, tensor<8x32xf16>, tensor<8x16xf16>) -> tensor<8x16xf16>
  return %o : tensor<8x16xf16>
}

// -----

// Dynamic lengths: blocks of 64, padded lengths computed at run time.
// CHECK-LABEL: func.func @dynamic
// CHECK: %[[L:[a-z0-9_]+]] = tensor.dim %{{.+}}, %c1 : tensor<?x?x16xf32>
// CHECK: %[[LP:[a-z0-9_]+]] = affine.apply #{{.+}}()[%[[L]]]
// CHECK: scf.for
// CHECK: scf.for %{{.+}} = %{{.+}} to %[[LP]] step %c64
// CHECK: linalg.matmul {{.+}} -> tensor<64x64xf32>
func.func @dynamic(%q: tensor<?x?x16xf32>, %k: tensor<?x?x16xf32>, %v: tensor<?x?x8xf32>) -> tensor<?x?x8xf32> {
  %o = fusion.attention %q, %k, %v causal scale = 0.25 : (tensor<?x?x16xf32>, tensor<?x?x16xf32>, tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
  return %o : tensor<?x?x8xf32>
}

// -----

// Left for fusion-expand: the default scale needs a static head dim, and a
// mask with batch dims the result does not have.
// CHECK-LABEL: func.func @not_lowered
// CHECK: fusion.attention
// CHECK: fusion.attention
// CHECK-NOT: scf.for
func.func @not_lowered(%q: tensor<4x?xf32>, %k: tensor<6x?xf32>, %v: tensor<6x8xf32>,
                       %q3: tensor<1x4x8xf32>, %k3: tensor<1x6x8xf32>, %m: tensor<2x4x6xf32>) -> (tensor<4x8xf32>, tensor<1x4x8xf32>) {
  %o = fusion.attention %q, %k, %v : (tensor<4x?xf32>, tensor<6x?xf32>, tensor<6x8xf32>) -> tensor<4x8xf32>
  %o3 = fusion.attention %q3, %k3, %k3 mask(%m : tensor<2x4x6xf32>) : (tensor<1x4x8xf32>, tensor<1x6x8xf32>, tensor<1x6x8xf32>) -> tensor<1x4x8xf32>
  return %o, %o3 : tensor<4x8xf32>, tensor<1x4x8xf32>
}
