// RUN: graph-opt %s -split-input-file --graph-gpu-collapse-elementwise | FileCheck %s

// graph-gpu-collapse-elementwise: an all-parallel linalg.generic on
// buffers has its consecutive dims merged where every operand reads them
// consecutively, in order, from contiguous memory. Operands of one shape
// and layout: one dim.
// CHECK-LABEL: func.func @same_shape
// CHECK-DAG: %[[A:.+]] = memref.collapse_shape %arg0 {{\[}}[0, 1, 2, 3]] : memref<2x3x5x7xf32> into memref<210xf32>
// CHECK-DAG: %[[B:.+]] = memref.collapse_shape %arg1 {{\[}}[0, 1, 2, 3]] : memref<2x3x5x7xf32> into memref<210xf32>
// CHECK-DAG: %[[C:.+]] = memref.collapse_shape %arg2 {{\[}}[0, 1, 2, 3]] : memref<2x3x5x7xf32> into memref<210xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%[[A]], %[[B]] : memref<210xf32>, memref<210xf32>) outs(%[[C]] : memref<210xf32>)
// CHECK: arith.addf
// CHECK-NOT: linalg.generic
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @same_shape(%a: memref<2x3x5x7xf32>, %b: memref<2x3x5x7xf32>, %c: memref<2x3x5x7xf32>) {
  linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a, %b : memref<2x3x5x7xf32>, memref<2x3x5x7xf32>) outs(%c : memref<2x3x5x7xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A bias broadcast as the graph lowering writes it, (d1, 0, 0) on
// [C, 1, 1]: the bias's unit dims dropped from its view (read as (d1)),
// then H and W merged; N and C stay apart (the bias reads C without N).
// CHECK-LABEL: func.func @bias
// CHECK-DAG: %[[BIAS:.+]] = memref.collapse_shape %arg1 {{\[}}[0, 1, 2]] : memref<16x1x1xf32> into memref<16xf32>
// CHECK-DAG: %[[X:.+]] = memref.collapse_shape %arg0 {{\[}}[0], [1], [2, 3]] : memref<2x16x7x7xf32> into memref<2x16x49xf32>
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}, #{{.+}}], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[X]], %[[BIAS]] : memref<2x16x49xf32>, memref<16xf32>)
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#bias = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
func.func @bias(%a: memref<2x16x7x7xf32>, %b: memref<16x1x1xf32>, %c: memref<2x16x7x7xf32>) {
  linalg.generic {indexing_maps = [#id4, #bias, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a, %b : memref<2x16x7x7xf32>, memref<16x1x1xf32>) outs(%c : memref<2x16x7x7xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A strided view (every other row of a [8, 64] buffer): its two dims are
// not contiguous together; nothing merges.
// CHECK-LABEL: func.func @strided
// CHECK-NOT: memref.collapse_shape
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @strided(%a: memref<8x64xf32>, %c: memref<4x64xf32>) {
  %v = memref.subview %a[0, 0] [4, 64] [2, 1] : memref<8x64xf32> to memref<4x64xf32, strided<[128, 1]>>
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%v : memref<4x64xf32, strided<[128, 1]>>) outs(%c : memref<4x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// Left alone: a transpose (dims in another order in one operand), a
// reduction, and an op inside a kernel.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: memref.collapse_shape
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>
#r = affine_map<(d0, d1) -> (d0)>
func.func @left_alone(%a: memref<8x64xf32>, %t: memref<64x8xf32>, %s: memref<8xf32>, %c: memref<8x64xf32>) {
  linalg.generic {indexing_maps = [#id2, #t], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<8x64xf32>) outs(%t : memref<64x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [#id2, #r], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<8x64xf32>) outs(%s : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %o : f32
    linalg.yield %y : f32
  }
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%a : memref<8x64xf32>) outs(%c : memref<8x64xf32>) {
    ^bb0(%x: f32, %o: f32):
      linalg.yield %x : f32
    }
    gpu.terminator
  }
  return
}

// -----

// An op reading its indices (linalg.index): the merged index is split
// back into the original ones in the body.
// CHECK-LABEL: func.func @indices
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel"]
// CHECK: %[[I:.+]] = linalg.index 0 : index
// CHECK-DAG: %[[J:.+]] = arith.remsi %[[I]], %c6
// CHECK-DAG: %[[I0:.+]] = arith.divsi %[[I]], %c6
// CHECK: arith.addi %[[I0]], %[[J]]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @indices(%c: memref<4x6xindex>) {
  linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%c : memref<4x6xindex>) {
  ^bb0(%o: index):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %s = arith.addi %i, %j : index
    linalg.yield %s : index
  }
  return
}
