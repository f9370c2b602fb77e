// Inputs that once crashed graph-run or the folder now give a clear error
// (exit 1) or a correct result.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not graph-run %s --entry=ident --input=1000000000000xf32=0 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: %python -c "open('%t/bad.npy','wb').write(b'\x93NUMPY\x01\x00' + (118).to_bytes(2,'little') + (\"{'descr': '<f4', 'fortran_order': False, 'shape': (-4, 1), }\".ljust(117)+'\n').encode())"
// RUN: not graph-run %s --entry=ident --input=@%t/bad.npy 2>&1 | FileCheck %s --check-prefix=NEGNPY
// RUN: not graph-run %s --entry=ident --input=2xf32=1,2 -O5 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not graph-run %s --entry=ident --input=2xf32=1,2 --dump-llvm-ir=%t/no/such/dir/x.ll 2>&1 | FileCheck %s --check-prefix=DUMP
// RUN: not graph-run %s --entry=ident_i32 --input=2xi32=3000000000,1 2>&1 | FileCheck %s --check-prefix=RANGE
// --dump-llvm-ir writes the optimized IR also when nothing runs
// (--compile-only), with or without an object.
// RUN: rm -f %t/co.ll %t/obj.ll
// RUN: graph-run %s --entry=ident --input=2xf32=1,2 --compile-only --dump-llvm-ir=%t/co.ll
// RUN: FileCheck %s --check-prefix=IR < %t/co.ll
// RUN: graph-run %s --entry=ident --input=2xf32=1,2 --compile-only --emit-object=%t/ident.o --dump-llvm-ir=%t/obj.ll
// RUN: FileCheck %s --check-prefix=IR < %t/obj.ll
// A dynamic argument returned unchanged (specialization keeps the signature).
// RUN: graph-run %s --entry=ident --input=2xf32=1,2 --expected-output=2xf32=1,2 --quiet | FileCheck %s --check-prefix=OK
// i64 values beyond 2^53 survive parsing, printing and comparison exactly.
// RUN: graph-run %s --entry=ident_i64 --input=2xi64=9007199254740993,9223372036854775807 \
// RUN:   --expected-output=2xi64=9007199254740993,9223372036854775807 | FileCheck %s --check-prefix=I64
// Integers compare exactly whatever the tolerances.
// RUN: not graph-run %s --entry=ident_i32 --input=2xi32=1000005,7 --expected-output=2xi32=1000000,7 --quiet 2>&1 | FileCheck %s --check-prefix=EXACT
// Dynamic leading dims of a Linear-shaped matmul compile without
// specialization (MLIR 22 crashed on the expand_shape this used to emit).
// 64 ones times 0.5 = 32 everywhere.
// RUN: graph-run %s --entry=linear --specialize-shapes=false --input=2x3x64xf32=1 --input=64x32xf32=0.5 \
// RUN:   --expected-output=2x3x32xf32=32 --quiet | FileCheck %s --check-prefix=OK
// A dynamic innermost dim compiles (scalar loops).
// RUN: graph-run %s --entry=neg_dyn --specialize-shapes=false --input=3xf32=1,-2,3 --expected-output=3xf32=-1,2,-3 --quiet | FileCheck %s --check-prefix=OK

