#!/usr/bin/env python3
"""A PT2E-quantized ResNet-18 (torchao's prepare_pt2e/convert_pt2e, XNNPACK
quantizer: int8 per-channel weights, int8 activations, calibrated on four
random images) through graphopt.compile, against graphopt's f32 model and
eager PyTorch (the f32 model and the quantized one).

    taskset -c 0 python3 bench/pt2e.py [--rounds 7] [--threads 1]

Each system is timed in alternating rounds (best of 3 x 3 calls per round),
medians over the rounds, in ms, one image (batch 1, 224 x 224). Also tried
and reported when it fails: torch.compile of the quantized model (the peer a
PyTorch user would reach for).
"""
import argparse
import statistics
import sys
import timeit

import torch
import torchvision
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
from torchao.testing.pt2e._xnnpack_quantizer import (XNNPACKQuantizer,
                                                     get_symmetric_quantization_config)

import graphopt


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--threads", type=int, default=1)
    opts = ap.parse_args()
    torch.set_num_threads(opts.threads)
    torch.manual_seed(0)
    model = torchvision.models.resnet18().eval()
    x = torch.randn(1, 3, 224, 224)
    q = XNNPACKQuantizer()
    q.set_global(get_symmetric_quantization_config(is_per_channel=True))
    prepared = prepare_pt2e(torch.export.export(model, (x,)).module(), q)
    g = torch.Generator().manual_seed(1)
    for _ in range(4):
        prepared(torch.randn(1, 3, 224, 224, generator=g))
    quantized = convert_pt2e(prepared)

    systems = {
        "graphopt int8 (PT2E model)": graphopt.compile(quantized, (x,), threads=opts.threads),
        "graphopt f32": graphopt.compile(model, (x,), threads=opts.threads),
        "eager PyTorch f32": model,
        "eager PyTorch, PT2E model": quantized,
    }
    try:
        compiled = torch.compile(quantized)
        with torch.no_grad():
            compiled(x)
        systems["torch.compile, PT2E model"] = compiled
    except Exception as e:  # reported, not timed
        print(f"torch.compile of the PT2E model failed: {type(e).__name__}: "
              f"{str(e).splitlines()[0][:200]}")
    times = {k: [] for k in systems}
    with torch.no_grad():
        for _ in range(opts.rounds):
            for name, fn in systems.items():
                fn(x)
                times[name].append(min(timeit.repeat(lambda: fn(x), number=3, repeat=3)) / 3e-3)
    base = statistics.median(times["graphopt int8 (PT2E model)"])
    print(f"torch {torch.__version__}, {opts.threads} thread(s), median of {opts.rounds} rounds")
    print("| system | ms | / graphopt int8 |")
    print("| --- | --- | --- |")
    for name, ts in times.items():
        m = statistics.median(ts)
        print(f"| {name} | {m:.2f} | {m / base:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
