// RUN: rm -rf %t && mkdir -p %t

// graph-run's handling of bad command lines and wrong results: every case
// exits with a clean non-zero status (`not` fails on a crash) and an error
// that names the input, the dim and both values where they apply.

// Input count.
// RUN: not graph-run %s --input=2x3xf32=1 --input=2x3xf32=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TOO-MANY
// TOO-MANY: graph-run: error: @main takes 1 input but 2 were given with --input
// RUN: not graph-run %s 2>&1 | FileCheck %s --check-prefix=TOO-FEW
// TOO-FEW: graph-run: error: @main takes 1 input but 0 were given; pass the rest with --input or make them random with --seed=N

// Element type, rank and static dims, from literals and from .npy files.
// RUN: not graph-run %s --input=2x3xi32=1 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: graph-run: error: input 0 of @main: expected element type f32 (tensor<2x3xf32>), got i32
// RUN: not graph-run %s --input=6xf32=1 2>&1 | FileCheck %s --check-prefix=RANK
// RANK: graph-run: error: input 0 of @main: expected rank 2 (tensor<2x3xf32>), got shape 6xf32
// RUN: not graph-run %s --input=2x4xf32=1 2>&1 | FileCheck %s --check-prefix=DIM
// DIM: graph-run: error: input 0 of @main: dim 1 is 4, expected 3 (tensor<2x3xf32>)
// RUN: %python -c "import numpy as np; np.save('%t/x5x3.npy', np.zeros((5, 3), np.float32)); np.save('%t/c8.npy', np.zeros((2, 3), np.complex64))"
// RUN: not graph-run %s --entry=two --input=3xf32=1 --input=@%t/x5x3.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIM-NPY
// DIM-NPY: graph-run: error: input 1 of @two: dim 0 is 5, expected 4 (tensor<4x3xf32>)
// RUN: not graph-run %s --input=@%t/c8.npy 2>&1 | FileCheck %s --check-prefix=NPY-DTYPE
// NPY-DTYPE: graph-run: error: input 0: {{.*}}c8.npy: unsupported dtype '<c8' (supported: <f8, <f4, <f2, <i8, <i4, <i2, |i1, <u8, <u4, <u2, |u1, |b1)

// Bad literals and a missing file.
// RUN: not graph-run %s --input=2x3xf32=1,2 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: graph-run: error: input 0: tensor literal '2x3xf32=1,2': shape 2x3xf32 has 6 elements but 2 values were given
// RUN: not graph-run %s --input=2x3xf32=1,2,x,4,5,6 2>&1 | FileCheck %s --check-prefix=VALUE
// VALUE: graph-run: error: input 0: tensor literal '2x3xf32=1,2,x,4,5,6': bad value 'x'
// RUN: not graph-run %s --input=2x3xi4=1 2>&1 | FileCheck %s --check-prefix=TYPE
// TYPE: graph-run: error: input 0: tensor literal '2x3xi4=1': unknown element type 'i4' (use f32, f16, bf16, f64, i1, i8, i16, i32, i64, ui8, ui16, ui32 or ui64)
// A literal of a supported type the program does not take.
// RUN: not graph-run %s --input=2x3xf64=1 2>&1 | FileCheck %s --check-prefix=TYPE64
// TYPE64: graph-run: error: input 0 of @main: expected element type f32 (tensor<2x3xf32>), got f64
// RUN: not graph-run %s --input=2xyx3xf32=1 2>&1 | FileCheck %s --check-prefix=BAD-DIM
// BAD-DIM: graph-run: error: input 0: tensor literal '2xyx3xf32=1': bad dim 'y'
// RUN: not graph-run %s --input=2x3xf32 2>&1 | FileCheck %s --check-prefix=NO-EQ
// NO-EQ: graph-run: error: input 0: tensor literal '2x3xf32' has no '='
// RUN: not graph-run %s --input=@%t/missing.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: graph-run: error: input 0: {{.*}}missing.npy: cannot open: No such file or directory

// Entry point.
// RUN: not graph-run %s --entry=nope --input=2x3xf32=1 2>&1 | FileCheck %s --check-prefix=ENTRY
// ENTRY: graph-run: error: no function @nope in the module (functions: @main, @dyn, @two); choose one with --entry

// A wrong expected output: exit status exactly 1, the number of bad
// elements, and the worst one by index with both values. x + x is
// [[2, 4, 6], [8, 10, 12]]; the expected values are off by 0.5 at [0, 1]
// and by 1 at [1, 2].
// RUN: %python -c "import subprocess, sys; sys.exit(subprocess.run(sys.argv[1:]).returncode != 1)" \
// RUN:   graph-run %s --quiet --input=2x3xf32=1,2,3,4,5,6 \
// RUN:   --expected-output=2x3xf32=2,4.5,6,8,10,13
// RUN: not graph-run %s --quiet --input=2x3xf32=1,2,3,4,5,6 \
// RUN:   --expected-output=2x3xf32=2,4.5,6,8,10,13 2>&1 | FileCheck %s --check-prefix=WRONG
// WRONG: graph-run: result 0 MISMATCH: 2 of 6 elements outside atol=1e-05 rtol=1e-05; worst at [1, 2]: got 12, expected 13 (abs error 1)
// RUN: not graph-run %s --quiet --input=2x3xf32=1,2,3,4,5,6 \
// RUN:   --expected-output=3x2xf32=2,4,6,8,10,12 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: graph-run: result 0 MISMATCH: shape mismatch: got 2x3xf32, expected 3x2xf32
// RUN: not graph-run %s --quiet --input=2x3xf32=1 --expected-output=2x3xf32=2 \
// RUN:   --expected-output=2x3xf32=2 2>&1 | FileCheck %s --check-prefix=EXTRA
// EXTRA: graph-run: error: @main has 1 results, fewer than --expected-output/--output given

// --seed cannot make an input with dynamic dims; it can make the static rest.
// RUN: not graph-run %s --entry=dyn --seed=1 2>&1 | FileCheck %s --check-prefix=DYN
// DYN: graph-run: error: input 0 (tensor<?x3xf32>) has dynamic dims; give it with --input
// RUN: graph-run %s --entry=dyn --input=4x3xf32=0 --seed=1 | FileCheck %s --check-prefix=DYN-OK
// DYN-OK: result 0: tensor<?x3xf32> = 4x3xf32

func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = graph.add %x, %x : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

func.func @dyn(%x: tensor<?x3xf32>, %y: tensor<3xf32>) -> tensor<?x3xf32> {
  %r = graph.add %x, %y : tensor<?x3xf32>, tensor<3xf32> -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}

func.func @two(%x: tensor<3xf32>, %y: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %r = graph.add %x, %y : tensor<3xf32>, tensor<4x3xf32> -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
