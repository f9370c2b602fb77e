"""The IR imported for transposed convolutions (python/graphopt/importer/
mlir_builder.py, conv_transpose2d): no convolution over inserted zeros."""

import torch
import torch.nn as nn

from graphopt import import_torch

torch.manual_seed(0)


def show(title, model, x):
    print(f"== {title}")
    print(import_torch(model.eval(), (x,)))


# Kernel = stride: one 1x1 convolution to F * KH * KW = 4 * 2 * 2 channels,
# the 2x2 blocks moved into place by a transpose.
# CHECK-LABEL: == unet
# CHECK: graph.conv2d {{.*}} -> tensor<1x16x5x7xf32>
# CHECK: graph.reshape {{.*}} -> tensor<1x4x2x2x5x7xf32>
# CHECK: graph.transpose {{.*}} -> tensor<1x4x5x2x7x2xf32>
# CHECK: graph.reshape {{.*}} -> tensor<1x4x10x14xf32>
# CHECK-NOT: graph.conv2d
show("unet", nn.ConvTranspose2d(8, 4, 2, stride=2), torch.randn(1, 8, 5, 7))

# Kernel 3, stride 2, padding 1, output_padding 1 on 5x7 -> 10x14. In the
# zero-inserted form (lo = 1 * (3 - 1) - 1 = 1), output row 2q + r reads
# input row q + (r + t - 1) / 2 through flipped tap t where that divides:
# phase 0 takes tap 1 (offset 0), phase 1 taps 0 and 2 (offsets 0 and 1).
# So the four phases convolve with 1x1, 1x2, 2x1 and 2x2 kernels, each
# giving a 5x7 quarter of the output, padded by one row/column at the
# bottom/right where a two-tap phase reads past the input.
# CHECK-LABEL: == stride2
# CHECK: graph.conv2d {{.*}} : (tensor<1x4x5x7xf32>, tensor<6x4x1x1xf32>, tensor<6xf32>) -> tensor<1x6x5x7xf32>
# CHECK: graph.conv2d {{.*}}padding = array<i64: 0, 0, 0, 1>{{.*}} : (tensor<1x4x5x7xf32>, tensor<6x4x1x2xf32>, tensor<6xf32>) -> tensor<1x6x5x7xf32>
# CHECK: graph.conv2d {{.*}}padding = array<i64: 0, 0, 1, 0>{{.*}} : (tensor<1x4x5x7xf32>, tensor<6x4x2x1xf32>, tensor<6xf32>) -> tensor<1x6x5x7xf32>
# CHECK: graph.conv2d {{.*}}padding = array<i64: 0, 0, 1, 1>{{.*}} : (tensor<1x4x5x7xf32>, tensor<6x4x2x2xf32>, tensor<6xf32>) -> tensor<1x6x5x7xf32>
# CHECK: graph.transpose {{.*}} -> tensor<1x6x5x2x7x2xf32>
# CHECK: graph.reshape {{.*}} -> tensor<1x6x10x14xf32>
show("stride2", nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1),
     torch.randn(1, 4, 5, 7))
