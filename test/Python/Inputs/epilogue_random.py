"""Random matmuls and 1x1 convolutions with the epilogues that the packed
matmul kernel applies in registers (lib/Codegen/TileAndVectorize.cpp,
applyBlockEpilogue): bias, an activation (ReLU, GELU, SiLU, Hardswish), a
residual added before or after it, through graphopt.compile against eager
PyTorch. Shapes reach the packed and the unpacked kernel, several
reduction blocks (K above ~384 floats of an A micro-panel in L1), a column
count that is not whole 32-column blocks (the matmul and its epilogue are
split at the same column: 196, 49, 1000) and row counts that are not
multiples of 8. Tolerance: 1e-4 relative to the largest output (sums of
up to 1024 products in another order). Prints one line per mismatch or
error, then a summary."""
import random
import sys

import torch

from eager_check import check

torch.set_num_threads(1)
rng = random.Random(int(sys.argv[1]))
count = int(sys.argv[2])
torch.manual_seed(int(sys.argv[1]))
acts = {"none": lambda t: t, "relu": torch.relu,
        "gelu": torch.nn.functional.gelu, "silu": torch.nn.functional.silu,
        "hardswish": torch.nn.functional.hardswish}


class Epilogue(torch.nn.Module):
    """`core` (a Linear or a 1x1 Conv2d), then the activation, with the
    residual added before or after it."""

    def __init__(self, core, act, residual):
        super().__init__()
        self.core = core
        self.act, self.residual = acts[act], residual

    def forward(self, x, r):
        y = self.core(x)
        if self.residual == "before":
            return self.act(y + r)
        y = self.act(y)
        return y + r if self.residual == "after" else y


failures = 0
for i in range(count):
    act = rng.choice(list(acts))
    residual = rng.choice(["none", "before", "after"])
    bias = rng.random() < 0.8
    if rng.random() < 0.5:
        m = rng.choice([1, 7, 8, 49, 64, 128, 196, 200])
        k = rng.choice([64, 128, 384, 512, 768, 1024])
        n = rng.choice([32, 64, 196, 256, 1000, 1024])
        model = Epilogue(torch.nn.Linear(k, n, bias=bias), act, residual).eval()
        x, r = torch.randn(m, k), torch.randn(m, n)
        what = f"{i}: linear {m}x{k} -> {n}"
    else:
        c = rng.choice([16, 64, 128, 256, 512])
        f = rng.choice([32, 64, 128, 256])
        hw = rng.choice([7, 14, 28, 56])
        model = Epilogue(torch.nn.Conv2d(c, f, 1, bias=bias), act,
                         residual).eval()
        x, r = torch.randn(1, c, hw, hw), torch.randn(1, f, hw, hw)
        what = f"{i}: conv1x1 {c} -> {f} at {hw}x{hw}"
    what += f" bias {bias} {act} residual {residual}"
    failures += check(what, model, (x, r))
print(f"{failures} failed")
# CHECK-NOT: MISMATCH
# CHECK-NOT: ERROR
# CHECK: 0 failed
