// The host side of graph-cuda-pipeline: the entry takes and returns device
// buffers; temporaries live in device memory (gpu.alloc -> mgpuMemAlloc,
// freed with mgpuMemFree), constants are the runtime's cached device copies
// (_mlir_ciface_graphopt_cuda_constant_f32); the kernels are launched on
// the runtime's stream, which is synchronized before returning. The module translates to LLVM IR whose
// constructors load the embedded PTX (mgpuModuleLoadJIT) and whose only
// external calls are libGraphOptCUDARuntime's mgpu* functions.
// RUN: graph-opt %s --graph-cuda-pipeline | FileCheck %s
// RUN: graph-opt %s --graph-cuda-pipeline | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM

// The two constants, first thing (each call is a host synchronization
// point), then the stream and the kernels.
// CHECK-LABEL: llvm.func @main
// CHECK-COUNT-2: llvm.call @graphopt_cuda_constant_f32
// CHECK: llvm.call @mgpuStreamCreate()
// CHECK: llvm.call @mgpuMemAlloc
// CHECK: gpu.launch_func
// CHECK: llvm.call @mgpuMemFree
// CHECK: llvm.call @mgpuStreamSynchronize
// CHECK: llvm.call @mgpuStreamDestroy
// CHECK: llvm.return
// CHECK-LABEL: llvm.func @_mlir_ciface_main
// CHECK: gpu.binary @main_kernel
// CHECK-NOT: memref.

// LLVM: @llvm.global_ctors
// LLVM: declare void @_mlir_ciface_graphopt_cuda_constant_f32(ptr, ptr)
// LLVM: define {{.*}} @_mlir_ciface_main(ptr
// LLVM-DAG: declare ptr @mgpuMemAlloc(i64, ptr, i8)
// LLVM-DAG: declare void @mgpuMemFree(ptr, ptr)
// LLVM: call ptr @mgpuModuleLoadJIT(ptr @main_kernel_binary
// LLVM-DAG: declare void @mgpuLaunchKernel(ptr, i64, i64, i64, i64, i64, i64, i32, ptr, ptr, ptr, i64)
// LLVM-DAG: declare ptr @mgpuModuleGetFunction(ptr, ptr)
// LLVM-NOT: declare {{.*}} @malloc
func.func @main(%x: tensor<64x128xf32>) -> tensor<64x32xf32> {
  %w = graph.constant dense<0.5> : tensor<128x32xf32>
  %b = graph.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<32xf32>
  %m = graph.matmul %x, %w : tensor<64x128xf32>, tensor<128x32xf32> -> tensor<64x32xf32>
  %a = graph.add %m, %b : tensor<64x32xf32>, tensor<32xf32> -> tensor<64x32xf32>
  %s = graph.softmax %a axis = 1 : tensor<64x32xf32> -> tensor<64x32xf32>
  return %s : tensor<64x32xf32>
}
