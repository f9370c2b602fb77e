"""ATen ops the importer builds from other graph ops (sorting, 3-d
convolution and pooling, indexed updates, EmbeddingBag, prefix scans,
distances, im2col, NaN-aware reductions, erfinv, special functions) and
the ops PyTorch's decompositions handle: each imported, run with
build/bin/graph-run and compared with eager PyTorch (rtol 2e-5 and atol
1e-6 unless a test says otherwise; NaN where eager has NaN; integer
results exactly).

    python3 -m pytest python/tests/importer      # or run this file directly
"""

import _util
from _util import flat_outputs, run_mlir
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from graphopt.importer import import_torch

torch.manual_seed(0)


def _check(fn, args, rtol=2e-5, atol=1e-6, contains=None, expected=None):
    """graphopt's result of ``fn(*args)`` against eager PyTorch's, or
    against ``expected`` (values worked out by hand) where eager's depends
    on the host's LAPACK."""
    text = import_torch(fn, args)
    if contains is not None:
        assert contains in text, f"{contains} not in the imported program"
    with torch.no_grad():
        want = flat_outputs(fn(*args) if expected is None else expected)
    got = run_mlir(text, args)
    assert len(got) == len(want), f"{len(got)} results, expected {len(want)}"
    for i, (g, w) in enumerate(zip(got, want)):
        w = w.detach().numpy()
        assert g.shape == w.shape, f"result {i}: shape {g.shape} != {w.shape}"
        assert g.dtype == w.dtype, f"result {i}: dtype {g.dtype} != {w.dtype}"
        if w.dtype == np.bool_ or np.issubdtype(w.dtype, np.integer):
            assert np.array_equal(g, w), f"result {i}: {g} != {w}"
        else:
            assert np.allclose(g, w, rtol=rtol, atol=atol, equal_nan=True), \
                f"result {i}: max abs err {np.nanmax(np.abs(g - w))}"


_v = torch.randn(5, 7)
_vnan = _v.clone()
_vnan[1, 3] = _vnan[2, 0] = _vnan[2, 5] = float("nan")


def test_decomposed_default_overloads():
    # These reach the importer as aten.X.default; PyTorch's decomposition
    # tables name them without ".default", which the fallback did not match
    # until it keyed the tables by the full overload name.
    a, b = torch.randn(4, 5), torch.randn(6, 5)
    target = torch.tensor([1, 2, 3, 0])
    _check(lambda x, y: torch.einsum("ij,kj->ik", x, y), (a, b))
    _check(lambda x: x.tile(2, 3), (a,))
    _check(lambda x: x.movedim(0, 1), (a,))
    _check(lambda x: torch.cat(x.tensor_split(3, 1)[::-1], 1), (a,))
    _check(lambda x, y: F.mse_loss(x, y), (a, a * 0.5))
    _check(lambda x: F.cross_entropy(x, target), (a,))
    _check(lambda x, y: torch.kron(x, y), (torch.randn(2, 2), torch.randn(3, 3)))
    _check(lambda x: torch.trace(x), (a,))


def test_sorting():
    ints = torch.randint(-3, 3, (4, 9))
    _check(lambda x: torch.sort(x, dim=1), (_v,))
    _check(lambda x: torch.sort(x, dim=0, descending=True), (_v,))
    # NaN sorts last ascending and first descending.
    _check(lambda x: torch.sort(x, dim=1), (_vnan,))
    _check(lambda x: torch.sort(x, dim=1, descending=True), (_vnan,))
    # Equal elements keep their order (stable=True; the indices say so).
    _check(lambda x: torch.sort(x, dim=1, stable=True), (ints,))
    _check(lambda x: torch.argsort(x, dim=1, descending=True), (torch.randn(2, 6, 3),))
    _check(lambda x: torch.kthvalue(x, 3, 1), (_v,))
    _check(lambda x: torch.median(x, 1), (_vnan,))
    _check(lambda x: torch.median(x), (_v,))
    _check(lambda x: torch.nanmedian(x, 1), (_vnan,))
    _check(lambda x: torch.quantile(x, torch.tensor([0.1, 0.5, 0.9]), dim=0,
                                    keepdim=True), (_v,))
    _check(lambda x: torch.stack([torch.quantile(x, 0.4, dim=1, interpolation=m)
                                  for m in ("lower", "higher", "nearest", "midpoint",
                                            "linear")]), (_v,))
    _check(lambda x: torch.quantile(x, 0.5, dim=1), (_vnan,))


