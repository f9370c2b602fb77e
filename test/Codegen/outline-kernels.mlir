// RUN: graph-opt %s --graph-cpu-outline-kernels="min-ops=4" --split-input-file | FileCheck %s

// Three top-level loop nests: the first and third are the same kernel on
// other buffers (one shared function), the second differs (its own). Index
// and vector constants are cloned in; buffers become arguments; the
// functions are private and noinline.
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[A:.+]]: memref<64xf32>, %[[B:.+]]: memref<64xf32>, %[[C:.+]]: memref<64xf32>)
// CHECK-NOT: scf.for
// CHECK: call @[[K0:main_kernel0]](%[[A]], %[[B]])
// CHECK-NEXT: call @[[K1:main_kernel1]](%[[B]], %[[C]])
// CHECK-NEXT: call @[[K0]](%[[C]], %[[A]])
// CHECK-NEXT: return
// CHECK-NOT: main_kernel2
// CHECK-DAG: func.func private @[[K0]](%{{.+}}: memref<64xf32>, %{{.+}}: memref<64xf32>) attributes {passthrough = ["noinline"]}
// CHECK-DAG: func.func private @[[K1]](%{{.+}}: memref<64xf32>, %{{.+}}: memref<64xf32>) attributes {passthrough = ["noinline"]}
// CHECK-NOT: main_kernel2
func.func @main(%a: memref<64xf32>, %b: memref<64xf32>, %c: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %two = arith.constant dense<2.0> : vector<16xf32>
  %pad = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c64 step %c16 {
    %x = vector.transfer_read %a[%i], %pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
    %y = arith.mulf %x, %two : vector<16xf32>
    vector.transfer_write %y, %b[%i] {in_bounds = [true]} : vector<16xf32>, memref<64xf32>
  }
  scf.for %i = %c0 to %c64 step %c16 {
    %x = vector.transfer_read %b[%i], %pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
    %y = arith.addf %x, %two : vector<16xf32>
    vector.transfer_write %y, %c[%i] {in_bounds = [true]} : vector<16xf32>, memref<64xf32>
  }
  scf.for %i = %c0 to %c64 step %c16 {
    %x = vector.transfer_read %c[%i], %pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
    %y = arith.mulf %x, %two : vector<16xf32>
    vector.transfer_write %y, %a[%i] {in_bounds = [true]} : vector<16xf32>, memref<64xf32>
  }
  return
}
// The kernels' bodies: the constants they use, cloned in.
// CHECK-DAG: arith.constant 0 : index
// CHECK-DAG: arith.constant 64 : index
// CHECK-DAG: arith.constant 16 : index
// CHECK-DAG: arith.constant dense<2.000000e+00> : vector<16xf32>

// -----

// One kernel (nothing to gain), and a loop under min-ops: left in place.
// CHECK-LABEL: func.func @single
// CHECK-NOT: call
// CHECK: scf.for
// CHECK-NOT: func.func private
func.func @single(%a: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c0f = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    %x = memref.load %a[%i] : memref<64xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %a[%i] : memref<64xf32>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    memref.store %c0f, %a[%i] : memref<64xf32>
  }
  return
}
