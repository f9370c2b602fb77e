"""The call paths of graphopt.compile with torch tensors: the first call of
a signature goes the general way (conversion through NumPy) and prepares the
direct path (tensor memory passed as it is, results written straight into
new torch tensors) that later calls of the signature take. Checks each
against eager PyTorch (rtol 1e-5, atol 1e-5: f32 sums of 64 products in
another order), including the inputs the direct path must hand back to the
general one: a lazily negated view, a non-contiguous tensor, a tensor that
requires grad, NumPy arrays, and a new shape."""
import collections
import threading

import numpy as np
import torch

import graphopt


def f(x, y):
    z = torch.matmul(x, y) + x
    return z, (z > 0), z.sum(dim=1).to(torch.int64)


def check(got, x, y, what):
    ref = f(x.detach(), y.detach())
    assert isinstance(got, tuple) and len(got) == 3, what
    for g, r in zip(got, ref):
        g = torch.as_tensor(g)
        assert g.dtype == r.dtype and g.shape == r.shape, (what, g.dtype, g.shape)
    torch.testing.assert_close(got[0], ref[0], rtol=1e-5, atol=1e-5)
    # The comparison and the integer sum follow the f32 values: equal where
    # they are not within rounding of 0 / of an integer boundary.
    agree = (got[1] == ref[1]) | (ref[0].abs() < 1e-4)
    assert bool(agree.all()), what
    assert int((got[2] - ref[2]).abs().max()) <= 1, what
    print(what, "ok")


torch.manual_seed(0)
x, y = torch.randn(64, 64), torch.randn(64, 64)
c = graphopt.compile(f, (x, y))
check(c(x, y), x, y, "first call")
assert len(c._torch_calls) == 1, "the direct path was not prepared"
for i in range(3):
    check(c(x, y), x, y, f"direct call {i}")
outs = c(x, y)
assert all(type(o) is torch.Tensor for o in outs)
# Results are fresh tensors, not shared between calls.
again = c(x, y)
assert all(a.data_ptr() != b.data_ptr() for a, b in zip(outs, again))
check(c(x._neg_view(), y), x._neg_view().resolve_neg(), y, "negated view")
check(c(x.t(), y), x.t().contiguous(), y, "non-contiguous")
xg = x.clone().requires_grad_()
check(c(xg, y), xg, y, "requires grad")
got = c(x.numpy(), y.numpy())
assert all(isinstance(g, np.ndarray) for g in got)
check(tuple(torch.from_numpy(g) for g in got), x, y, "numpy")
x2 = torch.randn(32, 64)
check(c(x2, y), x2, y, "new shape")
check(c(x2, y), x2, y, "new shape, direct")
assert c.compile_count == 2, c.compile_count

# Four threads calling one signature at once through the direct path.
errors = []


def worker(seed):
    g = torch.Generator().manual_seed(seed)
    for _ in range(50):
        a, b = torch.randn(64, 64, generator=g), torch.randn(64, 64, generator=g)
        try:
            got = c(a, b)
            torch.testing.assert_close(got[0], f(a, b)[0], rtol=1e-5, atol=1e-5)
        except Exception as e:  # reported below
            errors.append(repr(e))


threads = [threading.Thread(target=worker, args=(s,)) for s in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
assert not errors, errors[:3]
print("threads ok")
# CHECK: first call ok
# CHECK: direct call 2 ok
# CHECK: negated view ok
# CHECK: non-contiguous ok
# CHECK: requires grad ok
# CHECK: numpy ok
# CHECK: new shape, direct ok
# CHECK: threads ok

# The result's structure comes from torch.export's record of it: the model is
# not run eagerly by graphopt.compile (forward runs once, for the export's
# trace), and dicts, namedtuples and lists of results keep their shape.
Pair = collections.namedtuple("Pair", "a b")


class Structured(torch.nn.Module):
    calls = 0

    def forward(self, x):
        Structured.calls += 1
        return {"sum": x + 1, "pair": Pair(x * 2, [x - 1, x.relu()])}


s_model = Structured().eval()
x = torch.randn(3, 4)
s_compiled = graphopt.compile(s_model, (x,))
print("forward calls while compiling:", Structured.calls)
got, want = s_compiled(x), s_model(x)
assert type(got) is dict and type(got["pair"]) is Pair and type(got["pair"].b) is list
for g_, w_ in [(got["sum"], want["sum"]), (got["pair"].a, want["pair"].a),
               (got["pair"].b[0], want["pair"].b[0]), (got["pair"].b[1], want["pair"].b[1])]:
    torch.testing.assert_close(g_, w_, rtol=1e-6, atol=1e-6)
print("structured results ok")
# CHECK: forward calls while compiling: 1
# CHECK: structured results ok

# The direct path runs through a prepared call (graphopt_program_prepare_call:
# shapes checked once, only data pointers per call). Results that are an
# input returned as it is, a transposed view, or a rank-0 value are copied
# into the new tensors correctly, and the input is not freed.


def views(x):
    return x, x.t(), x.sum(), x * 2


xv = torch.randn(5, 3)
cv = graphopt.compile(views, (xv,))
for i in range(3):
    got = cv(xv)
    want = views(xv)
    assert len(got) == 4
    for g_, w_ in zip(got, want):
        assert g_.shape == w_.shape, (g_.shape, w_.shape)
        torch.testing.assert_close(g_, w_, rtol=1e-6, atol=1e-6)
    assert got[0].data_ptr() != xv.data_ptr()
prepared = [call.structs[3] is not None for call in cv._torch_calls.values()]
print("prepared calls:", prepared)
print("views ok")
# The input still holds its values after the calls (it was not freed and
# reused by the allocator).
torch.testing.assert_close(cv(xv)[0], xv)
# A closed program raises instead of calling freed code.
cv.program.close()
try:
    cv(xv)
    print("no error after close")
except graphopt.ExecutionError as e:
    print("after close:", e)
# CHECK: prepared calls: [True]
# CHECK: views ok
# CHECK: after close: the program was closed
