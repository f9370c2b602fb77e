// graph-run --target=cuda on a machine without a usable GPU: a clear error
// naming the cause, exit status 1, no crash. Bad target options are refused
// before compiling.
// REQUIRES: cuda-runtime
// RUN: not graph-run %s --target=gpu 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: graph-run: error: --target=gpu is not a target: use cpu or cuda
// RUN: not graph-run %s --target=cuda --cuda-format=ptx 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: graph-run: error: --cuda-format=ptx is not a format: use isa, bin or fatbin
// RUN: %if !cuda-gpu %{ not graph-run %s --target=cuda --input=4xf32=1 2>&1 | FileCheck %s --check-prefix=NOGPU %}
// NOGPU: graph-run: error: the CUDA target cannot run on this machine (compile it without running: compile-only, or an object file for ahead-of-time use): {{.*(libcuda.so.1|CUDA_ERROR_).*}}
// NOGPU-NOT: graphopt CUDA runtime: error
// Errors of the driver reach the user with the CUDA error's name and the
// driver call (the emulated driver injects them):
// RUN: env GRAPHOPT_CUDA_EMULATOR_FAIL=cuMemAllocAsync not graph-run %s --target=cuda --cuda-emulate --input=4xf32=1 2>&1 | FileCheck %s --check-prefix=OOM
// OOM: graph-run: error: allocating 16 bytes of device memory for input 0: CUDA_ERROR_OUT_OF_MEMORY (out of memory (emulated)) in cuMemAllocAsync
// RUN: env GRAPHOPT_CUDA_EMULATOR_FAIL=cuInit not graph-run %s --target=cuda --cuda-emulate --input=4xf32=1 2>&1 | FileCheck %s --check-prefix=NODEV
// NODEV: graph-run: error: the CUDA target cannot run on this machine {{.*}}: CUDA_ERROR_NO_DEVICE
// The device: --cuda-device picks it (the emulated driver has one device,
// 0); a device that is not present, or not an ordinal, is an error:
// RUN: graph-run %s --target=cuda --cuda-emulate --cuda-device=0 --input=4xf32=1,-2,3,-4 | FileCheck %s --check-prefix=DEV0
// DEV0: result 0: tensor<4xf32> = 4xf32
// DEV0-NEXT: [1, 0, 3, 0]
// RUN: not graph-run %s --target=cuda --cuda-emulate --cuda-device=1 --input=4xf32=1,-2,3,-4 2>&1 | FileCheck %s --check-prefix=DEV1
// RUN: env GRAPHOPT_CUDA_DEVICE=1 not graph-run %s --target=cuda --cuda-emulate --input=4xf32=1,-2,3,-4 2>&1 | FileCheck %s --check-prefix=DEV1
// DEV1: graph-run: error: the CUDA target cannot run on this machine {{.*}}: CUDA device 1 requested, but 1 device is present
// RUN: not graph-run %s --target=cuda --cuda-emulate --cuda-device=-2 --input=4xf32=1,-2,3,-4 2>&1 | FileCheck %s --check-prefix=DEVBAD
// DEVBAD: graph-run: error: --cuda-device must be a device ordinal (0, 1, ...), got -2
// Results that share a buffer (the same tensor returned twice, and an
// input returned as is) are downloaded, then freed once; repeated calls
// reuse the cached constant:
// RUN: graph-run %s --entry=aliases --target=cuda --cuda-emulate --input=4xf32=1,-2,3,-4 --benchmark=3 | FileCheck %s --check-prefix=ALIAS
// RUN: graph-run %s --entry=aliases --input=4xf32=1,-2,3,-4 --benchmark=3 | FileCheck %s --check-prefix=ALIAS
// ALIAS: result 0: tensor<4xf32> = 4xf32
// ALIAS-NEXT: [2, -1, 4, -3]
// ALIAS: result 1: tensor<4xf32> = 4xf32
// ALIAS-NEXT: [2, -1, 4, -3]
// ALIAS: result 2: tensor<4xf32> = 4xf32
// ALIAS-NEXT: [1, -2, 3, -4]
// ALIAS: benchmark: @aliases 3 runs
// Data-dependent control flow: the host reads the condition through a
// copy of its device buffer (refused before 2026-12-07), both branches:
// RUN: graph-run %s --entry=branch --target=cuda --cuda-emulate --input=i1=1 --input=4xf32=1,-2,3,-4 | FileCheck %s --check-prefix=BRANCH1
// BRANCH1: result 0: tensor<4xf32> = 4xf32
// BRANCH1-NEXT: [-1, 2, -3, 4]
// RUN: graph-run %s --entry=branch --target=cuda --cuda-emulate --input=i1=0 --input=4xf32=1,-2,3,-4 | FileCheck %s --check-prefix=BRANCH0
// BRANCH0: result 0: tensor<4xf32> = 4xf32
// BRANCH0-NEXT: [1, -2, 3, -4]
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = graph.relu %x : tensor<4xf32> -> tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func @aliases(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %one = graph.constant dense<1.0> : tensor<4xf32>
  %y = graph.add %x, %one : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %y, %y, %x : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

func.func @branch(%c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = graph.if %c : tensor<i1> -> tensor<4xf32> {
    %n = graph.neg %x : tensor<4xf32> -> tensor<4xf32>
    graph.yield %n : tensor<4xf32>
  } else {
    graph.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
