"""The package in-tree: library lookup, Program on NumPy, errors, optimize."""
import numpy as np

import graphopt

print("version", graphopt.__version__, graphopt.native_version())
# CHECK: version 0.1.0 0.1.0
print("library", graphopt.LIBRARY_PATH.name)
# CHECK: library libGraphOpt.so

TEXT = """
func.func @main(%x: tensor<?x4xf32>, %m: tensor<?x4xi1>) -> (tensor<?x4xf32>, tensor<?xf32>) {
  %z = graph.constant dense<0.0> : tensor<f32>
  %y = graph.select %m, %x, %z : tensor<?x4xi1>, tensor<?x4xf32>, tensor<f32> -> tensor<?x4xf32>
  %s = graph.reduce sum %y axes = [1] : tensor<?x4xf32> -> tensor<?xf32>
  return %y, %s : tensor<?x4xf32>, tensor<?xf32>
}
"""
p = graphopt.Program(TEXT)
print(p)
# CHECK: <graphopt.Program @main: (tensor<?x4xf32>, tensor<?x4xi1>) -> (tensor<?x4xf32>, tensor<?xf32>)>
x = np.arange(12, dtype=np.float32).reshape(3, 4)
m = (np.arange(12).reshape(3, 4) % 2 == 0)
y, s = p.run([x.T.copy().T, m])  # a non-contiguous view is accepted
assert y.dtype == np.float32 and y.shape == (3, 4)
np.testing.assert_array_equal(y, np.where(m, x, 0))
np.testing.assert_array_equal(s, np.where(m, x, 0).sum(1))
print("run ok", s.tolist())
# CHECK: run ok [2.0, 10.0, 18.0]
assert p.lower_seconds > 0 and p.codegen_seconds > 0

try:
    p.run([x.astype(np.complex64), m])
except graphopt.ExecutionError as e:
    print("dtype error:", e)
# CHECK: dtype error: input 0: unsupported dtype complex64

try:
    p.run([np.zeros((2, 5), np.float32), m])
except graphopt.ExecutionError as e:
    print("shape error:", str(e).splitlines()[0])
# CHECK: shape error: {{.*}}input 0{{.*}}dim 1

try:
    graphopt.Program("func.func @main() {\n  %x = graph.nope\n}")
except graphopt.CompileError as e:
    print("compile error:", " ".join(e.diagnostics.split()))
# CHECK: compile error: {{.*}}<input>":2:{{.*}}error:

# Dynamic dims the program needs equal are checked per call (rows of x and
# m here): an error naming both inputs, never an out-of-bounds read.
try:
    p.run([np.zeros((3, 4), np.float32), np.zeros((2, 4), bool)])
    print("no error")
except graphopt.ExecutionError as e:
    print("dim check:", str(e).splitlines()[0])
# CHECK: dim check: input 1 of @main: dim 0 is 2 but dim 0 of input 0 is 3; the program needs them equal for graph.select

try:
    graphopt.Program(TEXT, "nope")
except graphopt.CompileError as e:
    print("entry error:", str(e).splitlines()[0])
# CHECK: entry error: no function @nope in the module (functions: @main); choose one with Program(..., entry=NAME)

spec = graphopt.Program(TEXT, specialize=[(2, 4), (2, 4)])
print("specialized", [s.type_str for s in spec.inputs])
# CHECK: specialized ['tensor<2x4xf32>', 'tensor<2x4xi1>']

opt = graphopt.optimize(TEXT)
print("optimized", "graph.select" in opt)
# CHECK: optimized True
# The pipeline runs in every spelling: graph-opt's `builtin.module(...)`
# (the default; it used to be nested under the module and run on nothing),
# unwrapped, and a pattern file applied through graph-apply-pdl-patterns.
# The double negation and the dead exp go; relu becomes leaky_relu.
DEAD = """func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %u = graph.exp %x : tensor<4xf32> -> tensor<4xf32>
  %r = graph.neg %x : tensor<4xf32> -> tensor<4xf32>
  %s = graph.neg %r : tensor<4xf32> -> tensor<4xf32>
  %t = graph.relu %s : tensor<4xf32> -> tensor<4xf32>
  return %t : tensor<4xf32>
}"""
for pipeline in (graphopt.DEFAULT_OPTIMIZE_PIPELINE, "graph-optimize-pipeline",
                 " builtin.module( graph-optimize-pipeline ) "):
    out = graphopt.optimize(DEAD, pipeline)
    print("ran", repr(pipeline.strip()), "graph.exp" not in out and "graph.neg" not in out)
# CHECK: ran 'builtin.module(graph-optimize-pipeline)' True
# CHECK: ran 'graph-optimize-pipeline' True
# CHECK: ran 'builtin.module( graph-optimize-pipeline )' True
import pathlib
rules = pathlib.Path(__file__).resolve().parents[3] / "examples/patterns/relu_to_leaky_relu.pdll"
for pipeline in ("builtin.module(graph-apply-pdl-patterns{patterns-file=%s})",
                 "graph-apply-pdl-patterns{patterns-file=%s}"):
    out = graphopt.optimize(DEAD, pipeline % rules)
    print("rules", pipeline.startswith("builtin"), "graph.leaky_relu" in out)
# CHECK: rules True True
# CHECK: rules False True
try:
    graphopt.optimize(TEXT, "builtin.module(no-such-pass)")
except graphopt.CompileError as e:
    print("pipeline error:", str(e).splitlines()[0])
# CHECK: pipeline error: bad pass pipeline

# Static result shapes take the fast path (graphopt_program_run_into: the
# call's C structs reused per input signature, results copied into the
# returned arrays). Results against NumPy, from 4 threads sharing the
# program (its runs are serialized; each call's pointers are set under the
# lock), each with its own inputs.
import threading
MM = """func.func @main(%x: tensor<32x32xf32>, %y: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %a = graph.matmul %x, %y : tensor<32x32xf32>, tensor<32x32xf32> -> tensor<32x32xf32>
  %b = graph.add %a, %x : tensor<32x32xf32>, tensor<32x32xf32> -> tensor<32x32xf32>
  return %b : tensor<32x32xf32>
}"""
mm = graphopt.Program(MM)
bad = []
def worker(seed):
    rng = np.random.default_rng(seed)
    for _ in range(200):
        a = rng.standard_normal((32, 32), dtype=np.float32)
        b = rng.standard_normal((32, 32), dtype=np.float32)
        (r,) = mm.run([a, b])
        want = a.astype(np.float64) @ b.astype(np.float64) + a
        if not np.allclose(r, want, rtol=1e-4, atol=1e-4):
            bad.append(seed)
threads = [threading.Thread(target=worker, args=(s,)) for s in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("threads ok", len(bad) == 0)
# CHECK: threads ok True
try:
    mm.run([np.zeros((32, 31), np.float32), np.zeros((32, 32), np.float32)])
except graphopt.ExecutionError as e:
    print("fast path shape error:", str(e).splitlines()[0])
# CHECK: fast path shape error: {{.*}}input 0{{.*}}dim 1
