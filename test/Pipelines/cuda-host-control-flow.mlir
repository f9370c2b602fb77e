// Data-dependent control flow on the CUDA target: the host reads the
// condition through a host copy of its device buffer, and waits for the
// copy (and the kernels before it, on the one stream) before the read:
// gpu-async-region puts a blocking gpu.wait on the copy's token ahead of
// the host load, which the host lowering turns into a stream
// synchronization. (The emulated driver completes copies at once, so only
// the IR can show the wait.)
// RUN: graph-opt %s --graph-cuda-pipeline=lower-host=true --mlir-print-ir-after=gpu-async-region --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s

// The condition: sum(x) > 0 on the device (the reduction kernel), read on
// the host, compared there, written back to its buffer and read again for
// the branch.
// CHECK-LABEL: func.func @branch
// CHECK: gpu.launch_func async
// CHECK: %[[COPY:.*]] = gpu.memcpy async [%{{.*}}] %[[HOST:alloca[_0-9]*]], %{{.*}} : memref<f32>, memref<f32>
// CHECK-NEXT: gpu.wait [%[[COPY]]]
// CHECK-NEXT: memref.load %[[HOST]][] : memref<f32>
// CHECK: %[[COND:.*]] = gpu.memcpy async [%{{.*}}] %[[HOSTC:alloca[_0-9]*]], %{{.*}} : memref<i1>, memref<i1>
// CHECK-NEXT: gpu.wait [%[[COND]]]
// CHECK-NEXT: %[[C:.*]] = memref.load %[[HOSTC]][] : memref<i1>
// CHECK: cf.cond_br %[[C]]
func.func @branch(%x: tensor<64xf32>) -> tensor<64xf32> {
  %s = graph.reduce sum %x axes = [0] : tensor<64xf32> -> tensor<f32>
  %z = graph.constant dense<0.0> : tensor<f32>
  %c = graph.compare gt, %s, %z : tensor<f32>, tensor<f32> -> tensor<i1>
  %r = graph.if %c : tensor<i1> -> tensor<64xf32> {
    %n = graph.neg %x : tensor<64xf32> -> tensor<64xf32>
    graph.yield %n : tensor<64xf32>
  } else {
    %e = graph.exp %x : tensor<64xf32> -> tensor<64xf32>
    graph.yield %e : tensor<64xf32>
  }
  return %r : tensor<64xf32>
}
