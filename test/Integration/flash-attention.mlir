// The flash-attention lowering of fusion.attention (convert-fusion-attention,
// run by graph-cpu-pipeline) against NumPy written independently
// (test/lib/reference.py, sdpa()). The cases cover lengths that the 64x64
// blocks do not divide (77 x 130: blocks of 40 rows and 48 keys, padded),
// causal with L < S and L > S, boolean and float masks that empty whole key
// blocks of a row (the online softmax then starts from m = -inf), fully
// masked rows (NaN, as the op's definition gives), batch dims broadcast
// between q and k/v and a per-batch key-padding mask, dynamic shapes and f16.
// graph.scaled_dot_product_attention takes the same path
// (fusion-form-attention maps it to fusion.attention).
//
// Tolerances: f32 results rtol 1e-5, atol 1e-6 (the reference computes in
// float64; the lowering in f32 with a polynomial exp and blockwise sums).
// f16 computes in f32 inside and rounds the result once: rtol 1e-3 (one f16
// ulp is ~9.8e-4 of the value), atol 1e-4.
//
// Every function lowers (no fusion.attention is left for fusion-expand):
// RUN: graph-opt %s --pass-pipeline='builtin.module(func.func(fusion-form-attention,convert-fusion-attention))' | FileCheck %s --check-prefix=LOWERED
// LOWERED-NOT: fusion.attention
// LOWERED-NOT: graph.scaled_dot_product_attention
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %reference flash_plain %t/plain
// RUN: graph-run %s --entry=plain --quiet --input=@%t/plain/x0.npy --input=@%t/plain/x1.npy \
// RUN:   --input=@%t/plain/x2.npy --expected-output=@%t/plain/expected.npy --rtol=1e-5 --atol=1e-6 | FileCheck %s
// RUN: graph-run %s --entry=plain_sdpa --quiet --input=@%t/plain/x0.npy --input=@%t/plain/x1.npy \
// RUN:   --input=@%t/plain/x2.npy --expected-output=@%t/plain/expected.npy --rtol=1e-5 --atol=1e-6 | FileCheck %s
// RUN: %reference flash_causal_odd %t/co
// RUN: graph-run %s --entry=causal_odd --quiet --input=@%t/co/x0.npy --input=@%t/co/x1.npy \
// RUN:   --input=@%t/co/x2.npy --expected-output=@%t/co/expected.npy --rtol=1e-5 --atol=1e-6 | FileCheck %s
// RUN: graph-run %s --entry=causal_dynamic --quiet --specialize-shapes=false --input=@%t/co/x0.npy \
// RUN:   --input=@%t/co/x1.npy --input=@%t/co/x2.npy --expected-output=@%t/co/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-6 | FileCheck %s
// RUN: %reference flash_causal_tall %t/ct
// RUN: graph-run %s --entry=causal_tall --quiet --input=@%t/ct/x0.npy --input=@%t/ct/x1.npy \
// RUN:   --input=@%t/ct/x2.npy --expected-output=@%t/ct/expected.npy --rtol=1e-5 --atol=1e-6 | FileCheck %s
// RUN: %reference flash_bool_mask %t/bm
// RUN: graph-run %s --entry=bool_mask --quiet --input=@%t/bm/x0.npy --input=@%t/bm/x1.npy \
// RUN:   --input=@%t/bm/x2.npy --input=@%t/bm/x3.npy --expected-output=@%t/bm/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-6 | FileCheck %s
// RUN: %reference flash_float_mask %t/fm
// RUN: graph-run %s --entry=float_mask --quiet --input=@%t/fm/x0.npy --input=@%t/fm/x1.npy \
// RUN:   --input=@%t/fm/x2.npy --input=@%t/fm/x3.npy --expected-output=@%t/fm/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-6 | FileCheck %s
// RUN: %reference flash_broadcast %t/bc
// RUN: graph-run %s --entry=broadcast_sdpa --quiet --input=@%t/bc/x0.npy --input=@%t/bc/x1.npy \
// RUN:   --input=@%t/bc/x2.npy --input=@%t/bc/x3.npy --expected-output=@%t/bc/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-6 | FileCheck %s
// RUN: %reference flash_f16 %t/f16
// RUN: graph-run %s --entry=causal_f16 --quiet --input=@%t/f16/x0.npy --input=@%t/f16/x1.npy \
// RUN:   --input=@%t/f16/x2.npy --expected-output=@%t/f16/expected.npy --rtol=1e-3 --atol=1e-4 | FileCheck %s

// CHECK: result 0: matches expected

