#!/usr/bin/env python3
"""Whole models through the ONNX importer, checked against ONNX Runtime.

Each model (models.py: ResNet-18, a BERT-base encoder layer, an LSTM, and
more exporter patterns) is exported with ``torch.onnx.export`` in this run,
imported with ``graphopt.import_onnx``, JIT-compiled and run; its outputs
must match ONNX Runtime's (1 thread) on the same inputs within f32
tolerances (rtol 1e-4, atol 1e-4). Models with a dynamic batch dim are
compiled once, without specializing it, and checked at two batch sizes.

    python3 test/onnx/test_models.py                 # every model
    python3 test/onnx/test_models.py resnet18 lstm   # some of them

Ends with ``N passed, N failed``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import traceback
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent / "python"))

import models  # noqa: E402

RTOL, ATOL = 1e-4, 1e-4


def check(name: str, tmp: Path) -> str:
    """Runs one model; returns "" when it matches, else the reason."""
    import graphopt
    from graphopt.importer.onnx import import_onnx
    t0 = time.perf_counter()
    path, inputs = models.export(name, tmp)
    t1 = time.perf_counter()
    text = import_onnx(path)
    t2 = time.perf_counter()
    dynamic = "dynamic" in name
    if dynamic:
        assert "tensor<?x" in text.split("\n", 2)[1], "the batch dim is not dynamic"
    program = graphopt.Program(text, specialize=None if dynamic else [a.shape for a in inputs])
    t3 = time.perf_counter()
    session = models.ort_session(path)
    batches = [inputs]
    if dynamic:  # two other batch sizes, same program
        rng = np.random.default_rng(1)
        batches = [[rng.standard_normal((n,) + a.shape[1:]).astype(a.dtype) if i == 0
                    else np.repeat(a[:1], n, axis=0) for i, a in enumerate(inputs)]
                   for n in (1, 3)]
    worst = 0.0
    for batch in batches:
        want = models.ort_run(session, batch)
        got = program.run(batch)
        if len(got) != len(want):
            return f"{len(got)} outputs, ONNX Runtime has {len(want)}"
        for k, (g, w) in enumerate(zip(got, want)):
            if g.shape != w.shape or g.dtype != w.dtype:
                return f"output {k}: {g.dtype}{list(g.shape)} vs ONNX Runtime {w.dtype}{list(w.shape)}"
            err = np.abs(g.astype(np.float64) - w)
            bad = err > ATOL + RTOL * np.abs(w)
            worst = max(worst, float(err.max()) if err.size else 0.0)
            if bad.any():
                i = tuple(np.argwhere(bad)[0])
                return (f"output {k} (batch {batch[0].shape[0]}): {int(bad.sum())} of {g.size} "
                        f"elements differ, e.g. at {list(i)}: {g[i]} vs {w[i]}; max abs err "
                        f"{err.max():.3g}")
    print(f"  export {t1 - t0:.1f} s, import {t2 - t1:.1f} s, compile {t3 - t2:.1f} s; "
          f"max |graphopt - onnxruntime| = {worst:.2e}")
    return ""


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("names", nargs="*", choices=[[]] + list(models.ALL), metavar="NAME",
                   help="models of models.py (default: all)")
    args = p.parse_args(argv)
    names = args.names or list(models.ALL)
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="onnx-models-") as tmp:
        for name in names:
            print(f"{name}:", flush=True)
            try:
                why = check(name, Path(tmp))
            except Exception as e:  # an unsupported op, a compile error, ...
                why = f"{type(e).__name__}: {e}"
                traceback.print_exc(limit=3)
            if why:
                failed += 1
                print(f"FAIL {name}: {why}", flush=True)
            else:
                passed += 1
                print(f"PASS {name}", flush=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
