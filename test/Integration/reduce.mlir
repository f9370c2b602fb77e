// RUN: rm -rf %t && mkdir -p %t

// graph.reduce (sum, mean, max, min over one axis, several axes and all
// axes, with and without keepdims; f32 and i32), checked against NumPy
// (test/lib/reference.py). f32 tolerances rtol = atol = 1e-5: the results
// are O(1) and the f32 accumulation error of <= 300 terms of one sign is
// far smaller; i32 results are exact.

// RUN: %reference reduce_f32 %t/reduce_f32
// RUN: graph-run %s --entry=reduce_f32 --quiet --input=@%t/reduce_f32/x0.npy \
// RUN:   --expected-output=@%t/reduce_f32/expected.npy \
// RUN:   --expected-output=@%t/reduce_f32/expected1.npy \
// RUN:   --expected-output=@%t/reduce_f32/expected2.npy \
// RUN:   --expected-output=@%t/reduce_f32/expected3.npy \
// RUN:   --expected-output=@%t/reduce_f32/expected4.npy \
// RUN:   --expected-output=@%t/reduce_f32/expected5.npy \
// RUN:   --expected-output=@%t/reduce_f32/expected6.npy \
// RUN:   --expected-output=@%t/reduce_f32/expected7.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=EIGHT
// RUN: graph-run %s --entry=reduce_f32 --quiet --vectorize=0 \
// RUN:   --input=@%t/reduce_f32/x0.npy \
// RUN:   --expected-output=@%t/reduce_f32/expected.npy \
// RUN:   --expected-output=@%t/reduce_f32/expected1.npy \
// RUN:   --expected-output=@%t/reduce_f32/expected2.npy \
// RUN:   --expected-output=@%t/reduce_f32/expected3.npy \
// RUN:   --expected-output=@%t/reduce_f32/expected4.npy \
// RUN:   --expected-output=@%t/reduce_f32/expected5.npy \
// RUN:   --expected-output=@%t/reduce_f32/expected6.npy \
// RUN:   --expected-output=@%t/reduce_f32/expected7.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=EIGHT
// RUN: %reference reduce_long %t/reduce_long
// RUN: graph-run %s --entry=reduce_long --quiet --input=@%t/reduce_long/x0.npy \
// RUN:   --expected-output=@%t/reduce_long/expected.npy \
// RUN:   --expected-output=@%t/reduce_long/expected1.npy \
// RUN:   --expected-output=@%t/reduce_long/expected2.npy \
// RUN:   --rtol=1e-5 --atol=1e-5 | FileCheck %s --check-prefix=THREE
// RUN: %reference reduce_all_large %t/reduce_all_large
// RUN: graph-run %s --entry=reduce_all_large --quiet \
// RUN:   --input=@%t/reduce_all_large/x0.npy --input=@%t/reduce_all_large/x1.npy \
// RUN:   --expected-output=@%t/reduce_all_large/expected.npy \
// RUN:   --expected-output=@%t/reduce_all_large/expected1.npy \
// RUN:   --expected-output=@%t/reduce_all_large/expected2.npy \
// RUN:   --expected-output=@%t/reduce_all_large/expected3.npy \
// RUN:   --expected-output=@%t/reduce_all_large/expected4.npy \
// RUN:   --rtol=1e-4 --atol=0 | FileCheck %s --check-prefix=FIVE
// RUN: %reference reduce_i32 %t/reduce_i32
// RUN: graph-run %s --entry=reduce_i32 --quiet --input=@%t/reduce_i32/x0.npy \
// RUN:   --expected-output=@%t/reduce_i32/expected.npy \
// RUN:   --expected-output=@%t/reduce_i32/expected1.npy \
// RUN:   --expected-output=@%t/reduce_i32/expected2.npy \
// RUN:   --rtol=0 --atol=0 | FileCheck %s --check-prefix=THREE

// THREE: result 0: matches expected
// THREE: result 1: matches expected
// THREE: result 2: matches expected

// FIVE: result 0: matches expected
// FIVE: result 1: matches expected
// FIVE: result 2: matches expected
// FIVE: result 3: matches expected
// FIVE: result 4: matches expected

