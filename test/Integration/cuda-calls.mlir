// A private function called twice: the results of the calls have unknown
// ownership, so buffer deallocation emits its general case, with pointer
// bookkeeping in host scratch buffers and a dealloc_helper function. On the
// CUDA target that bookkeeping stays on the host (it is not tensor data):
// the program compiles for CUDA and, under emulation, gives the CPU's
// results. relu(relu(x)) + relu(x) for x = [1.5, -1, 2, -3]: [3, 0, 4, 0].
// RUN: graph-run %s --input=4xf32=1.5,-1,2,-3 | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --target=cuda --cuda-emulate --input=4xf32=1.5,-1,2,-3 | FileCheck %s %}
// RUN: %if cuda-runtime %{ graph-run %s --target=cuda --compile-only %}
// CHECK: [3, 0, 4, 0]
func.func private @block(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = graph.relu %x : tensor<4xf32> -> tensor<4xf32>
  return %a : tensor<4xf32>
}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = func.call @block(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = func.call @block(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %c = graph.add %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %c : tensor<4xf32>
}
