"""Models with dense-prediction layers, shared by the PyTorch e2e suite
(test/e2e/cases/models.py) and the ONNX model tests (test/onnx/models.py):
transposed convolution, bilinear upsampling and top-k."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class KeypointHead(nn.Module):
    """A CenterNet-style detector head: a strided conv backbone, a learned
    2x upsampling (ConvTranspose2d, kernel 4, stride 2, padding 1) merged
    with a bilinearly upsampled skip branch, a sigmoid heatmap and the k
    best-scoring locations (torch.topk over the flattened heatmap).
    Returns (heatmap, scores, indices)."""

    def __init__(self, k: int = 10):
        super().__init__()
        self.k = k
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
                                  nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU())
        self.up = nn.ConvTranspose2d(32, 16, 4, stride=2, padding=1)
        self.skip = nn.Conv2d(32, 16, 1)
        self.heat = nn.Conv2d(16, 1, 3, padding=1)

    def forward(self, x):
        f = self.stem(x)
        u = F.relu(self.up(f) + F.interpolate(self.skip(f), scale_factor=2,
                                              mode="bilinear", align_corners=False))
        heat = torch.sigmoid(self.heat(u))
        scores, indices = torch.topk(heat.flatten(1), self.k)
        return heat, scores, indices
