// The f16 rule (docs/Dialects/Graph.md, Numerics): compute in f32, round
// the result once. These ops sum many terms; each once rounded its partial
// sums to f16 (errors of 2-7 f16 ulp): depthwise and grouped conv2d
// accumulated in f16, cumsum rounded its running total, and the layer_norm /
// batch_norm decompositions rounded their intermediates to f16.
// RUN: rm -rf %t && mkdir -p %t
// Ops that sum many terms, on positive inputs (no cancellation), so that a
// result rounded once is within rtol 1e-3 and one whose partial sums are
// rounded to f16 is not: depthwise and grouped conv2d (25 and 50 products),
// cumsum over 64 values, and the composites layer_norm and batch_norm
// (whose decomposition must not round its intermediate results to f16).
// RUN: %reference f16_accumulation %t/f16_accumulation
// RUN: graph-run %s --entry=f16_accumulation --quiet --rtol=1e-3 --atol=1e-5 \
// RUN:   --input=@%t/f16_accumulation/x0.npy --input=@%t/f16_accumulation/x1.npy \
// RUN:   --input=@%t/f16_accumulation/x2.npy --input=@%t/f16_accumulation/x3.npy \
// RUN:   --input=@%t/f16_accumulation/x4.npy --input=@%t/f16_accumulation/x5.npy \
// RUN:   --input=@%t/f16_accumulation/x6.npy --input=@%t/f16_accumulation/x7.npy \
// RUN:   --input=@%t/f16_accumulation/x8.npy --expected-output=@%t/f16_accumulation/expected.npy \
// RUN:   --expected-output=@%t/f16_accumulation/expected1.npy --expected-output=@%t/f16_accumulation/expected2.npy \
// RUN:   --expected-output=@%t/f16_accumulation/expected3.npy --expected-output=@%t/f16_accumulation/expected4.npy \
// RUN:   | FileCheck %s --check-prefix=FIVE

// FIVE: result 0: matches expected
// FIVE: result 1: matches expected
// FIVE: result 2: matches expected
// FIVE: result 3: matches expected
// FIVE: result 4: matches expected

func.func @f16_accumulation(%x: tensor<1x4x8x8xf16>, %wd: tensor<4x1x5x5xf16>, %wg: tensor<4x2x5x5xf16>, %c: tensor<64xf16>,
                            %ln: tensor<4x64xf16>, %lw: tensor<64xf16>, %lb: tensor<64xf16>, %m: tensor<4xf16>, %v: tensor<4xf16>)
    -> (tensor<1x4x4x4xf16>, tensor<1x4x4x4xf16>, tensor<64xf16>, tensor<4x64xf16>, tensor<1x4x8x8xf16>) {
  %0 = graph.conv2d %x, %wd {groups = 4 : i64} : (tensor<1x4x8x8xf16>, tensor<4x1x5x5xf16>) -> tensor<1x4x4x4xf16>
  %1 = graph.conv2d %x, %wg {groups = 2 : i64} : (tensor<1x4x8x8xf16>, tensor<4x2x5x5xf16>) -> tensor<1x4x4x4xf16>
  %2 = graph.cumsum %c {axis = 0 : i64} : tensor<64xf16> -> tensor<64xf16>
  %3 = graph.layer_norm %ln, %lw, %lb : (tensor<4x64xf16>, tensor<64xf16>, tensor<64xf16>) -> tensor<4x64xf16>
  %4 = graph.batch_norm %x, %m, %v, %m, %v : (tensor<1x4x8x8xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>) -> tensor<1x4x8x8xf16>
  return %0, %1, %2, %3, %4 : tensor<1x4x4x4xf16>, tensor<1x4x4x4xf16>, tensor<64xf16>, tensor<4x64xf16>, tensor<1x4x8x8xf16>
}