def test_sort_count_is_one_fused_reduction():
    # The rank count's n x n terms all fuse into the reduction (no n x n
    # intermediate in memory): the ops are emitted in an order the fusion
    # planner can merge.
    import os
    import subprocess
    import tempfile
    text = import_torch(lambda x: torch.sort(x, -1), (torch.randn(4, 64),))
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
    try:
        p = subprocess.run([str(_util.GRAPH_OPT), f.name, "--graph-optimize",
                            "--fusion-form-groups=report=-", "-o", os.devnull],
                           capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    assert p.returncode == 0, p.stderr
    groups = [line for line in p.stderr.splitlines() if line.startswith("  group ")]
    big = [g for g in groups if "graph.reduce" in g]
    assert len(big) == 1 and big[0].count("graph.compare") >= 2, "\n".join(groups)
    # Everything else is a small [4, 64] or [64, 64] term, not [4, 64, 64].
    assert len(groups) <= 3, "\n".join(groups)


def test_conv3d_and_pool3d():
    x = torch.randn(2, 3, 7, 9, 8)
    _check(lambda a, w, b: F.conv3d(a, w, b, stride=(2, 1, 2), padding=(1, 0, 2),
                                    dilation=(2, 1, 1)),
           (x, torch.randn(4, 3, 3, 2, 3), torch.randn(4)), rtol=1e-4, atol=1e-5)
    _check(lambda a, w: F.conv3d(a, w, groups=3, padding="same"),
           (x, torch.randn(6, 1, 3, 3, 3)), rtol=1e-4, atol=1e-5)
    _check(lambda a: F.max_pool3d(a, (3, 2, 3), stride=(2, 1, 2), padding=(1, 0, 1),
                                  dilation=(1, 2, 1), ceil_mode=True), (x,))
    _check(lambda a: F.avg_pool3d(a, 3, stride=2, padding=1, ceil_mode=True), (x,))
    _check(lambda a: F.avg_pool3d(a, 3, stride=2, padding=1, count_include_pad=False),
           (x,))
    x4 = torch.randn(2, 3, 10, 13)
    _check(lambda a: F.local_response_norm(a, 3), (x4,))        # an avg_pool3d
    _check(lambda a: F.adaptive_max_pool2d(a, (3, 4)), (x4,))   # uneven windows
    _check(lambda a: F.adaptive_max_pool2d(a, (5, 1)), (x4,))   # a max_pool2d
    _check(lambda a: F.adaptive_avg_pool3d(a, (3, 4, 5)), (x,))
    _check(lambda a: F.adaptive_avg_pool3d(a, (2, 9, 8)), (x,))
    # Transposed: stride, padding, output padding, dilation, groups, bias;
    # a constant weight (nn.ConvTranspose3d, a 3-D U-Net's up-convolution).
    _check(lambda a, w, b: F.conv_transpose3d(a, w, b, stride=(2, 1, 2),
                                              padding=(1, 0, 1), output_padding=(1, 0, 1),
                                              dilation=(1, 2, 1)),
           (x, torch.randn(3, 4, 3, 2, 3), torch.randn(4)), rtol=1e-4, atol=1e-5)
    _check(lambda a, w: F.conv_transpose3d(a, w, stride=3, groups=3),
           (x, torch.randn(3, 2, 2, 3, 2)), rtol=1e-4, atol=1e-5)
    up = nn.ConvTranspose3d(3, 5, 2, stride=2).eval()
    _check(up, (x,), rtol=1e-4, atol=1e-5)


def test_det_inverse_solve():
    # Elimination with partial pivoting (composites.gauss_jordan) against
    # PyTorch's LAPACK: batched, a row swap forced by a zero leading entry,
    # a singular matrix (det 0, slogdet sign 0 / -inf), a negative
    # determinant (logdet NaN). Sums of n products: rtol 1e-4, atol 1e-5.
    a = torch.randn(3, 5, 5)
    a[1, 0, 0] = 0.0                         # needs a swap
    a[2, 4] = a[2, 0] + a[2, 1]              # singular
    _check(lambda t: torch.linalg.det(t), (a,), rtol=1e-4, atol=1e-5)
    _check(lambda t: torch.det(t[:2]), (a,), rtol=1e-4, atol=1e-5)
    # log|det| of a numerically singular matrix depends on rounding (LAPACK's
    # last pivot is ~1e-7, not 0): the regular ones, and an exactly singular
    # one (sign 0, log|det| -inf, logdet -inf).
    _check(lambda t: torch.linalg.slogdet(t[:2]), (a,), rtol=1e-4, atol=1e-5)
    _check(lambda t: torch.logdet(t[:2]), (a,), rtol=1e-4, atol=1e-5)
    # Both exactly singular (row 2 = 2 row 1; 2 (3 - 2) + (1 - 3) = 0), and
    # elimination finds an exact zero pivot; against the values by hand,
    # since the host's LAPACK may not (one build gives det -1.8e-7, sign -1).
    exact = torch.tensor([[[1., 2., 3.], [2., 4., 6.], [0., 1., 5.]],
                          [[2., 0., 1.], [1., 3., 2.], [1., 1., 1.]]])
    inf = float("inf")
    _check(lambda t: torch.linalg.slogdet(t), (exact,),
           expected=(torch.tensor([0., 0.]), torch.tensor([-inf, -inf])))
    _check(lambda t: (torch.logdet(t), torch.det(t)), (exact,),
           expected=(torch.tensor([-inf, -inf]), torch.tensor([0., 0.])))
    w = torch.randn(4, 4) + 4 * torch.eye(4)
    _check(lambda t: torch.linalg.inv(t), (w,), rtol=1e-4, atol=1e-5)
    _check(lambda t: torch.inverse(t[:2]), (a,), rtol=1e-3, atol=1e-4)
    _check(lambda t, r: torch.linalg.solve(t, r), (w, torch.randn(4, 3)), rtol=1e-4,
           atol=1e-5)
    _check(lambda t, r: torch.linalg.solve(t, r), (w, torch.randn(4)), rtol=1e-4,
           atol=1e-5)


def test_mode():
    # The smallest of the most frequent values, the index of its last
    # occurrence; along any dim, keepdim, integers and bools.
    x = torch.tensor([[3., 1., 3., 1., 2.], [5., 5., 4., 4., 4.], [1., 2., 3., 4., 5.],
                      [2., 7., 2., 7., 7.]])
    _check(lambda t: torch.mode(t, 1), (x,))
    _check(lambda t: torch.mode(t, 0, keepdim=True), (x,))
    r = torch.randint(0, 4, (3, 9, 5))
    _check(lambda t: torch.mode(t, 1), (r,))
    _check(lambda t: torch.mode(t.float(), -1, True), (r,))
    _check(lambda t: torch.mode(t > 1, 2), (r,))


def test_max_pool_indices_and_unpool():
    # The indices max_pool2d returns (flat h * W + w per plane): padding,
    # dilation, ceil mode, ties (the first), NaN (the last), a window of
    # -inf; then max_unpool2d with them (SegNet's decoder).
    x = torch.randn(2, 3, 9, 11)
    x[0, 0, 2:4, 2:4] = 1.5                    # ties
    x[1, 2, 5, 5] = x[1, 2, 5, 6] = float("nan")
    x[0, 1, :3, :3] = float("-inf")
    for kw in [dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1),
               dict(kernel_size=(3, 2), stride=(2, 3), dilation=(2, 1), ceil_mode=True),
               dict(kernel_size=3, stride=1, padding=1)]:
        _check(lambda t, kw=kw: F.max_pool2d(t, return_indices=True, **kw), (x,))
    y = torch.randn(2, 4, 8, 10)

    def segnet_step(t):
        p, i = F.max_pool2d(t, 2, return_indices=True)
        return F.max_unpool2d(torch.relu(p), i, 2, output_size=t.shape[-2:])
    _check(segnet_step, (y,))
    _check(lambda t: nn.MaxUnpool2d(2, 2)(*nn.MaxPool2d(2, 2, return_indices=True)(t)),
           (torch.randn(3, 9, 12),))
    # 1-D: the 2-D pool over one row; max_unpool1d is a max_unpool2d.
    s = torch.randn(2, 3, 17)
    _check(lambda t: F.max_pool1d(t, 3, stride=2, padding=1, return_indices=True), (s,))
    _check(lambda t: nn.MaxUnpool1d(2)(*nn.MaxPool1d(2, return_indices=True)(t)), (s,))


