// RUN: graph-opt %s --graph-cpu-outline-kernels="min-ops=4 tensors=true" --split-input-file | FileCheck %s
// RUN: graph-opt %s --graph-cpu-outline-kernels="min-ops=4 tensors=true" --split-input-file \
// RUN:   --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   --canonicalize --drop-equivalent-buffer-results | FileCheck %s --check-prefix=BUF

// Two layers of one shape with different weights (arguments, so one
// function), and a third nest that differs. Each nest writes a new tensor
// of its own: the one CSE'd tensor.empty is cloned per destination. Splat
// and scalar constants are cloned in.
// CHECK-LABEL: func.func @layers
// CHECK-SAME: (%[[X:.+]]: tensor<64xf32>)
// CHECK-DAG: %[[W1:.+]] = arith.constant dense<[1.0
// CHECK-DAG: %[[W2:.+]] = arith.constant dense<[5.0
// CHECK-NOT: scf.for
// CHECK: %[[E0:.+]] = tensor.empty() : tensor<64xf32>
// CHECK: %[[E1:.+]] = tensor.empty() : tensor<64xf32>
// CHECK: %[[R1:.+]] = call @[[K0:layers_kernel0]](%[[E1]], %[[X]], %[[W1]])
// CHECK: %[[E2:.+]] = tensor.empty() : tensor<64xf32>
// CHECK: %[[R2:.+]] = call @[[K0]](%[[E2]], %[[R1]], %[[W2]])
// CHECK: %[[R3:.+]] = call @[[K2:layers_kernel2]](%[[E0]], %[[R2]])
// CHECK: return %[[R3]]
// CHECK: func.func private @[[K0]](%{{.+}}: tensor<64xf32>, %{{.+}}: tensor<64xf32>, %{{.+}}: tensor<64xf32>) -> tensor<64xf32> attributes {passthrough = ["noinline"]}
// CHECK: func.func private @[[K2]](%{{.+}}: tensor<64xf32>, %{{.+}}: tensor<64xf32>) -> tensor<64xf32>
// CHECK: arith.constant dense<2.000000e+00> : tensor<64xf32>
// CHECK-NOT: layers_kernel1
// After bufferization, each function writes its last argument's buffer
// and returns nothing; the caller allocates the three results.
// BUF-LABEL: func.func @layers
// BUF-NOT: memref.copy
// BUF-COUNT-2: memref.alloc()
// BUF-NEXT: call @layers_kernel0(%{{.+}}, %{{.+}}, %{{.+}}) : (memref<64xf32>, memref<64xf32>, memref<64xf32>) -> ()
// BUF-NEXT: memref.alloc()
// BUF-NEXT: call @layers_kernel0(%{{.+}}, %{{.+}}, %{{.+}}) : (memref<64xf32>, memref<64xf32>, memref<64xf32>) -> ()
// BUF-NEXT: call @layers_kernel2(%{{.+}}, %{{.+}}) : (memref<64xf32>, memref<64xf32>) -> ()
// BUF-NEXT: return
// BUF: func.func private @layers_kernel0(%{{.+}}: memref<64xf32>, %{{.+}}: memref<64xf32>, %{{.+}}: memref<64xf32>) attributes
func.func @layers(%x: tensor<64xf32>) -> tensor<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %w1 = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 1.0, 2.0, 3.0, 4.0, 1.0, 2.0, 3.0, 4.0, 1.0, 2.0, 3.0, 4.0, 1.0, 2.0, 3.0, 4.0, 1.0, 2.0, 3.0, 4.0, 1.0, 2.0, 3.0, 4.0, 1.0, 2.0, 3.0, 4.0, 1.0, 2.0, 3.0, 4.0, 1.0, 2.0, 3.0, 4.0, 1.0, 2.0, 3.0, 4.0, 1.0, 2.0, 3.0, 4.0, 1.0, 2.0, 3.0, 4.0, 1.0, 2.0, 3.0, 4.0, 1.0, 2.0, 3.0, 4.0, 1.0, 2.0, 3.0, 4.0]> : tensor<64xf32>
  %w2 = arith.constant dense<[5.0, 6.0, 7.0, 8.0, 5.0, 6.0, 7.0, 8.0, 5.0, 6.0, 7.0, 8.0, 5.0, 6.0, 7.0, 8.0, 5.0, 6.0, 7.0, 8.0, 5.0, 6.0, 7.0, 8.0, 5.0, 6.0, 7.0, 8.0, 5.0, 6.0, 7.0, 8.0, 5.0, 6.0, 7.0, 8.0, 5.0, 6.0, 7.0, 8.0, 5.0, 6.0, 7.0, 8.0, 5.0, 6.0, 7.0, 8.0, 5.0, 6.0, 7.0, 8.0, 5.0, 6.0, 7.0, 8.0, 5.0, 6.0, 7.0, 8.0, 5.0, 6.0, 7.0, 8.0]> : tensor<64xf32>
  %two = arith.constant dense<2.0> : tensor<64xf32>
  %e = tensor.empty() : tensor<64xf32>
  %r1 = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %e) -> tensor<64xf32> {
    %a = tensor.extract %x[%i] : tensor<64xf32>
    %b = tensor.extract %w1[%i] : tensor<64xf32>
    %s = arith.addf %a, %b : f32
    %y = tensor.insert %s into %acc[%i] : tensor<64xf32>
    scf.yield %y : tensor<64xf32>
  }
  %r2 = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %e) -> tensor<64xf32> {
    %a = tensor.extract %r1[%i] : tensor<64xf32>
    %b = tensor.extract %w2[%i] : tensor<64xf32>
    %s = arith.addf %a, %b : f32
    %y = tensor.insert %s into %acc[%i] : tensor<64xf32>
    scf.yield %y : tensor<64xf32>
  }
  %r3 = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %e) -> tensor<64xf32> {
    %a = tensor.extract %r2[%i] : tensor<64xf32>
    %b = tensor.extract %two[%i] : tensor<64xf32>
    %s = arith.mulf %a, %b : f32
    %y = tensor.insert %s into %acc[%i] : tensor<64xf32>
    scf.yield %y : tensor<64xf32>
  }
  return %r3 : tensor<64xf32>
}

