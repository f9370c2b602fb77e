// Programs from fuzzing campaigns that once crashed (scripts/fuzz_graph.py
// --seed ...); expected values worked out by hand.
//
// fusion-tile-and-fuse inlined a group whose body had folded to one of its
// inputs and replaced the group with the dead block argument (segfault in
// the default configuration): select(x <= x, x, -1) is x.
// RUN: graph-run %s --entry=select_folds_to_input --input=4xf32=1,2,3,4 --input=f32=1 \
// RUN:   --input=4xi32=7,-6,5,0 --expected-output=4xi32=7,-6,5,0 --quiet | FileCheck %s
// The same with --optimize=false (seed 20261201, program 136): the select's
// condition is false everywhere, so the result is c4 * int(x * 4) with
// x = 0.5, i.e. 2 * c4 broadcast over dim 1; and -x.
// RUN: graph-run %s --entry=seed20261201_136 --optimize=false --input=3x6x1x4xf32=0.5 \
// RUN:   --input=3x1x1x1xf32=0 --expected-output=3x6x1x4xi32=0,6,2,6,0,6,2,6,0,6,2,6,0,6,2,6,0,6,2,6,0,6,2,6,2,4,-8,-2,2,4,-8,-2,2,4,-8,-2,2,4,-8,-2,2,4,-8,-2,2,4,-8,-2,4,8,0,-6,4,8,0,-6,4,8,0,-6,4,8,0,-6,4,8,0,-6,4,8,0,-6 \
// RUN:   --expected-output=3x6x1x4xf32=-0.5 --quiet | FileCheck %s --check-prefix=TWO
// Zero-size dims (fuzz_graph.py --seed 20261203 --zero-dims 0.15, programs
// 7 and 194): a concat whose result has a static 0 dim and dynamic operands
// inserted slices at offsets the verifier rejects (with
// --specialize-shapes=false). The result is 3x0, empty.
// RUN: graph-run %s --entry=concat_empty_dynamic --specialize-shapes=false \
// RUN:   --input=2x0xf32= --expected-output=3x0xf32= --quiet | FileCheck %s
// A reshape of a dynamic tensor to a static empty shape (seed 20261206,
// --zero-dims 0.15, programs 82 and 248): collapse_shape of a dynamic
// group into a static 0 was rejected on buffers.
// RUN: graph-run %s --entry=reshape_dynamic_to_empty --specialize-shapes=false \
// RUN:   --input=3x2x0x2xf32= --expected-output=0xf32= --quiet | FileCheck %s
// CHECK: result 0: matches expected
// TWO: result 0: matches expected
// TWO: result 1: matches expected

