// The CPU pipeline emits host vector code, visible in the LLVM IR and as zmm
// instructions after llc: the matmul register block is 8 rows x 2 vectors,
// so each k step is 8 FMAs on 2*vw lanes (v32f32 = 2 zmm with AVX-512); the
// elementwise add is applied to each finished block in registers, 2*vw
// lanes per row (graph-cpu-tile-and-vectorize's matmul epilogue).
// RUN: graph-opt %s --graph-cpu-pipeline="vector-width=16" | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=IR
// RUN: graph-opt %s --graph-cpu-pipeline="vector-width=16" | mlir-translate --mlir-to-llvmir | llc -O3 -mattr=+avx512f | FileCheck %s --check-prefix=ASM
// RUN: graph-opt %s --graph-cpu-pipeline="vector-width=8" | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=AVX2
// With AVX2's 16 vector registers the register block has at most 6 rows
// (here 4, the largest divisor of 64): its accumulators, B vectors and
// broadcast fit, so the k loop spills nothing (8 rows spilled 4
// accumulators every step).
// RUN: graph-opt %s --graph-cpu-pipeline="vector-width=8" | mlir-translate --mlir-to-llvmir | llc -O3 -mcpu=haswell | FileCheck %s --check-prefix=AVX2-ASM
// AVX2-ASM: vfmadd231ps {{.*}}ymm
// AVX2-ASM-NOT: {{Spill|Reload}}
// AVX2-ASM: {{^[[:space:]]+j[a-z]+}}

// IR-LABEL: define {{.*}} @main
// IR-COUNT-8: call <32 x float> @llvm.fmuladd.v32f32
// IR-COUNT-8: fadd <32 x float>
// ASM: vfmadd{{[0-9]+}}ps {{.*}}zmm
// AVX2: call <16 x float> @llvm.fmuladd.v16f32
// AVX2: fadd <16 x float>
func.func @main(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %a = graph.matmul %x, %y : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  %b = graph.add %a, %x : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  return %b : tensor<64x64xf32>
}
