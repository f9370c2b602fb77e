"""Sorting and order statistics: sort, argsort, msort, kthvalue, median and
quantile, all from one rank computation.

The rank of element i along the sorted dim is the number of elements that
come before it: those that compare less (greater, descending), with NaN
after every number (before, descending: PyTorch's order), and equal
elements at a lower index (so equal elements keep their order: a stable
sort). Each element is then scattered to its rank. That is one pass over an
n x n comparison per row, not n passes, emitted so that fusion makes the whole
count one reduction (no n x n intermediate in memory). Correct for any
length, but the work grows with n^2: 4 rows of 4000 take ~10 ms where
eager PyTorch takes 0.9 ms (with the terms unfused, 0.86 s). Meant for the
short rows models sort (candidate lists, scores of a few hundred); a row
longer than 2048 gets a warning at import. A dedicated sort op is the fix
for long rows (vocabulary-sized top-p)."""

from __future__ import annotations

import math
import warnings
from typing import Tuple

import torch

from ...errors import Unsupported
from ..dtypes import Value, is_float
from .core import _t, norm_dim, op


# Rows longer than this get a warning at import: the rank computation's
# work grows with the square of the row.
_QUADRATIC_WARNING = 2048


def _to_last(ctx, x: Value, axis: int) -> Value:
    if axis == x.rank - 1:
        return x
    perm = [d for d in range(x.rank) if d != axis] + [axis]
    return ctx.b.transpose(x, perm)


def _from_last(ctx, x: Value, axis: int) -> Value:
    if axis == x.rank - 1:
        return x
    perm = list(range(x.rank - 1))
    perm.insert(axis, x.rank - 1)
    return ctx.b.transpose(x, perm)


def sort_along(ctx, x: Value, axis: int, descending: bool = False) -> Tuple[Value, Value]:
    """``x`` sorted along ``axis`` (stable; NaN largest) and the i64
    indices of the sorted elements."""
    b = ctx.b
    if None in x.shape:
        raise Unsupported(f"sorting {x.type}: static shapes are supported")
    n = x.shape[axis] if x.rank else 1
    if x.dtype == torch.bool:
        x = b.cast(x, torch.int32)
    if x.rank == 0 or n <= 1:
        return x, b.splat(0, torch.int64, list(x.shape))
    if n > _QUADRATIC_WARNING:
        warnings.warn(
            f"graphopt: sorting {n} elements per row ({x.type}) with an n x n "
            f"comparison: {n * n:.1e} comparisons per row (the sort is meant for "
            f"rows up to a few thousand elements)", stacklevel=2)
    xt = _to_last(ctx, x, axis)
    lead = list(xt.shape[:-1])
    xi = ctx.reshape_dims(xt, lead + [n, 1])   # the element ranked
    xj = ctx.reshape_dims(xt, lead + [1, n])   # the others
    i64 = torch.int64

    def flag(c: Value) -> Value:  # i1 -> 0/1 in i64, to count
        return b.cast(c, i64)

    one = b.scalar(1, i64)
    idx = b.constant(torch.arange(n, dtype=i64))
    if is_float(x.dtype):
        nan_i, nan_j = flag(b.compare("ne", xi, xi)), flag(b.compare("ne", xj, xj))
        first, second = (nan_j, nan_i) if descending else (nan_i, nan_j)
    # The n x n terms, emitted so that in each add the second operand's ops
    # come first: the fusion planner (which keeps groups convex by program
    # position) then puts the whole count into the reduction's loop nest
    # instead of materializing n x n intermediates.
    # Equal elements at a lower index come first (a stable order); NaNs are
    # equal to each other.
    lower = flag(b.compare("lt", ctx.reshape_dims(idx, [1, n]),
                           ctx.reshape_dims(idx, [n, 1])))
    if is_float(x.dtype):
        both_nan = b.binary("mul", nan_i, nan_j)
        equal = b.binary("add", flag(b.compare("eq", xj, xi)), both_nan)
    else:
        equal = flag(b.compare("eq", xj, xi))
    ties = b.binary("mul", equal, lower)
    # Smaller (larger, descending) elements; NaN is the largest: after every
    # number ascending, before it descending.
    if is_float(x.dtype):
        nan_order = b.binary("mul", first, b.binary("sub", one, second))
        before = b.binary("add", flag(b.compare("gt" if descending else "lt", xj, xi)),
                          nan_order)
    else:
        before = flag(b.compare("gt" if descending else "lt", xj, xi))
    before = b.binary("add", before, ties)
    rank = b.reduce("sum", before, [xt.rank], False)          # [..., n]
    # The ranks are a permutation of each row: the scatters write every
    # element.
    values = b.scatter(xt, rank, xt, xt.rank - 1)
    iota = b.broadcast_to(ctx.reshape_dims(idx, [1] * len(lead) + [n]), lead + [n])
    indices = b.scatter(iota, rank, iota, xt.rank - 1)
    return _from_last(ctx, values, axis), _from_last(ctx, indices, axis)


