#!/usr/bin/env python3
"""graphopt against ONNX Runtime on ONNX exports of ResNet-18, a BERT-base
encoder layer and an LSTM (test/onnx/models.py).

    python3 bench/onnx_vs_ort.py --reps 20
    python3 bench/onnx_vs_ort.py --models lstm bert_layer --reps 50

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
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "test" / "onnx"))
sys.path.insert(0, str(ROOT / "python"))

import models  # noqa: E402


def bench_model(name: str, tmp: Path, reps: int, warmup: int) -> dict:
    import graphopt
    import onnxruntime
    from graphopt.importer.onnx_importer import import_onnx
    path, inputs = models.export(name, tmp)
    t0 = time.perf_counter()
    text = import_onnx(path)
    t1 = time.perf_counter()
    program = graphopt.Program(text, specialize=[a.shape for a in inputs])
    t2 = time.perf_counter()
    session = models.ort_session(path, threads=1)
    got, want = program.run(inputs), models.ort_run(session, inputs)
    err = max(float(np.abs(g.astype(np.float64) - w).max()) for g, w in zip(got, want))
    for _ in range(warmup):
        program.run(inputs)
        models.ort_run(session, inputs)
    ours, theirs = [], []
    for _ in range(reps):
        s = time.perf_counter()
        program.run(inputs)
        ours.append(time.perf_counter() - s)
        s = time.perf_counter()
        models.ort_run(session, inputs)
        theirs.append(time.perf_counter() - s)
    g, o = statistics.median(ours), statistics.median(theirs)
    return {"name": name, "graphopt_ms": g * 1e3, "ort_ms": o * 1e3, "ratio": g / o,
            "import_s": t1 - t0, "compile_s": t2 - t1, "max_err": err,
            "ort_version": onnxruntime.__version__}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--models", nargs="*", default=list(models.MODELS),
                   choices=list(models.ALL), help="models (default: %(default)s)")
    p.add_argument("--reps", type=int, default=20, help="timed calls each (default 20)")
    p.add_argument("--warmup", type=int, default=3, help="untimed calls first (default 3)")
    args = p.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory(prefix="onnx-bench-") as tmp:
        for name in args.models:
            print(f"{name} ...", file=sys.stderr, flush=True)
            rows.append(bench_model(name, Path(tmp), args.reps, args.warmup))
    print(f"| model | graphopt (ms) | ONNX Runtime {rows[0]['ort_version']} (ms) | "
          "graphopt / ORT | import (s) | compile (s) | max abs diff |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['name']} | {r['graphopt_ms']:.2f} | {r['ort_ms']:.2f} | {r['ratio']:.2f} | "
              f"{r['import_s']:.1f} | {r['compile_s']:.1f} | {r['max_err']:.1e} |")
    print(f"\nmedians of {args.reps} alternating calls after {args.warmup} warm-up calls, "
          "1 thread each", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
