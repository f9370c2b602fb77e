#!/usr/bin/env python3
"""int8 (QDQ) models: graphopt against ONNX Runtime's int8 kernels and
against both systems' f32, in one run.

    taskset -c 0 python3 bench/quantized.py                  # BERT layer, ResNet-18
    taskset -c 0 python3 bench/quantized.py --models bert_layer --rounds 15
    taskset -c 0,1 python3 bench/quantized.py --threads 2

Each model (test/onnx/models.py) is exported to ONNX and quantized with ONNX
Runtime's ``quantize_static`` (QDQ format, uint8 activations, int8 weights;
per channel for ResNet-18, per tensor for the BERT layer: the tool's usual
choices), calibrated on four random inputs. Systems, all on ``--threads`` threads
(default 1):

- ``graphopt int8``: the QDQ model; products of dequantized tensors with
  constant weights become integer matmuls with AVX-512 VNNI where the CPU
  has it (graph-cpu-quantized-matmul);
- ``graphopt QDQ in f32``: the same model with ``int8_matmul=False`` (the
  dequantized values multiplied in f32, as before that pass);
- ``graphopt f32``: the unquantized model;
- ``ORT int8``: ONNX Runtime on the QDQ model (all graph optimizations: it
  fuses the QDQ pairs into its integer kernels);
- ``ORT f32``: ONNX Runtime on the unquantized model.

With several threads each system's timed calls follow an idle pause
and one untimed call (the previous system's spinning worker threads would
take its cores otherwise). Outputs are checked first: graphopt int8 against ORT int8, in steps of the
model's last QuantizeLinear scale (both compute the integer sums exactly;
an intermediate that rounds to the neighbouring integer moves what follows
by a step), and against ``graphopt QDQ in f32``. Then the systems are timed
in rounds, one after the other in each round, the order rotated
(``--round-time`` seconds of calls each), and the table gives the median
over rounds of the time per call.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("GRAPHOPT_CACHE_DIR", "off")
sys.path.insert(0, str(ROOT / "test" / "onnx"))
sys.path.insert(0, str(ROOT / "python"))

import models  # noqa: E402

PER_CHANNEL = {"resnet18": True, "bert_layer": False}


def quantize(name: str, tmp: Path):
    import onnx
    from onnxruntime.quantization import (CalibrationDataReader, QuantFormat,
                                          QuantType, quantize_static)
    path, inputs = models.export(name, tmp)
    rng = np.random.default_rng(1)
    names = [i.name for i in onnx.load(str(path)).graph.input]

    class Calibration(CalibrationDataReader):
        def __init__(self):
            batches = []
            for _ in range(4):
                # Random activations; other inputs (the BERT mask) as given.
                batch = [rng.standard_normal(a.shape).astype(a.dtype) if i == 0 else a
                         for i, a in enumerate(inputs)]
                batches.append(dict(zip(names, batch)))
            self.it = iter(batches)

        def get_next(self):
            return next(self.it, None)

    qpath = tmp / f"{name}_int8.onnx"
    quantize_static(str(path), str(qpath), Calibration(), quant_format=QuantFormat.QDQ,
                    activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                    per_channel=PER_CHANNEL.get(name, False))
    model = onnx.load(str(qpath))
    qs = [n for n in model.graph.node if n.op_type == "QuantizeLinear"]
    out_scale = None
    if qs:
        inits = {i.name: i for i in model.graph.initializer}
        scale = inits.get(qs[-1].input[1])
        if scale is not None:
            out_scale = float(onnx.numpy_helper.to_array(scale).reshape(-1)[0])
    return path, qpath, inputs, out_scale


def timed(fn, round_time: float) -> float:
    """Seconds per call over about ``round_time`` seconds of calls."""
    n, t0 = 0, time.perf_counter()
    while True:
        fn()
        n += 1
        t = time.perf_counter() - t0
        if t >= round_time:
            return t / n


def cpu_flags() -> str:
    """/proc/cpuinfo's text ('' where there is none)."""
    try:
        return open("/proc/cpuinfo").read()
    except OSError:
        return ""


