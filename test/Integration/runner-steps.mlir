// RUN: rm -rf %t && mkdir -p %t

// Runner::compile (lib/Runtime/Runner.cpp) runs in named steps: 1 the
// entry, 2 the pipeline options, 3 threads, 4 the target, 5 the libraries
// and the compile cache (test/Integration/compile-cache.test), 6 lowering,
// 7 the ahead-of-time object, 8 the JIT, 9 storing in the cache. Each step
// is checked here through graph-run (which adds only "graph-run: error: "
// and, for the entry, its own flag as a hint): what it accepts and how it
// reports what it does not. Values are worked out by hand: @main doubles
// its input.

// Step 1, the entry: its signature, a specialization, the names on offer.
// RUN: graph-run %s --input=4xf32=1,2,3,4 | FileCheck %s --check-prefix=OUT
// RUN: graph-run %s --entry=dynamic --specialize-shapes --input=3xf32=1,2,3 \
// RUN:   | FileCheck %s --check-prefix=OUT3
// RUN: not graph-run %s --entry=nope --input=4xf32=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ENTRY
// RUN: not graph-run %s --entry=llvm_level 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LLVM-LEVEL
// RUN: not graph-run %s --entry=bad_type --input=4xf32=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TYPE
// OUT-LABEL: result 0: tensor<4xf32> = 4xf32
// OUT-NEXT: [2, 4, 6, 8]
// OUT3-LABEL: result 0: tensor<?xf32> = 3xf32
// OUT3-NEXT: [2, 4, 6]
// ENTRY: graph-run: error: no function @nope in the module (functions: @main, @dynamic, @bad_type); choose one with --entry
// LLVM-LEVEL: graph-run: error: @llvm_level is not a func.func: graphopt reads tensor shapes and element types from the entry's signature
// TYPE: graph-run: error: input 1 has element type i4; graphopt runs f32, f16, bf16, f64, i1, i8, i16, i32, i64, ui8, ui16, ui32, ui64

// Step 2, the pipeline options: by name; an unknown one lists them all.
// RUN: graph-run %s --input=4xf32=1,2,3,4 --pipeline-options="fuse-elementwise=false vector-width=8" \
// RUN:   | FileCheck %s --check-prefix=OUT
// RUN: not graph-run %s --input=4xf32=1 --pipeline-options=frobnicate=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OPTION
// OPTION: graph-run: error: bad compile options '{{.*}}frobnicate=1': no such option frobnicate (the compile pipeline's options: {{.*}}threads{{.*}})

// Step 3, threads: 1 or more.
// RUN: graph-run %s --input=4xf32=1,2,3,4 --threads=2 | FileCheck %s --check-prefix=OUT
// RUN: not graph-run %s --input=4xf32=1 --threads=0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=THREADS
// THREADS: graph-run: error: threads=0: give 1 or more

// Step 4, the target: cpu or cuda.
// RUN: not graph-run %s --input=4xf32=1 --pipeline-options=target=tpu 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TARGET
// TARGET: graph-run: error: unknown target 'tpu': use cpu or cuda

// Step 5, the libraries the code may call: they must exist and load.
// RUN: not graph-run %s --input=4xf32=1 --shared-lib=%t/none.so 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LIB
// LIB: graph-run: error: shared library '{{.*}}none.so' does not exist

// Step 7, the ahead-of-time object: written where asked, or an error.
// RUN: graph-run %s --compile-only --emit-object=%t/main.o
// RUN: llvm-nm %t/main.o | FileCheck %s --check-prefix=OBJECT
// OBJECT: T _mlir_ciface_main
// RUN: not graph-run %s --compile-only --emit-object=%t/no/such/dir/main.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OBJECT-PATH
// OBJECT-PATH: graph-run: error: cannot write {{.*}}main.o: No such file or directory

// Step 8, the JIT: --compile-only stops before it, so nothing can be called.
// RUN: graph-run %s --compile-only --input=4xf32=1 \
// RUN:   | FileCheck %s --check-prefix=COMPILE-ONLY --allow-empty
// COMPILE-ONLY-NOT: result 0

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.add %x, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = graph.add %x, %x : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

func.func @bad_type(%x: tensor<4xf32>, %y: tensor<4xi4>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

llvm.func @llvm_level() {
  llvm.return
}
