// On several threads an output group's tiles are split evenly among the
// threads (fusion-tile-and-fuse{threads}): BERT-base's attention output
// projection, [128, 768] x [768, 768] + bias + residual, is 3 tiles of 256
// columns on one thread but 4 tiles of 192 on two (3 tiles left one
// thread idle for a third of the kernel). QKV's 2304 columns: 9 tiles of
// 256 on one thread, 12 of 192 on two; 3072 columns are 12 tiles of 256
// either way.
// RUN: graph-opt %s --graph-cpu-pipeline="vector-width=16 threads=2" --mlir-disable-threading \
// RUN:   --mlir-print-ir-after=fusion-tile-and-fuse -o /dev/null 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: graph-opt %s --graph-cpu-pipeline="vector-width=16 threads=1" --mlir-disable-threading \
// RUN:   --mlir-print-ir-after=fusion-tile-and-fuse -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONE

// TWO-LABEL: func.func @projection
// TWO: scf.for %{{.*}} = %c0{{.*}} to %c768 step %c192
// ONE-LABEL: func.func @projection
// ONE: scf.for %{{.*}} = %c0{{.*}} to %c768 step %c256
func.func @projection(%x: tensor<128x768xf32>, %w: tensor<768x768xf32>, %b: tensor<768xf32>, %r: tensor<128x768xf32>) -> tensor<128x768xf32> {
  %0 = graph.matmul %x, %w : tensor<128x768xf32>, tensor<768x768xf32> -> tensor<128x768xf32>
  %1 = graph.add %0, %b : tensor<128x768xf32>, tensor<768xf32> -> tensor<128x768xf32>
  %2 = graph.add %1, %r : tensor<128x768xf32>, tensor<128x768xf32> -> tensor<128x768xf32>
  return %2 : tensor<128x768xf32>
}

// TWO-LABEL: func.func @qkv
// TWO: scf.for %{{.*}} = %c0{{.*}} to %c2304 step %c192
// ONE-LABEL: func.func @qkv
// ONE: scf.for %{{.*}} = %c0{{.*}} to %c2304 step %c256
func.func @qkv(%x: tensor<128x768xf32>, %w: tensor<768x2304xf32>, %b: tensor<2304xf32>) -> tensor<128x2304xf32> {
  %0 = graph.matmul %x, %w : tensor<128x768xf32>, tensor<768x2304xf32> -> tensor<128x2304xf32>
  %1 = graph.add %0, %b : tensor<128x2304xf32>, tensor<2304xf32> -> tensor<128x2304xf32>
  return %1 : tensor<128x2304xf32>
}

// TWO-LABEL: func.func @ffn
// TWO: scf.for %{{.*}} = %c0{{.*}} to %c3072 step %c256
// ONE-LABEL: func.func @ffn
// ONE: scf.for %{{.*}} = %c0{{.*}} to %c3072 step %c256
func.func @ffn(%x: tensor<128x768xf32>, %w: tensor<768x3072xf32>, %b: tensor<3072xf32>) -> tensor<128x3072xf32> {
  %0 = graph.matmul %x, %w : tensor<128x768xf32>, tensor<768x3072xf32> -> tensor<128x3072xf32>
  %1 = graph.add %0, %b : tensor<128x3072xf32>, tensor<3072xf32> -> tensor<128x3072xf32>
  %2 = graph.relu %1 : tensor<128x3072xf32> -> tensor<128x3072xf32>
  return %2 : tensor<128x3072xf32>
}