def test_indexed_updates():
    idx = torch.tensor([0, 2, -1])

    def set_cols(a, b):
        c = a.clone()
        c[:, idx] = b
        return c

    def set_mask(a):
        c = a.clone()
        c[c > 0.5] = -2.0
        return c

    def add_rows(a, b):
        c = a.clone()
        c[torch.tensor([1, 1, 3])] += b     # repeated rows accumulate
        return c

    _check(lambda a, b: a.index_put((idx,), b), (_v, torch.randn(7)))
    _check(set_cols, (_v, torch.randn(5, 3)))
    _check(set_mask, (_v,))
    _check(lambda a, b: a.index_put((torch.tensor([1, 1, 3]),), b, accumulate=True),
           (_v, torch.randn(3, 7)))
    _check(lambda a, b: a.index_add(1, torch.tensor([4, 1], dtype=torch.int32), b,
                                    alpha=2.0), (_v, torch.randn(5, 2)))
    _check(lambda a, b: a.index_copy(0, torch.tensor([3, 0]), b), (_v, torch.randn(2, 7)))
    _check(lambda a: a.index_fill(1, idx, -1.0), (_v,))
    _check(lambda a: a.masked_scatter(a > 0, torch.arange(35.).reshape(5, 7)), (_v,))
    _check(lambda a, b: torch.slice_scatter(a, b, 1, 2, 7, 2), (_v, torch.randn(5, 3)))
    _check(lambda a, b: torch.select_scatter(a, b, 0, -2), (_v, torch.randn(7)))


