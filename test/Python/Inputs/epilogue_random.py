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

import graphopt

torch.set_num_threads(1)
rng = random.Random(int(sys.argv[1]))
count = int(sys.argv[2])
torch.manual_seed(int(sys.argv[1]))
acts = {"none": lambda t: t, "relu": torch.relu,
        "gelu": torch.nn.functional.gelu, "silu": torch.nn.functional.silu,
        "hardswish": torch.nn.functional.hardswish}


class Linear(torch.nn.Module):
    def __init__(self, k, n, bias, act, residual):
        super().__init__()
        self.fc = torch.nn.Linear(k, n, bias=bias)
        self.act, self.residual = acts[act], residual

    def forward(self, x, r):
        y = self.fc(x)
        if self.residual == "before":
            return self.act(y + r)
        y = self.act(y)
        return y + r if self.residual == "after" else y


class Conv1x1(torch.nn.Module):
    def __init__(self, c, f, bias, act, residual):
        super().__init__()
        self.conv = torch.nn.Conv2d(c, f, 1, bias=bias)
        self.act, self.residual = acts[act], residual

    def forward(self, x, r):
        y = self.conv(x)
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
        model = Linear(k, n, bias, act, residual).eval()
        x, r = torch.randn(m, k), torch.randn(m, n)
        what = f"{i}: linear {m}x{k} -> {n}"
    else:
        c = rng.choice([16, 64, 128, 256, 512])
        f = rng.choice([32, 64, 128, 256])
        hw = rng.choice([7, 14, 28, 56])
        model = Conv1x1(c, f, bias, act, residual).eval()
        x, r = torch.randn(1, c, hw, hw), torch.randn(1, f, hw, hw)
        what = f"{i}: conv1x1 {c} -> {f} at {hw}x{hw}"
    what += f" bias {bias} {act} residual {residual}"
    try:
        with torch.no_grad():
            ref = model(x, r)
        out = graphopt.compile(model, (x, r))(x, r)
        err = (out - ref).abs().max().item()
        tol = 1e-4 * max(1.0, ref.abs().max().item())
        if out.shape != ref.shape or not err <= tol:
            failures += 1
            print(f"MISMATCH {what}: max abs error {err}")
    except Exception as e:  # a compile error is a failure too
        failures += 1
        print(f"ERROR {what}: {type(e).__name__}: {str(e)[:200]}")
print(f"{failures} failed")
# CHECK-NOT: MISMATCH
# CHECK-NOT: ERROR
# CHECK: 0 failed
