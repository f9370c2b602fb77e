#!/usr/bin/env python3
"""The ONNX backend node tests as a conformance gate for graphopt.

Every node test of the installed ``onnx`` package (generated from
``onnx.backend.test.case.node``: a one-op model, or its function expansion,
plus input/expected-output data sets) is imported with
``graphopt.import_onnx``, JIT-compiled for the CPU and run; the outputs are
compared with the expected ones with the suite's tolerances (each case's
``rtol``/``atol``: rtol 1e-3, atol 1e-7 unless the case sets them, as
``onnx.backend.test.runner`` does; NaNs compare equal, shapes and dtypes
must match; bf16 outputs to two bf16 ulps, rtol 2^-6, since the reference
rounds every intermediate to bf16 and graphopt only the stored values).

    python3 test/onnx/run_node_tests.py                  # all cases, 2 workers
    python3 test/onnx/run_node_tests.py -k 'conv|lstm' -v
    python3 test/onnx/run_node_tests.py --update         # rewrite expectations.txt
    python3 test/onnx/run_node_tests.py --data-dir onnx/backend/test/data/node

Each case ends as

* ``pass``;
* ``fail``: wrong numbers, a compile or run error, an importer error, a
  crash or a timeout -- a bug;
* ``unsupported``: the importer reported the model as unsupported (a clear
  diagnostic naming the node).

The suite feeds every input at run time, including the ones ONNX models
normally hold as initializers: shapes, axes, pads, repeats. The ``graph``
dialect takes those as static attributes, so when the importer asks for
such an input to be a constant, the runner binds it to the data set's value
(``import_onnx(..., constants=...)``) and imports again.

expectations.txt lists every case that does not pass, with its status and a
reason. A case whose status differs from its expectation (a new failure, an
unexpected pass, a status change) fails the run. The cases run in worker
processes (``-j``) fed one case at a time, so a native crash fails only its
case and the next case gets a fresh worker. The last line reads
``N passed, N failed``: cases that matched / did not match their
expectation.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import queue
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
EXPECTATIONS = HERE / "expectations.txt"
RESULT_MARK = "@@ONNX-RESULT@@ "
if str(ROOT / "python") not in sys.path:
    sys.path.insert(0, str(ROOT / "python"))
DEFAULT_RTOL, DEFAULT_ATOL = 1e-3, 1e-7


def _python_path_env() -> dict:
    env = dict(os.environ)
    paths = [str(ROOT / "python")] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    return env


# ---------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------

def collect_cases(data_dir: Path | None) -> dict:
    """name -> {model: bytes, data_sets: [(inputs, outputs)], rtol, atol}."""
    if data_dir is not None:
        return _cases_from_dir(data_dir)
    from onnx.backend.test.case import node
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import numpy as np
        with np.errstate(all="ignore"):
            cases = node.collect_testcases(None)
    import numpy as np
    from onnx import TensorProto, numpy_helper

    def array(v):  # some cases hold TensorProtos (float16 casts) or NumPy scalars
        if isinstance(v, TensorProto):
            return numpy_helper.to_array(v)
        return np.asarray(v) if isinstance(v, np.generic) else v
    out = {}
    for c in cases:
        out[c.name] = {"model": c.model.SerializeToString(),
                       "data_sets": [([array(v) for v in i], [array(v) for v in o])
                                     for i, o in c.data_sets],
                       "rtol": c.rtol, "atol": c.atol}
    return out


def _cases_from_dir(data_dir: Path) -> dict:
    """The on-disk layout of onnx/backend/test/data/node: NAME/model.onnx
    and NAME/test_data_set_*/{input,output}_*.pb (default tolerances)."""
    import onnx
    from onnx import numpy_helper
    out = {}
    for case_dir in sorted(p for p in data_dir.iterdir() if (p / "model.onnx").is_file()):
        sets = []
        for ds in sorted(case_dir.glob("test_data_set_*")):
            def load(kind):
                arrays = []
                for f in sorted(ds.glob(f"{kind}_*.pb"), key=lambda p: int(p.stem.split("_")[1])):
                    t = onnx.TensorProto()
                    try:
                        t.ParseFromString(f.read_bytes())
                        arrays.append(numpy_helper.to_array(t))
                    except Exception:
                        arrays.append(None)  # sequences, optionals: unsupported anyway
                return arrays
            sets.append((load("input"), load("output")))
        out[case_dir.name] = {"model": (case_dir / "model.onnx").read_bytes(),
                              "data_sets": sets, "rtol": DEFAULT_RTOL, "atol": DEFAULT_ATOL}
    return out


def case_info(model_bytes: bytes) -> dict:
    """The op types of a case and whether all its inputs are float32."""
    import onnx
    m = onnx.ModelProto.FromString(model_bytes)
    ops = sorted({n.op_type for n in m.graph.node})
    f32 = all(i.type.HasField("tensor_type") and i.type.tensor_type.elem_type == onnx.TensorProto.FLOAT
              for i in m.graph.input)
    return {"ops": ops, "f32": f32, "nodes": len(m.graph.node)}


# ---------------------------------------------------------------------------
# The worker: runs cases named on stdin, one JSON line per case on stdout
# ---------------------------------------------------------------------------

def _first_line(text: str, limit: int = 300) -> str:
    for line in str(text).splitlines():
        line = line.strip()
        if line:
            return line[:limit]
    return str(text)[:limit]


def _subbyte_as_bytes(a):
    """A 2- or 4-bit integer array (ml_dtypes) as the int8/uint8 array of its
    values: graphopt carries those types one value per byte
    (docs/ONNXSupport.md); other values unchanged."""
    import numpy as np
    name = getattr(getattr(a, "dtype", None), "name", "")
    if name in ("int4", "int2"):
        return np.asarray(a).astype(np.int8)
    if name in ("uint4", "uint2"):
        return np.asarray(a).astype(np.uint8)
    return a


def _compare(outs, expected, rtol, atol):
    """None when ``outs`` match ``expected``, else the reason."""
    import numpy as np
    expected = [_subbyte_as_bytes(w) for w in expected]
    if len(outs) != len(expected):
        return f"{len(outs)} outputs, expected {len(expected)}"
    for k, (got, want) in enumerate(zip(outs, expected)):
        if isinstance(want, np.generic):
            want = np.asarray(want)
        if not isinstance(want, np.ndarray):
            return f"output {k}: expected a {type(want).__name__}"
        if got.shape != want.shape:
            return f"output {k}: shape {list(got.shape)}, expected {list(want.shape)}"
        if got.dtype != want.dtype:
            return f"output {k}: dtype {got.dtype}, expected {want.dtype}"
        if got.dtype.kind in "biu":
            bad = got != want
            if bad.any():
                i = tuple(int(v) for v in np.argwhere(bad)[0])
                return f"output {k}: {int(bad.sum())} of {got.size} elements differ, e.g. at {list(i)}: {got[i]} vs {want[i]}"
            continue
        if want.dtype.name == "bfloat16":
            # Two bf16 ulps (an ulp is 2^-8 to 2^-7 of the value; rtol 1e-3
            # is finer than bf16 itself): the reference rounds every
            # intermediate to bf16, graphopt computes in f32 and rounds what
            # it stores. Against the model evaluated in f32, graphopt's
            # bf16 attention is the closer of the two (largest error 0.0035
            # against the reference's 0.0050 in test_attention_4d_*_bf16).
            rtol = max(rtol, 2.0 ** -6)
        g64, w64 = got.astype(np.float64), want.astype(np.float64)
        with np.errstate(all="ignore"):
            err = np.abs(g64 - w64)
            bad = ~((err <= atol + rtol * np.abs(w64)) | (np.isnan(g64) & np.isnan(w64))
                    | (g64 == w64))
        if bad.any():
            i = tuple(int(v) for v in np.argwhere(bad)[0])
            worst = float(np.nanmax(np.where(bad, err, 0))) if np.isfinite(err[bad]).any() else float("inf")
            return (f"output {k}: {int(bad.sum())} of {got.size} elements differ (rtol {rtol:g}, "
                    f"atol {atol:g}), e.g. at {list(i)}: {got[i]} vs {want[i]}; max abs err {worst:.3g}")
    return None


_NEEDS_CONSTANT = re.compile(r"'([^']+)'\) must be a constant")


def _import(model: bytes, input_names, inputs):
    """Imports the model. Graph inputs that the importer needs at import
    time (shapes, axes, pads, ...: static attributes in the graph dialect)
    are bound to the data set's values, as a model would hold them in
    initializers: first the inputs the importer names, then, when it names
    values computed from inputs, every integer input. Returns (MLIR text,
    names of the bound inputs)."""
    import numpy as np
    from graphopt.importer.errors import UnsupportedOpsError
    from graphopt.importer.onnx import import_onnx
    values = dict(zip(input_names, inputs))
    bound = {}
    while True:
        try:
            return import_onnx(model, constants=bound), set(bound)
        except UnsupportedOpsError as e:
            named = {m.group(1) for r in e.errors for m in [_NEEDS_CONSTANT.search(r.reason)] if m}
            wanted = {n for n in named if n in values}
            if named - set(values):
                wanted |= {n for n, v in values.items()
                           if isinstance(v, np.ndarray) and v.dtype.kind in "iu"}
            wanted -= set(bound)
            if not wanted:
                raise
            bound.update({n: values[n] for n in wanted})


def run_case(case: dict) -> dict:
    """Imports, compiles, runs and compares one case."""
    import numpy as np
    import onnx
    import graphopt
    from graphopt.importer.errors import UnsupportedOpsError
    from graphopt.importer.onnx import INTERNAL_ERROR
    t0 = time.perf_counter()
    graph = onnx.ModelProto.FromString(case["model"]).graph
    initializers = {i.name for i in graph.initializer}
    input_names = [i.name for i in graph.input if i.name not in initializers]
    programs = {}
    for n, (inputs, expected) in enumerate(case["data_sets"]):
        try:
            text, bound = _import(case["model"], input_names, inputs)
        except UnsupportedOpsError as e:
            internal = [r for r in e.errors if r.reason.startswith(INTERNAL_ERROR)]
            if internal:
                r = internal[0]
                return {"status": "fail", "category": "import-error",
                        "reason": f"importer: {r.op} ({r.node}): {r.reason}"}
            r = e.errors[0]
            more = f" (+{len(e.errors) - 1} more)" if len(e.errors) > 1 else ""
            return {"status": "unsupported", "category": "unsupported",
                    "reason": f"{r.op}: {r.reason}{more}"}
        except Exception as e:
            return {"status": "fail", "category": "import-error",
                    "reason": f"importer raised {type(e).__name__}: {_first_line(e)}"}
        args = [_subbyte_as_bytes(a) for name, a in zip(input_names, inputs)
                if name not in bound]
        if any(not isinstance(a, np.ndarray) for a in args):
            return {"status": "unsupported", "category": "unsupported",
                    "reason": "non-tensor input data"}
        shapes = tuple(a.shape for a in args)
        try:
            key = (text, shapes)
            if key not in programs:
                programs[key] = graphopt.Program(text, specialize=list(shapes) if shapes else None)
            outs = programs[key].run(args)
        except graphopt.CompileError as e:
            return {"status": "fail", "category": "compile-error",
                    "reason": f"compile error: {_first_line(e.diagnostics.split('error:', 1)[-1])}"}
        except graphopt.GraphOptError as e:
            return {"status": "fail", "category": "runtime-error",
                    "reason": f"run error: {_first_line(e)}"}
        why = _compare(outs, expected, case["rtol"], case["atol"])
        if why:
            return {"status": "fail", "category": "mismatch",
                    "reason": f"wrong numbers: {why}" + (f" (data set {n})" if n else "")}
    return {"status": "pass", "category": "pass", "reason": "",
            "seconds": round(time.perf_counter() - t0, 3)}


def _exit_with_parent() -> None:
    """Asks Linux to end this worker when its parent dies: a killed run
    leaves no worker behind in a long case (between cases, stdin's end
    stops it anyway). Elsewhere a no-op."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() == 1:  # the parent died before the request
        os._exit(1)


