// RUN: graph-opt %s | graph-opt | FileCheck %s

// CHECK-LABEL: func.func @group
// CHECK: fusion.group loop(%{{.+}}, %{{.+}}) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
// CHECK: ^bb0(%[[X:.+]]: tensor<4xf32>, %[[Y:.+]]: tensor<4xf32>):
// CHECK: fusion.yield %{{.+}} : tensor<4xf32>
func.func @group(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = fusion.group loop (%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>, %y: tensor<4xf32>):
    %s = graph.add %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
    %t = graph.relu %s : tensor<4xf32> -> tensor<4xf32>
    fusion.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// CHECK-LABEL: func.func @linear
// CHECK: fusion.linear %{{.+}}, %{{.+}}, %{{.+}} transpose_weight activation = gelu : (tensor<8x768xf32>, tensor<3072x768xf32>, tensor<3072xf32>) -> tensor<8x3072xf32>
// CHECK: fusion.linear %{{.+}}, %{{.+}} : (tensor<?x2x16xf16>, tensor<16x4xf16>) -> tensor<?x2x4xf16>
// CHECK: fusion.linear %{{.+}}, %{{.+}}, %{{.+}} activation = relu : (tensor<16xbf16>, tensor<16x4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
func.func @linear(%x: tensor<8x768xf32>, %w: tensor<3072x768xf32>, %b: tensor<3072xf32>,
                  %x2: tensor<?x2x16xf16>, %w2: tensor<16x4xf16>,
                  %x3: tensor<16xbf16>, %w3: tensor<16x4xbf16>, %b3: tensor<4xbf16>) {
  %0 = fusion.linear %x, %w, %b transpose_weight activation = gelu : (tensor<8x768xf32>, tensor<3072x768xf32>, tensor<3072xf32>) -> tensor<8x3072xf32>
  %1 = fusion.linear %x2, %w2 : (tensor<?x2x16xf16>, tensor<16x4xf16>) -> tensor<?x2x4xf16>
  %2 = fusion.linear %x3, %w3, %b3 activation = relu : (tensor<16xbf16>, tensor<16x4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
  return
}

// CHECK-LABEL: func.func @attention
// CHECK: fusion.attention %{{.+}}, %{{.+}}, %{{.+}} causal : (tensor<2x12x128x64xf32>, tensor<2x12x128x64xf32>, tensor<2x12x128x64xf32>) -> tensor<2x12x128x64xf32>
// CHECK: fusion.attention %{{.+}}, %{{.+}}, %{{.+}} mask(%{{.+}} : tensor<4x6xi1>) scale = 1.250000e-01 : (tensor<3x4x8xf32>, tensor<1x6x8xf32>, tensor<3x6x5xf32>) -> tensor<3x4x5xf32>
// CHECK: fusion.attention %{{.+}}, %{{.+}}, %{{.+}} mask(%{{.+}} : tensor<1x6xf32>) : (tensor<4x8xf32>, tensor<6x8xf32>, tensor<6x8xf32>) -> tensor<4x8xf32>
func.func @attention(%q: tensor<2x12x128x64xf32>, %q2: tensor<3x4x8xf32>, %k2: tensor<1x6x8xf32>,
                     %v2: tensor<3x6x5xf32>, %m2: tensor<4x6xi1>, %q3: tensor<4x8xf32>,
                     %k3: tensor<6x8xf32>, %m3: tensor<1x6xf32>) {
  %0 = fusion.attention %q, %q, %q causal : (tensor<2x12x128x64xf32>, tensor<2x12x128x64xf32>, tensor<2x12x128x64xf32>) -> tensor<2x12x128x64xf32>
  %1 = fusion.attention %q2, %k2, %v2 mask(%m2 : tensor<4x6xi1>) scale = 0.125 : (tensor<3x4x8xf32>, tensor<1x6x8xf32>, tensor<3x6x5xf32>) -> tensor<3x4x5xf32>
  %2 = fusion.attention %q3, %k3, %k3 mask(%m3 : tensor<1x6xf32>) : (tensor<4x8xf32>, tensor<6x8xf32>, tensor<6x8xf32>) -> tensor<4x8xf32>
  return
}
