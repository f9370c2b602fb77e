#!/usr/bin/env python3
"""CPU benchmark: graphopt (graph-run) beside NumPy/OpenBLAS, same run.

Measures f32 matmuls (1024^3, and 256x1024 @ 1024x4096 as in an MLP block;
GFLOP/s) and a large elementwise add
(GB/s moved: two reads and one write of 4-byte elements), as medians over
repetitions. Both sides allocate their result on every call (graph-run's
timed call also copies the result into its own tensor). graphopt's code is single-threaded, so NumPy runs with one
OpenBLAS thread; OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE are unset for the NumPy
process only, so OpenBLAS picks its kernels for this CPU.

Usage: bench/bench_cpu.py [--build build] [--reps 10] [--markdown out.md]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import textwrap

NUMPY_SNIPPET = textwrap.dedent("""
    import time, numpy as np, json, sys
    n, m, reps = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n), dtype=np.float32)
    b = rng.standard_normal((n, n), dtype=np.float32)
    a2 = rng.standard_normal((256, 1024), dtype=np.float32)
    b2 = rng.standard_normal((1024, 4096), dtype=np.float32)
    x = rng.standard_normal(m, dtype=np.float32)
    y = rng.standard_normal(m, dtype=np.float32)
    def med(f):
        for _ in range(2): f()
        t = []
        for _ in range(reps):
            s = time.perf_counter(); f(); t.append(time.perf_counter() - s)
        t.sort(); return t[len(t) // 2]
    kernel = "unknown"
    try:
        from threadpoolctl import threadpool_info
        kernel = ";".join(i.get("architecture", "?") for i in threadpool_info())
    except Exception:
        pass
    print(json.dumps({"matmul": med(lambda: a @ b),
                      "mlp": med(lambda: a2 @ b2),
                      "add": med(lambda: np.add(x, y)),
                      "kernel": kernel, "numpy": np.__version__}))
""")


def graph_run(build, mlir, reps):
    out = subprocess.run(
        [os.path.join(build, "bin", "graph-run"), mlir, "--seed=1", "--quiet",
         f"--benchmark={reps}", "--warmup=2"],
        check=True, capture_output=True, text=True).stdout
    median_ms = float(re.search(r"median ([0-9.]+) ms", out).group(1))
    return median_ms / 1e3


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    p.add_argument("--reps", type=int, default=10)
    p.add_argument("--n", type=int, default=1024)
    p.add_argument("--m", type=int, default=1 << 24)
    p.add_argument("--markdown")
    args = p.parse_args()
    n, m = args.n, args.m
    with tempfile.TemporaryDirectory() as tmp:
        mm = os.path.join(tmp, "matmul.mlir")
        with open(mm, "w") as f:
            f.write(f"""func.func @main(%a: tensor<{n}x{n}xf32>, %b: tensor<{n}x{n}xf32>) -> tensor<{n}x{n}xf32> {{
  %c = graph.matmul %a, %b : tensor<{n}x{n}xf32>, tensor<{n}x{n}xf32> -> tensor<{n}x{n}xf32>
  return %c : tensor<{n}x{n}xf32>
}}
""")
        add = os.path.join(tmp, "add.mlir")
        with open(add, "w") as f:
            f.write(f"""func.func @main(%a: tensor<{m}xf32>, %b: tensor<{m}xf32>) -> tensor<{m}xf32> {{
  %c = graph.add %a, %b : tensor<{m}xf32>, tensor<{m}xf32> -> tensor<{m}xf32>
  return %c : tensor<{m}xf32>
}}
""")
        mlp = os.path.join(tmp, "mlp.mlir")
        with open(mlp, "w") as f:
            f.write("""func.func @main(%a: tensor<256x1024xf32>, %b: tensor<1024x4096xf32>) -> tensor<256x4096xf32> {
  %c = graph.matmul %a, %b : tensor<256x1024xf32>, tensor<1024x4096xf32> -> tensor<256x4096xf32>
  return %c : tensor<256x4096xf32>
}
""")
        g_mm = graph_run(args.build, mm, args.reps)
        g_mlp = graph_run(args.build, mlp, args.reps)
        g_add = graph_run(args.build, add, args.reps)
    env = dict(os.environ)
    env.pop("OPENBLAS_CORETYPE", None)
    env.pop("OPENBLAS_L2_SIZE", None)
    env["OPENBLAS_NUM_THREADS"] = "1"
    import json
    npy = json.loads(subprocess.run(
        [sys.executable, "-c", NUMPY_SNIPPET, str(n), str(m), str(args.reps)],
        check=True, capture_output=True, text=True, env=env).stdout)
    flops = 2.0 * n ** 3
    mlp_flops = 2.0 * 256 * 1024 * 4096
    bytes_moved = 3 * 4 * m
    rows = [
        (f"matmul {n}x{n}x{n} f32", "GFLOP/s", flops / g_mm / 1e9, flops / npy["matmul"] / 1e9),
        ("matmul 256x1024 @ 1024x4096 f32", "GFLOP/s", mlp_flops / g_mlp / 1e9,
         mlp_flops / npy["mlp"] / 1e9),
        (f"add {m} f32 elements", "GB/s", bytes_moved / g_add / 1e9, bytes_moved / npy["add"] / 1e9),
    ]
    lines = ["| workload | unit | graphopt | NumPy (OpenBLAS, 1 thread) | graphopt / NumPy |",
             "|---|---|---|---|---|"]
    for name, unit, g, r in rows:
        lines.append(f"| {name} | {unit} | {g:.1f} | {r:.1f} | {g / r:.2f} |")
    lines.append("")
    lines.append(f"Medians of {args.reps} runs after warm-up; NumPy {npy['numpy']}, "
                 f"OpenBLAS kernel: {npy['kernel']}.")
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