def _sort_args(ctx, a):
    x = ctx.tensor(_t(a))
    axis = norm_dim(ctx.int_(a.get("dim", -1), "dim"), max(x.rank, 1)) if x.rank else 0
    return x, axis, bool(a.get("descending", False))


@op("aten.sort", "aten.sort.stable")
def _sort(ctx, a):
    x, axis, descending = _sort_args(ctx, a)
    return sort_along(ctx, x, axis, descending)


@op("aten.argsort", "aten.argsort.stable")
def _argsort(ctx, a):
    x, axis, descending = _sort_args(ctx, a)
    return sort_along(ctx, x, axis, descending)[1]


@op("aten.msort")
def _msort(ctx, a):
    x = ctx.tensor(_t(a))
    return sort_along(ctx, x, 0)[0]


def _pick(ctx, v: Value, axis: int, k: int, keepdim: bool) -> Value:
    y = ctx.slice_axis(v, axis, k, k + 1)
    return y if keepdim else ctx.reshape_dims(y, [d for i, d in enumerate(y.shape)
                                                  if i != axis])


@op("aten.kthvalue")
def _kthvalue(ctx, a):
    """The k-th smallest along ``dim`` and its index (of the first of equal
    elements; PyTorch leaves which one unspecified)."""
    x = ctx.tensor(_t(a))
    axis = norm_dim(ctx.int_(a.get("dim", -1), "dim"), x.rank)
    k = ctx.int_(a.k, "k")
    n = x.shape[axis]
    if n is None or not 1 <= k <= n:
        raise Unsupported(f"kthvalue k = {k} of {x.type} along dim {axis}")
    values, indices = sort_along(ctx, x, axis)
    keep = bool(a.get("keepdim", False))
    return _pick(ctx, values, axis, k - 1, keep), _pick(ctx, indices, axis, k - 1, keep)


@op("aten.mode")
def _mode(ctx, a):
    """The most frequent value along ``dim`` (the smallest of equally
    frequent ones) and the index of its last occurrence, as PyTorch gives
    them: each element's count of equal elements (one n x n comparison per
    row), then the smallest value with the largest count. A row holding NaN
    may differ from PyTorch's (whose NaNs never compare equal there)."""
    b = ctx.b
    x = ctx.tensor(_t(a))
    axis = norm_dim(ctx.int_(a.get("dim", -1), "dim"), max(x.rank, 1)) if x.rank else 0
    keep = bool(a.get("keepdim", False))
    if x.rank == 0:
        return x, b.splat(0, torch.int64, [])
    n = x.shape[axis]
    if None in x.shape:
        raise Unsupported(f"mode of {x.type}: static shapes are supported")
    is_bool = x.dtype == torch.bool
    if is_bool:
        x = b.cast(x, torch.int32)
    xt = _to_last(ctx, x, axis)
    lead = list(xt.shape[:-1])
    last = len(lead)
    xi = ctx.reshape_dims(xt, lead + [n, 1])
    xj = ctx.reshape_dims(xt, lead + [1, n])
    i64 = torch.int64
    count = b.reduce("sum", b.cast(b.compare("eq", xj, xi), i64), [last + 1], False)
    best = b.reduce("max", count, [last], True)
    top = b.scalar(math.inf if is_float(x.dtype) else torch.iinfo(x.dtype).max, x.dtype)
    value = b.reduce("min", b.select(b.compare("eq", count, best), xt, top), [last], True)
    idx = b.constant(torch.arange(n, dtype=i64))
    where = b.select(b.compare("eq", xt, value), ctx.reshape_dims(idx, [1] * last + [n]),
                     b.scalar(-1, i64))
    index = b.reduce("max", where, [last], True)
    if keep:
        value, index = _from_last(ctx, value, axis), _from_last(ctx, index, axis)
    else:
        value = ctx.reshape_dims(value, lead)
        index = ctx.reshape_dims(index, lead)
    return (b.cast(value, torch.bool) if is_bool else value), index