def bench(name: str, tmp: Path, rounds: int, round_time: float, threads: int,
          amx: bool, target_cpu: str = "", int8_avx2: bool = False) -> dict:
    """``amx``: the CPU has AMX-INT8 tiles (graphopt then uses them for
    integer matmuls; the table adds a column without them). ``target_cpu``:
    graphopt's code is for that CPU (e.g. x86-64-v3: AVX2 without VNNI),
    not the host; ONNX Runtime still picks its kernels for the host.
    ``int8_avx2``: graphopt's integer kernels where the target has AVX2 but
    not VNNI (pipeline option int8-avx2)."""
    target = {"target_cpu": target_cpu} if target_cpu else {}
    import graphopt
    from graphopt.importer.onnx import import_onnx
    path, qpath, inputs, out_scale = quantize(name, tmp)
    shapes = [a.shape for a in inputs]
    qtext = import_onnx(qpath)
    t0 = time.perf_counter()
    g_int8 = graphopt.Program(qtext, specialize=shapes, threads=threads,
                              **({"int8_avx2": True} if int8_avx2 else {}), **target)
    compile_int8 = time.perf_counter() - t0
    g_qdq = graphopt.Program(qtext, specialize=shapes, threads=threads,
                             int8_matmul=False, **target)
    g_f32 = graphopt.Program(import_onnx(path), specialize=shapes, threads=threads,
                             **target)
    if amx:  # the same integer kernels' VNNI form
        g_vnni = graphopt.Program(qtext, specialize=shapes, threads=threads,
                                  target_features="-amx-int8")
    ort_int8 = models.ort_session(qpath, threads=threads)
    ort_f32 = models.ort_session(path, threads=threads)

    got = g_int8.run(inputs)[0].astype(np.float64)
    want = models.ort_run(ort_int8, inputs)[0].astype(np.float64)
    qdq = g_qdq.run(inputs)[0].astype(np.float64)
    ref = models.ort_run(ort_f32, inputs)[0].astype(np.float64)
    step = out_scale or 1.0
    check = {
        "max |int8 - ORT int8| (steps)": float(np.abs(got - want).max()) / step,
        "share one step or more off ORT int8":
            float((np.abs(got - want) > 0.5 * step).mean()),
        "max |int8 - QDQ in f32| (steps)": float(np.abs(got - qdq).max()) / step,
        **({"max |int8 - int8 without AMX| (steps)":
            float(np.abs(got - g_vnni.run(inputs)[0]).max()) / step} if amx else {}),
        "max |ORT int8 - f32| / max |f32|":
            float(np.abs(want - ref).max() / np.abs(ref).max()),
        "max |int8 - f32| / max |f32|": float(np.abs(got - ref).max() / np.abs(ref).max()),
    }
    systems = {
        "graphopt int8": lambda: g_int8.run(inputs),
        **({"graphopt int8 without AMX": lambda: g_vnni.run(inputs)} if amx else {}),
        "graphopt QDQ in f32": lambda: g_qdq.run(inputs),
        "graphopt f32": lambda: g_f32.run(inputs),
        "ORT int8": lambda: models.ort_run(ort_int8, inputs),
        "ORT f32": lambda: models.ort_run(ort_f32, inputs),
    }
    for fn in systems.values():  # warm-up
        timed(fn, round_time)
    times = {k: [] for k in systems}
    order = list(systems)
    for r in range(rounds):
        # The order rotated every round; with several threads, an idle pause
        # and one untimed call before each system, as bench/peers.py does:
        # the previous system's worker threads keep spinning for a while
        # (LLVM's OpenMP, ONNX Runtime's pool) and would take its cores.
        for k in order[r % len(order):] + order[:r % len(order)]:
            if threads > 1:
                time.sleep(0.3)
                systems[k]()
            times[k].append(timed(systems[k], round_time))
    med = {k: statistics.median(v) * 1e3 for k, v in times.items()}
    return {"name": name, "ms": med, "check": check, "compile_int8": compile_int8}


def cpu_name() -> str:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", nargs="+", default=["bert_layer", "resnet18"],
                    choices=sorted(models.ALL))
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--round-time", type=float, default=0.3)
    ap.add_argument("--threads", type=int, default=1,
                    help="threads of every system (pin the process to as many cores)")
    ap.add_argument("--markdown", help="also write the table to this file")
    ap.add_argument("--target-cpu", default="",
                    help="graphopt compiles for this CPU (e.g. x86-64-v3: AVX2, "
                         "no VNNI) instead of the host; ONNX Runtime keeps the host's kernels")
    ap.add_argument("--int8-avx2", action="store_true",
                    help="graphopt int8 with the AVX2 kernels (pipeline option int8-avx2) "
                         "where the target has no VNNI")
    args = ap.parse_args()
    flags = cpu_flags()
    vnni = " avx512_vnni" in flags
    amx = " amx_int8" in flags and " amx_tile" in flags and not args.target_cpu
    lines = [f"CPU: {cpu_name()} (AVX-512 VNNI: {'yes' if vnni else 'no'}; "
             f"AMX-INT8: {'yes' if amx else 'no'}); "
             + (f"graphopt's code for target-cpu={args.target_cpu}; " if args.target_cpu else "")
             + ("graphopt int8 with int8-avx2; " if args.int8_avx2 else "")
             + 
             f"{os.sched_getaffinity(0).__len__()} core(s) allowed; {args.threads} thread(s) each; "
             f"{args.rounds} rounds of {args.round_time} s per system, medians (ms)", ""]
    cols = (["graphopt int8"] + (["graphopt int8 without AMX"] if amx else []) +
            ["graphopt QDQ in f32", "graphopt f32", "ORT int8", "ORT f32"])
    lines.append("| model | " + " | ".join(cols) +
                 " | int8 / ORT int8 | int8 / graphopt f32 |")
    lines.append("|" + " --- |" * (len(cols) + 3))
    checks = []
    with tempfile.TemporaryDirectory() as d:
        for name in args.models:
            r = bench(name, Path(d), args.rounds, args.round_time, args.threads, amx,
                      args.target_cpu, args.int8_avx2)
            ms = r["ms"]
            lines.append(f"| {name} | " + " | ".join(f"{ms[c]:.3g}" for c in cols) +
                         f" | {ms['graphopt int8'] / ms['ORT int8']:.2f}"
                         f" | {ms['graphopt int8'] / ms['graphopt f32']:.2f} |")
            checks.append(f"{name}: " + ", ".join(f"{k} {v:.3g}" for k, v in r["check"].items())
                          + f"; graphopt int8 compile {r['compile_int8']:.1f} s")
            print(lines[-1], flush=True)
    text = "\n".join(lines + [""] + checks) + "\n"
    print()
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
