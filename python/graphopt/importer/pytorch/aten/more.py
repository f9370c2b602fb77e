"""ATen op mappings built from other graph ops: accurate log1p/expm1, the
other logarithm and exponential bases, sign, nan_to_num, atan2, hypot,
log_sigmoid, threshold, glu, one_hot, flip, roll, pixel (un)shuffle,
reflection/replication/circular padding, diagonal, var_mean/std_mean,
vector norms, baddbmm and cosine_similarity.

Each follows PyTorch's definition of the op (its ATen kernel or its
reference in ``torch._refs``); where only edge cases differ, the docstring
says which."""

from __future__ import annotations

import math
from typing import List

import torch

from ...errors import Unsupported
from ..dtypes import Value, is_float
from .core import _t, is_static_int, norm_dim, op
from .reductions import _var
from ... import composites
from ...composites import require_static as _static

# ---------------------------------------------------------------------------
# Elementwise
# ---------------------------------------------------------------------------


def _float_in(ctx, a) -> Value:
    return ctx.to_float(ctx.tensor(_t(a)))


def _log1p_value(b, x: Value) -> Value:
    """log(1 + x) without the cancellation of 1 + x for small |x|: with
    u = 1 + x rounded, log(u) * x / (u - 1) (Goldberg), x where u == 1, u
    where u is +inf."""
    one, zero = b.scalar(1.0, x.dtype), b.scalar(0.0, x.dtype)
    u = b.binary("add", x, one)
    d = b.binary("sub", u, one)
    r = b.binary("mul", b.unary("log", u), b.binary("div", x, d))
    r = b.select(b.compare("eq", d, zero), x, r)
    return b.select(b.compare("eq", u, b.scalar(math.inf, x.dtype)), u, r)


@op("aten.log1p")
def _log1p(ctx, a):
    return _log1p_value(ctx.b, _float_in(ctx, a))


@op("aten.expm1")
def _expm1(ctx, a):
    """exp(x) - 1 without the cancellation for small |x|: with u = exp(x),
    (u - 1) * x / log(u) (Kahan), x where u == 1, -1 where u - 1 == -1, u
    where u is +inf."""
    b, x = ctx.b, _float_in(ctx, a)
    one = b.scalar(1.0, x.dtype)
    u = b.unary("exp", x)
    d = b.binary("sub", u, one)
    r = b.binary("div", b.binary("mul", d, x), b.unary("log", u))
    r = b.select(b.compare("eq", u, one), x, r)
    r = b.select(b.compare("eq", d, b.scalar(-1.0, x.dtype)), d, r)
    return b.select(b.compare("eq", u, b.scalar(math.inf, x.dtype)), u, r)


def _log_base(base: float):
    def fn(ctx, a):
        b, x = ctx.b, _float_in(ctx, a)
        return b.binary("mul", b.unary("log", x), b.scalar(1.0 / math.log(base), x.dtype))
    return fn


op("aten.log2")(_log_base(2.0))
op("aten.log10")(_log_base(10.0))


@op("aten.exp2", "aten.special_exp2")
def _exp2(ctx, a):
    b, x = ctx.b, _float_in(ctx, a)
    return b.unary("exp", b.binary("mul", x, b.scalar(math.log(2.0), x.dtype)))


@op("aten.sign", "aten.sgn")
def _sign(ctx, a):
    """(x > 0) - (x < 0) in x's dtype: 0 for zeros and NaN, as PyTorch."""
    b, x = ctx.b, ctx.tensor(_t(a))
    if x.dtype == torch.bool:
        return x
    zero = b.scalar(0, x.dtype)
    pos = b.cast(b.compare("gt", x, zero), x.dtype)
    if x.dtype == torch.uint8:
        return pos
    return b.binary("sub", pos, b.cast(b.compare("lt", x, zero), x.dtype))


@op("aten.nan_to_num")
def _nan_to_num(ctx, a):
    """NaN -> nan (0), +inf -> posinf (the dtype's largest), -inf -> neginf
    (its lowest); integers as they are."""
    b, x = ctx.b, ctx.tensor(_t(a))
    if not is_float(x.dtype):
        return x
    info = torch.finfo(x.dtype)
    nan = a.get("nan", 0.0)
    posinf = a.get("posinf", info.max)
    neginf = a.get("neginf", info.min)
    inf = b.scalar(math.inf, x.dtype)
    y = b.select(b.compare("ne", x, x), b.scalar(float(nan), x.dtype), x)
    y = b.select(b.compare("eq", x, inf), b.scalar(float(posinf), x.dtype), y)
    return b.select(b.compare("eq", x, b.unary("neg", inf)), b.scalar(float(neginf), x.dtype), y)


@op("aten.atan2", "aten.arctan2")
def _atan2(ctx, a):
    """atan(y / x) moved to its quadrant: +-pi for x < 0, +-pi/2 for x = 0
    (0 for y = x = 0). Differs from C's atan2 only in the signs of zero
    results and at infinite operands."""
    b = ctx.b
    y, x = ctx.promote(_t(a), a.other, int_to_float=True)
    zero = b.scalar(0.0, x.dtype)
    pi = b.scalar(math.pi, x.dtype)
    base = b.unary("atan", b.binary("div", y, x))
    y_neg = b.compare("lt", y, zero)
    shifted = b.binary("add", base, b.select(y_neg, b.unary("neg", pi), pi))
    r = b.select(b.compare("lt", x, zero), shifted, base)
    half = b.scalar(math.pi / 2, x.dtype)
    on_axis = b.select(b.compare("gt", y, zero), half,
                       b.select(y_neg, b.unary("neg", half), b.binary("mul", y, zero)))
    return b.select(b.compare("eq", x, zero), on_axis, r)


