// REQUIRES: mlir-pdll
// The seed's rewrites as PDLL rules loaded at run time (examples/patterns),
// and a PDL module written by hand.
// RUN: graph-opt %s --load-patterns=%graphopt_src/examples/patterns/relu_to_leaky_relu.pdll \
// RUN:   | FileCheck %s --check-prefix=RELU
// RUN: graph-opt %s --load-patterns=%graphopt_src/examples/patterns/linear_to_identity.pdll \
// RUN:   | FileCheck %s --check-prefix=LINEAR
// RUN: graph-opt %s --load-patterns=%graphopt_src/examples/patterns/attention.pdll \
// RUN:   | FileCheck %s --check-prefix=ATTN
// RUN: graph-opt %s --load-patterns=%S/Inputs/apply-pdl-patterns-rules.mlir \
// RUN:   | FileCheck %s --check-prefix=PDL
// The pass spelled out, with report=true: one line per rewrite.
// RUN: graph-opt %s -o /dev/null 2>&1 \
// RUN:   --graph-apply-pdl-patterns='patterns-file=%graphopt_src/examples/patterns/relu_to_leaky_relu.pdll report=true' \
// RUN:   | FileCheck %s --check-prefix=REPORT

// REPORT: graph-apply-pdl-patterns: rewrote 'graph.relu' in @relus at loc("{{.*}}apply-pdl-patterns.mlir":[[#@LINE+12]]:
// REPORT: graph-apply-pdl-patterns: rewrote 'graph.relu' in @relus at loc("{{.*}}apply-pdl-patterns.mlir":[[#@LINE+12]]:
// REPORT-NOT: rewrote

// Every relu becomes leaky_relu (alpha 0.01, the default, so not printed);
// the result type is inferred.
// RELU-LABEL: func.func @relus
// RELU-SAME: (%[[A:.+]]: tensor<4xf32>, %[[B:.+]]: tensor<2x3xf32>)
// RELU-NEXT: %[[R1:.+]] = graph.leaky_relu %[[A]] : tensor<4xf32> -> tensor<4xf32>
// RELU-NEXT: %[[R2:.+]] = graph.leaky_relu %[[B]] : tensor<2x3xf32> -> tensor<2x3xf32>
// RELU-NEXT: return %[[R1]], %[[R2]]
func.func @relus(%a: tensor<4xf32>, %b: tensor<2x3xf32>) -> (tensor<4xf32>, tensor<2x3xf32>) {
  %0 = graph.relu %a : tensor<4xf32> -> tensor<4xf32>
  %1 = graph.relu %b : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0, %1 : tensor<4xf32>, tensor<2x3xf32>
}

// Linear 10 -> 10 becomes the identity: the transpose, matmul and add go.
// LINEAR-LABEL: func.func @linear_square
// LINEAR-SAME: (%[[X:.+]]: tensor<1x10xf32>, %{{.+}}: tensor<10x10xf32>, %{{.+}}: tensor<10xf32>)
// LINEAR-NEXT: return %[[X]]
func.func @linear_square(%x: tensor<1x10xf32>, %w: tensor<10x10xf32>, %b: tensor<10xf32>) -> tensor<1x10xf32> {
  %wt = graph.transpose %w, [1, 0] : tensor<10x10xf32> -> tensor<10x10xf32>
  %y = graph.matmul %x, %wt : tensor<1x10xf32>, tensor<10x10xf32> -> tensor<1x10xf32>
  %r = graph.add %y, %b : tensor<1x10xf32>, tensor<10xf32> -> tensor<1x10xf32>
  return %r : tensor<1x10xf32>
}

// Linear 10 -> 20 does not match: the input and result types differ.
// LINEAR-LABEL: func.func @linear_wide
// LINEAR: graph.transpose
// LINEAR: graph.matmul
// LINEAR: graph.add
func.func @linear_wide(%x: tensor<1x10xf32>, %w: tensor<20x10xf32>, %b: tensor<20xf32>) -> tensor<1x20xf32> {
  %wt = graph.transpose %w, [1, 0] : tensor<20x10xf32> -> tensor<10x20xf32>
  %y = graph.matmul %x, %wt : tensor<1x10xf32>, tensor<10x20xf32> -> tensor<1x20xf32>
  %r = graph.add %y, %b : tensor<1x20xf32>, tensor<20xf32> -> tensor<1x20xf32>
  return %r : tensor<1x20xf32>
}

// A transpose of w that is not [1, 0] is not a Linear.
// LINEAR-LABEL: func.func @linear_other_permutation
// LINEAR: graph.transpose %{{.+}}, [0, 2, 1]
// LINEAR: graph.add
func.func @linear_other_permutation(%x: tensor<2x3x4xf32>, %w: tensor<2x4x4xf32>, %b: tensor<4xf32>) -> tensor<2x3x4xf32> {
  %wt = graph.transpose %w, [0, 2, 1] : tensor<2x4x4xf32> -> tensor<2x4x4xf32>
  %y = graph.matmul %x, %wt : tensor<2x3x4xf32>, tensor<2x4x4xf32> -> tensor<2x3x4xf32>
  %r = graph.add %y, %b : tensor<2x3x4xf32>, tensor<4xf32> -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}

