// RUN: rm -rf %t && mkdir -p %t

// graph.matmul with torch.matmul semantics, checked against NumPy's matmul
// (test/lib/reference.py; float64 products rounded once to f32). Each case
// also runs with --vectorize=0 (scalar loops). f32 inputs are in [-1, 1)
// ([-0.5, 0.5) for K = 129), so results are O(1) and rtol = atol = 1e-5
// leaves room only for f32 rounding in the sums (at worst ~1e-6 here); an
// indexing or tiling error shows as an O(0.1) difference.

// 2-D x 2-D.
// RUN: %reference mm_2d %t/mm_2d
// RUN: graph-run %s --entry=mm_2d --quiet \
// RUN:   --input=@%t/mm_2d/x0.npy --input=@%t/mm_2d/x1.npy \
// RUN:   --expected-output=@%t/mm_2d/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: graph-run %s --entry=mm_2d --quiet --vectorize=0 \
// RUN:   --input=@%t/mm_2d/x0.npy --input=@%t/mm_2d/x1.npy \
// RUN:   --expected-output=@%t/mm_2d/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s

// 2-D with sizes that are not multiples of the register block.
// RUN: %reference mm_odd %t/mm_odd
// RUN: graph-run %s --entry=mm_odd --quiet \
// RUN:   --input=@%t/mm_odd/x0.npy --input=@%t/mm_odd/x1.npy \
// RUN:   --expected-output=@%t/mm_odd/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: graph-run %s --entry=mm_odd --quiet --vectorize=0 \
// RUN:   --input=@%t/mm_odd/x0.npy --input=@%t/mm_odd/x1.npy \
// RUN:   --expected-output=@%t/mm_odd/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s

// 2-D, larger, with prime-ish sizes (K = 129).
// RUN: %reference mm_large %t/mm_large
// RUN: graph-run %s --entry=mm_large --quiet \
// RUN:   --input=@%t/mm_large/x0.npy --input=@%t/mm_large/x1.npy \
// RUN:   --expected-output=@%t/mm_large/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: graph-run %s --entry=mm_large --quiet --vectorize=0 \
// RUN:   --input=@%t/mm_large/x0.npy --input=@%t/mm_large/x1.npy \
// RUN:   --expected-output=@%t/mm_large/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s

// 1-D x 1-D: a dot product, rank-0 result.
// RUN: %reference mm_vv %t/mm_vv
// RUN: graph-run %s --entry=mm_vv --quiet \
// RUN:   --input=@%t/mm_vv/x0.npy --input=@%t/mm_vv/x1.npy \
// RUN:   --expected-output=@%t/mm_vv/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: graph-run %s --entry=mm_vv --quiet --vectorize=0 \
// RUN:   --input=@%t/mm_vv/x0.npy --input=@%t/mm_vv/x1.npy \
// RUN:   --expected-output=@%t/mm_vv/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s

// 1-D x 2-D: row vector, the added dim removed.
// RUN: %reference mm_vm %t/mm_vm
// RUN: graph-run %s --entry=mm_vm --quiet \
// RUN:   --input=@%t/mm_vm/x0.npy --input=@%t/mm_vm/x1.npy \
// RUN:   --expected-output=@%t/mm_vm/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: graph-run %s --entry=mm_vm --quiet --vectorize=0 \
// RUN:   --input=@%t/mm_vm/x0.npy --input=@%t/mm_vm/x1.npy \
// RUN:   --expected-output=@%t/mm_vm/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s

// 2-D x 1-D: column vector.
// RUN: %reference mm_mv %t/mm_mv
// RUN: graph-run %s --entry=mm_mv --quiet \
// RUN:   --input=@%t/mm_mv/x0.npy --input=@%t/mm_mv/x1.npy \
// RUN:   --expected-output=@%t/mm_mv/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: graph-run %s --entry=mm_mv --quiet --vectorize=0 \
// RUN:   --input=@%t/mm_mv/x0.npy --input=@%t/mm_mv/x1.npy \
// RUN:   --expected-output=@%t/mm_mv/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s

// batched 3-D x 3-D.
// RUN: %reference mm_bmm %t/mm_bmm
// RUN: graph-run %s --entry=mm_bmm --quiet \
// RUN:   --input=@%t/mm_bmm/x0.npy --input=@%t/mm_bmm/x1.npy \
// RUN:   --expected-output=@%t/mm_bmm/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: graph-run %s --entry=mm_bmm --quiet --vectorize=0 \
// RUN:   --input=@%t/mm_bmm/x0.npy --input=@%t/mm_bmm/x1.npy \
// RUN:   --expected-output=@%t/mm_bmm/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s