def _any_nan(ctx, x: Value, axis: int, keepdim: bool) -> Value:
    b = ctx.b
    nan = b.cast(b.compare("ne", x, x), x.dtype)
    return b.compare("gt", b.reduce("max", nan, [axis], keepdim), b.scalar(0.0, x.dtype))


@op("aten.median", "aten.median.dim", "aten.nanmedian", "aten.nanmedian.dim")
def _median(ctx, a):
    """The lower median (element (n - 1) // 2 of the sorted dim; the whole
    tensor flattened without ``dim``) and, with ``dim``, its index.
    ``median`` is NaN where the dim holds a NaN (and indexes the first NaN);
    ``nanmedian`` leaves NaNs out."""
    b = ctx.b
    name = a.schema.name.split("::")[-1] if a.schema is not None else "median"
    x = ctx.tensor(_t(a))
    with_dim = "dim" in a and a.get("dim") is not None
    if not with_dim:
        if None in x.shape:
            raise Unsupported(f"{name} of {x.type}: static shapes are supported")
        x = ctx.reshape_dims(x, [math.prod(x.shape)])
        axis, keep = 0, False
    else:
        axis = norm_dim(ctx.int_(a.dim, "dim"), max(x.rank, 1))
        keep = bool(a.get("keepdim", False))
    if x.rank == 0:
        return x if not with_dim else (x, b.splat(0, torch.int64, []))
    n = x.shape[axis]
    if n is None or n == 0:
        raise Unsupported(f"{name} of {x.type} along dim {axis}")
    values, indices = sort_along(ctx, x, axis)
    if name == "nanmedian" and is_float(x.dtype):
        # The lower median of the numbers: position (count - 1) // 2.
        count = b.reduce("sum", b.cast(b.compare("eq", x, x), torch.int64), [axis], True)
        pos = b.binary("div", b.binary("sub", count, b.scalar(1, torch.int64)),
                       b.scalar(2, torch.int64))
        pos = b.binary("max", pos, b.scalar(0, torch.int64))
        v = b.gather_elements(values, pos, axis)
        i = b.gather_elements(indices, pos, axis)
        if not keep:
            shape = [d for k, d in enumerate(v.shape) if k != axis]
            v, i = ctx.reshape_dims(v, shape), ctx.reshape_dims(i, shape)
    else:
        v = _pick(ctx, values, axis, (n - 1) // 2, keep)
        i = _pick(ctx, indices, axis, (n - 1) // 2, keep)
        if is_float(x.dtype):
            # A NaN in the dim: the median is NaN (the sorted dim's last
            # element), its index the first NaN's.
            has_nan = _any_nan(ctx, x, axis, keep)
            v = b.select(has_nan, _pick(ctx, values, axis, n - 1, keep), v)
            first_nan = b.argmax(b.cast(b.compare("ne", x, x), torch.int32), axis, keep)
            i = b.select(has_nan, first_nan, i)
    return (v, i) if with_dim else v


@op("aten.quantile", "aten.quantile.scalar", "aten.nanquantile",
    "aten.nanquantile.scalar")
def _quantile(ctx, a):
    """Quantiles at constant ``q`` (a number or a 1-D constant tensor) with
    ``interpolation`` linear, lower, higher, nearest or midpoint, as
    ``torch.quantile`` defines them: position q * (n - 1) of the sorted dim
    (of the flattened tensor without ``dim``); NaN where the dim holds a NaN
    (``quantile``)."""
    b = ctx.b
    name = a.schema.name.split("::")[-1] if a.schema is not None else "quantile"
    if name == "nanquantile":
        raise Unsupported("nanquantile is not supported (quantile is)")
    x = ctx.tensor(_t(a))
    if not is_float(x.dtype):
        raise Unsupported(f"quantile of {x.type}: float tensors")
    q = a.q
    if isinstance(q, Value):
        if q.const is None:
            raise Unsupported("quantile with a run-time q: q must be a constant")
        qs, scalar_q = [float(v) for v in torch.as_tensor(q.const).reshape(-1)], q.rank == 0
    else:
        qs, scalar_q = [float(q)], True
    if any(not 0.0 <= v <= 1.0 for v in qs):
        raise Unsupported(f"quantile q = {qs}: q must be in [0, 1]")
    mode = a.get("interpolation", "linear")
    if mode not in ("linear", "lower", "higher", "nearest", "midpoint"):
        raise Unsupported(f"quantile interpolation={mode!r}")
    dim = a.get("dim")
    keep = bool(a.get("keepdim", False))
    if dim is None:
        if None in x.shape:
            raise Unsupported(f"quantile of {x.type}: static shapes are supported")
        rank0 = x.rank
        x, axis = ctx.reshape_dims(x, [math.prod(x.shape)]), 0
    else:
        axis = norm_dim(ctx.int_(dim, "dim"), max(x.rank, 1))
    n = x.shape[axis]
    if n is None or n == 0:
        raise Unsupported(f"quantile of {x.type} along dim {axis}")
    values = sort_along(ctx, x, axis)[0]
    has_nan = _any_nan(ctx, x, axis, True)
    nan = b.scalar(math.nan, x.dtype)
    outs = []
    for qv in qs:
        pos = qv * (n - 1)
        lo, hi = math.floor(pos), math.ceil(pos)
        frac = pos - lo
        if mode == "lower" or (mode == "nearest" and _round_half_even(pos) == lo):
            hi, frac = lo, 0.0
        elif mode == "higher" or mode == "nearest":
            lo, frac = hi, 0.0
        elif mode == "midpoint":
            frac = 0.5 if hi != lo else 0.0
        vlo = ctx.slice_axis(values, axis, lo, lo + 1)
        if hi == lo or frac == 0.0:
            y = vlo
        else:
            vhi = ctx.slice_axis(values, axis, hi, hi + 1)
            # torch.lerp: lo + frac * (hi - lo)
            y = b.binary("add", vlo, b.binary("mul", b.scalar(frac, x.dtype),
                                              b.binary("sub", vhi, vlo)))
        outs.append(b.select(has_nan, nan, y))
    y = outs[0] if len(outs) == 1 else b.concat(outs, axis)
    if dim is None:
        # torch: the quantiles of the flattened tensor; keepdim keeps every
        # dim as 1.
        ones = [1] * rank0 if keep else []
        return ctx.reshape_dims(y, ones if scalar_q else [len(qs)] + ones)
    if scalar_q:
        return y if keep else ctx.reshape_dims(
            y, [d for k, d in enumerate(y.shape) if k != axis])
    # q of shape [Q]: the quantiles are a new leading dim.
    y = _to_front(ctx, y, axis)                     # [Q, ..., 1, ...] or [Q, ...]
    if not keep:
        y = ctx.reshape_dims(y, [d for k, d in enumerate(y.shape) if k != axis + 1])
    return y


def _to_front(ctx, y: Value, axis: int) -> Value:
    """[..., Q (at axis), ...] -> [Q, ..., 1 (at axis + 1), ...]."""
    shape = list(y.shape)
    q = shape[axis]
    perm = [axis] + [d for d in range(y.rank) if d != axis]
    y = ctx.b.transpose(y, perm)
    return ctx.reshape_dims(y, [q] + shape[:axis] + [1] + shape[axis + 1:])


def _round_half_even(v: float) -> int:
    return int(round(v))
