"""ATen op mappings: identities, elementwise arithmetic, comparisons and logic,
casts (the registry and the emission context are in :mod:`.core`)."""

from __future__ import annotations

from typing import Optional

import torch

from ... import composites
from ...errors import Unsupported
from ..dtypes import Value, is_float, mlir_element_type
from .core import Args, _t, op, result_dtype


# ---------------------------------------------------------------------------
# Identities, no-ops
# ---------------------------------------------------------------------------

def _check_eval(flag_name: str, what: str):
    def check(a: Args) -> Optional[str]:
        if a.get(flag_name) is True:
            return f"{what} in training mode is not supported (call model.eval())"
        return None
    return check


@op("aten.contiguous", "aten.clone", "aten.alias", "aten.detach", "aten.detach_",
    "aten.lift_fresh_copy", "aten.lift_fresh", "aten.lift", "aten.resolve_conj",
    "aten.resolve_neg", "aten.positive")
def _identity(ctx, a):
    return _t(a)


@op("aten.copy")
def _copy(ctx, a):
    """The functional form of ``dst.copy_(src)``: src cast to dst's dtype
    and broadcast to its shape."""
    dst = ctx.tensor(a.self)
    src = ctx.tensor(a.src, dst.dtype)
    if list(src.shape) == list(dst.shape):
        return src
    if None in dst.shape:
        raise Unsupported(f"copy into {dst.type}: static shapes are supported")
    return ctx.b.broadcast_to(src, list(dst.shape))


@op("aten.dropout", "aten.feature_dropout", "aten.alpha_dropout",
    "aten.feature_alpha_dropout", check=_check_eval("train", "dropout"))
def _dropout(ctx, a):
    return a.input


@op("aten._assert_tensor_metadata", "aten._assert_scalar", "aten._assert_async",
    "aten.sym_constrain_range_for_size", "aten.sym_constrain_range",
    "aten._functional_assert_async")
def _no_op(ctx, a):
    return None


# ---------------------------------------------------------------------------
# Elementwise arithmetic
# ---------------------------------------------------------------------------

def _scaled(ctx, x, alpha):
    """``x * alpha`` (alpha a Python number or run-time scalar)."""
    if alpha is None or (not isinstance(alpha, Value) and alpha == 1):
        return x
    if not isinstance(x, Value) and not isinstance(alpha, Value):
        return x * alpha
    xv, av = ctx.promote(x, alpha)
    return ctx.b.binary("mul", xv, av)


def _lhs_rhs(a: Args):
    if "other" in a:
        return _t(a), a.other
    return a.first("self", "a"), a.first("b")


@op("aten.add")
def _add(ctx, a):
    x, y = _lhs_rhs(a)
    lhs, rhs = ctx.promote(x, _scaled(ctx, y, a.get("alpha")))
    return ctx.b.binary("add", lhs, rhs)


@op("aten.sub")
def _sub(ctx, a):
    x, y = _lhs_rhs(a)
    lhs, rhs = ctx.promote(x, _scaled(ctx, y, a.get("alpha")))
    return ctx.b.binary("sub", lhs, rhs)


@op("aten.rsub")
def _rsub(ctx, a):
    lhs, rhs = ctx.promote(a.other, _scaled(ctx, a.self, a.get("alpha")))
    return ctx.b.binary("sub", lhs, rhs)


@op("aten.mul")
def _mul(ctx, a):
    x, y = _lhs_rhs(a)
    dt = result_dtype(x, y)
    if dt == torch.bool:  # logical and
        return ctx.b.select(ctx.to_bool(x), ctx.to_bool(y), ctx.b.scalar(False, torch.bool))
    return ctx.b.binary("mul", *ctx.promote(x, y, dtype=dt))


def _check_div(a: Args) -> Optional[str]:
    mode = a.get("rounding_mode")
    if mode is None:
        return None
    if mode not in ("trunc", "floor"):
        return f"rounding_mode {mode!r} is not supported"
    return None


@op("aten.div", "aten.true_divide", check=_check_div)
def _div(ctx, a):
    x, y = _lhs_rhs(a)
    mode = a.get("rounding_mode")
    if mode is None:
        return ctx.b.binary("div", *ctx.promote(x, y, int_to_float=True))
    lhs, rhs = ctx.promote(x, y)
    if is_float(lhs.dtype):
        if mode == "trunc":
            return composites.trunc_value(ctx.b, ctx.b.binary("div", lhs, rhs))
        return _floor_div_float(ctx, lhs, rhs)
    return ctx.b.binary("div", lhs, rhs) if mode == "trunc" else _floor_div_int(ctx, lhs, rhs)