@op("aten.hypot")
def _hypot(ctx, a):
    """sqrt(x^2 + y^2) without overflow: m * sqrt(1 + (n / m)^2) with m, n
    the larger and smaller magnitude; 0 where both are 0, inf where one
    is inf."""
    b = ctx.b
    x, y = ctx.promote(_t(a), a.other, int_to_float=True)
    ax, ay = b.unary("abs", x), b.unary("abs", y)
    m, n = b.binary("max", ax, ay), b.binary("min", ax, ay)
    zero, one = b.scalar(0.0, x.dtype), b.scalar(1.0, x.dtype)
    q = b.binary("div", n, m)
    r = b.binary("mul", m, b.unary("sqrt", b.binary("add", one, b.binary("mul", q, q))))
    r = b.select(b.compare("eq", m, zero), zero, r)
    inf = b.scalar(math.inf, x.dtype)
    return b.select(b.compare("eq", m, inf), inf, r)


@op("aten.log_sigmoid", "aten.log_sigmoid_forward")
def _log_sigmoid(ctx, a):
    """min(x, 0) - log1p(exp(-|x|)) (PyTorch's formula; no overflow)."""
    b, x = ctx.b, _float_in(ctx, a)
    zero = b.scalar(0.0, x.dtype)
    r = b.binary("sub", b.binary("min", x, zero),
                 _log1p_value(b, b.unary("exp", b.unary("neg", b.unary("abs", x)))))
    if "log_sigmoid_forward" in (a.schema.name if a.schema is not None else ""):
        return r, b.scalar(0.0, x.dtype)  # (output, buffer): the buffer is unused
    return r


@op("aten.threshold")
def _threshold(ctx, a):
    """x > threshold ? x : value."""
    b, x = ctx.b, ctx.tensor(_t(a))
    th = ctx.tensor(a.threshold, x.dtype)
    return b.select(b.compare("gt", x, th), x, ctx.tensor(a.value, x.dtype))