// A sum over an empty axis of a dynamic input added to a constant of shape
// 1x5x0 (fuzz_graph.py --seed 20261213 --zero-dims 0.15, program 169):
// fusion-tile-and-fuse tiled the group although an operand has a static
// 0 dim, and sliced the constant at an offset its empty dim does not have
// (a verifier error with --specialize-shapes=false). Every sum over the
// empty axis is 0.
// RUN: graph-run %s --entry=sum_of_empty_broadcast --specialize-shapes=false \
// RUN:   --input=1x5x0xf32= --expected-output=5xf32=0 --quiet | FileCheck %s
func.func @select_folds_to_input(%arg0: tensor<4xf32>, %arg1: tensor<f32>, %arg2: tensor<4xi32>) -> tensor<4xi32> {
  %v0 = graph.add %arg0, %arg1 : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  %v1 = graph.compare le, %arg2, %arg2 : tensor<4xi32>, tensor<4xi32> -> tensor<4xi1>
  %c2 = graph.constant dense<-1> : tensor<i32>
  %v3 = graph.select %v1, %arg2, %c2 : tensor<4xi1>, tensor<4xi32>, tensor<i32> -> tensor<4xi32>
  return %v3 : tensor<4xi32>
}
func.func @seed20261201_136(%arg0: tensor<3x6x1x4xf32>, %arg1: tensor<3x1x1x1xf32>) -> (tensor<3x6x1x4xi32>, tensor<3x6x1x4xf32>) {
  %c0 = graph.constant dense<4.0> : tensor<f32>
  %v1 = graph.mul %arg0, %c0 : tensor<3x6x1x4xf32>, tensor<f32> -> tensor<3x6x1x4xf32>
  %v2 = graph.cast %v1 : tensor<3x6x1x4xf32> -> tensor<3x6x1x4xi32>
  %v3 = graph.neg %arg0 : tensor<3x6x1x4xf32> -> tensor<3x6x1x4xf32>
  %c4 = graph.constant dense<[[[[0, 3, 1, 3]]], [[[1, 2, -4, -1]]], [[[2, 4, 0, -3]]]]> : tensor<3x1x1x4xi32>
  %v5 = graph.mul %c4, %v2 : tensor<3x1x1x4xi32>, tensor<3x6x1x4xi32> -> tensor<3x6x1x4xi32>
  %v6 = graph.reduce min %c4 axes = [2] keepdims : tensor<3x1x1x4xi32> -> tensor<3x1x1x4xi32>
  %v7 = graph.compare ne, %v6, %v6 : tensor<3x1x1x4xi32>, tensor<3x1x1x4xi32> -> tensor<3x1x1x4xi1>
  %v8 = graph.select %v7, %v6, %v5 : tensor<3x1x1x4xi1>, tensor<3x1x1x4xi32>, tensor<3x6x1x4xi32> -> tensor<3x6x1x4xi32>
  return %v8, %v3 : tensor<3x6x1x4xi32>, tensor<3x6x1x4xf32>
}
func.func @concat_empty_dynamic(%x: tensor<?x?xf32>) -> tensor<?x0xf32> {
  %c = graph.constant dense<> : tensor<1x0xf32>
  %0 = graph.concat %c, %x axis = 0 : tensor<1x0xf32>, tensor<?x?xf32> -> tensor<?x0xf32>
  return %0 : tensor<?x0xf32>
}
func.func @reshape_dynamic_to_empty(%x: tensor<3x?x0x2xf32>) -> tensor<0xf32> {
  %0 = graph.reshape %x, [0] : tensor<3x?x0x2xf32> -> tensor<0xf32>
  return %0 : tensor<0xf32>
}
func.func @sum_of_empty_broadcast(%x: tensor<?x?x?xf32>) -> tensor<5xf32> {
  %c = graph.constant dense<> : tensor<1x5x0xf32>
  %a = graph.add %x, %c : tensor<?x?x?xf32>, tensor<1x5x0xf32> -> tensor<?x5x0xf32>
  %s = graph.reduce sum %a axes = [0, 2] : tensor<?x5x0xf32> -> tensor<5xf32>
  return %s : tensor<5xf32>
}

// A stride-2 convolution of an empty batch (fuzz_graph.py --seed 3
// --zero-dims 0.15, program 15, with conv2d in the generator): the im2col
// path cut the padded input's rows with a slice that the verifier rejects
// on the empty batch dim. No outputs, so nothing is computed; an image with
// no rows but padding is all padding, so every output is the bias.
// RUN: graph-run %s --entry=conv_empty_batch --input=0x7x5x3xf32= \
// RUN:   --expected-output=0x7x2x2xf32= --quiet | FileCheck %s
// RUN: graph-run %s --entry=conv_empty_image --input=1x2x0x3xf32= \
// RUN:   --expected-output=1x1x1x2xf32=0.5 --quiet | FileCheck %s
func.func @conv_empty_batch(%x: tensor<0x7x5x3xf32>) -> tensor<0x7x2x2xf32> {
  %w = graph.constant dense<0.5> : tensor<7x7x2x2xf32>
  %r = graph.conv2d %x, %w {strides = array<i64: 2, 1>} : (tensor<0x7x5x3xf32>, tensor<7x7x2x2xf32>) -> tensor<0x7x2x2xf32>
  return %r : tensor<0x7x2x2xf32>
}
func.func @conv_empty_image(%x: tensor<1x2x0x3xf32>) -> tensor<1x1x1x2xf32> {
  %w = graph.constant dense<[[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]]> : tensor<1x2x2x2xf32>
  %b = graph.constant dense<0.5> : tensor<1xf32>
  %r = graph.conv2d %x, %w, %b {padding = array<i64: 1, 0, 1, 0>} : (tensor<1x2x0x3xf32>, tensor<1x2x2x2xf32>, tensor<1xf32>) -> tensor<1x1x1x2xf32>
  return %r : tensor<1x1x1x2xf32>
}

