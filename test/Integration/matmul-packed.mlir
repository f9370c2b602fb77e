// RUN: rm -rf %t && mkdir -p %t

// Matmuls that take the packed, cache-blocked path of
// graph-cpu-tile-and-vectorize (lib/Codegen/CPUMatmul.cpp): B packed into
// [N/32][K][32] panels, A into [M/mr][K][mr] micro-panels, K split into kc
// blocks (kc <= 512 for L1 <= 64 KiB, so K = 2048 is at least four blocks)
// and N into nc blocks; the output's zero fill is replaced by zeroing each
// register block in the first reduction block. Checked against NumPy (test/lib/reference.py: float64
// products rounded once to f32); the blocked f32 sums over 1030-2048 terms
// of O(0.25) products differ from it by ~1e-5, so rtol = atol = 2e-4; an
// indexing or packing error is O(1).

// RUN: %reference mm_packed %t/a
// RUN: graph-run %s --entry=mm_packed --quiet \
// RUN:   --input=@%t/a/x0.npy --input=@%t/a/x1.npy \
// RUN:   --expected-output=@%t/a/expected.npy --rtol=2e-4 --atol=2e-4 | FileCheck %s

// Sizes that are not multiples of the blocks: M = 300 (6-row register
// tiles), K = 1030 (two blocks of 515), N = 200 (192 packed + 8 columns).
// RUN: %reference mm_packed_odd %t/b
// RUN: graph-run %s --entry=mm_packed_odd --quiet \
// RUN:   --input=@%t/b/x0.npy --input=@%t/b/x1.npy \
// RUN:   --expected-output=@%t/b/expected.npy --rtol=2e-4 --atol=2e-4 | FileCheck %s

// Several reduction and column blocks (128 x 768 x 2048).
// RUN: %reference mm_packed_wide %t/d
// RUN: graph-run %s --entry=mm_packed_wide --quiet \
// RUN:   --input=@%t/d/x0.npy --input=@%t/d/x1.npy \
// RUN:   --expected-output=@%t/d/expected.npy --rtol=2e-4 --atol=2e-4 | FileCheck %s

// Fused epilogue (bias + ReLU) in 256 x 256 output tiles.
// RUN: %reference mm_packed_bias_relu %t/c
// RUN: graph-run %s --entry=mm_packed_bias_relu --quiet \
// RUN:   --input=@%t/c/x0.npy --input=@%t/c/x1.npy --input=@%t/c/x2.npy \
// RUN:   --expected-output=@%t/c/expected.npy --rtol=2e-4 --atol=2e-4 | FileCheck %s

// Thread counts (graph-cpu-parallelize; the default is the cores this
// process may use): one thread, and 3 threads for blocks that do not divide
// evenly among them.
// RUN: graph-run %s --entry=mm_packed --quiet --threads=1 \
// RUN:   --input=@%t/a/x0.npy --input=@%t/a/x1.npy \
// RUN:   --expected-output=@%t/a/expected.npy --rtol=2e-4 --atol=2e-4 | FileCheck %s
// RUN: graph-run %s --entry=mm_packed_odd --quiet --threads=3 \
// RUN:   --input=@%t/b/x0.npy --input=@%t/b/x1.npy \
// RUN:   --expected-output=@%t/b/expected.npy --rtol=2e-4 --atol=2e-4 | FileCheck %s
// RUN: graph-run %s --entry=mm_packed_bias_relu --quiet --threads=3 \
// RUN:   --input=@%t/c/x0.npy --input=@%t/c/x1.npy --input=@%t/c/x2.npy \
// RUN:   --expected-output=@%t/c/expected.npy --rtol=2e-4 --atol=2e-4 | FileCheck %s

// CHECK-NOT: mismatch
// CHECK: result 0: matches expected

func.func @mm_packed(%a: tensor<512x2048xf32>, %b: tensor<2048x256xf32>) -> tensor<512x256xf32> {
  %c = graph.matmul %a, %b : tensor<512x2048xf32>, tensor<2048x256xf32> -> tensor<512x256xf32>
  return %c : tensor<512x256xf32>
}

func.func @mm_packed_odd(%a: tensor<300x1030xf32>, %b: tensor<1030x200xf32>) -> tensor<300x200xf32> {
  %c = graph.matmul %a, %b : tensor<300x1030xf32>, tensor<1030x200xf32> -> tensor<300x200xf32>
  return %c : tensor<300x200xf32>
}

func.func @mm_packed_wide(%a: tensor<128x768xf32>, %b: tensor<768x2048xf32>) -> tensor<128x2048xf32> {
  %c = graph.matmul %a, %b : tensor<128x768xf32>, tensor<768x2048xf32> -> tensor<128x2048xf32>
  return %c : tensor<128x2048xf32>
}

func.func @mm_packed_bias_relu(%x: tensor<512x1024xf32>, %w: tensor<1024x768xf32>, %bias: tensor<768xf32>) -> tensor<512x768xf32> {
  %m = graph.matmul %x, %w : tensor<512x1024xf32>, tensor<1024x768xf32> -> tensor<512x768xf32>
  %a = graph.add %m, %bias : tensor<512x768xf32>, tensor<768xf32> -> tensor<512x768xf32>
  %r = graph.relu %a : tensor<512x768xf32> -> tensor<512x768xf32>
  return %r : tensor<512x768xf32>
}
