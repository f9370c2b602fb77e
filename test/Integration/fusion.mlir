// fusion.attention and fusion.linear compute their definitions: compared
// with NumPy written independently (test/lib/reference.py, sdpa()).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %reference attention_masked %t/am && %reference attention_causal %t/ac && %reference linear_gelu %t/lg
// RUN: graph-run %s --entry=attention_masked --quiet --input=@%t/am/x0.npy --input=@%t/am/x1.npy \
// RUN:   --input=@%t/am/x2.npy --input=@%t/am/x3.npy --expected-output=@%t/am/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-6 | FileCheck %s
// RUN: graph-run %s --entry=attention_causal --quiet --input=@%t/ac/x0.npy --input=@%t/ac/x1.npy \
// RUN:   --input=@%t/ac/x2.npy --expected-output=@%t/ac/expected.npy --rtol=1e-5 --atol=1e-6 | FileCheck %s
// The same through fusion-expand (flash-attention=false), which the CPU
// pipeline otherwise no longer takes for attention:
// RUN: graph-run %s --entry=attention_masked --quiet --flash-attention=false --input=@%t/am/x0.npy \
// RUN:   --input=@%t/am/x1.npy --input=@%t/am/x2.npy --input=@%t/am/x3.npy \
// RUN:   --expected-output=@%t/am/expected.npy --rtol=1e-5 --atol=1e-6 | FileCheck %s
// RUN: graph-run %s --entry=attention_causal --quiet --flash-attention=false --input=@%t/ac/x0.npy \
// RUN:   --input=@%t/ac/x1.npy --input=@%t/ac/x2.npy --expected-output=@%t/ac/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-6 | FileCheck %s
// RUN: graph-run %s --entry=linear_gelu --quiet --input=@%t/lg/x0.npy --input=@%t/lg/x1.npy \
// RUN:   --input=@%t/lg/x2.npy --expected-output=@%t/lg/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// The unfused form, rewritten by fusion-form-linear, computes the same.
// RUN: graph-opt %s -fusion-form-linear -o %t/formed.mlir
// RUN: graph-run %t/formed.mlir --entry=linear_gelu_unfused --quiet --input=@%t/lg/x0.npy --input=@%t/lg/x1.npy \
// RUN:   --input=@%t/lg/x2.npy --expected-output=@%t/lg/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: FileCheck %s --check-prefix=FORMED < %t/formed.mlir

// CHECK: result 0: matches expected
// FORMED-LABEL: func.func @linear_gelu_unfused
// FORMED-NEXT: fusion.linear %{{.+}}, %{{.+}}, %{{.+}} transpose_weight activation = gelu

func.func @attention_masked(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x5xf32>, %m: tensor<4x6xi1>) -> tensor<2x4x5xf32> {
  %o = fusion.attention %q, %k, %v mask(%m : tensor<4x6xi1>) : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x5xf32>) -> tensor<2x4x5xf32>
  return %o : tensor<2x4x5xf32>
}

func.func @attention_causal(%q: tensor<2x5x8xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x5x8xf32>) -> tensor<2x5x8xf32> {
  %o = fusion.attention %q, %k, %v causal scale = 0.25 : (tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>) -> tensor<2x5x8xf32>
  return %o : tensor<2x5x8xf32>
}

func.func @linear_gelu(%x: tensor<3x10xf32>, %w: tensor<20x10xf32>, %b: tensor<20xf32>) -> tensor<3x20xf32> {
  %r = fusion.linear %x, %w, %b transpose_weight activation = gelu : (tensor<3x10xf32>, tensor<20x10xf32>, tensor<20xf32>) -> tensor<3x20xf32>
  return %r : tensor<3x20xf32>
}

func.func @linear_gelu_unfused(%x: tensor<3x10xf32>, %w: tensor<20x10xf32>, %b: tensor<20xf32>) -> tensor<3x20xf32> {
  %wt = graph.transpose %w, [1, 0] : tensor<20x10xf32> -> tensor<10x20xf32>
  %y = graph.matmul %x, %wt : tensor<3x10xf32>, tensor<10x20xf32> -> tensor<3x20xf32>
  %z = graph.add %y, %b : tensor<3x20xf32>, tensor<20xf32> -> tensor<3x20xf32>
  %r = graph.gelu %z : tensor<3x20xf32> -> tensor<3x20xf32>
  return %r : tensor<3x20xf32>
}

// The unfused attention (boolean mask through select, scaled by 1/sqrt(8)),
// formed into fusion.attention, against the same NumPy reference.
// RUN: graph-opt %s -fusion-form-attention -o %t/att.mlir
// RUN: FileCheck %s --check-prefix=FORMED-ATT < %t/att.mlir
// RUN: graph-run %t/att.mlir --entry=attention_unfused --quiet --input=@%t/am/x0.npy --input=@%t/am/x1.npy \
// RUN:   --input=@%t/am/x2.npy --input=@%t/am/x3.npy --expected-output=@%t/am/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-6 | FileCheck %s
// FORMED-ATT-LABEL: func.func @attention_unfused
// FORMED-ATT: fusion.attention
// FORMED-ATT-NOT: graph.softmax
func.func @attention_unfused(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x5xf32>, %m: tensor<4x6xi1>) -> tensor<2x4x5xf32> {
  %kt = graph.transpose %k, [0, 2, 1] : tensor<2x6x8xf32> -> tensor<2x8x6xf32>
  %s = graph.matmul %q, %kt : tensor<2x4x8xf32>, tensor<2x8x6xf32> -> tensor<2x4x6xf32>
  %c = graph.constant dense<2.82842712> : tensor<f32>
  %ss = graph.div %s, %c : tensor<2x4x6xf32>, tensor<f32> -> tensor<2x4x6xf32>
  %ninf = graph.constant dense<0xFF800000> : tensor<f32>
  %sm = graph.select %m, %ss, %ninf : tensor<4x6xi1>, tensor<2x4x6xf32>, tensor<f32> -> tensor<2x4x6xf32>
  %p = graph.softmax %sm axis = 2 : tensor<2x4x6xf32> -> tensor<2x4x6xf32>
  %o = graph.matmul %p, %v : tensor<2x4x6xf32>, tensor<2x6x5xf32> -> tensor<2x4x5xf32>
  return %o : tensor<2x4x5xf32>
}