def test_advanced_indexing_with_several_index_tensors():
    x = torch.randn(4, 5, 6, 7)
    rows, cols = torch.triu_indices(5, 5, 1)
    _check(lambda a: a[:, rows, cols], (x[:, :, :5, 0],))                 # adjacent
    _check(lambda a: a[:, torch.tensor([0, -1]), torch.tensor([[1], [2]])], (x,))
    _check(lambda a: a[torch.tensor([0, 1, 3]), :, torch.tensor([2, 0, 5])], (x,))
    _check(lambda a, i, j: a[i, :, j], (x, torch.tensor([0, 2]), torch.tensor([5, -6])))


def test_embedding_bag():
    w = torch.randn(10, 4)
    idx = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
    offsets = torch.tensor([0, 2, 2, 5])     # the second bag is empty
    for mode in ("sum", "mean", "max"):
        _check(lambda W: F.embedding_bag(idx, W, offsets, mode=mode), (w,))
        _check(lambda W: F.embedding_bag(idx, W, offsets, mode=mode, padding_idx=4), (w,))
    _check(lambda W, p: F.embedding_bag(idx, W, offsets, per_sample_weights=p,
                                        mode="sum"), (w, torch.rand(8)))
    _check(lambda W: F.embedding_bag(idx, W, torch.tensor([0, 3, 8]),
                                     include_last_offset=True), (w,))
    # Indices and offsets as run-time inputs of a module.
    bag = nn.EmbeddingBag(10, 4, mode="mean").eval()
    text = import_torch(bag, (idx, offsets))
    for args in ((idx, offsets), (torch.tensor([0, 0, 9, 1, 1, 1, 7, 7]),
                                  torch.tensor([0, 1, 1, 6]))):
        with torch.no_grad():
            want = bag(*args).numpy()
        got = run_mlir(text, args)[0]
        assert np.allclose(got, want, rtol=2e-5, atol=1e-6), (got, want)


