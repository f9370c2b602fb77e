// RUN: graph-opt %s --pass-pipeline="builtin.module(func.func(graph-cpu-plan-memory))" --split-input-file | FileCheck %s

// Lifetimes (alloc .. dealloc): %a [0, 4], %b [2, 6], %c [5, 9]. Largest
// first: %b (128 bytes) at 0; %a overlaps %b: at 128; %c overlaps %b but
// not %a: at 128 too, where %a was. Arena 192 bytes. The dynamic buffer
// and the returned one keep their own allocations.
// CHECK-LABEL: func.func @plan
// CHECK-NEXT:    %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<192xi8>
// CHECK-NEXT:    %[[O128:.*]] = arith.constant 128 : index
// CHECK-NEXT:    %[[A:.*]] = memref.view %[[ARENA]][%[[O128]]][] : memref<192xi8> to memref<16xf32>
// CHECK-NEXT:    memref.copy %{{.*}}, %[[A]]
// CHECK-NEXT:    %[[O0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[B:.*]] = memref.view %[[ARENA]][%[[O0]]][] : memref<192xi8> to memref<32xf32>
// CHECK:         %[[O128B:.*]] = arith.constant 128 : index
// CHECK-NEXT:    %[[C:.*]] = memref.view %[[ARENA]][%[[O128B]]][] : memref<192xi8> to memref<16xf32>
// CHECK-NOT:     memref.dealloc %[[B]]
// CHECK:         %[[D:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK-NEXT:    memref.dealloc %[[D]]
// CHECK-NEXT:    %[[R:.*]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT:    memref.copy %[[C]], %[[R]]
// CHECK-NEXT:    memref.dealloc %[[ARENA]] : memref<192xi8>
// CHECK-NEXT:    return %[[R]]
func.func @plan(%arg: memref<16xf32>, %n: index) -> memref<16xf32> {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %arg, %a : memref<16xf32> to memref<16xf32>
  %b = memref.alloc() : memref<32xf32>
  %bs = memref.subview %b[0] [16] [1] : memref<32xf32> to memref<16xf32, strided<[1]>>
  memref.copy %a, %bs : memref<16xf32> to memref<16xf32, strided<[1]>>
  memref.dealloc %a : memref<16xf32>
  %c = memref.alloc() : memref<16xf32>
  memref.copy %bs, %c : memref<16xf32, strided<[1]>> to memref<16xf32>
  memref.dealloc %b : memref<32xf32>
  %d = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %d : memref<?xf32>
  %r = memref.alloc() : memref<16xf32>
  memref.copy %c, %r : memref<16xf32> to memref<16xf32>
  memref.dealloc %c : memref<16xf32>
  return %r : memref<16xf32>
}

// -----

// Not planned: a buffer inside a loop (allocated per iteration), one that
// flows into a loop's result, and a lone buffer (nothing to share with).
// CHECK-LABEL: func.func @unplanned
// CHECK-NOT:   memref.view
// CHECK-NOT:   xi8>
// CHECK:       return
func.func @unplanned(%arg: memref<8xf32>, %lb: index, %ub: index) {
  %c1 = arith.constant 1 : index
  %x = memref.alloc() : memref<8xf32>
  %y = scf.for %i = %lb to %ub step %c1 iter_args(%it = %x) -> (memref<8xf32>) {
    %t = memref.alloc() : memref<8xf32>
    memref.copy %arg, %t : memref<8xf32> to memref<8xf32>
    memref.copy %t, %it : memref<8xf32> to memref<8xf32>
    memref.dealloc %t : memref<8xf32>
    scf.yield %it : memref<8xf32>
  }
  memref.copy %y, %arg : memref<8xf32> to memref<8xf32>
  memref.dealloc %x : memref<8xf32>
  %z = memref.alloc() : memref<8xf32>
  memref.copy %arg, %z : memref<8xf32> to memref<8xf32>
  memref.dealloc %z : memref<8xf32>
  return
}
