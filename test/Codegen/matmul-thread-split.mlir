// RUN: graph-opt %s --pass-pipeline='builtin.module(func.func(graph-cpu-tile-and-vectorize{vector-width=16 l1-cache-bytes=49152 l2-cache-bytes=2097152 threads=1}))' | FileCheck %s --check-prefix=ONE
// RUN: graph-opt %s --pass-pipeline='builtin.module(func.func(graph-cpu-tile-and-vectorize{vector-width=16 l1-cache-bytes=49152 l2-cache-bytes=2097152 threads=2}))' | FileCheck %s --check-prefix=TWO

// Which loop of a packed matmul the threads split (lib/Codegen/
// CPUMatmul.cpp, chooseMatmulBlocking): graph-cpu-parallelize runs the
// outermost parallel loop on the threads. Here B ([64, 768], 192 KiB) is one
// column block (nc = n), so that loop is the micro-panel loop. A Winograd
// convolution's matmul has this shape: the transformed weights (64 x 64,
// constant, packed at compile time) times the transformed input (64
// channels x 768 tiles).
//
// One thread: the row micro-panels (step 8) outside the column panels
// (step 32), the A micro-panel kept in L1 while B's panels pass it.
// ONE-LABEL: func.func @wide_b
// ONE: scf.for %{{.+}} = %c0 to %c64 step %c8
// ONE: scf.for %{{.+}} = %c0 to %c768 step %c32
//
// Two threads: split by rows, each thread would read all of B, half of
// which the other thread wrote (the input transform is split by channels);
// A has fewer rows (64) than B columns (768), so the column panels go
// outside and each thread reads its half of B and all of the small A.
// TWO-LABEL: func.func @wide_b
// TWO: scf.for %{{.+}} = %c0 to %c768 step %c32
// TWO: scf.for %{{.+}} = %c0 to %c64 step %c8
func.func @wide_b(%b: tensor<64x768xf32>, %c: tensor<64x768xf32>) -> tensor<64x768xf32> {
  %a = arith.constant dense<0.5> : tensor<64x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x768xf32>) outs(%c : tensor<64x768xf32>) -> tensor<64x768xf32>
  return %r : tensor<64x768xf32>
}

// More rows than columns ([768, 64] x [64, 64]): the row split shares the
// smaller B, so two threads keep the row micro-panels outside.
// ONE-LABEL: func.func @tall_a
// ONE: scf.for %{{.+}} = %c0 to %c768 step %c8
// ONE: scf.for %{{.+}} = %c0 to %c64 step %c32
// TWO-LABEL: func.func @tall_a
// TWO: scf.for %{{.+}} = %c0 to %c768 step %c8
// TWO: scf.for %{{.+}} = %c0 to %c64 step %c32
func.func @tall_a(%a: tensor<768x64xf32>, %c: tensor<768x64xf32>) -> tensor<768x64xf32> {
  %b = arith.constant dense<0.5> : tensor<64x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<768x64xf32>, tensor<64x64xf32>) outs(%c : tensor<768x64xf32>) -> tensor<768x64xf32>
  return %r : tensor<768x64xf32>
}
