"""ATen op mappings: reductions and softmax (the registry and the
emission context are in :mod:`.core`)."""

from __future__ import annotations

import math
from typing import Tuple

import torch

from ...errors import Unsupported
from ..dtypes import Value, is_float
from .core import norm_dim, op


# ---------------------------------------------------------------------------
# Reductions
# ---------------------------------------------------------------------------

def _sum_input(ctx, x: Value, dtype) -> Value:
    dtype = ctx.dtype(dtype)
    if dtype is not None:
        return ctx.b.cast(x, dtype)
    return x if is_float(x.dtype) or x.dtype == torch.int64 else ctx.b.cast(x, torch.int64)


@op("aten.sum")
def _sum(ctx, a):
    x = _sum_input(ctx, ctx.tensor(a.self), a.get("dtype"))
    keep = bool(a.get("keepdim", False))
    return ctx.b.reduce("sum", x, ctx.reduce_all_axes(x, a.get("dim"), keep), keep)


@op("aten.mean")
def _mean(ctx, a):
    x = ctx.tensor(a.self)
    dt = ctx.dtype(a.get("dtype"))
    x = ctx.b.cast(x, dt) if dt is not None else x
    if not is_float(x.dtype):
        raise Unsupported("mean of an integer tensor")
    keep = bool(a.get("keepdim", False))
    return ctx.b.reduce("mean", x, ctx.reduce_all_axes(x, a.get("dim"), keep), keep)


def _minmax_reduce(kind: str):
    def fn(ctx, a):
        x = ctx.tensor(a.self)
        if x.dtype == torch.bool:
            return ctx.b.cast(fn_inner(ctx, ctx.b.cast(x, torch.int32), a), torch.bool)
        return fn_inner(ctx, x, a)

    def fn_inner(ctx, x, a):
        keep = bool(a.get("keepdim", False))
        return ctx.b.reduce(kind, x, ctx.reduce_all_axes(x, a.get("dim"), keep), keep)
    return fn


op("aten.amax", "aten.max.default")(_minmax_reduce("max"))
op("aten.amin", "aten.min.default")(_minmax_reduce("min"))


def _argmax(ctx, x: Value, dim, keepdim: bool, largest: bool = True) -> Value:
    b = ctx.b
    if x.dtype == torch.bool:
        x = b.cast(x, torch.int32)
    if not largest:
        # Integers: -x - 1 (~x) reverses the order of every value, signed or
        # unsigned, without the overflow of -INT_MIN (or 0 of an unsigned).
        x = b.unary("neg", x)
        if not is_float(x.dtype):
            x = b.binary("sub", x, ctx.tensor(1, x.dtype))
    if dim is None:
        flat = ctx.reshape_dims(x, [None if None in x.shape else math.prod(x.shape)])
        r = b.argmax(flat, 0)
        return ctx.b.reshape(r, [1] * x.rank) if keepdim else r
    return b.argmax(x, norm_dim(ctx.int_(dim, "dim"), x.rank), keepdim)


@op("aten.argmax")
def _argmax_op(ctx, a):
    return _argmax(ctx, ctx.tensor(a.self), a.get("dim"), bool(a.get("keepdim", False)))


@op("aten.argmin")
def _argmin_op(ctx, a):
    return _argmax(ctx, ctx.tensor(a.self), a.get("dim"), bool(a.get("keepdim", False)),
                   largest=False)


@op("aten.topk")
def _topk(ctx, a):
    x = ctx.tensor(a.self)
    d = norm_dim(ctx.int_(a.get("dim", -1), "dim"), x.rank)
    return ctx.b.topk(x, ctx.int_(a.k, "k"), d, bool(a.get("largest", True)))


@op("aten.max.dim")
def _max_dim(ctx, a):
    x = ctx.tensor(a.self)
    d, keep = norm_dim(ctx.int_(a.dim, "dim"), x.rank), bool(a.get("keepdim", False))
    return (ctx.b.reduce("max", x, [d], keep), _argmax(ctx, x, d, keep))


@op("aten.min.dim")
def _min_dim(ctx, a):
    x = ctx.tensor(a.self)
    d, keep = norm_dim(ctx.int_(a.dim, "dim"), x.rank), bool(a.get("keepdim", False))
    return (ctx.b.reduce("min", x, [d], keep), _argmax(ctx, x, d, keep, largest=False))


def _any_all(kind: str):
    def fn(ctx, a):
        x = ctx.b.cast(ctx.to_bool(a.self), torch.int32)
        keep = bool(a.get("keepdim", False))
        dims = a.get("dim")
        axes = ctx.reduce_all_axes(x, dims, keep)
        return ctx.b.cast(ctx.b.reduce(kind, x, axes, keep), torch.bool)
    return fn


op("aten.any")(_any_all("max"))
op("aten.all")(_any_all("min"))


#: prod over at most this many elements per output is unrolled into muls.
_PROD_LIMIT = 64


