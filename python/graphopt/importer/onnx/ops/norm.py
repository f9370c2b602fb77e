"""ONNX ops: normalization (the registry and the node context are in
:mod:`.core`)."""

from __future__ import annotations

from typing import Sequence

from .core import (ALL, ANY_VALUE, Builder, FLOATS, IGNORED, Node, Unsupported, Value,
                   one_of, register, reshape_dims)


# ===========================================================================
# Normalization
# ===========================================================================

@register("BatchNormalization", dtypes=FLOATS, typed=ALL,
          attrs={"epsilon": ANY_VALUE, "momentum": ANY_VALUE,
                 "training_mode": one_of(0, 1)},
          check=lambda n: "the running mean/var outputs need training_mode = 1"
          if (n.wants(1) or n.wants(2)) and not n.attr("training_mode") else None,
          doc="`graph.batch_norm` (inference: training_mode = 0); training_mode = 1: "
              "normalized by the batch's mean and biased variance over every axis "
              "but 1, with the running mean and variance updated by momentum as "
              "outputs 1 and 2")
def _batch_norm(n: Node):
    n.require_ranks({1: 1, 2: 1, 3: 1, 4: 1})
    b, x = n.b, n.value(0)
    scale, bias, mean, var = (b.cast(n.value(i), x.dtype) for i in (1, 2, 3, 4))
    if x.rank < 2:
        raise Unsupported("input rank < 2")
    eps = float(n.attr("epsilon"))
    if not n.attr("training_mode"):
        return [b.generic("batch_norm", [x, mean, var, scale, bias], {"epsilon": eps},
                          x.type)]
    axes = [d for d in range(x.rank) if d != 1]
    batch_mean = b.reduce("mean", x, axes, True)
    d = b.binary("sub", x, batch_mean)
    batch_var = b.reduce("mean", b.binary("mul", d, d), axes, True)
    y = b.binary("mul", d, b.unary("rsqrt", b.binary("add", batch_var, n.splat(eps, x.dtype))))
    y = b.binary("add", b.binary("mul", y, _per_channel(b, scale, x.rank)),
                 _per_channel(b, bias, x.rank))
    momentum = float(n.attr("momentum"))
    c = x.shape[1]
    if c is None:
        raise Unsupported("training-mode batch normalization with a dynamic channel dim")

    def running(old, batch):
        return b.binary("add", b.binary("mul", old, n.splat(momentum, x.dtype)),
                        b.binary("mul", reshape_dims(b, batch, [c]),
                                 n.splat(1.0 - momentum, x.dtype)))

    return [y, running(mean, batch_mean), running(var, batch_var)]


def _normalize(b: Builder, x: Value, axes: Sequence[int], eps: float) -> Value:
    """``(x - mean) / sqrt(var + eps)`` over ``axes`` (biased variance)."""
    mean = b.reduce("mean", x, axes, True)
    d = b.binary("sub", x, mean)
    var = b.reduce("mean", b.binary("mul", d, d), axes, True)
    return b.binary("mul", d, b.unary("rsqrt", b.binary("add", var, b.splat(eps, x.dtype))))


def _per_channel(b: Builder, v: Value, rank: int) -> Value:
    """A [C] vector shaped [C, 1, ..., 1] to broadcast along axis 1 of a
    rank-``rank`` tensor."""
    return reshape_dims(b, v, [v.shape[0]] + [1] * (rank - 2))


@register("InstanceNormalization", dtypes=FLOATS, typed=ALL,
          attrs={"epsilon": ANY_VALUE},
          doc="mean/variance over the spatial dims (`graph.reduce`), then scale and bias")
def _instance_norm(n: Node):
    n.require_ranks({1: 1, 2: 1})
    b, x = n.b, n.value(0)
    y = _normalize(b, x, list(range(2, x.rank)), float(n.attr("epsilon")))
    y = b.binary("mul", y, _per_channel(b, n.value(1), x.rank))
    return [b.binary("add", y, _per_channel(b, n.value(2), x.rank))]


@register("LayerNormalization", dtypes=FLOATS, typed=ALL,
          attrs={"axis": ANY_VALUE, "epsilon": ANY_VALUE, "stash_type": one_of(1)},
          doc="`graph.layer_norm` (scale/bias broadcast to the normalized shape); "
              "with the Mean/InvStdDev outputs: `graph.reduce` and elementwise ops")
def _layer_norm(n: Node):
    b, x = n.b, n.value(0)
    axis = n.axis(n.attr("axis"), x.rank)
    eps = float(n.attr("epsilon"))
    norm_shape = list(x.shape[axis:])
    scale = n.value(1)
    bias = n.value(2) if n.has(2) else None
    if n.wants(1) or n.wants(2):
        axes = list(range(axis, x.rank))
        mean = b.reduce("mean", x, axes, True)
        d = b.binary("sub", x, mean)
        var = b.reduce("mean", b.binary("mul", d, d), axes, True)
        inv = b.unary("rsqrt", b.binary("add", var, n.splat(eps, x.dtype)))
        y = b.binary("mul", b.binary("mul", d, inv), scale)
        if bias is not None:
            y = b.binary("add", y, bias)
        return [y, mean if n.wants(1) else None, inv if n.wants(2) else None]
    if None in norm_shape:
        raise Unsupported("a dynamic normalized dim")

    def full(v: Value) -> Value:
        if list(v.shape) == norm_shape:
            return v
        if v.rank > len(norm_shape):
            v = reshape_dims(b, v, v.shape[v.rank - len(norm_shape):])
        return b.broadcast_to(v, norm_shape)

    scale = full(scale)
    bias = full(bias) if bias is not None else b.splat(0, x.dtype, norm_shape)
    return [b.generic("layer_norm", [x, scale, bias], {"epsilon": eps}, x.type)]


