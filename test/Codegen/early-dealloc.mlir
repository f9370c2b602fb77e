// RUN: graph-opt %s --graph-cpu-early-dealloc --split-input-file | FileCheck %s

// Ownership-based deallocation frees a block's buffers at its end; the pass
// moves each dealloc up to right after the last use of the buffer or of a
// view of it (a use inside a loop is the loop's).
// CHECK-LABEL: func.func @chain
// CHECK: %[[A:.+]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT: call @produce(%[[A]])
// CHECK-NEXT: %[[B:.+]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT: %[[V:.+]] = memref.subview %[[A]][0] [8] [1]
// CHECK-NEXT: scf.for
// CHECK-NEXT: func.call @read8(%[[V]], %[[B]])
// CHECK-NEXT: }
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK-NEXT: %[[C:.+]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT: call @read(%[[B]], %[[C]])
// CHECK-NEXT: memref.dealloc %[[B]]
// CHECK-NEXT: call @produce(%[[C]])
// CHECK-NEXT: memref.dealloc %[[C]]
// CHECK-NEXT: return
func.func private @produce(memref<16xf32>)
func.func private @read(memref<16xf32>, memref<16xf32>)
func.func private @read8(memref<8xf32, strided<[1]>>, memref<16xf32>)
func.func @chain(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<16xf32>
  call @produce(%a) : (memref<16xf32>) -> ()
  %b = memref.alloc() : memref<16xf32>
  %v = memref.subview %a[0] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1]>>
  scf.for %i = %c0 to %n step %c1 {
    func.call @read8(%v, %b) : (memref<8xf32, strided<[1]>>, memref<16xf32>) -> ()
  }
  %c = memref.alloc() : memref<16xf32>
  call @read(%b, %c) : (memref<16xf32>, memref<16xf32>) -> ()
  call @produce(%c) : (memref<16xf32>) -> ()
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  memref.dealloc %c : memref<16xf32>
  return
}

// -----

// A buffer that may flow into another value than a view (a branch's
// result) keeps its dealloc where it is; so does a buffer never used.
// CHECK-LABEL: func.func @escapes
// CHECK: %[[A:.+]] = memref.alloc()
// CHECK: %[[B:.+]] = memref.alloc()
// CHECK-NEXT: memref.dealloc %[[B]]
// CHECK: scf.if
// CHECK: call @produce
// CHECK-NEXT: memref.dealloc %[[A]]
func.func private @produce(memref<16xf32>)
func.func @escapes(%p: i1, %other: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  %r = scf.if %p -> memref<16xf32> {
    scf.yield %a : memref<16xf32>
  } else {
    scf.yield %other : memref<16xf32>
  }
  call @produce(%r) : (memref<16xf32>) -> ()
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  return
}