@op("aten.glu")
def _glu(ctx, a):
    """The first half of ``dim`` times the sigmoid of the second."""
    b, x = ctx.b, _float_in(ctx, a)
    d = norm_dim(ctx.int_(a.get("dim", -1), "dim"), x.rank)
    n = x.shape[d]
    if n is None or n % 2:
        raise Unsupported(f"glu along dim {d} of {x.type}: the dim must be static and even")
    first = ctx.slice_axis(x, d, 0, n // 2)
    second = ctx.slice_axis(x, d, n // 2, n)
    return b.binary("mul", first, b.unary("sigmoid", second))


@op("aten.one_hot")
def _one_hot(ctx, a):
    """compare(x[..., None] == arange(num_classes)) as int64; num_classes
    must be given (-1 means "max + 1", a data-dependent shape)."""
    b, x = ctx.b, ctx.tensor(a.self)
    n = ctx.int_(a.get("num_classes", -1), "num_classes")
    if n < 0:
        raise Unsupported("one_hot without num_classes (its size would depend on the "
                          "data): pass num_classes")
    classes = b.constant(torch.arange(n, dtype=x.dtype))
    hot = b.compare("eq", b.reshape(x, [-1 if d is None else d for d in x.shape] + [1]
                                    if x.rank else [1]), classes)
    return b.cast(hot, torch.int64)


# ---------------------------------------------------------------------------
# Data movement
# ---------------------------------------------------------------------------

def _take_indices(ctx, x: Value, axis: int, indices: List[int]) -> Value:
    """``x`` gathered along ``axis`` at constant ``indices``."""
    return ctx.b.gather(x, ctx.b.constant(torch.tensor(indices, dtype=torch.int64)), axis)


@op("aten.flip")
def _flip(ctx, a):
    x = ctx.tensor(a.self)
    _static(x, "flip")
    for d in {norm_dim(ctx.int_(d, "dims"), x.rank) for d in a.dims}:
        if x.shape[d] > 1:
            x = _take_indices(ctx, x, d, list(range(x.shape[d] - 1, -1, -1)))
    return x


@op("aten.roll")
def _roll(ctx, a):
    """Each (shift, dim): the last ``shift`` entries moved to the front (two
    slices and a concat); no dims: the flattened tensor, reshaped back."""
    b, x = ctx.b, ctx.tensor(a.self)
    _static(x, "roll")
    shifts = ctx.ints(a.shifts, what="shifts")
    dims = ctx.ints(a.get("dims", []), what="dims")
    if not dims:
        flat = b.reshape(x, [-1])
        return b.reshape(_roll_axis(ctx, flat, 0, shifts[0]), list(x.shape))
    if len(shifts) != len(dims):
        raise Unsupported(f"roll with {len(shifts)} shifts for {len(dims)} dims")
    for s, d in zip(shifts, dims):
        x = _roll_axis(ctx, x, norm_dim(d, x.rank), s)
    return x


def _roll_axis(ctx, x: Value, d: int, shift: int) -> Value:
    n = x.shape[d]
    s = shift % n if n else 0
    if s == 0:
        return x
    return ctx.b.concat([ctx.slice_axis(x, d, n - s, n), ctx.slice_axis(x, d, 0, n - s)], d)


@op("aten.pixel_shuffle")
def _pixel_shuffle(ctx, a):
    """[*, C r^2, H, W] -> [*, C, H r, W r]: a reshape, a transpose, a
    reshape."""
    b, x = ctx.b, ctx.tensor(a.self)
    r = ctx.int_(a.upscale_factor, "upscale_factor")
    _static(x, "pixel_shuffle")
    *lead, c, h, w = x.shape
    if x.rank < 3 or c % (r * r):
        raise Unsupported(f"pixel_shuffle of {x.type} by {r}")
    k = len(lead)
    y = b.reshape(x, lead + [c // (r * r), r, r, h, w])
    y = b.transpose(y, list(range(k)) + [k, k + 3, k + 1, k + 4, k + 2])
    return b.reshape(y, lead + [c // (r * r), h * r, w * r])


@op("aten.pixel_unshuffle")
def _pixel_unshuffle(ctx, a):
    """[*, C, H r, W r] -> [*, C r^2, H, W]."""
    b, x = ctx.b, ctx.tensor(a.self)
    r = ctx.int_(a.downscale_factor, "downscale_factor")
    _static(x, "pixel_unshuffle")
    *lead, c, h, w = x.shape
    if x.rank < 3 or h % r or w % r:
        raise Unsupported(f"pixel_unshuffle of {x.type} by {r}")
    k = len(lead)
    y = b.reshape(x, lead + [c, h // r, r, w // r, r])
    y = b.transpose(y, list(range(k)) + [k, k + 2, k + 4, k + 1, k + 3])
    return b.reshape(y, lead + [c * r * r, h // r, w // r])


def _pad_indices(n: int, lo: int, hi: int, mode: str) -> List[int]:
    """The source index of each position of a dim of ``n`` padded by
    ``lo``/``hi`` in ``mode``."""
    def src(i: int) -> int:
        if mode == "replicate":
            return min(max(i, 0), n - 1)
        if mode == "circular":
            return i % n
        # reflect: the edge is not repeated
        period = 2 * (n - 1)
        i = abs(i) % period if period else 0
        return period - i if i >= n else i
    return [src(i) for i in range(-lo, n + hi)]


_PAD_OPS = {"aten.reflection_pad1d": "reflect", "aten.reflection_pad2d": "reflect",
            "aten.reflection_pad3d": "reflect", "aten.replication_pad1d": "replicate",
            "aten.replication_pad2d": "replicate", "aten.replication_pad3d": "replicate",
            "aten._pad_circular": "circular"}


def pad_gather(ctx, x: Value, pad: List[int], mode: str) -> Value:
    """``F.pad`` in mode reflect, replicate or circular: one gather with
    constant indices per padded dim (``pad`` pairs start at the last dim)."""
    _static(x, f"{mode} padding")
    if len(pad) % 2 or len(pad) // 2 > x.rank:
        raise Unsupported(f"bad pad list {pad}")
    if any(p < 0 for p in pad):
        raise Unsupported(f"negative {mode} padding is not supported")
    for i in range(len(pad) // 2):
        d = x.rank - 1 - i
        lo, hi = pad[2 * i], pad[2 * i + 1]
        n = x.shape[d]
        if not lo and not hi:
            continue
        if mode == "reflect" and (lo >= n or hi >= n):
            raise Unsupported(f"reflect padding ({lo}, {hi}) of a dim of {n}: each must be "
                              "less than the dim (PyTorch's rule)")
        if mode == "circular" and (lo > n or hi > n):
            raise Unsupported(f"circular padding ({lo}, {hi}) of a dim of {n}: each must be "
                              "at most the dim (PyTorch's rule)")
        x = _take_indices(ctx, x, d, _pad_indices(n, lo, hi, mode))
    return x


for _name, _mode in _PAD_OPS.items():
    op(_name)(lambda ctx, a, _m=_mode: pad_gather(
        ctx, ctx.tensor(a.self), ctx.ints(a.padding if "padding" in a else a.pad, what="pad"), _m))


@op("aten.diagonal", "aten.diagonal_copy")
def _diagonal(ctx, a):
    """The two dims moved last, flattened, and gathered at the diagonal's
    flat indices; the diagonal is the last dim of the result."""
    b, x = ctx.b, ctx.tensor(a.self)
    _static(x, "diagonal")
    off = ctx.int_(a.get("offset", 0), "offset")
    d1 = norm_dim(ctx.int_(a.get("dim1", 0), "dim1"), x.rank)
    d2 = norm_dim(ctx.int_(a.get("dim2", 1), "dim2"), x.rank)
    if d1 == d2:
        raise Unsupported("diagonal with dim1 == dim2")
    rest = [d for d in range(x.rank) if d not in (d1, d2)]
    y = b.transpose(x, rest + [d1, d2])
    rows, cols = x.shape[d1], x.shape[d2]
    r0, c0 = max(-off, 0), max(off, 0)
    n = max(min(rows - r0, cols - c0), 0)
    lead = [x.shape[d] for d in rest]
    if n == 0:
        return b.constant(torch.zeros(lead + [0], dtype=x.dtype))
    flat = b.reshape(y, lead + [rows * cols])
    return _take_indices(ctx, flat, len(lead), [(r0 + i) * cols + c0 + i for i in range(n)])


@op("aten.diag")
def _diag(ctx, a):
    """A matrix's ``diagonal``-th diagonal, or the square matrix with a
    vector on it (constant indices and mask, one gather and a select)."""
    b, x = ctx.b, ctx.tensor(a.self)
    _static(x, "diag")
    k = ctx.int_(a.get("diagonal", 0), "diagonal")
    if x.rank == 2:
        rows, cols = x.shape
        r0, c0 = max(-k, 0), max(k, 0)
        n = max(min(rows - r0, cols - c0), 0)
        if n == 0:
            return b.constant(torch.zeros([0], dtype=x.dtype))
        flat = b.reshape(x, [rows * cols])
        return _take_indices(ctx, flat, 0, [(r0 + i) * cols + c0 + i for i in range(n)])
    if x.rank != 1:
        raise Unsupported(f"diag of {x.type}: 1-D or 2-D inputs")
    n = x.shape[0]
    m = n + abs(k)
    src = [[(r if k >= 0 else c) if c - r == k else 0 for c in range(m)] for r in range(m)]
    mask = torch.tensor([[c - r == k for c in range(m)] for r in range(m)])
    if n == 0:
        return b.constant(torch.zeros([m, m], dtype=x.dtype))
    values = b.reshape(_take_indices(ctx, x, 0, [i for row in src for i in row]), [m, m])
    return b.select(b.constant(mask), values, b.scalar(0, x.dtype))


# ---------------------------------------------------------------------------
# Reductions and products
# ---------------------------------------------------------------------------

def _var_mean(ctx, a, sqrt: bool):
    x = ctx.to_float(ctx.tensor(a.self))
    keep = bool(a.get("keepdim", False))
    axes = ctx.reduce_all_axes(x, a.get("dim"), keep)
    return _var(ctx, a, sqrt), ctx.b.reduce("mean", x, axes, keep)


op("aten.var_mean")(lambda ctx, a: _var_mean(ctx, a, False))
op("aten.std_mean")(lambda ctx, a: _var_mean(ctx, a, True))


@op("aten.linalg_vector_norm", "aten.norm")
def _vector_norm(ctx, a):
    """sum(|x|^p)^(1/p) over ``dim`` (all dims when None): p = 2 as
    sqrt(sum(x^2)), 1 as sum(|x|), inf/-inf as max/min(|x|), 0 as the
    count of nonzeros."""
    b = ctx.b
    x = ctx.to_float(ctx.tensor(a.self))
    if a.get("dtype") is not None:
        x = b.cast(x, ctx.dtype(a.dtype))
    p = a.get("ord", a.get("p", 2))
    p = 2.0 if p is None else ctx.float_(p, "ord")
    dims = a.get("dim")
    if is_static_int(dims):
        dims = [dims]
    keep = bool(a.get("keepdim", False))
    axes = ctx.reduce_all_axes(x, dims if dims else None, keep)
    ax = b.unary("abs", x)
    if p == math.inf:
        return b.reduce("max", ax, axes, keep)
    if p == -math.inf:
        return b.reduce("min", ax, axes, keep)
    if p == 0:
        return b.reduce("sum", b.cast(b.compare("ne", x, b.scalar(0.0, x.dtype)), x.dtype),
                        axes, keep)
    if p == 1:
        return b.reduce("sum", ax, axes, keep)
    if p == 2:
        return b.unary("sqrt", b.reduce("sum", b.binary("mul", x, x), axes, keep))
    s = b.reduce("sum", b.binary("pow", ax, b.scalar(p, x.dtype)), axes, keep)
    return b.binary("pow", s, b.scalar(1.0 / p, x.dtype))


@op("aten.baddbmm", "aten.addbmm")
def _baddbmm(ctx, a):
    """beta * input + alpha * (batch1 @ batch2); addbmm sums the batch."""
    b = ctx.b
    name = a.schema.name.split("::")[-1] if a.schema is not None else "baddbmm"
    x, b1, b2 = ctx.promote(a.self, a.batch1, a.batch2)
    prod = b.matmul(b1, b2)
    if name == "addbmm":
        prod = b.reduce("sum", prod, [0], False)
    alpha, beta = a.get("alpha", 1), a.get("beta", 1)
    if alpha != 1:
        prod = b.binary("mul", prod, ctx.tensor(alpha, prod.dtype))
    if beta == 0:  # input is ignored (a NaN in it does not propagate)
        shape = _bshape(x, prod)
        return prod if list(prod.shape) == shape else b.broadcast_to(prod, shape)
    if beta != 1:
        x = b.binary("mul", x, ctx.tensor(beta, x.dtype))
    return b.binary("add", x, prod)


@op("aten.cosine_similarity")
def _cosine_similarity(ctx, a):
    """sum((x1 / max(||x1||, eps)) * (x2 / max(||x2||, eps))) over ``dim``
    (PyTorch's formula since 1.12: each vector normalized first)."""
    b = ctx.b
    x1, x2 = ctx.promote(a.x1, a.x2, int_to_float=True)
    x1, x2 = b.broadcast_to(x1, _bshape(x1, x2)), b.broadcast_to(x2, _bshape(x1, x2))
    d = norm_dim(ctx.int_(a.get("dim", 1), "dim"), x1.rank)
    eps = b.scalar(ctx.float_(a.get("eps", 1e-8), "eps"), x1.dtype)

    def unit(v: Value) -> Value:
        n = b.unary("sqrt", b.reduce("sum", b.binary("mul", v, v), [d], True))
        return b.binary("div", v, b.binary("max", n, eps))

    return b.reduce("sum", b.binary("mul", unit(x1), unit(x2)), [d], False)


def _bshape(x: Value, y: Value) -> List[int]:
    from ...mlir_builder import broadcast_shapes
    shape = broadcast_shapes(x.shape, y.shape)
    if None in shape:
        raise Unsupported(f"broadcasting {x.type} and {y.type}: static shapes are "
                          "supported")
    return list(shape)


# ---------------------------------------------------------------------------
# 1-D pooling: the 2-D pools over a [N, C, 1, L] view
# ---------------------------------------------------------------------------

@op("aten.max_pool1d", "aten.max_pool1d_with_indices", "aten.avg_pool1d")
def _pool1d(ctx, a):
    b = ctx.b
    name = a.schema.name.split("::")[-1] if a.schema is not None else "max_pool1d"
    avg = name == "avg_pool1d"
    x = ctx.tensor(a.self)
    if avg:
        x = ctx.to_float(x)
    if x.rank not in (2, 3):
        raise Unsupported(f"{name} of {x.type}: 2-D or 3-D inputs")
    lead = list(x.shape[:-1])
    if None in x.shape[-2:]:
        raise Unsupported(f"{name} of {x.type}: static channel and length dims")
    k = ctx.ints(a.kernel_size, 1, "kernel_size")[0]
    stride = a.get("stride")
    s = ctx.ints(stride, 1, "stride")[0] if stride not in (None, [], ()) else k
    p = ctx.ints(a.get("padding", 0), 1, "padding")[0]
    x4 = b.reshape(x, [-1 if x.rank == 3 and x.shape[0] is None else
                       (x.shape[0] if x.rank == 3 else 1), x.shape[-2], 1, x.shape[-1]])
    if avg:
        cip = a.get("count_include_pad", True)
        y = b.pool2d("avg_pool2d", x4, kernel=[1, k], strides=[1, s], padding=[0, p, 0, p],
                     ceil_mode=bool(a.get("ceil_mode", False)),
                     count_include_pad=True if cip is None else bool(cip))
    else:
        d = ctx.ints(a.get("dilation", 1), 1, "dilation")[0]
        y = b.pool2d("max_pool2d", x4, kernel=[1, k], strides=[1, s], padding=[0, p, 0, p],
                     dilations=[1, d], ceil_mode=bool(a.get("ceil_mode", False)))
    out = [-1 if v is None else v for v in lead] + [y.shape[-1]]
    if name != "max_pool1d_with_indices":
        return b.reshape(y, out)
    indices = None
    if is_float(x.dtype) and None not in x4.shape:
        # The 2-D indices over a one-row plane are the positions along L.
        indices = b.reshape(composites.max_pool2d_indices(b, x4, y, [1, k], [1, s], [0, p, 0, p],
                                               [1, d]), out)
    return b.reshape(y, out), indices


# ---------------------------------------------------------------------------
# NaN-ignoring reductions, xlogy, heaviside, rrelu (eval), kl_div, erfinv
# ---------------------------------------------------------------------------

def _isnan(b, x: Value) -> Value:
    return b.compare("ne", x, x)


@op("aten.nansum", "aten.nanmean")
def _nansum(ctx, a):
    """sum / mean of the elements that are not NaN (0 where NaN); nanmean
    divides by their count (NaN where there are none, as in PyTorch)."""
    from .reductions import _sum_input
    b = ctx.b
    name = a.schema.name.split("::")[-1] if a.schema is not None else "nansum"
    x = _sum_input(ctx, ctx.tensor(_t(a)), a.get("dtype"))
    keep = bool(a.get("keepdim", False))
    axes = ctx.reduce_all_axes(x, a.get("dim"), keep)
    if not is_float(x.dtype):
        if name == "nanmean":
            raise Unsupported("nanmean of an integer tensor")
        return b.reduce("sum", x, axes, keep)
    nan = _isnan(b, x)
    s = b.reduce("sum", b.select(nan, b.scalar(0.0, x.dtype), x), axes, keep)
    if name == "nansum":
        return s
    count = b.reduce("sum", b.cast(b.compare("eq", x, x), x.dtype), axes, keep)
    return b.binary("div", s, count)


@op("aten.xlogy", "aten.special_xlogy")
def _xlogy(ctx, a):
    """x * log(y), 0 where x == 0 unless y is NaN."""
    b = ctx.b
    x, y = ctx.promote(_t(a), a.other, int_to_float=True)
    r = b.binary("mul", x, b.unary("log", y))
    zero = b.scalar(0.0, x.dtype)
    keep = b.compare("eq", x, zero)
    return b.select(keep, b.select(_isnan(b, y), y, b.broadcast_to(zero, _bshape(x, y))), r)


@op("aten.heaviside")
def _heaviside(ctx, a):
    """values where x == 0, else 1 where x > 0 and 0 elsewhere (NaN: 0)."""
    b = ctx.b
    x, v = ctx.promote(_t(a), a.get("values"))
    zero = b.scalar(0, x.dtype)
    step = b.cast(b.compare("gt", x, zero), x.dtype)
    return b.select(b.compare("eq", x, zero), v, step)


@op("aten.rrelu", "aten.rrelu_with_noise")
def _rrelu(ctx, a):
    """Evaluation mode: leaky ReLU with slope (lower + upper) / 2."""
    if a.get("training") is True:
        raise Unsupported("rrelu in training mode (random slopes) is not supported")
    lower = ctx.float_(a.get("lower", 1.0 / 8), "lower")
    upper = ctx.float_(a.get("upper", 1.0 / 3), "upper")
    return ctx.b.unary("leaky_relu", ctx.to_float(ctx.tensor(_t(a))),
                       {"alpha": (lower + upper) / 2})


@op("aten.kl_div")
def _kl_div(ctx, a):
    """target * (log(target) - input) (0 where target == 0), or
    exp(target) * (target - input) with ``log_target``; reduction 0 none,
    1 mean, 2 sum (F.kl_div's 'batchmean' is sum / batch, in Python)."""
    b = ctx.b
    x, t = ctx.promote(_t(a), a.target, int_to_float=True)
    if a.get("log_target", False):
        loss = b.binary("mul", b.unary("exp", t), b.binary("sub", t, x))
    else:
        zero = b.scalar(0.0, x.dtype)
        xlogx = b.binary("mul", t, b.unary("log", t))
        xlogx = b.select(b.compare("eq", t, zero), b.select(_isnan(b, t), t, zero), xlogx)
        loss = b.binary("sub", xlogx, b.binary("mul", t, x))
    reduction = ctx.int_(a.get("reduction", 1), "reduction")
    if reduction == 0:
        return loss
    return b.reduce("mean" if reduction == 1 else "sum", loss,
                    list(range(loss.rank)), False)


# Giles, "Approximating the erfinv function" (GPU Computing Gems, 2011):
# single-precision polynomials in w = -log((1 - x)(1 + x)).
_ERFINV_CENTRAL = [2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06,
                   0.00021858087, -0.00125372503, -0.00417768164, 0.246640727,
                   1.50140941]
_ERFINV_TAIL = [-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844,
                0.00573950773, -0.0076224613, 0.00943887047, 1.00167406, 2.83297682]


@op("aten.erfinv", "aten.special_erfinv")
def _erfinv(ctx, a):
    """Giles' single-precision approximation, then one Newton step on
    erf(y) = x; +-inf at +-1, NaN outside [-1, 1]."""
    b = ctx.b
    x = _float_in(ctx, a)
    dt = x.dtype
    c = lambda v: b.scalar(v, dt)
    one = c(1.0)
    w = b.unary("neg", b.unary("log", b.binary("mul", b.binary("sub", one, x),
                                                 b.binary("add", one, x))))

    def horner(coeffs, t):
        p = c(coeffs[0])
        for k in coeffs[1:]:
            p = b.binary("add", c(k), b.binary("mul", p, t))
        return p

    central = horner(_ERFINV_CENTRAL, b.binary("sub", w, c(2.5)))
    tail = horner(_ERFINV_TAIL, b.binary("sub", b.unary("sqrt", w), c(3.0)))
    y = b.binary("mul", b.select(b.compare("lt", w, c(5.0)), central, tail), x)
    # Newton: y -= (erf(y) - x) / (2 / sqrt(pi) * exp(-y^2)).
    deriv = b.binary("mul", c(2.0 / math.sqrt(math.pi)),
                     b.unary("exp", b.unary("neg", b.binary("mul", y, y))))
    y = b.binary("sub", y, b.binary("div", b.binary("sub", b.unary("erf", y), x), deriv))
    inf = c(math.inf)
    y = b.select(b.compare("eq", x, one), inf, y)
    return b.select(b.compare("eq", x, c(-1.0)), b.unary("neg", inf), y)


# ---------------------------------------------------------------------------
# Distances
# ---------------------------------------------------------------------------

def _p_norm(ctx, d: Value, p: float, axis: int) -> Value:
    """The p-norm of ``d`` over ``axis`` (p = 0: the nonzero count, inf:
    the max)."""
    b = ctx.b
    zero = b.scalar(0.0, d.dtype)
    if p == 0:
        return b.reduce("sum", b.cast(b.compare("ne", d, zero), d.dtype), [axis], False)
    a = b.unary("abs", d)
    if math.isinf(p):
        return b.reduce("max", a, [axis], False)
    if p == 1:
        return b.reduce("sum", a, [axis], False)
    if p == 2:
        return b.unary("sqrt", b.reduce("sum", b.binary("mul", d, d), [axis], False))
    s = b.reduce("sum", b.binary("pow", a, b.scalar(p, d.dtype)), [axis], False)
    return b.binary("pow", s, b.scalar(1.0 / p, d.dtype))


@op("aten.cdist", "aten._cdist_forward", "aten._euclidean_dist")
def _cdist(ctx, a):
    """Pairwise p-norm distances of the rows of x1 [..., P, M] and x2
    [..., R, M], from the differences directly (PyTorch's matrix-product
    form for p = 2 and long inputs is faster and less accurate)."""
    b = ctx.b
    x1, x2 = ctx.promote(a.x1, a.x2, int_to_float=True)
    p = ctx.float_(a.get("p", 2.0), "p")
    if x1.rank < 2 or x2.rank < 2 or None in x1.shape[-2:] or None in x2.shape[-2:]:
        raise Unsupported(f"cdist of {x1.type} and {x2.type}")
    lead1, lead2 = list(x1.shape[:-2]), list(x2.shape[:-2])
    (pn, m), (rn, _) = x1.shape[-2:], x2.shape[-2:]
    d = b.binary("sub", ctx.reshape_dims(x1, lead1 + [pn, 1, m]),
                 ctx.reshape_dims(x2, lead2 + [1, rn, m]))
    return _p_norm(ctx, d, p, d.rank - 1)


@op("aten.pdist", "aten._pdist_forward")
def _pdist(ctx, a):
    """The distances of the row pairs i < j of x [N, M], in row-major
    order of the pairs."""
    b = ctx.b
    x = ctx.to_float(ctx.tensor(_t(a)))
    p = ctx.float_(a.get("p", 2.0), "p")
    if x.rank != 2 or None in x.shape:
        raise Unsupported(f"pdist of {x.type}: a static 2-D input")
    n = x.shape[0]
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    if not pairs:
        return b.splat(0.0, x.dtype, [0])
    rows = lambda k: b.gather(x, b.constant(torch.tensor([q[k] for q in pairs])), 0)
    return _p_norm(ctx, b.binary("sub", rows(0), rows(1)), p, 1)


# ---------------------------------------------------------------------------
# im2col (F.unfold)
# ---------------------------------------------------------------------------

@op("aten.im2col")
def _im2col(ctx, a):
    """[N, C, H, W] -> [N, C * kh * kw, L]: for each kernel offset (i, j) the
    strided window origins of the zero-padded input, channel-major then
    offset order, as torch.nn.functional.unfold."""
    b = ctx.b
    x = ctx.tensor(a.self)
    unbatched = x.rank == 3
    if unbatched:
        x = ctx.reshape_dims(x, [1] + list(x.shape))
    n, c, h, w = x.shape
    if None in (c, h, w):
        raise Unsupported(f"im2col of {x.type}: static channel and spatial dims")
    kh, kw = ctx.ints(a.kernel_size, 2, "kernel_size")
    dh, dw = ctx.ints(a.dilation, 2, "dilation")
    ph, pw = ctx.ints(a.padding, 2, "padding")
    sh, sw = ctx.ints(a.stride, 2, "stride")
    if ph or pw:
        x = b.pad(x, [0, 0, ph, pw], [0, 0, ph, pw], 0.0)
    hp, wp = h + 2 * ph, w + 2 * pw
    oh = (hp - dh * (kh - 1) - 1) // sh + 1
    ow = (wp - dw * (kw - 1) - 1) // sw + 1
    if oh <= 0 or ow <= 0:
        raise Unsupported(f"im2col of {x.type}: no window fits")
    taps = []
    for i in range(kh):
        rows = ctx.slice_axis(x, 2, i * dh, i * dh + sh * (oh - 1) + 1, sh)
        for j in range(kw):
            t = ctx.slice_axis(rows, 3, j * dw, j * dw + sw * (ow - 1) + 1, sw)
            taps.append(ctx.reshape_dims(t, [n, c, 1, oh * ow]))
    y = taps[0] if len(taps) == 1 else b.concat(taps, 2)      # [N, C, K, L]
    y = ctx.reshape_dims(y, [n, c * kh * kw, oh * ow])
    return ctx.reshape_dims(y, list(y.shape[1:])) if unbatched else y


# ---------------------------------------------------------------------------
# Prefix scans as masked reductions: cummax, cummin, logcumsumexp
# ---------------------------------------------------------------------------

def _prefix(ctx, x: Value, axis: int):
    """x with ``axis`` moved last and an [..., n (i), n (j)] view of it
    (x[..., j] for every i) and the mask j <= i."""
    b = ctx.b
    _static(x, "a prefix scan")
    n = x.shape[axis]
    perm = [d for d in range(x.rank) if d != axis] + [axis]
    xt = b.transpose(x, perm) if axis != x.rank - 1 else x
    lead = list(xt.shape[:-1])
    xj = b.broadcast_to(ctx.reshape_dims(xt, lead + [1, n]), lead + [n, n])
    idx = b.constant(torch.arange(n, dtype=torch.int64))
    mask = b.compare("le", ctx.reshape_dims(idx, [1, n]), ctx.reshape_dims(idx, [n, 1]))
    back = None if axis == x.rank - 1 else \
        [perm.index(d) for d in range(x.rank)]
    return xt, xj, b.broadcast_to(mask, lead + [n, n]), idx, back


def _fill_low(b, dtype) -> Value:
    if is_float(dtype):
        return b.scalar(-math.inf, dtype)
    if dtype == torch.bool:
        return b.scalar(False, dtype)
    return b.scalar(torch.iinfo(dtype).min, dtype)


@op("aten.cummax", "aten.cummin")
def _cummax(ctx, a):
    """Running max (min) along ``dim`` and the index of the last element
    equal to it (PyTorch's >= rule); a NaN, once seen, stays the value
    with the last NaN's index."""
    b = ctx.b
    name = a.schema.name.split("::")[-1] if a.schema is not None else "cummax"
    x = ctx.tensor(_t(a))
    if x.rank == 0:
        return x, b.splat(0, torch.int64, [])
    axis = norm_dim(ctx.int_(a.dim, "dim"), x.rank)
    work = x if name == "cummax" else b.unary("neg", x) if x.dtype != torch.bool else \
        b.binary("bitwise_xor", x, b.scalar(True, x.dtype))
    xt, xj, mask, idx, back = _prefix(ctx, work, axis)
    n = xt.shape[-1]
    m = b.reduce("max", b.select(mask, xj, _fill_low(b, xt.dtype)), [xt.rank], True)
    hit = b.compare("eq", xj, m)
    if is_float(x.dtype):
        nan_j = _isnan(b, xj)
        nan_before = b.select(mask, nan_j, b.scalar(False, torch.bool))
        seen = b.reduce("max", b.cast(nan_before, torch.int32), [xt.rank], True)
        seen = b.compare("gt", seen, b.scalar(0, torch.int32))
        m = b.select(seen, b.scalar(math.nan, x.dtype), m)
        hit = b.select(b.broadcast_to(seen, list(mask.type.shape)), nan_j, hit)
    jj = b.broadcast_to(ctx.reshape_dims(idx, [1] * (xt.rank - 1) + [1, n]), list(mask.type.shape))
    take = b.select(mask, hit, b.scalar(False, torch.bool))
    where = b.reduce("max", b.select(take, jj, b.scalar(-1, torch.int64)), [xt.rank], False)
    values = ctx.reshape_dims(m, list(xt.shape))
    if name == "cummin":
        values = b.unary("neg", values) if x.dtype != torch.bool else \
            b.binary("bitwise_xor", values, b.scalar(True, x.dtype))
    if back is not None:
        values, where = b.transpose(values, back), b.transpose(where, back)
    return values, where


@op("aten.logcumsumexp", "aten.special_logcumsumexp")
def _logcumsumexp(ctx, a):
    """log(sum_{j <= i} exp(x_j)), each prefix shifted by its own max (so
    that very different magnitudes do not underflow)."""
    b = ctx.b
    x = _float_in(ctx, a)
    if x.rank == 0:
        return x
    axis = norm_dim(ctx.int_(a.dim, "dim"), x.rank)
    xt, xj, mask, _, back = _prefix(ctx, x, axis)
    low = b.scalar(-math.inf, x.dtype)
    vals = b.select(mask, xj, low)
    m = b.reduce("max", vals, [xt.rank], True)
    shift = b.select(b.compare("eq", m, low), b.scalar(0.0, x.dtype), m)
    s = b.reduce("sum", b.unary("exp", b.binary("sub", vals, shift)), [xt.rank], True)
    y = ctx.reshape_dims(b.binary("add", b.unary("log", s), shift), list(xt.shape))
    return b.transpose(y, back) if back is not None else y


# ---------------------------------------------------------------------------
# masked_scatter, searchsorted
# ---------------------------------------------------------------------------

@op("aten.masked_scatter")
def _masked_scatter(ctx, a):
    """The positions where ``mask`` (broadcast to x) is true, in row-major
    order, take source's elements in order: a gather of the flattened
    source at the running count of the mask."""
    b = ctx.b
    x = ctx.tensor(a.self)
    mask = ctx.tensor(a.mask)
    src = ctx.tensor(a.source, x.dtype)
    _static(x, "masked_scatter")
    _static(src, "masked_scatter")
    shape = list(x.shape)
    mask = b.broadcast_to(mask, shape) if list(mask.shape) != shape else mask
    total = math.prod(shape)
    flat_mask = ctx.reshape_dims(mask, [total])
    pos = b.binary("sub", b.cumsum(b.cast(flat_mask, torch.int64), 0),
                   b.scalar(1, torch.int64))
    pos = b.binary("max", pos, b.scalar(0, torch.int64))
    n_src = math.prod(src.shape)
    if n_src == 0:
        return x
    pos = b.binary("min", pos, b.scalar(n_src - 1, torch.int64))
    taken = b.gather(ctx.reshape_dims(src, [n_src]), pos, 0)
    return b.select(mask, ctx.reshape_dims(taken, shape), x)


@op("aten.searchsorted", "aten.searchsorted.Scalar")
def _searchsorted(ctx, a):
    """Insertion points of ``self`` (values) into the sorted last dim of
    ``sorted_sequence`` (1-D, or with the values' leading dims): the count
    of elements < v (<= v with ``right``/side='right'); NaN values go
    last."""
    b = ctx.b
    seq = ctx.tensor(a.sorted_sequence)
    v = ctx.tensor(a.self, seq.dtype)
    if a.get("sorter") is not None:
        raise Unsupported("searchsorted with sorter is not supported")
    right = bool(a.get("right", False)) or a.get("side") == "right"
    if None in seq.shape or None in v.shape:
        raise Unsupported("searchsorted: static shapes are supported")
    s = seq.shape[-1]
    if seq.rank == 1:
        view = ctx.reshape_dims(seq, [1] * v.rank + [s])
    elif list(seq.shape[:-1]) == list(v.shape[:-1]):
        view = ctx.reshape_dims(seq, list(seq.shape[:-1]) + [1, s])
    else:
        raise Unsupported(f"searchsorted of {v.type} into {seq.type}")
    vv = ctx.reshape_dims(v, list(v.shape) + [1])
    count = b.reduce("sum", b.cast(b.compare("le" if right else "lt", view, vv),
                                   torch.int64), [v.rank], False)
    if is_float(v.dtype):
        count = b.select(_isnan(b, v), b.scalar(s, torch.int64), count)
    if a.get("out_int32", False):
        count = b.cast(count, torch.int32)
    return count


# ---------------------------------------------------------------------------
# col2im (F.fold), histc
# ---------------------------------------------------------------------------

@op("aten.col2im")
def _col2im(ctx, a):
    """torch.nn.functional.fold: composites.col2im."""
    x = ctx.tensor(a.self)
    unbatched = x.rank == 2
    if unbatched:
        x = ctx.reshape_dims(x, [1] + list(x.shape))
    ph, pw = ctx.ints(a.padding, 2, "padding")
    out = composites.col2im(ctx.b, x, ctx.ints(a.output_size, 2, "output_size"),
                            ctx.ints(a.kernel_size, 2, "kernel_size"),
                            ctx.ints(a.dilation, 2, "dilation"), [ph, pw, ph, pw],
                            ctx.ints(a.stride, 2, "stride"))
    return ctx.reshape_dims(out, list(out.shape[1:])) if unbatched else out


@op("aten.histc")
def _histc(ctx, a):
    """Counts of x in ``bins`` equal bins over [min, max] (the data's range
    when min == max); the last bin includes max; values outside, and NaN,
    are not counted."""
    b = ctx.b
    x = ctx.to_float(ctx.tensor(_t(a)))
    _static(x, "histc")
    bins = ctx.int_(a.get("bins", 100), "bins")
    lo, hi = ctx.float_(a.get("min", 0), "min"), ctx.float_(a.get("max", 0), "max")
    flat = ctx.reshape_dims(x, [math.prod(x.shape)])
    dt = x.dtype
    if lo == hi:
        finite = b.compare("eq", flat, flat)
        lo_v = b.reduce("min", b.select(finite, flat, b.scalar(math.inf, dt)), [0], False)
        hi_v = b.reduce("max", b.select(finite, flat, b.scalar(-math.inf, dt)), [0], False)
        if lo != 0 or hi != 0:
            lo_v, hi_v = b.scalar(lo, dt), b.scalar(hi, dt)
        same = b.compare("eq", lo_v, hi_v)
        lo_v = b.select(same, b.binary("sub", lo_v, b.scalar(1.0, dt)), lo_v)
        hi_v = b.select(same, b.binary("add", hi_v, b.scalar(1.0, dt)), hi_v)
    else:
        lo_v, hi_v = b.scalar(lo, dt), b.scalar(hi, dt)
    inside = b.binary("bitwise_and", b.compare("ge", flat, lo_v), b.compare("le", flat, hi_v))
    # bin = floor((x - lo) * bins / (hi - lo)), max in the last bin.
    scaled = b.binary("div", b.binary("mul", b.binary("sub", flat, lo_v), b.scalar(float(bins), dt)),
                      b.binary("sub", hi_v, lo_v))
    k = b.cast(scaled, torch.int64)
    k = b.binary("min", k, b.scalar(bins - 1, torch.int64))
    k = b.select(inside, k, b.scalar(-1, torch.int64))
    ids = b.constant(torch.arange(bins, dtype=torch.int64))
    hits = b.compare("eq", ctx.reshape_dims(k, [flat.shape[0], 1]), ctx.reshape_dims(ids, [1, bins]))
    return b.reduce("sum", b.cast(hits, dt), [0], False)
