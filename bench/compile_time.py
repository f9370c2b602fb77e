#!/usr/bin/env python3
"""Compile time and compile memory of graphopt against model size.

Usage:

    python3 bench/compile_time.py                 # MLP and BERT at N = 1..24, ResNet-18/50
    python3 bench/compile_time.py --quick         # N = 1, 4, 12; ResNet-50 only
    python3 bench/compile_time.py --peers inductor,iree --markdown results.md
    python3 bench/compile_time.py --families bert --sizes 1,2,4

Models: an N-layer MLP (``Linear(1024, 1024)`` + GELU per layer, batch 256),
an N-layer BERT-base encoder (``nn.TransformerEncoder`` of
``TransformerEncoderLayer(768, 12, 3072)``, batch 1, sequence 128) and
torchvision's ResNet-18 and ResNet-50 (batch 1, 224 x 224), f32, eval mode.

Every compile runs in a fresh process of its own (``--one``), with the
persistent compile cache off (docs/CompileCache.md): graphopt's phases come
from ``graphopt.compile(..., timing=True)``: import (PyTorch -> MLIR), the
MLIR pass pipeline's passes summed into graph passes, fusion, lowering
(linalg, tiling, vectorization), bufferization and conversion to LLVM, and
LLVM (IR optimization and machine code: the JIT). Peak compile memory is the
process's peak RSS during the compile minus its RSS before it (the model's
weights are already in memory then). Then the same model is compiled twice
more with the cache on (a fresh directory): the first stores, the second
loads ("cached" = total time of that second compile, import included).
Then twice more with ``import_cache=True`` (python/graphopt/import_cache.py):
the first records the import, the second finds it and skips
``torch.export`` ("import cache" = total time of that second compile).

Peers (``--peers``): ``torch.compile`` (Inductor, default options, its own
on-disk caches pointed at a fresh directory so that every compile is cold;
time of the first call minus an eager call) and IREE (``llvm-cpu``, imported
from the ONNX export; bench/peers.py's recipe, export included), each also
in a process of its own.

The report gives a table per family (time and memory against N, per phase),
the slope of graphopt's total time against N (least squares, seconds per
layer) and the ratio of the largest N's time to N times the 1-layer time.
``--markdown FILE`` writes it to FILE as well.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FAMILIES = ("mlp", "bert", "resnet")
SIZES = (1, 2, 4, 8, 12, 24)
QUICK_SIZES = (1, 4, 12)

#: MLIR pass names (as the pass timing report prints them) -> phase.
PHASES = (
    ("graph", re.compile(r"^(Graph(Optimize|RefineShapes|FoldConstants|"
                         r"Decompose|Simplify|Canonicalize|Rewrite)\w*|"
                         r"SymbolDCE|Inliner)")),
    ("fusion", re.compile(r"^(Fusion|ConvertFusion)\w*")),
    ("lowering", re.compile(r"^(ConvertGraphToLinalg|GraphFuseElementwise|"
                            r"GraphCPUTileAndVectorize|GraphCPUParallelize|"
                            r"GraphEmitCInterface)\w*")),
    ("bufferization", re.compile(r"^(OneShotBufferize|Buffer\w*|"
                                 r"PromoteBuffersToStack|ExpandRealloc|"
                                 r"OwnershipBasedBufferDeallocation|"
                                 r"LowerDeallocations|"
                                 r"ConvertBufferizationToMemRef)\w*")),
)


def _log(msg: str) -> None:
    print(f"[compile_time] {msg}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------
# Models
# --------------------------------------------------------------------------

def build_model(family: str, size: int):
    import torch
    nn = torch.nn
    torch.manual_seed(0)
    if family == "mlp":
        layers = []
        for _ in range(size):
            layers += [nn.Linear(1024, 1024), nn.GELU()]
        return nn.Sequential(*layers).eval(), (torch.randn(256, 1024),)
    if family == "bert":
        layer = nn.TransformerEncoderLayer(768, 12, 3072, batch_first=True)
        model = nn.TransformerEncoder(layer, size, enable_nested_tensor=False)
        return model.eval(), (torch.randn(1, 128, 768),)
    if family == "resnet":
        import torchvision
        name = {18: "resnet18", 50: "resnet50"}[size]
        model = getattr(torchvision.models, name)(weights=None)
        return model.eval(), (torch.randn(1, 3, 224, 224),)
    raise ValueError(family)


# --------------------------------------------------------------------------
# One compile, in a process of its own
# --------------------------------------------------------------------------

def _rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _peak_rss_bytes() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _pass_phases(report: str) -> dict:
    """Seconds per phase from MLIR's pass timing report (wall time of the
    passes at every nesting level, analyses excluded)."""
    phases = {name: 0.0 for name, _ in PHASES}
    phases["to LLVM"] = 0.0
    for line in report.splitlines():
        m = re.match(r"\s*([0-9.]+) \(\s*[0-9.]+%\)\s+(\S.*)$", line)
        if not m:
            continue
        seconds, name = float(m.group(1)), m.group(2).strip()
        if name.startswith("(A)") or name.startswith("'") or \
                name in ("Total", "Rest"):
            continue
        for phase, pattern in PHASES:
            if pattern.match(name):
                phases[phase] += seconds
                break
        else:
            phases["to LLVM"] += seconds
    return phases


def run_one(system: str, family: str, size: int, threads: int) -> dict:
    import torch
    torch.set_num_threads(threads)
    model, inputs = build_model(family, size)
    before = _rss_bytes()
    result = {"system": system, "family": family, "size": size}
    if system.startswith("graphopt"):
        sys.path.insert(0, str(ROOT / "python"))
        import graphopt
        start = time.perf_counter()
        # The pass timing report is printed by the library to the process's
        # stderr (fd 2), not to sys.stderr: capture the fd.
        fd = os.dup(2)
        with tempfile.TemporaryFile(mode="w+") as tmp:
            os.dup2(tmp.fileno(), 2)
            try:
                compiled = graphopt.compile(
                    model, inputs, timing=True, threads=threads,
                    import_cache=system == "graphopt-import")
            finally:
                sys.stderr.flush()
                os.dup2(fd, 2)
                os.close(fd)
            tmp.seek(0)
            report = tmp.read()
        result["total"] = time.perf_counter() - start
        t = compiled.timings
        result.update(imp=t["import"], lower=t["lower"], llvm=t["codegen"])
        result["cache"] = compiled.program.cache
        result["import_cache"] = compiled.import_cache
        result.update(_pass_phases(report))
        with torch.no_grad():
            ref = model(*inputs)
        out = compiled(*inputs)
        result["max_err"] = float((out - ref).abs().max())
    elif system == "inductor":
        compiled = torch.compile(model)
        with torch.no_grad():
            start = time.perf_counter()
            model(*inputs)
            eager = time.perf_counter() - start
            start = time.perf_counter()
            compiled(*inputs)
            result["total"] = time.perf_counter() - start - eager
    elif system == "iree":
        sys.path.insert(0, str(ROOT / "bench"))
        import numpy as np
        import peers

        class _Named:
            name = f"{family}{size}"
        with tempfile.TemporaryDirectory() as tmp:
            ctx = peers.Context(workload=_Named(), model=model, inputs=inputs,
                                arrays=[np.asarray(a) for a in inputs],
                                threads=threads, tmp=Path(tmp))
            start = time.perf_counter()
            peers.prepare_iree(ctx)
            result["total"] = time.perf_counter() - start
    else:
        raise ValueError(system)
    result["peak_mb"] = max(0, _peak_rss_bytes() - before) / 2**20
    return result


def spawn(system: str, family: str, size: int, threads: int,
          cache_dir: str, timeout: int) -> dict:
    env = dict(os.environ)
    env["GRAPHOPT_CACHE_DIR"] = cache_dir
    if system == "inductor":
        env["TORCHINDUCTOR_CACHE_DIR"] = tempfile.mkdtemp(prefix="inductor-")
        env["TORCHINDUCTOR_FX_GRAPH_CACHE"] = "0"
    cmd = [sys.executable, __file__, "--one", system, family, str(size),
           "--threads", str(threads)]
    try:
        done = subprocess.run(cmd, env=env, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"system": system, "family": family, "size": size,
                "error": f"over {timeout} s"}
    for line in reversed(done.stdout.splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
    return {"system": system, "family": family, "size": size,
            "error": tail[:200]}


# --------------------------------------------------------------------------
# The report
# --------------------------------------------------------------------------

def _slope(points: list) -> float:
    n = len(points)
    if n < 2:
        return float("nan")
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else \
        float("nan")


def _fmt(v, digits=2) -> str:
    if v is None:
        return "-"
    return f"{v:.{digits}f}"


def report(results: list, peers: list, threads: int) -> str:
    lines = []
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f
                       if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    command = " ".join(["python3 bench/compile_time.py", *sys.argv[1:]])
    lines.append(f"- command: `{command}`")
    lines.append(f"- CPU: {cpu}, {os.cpu_count()} cores; compiles with "
                 f"{threads} thread(s); {time.strftime('%Y-%m-%d')}, "
                 f"{platform.python_version()}")
    lines.append("")
    by = {}
    for r in results:
        by.setdefault((r["family"], r["size"]), {})[r["system"]] = r
    for family in FAMILIES:
        keys = sorted(k for k in by if k[0] == family)
        if not keys:
            continue
        head = ["N", "import", "graph", "fusion", "lowering",
                "bufferization", "to LLVM", "LLVM", "total (s)",
                "peak MB", "cached (s)", "import cache (s)"]
        head += [f"{p} (s)" for p in peers]
        lines.append(f"**{family}** (seconds; graphopt's phases, then the "
                     "total of a cold compile and of a cached one)")
        lines.append("")
        lines.append("| " + " | ".join(head) + " |")
        lines.append("|" + " --- |" * len(head))
        points = []
        for key in keys:
            row = by[key]
            g = row.get("graphopt", {})
            c = row.get("graphopt-cached", {})
            ic = row.get("graphopt-import-hit", {})
            if "error" in g:
                cells = [str(key[1])] + ["-"] * (len(head) - 1)
                cells[-2 - len(peers)] = g["error"]
            else:
                cells = [str(key[1]), _fmt(g.get("imp")), _fmt(g.get("graph")),
                         _fmt(g.get("fusion")), _fmt(g.get("lowering")),
                         _fmt(g.get("bufferization")), _fmt(g.get("to LLVM")),
                         _fmt(g.get("llvm")), _fmt(g.get("total")),
                         _fmt(g.get("peak_mb"), 0),
                         _fmt(c.get("total")) + ("" if c.get("cache") == "hit"
                                                 else f" ({c.get('cache', c.get('error', '?'))})"),
                         _fmt(ic.get("total")) + ("" if ic.get("import_cache") == "hit"
                                                  else f" ({ic.get('import_cache', ic.get('error', '?'))})")]
                if "total" in g:
                    points.append((key[1], g["total"]))
            for p in peers:
                pr = row.get(p, {})
                cells.append(_fmt(pr.get("total")) if "total" in pr
                             else pr.get("error", "-"))
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
        if family != "resnet" and len(points) >= 2:
            one = dict(points).get(1)
            top_n, top_t = max(points)
            ratio = top_t / (top_n * one) if one else float("nan")
            lines.append(f"Slope: {_slope(points):.2f} s per layer; "
                         f"N = {top_n} took {ratio:.2f}x {top_n} times the "
                         f"1-layer compile.")
            lines.append("")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--families", default=",".join(FAMILIES))
    parser.add_argument("--sizes", default=None,
                        help="comma-separated N for mlp and bert")
    parser.add_argument("--peers", default="",
                        help="comma-separated: inductor, iree")
    parser.add_argument("--threads", type=int, default=None,
                        help="compile and run threads (default: all allowed)")
    parser.add_argument("--timeout", type=int, default=900)
    parser.add_argument("--markdown", default=None)
    parser.add_argument("--one", nargs=3, metavar=("SYSTEM", "FAMILY", "N"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    threads = args.threads or len(os.sched_getaffinity(0))
    if args.one:
        system, family, size = args.one
        print(json.dumps(run_one(system, family, int(size), threads)))
        return 0

    families = [f for f in args.families.split(",") if f]
    sizes = [int(s) for s in args.sizes.split(",")] if args.sizes else \
        list(QUICK_SIZES if args.quick else SIZES)
    peers = [p for p in args.peers.split(",") if p]
    if peers:
        sys.path.insert(0, str(ROOT / "bench"))
        import peers as peer_bench
        missing = peer_bench.ensure_installed(peers, True)
        for p, why in missing.items():
            _log(f"{p}: {why}")
        peers = [p for p in peers if p not in missing]
    jobs = []
    for family in families:
        if family == "resnet":
            jobs += [(family, n) for n in ((50,) if args.quick else (18, 50))]
        else:
            jobs += [(family, n) for n in sizes]
    results = []
    for family, n in jobs:
        with tempfile.TemporaryDirectory(prefix="graphopt-cache-") as cache:
            r = spawn("graphopt", family, n, threads, "off", args.timeout)
            results.append(r)
            _log(f"{family} {n}: graphopt {r.get('total', r.get('error'))}")
            # The compile cache: the first compile stores, the second loads.
            # Then the import cache on too: the first records the import,
            # the second skips torch.export.
            for system, row, what, status in (
                    ("graphopt", "graphopt-cached", "cached", "cache"),
                    ("graphopt-import", "graphopt-import-hit", "import cache",
                     "import_cache")):
                spawn(system, family, n, threads, cache, args.timeout)
                r = spawn(system, family, n, threads, cache, args.timeout)
                r["system"] = row
                results.append(r)
                _log(f"{family} {n}: {what} {r.get('total', r.get('error'))} "
                     f"({r.get(status)})")
        for p in peers:
            r = spawn(p, family, n, threads, "off", args.timeout)
            results.append(r)
            _log(f"{family} {n}: {p} {r.get('total', r.get('error'))}")
    text = report(results, peers, threads)
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