def _floor_div_float(ctx, a: Value, b_: Value) -> Value:
    """Float floor division as PyTorch computes it (div_floor_floating):
    ``(a - fmod(a, b)) / b``, less one where the remainder's sign differs
    from ``b``'s, then rounded to the nearest integer at or below; a zero
    quotient keeps the sign of ``a / b`` and ``b = 0`` gives ``a / b``."""
    b = ctx.b
    zero, one = b.splat(0, a.dtype), b.splat(1, a.dtype)
    mod = b.binary("rem", a, b_)
    div = b.binary("div", b.binary("sub", a, mod), b_)
    adjust = b.binary("bitwise_and", b.compare("ne", mod, zero),
                      b.compare("ne", b.compare("lt", b_, zero), b.compare("lt", mod, zero)))
    div = b.select(adjust, b.binary("sub", div, one), div)
    floor = composites.floor_value(b, div)
    floor = b.select(b.compare("gt", b.binary("sub", div, floor), b.splat(0.5, a.dtype)),
                     b.binary("add", floor, one), floor)
    quotient = b.binary("div", a, b_)
    floor = b.select(b.compare("eq", div, zero), b.binary("mul", quotient, zero), floor)
    return b.select(b.compare("eq", b_, zero), quotient, floor)


def _floor_div_int(ctx, lhs: Value, rhs: Value) -> Value:
    """Integer floor division from the dialect's truncating division."""
    b = ctx.b
    q = b.binary("div", lhs, rhs)
    r = b.binary("sub", lhs, b.binary("mul", q, rhs))
    zero = b.scalar(0, lhs.dtype)
    inexact = b.compare("ne", r, zero)
    signs_differ = b.compare("ne", b.compare("lt", r, zero), b.compare("lt", rhs, zero))
    adjust = b.select(inexact, signs_differ, b.scalar(False, torch.bool))
    return b.binary("sub", q, b.cast(adjust, lhs.dtype))


@op("aten.floor_divide", "aten.floordiv", check=lambda a: _check_div(
    Args({**dict(a.items()), "rounding_mode": "floor"})))
def _floor_divide(ctx, a):
    x, y = _lhs_rhs(a)
    lhs, rhs = ctx.promote(x, y)
    if is_float(lhs.dtype):
        return _floor_div_float(ctx, lhs, rhs)
    return _floor_div_int(ctx, lhs, rhs)


@op("aten.remainder", "aten.fmod")
def _remainder(ctx, a):
    """``a % b``: Python's sign convention for remainder, C's (graph.rem)
    for fmod."""
    x, y = _lhs_rhs(a)
    lhs, rhs = ctx.promote(x, y)
    if a.schema is not None and "fmod" in a.schema.name:
        return ctx.b.binary("rem", lhs, rhs)
    return ctx.b.python_mod(lhs, rhs)


@op("aten.neg")
def _neg(ctx, a):
    x = ctx.tensor(_t(a))
    if x.dtype == torch.bool:
        raise Unsupported("negation of a bool tensor")
    return ctx.b.unary("neg", x)


@op("aten.abs")
def _abs(ctx, a):
    return ctx.b.unary("abs", ctx.tensor(_t(a)))


# Rounding: graph.floor, graph.ceil and graph.round (composites). Integer and
# bool tensors come back as they are, as PyTorch returns them (frac of one
# is an error there, and here).

def _rounding(ctx, a, kind: str):
    b, x = ctx.b, ctx.tensor(_t(a))
    if not is_float(x.dtype):
        if kind == "frac":
            raise Unsupported(f"frac of a {x.dtype} tensor (PyTorch supports floats only)")
        return x
    if kind == "floor":
        return composites.floor_value(b, x)
    if kind == "ceil":
        return composites.ceil_value(b, x)
    if kind == "trunc":
        return composites.trunc_value(b, x)
    if kind == "frac":
        return b.binary("sub", x, composites.trunc_value(b, x))
    # round, half to even; with decimals d, as PyTorch computes it:
    # round(x * 10^d) / 10^d, or round(x / 10^-d) * 10^-d for d < 0.
    d = int(a.get("decimals", 0))
    if d == 0:
        return composites.round_half_even(b, x)
    scale = b.splat(10.0 ** abs(d), x.dtype)
    if d > 0:
        return b.binary("div", composites.round_half_even(b, b.binary("mul", x, scale)), scale)
    return b.binary("mul", composites.round_half_even(b, b.binary("div", x, scale)), scale)


