// RUN: rm -rf %t && mkdir -p %t

// Elementwise kernels with more than 4224 blocks run as grid-stride loops
// on CUDA (graph-gpu-tile-parallel-loops{max-blocks}): each thread loops
// over its vectors a grid apart. Four shapes around the limit, each on
// the CPU target here and under --cuda-emulate through test/lib/
// cuda_check.py (cuda-emulate.test), against NumPy in float64 (rtol 1e-6:
// one f32 rounding):
//   gs_odd     [1089, 1001] + [1089, 1001]: one merged dim of 1090089
//              (odd: one element per thread), 4259 blocks of 256 -> 2130
//              blocks of 2 tiles, the last tile partly out of bounds;
//   gs_bcast   [1089, 1001] * [1001]: a 2-D nest (8 x 32 threads), 137 x 32
//              = 4384 blocks -> 2192, the block index delinearized in the
//              loop;
//   gs_vec     [4400, 1024] * 2 + 1: 4 floats per thread, 4400 tiles ->
//              2200 blocks of 2;
//   gs_dynamic [?, 1001] - [?, 1001] with 1089 rows: the grid computed on
//              the host from the run-time extent.
// RUN: %if cuda-runtime %{ graph-opt %s --graph-cuda-pipeline="cpu-emulation=true" --mlir-print-ir-before=graph-gpu-launch-to-loops --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s --check-prefix=GRID %}
// GRID-LABEL: func.func @gs_odd
// GRID: gpu.launch {{.*}} in ({{.*}} = %c2130{{.*}}, {{.*}}) threads({{.*}}) in ({{.*}} = %c256{{.*}}, {{.*}})
// GRID: scf.for
// GRID-LABEL: func.func @gs_bcast
// GRID: gpu.launch {{.*}} in ({{.*}} = %c2192{{.*}}, {{.*}}) threads({{.*}}) in ({{.*}} = %c32{{.*}}, {{.*}} = %c8{{.*}}, {{.*}})
// GRID: scf.for
// GRID-LABEL: func.func @gs_vec
// GRID: gpu.launch {{.*}} in ({{.*}} = %c2200{{.*}}, {{.*}}) threads({{.*}}) in ({{.*}} = %c256{{.*}}, {{.*}})
// GRID: scf.for
// GRID: vector.load
// GRID-LABEL: func.func @gs_dynamic
// GRID: arith.ceildivui
// GRID: gpu.launch
// GRID: scf.for

// RUN: %reference gs_odd %t/gs_odd
// RUN: graph-run %s --entry=gs_odd --quiet --input=@%t/gs_odd/x0.npy \
// RUN:   --input=@%t/gs_odd/x1.npy --expected-output=@%t/gs_odd/expected.npy \
// RUN:   --rtol=1e-6 --atol=1e-6 | FileCheck %s
// RUN: %reference gs_bcast %t/gs_bcast
// RUN: graph-run %s --entry=gs_bcast --quiet --input=@%t/gs_bcast/x0.npy \
// RUN:   --input=@%t/gs_bcast/x1.npy --expected-output=@%t/gs_bcast/expected.npy \
// RUN:   --rtol=1e-6 --atol=1e-6 | FileCheck %s
// RUN: %reference gs_vec %t/gs_vec
// RUN: graph-run %s --entry=gs_vec --quiet --input=@%t/gs_vec/x0.npy \
// RUN:   --expected-output=@%t/gs_vec/expected.npy \
// RUN:   --rtol=1e-6 --atol=1e-6 | FileCheck %s
// RUN: %reference gs_dynamic %t/gs_dynamic
// RUN: graph-run %s --entry=gs_dynamic --quiet --input=@%t/gs_dynamic/x0.npy \
// RUN:   --input=@%t/gs_dynamic/x1.npy --expected-output=@%t/gs_dynamic/expected.npy \
// RUN:   --rtol=1e-6 --atol=1e-6 | FileCheck %s
// CHECK: result 0: matches expected

func.func @gs_odd(%a: tensor<1089x1001xf32>, %b: tensor<1089x1001xf32>) -> tensor<1089x1001xf32> {
  %r = graph.add %a, %b : tensor<1089x1001xf32>, tensor<1089x1001xf32> -> tensor<1089x1001xf32>
  return %r : tensor<1089x1001xf32>
}

func.func @gs_bcast(%a: tensor<1089x1001xf32>, %b: tensor<1001xf32>) -> tensor<1089x1001xf32> {
  %r = graph.mul %a, %b : tensor<1089x1001xf32>, tensor<1001xf32> -> tensor<1089x1001xf32>
  return %r : tensor<1089x1001xf32>
}

func.func @gs_vec(%a: tensor<4400x1024xf32>) -> tensor<4400x1024xf32> {
  %two = graph.constant dense<2.0> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %m = graph.mul %a, %two : tensor<4400x1024xf32>, tensor<f32> -> tensor<4400x1024xf32>
  %r = graph.add %m, %one : tensor<4400x1024xf32>, tensor<f32> -> tensor<4400x1024xf32>
  return %r : tensor<4400x1024xf32>
}

func.func @gs_dynamic(%a: tensor<?x1001xf32>, %b: tensor<?x1001xf32>) -> tensor<?x1001xf32> {
  %r = graph.sub %a, %b : tensor<?x1001xf32>, tensor<?x1001xf32> -> tensor<?x1001xf32>
  return %r : tensor<?x1001xf32>
}
