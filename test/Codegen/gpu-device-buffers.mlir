// graph-gpu-device-buffers: after outlining, host buffers become device
// buffers, contiguous copies gpu.memcpy, constants the runtime's cached
// device copies (graphopt_cuda_constant_<type>, called on the flattened
// buffer); host access to small whole buffers goes through host copies,
// other host access to tensor data is an error.
// RUN: graph-opt %s --split-input-file --graph-gpu-device-buffers --verify-diagnostics | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%a: memref<4xf32>, %b: memref<4xf32>) kernel {
      gpu.return
    }
  }
  memref.global "private" constant @w : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
  // CHECK: func.func private @graphopt_cuda_constant_f32(memref<?xf32>) -> memref<?xf32> attributes {llvm.emit_c_interface}
  // CHECK-LABEL: func.func @main
  // CHECK-SAME: (%[[X:.+]]: memref<4xf32>)
  // The constant first (hoisted to the entry), then the temporary.
  // CHECK-NEXT: %[[G:.+]] = memref.get_global @w
  // CHECK-NEXT: %[[A:.+]] = memref.cast %[[G]] : memref<4xf32> to memref<?xf32>
  // CHECK-NEXT: %[[D:.+]] = call @graphopt_cuda_constant_f32(%[[A]])
  // CHECK-NEXT: %[[W:.+]] = memref.cast %[[D]] : memref<?xf32> to memref<4xf32>
  // CHECK: %[[T:.+]] = gpu.alloc () : memref<4xf32>
  // CHECK: gpu.launch_func @k::@f {{.*}} args(%[[W]] : memref<4xf32>, %[[T]] : memref<4xf32>)
  // CHECK: %[[R:.+]] = gpu.alloc () : memref<4xf32>
  // CHECK: gpu.memcpy %[[R]], %[[T]]
  // CHECK: gpu.dealloc %[[T]]
  // CHECK-NEXT: return %[[R]]
  // CHECK-NOT: memref.alloc
  // CHECK-NOT: gpu.dealloc
  func.func @main(%x: memref<4xf32>) -> memref<4xf32> {
    %c1 = arith.constant 1 : index
    %t = memref.alloc() : memref<4xf32>
    %w = memref.get_global @w : memref<4xf32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%w : memref<4xf32>, %t : memref<4xf32>)
    %r = memref.alloc() : memref<4xf32>
    memref.copy %t, %r : memref<4xf32> to memref<4xf32>
    memref.dealloc %t : memref<4xf32>
    return %r : memref<4xf32>
  }
}

// -----

// A 2-D constant is flattened for the call and reshaped back.
module {
  memref.global "private" constant @m : memref<2x3xf16> = dense<1.0>
  // CHECK-LABEL: func.func @matrix
  // CHECK: %[[G:.+]] = memref.get_global @m
  // CHECK-NEXT: %[[F:.+]] = memref.collapse_shape %[[G]] {{\[\[}}0, 1]] : memref<2x3xf16> into memref<6xf16>
  // CHECK-NEXT: %[[A:.+]] = memref.cast %[[F]]
  // CHECK-NEXT: %[[D:.+]] = call @graphopt_cuda_constant_f16(%[[A]])
  // CHECK-NEXT: %[[C:.+]] = memref.cast %[[D]] : memref<?xf16> to memref<6xf16>
  // CHECK-NEXT: %[[E:.+]] = memref.expand_shape %[[C]] {{\[\[}}0, 1]] output_shape [2, 3] : memref<6xf16> into memref<2x3xf16>
  // CHECK-NEXT: return %[[E]]
  func.func @matrix() -> memref<2x3xf16> {
    %m = memref.get_global @m : memref<2x3xf16>
    return %m : memref<2x3xf16>
  }
}

// -----

// The host reads and writes small whole device buffers through host
// copies (graph.if's condition, graph.loop's counters): a read copies the
// buffer in just before it; a write of a one-element buffer is copied out
// after it, a write into a larger one copies it in first.
// CHECK-LABEL: func.func @host_access
// CHECK-COUNT-3: memref.alloca()
// CHECK: gpu.memcpy  %[[H0:.*]], %arg0 : memref<4xf32>, memref<4xf32>
// CHECK-NEXT: %[[V:.*]] = memref.load %[[H0]][%c0] : memref<4xf32>
// CHECK-NEXT: %[[C:.*]] = arith.cmpf
// CHECK-NEXT: memref.store %[[C]], %[[H1:.*]][] : memref<i1>
// CHECK-NEXT: gpu.memcpy  %arg1, %[[H1]] : memref<i1>, memref<i1>
// CHECK-NEXT: gpu.memcpy  %[[H2:.*]], %arg2 : memref<4xf32>, memref<4xf32>
// CHECK-NEXT: memref.store %[[V]], %[[H2]][%c1] : memref<4xf32>
// CHECK-NEXT: gpu.memcpy  %arg2, %[[H2]] : memref<4xf32>, memref<4xf32>
func.func @host_access(%x: memref<4xf32>, %c: memref<i1>, %y: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %v = memref.load %x[%c0] : memref<4xf32>
  %b = arith.cmpf ogt, %v, %z : f32
  memref.store %b, %c[] : memref<i1>
  memref.store %v, %y[%c1] : memref<4xf32>
  return %v : f32
}

// -----

// Not through a copy: a view (gpu.memcpy copies whole buffers) or a buffer
// over 4 KiB.
func.func @host_read_view(%x: memref<4x4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %s = memref.subview %x[1, 0] [1, 4] [1, 1] : memref<4x4xf32> to memref<4xf32, strided<[1], offset: 4>>
  // expected-error @+1 {{'memref.load' reads or writes a tensor's data on the host; the CUDA target keeps tensors in device memory and accesses on the host (through a copy) only whole static tensors of at most 4096 bytes}}
  %v = memref.load %s[%c0] : memref<4xf32, strided<[1], offset: 4>>
  return %v : f32
}

// -----

func.func @host_read_large(%x: memref<2048xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'memref.load' reads or writes a tensor's data on the host}}
  %v = memref.load %x[%c0] : memref<2048xf32>
  return %v : f32
}

// -----

func.func @strided_copy(%x: memref<4x4xf32>, %y: memref<2x2xf32>) {
  %s = memref.subview %x[0, 0] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1]>>
  // expected-error @+1 {{copy between strided views on the host}}
  memref.copy %s, %y : memref<2x2xf32, strided<[4, 1]>> to memref<2x2xf32>
  return
}
