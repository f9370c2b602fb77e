"""Every option of the compile pipeline (CompilePipelineOptions) reaches the
compiler from Python (graphopt.Program and graphopt.compile keyword
arguments) and from graph-run (--pipeline-options): each is passed with its
default value and the program must compile and give the right result; one
option with a visible effect (fusion_report="-" prints the fusion report)
checks that values are not dropped on the way.

    python options_reachable.py BUILD_DIR/bin/graph-run
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

import graphopt

GRAPH_RUN = sys.argv[1]
TEXT = """func.func @main(%x: tensor<4x8xf32>, %y: tensor<8xf32>) -> tensor<4x8xf32> {
  %a = graph.add %x, %y : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %b = graph.relu %a : tensor<4x8xf32> -> tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}
"""
x = np.linspace(-1, 1, 32, dtype=np.float32).reshape(4, 8)
y = np.linspace(-0.5, 0.5, 8, dtype=np.float32)
want = np.maximum(x + y, 0)


def python_value(text):
    if text in ("true", "false"):
        return text == "true"
    try:
        return int(text)
    except ValueError:
        return text


options = graphopt.pipeline_options()
assert len(options) >= 15, options
bad = []
with tempfile.TemporaryDirectory() as tmp:
    prog = os.path.join(tmp, "prog.mlir")
    with open(prog, "w") as f:
        f.write(TEXT)
    for name, default in sorted(options.items()):
        value = python_value(default)
        try:
            (got,) = graphopt.Program(TEXT, **{name: value}).run([x, y])
            if not np.allclose(got, want, rtol=1e-6, atol=1e-6):
                bad.append((name, "python: wrong result"))
        except Exception as e:  # reported below
            bad.append((name, f"python: {e}"))
        flag = f"--pipeline-options={name.replace('_', '-')}={default}"
        run = subprocess.run(
            [GRAPH_RUN, prog, "--seed=1", "--quiet", flag],
            capture_output=True, text=True)
        if run.returncode != 0:
            bad.append((name, f"graph-run: {run.stderr.strip()}"))
print("options:", len(options), "unreachable:", bad)
# CHECK: options: {{[0-9]+}} unreachable: []

# Values arrive: the fusion report is printed on stderr by both.
run = subprocess.run(
    [sys.executable, "-c",
     "import graphopt, sys; graphopt.Program(sys.argv[1], fusion_report='-')",
     TEXT], capture_output=True, text=True)
print("python report:", "fusion" in run.stderr.lower() and run.returncode == 0)
# CHECK: python report: True
with tempfile.TemporaryDirectory() as tmp:
    prog = os.path.join(tmp, "prog.mlir")
    with open(prog, "w") as f:
        f.write(TEXT)
    run = subprocess.run([GRAPH_RUN, prog, "--seed=1", "--quiet",
                          "--pipeline-options=fusion-report=-"],
                         capture_output=True, text=True)
    print("graph-run report:", "fusion" in run.stderr.lower() and run.returncode == 0)
# CHECK: graph-run report: True

# Unknown names are one clear error everywhere.
try:
    graphopt.Program(TEXT, vector_widht=8)
except TypeError as e:
    print("python unknown:", str(e).split(";")[0])
# CHECK: python unknown: unknown compile option 'vector_widht'
try:
    graphopt.compile(lambda a: a, (x,), vector_widht=8)
except TypeError as e:
    print("compile unknown:", str(e).split(";")[0])
# CHECK: compile unknown: graphopt.compile: unknown option(s) vector_widht