// batched 3-D x 3-D with odd sizes.
// RUN: %reference mm_bmm_large %t/mm_bmm_large
// RUN: graph-run %s --entry=mm_bmm_large --quiet \
// RUN:   --input=@%t/mm_bmm_large/x0.npy --input=@%t/mm_bmm_large/x1.npy \
// RUN:   --expected-output=@%t/mm_bmm_large/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: graph-run %s --entry=mm_bmm_large --quiet --vectorize=0 \
// RUN:   --input=@%t/mm_bmm_large/x0.npy --input=@%t/mm_bmm_large/x1.npy \
// RUN:   --expected-output=@%t/mm_bmm_large/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s

// batch dims broadcast: [2,1] with [3].
// RUN: %reference mm_bcast_batch %t/mm_bcast_batch
// RUN: graph-run %s --entry=mm_bcast_batch --quiet \
// RUN:   --input=@%t/mm_bcast_batch/x0.npy --input=@%t/mm_bcast_batch/x1.npy \
// RUN:   --expected-output=@%t/mm_bcast_batch/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: graph-run %s --entry=mm_bcast_batch --quiet --vectorize=0 \
// RUN:   --input=@%t/mm_bcast_batch/x0.npy --input=@%t/mm_bcast_batch/x1.npy \
// RUN:   --expected-output=@%t/mm_bcast_batch/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s

// 3-D x 2-D: the 2-D rhs is shared by the batch.
// RUN: %reference mm_3d2d %t/mm_3d2d
// RUN: graph-run %s --entry=mm_3d2d --quiet \
// RUN:   --input=@%t/mm_3d2d/x0.npy --input=@%t/mm_3d2d/x1.npy \
// RUN:   --expected-output=@%t/mm_3d2d/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: graph-run %s --entry=mm_3d2d --quiet --vectorize=0 \
// RUN:   --input=@%t/mm_3d2d/x0.npy --input=@%t/mm_3d2d/x1.npy \
// RUN:   --expected-output=@%t/mm_3d2d/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s

// 2-D x 3-D: the 2-D lhs is broadcast over the batch.
// RUN: %reference mm_2d3d %t/mm_2d3d
// RUN: graph-run %s --entry=mm_2d3d --quiet \
// RUN:   --input=@%t/mm_2d3d/x0.npy --input=@%t/mm_2d3d/x1.npy \
// RUN:   --expected-output=@%t/mm_2d3d/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: graph-run %s --entry=mm_2d3d --quiet --vectorize=0 \
// RUN:   --input=@%t/mm_2d3d/x0.npy --input=@%t/mm_2d3d/x1.npy \
// RUN:   --expected-output=@%t/mm_2d3d/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s

// 3-D x 1-D.
// RUN: %reference mm_3d1d %t/mm_3d1d
// RUN: graph-run %s --entry=mm_3d1d --quiet \
// RUN:   --input=@%t/mm_3d1d/x0.npy --input=@%t/mm_3d1d/x1.npy \
// RUN:   --expected-output=@%t/mm_3d1d/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: graph-run %s --entry=mm_3d1d --quiet --vectorize=0 \
// RUN:   --input=@%t/mm_3d1d/x0.npy --input=@%t/mm_3d1d/x1.npy \
// RUN:   --expected-output=@%t/mm_3d1d/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s

// 1-D x 3-D.
// RUN: %reference mm_1d3d %t/mm_1d3d
// RUN: graph-run %s --entry=mm_1d3d --quiet \
// RUN:   --input=@%t/mm_1d3d/x0.npy --input=@%t/mm_1d3d/x1.npy \
// RUN:   --expected-output=@%t/mm_1d3d/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: graph-run %s --entry=mm_1d3d --quiet --vectorize=0 \
// RUN:   --input=@%t/mm_1d3d/x0.npy --input=@%t/mm_1d3d/x1.npy \
// RUN:   --expected-output=@%t/mm_1d3d/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s

// integer matmul (exact).
// RUN: %reference mm_i32 %t/mm_i32
// RUN: graph-run %s --entry=mm_i32 --quiet \
// RUN:   --input=@%t/mm_i32/x0.npy --input=@%t/mm_i32/x1.npy \
// RUN:   --expected-output=@%t/mm_i32/expected.npy --rtol=0 --atol=0 | FileCheck %s
// RUN: graph-run %s --entry=mm_i32 --quiet --vectorize=0 \
// RUN:   --input=@%t/mm_i32/x0.npy --input=@%t/mm_i32/x1.npy \
// RUN:   --expected-output=@%t/mm_i32/expected.npy --rtol=0 --atol=0 | FileCheck %s

