// REQUIRES: cuda-gpu
// RUN: rm -rf %t && mkdir -p %t

// Warp-per-row reductions (graph-gpu-map-reductions in graph-cuda-pipeline)
// run on the GPU and checked against NumPy (test/lib/reference.py): softmax
// and layer norm over long rows, a ragged softmax (37 rows: a partial block
// of warps; 10 columns: fewer elements than lanes), a 3-D sum whose rows
// end in a partial lane round (257), and an i32 max over a whole tensor
// (one warp). NOT YET RUN: written without a GPU (it needs
// graph-run --target=cuda and the cuda-gpu lit feature); the first run on a
// GPU machine is its first check, tolerances included.
// rtol = atol = 1e-5 for softmax (results in [0, 1]); 1e-4 for layer norm
// and the sums (f32 sums of up to 768 terms in a different order than
// NumPy's float64 reference).

// RUN: %reference cuda_softmax_rows %t/cuda_softmax_rows
// RUN: graph-run %s --target=cuda --entry=softmax_rows --quiet \
// RUN:   --input=@%t/cuda_softmax_rows/x0.npy \
// RUN:   --expected-output=@%t/cuda_softmax_rows/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: %reference cuda_softmax_ragged %t/cuda_softmax_ragged
// RUN: graph-run %s --target=cuda --entry=softmax_ragged --quiet \
// RUN:   --input=@%t/cuda_softmax_ragged/x0.npy \
// RUN:   --expected-output=@%t/cuda_softmax_ragged/expected.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: %reference cuda_layer_norm %t/cuda_layer_norm
// RUN: graph-run %s --target=cuda --entry=layer_norm --quiet \
// RUN:   --input=@%t/cuda_layer_norm/x0.npy --input=@%t/cuda_layer_norm/x1.npy \
// RUN:   --input=@%t/cuda_layer_norm/x2.npy \
// RUN:   --expected-output=@%t/cuda_layer_norm/expected.npy \
// RUN:   --rtol=1e-4 --atol=1e-4 | FileCheck %s
// RUN: %reference cuda_reduce_sum %t/cuda_reduce_sum
// RUN: graph-run %s --target=cuda --entry=reduce_sum --quiet \
// RUN:   --input=@%t/cuda_reduce_sum/x0.npy \
// RUN:   --expected-output=@%t/cuda_reduce_sum/expected.npy \
// RUN:   --rtol=1e-4 --atol=1e-4 | FileCheck %s
// RUN: %reference cuda_reduce_max_i32 %t/cuda_reduce_max_i32
// RUN: graph-run %s --target=cuda --entry=reduce_max_i32 --quiet \
// RUN:   --input=@%t/cuda_reduce_max_i32/x0.npy \
// RUN:   --expected-output=@%t/cuda_reduce_max_i32/expected.npy \
// RUN:   | FileCheck %s

// CHECK: result 0: matches expected

func.func @softmax_rows(%x: tensor<64x1000xf32>) -> tensor<64x1000xf32> {
  %r = graph.softmax %x axis = 1 : tensor<64x1000xf32> -> tensor<64x1000xf32>
  return %r : tensor<64x1000xf32>
}

func.func @softmax_ragged(%x: tensor<37x10xf32>) -> tensor<37x10xf32> {
  %r = graph.softmax %x axis = 1 : tensor<37x10xf32> -> tensor<37x10xf32>
  return %r : tensor<37x10xf32>
}

func.func @layer_norm(%x: tensor<128x768xf32>, %w: tensor<768xf32>, %b: tensor<768xf32>) -> tensor<128x768xf32> {
  %0 = graph.layer_norm %x, %w, %b : (tensor<128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<128x768xf32>
  return %0 : tensor<128x768xf32>
}

func.func @reduce_sum(%x: tensor<32x4x257xf32>) -> tensor<32x4xf32> {
  %0 = graph.reduce sum %x axes = [2] : tensor<32x4x257xf32> -> tensor<32x4xf32>
  return %0 : tensor<32x4xf32>
}

func.func @reduce_max_i32(%x: tensor<4096xi32>) -> tensor<i32> {
  %0 = graph.reduce max %x axes = [0] : tensor<4096xi32> -> tensor<i32>
  return %0 : tensor<i32>
}