for _kind, _names in {"floor": ("aten.floor",), "ceil": ("aten.ceil",),
                      "trunc": ("aten.trunc", "aten.fix"), "frac": ("aten.frac",),
                      "round": ("aten.round",)}.items():
    op(*_names)(lambda ctx, a, _k=_kind: _rounding(ctx, a, _k))


@op("aten.reciprocal")
def _reciprocal(ctx, a):
    x = ctx.to_float(ctx.tensor(_t(a)))
    return ctx.b.binary("div", ctx.b.scalar(1.0, x.dtype), x)


@op("aten.square")
def _square(ctx, a):
    x = ctx.tensor(_t(a))
    if x.dtype == torch.bool:
        x = ctx.b.cast(x, torch.int64)
    return ctx.b.binary("mul", x, x)


def _float_unary(name: str):
    def fn(ctx, a):
        return ctx.b.unary(name, ctx.to_float(ctx.tensor(_t(a))))
    return fn


for _name in ("exp", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "erf",
              "hardswish", "hardsigmoid", "silu", "sin", "cos", "tan", "asin",
              "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh"):
    op(f"aten.{_name}")(_float_unary(_name))


@op("aten.elu", "aten.celu", "aten.selu")
def _elu(ctx, a):
    """elu: x > 0 ? scale * x : scale * alpha * (exp(x / input_scale) - 1)."""
    b = ctx.b
    x = ctx.to_float(ctx.tensor(a.self))
    name = a.schema.name.split("::")[-1]
    if name == "selu":
        alpha, scale, in_scale = 1.6732632423543772, 1.0507009873554805, 1.0
    else:
        alpha = ctx.float_(a.get("alpha", 1.0), "alpha")
        scale = ctx.float_(a.get("scale", 1.0), "scale")
        in_scale = ctx.float_(a.get("input_scale", 1.0), "input_scale")
        if name == "celu":
            in_scale = 1.0 / alpha
    s = lambda v: b.scalar(v, x.dtype)
    xs = b.binary("mul", x, s(in_scale)) if in_scale != 1.0 else x
    neg = b.binary("mul", b.binary("sub", b.unary("exp", xs), s(1.0)), s(alpha))
    y = b.select(b.compare("gt", x, s(0.0)), x, neg)
    return b.binary("mul", y, s(scale)) if scale != 1.0 else y


def _softplus_value(ctx, x: Value, beta: float, threshold: float) -> Value:
    b = ctx.b
    s = lambda v: b.scalar(v, x.dtype)
    bx = b.binary("mul", x, s(beta)) if beta != 1.0 else x
    # log(1 + exp(bx)) = max(bx, 0) + log(1 + exp(-|bx|)), without overflow.
    tail = b.unary("exp", b.unary("neg", b.unary("abs", bx)))
    soft = b.binary("add", b.unary("relu", bx),
                    b.unary("log", b.binary("add", s(1.0), tail)))
    if beta != 1.0:
        soft = b.binary("div", soft, s(beta))
    return b.select(b.compare("gt", bx, s(threshold)), x, soft)


@op("aten.softplus")
def _softplus(ctx, a):
    x = ctx.to_float(ctx.tensor(a.self))
    return _softplus_value(ctx, x, ctx.float_(a.get("beta", 1.0), "beta"),
                           ctx.float_(a.get("threshold", 20.0), "threshold"))


@op("aten.mish")
def _mish(ctx, a):
    x = ctx.to_float(ctx.tensor(a.self))
    return ctx.b.binary("mul", x, ctx.b.unary("tanh", _softplus_value(ctx, x, 1.0, 20.0)))


@op("aten.prelu", "aten._prelu_kernel")
def _prelu(ctx, a):
    b = ctx.b
    x = ctx.to_float(ctx.tensor(a.self))
    w = ctx.tensor(a.weight, x.dtype)
    if w.rank == 1 and w.shape[0] != 1 and x.rank >= 2:
        w = b.reshape(w, [w.shape[0]] + [1] * (x.rank - 2))  # per channel (dim 1)
    return b.select(b.compare("gt", x, b.scalar(0.0, x.dtype)), x, b.binary("mul", w, x))


@op("aten.addcmul", "aten.addcdiv")
def _addcmul(ctx, a):
    kind = "mul" if a.schema.name.endswith("addcmul") else "div"
    x, t1, t2 = ctx.promote(a.self, a.tensor1, a.tensor2,
                            int_to_float=kind == "div")
    prod = ctx.b.binary(kind, t1, t2)
    return ctx.b.binary("add", x, _scaled(ctx, prod, a.get("value", 1)))


