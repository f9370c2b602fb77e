"""Smoke test of an installed graphopt wheel (run by scripts/test-wheel.sh).

    python wheel_smoke.py --expect-llvm {hidden,visible} [--pdl-mlir FILE]

Checks, each against an independent reference:
- the package loads its own library (inside the installed package);
- a graph-dialect program (f32 and f16) compiles and runs (NumPy reference);
- the by-example rewrite (graph-replace-patterns) and a PDLL rule applied
  (graph-apply-pdl-patterns): from the .pdll file when mlir-pdll can be run,
  else from its PDL translation (--pdl-mlir), after checking that the .pdll
  file gives the clear "mlir-pdll not found" error;
- with PyTorch importable: a PyTorch model imported, compiled on two threads
  (the bundled OpenMP runtime) and compared with eager PyTorch;
- the process maps no LLVM/MLIR shared library (with --expect-llvm hidden,
  no file under /usr/lib/llvm-22 either) and exactly one libGraphOpt.so.
Exit status 0 when every check passed.
"""

import argparse
import os
import re
import shutil
import sys
from pathlib import Path

import numpy as np

REPO_EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "patterns"
failures = []


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what, flush=True)
    if not cond:
        failures.append(what)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--expect-llvm", choices=["hidden", "visible"], required=True)
    ap.add_argument("--pdl-mlir", help="the PDL translation of relu_to_leaky_relu.pdll")
    args = ap.parse_args()

    import graphopt
    lib = Path(graphopt.LIBRARY_PATH).resolve()
    pkg = Path(graphopt.__file__).resolve().parent
    check(lib.is_relative_to(pkg), f"library inside the package: {lib}")
    print(f"      graphopt {graphopt.__version__}, Python {sys.version.split()[0]}")

    # A graph-dialect program, f32 and f16, against NumPy.
    text = """
func.func @main(%x: tensor<4x8xf32>, %y: tensor<8x3xf32>, %h: tensor<6xf16>)
    -> (tensor<4x3xf32>, tensor<6xf16>) {
  %m = graph.matmul %x, %y : tensor<4x8xf32>, tensor<8x3xf32> -> tensor<4x3xf32>
  %r = graph.relu %m : tensor<4x3xf32> -> tensor<4x3xf32>
  %s = graph.mul %h, %h : tensor<6xf16>, tensor<6xf16> -> tensor<6xf16>
  return %r, %s : tensor<4x3xf32>, tensor<6xf16>
}"""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 8), dtype=np.float32)
    y = rng.standard_normal((8, 3), dtype=np.float32)
    h = rng.standard_normal(6).astype(np.float16)
    r, s = graphopt.Program(text)(x, y, h)
    check(np.allclose(r, np.maximum(x @ y, 0), rtol=1e-5, atol=1e-5),
          "f32 matmul + relu matches NumPy (rtol 1e-5)")
    check(s.dtype == np.float16 and np.allclose(
        s.astype(np.float32), (h * h).astype(np.float32), rtol=1e-3),
        "f16 multiply matches NumPy (rtol 1e-3)")

    # The CUDA target's device code embedded in a host object: the whole
    # translation runs without a GPU (a missing interface model crashed it in
    # this library once, on the first GPU it met).
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        obj = Path(tmp) / "add.o"
        cuda_text = """
func.func @main(%a: tensor<4x1000xf32>, %b: tensor<1000xf32>) -> tensor<4x1000xf32> {
  %c = graph.add %a, %b : tensor<4x1000xf32>, tensor<1000xf32> -> tensor<4x1000xf32>
  return %c : tensor<4x1000xf32>
}"""
        for fmt in ("isa", "bin"):
            if fmt == "bin" and not shutil.which("ptxas") and \
                    not os.access("/usr/local/cuda/bin/ptxas", os.X_OK):
                continue
            graphopt.Program(cuda_text, target="cuda", compile_only=True,
                             object_file=str(obj), format=fmt)
            data = obj.read_bytes() if obj.exists() else b""
            check(b"graphopt_main_signature" in data and
                  (b".target sm_90" in data if fmt == "isa" else len(data) > 4096),
                  f"a CUDA object (device code as {fmt}) compiled and written")
            obj.unlink(missing_ok=True)

    # Rewrites: by example, and a PDLL rule.
    relu = """
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = graph.relu %x : tensor<8xf32> -> tensor<8xf32>
  return %r : tensor<8xf32>
}"""
    by_example = graphopt.optimize(
        relu, "builtin.module(graph-replace-patterns{patterns-file=%s})"
        % (REPO_EXAMPLES / "relu_to_leaky_relu.mlir"))
    check("graph.relu" not in by_example, "by-example rewrite replaced the ReLU")
    xs = np.linspace(-2, 2, 8, dtype=np.float32)
    check(np.allclose(graphopt.Program(by_example)(xs), np.where(xs > 0, xs, 0.01 * xs),
                      rtol=1e-6), "rewritten program computes leaky ReLU (slope 0.01)")

    pdll = REPO_EXAMPLES / "relu_to_leaky_relu.pdll"
    have_pdll = shutil.which("mlir-pdll-22") or shutil.which("mlir-pdll") or \
        os.access("/usr/lib/llvm-22/bin/mlir-pdll", os.X_OK)
    pipeline = "builtin.module(graph-apply-pdl-patterns{patterns-file=%s})"
    if have_pdll:
        out = graphopt.optimize(relu, pipeline % pdll)
        check("graph.leaky_relu" in out, "PDLL rule applied (mlir-pdll found)")
    else:
        try:
            graphopt.optimize(relu, pipeline % pdll)
            check(False, "a .pdll file without mlir-pdll raises an error")
        except graphopt.CompileError as e:
            check("mlir-pdll not found" in str(e),
                  "a .pdll file without mlir-pdll: clear error naming mlir-pdll")
        if args.pdl_mlir:
            out = graphopt.optimize(relu, pipeline % args.pdl_mlir)
            check("graph.leaky_relu" in out, "PDL rule (translated beforehand) applied")

    # A PyTorch model, two threads, against eager PyTorch.
    try:
        import torch
    except ImportError:
        torch = None
        print("skip  PyTorch not installed in this environment")
    if torch is not None:
        torch.manual_seed(0)
        model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.GELU(),
                                    torch.nn.Linear(128, 10)).eval()
        inp = torch.randn(32, 64)
        compiled = graphopt.compile(model, (inp,), threads=2)
        with torch.no_grad():
            want = model(inp)
        got = compiled(inp)
        check(torch.allclose(got, want, rtol=1e-4, atol=1e-5),
              "PyTorch MLP on 2 threads matches eager (rtol 1e-4)")

    maps = open("/proc/self/maps").read()
    files = set(m.group(0) for m in re.finditer(r"/\S+", maps))
    llvm = sorted(f for f in files if re.search(r"lib(MLIR|LLVM)[^/]*\.so", f))
    check(not llvm, f"no LLVM/MLIR shared library mapped ({llvm or 'none'})")
    if args.expect_llvm == "hidden":
        sys_llvm = sorted(f for f in files if f.startswith("/usr/lib/llvm-22"))
        check(not sys_llvm, f"nothing from /usr/lib/llvm-22 mapped ({sys_llvm or 'none'})")
    ours = sorted(f for f in files if f.endswith("/libGraphOpt.so"))
    check(len(ours) == 1, f"exactly one libGraphOpt.so mapped ({ours})")
    omp = sorted(f for f in files if "libomp" in f)
    if torch is not None:
        check(len(omp) == 1 and Path(omp[0]).parent == lib.parent,
              f"the bundled OpenMP runtime ran the threads ({omp})")

    if failures:
        print(f"{len(failures)} check(s) failed", flush=True)
        return 1
    print("all checks passed", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
