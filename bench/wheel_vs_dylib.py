"""The wheel's self-contained library against the development build's.

    python3 bench/wheel_vs_dylib.py [--rounds 5] [--models mlp,bert,resnet18]
        [--standalone build/standalone/libGraphOpt.so] [--dylib build/lib/libGraphOpt.so]

Both libraries are built from the same objects (lib/CMakeLists.txt,
GRAPHOPT_STANDALONE_LIBRARY); they differ in how MLIR and LLVM are linked
(static archives with registration narrowed, or libMLIR.so/libLLVM.so). For
each model and round, each library in turn (alternating, the order swapped
every round) compiles the model in a fresh process (compile cache off) and
times 30 calls after 5 warm-up calls; the process is pinned to core 0 and
the generated code runs on one thread. Prints medians over rounds and the
ratio standalone / dylib, as a markdown table (--markdown FILE also writes
it). Results are checked against eager PyTorch in every process.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, sys, time, torch, graphopt
torch.set_num_threads(1)
name = sys.argv[1]
torch.manual_seed(0)
if name == "mlp":
    model = torch.nn.Sequential(torch.nn.Linear(1024, 4096), torch.nn.GELU(),
                                torch.nn.Linear(4096, 1024))
    x = torch.randn(256, 1024)
elif name == "bert":
    model = torch.nn.TransformerEncoderLayer(768, 12, 3072, batch_first=True)
    x = torch.randn(1, 128, 768)
elif name == "resnet18":
    import torchvision
    model = torchvision.models.resnet18()
    x = torch.randn(1, 3, 224, 224)
model = model.eval()
t0 = time.perf_counter()
fn = graphopt.compile(model, (x,), threads=1)
compile_s = time.perf_counter() - t0
with torch.no_grad():
    want = model(x)
got = fn(x)
assert torch.allclose(got, want, rtol=1e-3, atol=1e-4), float((got - want).abs().max())
for _ in range(5):
    fn(x)
times = []
for _ in range(30):
    t = time.perf_counter(); fn(x); times.append(time.perf_counter() - t)
times.sort()
print(json.dumps({"compile": compile_s, "run_ms": 1e3 * times[len(times) // 2],
                  "library": str(graphopt.LIBRARY_PATH)}))
"""


def run(library, model):
    env = dict(os.environ, GRAPHOPT_LIBRARY=str(library), GRAPHOPT_CACHE_DIR="off",
               PYTHONPATH=str(ROOT / "python"), OMP_NUM_THREADS="1")
    out = subprocess.run(["taskset", "-c", "0", sys.executable, "-c", CHILD, model],
                         env=env, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise SystemExit(f"{model} with {library} failed:\n{out.stderr[-2000:]}")
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert Path(result["library"]).resolve() == Path(library).resolve()
    return result


def main():
    build = Path(os.environ.get("GRAPHOPT_BUILD_DIR", ROOT / "build"))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--models", default="mlp,bert,resnet18")
    ap.add_argument("--standalone", default=build / "standalone" / "libGraphOpt.so")
    ap.add_argument("--dylib", default=build / "lib" / "libGraphOpt.so")
    ap.add_argument("--markdown")
    args = ap.parse_args()
    libs = {"standalone": Path(args.standalone), "dylib": Path(args.dylib)}
    for name, path in libs.items():
        if not path.is_file():
            raise SystemExit(f"{name} library {path} not found (build the standalone "
                             "one with scripts/build-wheel.sh)")
    rows = []
    for model in args.models.split(","):
        samples = {name: [] for name in libs}
        for r in range(args.rounds):
            order = list(libs) if r % 2 == 0 else list(reversed(list(libs)))
            for name in order:
                samples[name].append(run(libs[name], model))
                print(f"{model} round {r + 1} {name}: {samples[name][-1]}", file=sys.stderr)
        med = {name: {k: statistics.median(s[k] for s in samples[name])
                      for k in ("compile", "run_ms")} for name in libs}
        rows.append((model, med))
    lines = ["| model | compile, standalone (s) | compile, dylib (s) | ratio | "
             "run, standalone (ms) | run, dylib (ms) | ratio |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for model, med in rows:
        s, d = med["standalone"], med["dylib"]
        lines.append(f"| {model} | {s['compile']:.2f} | {d['compile']:.2f} | "
                     f"{s['compile'] / d['compile']:.2f} | {s['run_ms']:.3g} | "
                     f"{d['run_ms']:.3g} | {s['run_ms'] / d['run_ms']:.2f} |")
    table = "\n".join(lines)
    print(table)
    if args.markdown:
        Path(args.markdown).write_text(table + "\n")


if __name__ == "__main__":
    main()