def test_scans_and_search():
    _check(lambda x: torch.cummax(x, 1), (_v,))
    # Ties: the index of the last equal maximum (PyTorch's >= rule).
    _check(lambda x: torch.cummax(x, 1), (torch.tensor([[1., 3., 3., 2., 3., 5.]]),))
    _check(lambda x: torch.cummin(x, 0), (_v,))
    _check(lambda x: torch.cummax(x, 1), (_vnan,))
    _check(lambda x: torch.cummax(x, 1), (torch.randint(-5, 5, (3, 8)),))
    _check(lambda x: torch.logcumsumexp(x, 1), (_v,))
    # Magnitudes a shared shift would underflow.
    _check(lambda x: torch.logcumsumexp(x, 0),
           (torch.tensor([-1000., 0., -float("inf"), 5.]),))
    _check(lambda x: torch.searchsorted(torch.tensor([-1., 0., 1.]), x), (_vnan,))
    _check(lambda s, x: torch.searchsorted(s, x, right=True),
           (torch.sort(torch.randn(3, 6), 1).values, torch.randn(3, 4)))


def test_distances_and_unfold():
    a, b = torch.randn(2, 4, 3), torch.randn(2, 6, 3)
    for p in (2.0, 1.0, 3.0, float("inf")):
        _check(lambda x, y: torch.cdist(x, y, p=p), (a, b), rtol=1e-5, atol=1e-6)
    _check(lambda x: F.pdist(x), (torch.randn(5, 3),), rtol=1e-5)
    x4 = torch.randn(2, 3, 8, 9)
    _check(lambda x: F.unfold(x, 3, padding=1), (x4,))
    _check(lambda x: F.unfold(x, (2, 3), dilation=(2, 1), stride=(2, 3), padding=(1, 0)),
           (x4,))
    # fold sums overlapping patches (3 x 3 windows at stride 1 overlap).
    _check(lambda x: F.fold(x, (8, 8), 3, padding=1), (torch.randn(2, 27, 64),))
    _check(lambda x: F.fold(x, (7, 9), (2, 3), dilation=(2, 1), stride=(2, 3),
                            padding=(1, 0)), (torch.randn(2, 18, 12),))
    _check(lambda x: torch.histc(x, 7, -1.5, 2.0), (torch.randn(100),))
    _check(lambda x: torch.histc(x, 5), (torch.randn(3, 40),))     # the data's range
    _check(lambda x: torch.histc(x, 4, 0, 4),
           (torch.tensor([0., 1., 4., 4.5, -0.1, 2., float("nan")]),))