// -----

// A nest computing one part of a tensor (a slice it writes, inserted back
// in place) moves with its slice and insertion and returns the whole
// tensor; the part of the input it reads (a strided view) moves in too and
// the input is passed whole, so nothing is copied at the calls.
// CHECK-LABEL: func.func @parts
// CHECK-SAME: (%[[X:.+]]: tensor<8x40xf32>)
// CHECK: %[[E:.+]] = tensor.empty() : tensor<8x40xf32>
// CHECK-NOT: tensor.extract_slice
// CHECK: %[[P:.+]] = call @[[K0:parts_kernel0]](%[[E]], %[[X]])
// CHECK-NOT: tensor.extract_slice
// CHECK: %[[Q:.+]] = call @[[K1:parts_kernel1]](%[[P]], %[[X]])
// CHECK: return %[[Q]]
// CHECK: func.func private @[[K0]](%[[D:.+]]: tensor<8x40xf32>, %[[A:.+]]: tensor<8x40xf32>) -> tensor<8x40xf32>
// CHECK-DAG: tensor.extract_slice %[[A]][0, 0] [8, 32] [1, 1]
// CHECK-DAG: %[[S:.+]] = tensor.extract_slice %[[D]][0, 0] [8, 32] [1, 1]
// CHECK: %[[L:.+]] = scf.for {{.+}} iter_args(%{{.+}} = %[[S]])
// CHECK: %[[I:.+]] = tensor.insert_slice %[[L]] into %[[D]][0, 0] [8, 32] [1, 1]
// CHECK: return %[[I]]
// BUF-LABEL: func.func @parts
// BUF-SAME: (%[[X:.+]]: memref<8x40xf32>)
// BUF-NEXT: %[[D:.+]] = memref.alloc() {{.+}} : memref<8x40xf32>
// BUF-NEXT: call @parts_kernel0(%[[D]], %[[X]]) : (memref<8x40xf32>, memref<8x40xf32>) -> ()
// BUF-NEXT: call @parts_kernel1(%[[D]], %[[X]]) : (memref<8x40xf32>, memref<8x40xf32>) -> ()
// BUF-NEXT: return %[[D]]
func.func @parts(%x: tensor<8x40xf32>) -> tensor<8x40xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %e = tensor.empty() : tensor<8x40xf32>
  %in1 = tensor.extract_slice %x[0, 0] [8, 32] [1, 1] : tensor<8x40xf32> to tensor<8x32xf32>
  %out1 = tensor.extract_slice %e[0, 0] [8, 32] [1, 1] : tensor<8x40xf32> to tensor<8x32xf32>
  %p1 = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %out1) -> tensor<8x32xf32> {
    %row = tensor.extract_slice %in1[%i, 0] [1, 32] [1, 1] : tensor<8x32xf32> to tensor<1x32xf32>
    %y = tensor.insert_slice %row into %acc[%i, 0] [1, 32] [1, 1] : tensor<1x32xf32> into tensor<8x32xf32>
    scf.yield %y : tensor<8x32xf32>
  }
  %whole1 = tensor.insert_slice %p1 into %e[0, 0] [8, 32] [1, 1] : tensor<8x32xf32> into tensor<8x40xf32>
  %in2 = tensor.extract_slice %x[0, 32] [8, 8] [1, 1] : tensor<8x40xf32> to tensor<8x8xf32>
  %out2 = tensor.extract_slice %whole1[0, 32] [8, 8] [1, 1] : tensor<8x40xf32> to tensor<8x8xf32>
  %p2 = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %out2) -> tensor<8x8xf32> {
    %row = tensor.extract_slice %in2[%i, 0] [1, 8] [1, 1] : tensor<8x8xf32> to tensor<1x8xf32>
    %neg = linalg.negf ins(%row : tensor<1x8xf32>) outs(%row : tensor<1x8xf32>) -> tensor<1x8xf32>
    %y = tensor.insert_slice %neg into %acc[%i, 0] [1, 8] [1, 1] : tensor<1x8xf32> into tensor<8x8xf32>
    scf.yield %y : tensor<8x8xf32>
  }
  %whole2 = tensor.insert_slice %p2 into %whole1[0, 32] [8, 8] [1, 1] : tensor<8x8xf32> into tensor<8x40xf32>
  return %whole2 : tensor<8x40xf32>
}

