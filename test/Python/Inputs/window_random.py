"""Random window ops through graphopt.compile against eager PyTorch:
depthwise, grouped and plain convolutions and max/average pooling with
strides 1 and 2 (per dim), paddings up to the kernel extent minus one,
dilation 2, kernels from 1x1 to 7x7, images from 1x1 to 40x40, an
optional activation or constant added after. The shapes reach the row
blocks of lib/Codegen/CPUConv.cpp's vectorizeWindowOp (padding read
through, rows in compile-time and loop blocks, masked last chunks), the
im2col and the tap kernels (tolerance 1e-4 relative to the largest output:
sums of at most 7 x 7 x 24 products in another order). Prints one line per
mismatch or error, then a summary."""
import random
import sys

import torch

from eager_check import check

torch.set_num_threads(1)
rng = random.Random(int(sys.argv[1]))
count = int(sys.argv[2])
torch.manual_seed(int(sys.argv[1]))
failures = 0
for i in range(count):
    kind = rng.choice(["dw", "dw", "conv", "gconv", "max", "avg"])
    k = rng.choice([1, 2, 3, 3, 5, 7])
    kw = k if rng.random() < 0.8 else rng.choice([1, 3, 5])
    s = rng.choice([1, 1, 2])
    sw = s if rng.random() < 0.8 else rng.choice([1, 2])
    conv = kind in ("dw", "conv", "gconv")
    d = 2 if conv and rng.random() < 0.2 else 1
    n, c = rng.choice([1, 1, 2]), rng.choice([1, 3, 8, 16, 24])
    h, w = rng.randint(1, 40), rng.randint(1, 40)
    # PyTorch's pooling allows at most half the kernel of padding.
    ph = rng.randint(0, k - 1 if conv else k // 2) if rng.random() < 0.8 else 0
    pw = rng.randint(0, kw - 1 if conv else kw // 2)
    if h + 2 * ph - d * (k - 1) < 1 or w + 2 * pw - d * (kw - 1) < 1:
        continue
    act = rng.choice([None, "relu", "hardswish", "add"])
    if kind == "dw":
        op = torch.nn.Conv2d(c, c, (k, kw), (s, sw), (ph, pw), d, groups=c,
                             bias=rng.random() < 0.7)
    elif conv:
        g = 2 if kind == "gconv" and c % 2 == 0 else 1
        op = torch.nn.Conv2d(c, rng.choice([1, 4, 8]) * g, (k, kw), (s, sw),
                             (ph, pw), d, groups=g, bias=rng.random() < 0.7)
    elif kind == "max":
        op = torch.nn.MaxPool2d((k, kw), (s, sw), (ph, pw))
    else:
        op = torch.nn.AvgPool2d((k, kw), (s, sw), (ph, pw),
                                count_include_pad=rng.random() < 0.5)
    layers = [op] + {None: [], "relu": [torch.nn.ReLU()],
                     "hardswish": [torch.nn.Hardswish()], "add": []}[act]
    model = torch.nn.Sequential(*layers).eval()
    x = torch.randn(n, c, h, w)
    what = (f"{i}: {kind} {n}x{c}x{h}x{w} kernel {k}x{kw} stride {s},{sw} "
            f"pad {ph},{pw} dilation {d} {act}")
    f = model if act != "add" else (lambda t: model(t) + 1.5)
    failures += check(what, f, (x,))
print(f"{failures} failed")
# CHECK-NOT: MISMATCH
# CHECK-NOT: ERROR
# CHECK: 0 failed