// Poolings of images without channels (fuzz_graph.py --seed 20261204
// --zero-dims 0.1 --images 0.8 --weight conv=40 --weight pool=20, programs
// 2, 107 and 294): with --vectorize=false or dynamic batches the padded
// image was bufferized through a subview at an offset into the empty dim,
// which the verifier rejects. The results are empty.
// RUN: graph-run %s --entry=avg_pool_no_channels --vectorize=false \
// RUN:   --input=2x0x13x16xf32= --expected-output=2x0x5x8xf32= --quiet | FileCheck %s
// RUN: graph-run %s --entry=max_pool_no_channels --specialize-shapes=false \
// RUN:   --input=1x0x18x12xf32= --expected-output=1x0x5x12xf32= --quiet | FileCheck %s
func.func @avg_pool_no_channels(%x: tensor<2x0x13x16xf32>) -> tensor<2x0x5x8xf32> {
  %r = graph.avg_pool2d %x {kernel = array<i64: 3, 2>, strides = array<i64: 3, 2>, padding = array<i64: 2, 1, 0, 0>} : (tensor<2x0x13x16xf32>) -> tensor<2x0x5x8xf32>
  return %r : tensor<2x0x5x8xf32>
}
func.func @max_pool_no_channels(%x: tensor<?x0x18x12xf32>) -> tensor<?x0x5x12xf32> {
  %r = graph.max_pool2d %x {kernel = array<i64: 5, 5>, strides = array<i64: 3, 1>, padding = array<i64: 0, 2, 0, 2>} : (tensor<?x0x18x12xf32>) -> tensor<?x0x5x12xf32>
  return %r : tensor<?x0x5x12xf32>
}

// Two graph.ifs on conditions that fold to constants, the second yielding
// the first's result, which another op uses in between (fuzz_graph.py
// --seed 20261301, program 27, in its dynamic program specialized by
// graph-run): folding the second moved the first's cast (static -> dynamic
// result type) after that user ("operand #0 does not dominate this use").
// x = [1, 2, 3, 4]: a = x + x, b = a (the else region), s = -a.
// RUN: graph-run %s --entry=constant_ifs_share_a_cast --input=4xf32=1,2,3,4 \
// RUN:   --expected-output=4xf32=2,4,6,8 --expected-output=4xf32=-2,-4,-6,-8 \
// RUN:   --quiet | FileCheck %s --check-prefix=TWO
func.func @constant_ifs_share_a_cast(%x: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %one = graph.constant dense<1.0> : tensor<f32>
  %two = graph.constant dense<2.0> : tensor<f32>
  %t = graph.compare lt, %one, %two : tensor<f32>, tensor<f32> -> tensor<i1>
  %f = graph.compare gt, %one, %two : tensor<f32>, tensor<f32> -> tensor<i1>
  %a = graph.if %t : tensor<i1> -> tensor<?xf32> {
    %e = graph.add %x, %x : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
    graph.yield %e : tensor<?xf32>
  } else {
    graph.yield %x : tensor<?xf32>
  }
  %s = graph.neg %a : tensor<?xf32> -> tensor<?xf32>
  %b = graph.if %f : tensor<i1> -> tensor<?xf32> {
    graph.yield %s : tensor<?xf32>
  } else {
    graph.yield %a : tensor<?xf32>
  }
  return %b, %s : tensor<?xf32>, tensor<?xf32>
}