@op("aten.lerp")
def _lerp(ctx, a):
    x, end = ctx.promote(a.self, a.end)
    w = ctx.tensor(a.weight, x.dtype)
    return ctx.b.binary("add", x, ctx.b.binary("mul", w, ctx.b.binary("sub", end, x)))


@op("aten.relu")
def _relu(ctx, a):
    return ctx.b.unary("relu", ctx.tensor(_t(a)))


@op("aten.gelu", check=lambda a: None if a.get("approximate", "none") in ("none", "tanh")
    else f"gelu approximate={a.approximate!r} is not supported")
def _gelu(ctx, a):
    return ctx.b.gelu(ctx.to_float(ctx.tensor(a.self)), a.get("approximate", "none"))


@op("aten.leaky_relu")
def _leaky_relu(ctx, a):
    slope = ctx.float_(a.get("negative_slope", 0.01), "negative_slope")
    return ctx.b.unary("leaky_relu", ctx.to_float(ctx.tensor(a.self)), {"alpha": slope})


def _clamp(ctx, x: Value, lo, hi) -> Value:
    """clamp with constant or tensor bounds."""
    b = ctx.b
    const = lambda v: v is None or isinstance(v, (int, float)) or (
        isinstance(v, Value) and v.const is not None and v.rank == 0)
    if const(lo) and const(hi):
        lo_f = None if lo is None else ctx.float_(lo)
        hi_f = None if hi is None else ctx.float_(hi)
        if lo_f is None and hi_f is None:
            return x
        if not is_float(x.dtype) and any(
                v is not None and not float(v).is_integer() for v in (lo_f, hi_f)):
            x = ctx.to_float(x)
        return b.unary("clamp", x, {"min": lo_f, "max": hi_f})
    dt = result_dtype(x, *(v for v in (lo, hi) if v is not None))
    x = ctx.tensor(x, dt)
    if lo is not None:
        x = b.binary("max", x, ctx.tensor(lo, dt))
    if hi is not None:
        x = b.binary("min", x, ctx.tensor(hi, dt))
    return x


@op("aten.clamp", "aten.clip")
def _clamp_op(ctx, a):
    return _clamp(ctx, ctx.tensor(a.self), a.get("min"), a.get("max"))


@op("aten.clamp_min")
def _clamp_min(ctx, a):
    return _clamp(ctx, ctx.tensor(a.self), a.min, None)


@op("aten.clamp_max")
def _clamp_max(ctx, a):
    return _clamp(ctx, ctx.tensor(a.self), None, a.max)


@op("aten.hardtanh")
def _hardtanh(ctx, a):
    return _clamp(ctx, ctx.tensor(a.self), a.get("min_val", -1.0), a.get("max_val", 1.0))


@op("aten.relu6")
def _relu6(ctx, a):
    return _clamp(ctx, ctx.tensor(a.self), 0.0, 6.0)


def _pow_int_check(a: Args) -> Optional[str]:
    x = a.get("self")
    e = a.get("exponent")
    if isinstance(x, Value) and x.type is not None and not is_float(x.dtype) \
            and not (isinstance(e, (int, float)) and e in (1, 2)) and \
            not (isinstance(e, Value) and e.type is not None and is_float(e.dtype)) \
            and not isinstance(e, float):
        return "integer pow is not supported (graph.pow takes floats)"
    return None


@op("aten.pow", check=_pow_int_check)
def _pow(ctx, a):
    b = ctx.b
    x, e = a.self, a.exponent
    if isinstance(x, Value) and isinstance(e, (int, float)) and not isinstance(e, bool):
        dt = result_dtype(x, e)
        x = ctx.tensor(x, dt)
        if e == 1:
            return x
        if e == 2:
            return b.binary("mul", x, x)
        if e == 0.5 and is_float(dt):
            return b.unary("sqrt", x)
        if e == -0.5 and is_float(dt):
            return b.unary("rsqrt", x)
    lhs, rhs = ctx.promote(x, e)
    if not is_float(lhs.dtype):
        raise Unsupported("integer pow is not supported (graph.pow takes floats)")
    return b.binary("pow", lhs, rhs)


@op("aten.maximum", "aten.max.other", "aten.fmax")
def _maximum(ctx, a):
    return ctx.b.binary("max", *ctx.promote(a.self, a.other))


