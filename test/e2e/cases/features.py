"""graphopt.compile features: the signature cache and dynamic batch, NumPy
in/out, options, timings, errors (unsupported ops, other targets, bad
inputs), the low-level Program/optimize API and the torch.compile backend."""

import re
import warnings

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import graphopt
from framework import Spec, assert_close, case, check


def randn(*shape):
    return torch.randn(*shape)


class SmallMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.fc2 = nn.Linear(32, 4)

    def forward(self, x):
        return F.softmax(self.fc2(torch.relu(self.fc1(x))), dim=-1)


def _eager(model, *args):
    with torch.no_grad():
        return model(*args)


# ------------------------------------------------------- dynamic / caching

def _dynamic_batch(model, make_input):
    compiled = graphopt.compile(model, (make_input(4),), dynamic_dims={0: [0]})
    assert re.search(r"tensor<\?x", compiled.mlir), \
        "the imported MLIR has no dynamic batch dim"
    for batch in (1, 7, 4):
        x = make_input(batch)
        assert_close(compiled(x), _eager(model, x), what=f"batch {batch}")
    assert compiled.compile_count == 1, \
        f"{compiled.compile_count} compiles for one dynamic signature"


@check(tags=("feature",))
def dynamic_batch_mlp():
    """One compiled artifact (dynamic_dims batch) serves batch 1, 7 and 4."""
    _dynamic_batch(SmallMLP().eval(), lambda b: randn(b, 16))


@check(tags=("feature", "v2"))
def dynamic_batch_convnet():
    model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
                          nn.MaxPool2d(2), nn.Flatten(),
                          nn.Linear(8 * 8 * 8, 10)).eval()
    _dynamic_batch(model, lambda b: randn(b, 3, 16, 16))


@check(tags=("feature",))
def recompile_on_new_signature():
    """Without dynamic_dims, a new shape or dtype compiles a new program
    (cached per signature) instead of failing."""
    fn = lambda x: x * 2 + 1  # noqa: E731
    compiled = graphopt.compile(fn, (randn(2, 3),))
    for x in (randn(2, 3), randn(5, 3), randn(2, 3), randn(5, 3),
              torch.randint(0, 9, (2, 3))):
        assert_close(compiled(x), fn(x), what=f"{x.dtype}{list(x.shape)}")
    assert compiled.compile_count == 3, \
        f"expected 3 compiles (2x3 f32, 5x3 f32, 2x3 i64), got " \
        f"{compiled.compile_count}"
    assert len(compiled.signatures) == 3


@check(tags=("feature",))
def numpy_in_numpy_out():
    model = SmallMLP().eval()
    x = randn(3, 16)
    compiled = graphopt.compile(model, (x,))
    got = compiled(x.numpy())
    assert isinstance(got, np.ndarray), type(got)
    assert_close(torch.from_numpy(got), _eager(model, x))
    got_t = compiled(x)
    assert isinstance(got_t, torch.Tensor), type(got_t)


@check(tags=("feature",))
def non_contiguous_inputs():
    """Transposed / sliced inputs are made contiguous."""
    fn = lambda a, b: a @ b  # noqa: E731
    a, b = randn(8, 6).t(), randn(16, 12)[::2, 1:6]
    assert not a.is_contiguous() and not b.is_contiguous()
    compiled = graphopt.compile(fn, (a, b))
    assert_close(compiled(a, b), fn(a, b))


@case(tags=("feature",))
def params_as_args():
    """Parameters passed as program arguments instead of constants."""
    return Spec(SmallMLP().eval(), (randn(3, 16),),
                compile_kwargs={"params_as_args": True})


@case(tags=("feature",))
def optimize_off():
    return Spec(SmallMLP().eval(), (randn(3, 16),),
                compile_kwargs={"optimize": False})


@case(tags=("feature",))
def options_no_vectorize_no_fuse_O0():
    return Spec(SmallMLP().eval(), (randn(3, 16),),
                compile_kwargs={"vectorize": False, "fuse": False,
                                "opt_level": 0})


@check(tags=("feature",))
def timings_and_mlir():
    compiled = graphopt.compile(SmallMLP().eval(), (randn(3, 16),))
    assert set(compiled.timings) >= {"import", "lower", "codegen"}, \
        compiled.timings
    assert all(v >= 0 for v in compiled.timings.values())
    assert "func.func @main" in compiled.mlir
    assert "graph.matmul" in compiled.mlir or "graph." in compiled.mlir


# ------------------------------------------------------------------- errors

class ManyUnsupported(nn.Module):
    """Three ops no importer maps (special functions: a Bessel function of
    the first kind, the normal quantile, a trigamma-order polygamma)."""

    def forward(self, x):
        a = torch.special.bessel_j0(x)
        b = torch.special.ndtri(x)
        c = torch.polygamma(2, x)
        return a.sum() + b.sum() + c.sum()


@check(tags=("feature", "errors"))
def unsupported_ops_listed():
    """UnsupportedOpsError lists every unsupported op, not only the first."""
    from graphopt.importer import UnsupportedOpsError
    try:
        graphopt.compile(ManyUnsupported(), (randn(4, 4),))
    except UnsupportedOpsError as e:
        ops = " ".join(err.op for err in e.errors)
        missing = [n for n in ("bessel_j0", "ndtri", "polygamma") if n not in ops]
        assert not missing, f"not listed: {missing}; error:\n{e}"
        assert all(n in str(e) for n in ("bessel_j0", "ndtri", "polygamma")), str(e)
        return
    raise AssertionError("no UnsupportedOpsError for unsupported ops")


