// REQUIRES: mlir-pdll
// --verify-rewrites with --load-patterns checks each rewritten function as a
// whole: it is JIT-compiled before and after and run on the same inputs; if
// any result differs, all its rewrites are undone. The granularity is the
// function: in @mixed, the right silu rewrite is undone with the wrong one.
// RUN: graph-opt %s --load-patterns=%S/Inputs/apply-pdl-patterns-wrong.pdll \
// RUN:   --verify-rewrites 2>&1 | FileCheck %s --check-prefix=VERIFY
// Without verification both rules apply.
// RUN: graph-opt %s --load-patterns=%S/Inputs/apply-pdl-patterns-wrong.pdll \
// RUN:   | FileCheck %s --check-prefix=TRUSTED
// The seed's relu -> leaky_relu changes results by design: rejected. The
// attention rule preserves them: kept.
// RUN: graph-opt %s --load-patterns=%graphopt_src/examples/patterns/relu_to_leaky_relu.pdll \
// RUN:   --verify-rewrites 2>&1 | FileCheck %s --check-prefix=LEAKY
// RUN: graph-opt %s --load-patterns=%graphopt_src/examples/patterns/attention.pdll \
// RUN:   --verify-rewrites 2>&1 | FileCheck %s --check-prefix=ATTN

// VERIFY: warning: rewrites of @mixed rejected by verify-rewrites (2 rewrites undone): result 0 differs on random values (seed 1): worst at [{{[0-9]+}}, {{[0-9]+}}] the original function gives 0.000000e+00, the rewritten one
// VERIFY-NOT: warning
// VERIFY-LABEL: func.func @mixed
// VERIFY: graph.relu
// VERIFY: graph.sigmoid
// VERIFY-NOT: graph.silu
// VERIFY-LABEL: func.func @silu_only
// VERIFY-NEXT: graph.silu
// VERIFY-NEXT: return

// TRUSTED-LABEL: func.func @mixed
// TRUSTED: graph.abs
// TRUSTED: graph.silu
// TRUSTED-LABEL: func.func @silu_only
// TRUSTED-NEXT: graph.silu

// LEAKY: warning: rewrites of @mixed rejected by verify-rewrites (1 rewrite undone)
// LEAKY-NOT: warning
// LEAKY-LABEL: func.func @mixed
// LEAKY: graph.relu

// ATTN-NOT: warning
// ATTN-LABEL: func.func @attention
// ATTN-NEXT: fusion.attention
// ATTN-NEXT: return
func.func @mixed(%x: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %r = graph.relu %x : tensor<8x16xf32> -> tensor<8x16xf32>
  %s = graph.sigmoid %x : tensor<8x16xf32> -> tensor<8x16xf32>
  %y = graph.mul %x, %s : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %r, %y : tensor<8x16xf32>, tensor<8x16xf32>
}

func.func @silu_only(%x: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %s = graph.sigmoid %x : tensor<?x16xf32> -> tensor<?x16xf32>
  %y = graph.mul %x, %s : tensor<?x16xf32>, tensor<?x16xf32> -> tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}

func.func @attention(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x5xf32>) -> tensor<2x4x5xf32> {
  %kt = graph.transpose %k, [0, 2, 1] : tensor<2x6x8xf32> -> tensor<2x8x6xf32>
  %s = graph.matmul %q, %kt : tensor<2x4x8xf32>, tensor<2x8x6xf32> -> tensor<2x4x6xf32>
  %c = graph.constant dense<2.828427> : tensor<f32>
  %ss = graph.div %s, %c : tensor<2x4x6xf32>, tensor<f32> -> tensor<2x4x6xf32>
  %p = graph.softmax %ss axis = 2 : tensor<2x4x6xf32> -> tensor<2x4x6xf32>
  %o = graph.matmul %p, %v : tensor<2x4x6xf32>, tensor<2x6x5xf32> -> tensor<2x4x5xf32>
  return %o : tensor<2x4x5xf32>
}
