// RUN: rm -rf %t && mkdir -p %t
// RUN: %reference rounding %t

// graph.floor, graph.ceil and graph.round (ties to even) against NumPy's
// np.floor, np.ceil and np.round of the same f32 values: exact, so the
// tolerances are zero; NaN matches NaN and the signed zeros of
// ceil(-0.3), round(-0.5), round(-0.49999997) are compared by value.
// RUN: graph-run %s --quiet --input=@%t/x0.npy \
// RUN:   --expected-output=@%t/expected.npy --expected-output=@%t/expected1.npy \
// RUN:   --expected-output=@%t/expected2.npy --rtol=0 --atol=0 | FileCheck %s
// CHECK-COUNT-3: matches expected

// Splats fold (std::floor, std::ceil, std::nearbyint), to values worked out
// by hand: floor(-2.5) = -3, ceil(-2.5) = -2, round(-2.5) = -2 (even),
// round(3.5) = 4 (even).
// RUN: graph-opt %s --canonicalize | FileCheck %s --check-prefix=FOLD
// FOLD-LABEL: func.func @folded
// (ceil(-2.5) and round(-2.5) are one constant after CSE.)
// FOLD-NEXT: %[[F:.*]] = graph.constant dense<-3.000000e+00> : tensor<4xf32>
// FOLD-NEXT: %[[C:.*]] = graph.constant dense<-2.000000e+00> : tensor<4xf32>
// FOLD-NEXT: %[[R:.*]] = graph.constant dense<4.000000e+00> : tensor<4xf32>
// FOLD-NEXT: return %[[F]], %[[C]], %[[C]], %[[R]]

// The CPU code rounds with one instruction per vector (vrndscaleps with
// imm 9, 10 and 8: floor, ceil, to nearest even; or roundps with SSE4.1).
// RUN: graph-opt %s --graph-cpu-pipeline --mlir-print-ir-after=convert-math-to-llvm 2>&1 | FileCheck %s --check-prefix=LLVM
// LLVM-DAG: llvm.intr.floor
// LLVM-DAG: llvm.intr.ceil
// LLVM-DAG: llvm.intr.roundeven

func.func @main(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %0 = graph.floor %x : tensor<64xf32> -> tensor<64xf32>
  %1 = graph.ceil %x : tensor<64xf32> -> tensor<64xf32>
  %2 = graph.round %x : tensor<64xf32> -> tensor<64xf32>
  return %0, %1, %2 : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}

func.func @folded() -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %m = graph.constant dense<-2.5> : tensor<4xf32>
  %p = graph.constant dense<3.5> : tensor<4xf32>
  %0 = graph.floor %m : tensor<4xf32> -> tensor<4xf32>
  %1 = graph.ceil %m : tensor<4xf32> -> tensor<4xf32>
  %2 = graph.round %m : tensor<4xf32> -> tensor<4xf32>
  %3 = graph.round %p : tensor<4xf32> -> tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
