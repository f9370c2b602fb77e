// RUN: graph-opt %s --split-input-file --graph-gpu-map-reductions | FileCheck %s
// RUN: graph-opt %s --split-input-file --graph-gpu-map-reductions=warps-per-block=8 | FileCheck %s --check-prefix=W8
// RUN: not graph-opt %s --split-input-file --graph-gpu-map-reductions=warps-per-block=0 2>&1 | FileCheck %s --check-prefix=BAD

// graph-gpu-map-reductions: a linalg.generic on memrefs that reduces along
// its innermost loop becomes a gpu.launch with one warp (32 lanes) per
// output row: each lane folds the body over k = lane, lane + 32, ...,
// starting from the combiner's neutral element; a gpu.shuffle xor butterfly
// (16, 8, 4, 2, 1) combines the lanes; lane 0 folds in the output's initial
// value and stores. The IR is only checked here: nothing has run on a GPU.

// BAD: error: warps-per-block must be in [1, 32] (at most 1024 threads per block), got 0

// 64 rows, 4 warps per block: 16 blocks of 32 x 4 threads.
// CHECK-LABEL: func.func @row_sum
// CHECK-SAME: (%[[X:.+]]: memref<64x1000xf32>, %[[OUT:.+]]: memref<64xf32>)
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK-DAG: %[[C1000:.+]] = arith.constant 1000 : index
// CHECK-NOT: scf.if
// CHECK: gpu.launch blocks(%[[BX:[^,]+]], %{{[^,]+}}, %{{[^)]+}}) in (%{{[^ ]+}} = %[[C16]], %{{[^ ]+}} = %[[C1]], %{{[^ ]+}} = %[[C1]])
// CHECK-SAME: threads(%[[TX:[^,]+]], %[[TY:[^,]+]], %{{[^)]+}}) in (%{{[^ ]+}} = %[[C32]], %[[BDY:[^ ]+]] = %[[C4]], %{{[^ ]+}} = %[[C1]])
// CHECK-DAG: %[[LC0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[LC32:.+]] = arith.constant 32 : index
// CHECK: %[[BASE:.+]] = arith.muli %[[BX]], %[[BDY]] : index
// CHECK: %[[ROW:.+]] = arith.addi %[[BASE]], %[[TY]] : index
// CHECK: %[[INROWS:.+]] = arith.cmpi ult, %[[ROW]], %c64{{(_[0-9]+)?}} : index
// CHECK: scf.if %[[INROWS]] {
// CHECK: %[[ZERO:.+]] = arith.constant {{-?}}0.000000e+00 : f32
// CHECK: %[[PART:.+]] = scf.for %[[K:.+]] = %[[TX]] to %[[C1000]] step %[[LC32]] iter_args(%[[ACC:.+]] = %[[ZERO]]) -> (f32) {
// CHECK: %[[XV:.+]] = memref.load %[[X]][%[[ROW]], %[[K]]] : memref<64x1000xf32>
// CHECK: %[[SUM:.+]] = arith.addf %[[XV]], %[[ACC]] : f32
// CHECK: scf.yield %[[SUM]] : f32
// CHECK: }
// CHECK: %[[O16:.+]] = arith.constant 16 : i32
// CHECK: %[[S16:.+]], %{{.+}} = gpu.shuffle xor %[[PART]], %[[O16]], %[[W0:.+]] : f32
// CHECK: %[[R16:.+]] = arith.addf %[[PART]], %[[S16]] : f32
// CHECK: %[[O8:.+]] = arith.constant 8 : i32
// CHECK: %[[S8:.+]], %{{.+}} = gpu.shuffle xor %[[R16]], %[[O8]], %{{.+}} : f32
// CHECK: %[[R8:.+]] = arith.addf %[[R16]], %[[S8]] : f32
// CHECK: %[[O4:.+]] = arith.constant 4 : i32
// CHECK: %[[S4:.+]], %{{.+}} = gpu.shuffle xor %[[R8]], %[[O4]], %{{.+}} : f32
// CHECK: %[[R4:.+]] = arith.addf %[[R8]], %[[S4]] : f32
// CHECK: %[[O2:.+]] = arith.constant 2 : i32
// CHECK: %[[S2:.+]], %{{.+}} = gpu.shuffle xor %[[R4]], %[[O2]], %{{.+}} : f32
// CHECK: %[[R2:.+]] = arith.addf %[[R4]], %[[S2]] : f32
// CHECK: %[[O1:.+]] = arith.constant 1 : i32
// CHECK: %[[S1:.+]], %{{.+}} = gpu.shuffle xor %[[R2]], %[[O1]], %{{.+}} : f32
// CHECK: %[[R1:.+]] = arith.addf %[[R2]], %[[S1]] : f32
// CHECK-NOT: gpu.shuffle
// CHECK: %[[LANE0:.+]] = arith.cmpi eq, %[[TX]], %[[LC0]] : index
// CHECK: scf.if %[[LANE0]] {
// CHECK: %[[INIT:.+]] = memref.load %[[OUT]][%[[ROW]]] : memref<64xf32>
// CHECK: %[[RES:.+]] = arith.addf %[[R1]], %[[INIT]] : f32
// CHECK: memref.store %[[RES]], %[[OUT]][%[[ROW]]] : memref<64xf32>
// CHECK: }
// CHECK: }
// CHECK: gpu.terminator
// CHECK-NOT: linalg.generic
// CHECK: return