@op("aten.minimum", "aten.min.other", "aten.fmin")
def _minimum(ctx, a):
    return ctx.b.binary("min", *ctx.promote(a.self, a.other))


# ---------------------------------------------------------------------------
# Comparisons and logic
# ---------------------------------------------------------------------------

def _compare(direction: str):
    def fn(ctx, a):
        x, y = _lhs_rhs(a)
        lhs, rhs = ctx.promote(x, y)
        return ctx.b.compare(direction, lhs, rhs)
    return fn


for _name, _dir in (("eq", "eq"), ("ne", "ne"), ("lt", "lt"), ("le", "le"),
                    ("gt", "gt"), ("ge", "ge"), ("greater", "gt"), ("less", "lt"),
                    ("greater_equal", "ge"), ("less_equal", "le"),
                    ("not_equal", "ne")):
    op(f"aten.{_name}")(_compare(_dir))


@op("aten.logical_not", "aten.__not__")
def _logical_not(ctx, a):
    x = ctx.tensor(a.first("self", "a"))
    return ctx.b.compare("eq", x, ctx.b.scalar(0 if x.dtype != torch.bool else False, x.dtype))


def _logical(kind: str, bitwise: bool):
    """``and``/``or``/``xor``: logical (of bool tensors, or of the truth of
    numbers), or bitwise (``graph.bitwise_*`` on integers; on bools the
    logical ones)."""
    def fn(ctx, a):
        x, y = _lhs_rhs(a)
        if bitwise and result_dtype(x, y) != torch.bool:
            lhs, rhs = ctx.promote(x, y)
            return ctx.b.binary(f"bitwise_{kind}", lhs, rhs)
        p, q = ctx.to_bool(x), ctx.to_bool(y)
        if kind == "and":
            return ctx.b.select(p, q, ctx.b.scalar(False, torch.bool))
        if kind == "or":
            return ctx.b.select(p, ctx.b.scalar(True, torch.bool), q)
        return ctx.b.compare("ne", p, q)
    return fn


for _name in ("and", "or", "xor"):
    op(f"aten.logical_{_name}")(_logical(_name, bitwise=False))
    op(f"aten.bitwise_{_name}", f"aten.__{_name}__")(_logical(_name, bitwise=True))


def _shift(direction: str):
    """``<<`` / ``>>`` on integer tensors (``graph.shift_left`` /
    ``graph.shift_right``: arithmetic for signed types; an amount outside
    [0, bits) gives 0 or the sign fill, as eager PyTorch does)."""
    def fn(ctx, a):
        x, y = _lhs_rhs(a)
        lhs, rhs = ctx.promote(x, y)
        if lhs.dtype in (torch.bool,) or lhs.dtype.is_floating_point:
            raise Unsupported(f"shifts of {lhs.dtype} tensors are not supported")
        return ctx.b.binary(f"shift_{direction}", lhs, rhs)
    return fn


op("aten.bitwise_left_shift", "aten.__lshift__")(_shift("left"))
op("aten.bitwise_right_shift", "aten.__rshift__")(_shift("right"))


@op("aten.bitwise_not")
def _bitwise_not(ctx, a):
    x = ctx.tensor(a.self)
    if x.dtype == torch.bool:
        return ctx.b.compare("eq", x, ctx.b.scalar(False, torch.bool))
    # ~x == -x - 1 in two's complement.
    return ctx.b.binary("sub", ctx.b.unary("neg", x), ctx.b.scalar(1, x.dtype))


@op("aten.where")
def _where(ctx, a):
    if "other" not in a:
        raise Unsupported("where(condition) (nonzero) has a data-dependent shape")
    on_true, on_false = ctx.promote(a.self, a.other)
    return ctx.b.select(ctx.to_bool(a.condition), on_true, on_false)


@op("aten.masked_fill")
def _masked_fill(ctx, a):
    x = ctx.tensor(a.self)
    return ctx.b.select(ctx.to_bool(a.mask), ctx.tensor(a.value, x.dtype), x)


# ---------------------------------------------------------------------------
# Casts
# ---------------------------------------------------------------------------

@op("aten.to", "aten._to_copy", "aten.type_as", "aten._cast_Float")
def _to(ctx, a):
    x = ctx.tensor(_t(a))
    dtype = ctx.dtype(a.get("dtype"))
    if dtype is None and isinstance(a.get("other"), Value):
        dtype = a.other.dtype
    if dtype is None:
        return x
    mlir_element_type(dtype)
    return ctx.b.cast(x, dtype)