// A constant too large to exist is a verifier error (it aborted in LLVM);
// an intermediate the machine cannot allocate ends the call with an error
// (the compiled code wrote through a null pointer).
// RUN: printf 'func.func @main() -> tensor<99999999999x99999999999xf32> {\n  %%%%0 = graph.constant dense<1.0> : tensor<99999999999x99999999999xf32>\n  return %%%%0 : tensor<99999999999x99999999999xf32>\n}\n' > %t/huge.mlir
// RUN: not graph-run %t/huge.mlir 2>&1 | FileCheck %s --check-prefix=HUGECONST
// RUN: not graph-run %s --entry=huge_broadcast --input=f32=1 2>&1 | FileCheck %s --check-prefix=OOM
// HUGECONST: error: 'graph.constant' op is too large: 'tensor<99999999999x99999999999xf32>' has more than 2^64 elements; constants are limited to 1 TiB
// OOM: graph-run: error: @huge_broadcast: cannot allocate {{[0-9]+}} bytes for an intermediate or result (out of memory)
// Command-line values that used to be accepted (issue 19): a truncated
// exponent, a boolean 2, a negative tolerance, an expected output of another
// dtype (reported as element mismatches), a library that does not load
// (exit 0).
// RUN: not graph-run %s --entry=ident --input=2xf32=1.5e,1 2>&1 | FileCheck %s --check-prefix=EXP
// RUN: not graph-run %s --entry=ident_i1 --input=2xi1=2,1 2>&1 | FileCheck %s --check-prefix=BOOL
// RUN: not graph-run %s --entry=ident --input=2xf32=1,2 --rtol=-1 2>&1 | FileCheck %s --check-prefix=TOL
// RUN: not graph-run %s --entry=ident --input=2xf32=1,2 --expected-output=2xi32=1,2 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: printf 'garbage' > %t/bad.so
// RUN: not graph-run %s --entry=ident --input=2xf32=1,2 --shared-lib=%t/bad.so 2>&1 | FileCheck %s --check-prefix=LIB
// EXP: graph-run: error: input 0: tensor literal '2xf32=1.5e,1': bad value '1.5e'
// BOOL: graph-run: error: input 0: tensor literal '2xi1=2,1': '2' is not a boolean (true, false, 1 or 0)
// TOL: graph-run: error: --atol and --rtol must be non-negative numbers
// DTYPE: graph-run: error: expected output 0 is i32 but result 0 is tensor<?xf32>
// LIB: graph-run: error: shared library '{{.*}}bad.so' does not load: {{.*}}bad.so: file too short
// Recursion would run until the stack or heap is gone: refused.
// RUN: not graph-run %s --entry=recursive --input=4xf32=1 2>&1 | FileCheck %s --check-prefix=REC
// REC: graph-run: error: recursive calls are not supported (@recursive_f -> @recursive_g -> @recursive_f)
// HUGE: graph-run: error: input 0: cannot allocate 4000000000000 bytes for a 1000000000000xf32 tensor
// NEGNPY: graph-run: error: input 0: {{.*}}bad.npy: bad shape '-4, 1' (negative dim, or too large)
// OPT: graph-run: error: -O5 is not a level: use -O0 to -O3
// DUMP: graph-run: error: cannot write --dump-llvm-ir file
// RANGE: '3000000000' is not an integer that fits i32
// IR: define {{.*}}@_mlir_ciface_ident(
// OK: result 0: matches expected
// I64: [9007199254740993, 9223372036854775807]
// I64: result 0: matches expected
// EXACT: worst at [0]: got 1000005, expected 1000000
func.func @ident(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}
func.func @ident_i32(%x: tensor<2xi32>) -> tensor<2xi32> {
  return %x : tensor<2xi32>
}
func.func @ident_i64(%x: tensor<2xi64>) -> tensor<2xi64> {
  return %x : tensor<2xi64>
}
func.func @linear(%x: tensor<?x?x64xf32>, %w: tensor<64x32xf32>) -> tensor<?x?x32xf32> {
  %r = graph.matmul %x, %w : tensor<?x?x64xf32>, tensor<64x32xf32> -> tensor<?x?x32xf32>
  return %r : tensor<?x?x32xf32>
}
func.func @neg_dyn(%x: tensor<?xf32>) -> tensor<?xf32> {
  %r = graph.neg %x : tensor<?xf32> -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// Found by scripts/fuzz_graph.py: a size-1 strided slice broadcast into a
// vectorized op (was "LLVM Translation failed"), and a batched matmul with
// two dynamic batch dims (was a segfault in expand-strided-metadata).
// RUN: graph-run %s --entry=strided_slice_broadcast --input=3xf32=1,2,3 --expected-output=3xf32=0,1,2 --quiet | FileCheck %s --check-prefix=OK
// RUN: graph-run %s --entry=dynamic_batches --specialize-shapes=false --input=2x2x3x4xf32=1 \
// RUN:   --input=2x2x4x5xf32=1 --expected-output=2x2x3x5xf32=4 --quiet | FileCheck %s --check-prefix=OK
func.func @strided_slice_broadcast(%x: tensor<3xf32>) -> tensor<3xf32> {
  %s = graph.slice %x [0] [1] [2] : tensor<3xf32> -> tensor<1xf32>
  %r = graph.sub %x, %s : tensor<3xf32>, tensor<1xf32> -> tensor<3xf32>
  return %r : tensor<3xf32>
}
func.func @dynamic_batches(%a: tensor<?x?x3x4xf32>, %b: tensor<?x?x4x5xf32>) -> tensor<?x?x3x5xf32> {
  %r = graph.matmul %a, %b : tensor<?x?x3x4xf32>, tensor<?x?x4x5xf32> -> tensor<?x?x3x5xf32>
  return %r : tensor<?x?x3x5xf32>
}
func.func @huge_broadcast(%x: tensor<f32>) -> tensor<1000000x1000000xf32> {
  %0 = graph.broadcast_to %x, [1000000, 1000000] : tensor<f32> -> tensor<1000000x1000000xf32>
  return %0 : tensor<1000000x1000000xf32>
}
func.func @recursive(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @recursive_f(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @recursive_f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.neg %x : tensor<4xf32> -> tensor<4xf32>
  %1 = func.call @recursive_g(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func @recursive_g(%x: tensor<4xf32>) -> tensor<4xf32> {
  %1 = func.call @recursive_f(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func @ident_i1(%x: tensor<2xi1>) -> tensor<2xi1> {
  return %x : tensor<2xi1>
}
