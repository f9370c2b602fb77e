// graph-run --target=cuda on a machine without a usable GPU: a clear error
// naming the cause, exit status 1, no crash. Bad target options are refused
// before compiling.
// REQUIRES: cuda-runtime
// RUN: not graph-run %s --target=gpu 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: graph-run: error: --target=gpu is not a target: use cpu or cuda
// RUN: not graph-run %s --target=cuda --cuda-format=ptx 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: graph-run: error: --cuda-format=ptx is not a format: use isa, bin or fatbin
// RUN: %if !cuda-gpu %{ not graph-run %s --target=cuda --input=4xf32=1 2>&1 | FileCheck %s --check-prefix=NOGPU %}
// NOGPU: graph-run: error: the CUDA target cannot run on this machine (compile without running with --compile-only/--emit-object): {{.*(libcuda.so.1|CUDA_ERROR_).*}}
// NOGPU-NOT: graphopt CUDA runtime: error
// Host code reading tensor data (data-dependent control flow) is refused
// with the op named:
// RUN: not graph-run %s --entry=branch --target=cuda --compile-only 2>&1 | FileCheck %s --check-prefix=HOST
// HOST: error: 'memref.load' reads or writes a tensor's data on the host
// HOST: graph-run: error: lowering @branch for CUDA (sm_90) failed
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = graph.relu %x : tensor<4xf32> -> tensor<4xf32>
  return %r : tensor<4xf32>
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