// 8 warps per block: 8 blocks of 32 x 8 threads.
// W8-LABEL: func.func @row_sum
// W8: gpu.launch blocks({{[^)]+}}) in (%{{[^ ]+}} = %c8{{(_[0-9]+)?}}, {{[^)]+}}) threads({{[^)]+}}) in (%{{[^ ]+}} = %c32, %{{[^ ]+}} = %c8{{(_[0-9]+)?}}, {{[^)]+}})
// W8-COUNT-5: gpu.shuffle xor
// W8-NOT: gpu.shuffle
// W8: gpu.terminator
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @row_sum(%x: memref<64x1000xf32>, %out: memref<64xf32>) {
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x1000xf32>) outs(%out : memref<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A fused body (softmax's sum of exp(x - max)): the elementwise producer
// ops are cloned into the lane loop on loads of both inputs; the broadcast
// input is read at the row only. The combiner's fastmath flags are kept in
// the butterfly and the final fold.
// CHECK-LABEL: func.func @exp_sum
// CHECK-SAME: (%[[X:.+]]: memref<64x1000xf32>, %[[M:.+]]: memref<64xf32>, %[[OUT:.+]]: memref<64xf32>)
// CHECK: gpu.launch
// CHECK: %[[ROW:.+]] = arith.addi
// CHECK: scf.for %[[K:.+]] = {{.+}} iter_args(%[[ACC:.+]] = {{.+}}) -> (f32) {
// CHECK-DAG: %[[XV:.+]] = memref.load %[[X]][%[[ROW]], %[[K]]]
// CHECK-DAG: %[[MV:.+]] = memref.load %[[M]][%[[ROW]]]
// CHECK: %[[D:.+]] = arith.subf %[[XV]], %[[MV]] : f32
// CHECK: %[[E:.+]] = math.exp %[[D]] : f32
// CHECK: %[[S:.+]] = arith.addf %[[E]], %[[ACC]] fastmath<contract> : f32
// CHECK: scf.yield %[[S]]
// CHECK-COUNT-5: arith.addf {{.+}} fastmath<contract> : f32
// CHECK: memref.load %[[OUT]][%[[ROW]]]
// CHECK: arith.addf {{.+}} fastmath<contract> : f32
// CHECK: memref.store {{.+}}, %[[OUT]][%[[ROW]]]
// CHECK-NOT: linalg.generic
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @exp_sum(%x: memref<64x1000xf32>, %m: memref<64xf32>, %out: memref<64xf32>) {
  linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : memref<64x1000xf32>, memref<64xf32>) outs(%out : memref<64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    %s = arith.addf %e, %acc fastmath<contract> : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Dynamic sizes: rows = d0 * d1 from memref.dim, the launch is skipped when
// there are no rows, the row id is delinearized (d1 = row mod D1,
// d0 = row div D1), and max starts from -inf.
// CHECK-LABEL: func.func @row_max_dynamic
// CHECK-SAME: (%[[X:.+]]: memref<?x?x?xf32>, %[[OUT:.+]]: memref<?x?xf32>)
// CHECK-DAG: %[[D0:.+]] = memref.dim %[[X]], %c0
// CHECK-DAG: %[[D1:.+]] = memref.dim %[[X]], %c1
// CHECK-DAG: %[[D2:.+]] = memref.dim %[[X]], %c2
// CHECK: %[[R0:.+]] = arith.muli %{{.+}}, %[[D0]] : index
// CHECK: %[[ROWS:.+]] = arith.muli %[[R0]], %[[D1]] : index
// CHECK: %[[NONEMPTY:.+]] = arith.cmpi ugt, %[[ROWS]], %{{.+}} : index
// CHECK: scf.if %[[NONEMPTY]] {
// CHECK: gpu.launch
// CHECK: %[[ROW:.+]] = arith.addi
// CHECK: arith.cmpi ult, %[[ROW]], %[[ROWS]] : index
// CHECK: %[[I1:.+]] = arith.remui %[[ROW]], %[[D1]] : index
// CHECK: %[[I0:.+]] = arith.divui %[[ROW]], %[[D1]] : index
// CHECK: %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK: scf.for %[[K:.+]] = %{{.+}} to %[[D2]] step %{{.+}} iter_args(%[[ACC:.+]] = %[[NEGINF]]) -> (f32) {
// CHECK: %[[XV:.+]] = memref.load %[[X]][%[[I0]], %[[I1]], %[[K]]]
// CHECK: arith.maximumf %[[ACC]], %[[XV]] : f32
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK: memref.load %[[OUT]][%[[I0]], %[[I1]]]
// CHECK: arith.maximumf
// CHECK: memref.store {{.+}}, %[[OUT]][%[[I0]], %[[I1]]]
// CHECK-NOT: linalg.generic
func.func @row_max_dynamic(%x: memref<?x?x?xf32>, %out: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : memref<?x?x?xf32>) outs(%out : memref<?x?xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.maximumf %acc, %a : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// i32 max: neutral element INT32_MIN, i32 shuffles; a full reduction to a
// rank-0 output is one row (one block, one warp).
// CHECK-LABEL: func.func @int_max_all
// CHECK: %[[MIN:.+]] = arith.constant -2147483648 : i32
// CHECK: scf.for {{.+}} iter_args(%{{.+}} = %[[MIN]]) -> (i32)
// CHECK: arith.maxsi
// CHECK-COUNT-5: gpu.shuffle xor {{.+}} : i32
// CHECK: memref.load %{{.+}}[] : memref<i32>
// CHECK: memref.store {{.+}}[] : memref<i32>
// CHECK-NOT: linalg.generic
func.func @int_max_all(%x: memref<4096xi32>, %out: memref<i32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%x : memref<4096xi32>) outs(%out : memref<i32>) {
  ^bb0(%a: i32, %acc: i32):
    %s = arith.maxsi %a, %acc : i32
    linalg.yield %s : i32
  }
  return
}

// -----

// Left to the default path: the reduction loop is not innermost, the
// reduction is along an input's outer dimension (strided lanes), f16
// (gpu.shuffle is 32-bit), two outputs, a reduction extent of 1, the output
// value used besides the combiner, a non-combiner (subf), tensors.
// CHECK-LABEL: func.func @not_matched
// CHECK-NOT: gpu.launch
// CHECK-COUNT-8: linalg.generic
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @not_matched(%x: memref<64x32xf32>, %c: memref<32xf32>, %h: memref<64x32xf16>, %hc: memref<64xf16>,
                       %r: memref<64xf32>, %r2: memref<64xf32>, %one: memref<64x1xf32>, %t: tensor<64x32xf32>, %tr: tensor<64xf32>) -> tensor<64xf32> {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<64x32xf32>) outs(%c : memref<32xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x32xf32>) outs(%c : memref<32xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%h : memref<64x32xf16>) outs(%hc : memref<64xf16>) {
  ^bb0(%a: f16, %acc: f16):
    %s = arith.addf %a, %acc : f16
    linalg.yield %s : f16
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x32xf32>) outs(%r, %r2 : memref<64xf32>, memref<64xf32>) {
  ^bb0(%a: f32, %acc: f32, %acc2: f32):
    %s = arith.addf %a, %acc : f32
    %m = arith.maximumf %a, %acc2 : f32
    linalg.yield %s, %m : f32, f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%one : memref<64x1xf32>) outs(%r : memref<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x32xf32>) outs(%r : memref<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %p = arith.mulf %a, %acc : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x32xf32>) outs(%r : memref<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.subf %acc, %a : f32
    linalg.yield %s : f32
  }
  %tres = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%t : tensor<64x32xf32>) outs(%tr : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %tres : tensor<64xf32>
}

// -----

// A dynamic outer extent before a static one: rows are computed at run time.
// CHECK-LABEL: func.func @dynamic_then_static
// CHECK: %[[D0:.+]] = memref.dim %{{.+}}, %c0
// CHECK: %[[R0:.+]] = arith.muli %{{.+}}, %[[D0]] : index
// CHECK: %[[ROWS:.+]] = arith.muli %[[R0]], %c8{{(_[0-9]+)?}} : index
// CHECK: scf.if
// CHECK: gpu.launch
// CHECK: arith.cmpi ult, %{{.+}}, %[[ROWS]] : index
func.func @dynamic_then_static(%x: memref<?x8x64xf32>, %out: memref<?x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : memref<?x8x64xf32>) outs(%out : memref<?x8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}