def test_nan_reductions_and_special():
    _check(lambda x: torch.nansum(x, 1), (_vnan,))
    _check(lambda x: torch.nanmean(x, 1, keepdim=True), (_vnan,))
    _check(lambda x, y: torch.xlogy(x, y), (torch.tensor([0., 0., 1., 2., -1.]),
                                           torch.tensor([0., float("nan"), 3., 0.5, 2.])))
    _check(lambda x: torch.heaviside(x, torch.tensor(0.5)),
           (torch.tensor([-1., 0., 2., 0.]),))
    _check(lambda x: F.rrelu(x, training=False), (_v,))
    _check(lambda x, y: F.kl_div(F.log_softmax(x, 1), F.softmax(y, 1),
                                 reduction="batchmean"), (_v, _v * 0.5))
    _check(lambda x, y: F.kl_div(x, y, reduction="sum"), (_v, torch.relu(_v)))
    # erfinv against PyTorch over (-1, 1), the ends (+-inf) and outside (NaN).
    x = torch.cat([torch.rand(500) * 2 - 1,
                   torch.tensor([0., 1e-6, 0.999, -0.9999, 1., -1., 1.5])])
    _check(lambda t: torch.erfinv(t), (x,), rtol=1e-5, atol=1e-6)



def test_special_functions():
    # Published approximations (python/graphopt/importer/pytorch/aten/
    # special.py) against PyTorch's own kernels. Tolerances: erfc-family and
    # Bessel fits have relative errors of ~2e-7 (rtol 1e-5); lgamma and
    # digamma subtract terms of ~10 near their zeros (x ~ 1, 2, 1.46), so
    # their absolute error there is ~1e-6 (atol 1e-5).
    wide = torch.cat([torch.linspace(-12, 12, 481),
                      torch.tensor([0., -0., 1e-30, 30., -30., float("inf"),
                                    float("-inf"), float("nan")])])
    _check(lambda t: torch.special.erfc(t), (wide,), rtol=1e-5, atol=1e-30)
    erfcx_in = torch.cat([torch.linspace(-9, 40, 491), torch.tensor([1e4, -10.])])
    _check(lambda t: torch.special.erfcx(t), (erfcx_in,), rtol=1e-5, atol=1e-30)
    _check(lambda t: torch.special.log_ndtr(t), (torch.linspace(-30, 8, 381),),
           rtol=1e-5, atol=1e-6)
    # lgamma: positive, negative non-integers, the poles (+inf), +-inf.
    g = torch.cat([torch.rand(300) * 40 + 1e-3, -torch.rand(100) * 10 - 0.01,
                   torch.tensor([1., 2., 0.5, 1e-6, 1e6, 0., -1., -2., -3.5,
                                 float("inf"), float("-inf")])])
    _check(lambda t: torch.lgamma(t), (g,), rtol=1e-5, atol=1e-5)
    _check(lambda t: torch.special.multigammaln(t, 3), (torch.rand(50) * 10 + 1.01,),
           rtol=1e-5, atol=1e-5)
    # digamma: -inf at 0, NaN at the negative integers.
    d = torch.cat([torch.rand(300) * 40 + 1e-3, -torch.rand(100) * 10 - 0.01,
                   torch.tensor([1., 1.4616321, 0.5, 1e-4, 1e6, 0., -1., -4.,
                                 -2.5, float("inf")])])
    _check(lambda t: torch.digamma(t), (d,), rtol=1e-5, atol=1e-5)
    _check(lambda t: torch.polygamma(0, t), (d,), rtol=1e-5, atol=1e-5)
    b = torch.cat([torch.linspace(-20, 20, 401), torch.tensor([3.75, -3.75, 80.])])
    _check(lambda t: torch.special.i0(t), (b,), rtol=1e-5, atol=1e-30)
    _check(lambda t: torch.special.i0e(t), (b,), rtol=1e-5, atol=1e-30)
    _check(lambda t: torch.special.i1(t), (b,), rtol=1e-5, atol=1e-30)
    _check(lambda t: torch.special.i1e(t), (b,), rtol=1e-5, atol=1e-30)
    e = torch.tensor([0., 1e-30, 0.5, 1., 3., -1., float("inf"), float("nan")])
    _check(lambda t: torch.special.entr(t), (e,))


if __name__ == "__main__":
    _util.run_tests(globals())
