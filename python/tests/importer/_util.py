"""Helpers for the importer tests: run imported MLIR with build/bin/graph-run
and compare with eager PyTorch."""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(1, str(ROOT / "test" / "lib"))  # seed_models: models shared by the suites

# torch.export imports triton, whose bundled LLVM must be loaded before
# libGraphOpt.so's symbols become global (graphopt._native does that at the
# first JIT compile); importing it first keeps any test order safe.
import torch  # noqa: E402
import torch._dynamo  # noqa: E402,F401
import numpy as np  # noqa: E402

# The build tree: GRAPHOPT_BUILD_DIR (as lit sets it), else build/.
BUILD = Path(os.environ.get("GRAPHOPT_BUILD_DIR", ROOT / "build"))
GRAPH_OPT = BUILD / "bin" / "graph-opt"
GRAPH_RUN = BUILD / "bin" / "graph-run"


def _run(cmd, retries=6):
    """Runs a build tool; retries when the binary is being rebuilt."""
    import time
    for attempt in range(retries):
        try:
            p = subprocess.run(cmd, capture_output=True, text=True)
        except OSError:  # the binary is being replaced
            time.sleep(20)
            continue
        transient = "error while loading shared libraries" in p.stderr or \
            p.returncode in (126, 127, -11)
        if not transient:
            return p
        time.sleep(20)
    return subprocess.run(cmd, capture_output=True, text=True)


def verify(text: str) -> str:
    """Parses and verifies with graph-opt; returns its output or raises."""
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
    try:
        p = _run([str(GRAPH_OPT), f.name])
    finally:
        os.unlink(f.name)
    if p.returncode != 0:
        raise AssertionError(f"graph-opt failed:\n{p.stderr}\n--- input ---\n{text}")
    return p.stdout


def run_mlir(text: str, inputs, extra=()):
    """Runs the module's @main on `inputs` (torch tensors); returns numpy
    arrays."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "m.mlir"
        path.write_text(text)
        cmd = [str(GRAPH_RUN), str(path), "--quiet"]
        for i, t in enumerate(inputs):
            p = Path(d) / f"in{i}.npy"
            np.save(p, t.detach().numpy())
            cmd.append(f"--input=@{p}")
        outs = []
        res_types = text.split("func.func @main", 1)[1].split("{", 1)[0]
        nres = _count_results(res_types)
        for i in range(nres):
            p = Path(d) / f"out{i}.npy"
            outs.append(p)
            cmd.append(f"--output=@{p}")
        cmd += list(extra)
        r = _run(cmd)
        if r.returncode != 0:
            raise AssertionError(f"graph-run failed ({r.returncode}):\n{r.stderr}\n"
                                 f"--- input ---\n{text[:20000]}")
        return [np.load(p) for p in outs]


def _count_results(sig: str) -> int:
    res = sig.split("->", 1)[1].strip()
    if res.startswith("("):
        res = res[1:res.rindex(")")]
    depth, n = 0, 1 if res.strip() else 0
    for ch in res:
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "," and depth == 0:
            n += 1
    return n


def flat_outputs(out):
    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, bool):
        return [torch.tensor(out)]
    if isinstance(out, int):
        return [torch.tensor(out, dtype=torch.int64)]
    if isinstance(out, float):
        return [torch.tensor(out, dtype=torch.float32)]
    if isinstance(out, (list, tuple)):
        return [t for o in out for t in flat_outputs(o)]
    if isinstance(out, dict):
        return [t for o in out.values() for t in flat_outputs(o)]
    return []


def check_numerics(text, model, args, rtol=1e-4, atol=1e-5, run_args=None):
    """Runs `text` with graph-run and compares with eager `model(*args)`."""
    with torch.no_grad():
        want = flat_outputs(model(*args))
    got = run_mlir(text, run_args if run_args is not None else args)
    assert len(got) == len(want), f"{len(got)} results, expected {len(want)}"
    for i, (g, w) in enumerate(zip(got, want)):
        w = w.detach().numpy()
        assert g.shape == w.shape, f"result {i}: shape {g.shape} != {w.shape}"
        if w.dtype == np.bool_ or np.issubdtype(w.dtype, np.integer):
            assert np.array_equal(g, w), f"result {i}: {g} != {w}"
        else:
            assert np.allclose(g, w, rtol=rtol, atol=atol), \
                f"result {i}: max abs err {np.abs(g - w).max()}"
    return got


def run_tests(namespace) -> None:
    """Runs the test_* functions of a module (for running a test file
    without pytest); exits 1 if any failed."""
    import traceback
    failed = 0
    tests = [(n, f) for n, f in namespace.items() if n.startswith("test_") and callable(f)]
    for name, fn in tests:
        try:
            fn()
            print(f"PASS {name}")
        except Exception:  # report and continue
            failed += 1
            print(f"FAIL {name}")
            traceback.print_exc()
    print(f"{len(tests) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