// A padded max pool of a loop's result whose batch is 0 only at run time
// (fuzz_graph.py --seed 20261312 --zero-dims 0.1 --small-ints 0.3, program
// 1114, in its dynamic program specialized by graph-run): the loop keeps
// the dynamic type, the batch became a static 0 after lowering, and the
// pool's padding (a tensor.pad of a 0x3x4x1 image) bufferized into a
// subview at offset 0 of a zero-size dim, which the memref verifier
// rejects. The result has no elements.
// RUN: graph-run %s --entry=pool_of_empty_loop_result --input=0x3x4x1xf32= \
// RUN:   --expected-output=0x3x2x1xf32= --quiet | FileCheck %s
func.func @pool_of_empty_loop_result(%x: tensor<?x3x4x1xf32>) -> tensor<?x3x2x1xf32> {
  %n = graph.constant dense<1> : tensor<i64>
  %t = graph.constant dense<true> : tensor<i1>
  %l = graph.loop %n, %t, %x : (tensor<i64>, tensor<i1>, tensor<?x3x4x1xf32>) -> tensor<?x3x4x1xf32> {
  ^bb0(%i: tensor<i64>, %v: tensor<?x3x4x1xf32>):
    %c = graph.constant dense<0.75> : tensor<f32>
    %m = graph.mul %v, %c : tensor<?x3x4x1xf32>, tensor<f32> -> tensor<?x3x4x1xf32>
    graph.yield %t, %m : tensor<i1>, tensor<?x3x4x1xf32>
  }
  %p = graph.max_pool2d %l {kernel = array<i64: 2, 2>, strides = array<i64: 2, 1>, padding = array<i64: 0, 1, 0, 0>, dilations = array<i64: 1, 1>, ceil_mode} : (tensor<?x3x4x1xf32>) -> tensor<?x3x2x1xf32>
  return %p : tensor<?x3x2x1xf32>
}

// A wrong result (fuzz seed 2026120411, program 56, in every
// configuration): elementwise fusion makes sum(select(c, 4, 4), axis 1)
// one generic whose reduction adds the constant 4 to its output, and MLIR
// 22's linalg vectorizer added it once per row instead of once per
// reduced element (4 instead of 12); such reductions now stay scalar
// (combinesInvariantAlongReduction in TileAndVectorize.cpp). By hand: the
// select is 4 everywhere, its row sums 12, times 4 is 48; the broadcast
// and relu of the sums are 12.
// RUN: graph-run %s --entry=seed2026120411_56 --input=3x3xf32=1,-2,3,0,5,-6,7,8,-9 \
// RUN:   --input=3x3xf32=-1,2,0,4,-5,6,-7,8,9 --expected-output=3xi32=48,48,48 \
// RUN:   --expected-output=4x3xi32=12 --quiet | FileCheck %s --check-prefix=TWO
// RUN: graph-run %s --entry=seed2026120411_56 --optimize=false --input=3x3xf32=0 \
// RUN:   --input=3x3xf32=0 --expected-output=3xi32=48,48,48 \
// RUN:   --expected-output=4x3xi32=12 --quiet | FileCheck %s --check-prefix=TWO
func.func @seed2026120411_56(%arg0: tensor<3x3xf32>, %arg1: tensor<3x3xf32>) -> (tensor<3xi32>, tensor<4x3xi32>) {
  %c0 = graph.constant dense<0.0> : tensor<3x1xf32>
  %v1 = graph.compare le, %arg1, %c0 : tensor<3x3xf32>, tensor<3x1xf32> -> tensor<3x3xi1>
  %c2 = graph.constant dense<4> : tensor<1x3xi32>
  %v3 = graph.select %v1, %c2, %c2 : tensor<3x3xi1>, tensor<1x3xi32>, tensor<1x3xi32> -> tensor<3x3xi32>
  %v4 = graph.reduce sum %v3 axes = [1] : tensor<3x3xi32> -> tensor<3xi32>
  %v5 = graph.broadcast_to %v4, [4, 3] : tensor<3xi32> -> tensor<4x3xi32>
  %c6 = graph.constant dense<4> : tensor<i32>
  %v7 = graph.mul %c6, %v4 : tensor<i32>, tensor<3xi32> -> tensor<3xi32>
  %v8 = graph.relu %v5 : tensor<4x3xi32> -> tensor<4x3xi32>
  %v9 = graph.abs %v7 : tensor<3xi32> -> tensor<3xi32>
  return %v9, %v8 : tensor<3xi32>, tensor<4x3xi32>
}
