// Generated code on 1, 2 and 3 threads (graph-cpu-parallelize, OpenMP):
// each result is checked against NumPy (test/lib/reference.py) and the
// results of different thread counts are compared bit for bit. Threads
// split only loops over parallel dims (tiles of the output), never a
// reduction, so every element is computed in the same order whatever the
// thread count: the results are identical, not just close.
// RUN: rm -rf %t && mkdir -p %t

// A packed matmul with a fused bias + ReLU epilogue.
// RUN: %reference mm_packed_bias_relu %t/mm
// RUN: graph-run %s --entry=matmul_epilogue --quiet --threads=1 --output=@%t/mm1.npy \
// RUN:   --input=@%t/mm/x0.npy --input=@%t/mm/x1.npy --input=@%t/mm/x2.npy \
// RUN:   --expected-output=@%t/mm/expected.npy --rtol=2e-4 --atol=2e-4 | FileCheck %s
// RUN: graph-run %s --entry=matmul_epilogue --quiet --threads=2 --output=@%t/mm2.npy \
// RUN:   --input=@%t/mm/x0.npy --input=@%t/mm/x1.npy --input=@%t/mm/x2.npy \
// RUN:   --expected-output=@%t/mm/expected.npy --rtol=2e-4 --atol=2e-4 | FileCheck %s
// RUN: graph-run %s --entry=matmul_epilogue --quiet --threads=3 --output=@%t/mm3.npy \
// RUN:   --input=@%t/mm/x0.npy --input=@%t/mm/x1.npy --input=@%t/mm/x2.npy \
// RUN:   --expected-output=@%t/mm/expected.npy --rtol=2e-4 --atol=2e-4 | FileCheck %s
// RUN: %python -c "import numpy as np; a, b, c = (np.load('%t/mm%%d.npy' %% i) for i in (1, 2, 3)); print('identical', bool((a == b).all() and (a == c).all()))" | FileCheck %s --check-prefix=SAME

// Flash attention: batch x heads and query blocks on threads.
// RUN: %reference flash_plain %t/at
// RUN: graph-run %s --entry=attention --quiet --threads=1 --output=@%t/at1.npy \
// RUN:   --input=@%t/at/x0.npy --input=@%t/at/x1.npy --input=@%t/at/x2.npy \
// RUN:   --expected-output=@%t/at/expected.npy --rtol=1e-5 --atol=1e-6 | FileCheck %s
// RUN: graph-run %s --entry=attention --quiet --threads=2 --output=@%t/at2.npy \
// RUN:   --input=@%t/at/x0.npy --input=@%t/at/x1.npy --input=@%t/at/x2.npy \
// RUN:   --expected-output=@%t/at/expected.npy --rtol=1e-5 --atol=1e-6 | FileCheck %s
// RUN: %python -c "import numpy as np; a, b = (np.load('%t/at%%d.npy' %% i) for i in (1, 2)); print('identical', bool((a == b).all()))" | FileCheck %s --check-prefix=SAME

// A convolution over a batch of 2 (the per-image loop).
// RUN: %reference conv2d_igemm_batch_bias %t/cv
// RUN: graph-run %s --entry=conv_batch --quiet --threads=1 --output=@%t/cv1.npy \
// RUN:   --input=@%t/cv/x0.npy --input=@%t/cv/x1.npy --input=@%t/cv/x2.npy \
// RUN:   --expected-output=@%t/cv/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: graph-run %s --entry=conv_batch --quiet --threads=2 --output=@%t/cv2.npy \
// RUN:   --input=@%t/cv/x0.npy --input=@%t/cv/x1.npy --input=@%t/cv/x2.npy \
// RUN:   --expected-output=@%t/cv/expected.npy --rtol=1e-5 --atol=1e-5 | FileCheck %s
// RUN: %python -c "import numpy as np; a, b = (np.load('%t/cv%%d.npy' %% i) for i in (1, 2)); print('identical', bool((a == b).all()))" | FileCheck %s --check-prefix=SAME

// A thread count the build cannot honour is an error, not a silent 1.
// RUN: not graph-run %s --entry=conv_batch --seed=1 --threads=0 2>&1 | FileCheck %s --check-prefix=ZERO

// CHECK-NOT: MISMATCH
// CHECK: result 0: matches expected
// SAME: identical True
// ZERO: graph-run: error: threads=0: give 1 or more

func.func @matmul_epilogue(%x: tensor<512x1024xf32>, %w: tensor<1024x768xf32>, %bias: tensor<768xf32>) -> tensor<512x768xf32> {
  %m = graph.matmul %x, %w : tensor<512x1024xf32>, tensor<1024x768xf32> -> tensor<512x768xf32>
  %a = graph.add %m, %bias : tensor<512x768xf32>, tensor<768xf32> -> tensor<512x768xf32>
  %r = graph.relu %a : tensor<512x768xf32> -> tensor<512x768xf32>
  return %r : tensor<512x768xf32>
}
func.func @attention(%q: tensor<2x3x128x64xf32>, %k: tensor<2x3x128x64xf32>, %v: tensor<2x3x128x64xf32>) -> tensor<2x3x128x64xf32> {
  %o = fusion.attention %q, %k, %v : (tensor<2x3x128x64xf32>, tensor<2x3x128x64xf32>, tensor<2x3x128x64xf32>) -> tensor<2x3x128x64xf32>
  return %o : tensor<2x3x128x64xf32>
}
func.func @conv_batch(%x: tensor<2x5x12x14xf32>, %w: tensor<6x5x3x3xf32>, %b: tensor<6xf32>) -> tensor<2x6x12x14xf32> {
  %r = graph.conv2d %x, %w, %b {padding = array<i64: 1, 1, 1, 1>} : (tensor<2x5x12x14xf32>, tensor<6x5x3x3xf32>, tensor<6xf32>) -> tensor<2x6x12x14xf32>
  return %r : tensor<2x6x12x14xf32>
}
