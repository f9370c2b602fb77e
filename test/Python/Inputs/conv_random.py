"""Random small convolution blocks (convolution, optional bias, activation,
pooling) through graphopt.compile against eager PyTorch (atol 1e-4 on
values of O(1): sums of at most 7 x 5 x 5 products in another order). The
shapes reach the direct kernel's strategies (lib/Codegen/CPUConv.cpp): the
padded-row kernel, the row kernel with its epilogue in registers (short
convolutions: at most 64 products per output) and the fused 2x2 max
pooling, with odd heights and widths, and one or two threads."""
import random
import sys

import torch
import torch.nn as nn

import graphopt

random.seed(int(sys.argv[1]))
torch.manual_seed(0)
failures = []
for i in range(int(sys.argv[2])):
    cin = random.choice([1, 2, 3, 4, 7])
    cout = random.choice([4, 8, 12, 16, 24])
    k = random.choice([1, 3, 5])
    pad = random.choice([0, k // 2])
    n = random.choice([1, 2, 3])
    h, w = random.randint(k + 2, 20), random.randint(max(k + 2, 17), 72)
    layers = [nn.Conv2d(cin, cout, k, 1, pad, bias=random.random() < 0.8)]
    act = random.choice(["relu", "sigmoid", "none", "hardswish"])
    layers += {"relu": [nn.ReLU()], "sigmoid": [nn.Sigmoid()],
               "hardswish": [nn.Hardswish()], "none": []}[act]
    pool = random.choice(["none", "max2", "max2", "max3s2", "avg2"])
    layers += {"max2": [nn.MaxPool2d(2)], "max3s2": [nn.MaxPool2d(3, 2, 1)],
               "avg2": [nn.AvgPool2d(2)], "none": []}[pool]
    model = nn.Sequential(*layers).eval()
    x = torch.randn(n, cin, h, w)
    what = f"{n}x{cin}x{h}x{w} -> {cout}, k{k} pad {pad}, {act}, pool {pool}"
    compiled = graphopt.compile(model, (x,), threads=random.choice([1, 2]))
    with torch.no_grad():
        ref = model(x)
    for call in range(2):  # the general path, then the direct one
        err = (compiled(x) - ref).abs().max().item()
        if not err < 1e-4:
            failures.append(f"{what}: call {call}: max abs error {err}")
print("\n".join(failures) or "all match")
# CHECK: all match
