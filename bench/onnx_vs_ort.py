#!/usr/bin/env python3
"""graphopt against ONNX Runtime on ONNX exports of ResNet-18, a BERT-base
encoder layer and an LSTM (test/onnx/models.py).

    python3 bench/onnx_vs_ort.py --reps 20
    python3 bench/onnx_vs_ort.py --models lstm bert_layer --reps 50
    python3 bench/onnx_vs_ort.py --unfused      # also graphopt with fuse=False

Each model is exported with ``torch.onnx.export`` in the run, imported with
``graphopt.import_onnx`` and JIT-compiled (specialized to the input shapes);
ONNX Runtime (CPU execution provider, all graph optimizations) runs the same
file. Both run single-threaded (ONNX Runtime: ``intra_op_num_threads=1``,
sequential execution; graphopt's compiled code is single-threaded). After
warm-up calls, the two are timed alternately, one call each per repetition,
so that both see the same machine state; the table reports the medians and
their ratio (graphopt time / ONNX Runtime time: below 1 is faster). Outputs
are compared once, too.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
# The compile column is a cold compile: no program from the persistent
# compile cache (docs/CompileCache.md).
os.environ.setdefault("GRAPHOPT_CACHE_DIR", "off")
sys.path.insert(0, str(ROOT / "test" / "onnx"))
sys.path.insert(0, str(ROOT / "python"))

import models  # noqa: E402


def bench_model(name: str, tmp: Path, reps: int, warmup: int, with_unfused: bool) -> dict:
    import graphopt
    import onnxruntime
    from graphopt.importer.onnx import import_onnx
    path, inputs = models.export(name, tmp)
    t0 = time.perf_counter()
    text = import_onnx(path)
    t1 = time.perf_counter()
    shapes = [a.shape for a in inputs]
    program = graphopt.Program(text, specialize=shapes)
    t2 = time.perf_counter()
    unfused = graphopt.Program(text, specialize=shapes, fuse=False) if with_unfused else None
    session = models.ort_session(path, threads=1)
    want = models.ort_run(session, inputs)
    err = max(float(np.abs(g.astype(np.float64) - w).max())
              for g, w in zip(program.run(inputs), want))
    runs = {"graphopt": lambda: program.run(inputs),
            "ort": lambda: models.ort_run(session, inputs)}
    if unfused is not None:
        runs["unfused"] = lambda: unfused.run(inputs)
    for _ in range(warmup):
        for fn in runs.values():
            fn()
    times = {k: [] for k in runs}
    for _ in range(reps):
        for k, fn in runs.items():
            s = time.perf_counter()
            fn()
            times[k].append(time.perf_counter() - s)
    med = {k: statistics.median(v) * 1e3 for k, v in times.items()}
    return {"name": name, "graphopt_ms": med["graphopt"], "ort_ms": med["ort"],
            "ratio": med["graphopt"] / med["ort"], "unfused_ms": med.get("unfused"),
            "import_s": t1 - t0, "compile_s": t2 - t1, "max_err": err,
            "ort_version": onnxruntime.__version__}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--models", nargs="*", default=list(models.MODELS),
                   choices=list(models.ALL), help="models (default: %(default)s)")
    p.add_argument("--reps", type=int, default=20, help="timed calls each (default 20)")
    p.add_argument("--warmup", type=int, default=3, help="untimed calls first (default 3)")
    p.add_argument("--unfused", action="store_true",
                   help="also time graphopt compiled with fuse=False")
    args = p.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory(prefix="onnx-bench-") as tmp:
        for name in args.models:
            print(f"{name} ...", file=sys.stderr, flush=True)
            rows.append(bench_model(name, Path(tmp), args.reps, args.warmup, args.unfused))
    extra = " graphopt fuse=False (ms) | unfused / ORT |" if args.unfused else ""
    print(f"| model | graphopt (ms) | ONNX Runtime {rows[0]['ort_version']} (ms) | "
          f"graphopt / ORT |{extra} import (s) | compile (s) | max abs diff |")
    print("|---|---|---|---|" + ("---|---|" if args.unfused else "") + "---|---|---|")
    for r in rows:
        unf = f" {r['unfused_ms']:.2f} | {r['unfused_ms'] / r['ort_ms']:.2f} |" \
            if args.unfused else ""
        print(f"| {r['name']} | {r['graphopt_ms']:.2f} | {r['ort_ms']:.2f} | {r['ratio']:.2f} |"
              f"{unf} {r['import_s']:.1f} | {r['compile_s']:.1f} | {r['max_err']:.1e} |")
    print(f"\nmedians of {args.reps} alternating calls after {args.warmup} warm-up calls, "
          "1 thread each", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
