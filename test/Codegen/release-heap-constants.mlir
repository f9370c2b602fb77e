// RUN: graph-opt %s --pass-pipeline='builtin.module(func.func(canonicalize),graph-release-heap-constants{remark})' -o %t 2>&1 | FileCheck %s --check-prefix=FREED
// RUN: FileCheck %s < %t

// Heap constants (include/graphopt/Dialect/Graph/IR/HeapConstants.h): the
// data of those that no op refers to is freed; a referenced one keeps its
// data (printed below), and a resource that is not the compiler's
// (`weights`, given by the user) is never freed, referenced or not. Each
// blob holds 16 f32 = 64 bytes; the constants of graphopt_heap_b and
// `weights` are unused (canonicalize erases them): only graphopt_heap_b's
// 64 bytes are freed.
// FREED: remark: freed 64 bytes of unused constants
// CHECK-LABEL: func.func @main
// CHECK: arith.constant dense_resource<graphopt_heap_a> : tensor<16xf32>
// CHECK: dialect_resources
// CHECK: graphopt_heap_a: "0x400000000000000000
func.func @main() -> tensor<16xf32> {
  %a = arith.constant dense_resource<graphopt_heap_a> : tensor<16xf32>
  %b = arith.constant dense_resource<graphopt_heap_b> : tensor<16xf32>
  %w = arith.constant dense_resource<weights> : tensor<16xf32>
  return %a : tensor<16xf32>
}

{-#
  dialect_resources: {
    builtin: {
      graphopt_heap_a: "0x40000000000000000000803F0000004000004040000080400000A0400000C0400000E0400000004100001041000020410000304100004041000050410000604100007041",
      graphopt_heap_b: "0x400000000000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F",
      weights: "0x4000000000000040000000400000004000000040000000400000004000000040000000400000004000000040000000400000004000000040000000400000004000000040"
    }
  }
#-}