class DataDependentBranch(nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x * 2
        return x - 1


@check(tags=("feature", "errors"))
def data_dependent_branch_hint():
    """torch.export cannot capture a branch on tensor values: the error says
    so and points to torch.jit.script, which works (checked here)."""
    x = randn(3)
    try:
        graphopt.compile(DataDependentBranch(), (x,))
        raise AssertionError("torch.export captured a data-dependent branch")
    except NotImplementedError as e:
        assert "depends on tensor values" in str(e) and "torch.jit.script" in str(e), str(e)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        scripted = torch.jit.script(DataDependentBranch())
    f = graphopt.compile(scripted, (x,))
    for sample in (x.abs(), -x.abs()):
        assert_close(f(sample), _eager(DataDependentBranch(), sample))


@check(tags=("feature", "errors"))
def matmul_dtype_mismatch_raises():
    """Like eager PyTorch, a Linear called with int64 input is an error (the
    importer used to insert a cast and return a result)."""
    from graphopt.importer import UnsupportedOpsError
    m = nn.Linear(4, 3).eval()
    x = torch.ones(2, 4, dtype=torch.int64)
    try:
        m(x)
        raise AssertionError("eager PyTorch accepted it: the check is moot")
    except RuntimeError:
        pass
    f = graphopt.compile(m, (randn(2, 4),))
    try:
        f(x)
    except UnsupportedOpsError as e:
        assert "linear of int64 and float32" in str(e), str(e)
        return
    raise AssertionError("int64 input to a float Linear was accepted")


@check(tags=("feature", "errors"))
def target_unknown_rejected():
    try:
        graphopt.compile(SmallMLP().eval(), (randn(3, 16),), target="tpu")
    except NotImplementedError as e:
        assert "tpu" in str(e) and "cuda" in str(e) and "cpu" in str(e), str(e)
        return
    raise AssertionError("target='tpu' did not raise NotImplementedError")


@check(tags=("feature", "cuda"))
def target_cuda_compiles():
    # Compiles for CUDA without a GPU (compile_only: kernels to PTX, host
    # code to LLVM); calling the module is refused with a clear error.
    try:
        m = graphopt.compile(SmallMLP().eval(), (randn(3, 16),),
                             target="cuda", compile_only=True)
    except graphopt.GraphOptError as e:
        # A build without the CUDA toolkit says so (and nothing else).
        assert "built without the CUDA toolkit" in str(e), str(e)
        return
    assert m.target == "cuda" and m.compile_count == 1
    try:
        m(randn(3, 16))
    except graphopt.GraphOptError as e:
        assert "compile-only" in str(e), str(e)
        return
    raise AssertionError("running a compile_only module did not raise")


@check(tags=("feature", "errors"))
def unknown_option_rejected():
    try:
        graphopt.compile(SmallMLP().eval(), (randn(3, 16),), vectorise=True)
    except TypeError as e:
        assert "vectorise" in str(e), str(e)
        return
    raise AssertionError("an unknown option was accepted")


@check(tags=("feature", "errors"))
def program_errors_carry_diagnostics():
    """Program compile/run errors carry the C++ diagnostics."""
    bad = ("func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
           "  %y = graph.add %x, %x : tensor<4xf32>, tensor<5xf32> -> tensor<4xf32>\n"
           "  return %y : tensor<4xf32>\n}\n")
    try:
        graphopt.Program(bad)
        raise AssertionError("an invalid module compiled")
    except graphopt.CompileError as e:
        assert "error" in e.diagnostics and ":2:" in e.diagnostics, \
            e.diagnostics
    good = bad.replace("tensor<5xf32>", "tensor<4xf32>")
    program = graphopt.Program(good)
    assert [s.type_str for s in program.inputs] == ["tensor<4xf32>"]
    try:
        program.run([np.zeros(5, np.float32)])
        raise AssertionError("a wrong input shape ran")
    except graphopt.ExecutionError as e:
        assert "dim 0" in str(e), str(e)
    (y,) = program.run([np.arange(4, dtype=np.float32)])
    np.testing.assert_array_equal(y, np.arange(4, dtype=np.float32) * 2)


@check(tags=("feature",))
def optimize_and_program_api():
    """import_torch -> graphopt.optimize -> graphopt.Program on NumPy."""
    model = SmallMLP().eval()
    x = randn(3, 16)
    text = graphopt.import_torch(model, (x,))
    optimized = graphopt.optimize(text)
    assert "func.func" in optimized
    program = graphopt.Program(optimized)
    (y,) = program.run([x.numpy()])
    assert_close(torch.from_numpy(y), _eager(model, x))


# ------------------------------------------------------ torch.compile

@check(tags=("feature", "torch.compile"))
def torch_compile_backend():
    model = SmallMLP().eval()
    x = randn(5, 16)
    torch._dynamo.reset()
    compiled = torch.compile(model, backend=graphopt.torch_backend,
                             dynamic=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error", graphopt.GraphOptFallbackWarning)
        with torch.no_grad():
            got = compiled(x)
    assert_close(got, _eager(model, x))


class PartlyUnsupported(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x):
        return torch.special.bessel_j0(self.fc(x))


@check(tags=("feature", "torch.compile", "errors"))
def torch_compile_backend_fallback():
    """A graph with an unsupported op runs eagerly, with a warning."""
    model = PartlyUnsupported().eval()
    x = randn(3, 8)
    torch._dynamo.reset()
    compiled = torch.compile(model, backend=graphopt.torch_backend,
                             dynamic=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with torch.no_grad():
            got = compiled(x)
    fallbacks = [str(w.message) for w in caught
                 if issubclass(w.category, graphopt.GraphOptFallbackWarning)]
    assert fallbacks, [str(w.message) for w in caught]
    # The warning names the op that stopped it (it kept only a first line).
    assert any("bessel_j0" in m for m in fallbacks), fallbacks
    assert_close(got, _eager(model, x))