// -----

// A nest writing into part of a tensor that is not inserted back in the
// same place stays where it is (its destination, a strided view, would be
// copied at a call); the two nests after it are outlined.
// CHECK-LABEL: func.func @stays
// CHECK: %[[P:.+]] = scf.for
// CHECK: %[[Q:.+]] = call @stays_kernel0(
// CHECK: %[[R:.+]] = call @stays_kernel1(%[[Q]])
// CHECK: return %[[P]], %[[R]]
func.func @stays(%x: tensor<8x40xf32>) -> (tensor<8x32xf32>, tensor<8x40xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %out = tensor.extract_slice %x[0, 0] [8, 32] [1, 1] : tensor<8x40xf32> to tensor<8x32xf32>
  %p = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %out) -> tensor<8x32xf32> {
    %row = tensor.extract_slice %acc[%i, 0] [1, 32] [1, 1] : tensor<8x32xf32> to tensor<1x32xf32>
    %neg = linalg.negf ins(%row : tensor<1x32xf32>) outs(%row : tensor<1x32xf32>) -> tensor<1x32xf32>
    %y = tensor.insert_slice %neg into %acc[%i, 0] [1, 32] [1, 1] : tensor<1x32xf32> into tensor<8x32xf32>
    scf.yield %y : tensor<8x32xf32>
  }
  %e = tensor.empty() : tensor<8x40xf32>
  %q = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %e) -> tensor<8x40xf32> {
    %row = tensor.extract_slice %x[%i, 0] [1, 40] [1, 1] : tensor<8x40xf32> to tensor<1x40xf32>
    %neg = linalg.negf ins(%row : tensor<1x40xf32>) outs(%row : tensor<1x40xf32>) -> tensor<1x40xf32>
    %y = tensor.insert_slice %neg into %acc[%i, 0] [1, 40] [1, 1] : tensor<1x40xf32> into tensor<8x40xf32>
    scf.yield %y : tensor<8x40xf32>
  }
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %q) -> tensor<8x40xf32> {
    %row = tensor.extract_slice %acc[%i, 0] [1, 40] [1, 1] : tensor<8x40xf32> to tensor<1x40xf32>
    %neg = linalg.negf ins(%row : tensor<1x40xf32>) outs(%row : tensor<1x40xf32>) -> tensor<1x40xf32>
    %y = tensor.insert_slice %neg into %acc[%i, 0] [1, 40] [1, 1] : tensor<1x40xf32> into tensor<8x40xf32>
    scf.yield %y : tensor<8x40xf32>
  }
  return %p, %r : tensor<8x32xf32>, tensor<8x40xf32>
}

// -----

// A new tensor a nest only uses as scratch space (not its destination) is
// created in the function: passed in, its contents would be unknown there,
// and a tile of it that bufferization puts out of place would be copied.
// CHECK-LABEL: func.func @scratch
// CHECK-SAME: (%[[X:.+]]: tensor<64xf32>)
// CHECK: %[[D:.+]] = tensor.empty() : tensor<64xf32>
// CHECK-NEXT: %[[R:.+]] = call @[[K:scratch_kernel0]](%[[D]], %[[X]])
// CHECK: func.func private @[[K]](%{{.+}}: tensor<64xf32>, %{{.+}}: tensor<64xf32>) -> tensor<64xf32>
// CHECK: tensor.empty() : tensor<64xf32>
// CHECK: scf.for
func.func @scratch(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %scratch = tensor.empty() : tensor<64xf32>
  %d = tensor.empty() : tensor<64xf32>
  %r = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %d) -> tensor<64xf32> {
    %a = tensor.extract %x[%i] : tensor<64xf32>
    %t = tensor.insert %a into %scratch[%i] : tensor<64xf32>
    %b = tensor.extract %t[%i] : tensor<64xf32>
    %y = tensor.insert %b into %acc[%i] : tensor<64xf32>
    scf.yield %y : tensor<64xf32>
  }
  %d2 = tensor.empty() : tensor<64xf32>
  %r2 = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %d2) -> tensor<64xf32> {
    %a = tensor.extract %r[%i] : tensor<64xf32>
    %s = arith.addf %a, %a : f32
    %y = tensor.insert %s into %acc[%i] : tensor<64xf32>
    scf.yield %y : tensor<64xf32>
  }
  return %r, %r2 : tensor<64xf32>, tensor<64xf32>
}
