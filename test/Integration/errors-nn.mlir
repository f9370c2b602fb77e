// RUN: rm -rf %t && mkdir -p %t

// Run-time shapes that violate an op's constraints, given to functions with
// dynamic signatures: graph-run specializes the dynamic dims to the inputs,
// re-verifies, and exits with a clean non-zero status (`not` fails on a
// crash) and the op's diagnostic, which names the dims and both values, then
// a line naming the function.

// conv2d: wrong input channel count for the weight (C3), with literals and
// with a .npy file.
// RUN: not graph-run %s --entry=conv --input=2x5x8x8xf32=1 --input=4x3x3x3xf32=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CHANNELS
// RUN: %python -c "import numpy as np; np.save('%t/x5.npy', np.ones((2, 5, 8, 8), np.float32))"
// RUN: not graph-run %s --entry=conv --input=@%t/x5.npy --input=4x3x3x3xf32=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CHANNELS
// CHANNELS: error: 'graph.conv2d' op input has 5 channels (dim 1), but weight dim 1 is 3 with groups = 1 (expected 5)
// CHANNELS: graph-run: error: the input shapes are inconsistent with @conv (see the diagnostic above)
// RUN: graph-run %s --entry=conv --input=2x3x8x8xf32=1 --input=4x3x3x3xf32=1 \
// RUN:   | FileCheck %s --check-prefix=OK
// OK: result 0: tensor<?x4x6x6xf32> = 2x4x6x6xf32

// Grouped: 6 channels, groups = 2, weight dim 1 = 2 (3 expected).
// RUN: not graph-run %s --entry=grouped --input=1x6x8x8xf32=1 --input=4x2x3x3xf32=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=GROUPS
// GROUPS: error: 'graph.conv2d' op input has 6 channels (dim 1), but weight dim 1 is 2 with groups = 2 (expected 3)
// GROUPS: graph-run: error: the input shapes are inconsistent with @grouped

// A weight with a dynamic dim 1 that disagrees with the input.
// RUN: not graph-run %s --entry=conv_dynamic_weight --input=1x4x8x8xf32=1 --input=4x3x3x3xf32=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WEIGHT
// WEIGHT: error: 'graph.conv2d' op input has 4 channels (dim 1), but weight dim 1 is 3 with groups = 1 (expected 4)

// A kernel larger than the (padded) input (C5), and a bias of the wrong
// size (C4).
// RUN: not graph-run %s --entry=conv_spatial --input=1x3x2x9xf32=1 --input=4x3x3x3xf32=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SPATIAL
// SPATIAL: error: 'graph.conv2d' op kernel dim 2 (3, dilation 1) does not fit in input dim 2 (2 plus padding 0 + 0)
// RUN: not graph-run %s --entry=conv_bias --input=1x3x8x8xf32=1 --input=4x3x3x3xf32=1 --input=5xf32=0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BIAS
// BIAS: error: 'graph.conv2d' op bias must be [4] (weight dim 0), got [5]

// Pooling window larger than the input; batch_norm statistics of the wrong
// size; attention with mismatched embedding dims and batch dims.
// RUN: not graph-run %s --entry=pool --input=1x3x2x9xf32=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=POOL
// POOL: error: 'graph.max_pool2d' op window of 3 does not fit in dim 2 of size 2 with padding 0 + 0
// RUN: not graph-run %s --entry=batch_norm --input=1x3x4x4xf32=1 --input=4xf32=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BN
// BN: error: 'graph.batch_norm' op mean must be [3] (input dim 1), got [4]
// RUN: not graph-run %s --entry=attention --input=2x4x8xf32=1 --input=2x5x6xf32=1 --input=2x5x8xf32=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ATTN-E
// ATTN-E: error: 'graph.scaled_dot_product_attention' op query embedding dim is 8 but key embedding dim is 6
// RUN: not graph-run %s --entry=attention --input=2x4x8xf32=1 --input=3x5x8xf32=1 --input=2x5x8xf32=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ATTN-B
// ATTN-B: error: 'graph.scaled_dot_product_attention' op operands are not broadcast-compatible: query batch dim 0 is 2, key batch dim 0 is 3 (shapes [2] and [3])

