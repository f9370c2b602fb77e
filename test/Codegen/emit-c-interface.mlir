// RUN: graph-opt %s -graph-emit-c-interface | FileCheck %s

// Public functions get the C wrapper and read-only tensor arguments;
// private ones and declarations are left alone.
// CHECK-LABEL: func.func @entry
// CHECK-SAME: (%{{.+}}: tensor<4xf32> {bufferization.writable = false}, %{{.+}}: tensor<4xf32> {bufferization.writable = false})
// CHECK-SAME: attributes {llvm.emit_c_interface}
func.func @entry(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = call @helper(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func private @helper
// CHECK-NOT: llvm.emit_c_interface
// CHECK-NOT: bufferization.writable
func.func private @helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
