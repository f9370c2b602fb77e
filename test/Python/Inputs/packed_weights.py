"""Packed weights made at compile time (lib/Dialect/Graph/IR/HeapConstants.cpp):
constant matmul and convolution weights of 16 KiB or more are packed into
heap resources (`dense_resource<graphopt_heap_...>`) that the JIT takes
over without a copy, and that ahead-of-time objects embed or write to their
weights file. Each way of running the program is checked against eager
PyTorch (rtol 1e-4, atol 1e-5: f32 sums in another order).

Usage: packed_weights.py emit DIR   (the model's MLIR, input and reference)
       packed_weights.py check DIR  (the JIT and both AOT libraries)"""
import subprocess
import sys
from pathlib import Path

import numpy as np
import torch

import graphopt

torch.manual_seed(0)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        # 32 -> 64 channels, 3x3 (72 KiB: packed for the direct or the
        # im2col kernel), a 1x1 convolution (16 KiB) and a 4096 -> 64
        # linear layer (1 MiB, transposed then packed).
        self.conv = torch.nn.Conv2d(32, 64, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(64)
        self.pw = torch.nn.Conv2d(64, 64, 1)
        self.fc = torch.nn.Linear(64 * 8 * 8, 64)

    def forward(self, x):
        y = torch.relu(self.bn(self.conv(x)))
        y = torch.relu(self.pw(y))
        return self.fc(y.flatten(1))


def emit(out: Path):
    model = Net().eval()
    with torch.no_grad():
        model.bn.running_mean.uniform_(-0.5, 0.5)
        model.bn.running_var.uniform_(0.5, 2.0)
    x = torch.randn(2, 32, 8, 8)
    with torch.no_grad():
        ref = model(x).numpy()
    cm = graphopt.compile(model, (x,))
    (out / "model.mlir").write_text(cm.mlir)
    np.save(out / "x.npy", x.numpy())
    np.save(out / "ref.npy", ref)
    np.testing.assert_allclose(cm(x).numpy(), ref, rtol=1e-4, atol=1e-5)
    print("compile vs eager: ok")


def check(out: Path):
    x, ref = np.load(out / "x.npy"), np.load(out / "ref.npy")
    text = (out / "model.mlir").read_text()
    # JIT: graphopt.Program on the self-contained text.
    (got,) = graphopt.Program(text).run([x])
    np.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-5)
    print("JIT: ok")
    # AOT, weights in the object and in a weights file.
    for lib, weights in (("libembedded.so", None),
                         ("libweights.so", out / "model.weights")):
        y = graphopt.load(str(out / lib), weights=weights and str(weights))(x)
        np.testing.assert_allclose(y, ref, rtol=1e-4, atol=1e-5)
        print(lib, "ok")


if __name__ == "__main__":
    {"emit": emit, "check": check}[sys.argv[1]](Path(sys.argv[2]))
