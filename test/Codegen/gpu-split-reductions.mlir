// RUN: graph-opt %s --split-input-file --graph-gpu-split-reductions | FileCheck %s

// graph-gpu-split-reductions: a full reduction (a one-element output) of at
// least 2^14 contiguous elements becomes rows of C elements reduced into R
// partial values (the original body, a fused producer included), then the
// partial values combined into the output by the combiner alone; C divides
// N, near N / 1024 in [256, 4096]. Checked here as IR; the numerics in
// test/Integration/reduce.mlir (reduce_all_large, under CUDA emulation and
// on a GPU) and bench/gpu_check.py.

// 4096 x 4096: C = 4096, R = 4096; the body's exp stays in stage 1.
// CHECK-LABEL: func.func @sum_exp
// CHECK-SAME: (%[[X:.+]]: memref<4096x4096xf32>, %[[OUT:.+]]: memref<f32>)
// CHECK: %[[FLAT:.+]] = memref.collapse_shape %[[X]] {{\[}}[0, 1]] : memref<4096x4096xf32> into memref<16777216xf32>
// CHECK: %[[ROWS:.+]] = memref.expand_shape %[[FLAT]] {{\[}}[0, 1]] output_shape [4096, 4096] : memref<16777216xf32> into memref<4096x4096xf32>
// CHECK: %[[PART:.+]] = memref.alloc() : memref<4096xf32>
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill ins(%[[ZERO]] : f32) outs(%[[PART]] : memref<4096xf32>)
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}], iterator_types = ["parallel", "reduction"]} ins(%[[ROWS]] : memref<4096x4096xf32>) outs(%[[PART]] : memref<4096xf32>)
// CHECK:   math.exp
// CHECK:   arith.addf
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}], iterator_types = ["reduction"]} ins(%[[PART]] : memref<4096xf32>) outs(%[[OUT]] : memref<f32>)
// CHECK-NEXT: ^bb0(%[[A:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK-NEXT:   %[[S:.+]] = arith.addf %[[A]], %[[ACC]] : f32
// CHECK-NEXT:   linalg.yield %[[S]] : f32
// CHECK: memref.dealloc %[[PART]] : memref<4096xf32>
// CHECK-NOT: linalg.generic
func.func @sum_exp(%x: memref<4096x4096xf32>, %out: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>],
                  iterator_types = ["reduction", "reduction"]}
      ins(%x : memref<4096x4096xf32>) outs(%out : memref<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %e = math.exp %in : f32
    %s = arith.addf %e, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// keepdims (a 1 x 1 output read at zeros), a rank-1 input of 64,000: C = 256
// (64,000 / 1024 = 62 is below the floor), R = 250; max's neutral element.
// CHECK-LABEL: func.func @max_keepdims
// CHECK: memref.expand_shape %{{.+}} {{\[}}[0, 1]] output_shape [250, 256] : memref<64000xf32> into memref<250x256xf32>
// CHECK: memref.alloc() : memref<250xf32>
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK: arith.maximumf
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[ZEROS:.+]]], iterator_types = ["reduction"]} ins(%{{.+}} : memref<250xf32>) outs(%{{.+}} : memref<1x1xf32>)
func.func @max_keepdims(%x: memref<64000xf32>, %out: memref<1x1xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (0, 0)>],
                  iterator_types = ["reduction"]}
      ins(%x : memref<64000xf32>) outs(%out : memref<1x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// Left as they are: too few elements, a prime size (no row length divides
// it), a strided input, a body that reads a loop index, and a reduction
// with a parallel loop (a row reduction already).
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.expand_shape
// CHECK-COUNT-5: linalg.generic
// CHECK-NOT: linalg.generic
func.func @unchanged(%small: memref<100x100xf32>, %prime: memref<1000003xf32>,
                     %strided: memref<4096x4096xf32, strided<[8192, 1]>>,
                     %rows: memref<64x4096xf32>, %out: memref<f32>,
                     %rowout: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>],
                  iterator_types = ["reduction", "reduction"]}
      ins(%small : memref<100x100xf32>) outs(%out : memref<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
                  iterator_types = ["reduction"]}
      ins(%prime : memref<1000003xf32>) outs(%out : memref<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>],
                  iterator_types = ["reduction", "reduction"]}
      ins(%strided : memref<4096x4096xf32, strided<[8192, 1]>>) outs(%out : memref<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>],
                  iterator_types = ["reduction", "reduction"]}
      ins(%rows : memref<64x4096xf32>) outs(%out : memref<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %p = arith.mulf %in, %f : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%rows : memref<64x4096xf32>) outs(%rowout : memref<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  return
}
