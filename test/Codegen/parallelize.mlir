// graph-cpu-parallelize: the outermost marked tile loop of each nest with
// enough work (min-work) becomes scf.parallel (here the packed matmul's
// row micro-panels, inside its reduction blocks); loops nested in it stay
// scf.for;
// with one thread nothing is parallelized; no graphopt.parallel mark is
// left. The caches are given (those of the Xeon the blocking was tuned on):
// the blocking, and so which loop is outermost, follows their sizes.
// (outline-kernels=0: the loop nests stay in the function checked.)
// RUN: graph-opt %s --graph-cpu-pipeline="threads=2 vector-width=16 l1-cache-bytes=49152 l2-cache-bytes=2097152 outline-kernels=0" --mlir-disable-threading \
// RUN:   --mlir-print-ir-after=graph-cpu-parallelize -o /dev/null 2>&1 | FileCheck %s
// RUN: graph-opt %s --graph-cpu-pipeline="threads=1 vector-width=16 l1-cache-bytes=49152 l2-cache-bytes=2097152 outline-kernels=0" --mlir-disable-threading \
// RUN:   --mlir-print-ir-after=graph-cpu-parallelize -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONE
// Then OpenMP: a parallel region with a worksharing loop, lowered to LLVM.
// RUN: graph-opt %s --graph-cpu-pipeline="threads=2 vector-width=16 l1-cache-bytes=49152 l2-cache-bytes=2097152 outline-kernels=0" --mlir-disable-threading \
// RUN:   --mlir-print-ir-after=convert-scf-to-openmp -o /dev/null 2>&1 | FileCheck %s --check-prefix=OMP
// The seed's 128 x 128 matmul (~2^17 estimated operations) is split at the
// default min-work (2^15; the pipeline's parallel-min-work) but not at 2^20;
// a 32 x 32 one stays on one thread.
// RUN: graph-opt %s --graph-cpu-pipeline="threads=2 vector-width=16 l1-cache-bytes=49152 l2-cache-bytes=2097152 outline-kernels=0" --mlir-disable-threading \
// RUN:   --mlir-print-ir-after=graph-cpu-parallelize -o /dev/null 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: graph-opt %s --graph-cpu-pipeline="threads=2 vector-width=16 l1-cache-bytes=49152 l2-cache-bytes=2097152 outline-kernels=0 parallel-min-work=1048576" --mlir-disable-threading \
// RUN:   --mlir-print-ir-after=graph-cpu-parallelize -o /dev/null 2>&1 | FileCheck %s --check-prefix=MINWORK

// CHECK-LABEL: func.func @big
// CHECK: scf.for %{{.*}} = %c0 to %c1024 step %c{{[0-9]+}} iter_args(%{{.*}}) -> (memref<1024x1024xf32>)
// CHECK-NEXT: scf.parallel (%{{.*}}) = (%c0) to (%c1024) step (%c8)
// CHECK-NEXT: scf.for
// CHECK-NOT: graphopt.parallel
// ONE-NOT: scf.parallel
// ONE-NOT: graphopt.parallel
// OMP: omp.parallel num_threads
// OMP: omp.wsloop
// SMALL-LABEL: func.func @small
// SMALL: scf.parallel
// SMALL-LABEL: func.func @tiny
// SMALL-NOT: scf.parallel
// SMALL: return
// MINWORK-LABEL: func.func @small
// MINWORK-NOT: scf.parallel
// MINWORK: return
func.func @big(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %0 = graph.matmul %a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32> -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}
func.func @small(%a: tensor<128x128xf32>, %b: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %0 = graph.matmul %a, %b : tensor<128x128xf32>, tensor<128x128xf32> -> tensor<128x128xf32>
  return %0 : tensor<128x128xf32>
}
func.func @tiny(%a: tensor<32x32xf32>, %b: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %0 = graph.matmul %a, %b : tensor<32x32xf32>, tensor<32x32xf32> -> tensor<32x32xf32>
  return %0 : tensor<32x32xf32>
}