func.func @plain(%q: tensor<2x3x128x64xf32>, %k: tensor<2x3x128x64xf32>, %v: tensor<2x3x128x64xf32>) -> tensor<2x3x128x64xf32> {
  %o = fusion.attention %q, %k, %v : (tensor<2x3x128x64xf32>, tensor<2x3x128x64xf32>, tensor<2x3x128x64xf32>) -> tensor<2x3x128x64xf32>
  return %o : tensor<2x3x128x64xf32>
}

func.func @plain_sdpa(%q: tensor<2x3x128x64xf32>, %k: tensor<2x3x128x64xf32>, %v: tensor<2x3x128x64xf32>) -> tensor<2x3x128x64xf32> {
  %o = graph.scaled_dot_product_attention %q, %k, %v : (tensor<2x3x128x64xf32>, tensor<2x3x128x64xf32>, tensor<2x3x128x64xf32>) -> tensor<2x3x128x64xf32>
  return %o : tensor<2x3x128x64xf32>
}

func.func @causal_odd(%q: tensor<2x3x77x16xf32>, %k: tensor<2x3x130x16xf32>, %v: tensor<2x3x130x8xf32>) -> tensor<2x3x77x8xf32> {
  %o = fusion.attention %q, %k, %v causal : (tensor<2x3x77x16xf32>, tensor<2x3x130x16xf32>, tensor<2x3x130x8xf32>) -> tensor<2x3x77x8xf32>
  return %o : tensor<2x3x77x8xf32>
}

func.func @causal_dynamic(%q: tensor<?x?x?x16xf32>, %k: tensor<?x?x?x16xf32>, %v: tensor<?x?x?x8xf32>) -> tensor<?x?x?x8xf32> {
  %o = fusion.attention %q, %k, %v causal : (tensor<?x?x?x16xf32>, tensor<?x?x?x16xf32>, tensor<?x?x?x8xf32>) -> tensor<?x?x?x8xf32>
  return %o : tensor<?x?x?x8xf32>
}

func.func @causal_tall(%q: tensor<4x150x32xf32>, %k: tensor<4x70x32xf32>, %v: tensor<4x70x16xf32>) -> tensor<4x150x16xf32> {
  %o = fusion.attention %q, %k, %v causal scale = 0.3 : (tensor<4x150x32xf32>, tensor<4x70x32xf32>, tensor<4x70x16xf32>) -> tensor<4x150x16xf32>
  return %o : tensor<4x150x16xf32>
}

func.func @bool_mask(%q: tensor<2x2x70x32xf32>, %k: tensor<2x2x150x32xf32>, %v: tensor<2x2x150x16xf32>, %m: tensor<70x150xi1>) -> tensor<2x2x70x16xf32> {
  %o = fusion.attention %q, %k, %v mask(%m : tensor<70x150xi1>) : (tensor<2x2x70x32xf32>, tensor<2x2x150x32xf32>, tensor<2x2x150x16xf32>) -> tensor<2x2x70x16xf32>
  return %o : tensor<2x2x70x16xf32>
}

func.func @float_mask(%q: tensor<3x77x16xf32>, %k: tensor<3x130x16xf32>, %v: tensor<3x130x24xf32>, %m: tensor<3x77x130xf32>) -> tensor<3x77x24xf32> {
  %o = fusion.attention %q, %k, %v mask(%m : tensor<3x77x130xf32>) scale = 0.5 : (tensor<3x77x16xf32>, tensor<3x130x16xf32>, tensor<3x130x24xf32>) -> tensor<3x77x24xf32>
  return %o : tensor<3x77x24xf32>
}

func.func @broadcast_sdpa(%q: tensor<2x4x90x32xf32>, %k: tensor<2x1x200x32xf32>, %v: tensor<2x1x200x32xf32>, %m: tensor<2x1x1x200xi1>) -> tensor<2x4x90x32xf32> {
  %o = graph.scaled_dot_product_attention %q, %k, %v, %m : (tensor<2x4x90x32xf32>, tensor<2x1x200x32xf32>, tensor<2x1x200x32xf32>, tensor<2x1x1x200xi1>) -> tensor<2x4x90x32xf32>
  return %o : tensor<2x4x90x32xf32>
}

func.func @causal_f16(%q: tensor<2x100x32xf16>, %k: tensor<2x100x32xf16>, %v: tensor<2x100x32xf16>) -> tensor<2x100x32xf16> {
  %o = fusion.attention %q, %k, %v causal : (tensor<2x100x32xf16>, tensor<2x100x32xf16>, tensor<2x100x32xf16>) -> tensor<2x100x32xf16>
  return %o : tensor<2x100x32xf16>
}
