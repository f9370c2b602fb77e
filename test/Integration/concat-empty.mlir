// Concatenating an empty operand (here the last one, whose offset equals
// the result's size on the axis) inserts nothing: [[1], [2]] ++ 2x0 ++ ...
// RUN: graph-run %s --input=2x1xf32=1,2 --input=2x0xf32=0 | FileCheck %s
// RUN: %if cuda-runtime %{ graph-run %s --target=cuda --cuda-emulate --input=2x1xf32=1,2 --input=2x0xf32=0 | FileCheck %s %}
// CHECK: {{\[\[}}1], [2]]
func.func @main(%x: tensor<2x1xf32>, %y: tensor<2x0xf32>) -> tensor<2x1xf32> {
  %b = graph.concat %x, %y axis = 1 : tensor<2x1xf32>, tensor<2x0xf32> -> tensor<2x1xf32>
  return %b : tensor<2x1xf32>
}
