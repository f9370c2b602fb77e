// ptxas -v on every kernel of representative programs, for sm_90 and sm_80:
// registers and spills are reported per kernel (test/lib/ptxas_check.py),
// and a kernel that spills, or that ptxas rejects, fails the test.
// Programs: an elementwise chain, softmax and layer norm (warp reductions),
// f16 / bf16 / f32 matmuls (tensor-core and SIMT kernels; f32 on TF32
// tensor cores with tf32=true), a fused
// linear + bias + GELU, and f16 attention (batched matmuls and softmax).
// REQUIRES: ptxas
// RUN: graph-opt %s --split-input-file --graph-cuda-pipeline=lower-host=false | %python %graphopt_src/test/lib/ptxas_check.py --chip sm_90 | FileCheck %s
// RUN: graph-opt %s --split-input-file --graph-cuda-pipeline="chip=sm_80 features=+ptx70 lower-host=false" | %python %graphopt_src/test/lib/ptxas_check.py --chip sm_80 | FileCheck %s
// With the opt-in tf32 (f32 matmuls on mma.sync m16n8k8):
// RUN: graph-opt %s --split-input-file --graph-cuda-pipeline="tf32=true lower-host=false" | %python %graphopt_src/test/lib/ptxas_check.py --chip sm_90 | FileCheck %s
// CHECK: KERNEL
// CHECK-NOT: FAIL
// CHECK: ptxas_check: {{[1-9][0-9]*}} kernels, 0 spilling

func.func @chain(%x: tensor<4096xf32>, %y: tensor<4096xf32>) -> tensor<4096xf32> {
  %a = graph.add %x, %y : tensor<4096xf32>, tensor<4096xf32> -> tensor<4096xf32>
  %t = graph.tanh %a : tensor<4096xf32> -> tensor<4096xf32>
  %e = graph.exp %t : tensor<4096xf32> -> tensor<4096xf32>
  %m = graph.mul %e, %x : tensor<4096xf32>, tensor<4096xf32> -> tensor<4096xf32>
  return %m : tensor<4096xf32>
}

// -----

func.func @norms(%x: tensor<128x768xf32>, %w: tensor<768xf32>, %b: tensor<768xf32>) -> (tensor<128x768xf32>, tensor<128x768xf32>) {
  %s = graph.softmax %x axis = 1 : tensor<128x768xf32> -> tensor<128x768xf32>
  %l = graph.layer_norm %x, %w, %b : (tensor<128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<128x768xf32>
  return %s, %l : tensor<128x768xf32>, tensor<128x768xf32>
}

// -----

func.func @matmuls(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>,
                   %c: tensor<256x256xbf16>, %d: tensor<256x256xbf16>,
                   %e: tensor<256x256xf32>, %f: tensor<256x256xf32>)
    -> (tensor<256x256xf16>, tensor<256x256xbf16>, tensor<256x256xf32>) {
  %x = graph.matmul %a, %b : tensor<256x256xf16>, tensor<256x256xf16> -> tensor<256x256xf16>
  %y = graph.matmul %c, %d : tensor<256x256xbf16>, tensor<256x256xbf16> -> tensor<256x256xbf16>
  %z = graph.matmul %e, %f : tensor<256x256xf32>, tensor<256x256xf32> -> tensor<256x256xf32>
  return %x, %y, %z : tensor<256x256xf16>, tensor<256x256xbf16>, tensor<256x256xf32>
}

// -----

func.func @linear_gelu(%x: tensor<128x512xf16>, %w: tensor<512x256xf16>, %b: tensor<256xf16>) -> tensor<128x256xf16> {
  %m = graph.matmul %x, %w : tensor<128x512xf16>, tensor<512x256xf16> -> tensor<128x256xf16>
  %a = graph.add %m, %b : tensor<128x256xf16>, tensor<256xf16> -> tensor<128x256xf16>
  %g = graph.gelu %a : tensor<128x256xf16> -> tensor<128x256xf16>
  return %g : tensor<128x256xf16>
}

// -----

func.func @attention(%q: tensor<2x4x128x64xf16>, %k: tensor<2x4x128x64xf16>, %v: tensor<2x4x128x64xf16>) -> tensor<2x4x128x64xf16> {
  %r = graph.scaled_dot_product_attention %q, %k, %v
      : (tensor<2x4x128x64xf16>, tensor<2x4x128x64xf16>, tensor<2x4x128x64xf16>) -> tensor<2x4x128x64xf16>
  return %r : tensor<2x4x128x64xf16>
}