// EIGHT: result 0: matches expected
// EIGHT: result 1: matches expected
// EIGHT: result 2: matches expected
// EIGHT: result 3: matches expected
// EIGHT: result 4: matches expected
// EIGHT: result 5: matches expected
// EIGHT: result 6: matches expected
// EIGHT: result 7: matches expected

// sum(1), mean((0, 2)), max(0, keepdims), min((0, 1), keepdims), sum(all)
// to rank 0, mean(all, keepdims), max(1, keepdims), min(2).
func.func @reduce_f32(%x: tensor<3x4x5xf32>)
    -> (tensor<3x5xf32>, tensor<4xf32>, tensor<1x4x5xf32>, tensor<1x1x5xf32>,
        tensor<f32>, tensor<1x1x1xf32>, tensor<3x1x5xf32>, tensor<3x4xf32>) {
  %0 = graph.reduce sum %x axes = [1] : tensor<3x4x5xf32> -> tensor<3x5xf32>
  %1 = graph.reduce mean %x axes = [0, 2] : tensor<3x4x5xf32> -> tensor<4xf32>
  %2 = graph.reduce max %x axes = [0] keepdims : tensor<3x4x5xf32> -> tensor<1x4x5xf32>
  %3 = graph.reduce min %x axes = [0, 1] keepdims : tensor<3x4x5xf32> -> tensor<1x1x5xf32>
  %4 = graph.reduce sum %x axes = [0, 1, 2] : tensor<3x4x5xf32> -> tensor<f32>
  %5 = graph.reduce mean %x axes = [2, 0, 1] keepdims : tensor<3x4x5xf32> -> tensor<1x1x1xf32>
  %6 = graph.reduce max %x axes = [1] keepdims : tensor<3x4x5xf32> -> tensor<3x1x5xf32>
  %7 = graph.reduce min %x axes = [2] : tensor<3x4x5xf32> -> tensor<3x4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<3x5xf32>, tensor<4xf32>,
      tensor<1x4x5xf32>, tensor<1x1x5xf32>, tensor<f32>, tensor<1x1x1xf32>,
      tensor<3x1x5xf32>, tensor<3x4xf32>
}

func.func @reduce_long(%x: tensor<16x300xf32>) -> (tensor<16xf32>, tensor<300xf32>, tensor<16xf32>) {
  %0 = graph.reduce sum %x axes = [1] : tensor<16x300xf32> -> tensor<16xf32>
  %1 = graph.reduce mean %x axes = [0] : tensor<16x300xf32> -> tensor<300xf32>
  %2 = graph.reduce max %x axes = [1] : tensor<16x300xf32> -> tensor<16xf32>
  return %0, %1, %2 : tensor<16xf32>, tensor<300xf32>, tensor<16xf32>
}

func.func @reduce_all_large(%x: tensor<64x1000xf32>, %n: tensor<40x30x20xi32>)
    -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<1x1xf32>, tensor<i32>) {
  %0 = graph.reduce sum %x axes = [0, 1] : tensor<64x1000xf32> -> tensor<f32>
  %1 = graph.reduce mean %x axes = [0, 1] : tensor<64x1000xf32> -> tensor<f32>
  %2 = graph.reduce max %x axes = [0, 1] : tensor<64x1000xf32> -> tensor<f32>
  %3 = graph.reduce min %x axes = [0, 1] keepdims : tensor<64x1000xf32> -> tensor<1x1xf32>
  %4 = graph.reduce sum %n axes = [0, 1, 2] : tensor<40x30x20xi32> -> tensor<i32>
  return %0, %1, %2, %3, %4 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<1x1xf32>, tensor<i32>
}

func.func @reduce_i32(%x: tensor<4x6xi32>) -> (tensor<4xi32>, tensor<6xi32>, tensor<1x1xi32>) {
  %0 = graph.reduce sum %x axes = [1] : tensor<4x6xi32> -> tensor<4xi32>
  %1 = graph.reduce max %x axes = [0] : tensor<4x6xi32> -> tensor<6xi32>
  %2 = graph.reduce min %x axes = [0, 1] keepdims : tensor<4x6xi32> -> tensor<1x1xi32>
  return %0, %1, %2 : tensor<4xi32>, tensor<6xi32>, tensor<1x1xi32>
}