@op("aten.prod")
def _prod(ctx, a):
    """prod as a tree of multiplications of the slices along each reduced
    axis (graph.reduce has no product)."""
    b = ctx.b
    x = _sum_input(ctx, ctx.tensor(a.self), a.get("dtype"))
    keep = bool(a.get("keepdim", False))
    axes = ctx.reduce_all_axes(x, a.get("dim"), keep)
    sizes = [x.shape[d] for d in axes]
    if None in sizes or math.prod(sizes) > _PROD_LIMIT:
        raise Unsupported(f"prod over more than {_PROD_LIMIT} elements (or a dynamic "
                          "dim) is not supported")
    for d in axes:
        parts = [ctx.slice_axis(x, d, i, i + 1) for i in range(x.shape[d])]
        while len(parts) > 1:
            parts = [b.binary("mul", parts[i], parts[i + 1]) if i + 1 < len(parts)
                     else parts[i] for i in range(0, len(parts), 2)]
        x = parts[0] if parts else ctx.full(
            [1 if i == d else s for i, s in enumerate(x.shape)], 1, x.dtype)
    return x if keep else ctx.reshape_dims(
        x, [s for i, s in enumerate(x.shape) if i not in axes])


@op("aten.cumsum")
def _cumsum(ctx, a):
    x = _sum_input(ctx, ctx.tensor(a.self), a.get("dtype"))
    return ctx.b.cumsum(x, norm_dim(ctx.int_(a.dim, "dim"), x.rank))


@op("aten.cumprod")
def _cumprod(ctx, a):
    # Integer and bool inputs are multiplied in int64, as sum's are.
    x = _sum_input(ctx, ctx.tensor(a.self), a.get("dtype"))
    return ctx.b.cumprod(x, norm_dim(ctx.int_(a.dim, "dim"), x.rank))


def _var(ctx, a, sqrt: bool) -> Value:
    b = ctx.b
    x = ctx.to_float(ctx.tensor(a.self))
    keep = bool(a.get("keepdim", False))
    axes = ctx.reduce_all_axes(x, a.get("dim"), keep)
    if "correction" in a:
        corr = a.get("correction", 1)
        corr = 1 if corr is None else ctx.float_(corr, "correction")
    else:
        corr = 1.0 if a.get("unbiased", True) else 0.0
    dims = [x.shape[i] for i in axes]
    if None in dims:
        raise Unsupported("var/std over a dynamic dim")
    n = math.prod(dims)
    mean = b.reduce("mean", x, axes, True)
    d = b.binary("sub", x, mean)
    s = b.reduce("sum", b.binary("mul", d, d), axes, keep)
    v = b.binary("div", s, b.scalar(float(max(n - corr, 0)), x.dtype))
    return b.unary("sqrt", v) if sqrt else v


op("aten.var")(lambda ctx, a: _var(ctx, a, False))
op("aten.std")(lambda ctx, a: _var(ctx, a, True))


@op("aten.logsumexp")
def _logsumexp(ctx, a):
    b = ctx.b
    x = ctx.to_float(ctx.tensor(a.self))
    keep = bool(a.get("keepdim", False))
    axes = ctx.reduce_all_axes(x, a.get("dim"), keep)
    m = b.reduce("max", x, axes, True)
    s = b.reduce("sum", b.unary("exp", b.binary("sub", x, m)), axes, True)
    r = b.binary("add", b.unary("log", s), m)
    return r if keep else ctx.reshape_dims(r, [d for i, d in enumerate(r.shape) if i not in axes])


# ---------------------------------------------------------------------------
# Softmax
# ---------------------------------------------------------------------------

def _softmax_input(ctx, a) -> Tuple[Value, int]:
    x = ctx.tensor(a.self)
    dt = ctx.dtype(a.get("dtype"))
    if dt is not None:
        x = ctx.b.cast(x, dt)
    elif a.get("half_to_float"):
        x = ctx.b.cast(x, torch.float32)
    x = ctx.to_float(x)
    return x, norm_dim(ctx.int_(a.dim, "dim"), x.rank)


@op("aten.softmax", "aten._softmax", "aten.special_softmax")
def _softmax(ctx, a):
    x, d = _softmax_input(ctx, a)
    if x.rank == 0:
        return ctx.b.scalar(1.0, x.dtype)
    return ctx.b.softmax(x, d)


@op("aten.log_softmax", "aten._log_softmax", "aten.special_log_softmax")
def _log_softmax(ctx, a):
    # x - max - log(sum(exp(x - max))), as stable as torch's kernel.
    b = ctx.b
    x, d = _softmax_input(ctx, a)
    shifted = b.binary("sub", x, b.reduce("max", x, [d], True))
    lse = b.unary("log", b.reduce("sum", b.unary("exp", shifted), [d], True))
    return b.binary("sub", shifted, lse)
