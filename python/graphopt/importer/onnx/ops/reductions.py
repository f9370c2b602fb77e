"""ONNX ops: reductions, softmax, scans (the registry and the node context are in
:mod:`.core`)."""

from __future__ import annotations

import math
from typing import List, Optional, Sequence

import numpy as np

BOOL_DT = np.dtype(np.bool_)

from .core import (ANY_VALUE, Builder, FLOATS, I64, NUMERIC, Node, TType, Unsupported,
                   Value, is_float, register, reshape_dims)


# ===========================================================================
# Reductions, softmax, scans
# ===========================================================================

def reduce_axes(n: Node, rank: int) -> Optional[List[int]]:
    """The reduced axes of a Reduce* node (attribute before opset 18, input
    1 after; ReduceSum: input since 13); None: reduce nothing
    (``noop_with_empty_axes``)."""
    if n.has(1):
        axes = n.ints(1, "axes")
    else:
        axes = n.attr("axes", None) or []
    if not axes:
        if n.attr("noop_with_empty_axes", 0):
            return None
        return list(range(rank))
    normalized = [n.axis(a, rank) for a in axes]
    if len(set(normalized)) != len(normalized):
        raise Unsupported(f"axes {list(axes)} repeat an axis (rank {rank})")
    return sorted(normalized)


def _reduce_count(x: Value, axes: Sequence[int]) -> Optional[int]:
    dims = [x.shape[a] for a in axes]
    return None if None in dims else math.prod(dims)


_REDUCE_ATTRS = {"axes": ANY_VALUE, "keepdims": ANY_VALUE,
                 "noop_with_empty_axes": ANY_VALUE}


def _fold_reduce(n: Node, ins):
    x = ins[0]
    if x.dtype == object or not n.op_type in ("ReduceSum", "ReduceProd", "ReduceMax",
                                                  "ReduceMin"):
        return None
    if n.has(1) and ins[1] is None:
        return None
    axes = reduce_axes(n, x.ndim)
    if axes is None:
        return [x]
    if x.dtype.kind != "i" or x.size == 0:
        return None
    fn = {"ReduceSum": np.sum, "ReduceProd": np.prod, "ReduceMax": np.max,
          "ReduceMin": np.min}[n.op_type]
    return [np.asarray(fn(x, axis=tuple(axes), keepdims=bool(n.attr("keepdims")))).astype(x.dtype)]


#: The largest reduced dim ReduceProd unrolls into multiplications.
PROD_LIMIT = 64


def _reduce_prod(b: Builder, x: Value, axes: Sequence[int], keep: bool) -> Value:
    """Product over ``axes`` as multiplications of unit slices."""
    y = x
    for a in axes:
        d = y.shape[a]
        if d is None or d > PROD_LIMIT:
            raise Unsupported(f"ReduceProd over a dim of size {d}: the dialect has no "
                              f"product reduction (static dims up to {PROD_LIMIT} are "
                              "multiplied out)")
        if None in y.shape:
            raise Unsupported("ReduceProd of a tensor with dynamic dims")
        acc = None
        for i in range(d):
            start, limit = [0] * y.rank, list(y.shape)
            start[a], limit[a] = i, i + 1
            s = b.slice(y, start, limit, [1] * y.rank)
            acc = s if acc is None else b.binary("mul", acc, s)
        y = acc
    if not keep:
        y = reshape_dims(b, y, [dim for i, dim in enumerate(y.shape) if i not in axes])
    return y


