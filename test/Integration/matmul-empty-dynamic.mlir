// Matmuls whose result has a zero-size dim next to dynamic batch dims,
// compiled without shape specialization: found by the fuzzer
// (fuzz_graph.py --zero-dims; seeds 20261212 program 227, 20261215
// program 796, 777 program 562). Their lowering collapsed the zero-size
// dim together with dynamic ones, which memref.collapse_shape rejects
// ("collapsed dim must be dynamic if and only if reassociation group is
// dynamic"); an empty result is now a tensor.empty of the result's sizes.
// The expected values are by hand: every result has a zero-size dim, so it
// is empty, with the batch size of the input.
// RUN: graph-run %s --entry=main --specialize-shapes=false \
// RUN:   --input=2x0x6x4xf32= --expected-output=2x0x3x4xf32= --quiet | FileCheck %s
// RUN: graph-run %s --entry=batched_empty_lhs --specialize-shapes=false \
// RUN:   --input=1x0x1x6xf32= --expected-output=0xf32= \
// RUN:   --expected-output=1x0x1x6xf32= --quiet | FileCheck %s --check-prefix=TWO
// RUN: graph-run %s --entry=batched_empty_lhs --specialize-shapes=false \
// RUN:   --input=3x0x1x6xf32= --expected-output=0xf32= \
// RUN:   --expected-output=3x0x1x6xf32= --quiet | FileCheck %s --check-prefix=TWO
// A contraction dim of size zero (K = 0, from a 0x5 constant) with
// dynamic batch dims that shape refinement makes partly static (found by
// fuzz_graph.py --zero-dims, seed 20261205 program 15, minimized): every
// element is an empty sum, so the result is zeros of [1, 3, 5], by hand;
// the broadcast is empty and the input is returned as it is.
// RUN: graph-run %s --entry=k_zero --specialize-shapes=false \
// RUN:   --input=1x3x0xf32= --expected-output=2x0x3x0xf32= \
// RUN:   --expected-output=1x3x5xf32=0 --expected-output=1x3x0xf32= \
// RUN:   --quiet | FileCheck %s --check-prefix=KZERO
// CHECK: result 0: matches expected
// TWO: result 0: matches expected
// TWO: result 1: matches expected
// KZERO: result 0: matches expected
// KZERO: result 1: matches expected
// KZERO: result 2: matches expected
func.func @main(%x: tensor<?x?x?x?xf32>) -> tensor<?x0x3x?xf32> {
  %c = graph.constant dense<> : tensor<0x3x6xf32>
  %0 = graph.matmul %c, %x : tensor<0x3x6xf32>, tensor<?x?x?x?xf32> -> tensor<?x0x3x?xf32>
  return %0 : tensor<?x0x3x?xf32>
}

func.func @batched_empty_lhs(%arg0: tensor<?x?x?x?xf32>) -> (tensor<0xf32>, tensor<?x0x1x6xf32>) {
  %v0 = graph.relu %arg0 : tensor<?x?x?x?xf32> -> tensor<?x?x?x?xf32>
  %c1 = graph.constant dense<-0.0> : tensor<6xf32>
  %v2 = graph.mul %v0, %c1 : tensor<?x?x?x?xf32>, tensor<6xf32> -> tensor<?x?x?x6xf32>
  %c3 = graph.constant dense<> : tensor<1x0x1x1xf32>
  %v4 = graph.matmul %c3, %v2 : tensor<1x0x1x1xf32>, tensor<?x?x?x6xf32> -> tensor<?x0x1x6xf32>
  %v5 = graph.reduce max %c3 axes = [0, 2, 3] : tensor<1x0x1x1xf32> -> tensor<0xf32>
  return %v5, %v4 : tensor<0xf32>, tensor<?x0x1x6xf32>
}

func.func @k_zero(%arg0: tensor<?x?x?xf32>) -> (tensor<2x0x?x0xf32>, tensor<?x?x5xf32>, tensor<?x?x?xf32>) {
  %c0 = graph.constant dense<0.5> : tensor<f32>
  %v1 = graph.add %arg0, %c0 : tensor<?x?x?xf32>, tensor<f32> -> tensor<?x?x?xf32>
  %c2 = graph.constant dense<> : tensor<0x5xf32>
  %v3 = graph.matmul %v1, %c2 : tensor<?x?x?xf32>, tensor<0x5xf32> -> tensor<?x?x5xf32>
  %v4 = graph.broadcast_to %v1, [2, 0, -1, 0] : tensor<?x?x?xf32> -> tensor<2x0x?x0xf32>
  return %v4, %v3, %arg0 : tensor<2x0x?x0xf32>, tensor<?x?x5xf32>, tensor<?x?x?xf32>
}