// CHECK: result 0: matches expected

func.func @mm_2d(%a: tensor<5x7xf32>, %b: tensor<7x3xf32>) -> tensor<5x3xf32> {
  %r = graph.matmul %a, %b : tensor<5x7xf32>, tensor<7x3xf32> -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

func.func @mm_odd(%a: tensor<33x17xf32>, %b: tensor<17x29xf32>) -> tensor<33x29xf32> {
  %r = graph.matmul %a, %b : tensor<33x17xf32>, tensor<17x29xf32> -> tensor<33x29xf32>
  return %r : tensor<33x29xf32>
}

func.func @mm_large(%a: tensor<67x129xf32>, %b: tensor<129x45xf32>) -> tensor<67x45xf32> {
  %r = graph.matmul %a, %b : tensor<67x129xf32>, tensor<129x45xf32> -> tensor<67x45xf32>
  return %r : tensor<67x45xf32>
}

func.func @mm_vv(%a: tensor<7xf32>, %b: tensor<7xf32>) -> tensor<f32> {
  %r = graph.matmul %a, %b : tensor<7xf32>, tensor<7xf32> -> tensor<f32>
  return %r : tensor<f32>
}

func.func @mm_vm(%a: tensor<7xf32>, %b: tensor<7x3xf32>) -> tensor<3xf32> {
  %r = graph.matmul %a, %b : tensor<7xf32>, tensor<7x3xf32> -> tensor<3xf32>
  return %r : tensor<3xf32>
}

func.func @mm_mv(%a: tensor<5x7xf32>, %b: tensor<7xf32>) -> tensor<5xf32> {
  %r = graph.matmul %a, %b : tensor<5x7xf32>, tensor<7xf32> -> tensor<5xf32>
  return %r : tensor<5xf32>
}

func.func @mm_bmm(%a: tensor<2x5x7xf32>, %b: tensor<2x7x3xf32>) -> tensor<2x5x3xf32> {
  %r = graph.matmul %a, %b : tensor<2x5x7xf32>, tensor<2x7x3xf32> -> tensor<2x5x3xf32>
  return %r : tensor<2x5x3xf32>
}

func.func @mm_bmm_large(%a: tensor<3x37x19xf32>, %b: tensor<3x19x23xf32>) -> tensor<3x37x23xf32> {
  %r = graph.matmul %a, %b : tensor<3x37x19xf32>, tensor<3x19x23xf32> -> tensor<3x37x23xf32>
  return %r : tensor<3x37x23xf32>
}

func.func @mm_bcast_batch(%a: tensor<2x1x5x7xf32>, %b: tensor<3x7x3xf32>) -> tensor<2x3x5x3xf32> {
  %r = graph.matmul %a, %b : tensor<2x1x5x7xf32>, tensor<3x7x3xf32> -> tensor<2x3x5x3xf32>
  return %r : tensor<2x3x5x3xf32>
}

func.func @mm_3d2d(%a: tensor<2x5x7xf32>, %b: tensor<7x3xf32>) -> tensor<2x5x3xf32> {
  %r = graph.matmul %a, %b : tensor<2x5x7xf32>, tensor<7x3xf32> -> tensor<2x5x3xf32>
  return %r : tensor<2x5x3xf32>
}

func.func @mm_2d3d(%a: tensor<5x7xf32>, %b: tensor<2x7x3xf32>) -> tensor<2x5x3xf32> {
  %r = graph.matmul %a, %b : tensor<5x7xf32>, tensor<2x7x3xf32> -> tensor<2x5x3xf32>
  return %r : tensor<2x5x3xf32>
}

func.func @mm_3d1d(%a: tensor<2x5x7xf32>, %b: tensor<7xf32>) -> tensor<2x5xf32> {
  %r = graph.matmul %a, %b : tensor<2x5x7xf32>, tensor<7xf32> -> tensor<2x5xf32>
  return %r : tensor<2x5xf32>
}

func.func @mm_1d3d(%a: tensor<7xf32>, %b: tensor<2x7x3xf32>) -> tensor<2x3xf32> {
  %r = graph.matmul %a, %b : tensor<7xf32>, tensor<2x7x3xf32> -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

func.func @mm_i32(%a: tensor<4x5xi32>, %b: tensor<5x3xi32>) -> tensor<4x3xi32> {
  %r = graph.matmul %a, %b : tensor<4x5xi32>, tensor<5x3xi32> -> tensor<4x3xi32>
  return %r : tensor<4x3xi32>
}