@register("GroupNormalization", dtypes=FLOATS, typed=ALL,
          attrs={"num_groups": ANY_VALUE, "epsilon": ANY_VALUE, "stash_type": one_of(1)},
          doc="mean/variance per group (reshape + `graph.reduce`); static C "
              "(opset 18: scale/bias per group, 21: per channel)")
def _group_norm(n: Node):
    b, x = n.b, n.value(0)
    g = int(n.attr("num_groups"))
    c = x.shape[1]
    if c is None or c % g:
        raise Unsupported(f"channels {c} not a static multiple of num_groups {g}")
    spatial = list(x.shape[2:])
    grouped = reshape_dims(b, x, [x.shape[0], g, c // g] + spatial)
    y = _normalize(b, grouped, list(range(2, grouped.rank)), float(n.attr("epsilon")))
    scale, bias = n.value(1), n.value(2)
    if scale.shape[0] == g and g != c:  # opset 18: one scale per group
        y = b.binary("mul", y, reshape_dims(b, scale, [g] + [1] * (grouped.rank - 2)))
        y = b.binary("add", y, reshape_dims(b, bias, [g] + [1] * (grouped.rank - 2)))
        return [reshape_dims(b, y, x.shape)]
    y = reshape_dims(b, y, x.shape)
    y = b.binary("mul", y, _per_channel(b, scale, x.rank))
    return [b.binary("add", y, _per_channel(b, bias, x.rank))]


@register("RMSNormalization", dtypes=FLOATS, typed=ALL,
          attrs={"axis": ANY_VALUE, "epsilon": ANY_VALUE, "stash_type": one_of(1)},
          doc="`x * rsqrt(mean(x^2) + epsilon) * scale` over the dims from axis")
def _rms_norm(n: Node):
    b, x = n.b, n.value(0)
    axis = n.axis(n.attr("axis"), x.rank)
    ms = b.reduce("mean", b.binary("mul", x, x), list(range(axis, x.rank)), True)
    y = b.binary("mul", x, b.unary("rsqrt", b.binary("add", ms, n.splat(float(n.attr("epsilon")), x.dtype))))
    return [b.binary("mul", y, n.value(1))]


@register("MeanVarianceNormalization", dtypes=FLOATS, attrs={"axes": ANY_VALUE},
          doc="`(x - mean) / sqrt(var + 1e-9)` over the axes")
def _mvn(n: Node):
    b, x = n.b, n.value(0)
    axes = sorted({n.axis(a, x.rank) for a in n.attr("axes")})
    return [_normalize(b, x, axes, 1e-9)]


@register("LpNormalization", dtypes=FLOATS, attrs={"axis": ANY_VALUE, "p": one_of(1, 2)},
          doc="`x / sum(|x|)` or `x / sqrt(sum(x^2))` along the axis (0 where "
              "the norm is 0)")
def _lp_norm(n: Node):
    b, x = n.b, n.value(0)
    axis = n.axis(n.attr("axis"), x.rank)
    if n.attr("p") == 1:
        norm = b.reduce("sum", b.unary("abs", x), [axis], True)
    else:
        norm = b.unary("sqrt", b.reduce("sum", b.binary("mul", x, x), [axis], True))
    zero = n.splat(0, x.dtype)
    return [b.select(b.compare("eq", norm, zero), zero, b.binary("div", x, norm))]


@register("LRN", dtypes=FLOATS,
          attrs={"alpha": ANY_VALUE, "beta": ANY_VALUE, "bias": ANY_VALUE, "size": ANY_VALUE},
          doc="sum of squares over a channel window (pad + slices), static C")
def _lrn(n: Node):
    b, x = n.b, n.value(0)
    size = int(n.attr("size"))
    if size <= 0:
        raise Unsupported(f"invalid model: size must be positive, got {size}")
    c = x.shape[1]
    if c is None:
        raise Unsupported("a dynamic channel dim")
    sq = b.binary("mul", x, x)
    lo, hi = (size - 1) // 2, size - 1 - (size - 1) // 2
    low, high = [0] * x.rank, [0] * x.rank
    low[1], high[1] = lo, hi
    padded = b.with_attrs("pad", sq, {"low": low, "high": high, "value": 0.0},
                          sq.type.with_shape([d if i != 1 else c + size - 1
                                              for i, d in enumerate(sq.shape)]))
    total = None
    for i in range(size):
        start, limit = [0] * x.rank, list(padded.shape)
        start[1], limit[1] = i, i + c
        if None in limit:
            raise Unsupported("LRN on dynamic dims")
        s = b.slice(padded, start, limit, [1] * x.rank)
        total = s if total is None else b.binary("add", total, s)
    dt = x.dtype
    base = b.binary("add", n.splat(float(n.attr("bias")), dt),
                    b.binary("mul", total, n.splat(float(n.attr("alpha")) / size, dt)))
    return [b.binary("div", x, b.binary("pow", base, n.splat(float(n.attr("beta")), dt)))]
