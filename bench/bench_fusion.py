#!/usr/bin/env python3
"""What fusion buys, and what it costs to compile.

1. An 8-op elementwise chain over 16M f32 elements through graph-run, fused
   (default) vs unfused (--fuse=false: one loop nest and buffer per op), beside
   NumPy running the same chain op by op (the eager baseline) and the
   machine's copy bandwidth (np.copyto, 1 thread).
2. The MLP block (batch 256, 1024 -> 4096 GELU -> 1024) written as
   fusion.linear ops vs as separate matmul/add/gelu graph ops.
3. Attention (graph.scaled_dot_product_attention, batch 1, 12 heads, head
   dim 64) at sequence lengths 128 and 2048: the flash-attention lowering
   (default) vs the unfused decomposition (--flash-attention=false), as
   [1, 12, L, 64] and with the heads folded into one batch dim
   ([12, L, 64]), beside PyTorch eager F.scaled_dot_product_attention with
   1 thread.
4. Compile time as the graph grows: graph-opt with graph-optimize,
   fusion-form-linear and the CPU pipeline on an elementwise chain of N ops
   and an MLP of N layers, to show it grows linearly.

Usage: bench/bench_fusion.py [--build build] [--reps 7] [--markdown out.md]
                             [--sections chain,mlp,attention,compile]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

CHAIN_OPS = ["exp", "tanh", "neg", "sigmoid", "abs", "sqrt", "relu", "silu"]
# One-flop ops: a chain of these is bound by memory, not arithmetic.
CHEAP_OPS = ["neg", "abs", "relu", "neg", "abs", "relu", "neg", "abs"]


def chain_program(n, length, ops=CHAIN_OPS):
    lines = [f"func.func @main(%x: tensor<{n}xf32>) -> tensor<{n}xf32> {{"]
    prev = "%x"
    for i in range(length):
        op = ops[i % len(ops)]
        lines.append(f"  %v{i} = graph.{op} {prev} : tensor<{n}xf32> -> tensor<{n}xf32>")
        prev = f"%v{i}"
    lines.append(f"  return {prev} : tensor<{n}xf32>")
    lines.append("}")
    return "\n".join(lines) + "\n"


def mlp_program(batch, d, h, layers, fused):
    t = lambda *s: "tensor<" + "x".join(map(str, s)) + "xf32>"
    lines = [f"func.func @main(%x: {t(batch, d)}, %w1: {t(h, d)}, %b1: {t(h)}, %w2: {t(d, h)}, %b2: {t(d)}) -> {t(batch, d)} {{"]
    prev = "%x"
    for i in range(layers):
        if fused:
            lines.append(f"  %h{i} = fusion.linear {prev}, %w1, %b1 transpose_weight activation = gelu : ({t(batch, d)}, {t(h, d)}, {t(h)}) -> {t(batch, h)}")
            lines.append(f"  %o{i} = fusion.linear %h{i}, %w2, %b2 transpose_weight : ({t(batch, h)}, {t(d, h)}, {t(d)}) -> {t(batch, d)}")
        else:
            lines += [
                f"  %w1t{i} = graph.transpose %w1, [1, 0] : {t(h, d)} -> {t(d, h)}",
                f"  %m{i} = graph.matmul {prev}, %w1t{i} : {t(batch, d)}, {t(d, h)} -> {t(batch, h)}",
                f"  %a{i} = graph.add %m{i}, %b1 : {t(batch, h)}, {t(h)} -> {t(batch, h)}",
                f"  %h{i} = graph.gelu %a{i} : {t(batch, h)} -> {t(batch, h)}",
                f"  %w2t{i} = graph.transpose %w2, [1, 0] : {t(d, h)} -> {t(h, d)}",
                f"  %n{i} = graph.matmul %h{i}, %w2t{i} : {t(batch, h)}, {t(h, d)} -> {t(batch, d)}",
                f"  %o{i} = graph.add %n{i}, %b2 : {t(batch, d)}, {t(d)} -> {t(batch, d)}",
            ]
        prev = f"%o{i}"
    lines.append(f"  return {prev} : {t(batch, d)}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def attention_program(shape):
    t = "tensor<" + "x".join(map(str, shape)) + "xf32>"
    return (f"func.func @main(%q: {t}, %k: {t}, %v: {t}) -> {t} {{\n"
            f"  %o = graph.scaled_dot_product_attention %q, %k, %v : ({t}, {t}, {t}) -> {t}\n"
            f"  return %o : {t}\n}}\n")


def torch_sdpa_median(shape, reps):
    """PyTorch eager F.scaled_dot_product_attention on 1 thread, or None
    when PyTorch is not installed."""
    try:
        import torch
        import torch.nn.functional as F
    except ImportError:
        return None
    torch.set_num_threads(1)
    q, k, v = (torch.rand(*shape) for _ in range(3))
    with torch.no_grad():
        return median(lambda: F.scaled_dot_product_attention(q, k, v), reps)


def graph_run(build, path, reps, extra=(), warmup=2):
    out = subprocess.run(
        [os.path.join(build, "bin", "graph-run"), path, "--seed=1", "--quiet",
         f"--benchmark={reps}", f"--warmup={warmup}", *extra],
        check=True, capture_output=True, text=True).stdout
    return float(re.search(r"median ([0-9.]+) ms", out).group(1)) / 1e3


def median(f, reps):
    f()
    t = []
    for _ in range(reps):
        s = time.perf_counter()
        f()
        t.append(time.perf_counter() - s)
    t.sort()
    return t[len(t) // 2]


def compile_time(build, text, pipeline):
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        s = time.perf_counter()
        subprocess.run([os.path.join(build, "bin", "graph-opt"), path, *pipeline,
                        "-o", os.devnull], check=True)
        return time.perf_counter() - s
    finally:
        os.unlink(path)


def compile_time_rows(build):
    """The compile-time table: graph-level passes on large graphs, the full
    CPU pipeline on smaller ones."""
    rows = ["### Compile time (graph-opt, seconds)", "",
            "Graph-level passes on large graphs, and the full CPU pipeline on",
            "smaller ones (each fused elementwise op expands into ~40 scalar ops",
            "of polynomial math, which every LLVM conversion pass then walks).", "",
            "| graph | size | graph-optimize + fusion-form-groups | full graph-cpu-pipeline |",
            "|---|---|---|---|"]
    opt = ["--graph-optimize", "--fusion-form-groups"]
    for size in (1000, 2500, 5000, 10000):
        text = chain_program(64, size)
        full = (f"{compile_time(build, text, ['--graph-cpu-pipeline']):.2f}"
                if size <= 1000 else "-")
        rows.append(f"| elementwise chain | {size} ops | "
                    f"{compile_time(build, text, opt):.2f} | {full} |")
    for layers in (125, 250, 500, 1000):
        text = mlp_program(4, 16, 32, layers, False)
        full = (f"{compile_time(build, text, ['--graph-cpu-pipeline']):.2f}"
                if layers <= 250 else "-")
        rows.append(f"| MLP (unfused Linear+GELU+Linear) | {layers} layers | "
                    f"{compile_time(build, text, opt):.2f} | {full} |")
    return rows + [""]


def torch_median(fn, reps):
    """Median time of `fn(torch)` on 1 thread, or None without PyTorch."""
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(1)
    with torch.no_grad():
        return median(lambda: fn(torch), reps)


def chain_rows(build, reps, tmp):
    n = 1 << 24
    x = np.random.default_rng(0).standard_normal(n, dtype=np.float32)
    dst = np.empty_like(x)
    copy = median(lambda: np.copyto(dst, x), reps)
    copy_gbs = 2 * 4 * n / copy / 1e9
    out = []
    for title, ops in (("8-op elementwise chain (exp, tanh, neg, sigmoid, abs, sqrt, relu, silu), 16M f32", CHAIN_OPS),
                       ("8 one-flop ops (neg, abs, relu, ...), 16M f32: memory-bound", CHEAP_OPS)):
        chain = os.path.join(tmp, "chain.mlir")
        open(chain, "w").write(chain_program(n, 8, ops))
        fused = graph_run(build, chain, reps)
        unfused = graph_run(build, chain, reps, ["--fuse=false"])
        xt = None

        def eager(torch):
            nonlocal xt
            if xt is None:
                xt = torch.from_numpy(x)
            y = xt
            for op in ops:
                y = {"exp": torch.exp, "tanh": torch.tanh, "neg": torch.neg,
                     "sigmoid": torch.sigmoid, "abs": torch.abs,
                     "sqrt": torch.sqrt, "relu": torch.relu,
                     "silu": torch.nn.functional.silu}[op](y)
            return y
        torch_eager = torch_median(eager, reps)
        fused_gbs = 2 * 4 * n / fused / 1e9
        out += [f"### {title}", "",
                "| variant | ms | GB/s (read + write once) | vs fused |", "|---|---|---|---|",
                f"| graphopt fused | {fused*1e3:.1f} | {fused_gbs:.1f} | 1.00 |",
                f"| graphopt unfused (--fuse=false) | {unfused*1e3:.1f} | {2*4*n/unfused/1e9:.1f} | {unfused/fused:.2f}x slower |"]
        if torch_eager is not None:
            out.append(f"| PyTorch eager, op by op, 1 thread | {torch_eager*1e3:.1f} | {2*4*n/torch_eager/1e9:.1f} | {torch_eager/fused:.2f}x slower |")
        out += [f"| copy bandwidth (np.copyto) | {copy*1e3:.1f} | {copy_gbs:.1f} | fused reaches {fused_gbs/copy_gbs*100:.0f}% |", ""]
    return out


def mlp_rows(build, reps, tmp):
    mlp_f = os.path.join(tmp, "mlp_f.mlir")
    mlp_u = os.path.join(tmp, "mlp_u.mlir")
    open(mlp_f, "w").write(mlp_program(256, 1024, 4096, 1, True))
    open(mlp_u, "w").write(mlp_program(256, 1024, 4096, 1, False))
    r = max(3, reps // 2)
    tf = graph_run(build, mlp_f, r)
    tg = graph_run(build, mlp_u, r)
    tu = graph_run(build, mlp_u, r, ["--fuse=false"])

    def eager(torch):
        if not hasattr(eager, "m"):
            eager.m = torch.nn.Sequential(torch.nn.Linear(1024, 4096),
                                          torch.nn.GELU(),
                                          torch.nn.Linear(4096, 1024)).eval()
            eager.x = torch.randn(256, 1024)
        return eager.m(eager.x)
    te = torch_median(eager, r)
    flops = 2 * 2 * 256 * 1024 * 4096
    rows = ["### MLP block 256 x (1024 -> 4096 GELU -> 1024), f32", "",
            "| variant | ms | GFLOP/s | vs fusion.linear |", "|---|---|---|---|",
            f"| fusion.linear (output groups: matmul tile + bias + GELU fused) | {tf*1e3:.1f} | {flops/tf/1e9:.1f} | 1.00 |",
            f"| separate graph ops, fused by fusion-form-groups | {tg*1e3:.1f} | {flops/tg/1e9:.1f} | {tg/tf:.2f} |",
            f"| separate graph ops, --fuse=false (one loop nest and buffer per op) | {tu*1e3:.1f} | {flops/tu/1e9:.1f} | {tu/tf:.2f} |"]
    if te is not None:
        rows.append(f"| PyTorch eager, 1 thread | {te*1e3:.1f} | {flops/te/1e9:.1f} | {te/tf:.2f} |")
    return rows + [""]


def attention_rows(build, reps, tmp):
    out = ["### Attention, batch 1 x 12 heads, head dim 64, f32", "",
           "GFLOP/s counts the two products (4 L^2 D per head).", "",
           "| L = S | variant | ms | GFLOP/s | vs flash |", "|---|---|---|---|---|"]
    for seq in (128, 2048):
        flops = 4 * 12 * seq * seq * 64
        shape4, shape3 = (1, 12, seq, 64), (12, seq, 64)
        a4 = os.path.join(tmp, f"att4_{seq}.mlir")
        a3 = os.path.join(tmp, f"att3_{seq}.mlir")
        open(a4, "w").write(attention_program(shape4))
        open(a3, "w").write(attention_program(shape3))
        # The unfused [1, 12, L, 64] form takes tens of seconds at 2048
        # (docs/Performance.md says why): one timed call after one warm-up.
        slow = seq >= 2048
        rows = [
            ("graphopt flash attention (default)", graph_run(build, a4, reps)),
            ("graphopt unfused (--flash-attention=false), [1, 12, L, 64]",
             graph_run(build, a4, 1 if slow else reps,
                       ["--flash-attention=false"], warmup=1)),
            ("graphopt unfused (--flash-attention=false), heads folded [12, L, 64]",
             graph_run(build, a3, reps, ["--flash-attention=false"], warmup=1)),
            ("PyTorch eager F.scaled_dot_product_attention, 1 thread",
             torch_sdpa_median(shape4, reps)),
        ]
        flash = rows[0][1]
        for name, t in rows:
            if t is None:
                out.append(f"| {seq} | {name} | not installed | | |")
                continue
            out.append(f"| {seq} | {name} | {t*1e3:.1f} | {flops/t/1e9:.1f} | "
                       f"{t/flash:.2f} |")
    return out + [""]


SECTIONS = ("chain", "mlp", "attention", "compile")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    p.add_argument("--reps", type=int, default=7)
    p.add_argument("--markdown")
    p.add_argument("--sections", default=",".join(SECTIONS),
                   help="comma-separated subset of " + ", ".join(SECTIONS))
    args = p.parse_args()
    sections = args.sections.split(",")
    unknown = set(sections) - set(SECTIONS)
    if unknown:
        p.error("unknown sections: " + ", ".join(sorted(unknown)))
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        if "chain" in sections:
            out += chain_rows(args.build, args.reps, tmp)
        if "mlp" in sections:
            out += mlp_rows(args.build, args.reps, tmp)
        if "attention" in sections:
            out += attention_rows(args.build, args.reps, tmp)
    if "compile" in sections:
        out += compile_time_rows(args.build)
    text = "\n".join(out)
    print(text)
    if args.markdown:
        open(args.markdown, "w").write(text + "\n")


if __name__ == "__main__":
    main()