def worker_main(case_dir: Path, run=None) -> int:
    """Runs the cases named on stdin with ``run`` (default :func:`run_case`;
    scripts/fuzz_onnx.py passes its own), one JSON line each on stdout."""
    run = run or run_case
    _exit_with_parent()
    for line in sys.stdin:
        name = line.strip()
        if not name:
            continue
        with open(case_dir / f"{name}.pkl", "rb") as f:
            case = pickle.load(f)
        try:
            result = run(case)
        except Exception as e:  # a bug of the runner itself
            result = {"status": "fail", "category": "error",
                      "reason": f"{type(e).__name__}: {_first_line(e)}"}
        result["name"] = name
        sys.stdout.write(RESULT_MARK + json.dumps(result) + "\n")
        sys.stdout.flush()
    return 0


# ---------------------------------------------------------------------------
# The parent: a pool of workers, one case at a time each
# ---------------------------------------------------------------------------

class Worker:
    """A worker process; restarted after a crash or a timeout."""

    def __init__(self, case_dir: Path, script=None):
        self.case_dir = case_dir
        self.script = Path(script or __file__).resolve()  # its --worker mode runs the cases
        self.proc = None
        self.lines: queue.Queue = queue.Queue()

    def _start(self):
        self.proc = subprocess.Popen(
            [sys.executable, str(self.script), "--worker", str(self.case_dir)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, bufsize=1, env=_python_path_env(), start_new_session=True)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, args=(self.proc, self.lines), daemon=True).start()

    @staticmethod
    def _read(proc, lines):
        for line in proc.stdout:
            if line.startswith(RESULT_MARK):
                lines.put(json.loads(line[len(RESULT_MARK):]))
        lines.put(None)  # EOF: the process ended

    def run(self, name: str, timeout: float) -> dict:
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        try:
            self.proc.stdin.write(name + "\n")
            self.proc.stdin.flush()
            result = self.lines.get(timeout=timeout)
        except queue.Empty:
            self.kill()
            return {"name": name, "status": "fail", "category": "timeout",
                    "reason": f"timed out after {timeout:g} s"}
        except (BrokenPipeError, OSError):
            result = None
        if result is None:
            code = self.proc.wait()
            self.proc = None
            why = f"signal {signal.Signals(-code).name}" if code < 0 else f"exit code {code}"
            return {"name": name, "status": "fail", "category": "crash",
                    "reason": f"the worker process died ({why})"}
        return result

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                pass
            self.proc.wait()
        self.proc = None

    def close(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()
        self.proc = None


def run_all(names, case_dir: Path, jobs: int, timeout: float, verbose: bool,
            script=None, on_result=None) -> dict:
    """Runs the named cases in ``jobs`` workers (``script --worker``);
    ``on_result(name, result)`` is called as each ends (default: a line per
    case when ``verbose``)."""
    todo: queue.Queue = queue.Queue()
    for n in names:
        todo.put(n)
    results = {}
    lock = threading.Lock()

    def loop():
        w = Worker(case_dir, script)
        try:
            while True:
                try:
                    name = todo.get_nowait()
                except queue.Empty:
                    return
                r = w.run(name, timeout)
                with lock:
                    results[name] = r
                    if on_result is not None:
                        on_result(name, r)
                    elif verbose:
                        print(f"{r['status'].upper():12s} {name}"
                              + (f"  {r['reason']}" if r["reason"] else ""), flush=True)
        finally:
            w.close()

    threads = [threading.Thread(target=loop) for _ in range(max(1, jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


# ---------------------------------------------------------------------------
# Expectations
# ---------------------------------------------------------------------------

def load_expectations(path: Path) -> dict:
    """{name: (status, reason)} from ``NAME STATUS REASON`` lines."""
    out = {}
    if not path.exists():
        return out
    for n, line in enumerate(path.read_text().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(None, 2)
        if len(parts) < 2 or parts[1] not in ("fail", "unsupported"):
            raise SystemExit(f"{path}:{n}: expected 'NAME fail|unsupported REASON'")
        out[parts[0]] = (parts[1], parts[2] if len(parts) > 2 else "")
    return out


def write_expectations(path: Path, results: dict, old: dict, all_names) -> None:
    lines = [
        "# ONNX backend node tests that do not pass, one per line:",
        "#   NAME  fail|unsupported  REASON",
        "# 'unsupported': graphopt.import_onnx reports the model as unsupported;",
        "# 'fail': a bug (wrong numbers, compile or run error, crash). A case whose",
        "# result differs from this list fails test/onnx/run_node_tests.py.",
        "# Regenerate with: python3 test/onnx/run_node_tests.py --update",
        "# (reasons of unchanged entries are kept, so edited explanations stay).",
    ]
    merged = {n: v for n, v in old.items() if n not in results and n in all_names}
    for name, r in results.items():
        if r["status"] == "pass":
            continue
        prev = old.get(name)
        if prev is not None and prev[0] == r["status"]:
            merged[name] = prev
        else:
            merged[name] = (r["status"], r["reason"])
    for name in sorted(merged):
        status, reason = merged[name]
        lines.append(f"{name} {status} {reason}".rstrip())
    path.write_text("\n".join(lines) + "\n")


# ---------------------------------------------------------------------------

def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-j", "--jobs", type=int, default=2, help="worker processes (default 2)")
    p.add_argument("-k", "--filter", default=None, help="run the cases whose name matches this regex")
    p.add_argument("-v", "--verbose", action="store_true", help="one line per case")
    p.add_argument("--timeout", type=float, default=180, help="seconds per case (default 180)")
    p.add_argument("--expectations", type=Path, default=EXPECTATIONS)
    p.add_argument("--update", action="store_true", help="rewrite the expectations file")
    p.add_argument("--data-dir", type=Path, default=None,
                   help="read cases from an onnx/backend/test/data/node directory "
                        "instead of generating them (default tolerances)")
    p.add_argument("--list", action="store_true", help="list the cases and exit")
    p.add_argument("--json", type=Path, default=None, help="write every result here")
    p.add_argument("--worker", type=Path, default=None, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker is not None:
        return worker_main(args.worker)

    start = time.perf_counter()
    cases = collect_cases(args.data_dir)
    names = sorted(cases)
    if args.filter:
        rx = re.compile(args.filter)
        names = [n for n in names if rx.search(n)]
    if args.list:
        print("\n".join(names))
        return 0
    expectations = load_expectations(args.expectations)
    with tempfile.TemporaryDirectory(prefix="onnx-node-tests-") as tmp:
        tmp_path = Path(tmp)
        for n in names:
            with open(tmp_path / f"{n}.pkl", "wb") as f:
                pickle.dump(cases[n], f, protocol=pickle.HIGHEST_PROTOCOL)
        results = run_all(names, tmp_path, args.jobs, args.timeout, args.verbose)

    # Per-status counts, and over float32 cases of the ops the importer claims.
    from graphopt.importer.onnx.ops import REGISTRY
    counts = Counter(r["status"] for r in results.values())
    claimed = Counter()
    for n in names:
        info = case_info(cases[n]["model"])
        if info["f32"] and info["nodes"] == 1 and info["ops"][0] in REGISTRY:
            claimed[results[n]["status"]] += 1

    mismatched = []
    for n in names:
        r = results[n]
        exp = expectations.get(n)
        want = exp[0] if exp else "pass"
        if r["status"] != want:
            mismatched.append((n, want, r))
    stale = sorted(set(expectations) - set(cases))

    categories = Counter(r["category"] for r in results.values() if r["status"] == "fail")
    print(f"{len(names)} cases: {counts['pass']} passed, {counts['fail']} failed, "
          f"{counts['unsupported']} unsupported ({time.perf_counter() - start:.0f} s)")
    if categories:
        print("failures by category: " + ", ".join(f"{k} {v}" for k, v in sorted(categories.items())))
    print(f"float32 single-op cases of supported ops: {claimed['pass']} passed, "
          f"{claimed['fail']} failed, {claimed['unsupported']} unsupported")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, sort_keys=True))
    if args.update:
        write_expectations(args.expectations, results, expectations, set(cases))
        print(f"wrote {args.expectations}")
        return 0
    for n, want, r in mismatched:
        if want == "pass":
            what = f"NEW {r['status'].upper()}"
        elif r["status"] == "pass":
            what = "UNEXPECTED PASS (remove it from expectations.txt)"
        else:
            what = f"{want} -> {r['status']}"
        print(f"  {what}: {n}: {r['reason']}")
    if stale and not args.filter:
        print(f"note: expectations.txt names unknown cases: {', '.join(stale[:10])}"
              + (" ..." if len(stale) > 10 else ""))
    print(f"{len(names) - len(mismatched)} passed, {len(mismatched)} failed")
    return 1 if mismatched else 0


if __name__ == "__main__":
    sys.exit(main())
