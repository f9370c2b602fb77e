// graph-gpu-align-shared-memory: the dynamic shared memory global that
// convert-gpu-to-nvvm makes (internal, a zero-length array, aligned to 16)
// becomes external and 128-byte aligned; other shared or global arrays are
// left as they were.
// RUN: graph-opt %s --pass-pipeline="builtin.module(gpu.module(graph-gpu-align-shared-memory))" | FileCheck %s
// RUN: graph-opt %s --pass-pipeline="builtin.module(gpu.module(graph-gpu-align-shared-memory{alignment=32}))" | FileCheck %s --check-prefix=A32
// RUN: not graph-opt %s --pass-pipeline="builtin.module(gpu.module(graph-gpu-align-shared-memory{alignment=24}))" 2>&1 | FileCheck %s --check-prefix=BAD

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<0 x i8>
    // A32: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 32 : i64}
    llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    // A static shared array (a workgroup attribution) keeps its linkage
    // and alignment.
    // CHECK: llvm.mlir.global internal @static_tile() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<64 x f32>
    llvm.mlir.global internal @static_tile() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<64 x f32>
    // Global memory: untouched.
    // CHECK: llvm.mlir.global internal @in_global() {addr_space = 1 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    llvm.mlir.global internal @in_global() {addr_space = 1 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  }
}
// BAD: alignment must be a power of two of at least 16, got 24
