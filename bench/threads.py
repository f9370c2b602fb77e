#!/usr/bin/env python3
"""graphopt alone at 1 and N threads: the speed-up its generated code gets
from more cores (docs/Performance.md, "Speed-up from the second core").

Each workload is compiled once per thread count (``graphopt.compile(...,
threads=t)``) in one process; the compiled functions are timed in
alternating rounds (no other system's threads running), and the median per
call is reported. For graphopt against its peers at N threads, see
peers.py --threads N.

    python3 bench/threads.py [--threads N] [--only sgemm2048,mlp,...]
"""
import argparse
import time

import numpy as np
import torch

import graphopt


def _sdpa():
    class Attention(torch.nn.Module):
        def forward(self, q, k, v):
            return torch.nn.functional.scaled_dot_product_attention(q, k, v)
    q = torch.randn(1, 12, 2048, 64)
    return Attention(), (q, torch.randn_like(q), torch.randn_like(q))


def _mm(n):
    class MM(torch.nn.Module):
        def forward(self, a, b):
            return a @ b
    return MM(), (torch.randn(n, n), torch.randn(n, n))


def _resnet(name, batch):
    import torchvision
    return (getattr(torchvision.models, name)().eval(),
            (torch.randn(batch, 3, 224, 224),))


WORKLOADS = {
    "seed": ("seed matmul(x, y) + x, 128x128",
             lambda: (type("Seed", (torch.nn.Module,), {
                 "forward": lambda self, x, y: x @ y + x})(),
                 (torch.randn(128, 128), torch.randn(128, 128)))),
    "sgemm2048": ("SGEMM 2048", lambda: _mm(2048)),
    "mlp": ("MLP 256 x 1024 -> 4096 GELU -> 1024", lambda: (
        torch.nn.Sequential(torch.nn.Linear(1024, 4096), torch.nn.GELU(),
                            torch.nn.Linear(4096, 1024)).eval(),
        (torch.randn(256, 1024),))),
    "bert_b8": ("BERT-base layer, batch 8, seq 128", lambda: (
        torch.nn.TransformerEncoderLayer(768, 12, 3072,
                                         batch_first=True).eval(),
        (torch.randn(8, 128, 768),))),
    "attention": ("attention, seq 2048, 12 heads x 64", _sdpa),
    "resnet18_b1": ("ResNet-18, batch 1", lambda: _resnet("resnet18", 1)),
    "resnet50_b8": ("ResNet-50, batch 8", lambda: _resnet("resnet50", 8)),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--only", default=",".join(WORKLOADS))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--round-time", type=float, default=0.5,
                    help="seconds per thread count per round")
    args = ap.parse_args()
    torch.manual_seed(0)
    print(f"| workload | 1 thread (ms) | {args.threads} threads (ms) | speed-up |")
    print("| --- | --- | --- | --- |")
    for key in args.only.split(","):
        label, make = WORKLOADS[key]
        model, inputs = make()
        fns = {t: graphopt.compile(model, inputs, threads=t)
               for t in (1, args.threads)}
        calls = {}
        for t, f in fns.items():  # warm up; calls per round from the timing
            f(*inputs)
            t0 = time.perf_counter()
            f(*inputs)
            calls[t] = max(1, int(args.round_time / (time.perf_counter() - t0)))
        times = {t: [] for t in fns}
        for _ in range(args.rounds):
            for t, f in fns.items():
                t0 = time.perf_counter()
                for _ in range(calls[t]):
                    f(*inputs)
                times[t].append((time.perf_counter() - t0) / calls[t] * 1e3)
        one, many = (float(np.median(times[t])) for t in (1, args.threads))
        print(f"| {label} | {one:.3g} | {many:.3g} | {one / many:.2f} |",
              flush=True)


if __name__ == "__main__":
    main()
