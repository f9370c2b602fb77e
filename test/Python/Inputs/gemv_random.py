"""Random one-row matmuls (matrix-vector products: a classifier, a batch-1
linear layer), which graph-cpu-tile-and-vectorize computes by streaming
B's rows in order (streamRowsOfB: blocks of up to 8 rows of B, each swept
in pieces of 1, 2 or 4 vectors, the output row read and written per piece),
with a bias and an activation, through graphopt.compile against eager
PyTorch. K takes values with and without a divisor of 8 (a prime K gives
single-row blocks); N whole vectors, a remainder under one vector, and
both (1000 = 62 vectors + 8, split at the vector boundary); the input as
1 x K and as 1 x 1 x K. Tolerance: 1e-4 relative to the largest output.
Prints one line per mismatch or error, then a summary."""
import random
import sys

import torch

from eager_check import check

torch.set_num_threads(1)
rng = random.Random(int(sys.argv[1]))
count = int(sys.argv[2])
torch.manual_seed(int(sys.argv[1]))
acts = {"none": lambda t: t, "relu": torch.relu,
        "hardswish": torch.nn.functional.hardswish}


class Gemv(torch.nn.Module):
    def __init__(self, k, n, bias, act):
        super().__init__()
        self.linear = torch.nn.Linear(k, n, bias=bias)
        self.act = acts[act]

    def forward(self, x):
        return self.act(self.linear(x))


failures = 0
for i in range(count):
    k = rng.choice([3, 64, 97, 576, 1024, 1031])
    n = rng.choice([5, 16, 26, 48, 250, 1000, 1024, 1040])
    bias = rng.random() < 0.7
    act = rng.choice(list(acts))
    rank3 = rng.random() < 0.25
    x = torch.randn(1, 1, k) if rank3 else torch.randn(1, k)
    what = (f"{i}: {'1x1x' if rank3 else '1x'}{k} -> {n} bias {bias} {act}")
    failures += check(what, Gemv(k, n, bias, act).eval(), (x,))
print(f"{failures} failed")
# CHECK-NOT: MISMATCH
# CHECK-NOT: ERROR
# CHECK: 0 failed