// Static dims are checked before any compilation.
// RUN: not graph-run %s --entry=conv --input=2x3x7x8xf32=1 --input=4x3x3x3xf32=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STATIC
// STATIC: graph-run: error: input 0 of @conv: dim 2 is 7, expected 8 (tensor<?x?x8x8xf32>)

// Without shape specialization the CPU lowering needs static channel and
// spatial dims: a clean failure naming the op.
// RUN: not graph-run %s --entry=conv --specialize-shapes=false --input=2x3x8x8xf32=1 --input=4x3x3x3xf32=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOSPEC
// NOSPEC: error: failed to legalize operation 'graph.conv2d'
// NOSPEC: graph-run: error: lowering @conv for the CPU failed

// A weight with an empty kernel dim (KH = 0) is rejected, not compiled (the
// last check: it aborts graph-run today).
// RUN: not graph-run %s --entry=conv_dynamic_kernel --input=1x3x8x8xf32=1 --input=4x3x0x3xf32=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EMPTY-KERNEL
// EMPTY-KERNEL: error: 'graph.conv2d' op
// EMPTY-KERNEL: graph-run: error: the input shapes are inconsistent with @conv_dynamic_kernel

func.func @conv(%x: tensor<?x?x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<?x4x6x6xf32> {
  %r = graph.conv2d %x, %w : (tensor<?x?x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<?x4x6x6xf32>
  return %r : tensor<?x4x6x6xf32>
}

func.func @grouped(%x: tensor<?x?x8x8xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<?x4x6x6xf32> {
  %r = graph.conv2d %x, %w {groups = 2 : i64} : (tensor<?x?x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<?x4x6x6xf32>
  return %r : tensor<?x4x6x6xf32>
}

func.func @conv_dynamic_weight(%x: tensor<?x?x8x8xf32>, %w: tensor<4x?x3x3xf32>) -> tensor<?x4x6x6xf32> {
  %r = graph.conv2d %x, %w : (tensor<?x?x8x8xf32>, tensor<4x?x3x3xf32>) -> tensor<?x4x6x6xf32>
  return %r : tensor<?x4x6x6xf32>
}

func.func @conv_spatial(%x: tensor<?x3x?x?xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<?x4x?x?xf32> {
  %r = graph.conv2d %x, %w : (tensor<?x3x?x?xf32>, tensor<4x3x3x3xf32>) -> tensor<?x4x?x?xf32>
  return %r : tensor<?x4x?x?xf32>
}

func.func @conv_bias(%x: tensor<?x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<?xf32>) -> tensor<?x4x6x6xf32> {
  %r = graph.conv2d %x, %w, %b : (tensor<?x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<?xf32>) -> tensor<?x4x6x6xf32>
  return %r : tensor<?x4x6x6xf32>
}

func.func @pool(%x: tensor<?x3x?x?xf32>) -> tensor<?x3x?x?xf32> {
  %r = graph.max_pool2d %x {kernel = array<i64: 3, 3>} : (tensor<?x3x?x?xf32>) -> tensor<?x3x?x?xf32>
  return %r : tensor<?x3x?x?xf32>
}

func.func @batch_norm(%x: tensor<?x?x4x4xf32>, %m: tensor<?xf32>) -> tensor<?x?x4x4xf32> {
  %r = graph.batch_norm %x, %m, %m, %m, %m : (tensor<?x?x4x4xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?x?x4x4xf32>
  return %r : tensor<?x?x4x4xf32>
}

func.func @attention(%q: tensor<?x4x8xf32>, %k: tensor<?x5x?xf32>, %v: tensor<?x5x8xf32>) -> tensor<?x4x8xf32> {
  %r = graph.scaled_dot_product_attention %q, %k, %v : (tensor<?x4x8xf32>, tensor<?x5x?xf32>, tensor<?x5x8xf32>) -> tensor<?x4x8xf32>
  return %r : tensor<?x4x8xf32>
}

func.func @conv_dynamic_kernel(%x: tensor<?x3x8x8xf32>, %w: tensor<4x3x?x?xf32>) -> tensor<?x4x?x?xf32> {
  %r = graph.conv2d %x, %w : (tensor<?x3x8x8xf32>, tensor<4x3x?x?xf32>) -> tensor<?x4x?x?xf32>
  return %r : tensor<?x4x?x?xf32>
}