// PyTorch's attention, q @ k^T / sqrt(d), softmax, @ v: one fusion.attention
// with scale 1/2.
// ATTN-LABEL: func.func @sdpa_div
// ATTN-SAME: (%[[Q:.+]]: tensor<2x4x8xf32>, %[[K:.+]]: tensor<2x6x8xf32>, %[[V:.+]]: tensor<2x6x5xf32>)
// ATTN-NEXT: %[[O:.+]] = fusion.attention %[[Q]], %[[K]], %[[V]] scale = 5.000000e-01 : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x5xf32>) -> tensor<2x4x5xf32>
// ATTN-NEXT: return %[[O]]
func.func @sdpa_div(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x5xf32>) -> tensor<2x4x5xf32> {
  %kt = graph.transpose %k, [0, 2, 1] : tensor<2x6x8xf32> -> tensor<2x8x6xf32>
  %s = graph.matmul %q, %kt : tensor<2x4x8xf32>, tensor<2x8x6xf32> -> tensor<2x4x6xf32>
  %c = graph.constant dense<2.0> : tensor<f32>
  %ss = graph.div %s, %c : tensor<2x4x6xf32>, tensor<f32> -> tensor<2x4x6xf32>
  %p = graph.softmax %ss axis = 2 : tensor<2x4x6xf32> -> tensor<2x4x6xf32>
  %o = graph.matmul %p, %v : tensor<2x4x6xf32>, tensor<2x6x5xf32> -> tensor<2x4x5xf32>
  return %o : tensor<2x4x5xf32>
}

// The multiplicative form, rank 2.
// ATTN-LABEL: func.func @sdpa_mul
// ATTN-NEXT: fusion.attention %{{.+}}, %{{.+}}, %{{.+}} scale = 1.250000e-01
// ATTN-NEXT: return
func.func @sdpa_mul(%q: tensor<4x8xf32>, %k: tensor<6x8xf32>, %v: tensor<6x8xf32>) -> tensor<4x8xf32> {
  %kt = graph.transpose %k, [1, 0] : tensor<6x8xf32> -> tensor<8x6xf32>
  %s = graph.matmul %q, %kt : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  %c = graph.constant dense<0.125> : tensor<f32>
  %ss = graph.mul %s, %c : tensor<4x6xf32>, tensor<f32> -> tensor<4x6xf32>
  %p = graph.softmax %ss axis = 1 : tensor<4x6xf32> -> tensor<4x6xf32>
  %o = graph.matmul %p, %v : tensor<4x6xf32>, tensor<6x8xf32> -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// Softmax over the wrong axis: not attention.
// ATTN-LABEL: func.func @softmax_not_last
// ATTN-NOT: fusion.attention
// ATTN: graph.softmax
func.func @softmax_not_last(%q: tensor<4x8xf32>, %k: tensor<6x8xf32>, %v: tensor<4x8xf32>) -> tensor<6x8xf32> {
  %kt = graph.transpose %k, [1, 0] : tensor<6x8xf32> -> tensor<8x6xf32>
  %s = graph.matmul %q, %kt : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  %c = graph.constant dense<0.125> : tensor<f32>
  %ss = graph.mul %s, %c : tensor<4x6xf32>, tensor<f32> -> tensor<4x6xf32>
  %p = graph.softmax %ss axis = 0 : tensor<4x6xf32> -> tensor<4x6xf32>
  %pt = graph.transpose %p, [1, 0] : tensor<4x6xf32> -> tensor<6x4xf32>
  %o = graph.matmul %pt, %v : tensor<6x4xf32>, tensor<4x8xf32> -> tensor<6x8xf32>
  return %o : tensor<6x8xf32>
}

// A transpose that moves a batch dim: not attention.
// ATTN-LABEL: func.func @batch_transpose
// ATTN-NOT: fusion.attention
// ATTN: graph.transpose %{{.+}}, [2, 1, 0]
func.func @batch_transpose(%q: tensor<4x4x4xf32>, %k: tensor<4x4x4xf32>, %v: tensor<4x4x5xf32>) -> tensor<4x4x5xf32> {
  %kt = graph.transpose %k, [2, 1, 0] : tensor<4x4x4xf32> -> tensor<4x4x4xf32>
  %s = graph.matmul %q, %kt : tensor<4x4x4xf32>, tensor<4x4x4xf32> -> tensor<4x4x4xf32>
  %c = graph.constant dense<2.0> : tensor<f32>
  %ss = graph.div %s, %c : tensor<4x4x4xf32>, tensor<f32> -> tensor<4x4x4xf32>
  %p = graph.softmax %ss axis = 2 : tensor<4x4x4xf32> -> tensor<4x4x4xf32>
  %o = graph.matmul %p, %v : tensor<4x4x4xf32>, tensor<4x4x5xf32> -> tensor<4x4x5xf32>
  return %o : tensor<4x4x5xf32>
}

// The hand-written PDL rule: x * 2 -> x + x, through the native constraint
// SplatEquals; x * 3 stays.
// PDL-LABEL: func.func @times_two
// PDL-SAME: (%[[X:.+]]: tensor<4xf32>)
// PDL: %[[S:.+]] = graph.add %[[X]], %[[X]] : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
// PDL: return %[[S]]
func.func @times_two(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = graph.constant dense<2.0> : tensor<f32>
  %y = graph.mul %x, %c : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}
// PDL-LABEL: func.func @times_three
// PDL: graph.mul
func.func @times_three(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = graph.constant dense<3.0> : tensor<f32>
  %y = graph.mul %x, %c : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}
