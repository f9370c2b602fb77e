"""A sample of the Python package's paths, run with the AddressSanitizer +
UBSan build of libGraphOpt.so loaded into Python (test/PythonSanitized):
graphopt.Program on static, f16, integer and dynamic-shape programs, the
error paths (a wrong input shape, a bad program), the compile cache, and,
with PyTorch, graphopt.compile of small models (linear, convolution with
batch norm, an LSTM) against eager PyTorch. Each check prints one line;
a sanitizer report aborts the process (halt_on_error)."""

import os
import sys
import tempfile

import numpy as np

import graphopt

rng = np.random.default_rng(0)


def report(name, ok):
    print(f"{'ok' if ok else 'FAIL'} {name}", flush=True)
    if not ok:
        sys.exit(1)


# Static f32: matmul + bias + ReLU.
p = graphopt.Program("""
func.func @main(%x: tensor<8x16xf32>, %w: tensor<16x4xf32>, %b: tensor<4xf32>) -> tensor<8x4xf32> {
  %m = graph.matmul %x, %w : tensor<8x16xf32>, tensor<16x4xf32> -> tensor<8x4xf32>
  %a = graph.add %m, %b : tensor<8x4xf32>, tensor<4xf32> -> tensor<8x4xf32>
  %r = graph.relu %a : tensor<8x4xf32> -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}""")
x, w, b = (rng.standard_normal(s).astype(np.float32) for s in ((8, 16), (16, 4), (4,)))
want = np.maximum(x.astype(np.float64) @ w + b, 0)
(r,) = p(x, w, b)
report("f32 matmul+bias+relu", r.shape == want.shape and np.allclose(r, want, rtol=1e-5, atol=1e-5))

# f16 and integers.
p = graphopt.Program("""
func.func @main(%h: tensor<33xf16>, %i: tensor<5x7xi32>) -> (tensor<33xf16>, tensor<5xi32>) {
  %s = graph.mul %h, %h : tensor<33xf16>, tensor<33xf16> -> tensor<33xf16>
  %r = graph.reduce sum %i axes = [1] : tensor<5x7xi32> -> tensor<5xi32>
  return %s, %r : tensor<33xf16>, tensor<5xi32>
}""")
h = rng.standard_normal(33).astype(np.float16)
i = rng.integers(-100, 100, (5, 7)).astype(np.int32)
s, r = p(h, i)
report("f16 multiply", np.allclose(s.astype(np.float32), (h * h).astype(np.float32), rtol=1e-3))
report("i32 row sums", (r == i.sum(axis=1)).all())

# Dynamic dims: two sizes, then a mismatch (an error naming the dim).
p = graphopt.Program("""
func.func @main(%x: tensor<?x4xf32>, %y: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %a = graph.add %x, %y : tensor<?x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  return %a : tensor<?x4xf32>
}""")
for n in (3, 17):
    a, c = rng.standard_normal((n, 4)).astype(np.float32), rng.standard_normal((n, 4)).astype(np.float32)
    (r,) = p(a, c)
    report(f"dynamic add, {n} rows", np.array_equal(r, a + c))
try:
    p(np.zeros((3, 4), np.float32), np.zeros((5, 4), np.float32))
    report("mismatched dynamic dims raise", False)
except graphopt.ExecutionError as e:
    report("mismatched dynamic dims raise", "dim" in str(e))

# A program that does not verify: a CompileError, nothing else.
try:
    graphopt.Program("func.func @main(%x: tensor<4xf32>) -> tensor<5xf32> {\n"
                     "  return %x : tensor<4xf32>\n}")
    report("invalid program raises", False)
except graphopt.CompileError:
    report("invalid program raises", True)

# The compile cache: store, then load.
with tempfile.TemporaryDirectory() as d:
    os.environ["GRAPHOPT_CACHE_DIR"] = d
    text = "func.func @main(%x: tensor<64xf32>) -> tensor<64xf32> {\n" \
           "  %e = graph.exp %x : tensor<64xf32> -> tensor<64xf32>\n" \
           "  return %e : tensor<64xf32>\n}"
    v = rng.standard_normal(64).astype(np.float32)
    first, second = graphopt.Program(text), graphopt.Program(text)
    report("compile cache stored then hit", (first.cache, second.cache) == ("stored", "hit"))
    (e,) = second(v)
    report("cached program computes exp", e.shape == v.shape and np.allclose(e, np.exp(v.astype(np.float64)), rtol=1e-5))
    os.environ["GRAPHOPT_CACHE_DIR"] = "off"

try:
    import torch
except ImportError:
    print("skip PyTorch not installed")
    sys.exit(0)

torch.manual_seed(0)
models = {
    "linear": (torch.nn.Sequential(torch.nn.Linear(10, 20), torch.nn.ReLU(),
                                   torch.nn.Linear(20, 2)), (torch.randn(4, 10),)),
    "conv+bn+relu": (torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1),
                                         torch.nn.BatchNorm2d(8), torch.nn.ReLU(),
                                         torch.nn.MaxPool2d(2)),
                     (torch.randn(2, 3, 16, 16),)),
    "lstm": (torch.nn.LSTM(8, 16, batch_first=True), (torch.randn(2, 5, 8),)),
}
for name, (model, args) in models.items():
    model = model.eval()
    compiled = graphopt.compile(model, args)
    with torch.no_grad():
        want = model(*args)
    got = compiled(*args)
    flat = lambda t: [t] if isinstance(t, torch.Tensor) else [u for v in t for u in flat(v)]
    report(f"torch {name} matches eager (rtol 1e-4)",
           len(flat(got)) == len(flat(want)) and
           all(torch.allclose(g, w, rtol=1e-4, atol=1e-5) for g, w in zip(flat(got), flat(want))))