def _emit_reduce(n: Node):
    b, x = n.b, n.value(0)
    axes = reduce_axes(n, x.rank)
    if axes is None:
        return [x]
    keep = bool(n.attr("keepdims"))
    dt = x.dtype
    op = n.op_type
    if dt == BOOL_DT:
        if op not in ("ReduceMax", "ReduceMin"):
            raise Unsupported(f"{op} of bool")
        if _reduce_count(x, axes) == 0 and x.type.is_static:
            shape = [1 if i in axes else d for i, d in enumerate(x.shape)] if keep \
                else [d for i, d in enumerate(x.shape) if i not in axes]
            return [np.full(shape, op == "ReduceMin", dtype=bool)]
        # max = any, min = all: on 0/1 in i32.
        y = b.reduce(op[6:].lower(), b.cast(x, np.dtype(np.int32)), axes, keep)
        return [b.cast(y, BOOL_DT)]
    if _reduce_count(x, axes) == 0 and x.type.is_static:
        # Nothing to reduce: the identity of each reduction. (Also avoids a
        # crash of the CPU pipeline's tile-and-fuse on empty reductions.)
        shape = [1 if i in axes else d for i, d in enumerate(x.shape)] if keep \
            else [d for i, d in enumerate(x.shape) if i not in axes]
        empty = {"ReduceMax": -np.inf, "ReduceMin": np.inf, "ReduceMean": np.nan,
                 "ReduceLogSum": -np.inf, "ReduceLogSumExp": -np.inf, "ReduceProd": 1}
        value = empty.get(op, 0)
        if not is_float(dt) and not np.isfinite(value):
            info = np.iinfo(dt)
            value = {np.inf: info.max, -np.inf: info.min}.get(value, 0)
        return [np.full(shape, value, dtype=dt)]
    if op == "ReduceProd":
        return [_reduce_prod(b, x, axes, keep)]
    if op in ("ReduceSum", "ReduceMax", "ReduceMin"):
        return [b.reduce(op[6:].lower(), x, axes, keep)]
    if op == "ReduceMean":
        if is_float(dt):
            return [b.reduce("mean", x, axes, keep)]
        count = _reduce_count(x, axes)
        if count is None:
            raise Unsupported("integer ReduceMean over a dynamic dim")
        return [b.binary("div", b.reduce("sum", x, axes, keep), n.splat(max(count, 1), dt))]
    if op == "ReduceL1":
        return [b.reduce("sum", b.unary("abs", x), axes, keep)]
    if op == "ReduceSumSquare":
        return [b.reduce("sum", b.binary("mul", x, x), axes, keep)]
    if op == "ReduceL2":
        return [b.unary("sqrt", b.reduce("sum", b.binary("mul", x, x), axes, keep))]
    if op == "ReduceLogSum":
        return [b.unary("log", b.reduce("sum", x, axes, keep))]
    assert op == "ReduceLogSumExp"
    m = b.reduce("max", x, axes, True)
    # A max of +-inf (all -inf, or an inf) would give inf - inf: shift by 0.
    m = b.select(b.compare("eq", b.unary("abs", m), n.splat(np.inf, dt)), n.splat(0, dt), m)
    s = b.unary("log", b.reduce("sum", b.unary("exp", b.binary("sub", x, m)), axes, keep))
    return [b.binary("add", s, m if keep else reshape_dims(
        b, m, [d for i, d in enumerate(m.shape) if i not in axes]))]


register("ReduceSum", "ReduceL1", "ReduceSumSquare",
         dtypes=NUMERIC, attrs=_REDUCE_ATTRS, fold=_fold_reduce,
         doc="`graph.reduce` (L1: of `abs(x)`, SumSquare: of `x * x`); axes "
             "from the attribute or the constant input")(_emit_reduce)
register("ReduceMax", "ReduceMin",
         dtypes=NUMERIC + (BOOL_DT,), attrs=_REDUCE_ATTRS, fold=_fold_reduce,
         doc="`graph.reduce`; axes from the attribute or the constant input; "
             "bool: on 0/1 as i32 (any / all)")(_emit_reduce)
register("ReduceMean", dtypes=NUMERIC, attrs=_REDUCE_ATTRS,
         doc="`graph.reduce mean`; integers: truncating sum / count (static "
             "reduced dims)")(_emit_reduce)
register("ReduceL2", "ReduceLogSum", "ReduceLogSumExp", dtypes=FLOATS,
         attrs=_REDUCE_ATTRS,
         doc="`graph.reduce` with elementwise ops (LogSumExp in the stable "
             "max-shifted form)")(_emit_reduce)
register("ReduceProd", dtypes=NUMERIC, attrs=_REDUCE_ATTRS, fold=_fold_reduce,
         doc="A chain of `graph.mul` of slices (the dialect has no product "
             f"reduction): static reduced dims of at most {PROD_LIMIT} elements")(_emit_reduce)


@register("Softmax", dtypes=FLOATS, attrs={"axis": ANY_VALUE}, doc="`graph.softmax`")
def _softmax(n: Node):
    x = n.value(0)
    return [n.b.softmax(x, n.axis(n.attr("axis"), x.rank))]


@register("LogSoftmax", dtypes=FLOATS, attrs={"axis": ANY_VALUE},
          doc="`x - max - log(sum(exp(x - max)))` along the axis")
def _log_softmax(n: Node):
    b, x = n.b, n.value(0)
    axis = n.axis(n.attr("axis"), x.rank)
    s = b.binary("sub", x, b.reduce("max", x, [axis], True))
    return [b.binary("sub", s, b.unary("log", b.reduce("sum", b.unary("exp", s), [axis], True)))]


def iota_along(b: Builder, size: int, axis: int, rank: int, dtype=I64) -> Value:
    """A constant ``[0, size)`` laid along ``axis`` of a rank-``rank``
    shape (size 1 elsewhere)."""
    shape = [1] * rank
    shape[axis] = size
    return b.constant(np.arange(size, dtype=dtype).reshape(shape), hint="iota")


