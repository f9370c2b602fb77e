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

def _static(x: Value, what: str) -> None:
    if not x.type.is_static:
        raise Unsupported(f"{what} of {x.type}: static shapes are supported")


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
    y = b.reshape(y, out)
    return (y, None) if name == "max_pool1d_with_indices" else y
