// RUN: graph-run %s --input=7xf32=0.3,1000,-0,17,0.001,-1e30,0.0009 | FileCheck %s
// RUN: not graph-run %s --target=cuda --compile-only 2>&1 | FileCheck %s --check-prefix=CUDA

// f32 -> f8E4M3FN -> f32 through graph-run, the values worked out by hand:
// 0.3 = 1.2 * 2^-2 rounds to 1.25 * 2^-2 = 0.3125 (3 mantissa bits);
// 1000 saturates to the largest finite value, 448; -0 stays -0; 17 is the
// tie between 16 and 18 and goes to the even mantissa, 16; 0.001 is above
// half the smallest subnormal 2^-9 and rounds to it, 0.001953125; -1e30
// saturates to -448; 0.0009 is below half of 2^-9 (0.0009765625) and
// rounds to 0. (ml_dtypes agrees on every bit pattern: float8.test.)
// CHECK: [0.3125, 448, -0, 16, 0.00195312, -448, 0]

// The CUDA target refuses the 8-bit floats with a clear error.
// CUDA: error: 8-bit float tensors ('tensor<7xf8E4M3FN>') are not supported by the CUDA target
func.func @main(%x: tensor<7xf32>) -> tensor<7xf32> {
  %y = graph.cast %x : tensor<7xf32> -> tensor<7xf8E4M3FN>
  %z = graph.cast %y : tensor<7xf8E4M3FN> -> tensor<7xf32>
  return %z : tensor<7xf32>
}