@register("TopK", dtypes=NUMERIC, attrs={"axis": ANY_VALUE, "largest": ANY_VALUE,
                                         "sorted": ANY_VALUE},
          doc="`k` rounds of `graph.argmax` and a max reduction, masking each "
              "element taken (constant K, static axis dim; sorted=0 also "
              "gives sorted results)")
def _topk(n: Node):
    x = n.value(0)
    k = n.ints(1, "K")
    if len(k) != 1:
        raise Unsupported(f"invalid model: K has {len(k)} entries")
    values, indices = n.b.topk(x, int(k[0]), n.axis(n.attr("axis"), x.rank),
                               bool(n.attr("largest")))
    return [values, indices]


@register("Hardmax", dtypes=FLOATS, attrs={"axis": ANY_VALUE},
          doc="one-hot of `graph.argmax` (first maximum); static axis dim")
def _hardmax(n: Node):
    b, x = n.b, n.value(0)
    axis = n.axis(n.attr("axis"), x.rank)
    d = x.shape[axis]
    if d is None:
        raise Unsupported("a dynamic dim along the axis")
    am = b.with_attrs("argmax", x, {"axis": axis, "keepdims": True},
                      TType(x.shape[:axis] + (1,) + x.shape[axis + 1:], I64))
    hit = b.compare("eq", am, iota_along(b, d, axis, x.rank))
    return [b.cast(hit, x.dtype)]


def reverse_along(b: Builder, x: Value, axis: int) -> Value:
    """``x`` reversed along ``axis`` (static dim): a gather of constant
    indices."""
    d = x.shape[axis]
    if d is None:
        raise Unsupported("reversing along a dynamic dim")
    return b.generic("gather", [x, b.constant(np.arange(d - 1, -1, -1, dtype=np.int64),
                                              hint="rev")],
                     {"axis": axis}, x.type)


@register("ArgMax", "ArgMin", dtypes=NUMERIC,
          attrs={"axis": ANY_VALUE, "keepdims": ANY_VALUE, "select_last_index": ANY_VALUE},
          doc="`graph.argmax` (ArgMin: of `-x`, integers of `-x - 1`); "
              "`select_last_index` via a reversed gather (static dim)")
def _argmax(n: Node):
    b, x = n.b, n.value(0)
    axis = n.axis(n.attr("axis"), x.rank)
    keep = bool(n.attr("keepdims"))
    if n.op_type == "ArgMin":
        x = b.unary("neg", x)
        if not is_float(x.dtype):  # -x - 1 == ~x reverses the order without overflow
            x = b.binary("sub", x, n.splat(1, x.dtype))
    last = bool(n.attr("select_last_index"))
    if last:
        x = reverse_along(b, x, axis)
    shape = list(x.shape)
    if keep:
        shape[axis] = 1
    else:
        del shape[axis]
    am = b.with_attrs("argmax", x, {"axis": axis, "keepdims": keep}, TType(shape, I64))
    if last:
        am = b.binary("sub", n.splat(x.shape[axis] - 1, I64), am)
    return [am]


@register("CumSum", dtypes=NUMERIC, attrs={"exclusive": ANY_VALUE, "reverse": ANY_VALUE},
          doc="`graph.cumsum` (axis: a constant); exclusive: shifted by one "
              "(`graph.slice` + `graph.pad`); reverse: on a reversed gather "
              "(static dim)")
def _cumsum(n: Node):
    return _scan(n, "cumsum", 0.0)


@register("CumProd", dtypes=NUMERIC, attrs={"exclusive": ANY_VALUE, "reverse": ANY_VALUE},
          doc="`graph.cumprod` (axis: a constant); exclusive: shifted by one "
              "with a leading 1 (`graph.slice` + `graph.pad`); reverse: on a "
              "reversed gather (static dim)")
def _cumprod(n: Node):
    return _scan(n, "cumprod", 1.0)


def _scan(n: Node, op: str, identity: float):
    b, x = n.b, n.value(0)
    axis = n.axis(n.ints(1, "axis")[0], x.rank)
    rev = bool(n.attr("reverse"))
    if rev:
        x = reverse_along(b, x, axis)
    y = b.with_attrs(op, x, {"axis": axis}, x.type)
    if n.attr("exclusive"):
        # Shift by one: [identity, y[0], ..., y[n-2]] (exact, unlike y - x
        # or y / x).
        d = x.shape[axis]
        if d is None:
            raise Unsupported(f"exclusive {n.op_type} along a dynamic dim")
        if d > 0:
            start = [0] * x.rank
            limit = [s for s in x.shape]
            limit[axis] = d - 1
            head = b.slice(y, start, limit, [1] * x.rank)
            pad_lo = [0] * x.rank
            pad_lo[axis] = 1
            y = b.with_attrs("pad", head, {"low": pad_lo, "high": [0] * x.rank,
                                           "value": identity}, y.type)
    if rev:
        y = reverse_along(b, y, axis)
    return [y]
