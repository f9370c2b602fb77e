// A matmul whose column count is not a whole number of vectors (196 = 12 x 16
// + 4, the im2col matmul of a conv with 14x14 outputs) is split into a
// whole-vector part of 192 columns, which gets the 8 x 32-lane register
// kernel, and, its output starting as a zero fill, one 16-lane block ending
// at the last column (columns 180-195, the first 12 computed twice), not a
// 4-lane remainder; no odd 28-lane vectors remain (they ran ~20x slower).
// RUN: graph-opt %s --graph-cpu-pipeline="vector-width=16" | mlir-translate --mlir-to-llvmir | FileCheck %s
// Numerics: the split matmul against NumPy (float64 product rounded to f32).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; r=np.random.default_rng(0); a=r.standard_normal((64,96)).astype(np.float32); b=r.standard_normal((96,196)).astype(np.float32); np.save('%t/a.npy',a); np.save('%t/b.npy',b); np.save('%t/e.npy',(a.astype(np.float64)@b.astype(np.float64)).astype(np.float32))"
// RUN: graph-run %s --quiet --input=@%t/a.npy --input=@%t/b.npy --expected-output=@%t/e.npy --rtol=1e-4 --atol=1e-4 | FileCheck %s --check-prefix=NUM
// tolerances: 96-term f32 dot products of N(0,1) values (|result| ~ 10).

// CHECK-LABEL: define {{.*}} @main
// CHECK: call <32 x float> @llvm.fmuladd.v32f32
// CHECK: call <16 x float> @llvm.fmuladd.v16f32
// CHECK-NOT: <28 x float>
// CHECK-NOT: <4 x float> @llvm.fmuladd
// NUM: result 0: matches expected
func.func @main(%a: tensor<64x96xf32>, %b: tensor<96x196xf32>) -> tensor<64x196xf32> {
  %0 = graph.matmul %a, %b : tensor<64x96xf32>, tensor<96x196xf32> -> tensor<64x196xf32>
  return %0 : tensor<64x196xf32>
}
