"""The models and checks of deploy.test (examples/deploy/).

`emit DIR` writes the seed's SimpleModel and a ResNet-18 (torchvision,
random weights from a fixed seed) as MLIR, each with an input and eager
PyTorch's result. `check DIR` compares what the C and C++ programs wrote
with eager PyTorch and with graph-run's JIT, loads the ResNet-18 library
with its weights file through graphopt.load, and prints one line per
comparison.

Tolerances: SimpleModel rtol 1e-5 / atol 1e-6 (two small matmuls, the
e2e suite's bound). ResNet-18 atol 1e-4 + rtol 1e-4 against eager on
logits of magnitude ~1: 3x3 convolutions run as Winograd F(2x2, 3x3), whose
transforms round differently from PyTorch's direct convolution (the e2e
suite checks ResNet-18 at the same bound). Against graph-run's JIT the same
bounds: the AOT object is compiled for a generic x86-64 CPU and the JIT for
the host, so the vector widths, and the order of sums, differ.
"""
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "lib"))
from seed_models import SimpleModel  # noqa: E402

d = sys.argv[2]

if sys.argv[1] == "emit":
    import torchvision

    import graphopt
    torch.manual_seed(0)
    for name, model, x in [
            ("simple", SimpleModel().eval(), torch.randn(4, 10)),
            ("resnet18", torchvision.models.resnet18().eval(),
             torch.randn(1, 3, 224, 224))]:
        with open(f"{d}/{name}.mlir", "w") as f:
            f.write(graphopt.import_torch(model, (x,)))
        np.save(f"{d}/{name}_x.npy", x.numpy())
        with torch.no_grad():
            np.save(f"{d}/{name}_eager.npy", model(x).numpy())
    sys.exit(0)

import graphopt  # noqa: E402

bounds = {"simple": (1e-5, 1e-6), "resnet18": (1e-4, 1e-4)}


def compare(name: str, what: str, got: np.ndarray, want: np.ndarray) -> None:
    rtol, atol = bounds[name]
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)
    print(f"{name} {what}: ok, shape {list(got.shape)}, max |diff| "
          f"{float(np.abs(got - want).max()):.1e} within atol {atol} + rtol "
          f"{rtol}")


for name in ("simple", "resnet18"):
    eager = np.load(f"{d}/{name}_eager.npy")
    jit = np.load(f"{d}/{name}_jit.npy")
    compare(name, "graph-run JIT vs eager", jit, eager)
    for lang in ("c", "cxx"):
        out = np.load(f"{d}/elsewhere/{name}_{lang}.npy")
        compare(name, f"{lang} program vs eager", out, eager)
        compare(name, f"{lang} program vs graph-run JIT", out, jit)

model = graphopt.load(f"{d}/libresnet18.so",
                      weights=f"{d}/elsewhere/resnet18.weights")
out = model(np.load(f"{d}/resnet18_x.npy"))
compare("resnet18", "graphopt.load vs eager", out,
        np.load(f"{d}/resnet18_eager.npy"))
np.testing.assert_array_equal(out, np.load(f"{d}/elsewhere/resnet18_c.npy"))
print("resnet18 graphopt.load vs c program: identical")
