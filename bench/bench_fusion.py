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


def chain_program(n, length):
    lines = [f"func.func @main(%x: tensor<{n}xf32>) -> tensor<{n}xf32> {{"]
    prev = "%x"
    for i in range(length):
        op = CHAIN_OPS[i % len(CHAIN_OPS)]
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
            "| graph | size | graph-optimize + fusion-form-linear | full graph-cpu-pipeline |",
            "|---|---|---|---|"]
    opt = ["--graph-optimize", "--fusion-form-linear"]
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


def chain_rows(build, reps, tmp):
    n = 1 << 24
    chain = os.path.join(tmp, "chain.mlir")
    open(chain, "w").write(chain_program(n, 8))
    fused = graph_run(build, chain, reps)
    unfused = graph_run(build, chain, reps, ["--fuse=false"])
    x = np.random.default_rng(0).standard_normal(n, dtype=np.float32)

    def eager():
        y = np.exp(x); y = np.tanh(y); y = np.negative(y)
        y = 1 / (1 + np.exp(-y)); y = np.abs(y); y = np.sqrt(y)
        y = np.maximum(y, 0); y = y / (1 + np.exp(-y))
        return y
    numpy_eager = median(eager, reps)
    dst = np.empty_like(x)
    copy = median(lambda: np.copyto(dst, x), reps)
    copy_gbs = 2 * 4 * n / copy / 1e9
    fused_gbs = 2 * 4 * n / fused / 1e9
    return ["### 8-op elementwise chain, 16M f32", "",
            "| variant | ms | GB/s (read + write once) | vs fused |", "|---|---|---|---|",
            f"| graphopt fused | {fused*1e3:.1f} | {fused_gbs:.1f} | 1.00 |",
            f"| graphopt unfused (--fuse=false) | {unfused*1e3:.1f} | {2*4*n/unfused/1e9:.1f} | {unfused/fused:.2f}x slower |",
            f"| NumPy op by op (eager) | {numpy_eager*1e3:.1f} | {2*4*n/numpy_eager/1e9:.1f} | {numpy_eager/fused:.2f}x slower |",
            f"| copy bandwidth (np.copyto) | {copy*1e3:.1f} | {copy_gbs:.1f} | fused reaches {fused_gbs/copy_gbs*100:.0f}% |", ""]


def mlp_rows(build, reps, tmp):
    mlp_f = os.path.join(tmp, "mlp_f.mlir")
    mlp_u = os.path.join(tmp, "mlp_u.mlir")
    open(mlp_f, "w").write(mlp_program(256, 1024, 4096, 1, True))
    open(mlp_u, "w").write(mlp_program(256, 1024, 4096, 1, False))
    tf = graph_run(build, mlp_f, max(3, reps // 2))
    tu = graph_run(build, mlp_u, max(3, reps // 2), ["--optimize=false"])
    return ["### MLP block 256 x (1024 -> 4096 GELU -> 1024)", "",
            "| variant | ms | ratio |", "|---|---|---|",
            f"| fusion.linear (expanded by fusion-expand, then compiled) | {tf*1e3:.1f} | 1.00 |",
            f"| separate graph ops, --optimize=false | {tu*1e3:.1f} | {tu/tf:.2f} |", "",
            "fusion.linear has no fused code generation yet: both compile to the same",
            "matmul + epilogue loops, so the ratio is about 1 by construction.", ""]


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
