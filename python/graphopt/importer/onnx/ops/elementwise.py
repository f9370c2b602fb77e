"""ONNX ops: elementwise ops (the registry and the node context are in
:mod:`.core`)."""

from __future__ import annotations

from typing import List, Optional

import numpy as np

from ... import composites
from .core import (ALL, ANY, ANY_VALUE, Attr, BOOL, F32, F64, FLOAT8, FLOATS, SUBBYTE, subbyte_range, I8, I16, I32, I64, IGNORED, INTS, U8, U16, U32, U64,
                   NUMERIC, Node, ONNX_TO_NUMPY, Output, Unsupported, Value,
                   _elementwise_partial, dtype_name, reshape_dims,
                   _int_div, _known_only, _py_int_div, _small_float_ok, activation, elu,
                   floor_value, is_float, is_known, make_partial, numpy_dtype, one_of,
                   onnx_type_name, register, softplus)


# ===========================================================================
# Elementwise ops
# ===========================================================================

def _emit_unary(op: str):
    def emit(n: Node):
        return [n.b.unary(op, n.value(0))]
    return emit


_UNARY = [
    # ONNX op, graph op, dtypes, NumPy evaluation for constants
    ("Abs", "abs", NUMERIC, np.abs),
    ("Neg", "neg", NUMERIC, np.negative),
    ("Relu", "relu", NUMERIC, None),
    ("Exp", "exp", FLOATS, None),
    ("Log", "log", FLOATS, None),
    ("Sqrt", "sqrt", FLOATS, np.sqrt),
    ("Tanh", "tanh", FLOATS, None),
    ("Sigmoid", "sigmoid", FLOATS, None),
    ("Erf", "erf", FLOATS, None),
    ("Sin", "sin", FLOATS, np.sin),
    ("Cos", "cos", FLOATS, np.cos),
    ("Tan", "tan", FLOATS, np.tan),
    ("Asin", "asin", FLOATS, np.arcsin),
    ("Acos", "acos", FLOATS, np.arccos),
    ("Atan", "atan", FLOATS, np.arctan),
    ("Sinh", "sinh", FLOATS, np.sinh),
    ("Cosh", "cosh", FLOATS, np.cosh),
    ("Asinh", "asinh", FLOATS, np.arcsinh),
    ("Acosh", "acosh", FLOATS, np.arccosh),
    ("Atanh", "atanh", FLOATS, np.arctanh),
    ("HardSwish", "hardswish", FLOATS, None),
]


def _fold_unary(fn):
    def fold(_node, ins):
        (x,) = ins[:1]
        if x.dtype == object:
            return [_elementwise_partial(lambda v: int(fn(v)), x)] \
                if fn in (np.abs, np.negative) else None
        with np.errstate(all="ignore"):
            out = np.asarray(fn(x)).astype(x.dtype)
        return [out] if _small_float_ok(out) else None
    return fold


for _name, _op, _dts, _np in _UNARY:
    register(_name, dtypes=_dts, doc=f"`graph.{_op}`",
             fold=_fold_unary(_np) if _np is not None else None)(_emit_unary(_op))


@register("Reciprocal", dtypes=FLOATS, doc="`1 / x` (`graph.div`)")
def _reciprocal(n: Node):
    x = n.value(0)
    return [n.b.binary("div", n.splat(1, x.dtype), x)]


@register("Floor", "Ceil", "Round", dtypes=FLOATS,
          doc="`graph.floor`, `graph.ceil`, `graph.round` (half to even); exact")
def _floor_ceil_round(n: Node):
    b, x = n.b, n.value(0)
    if n.op_type == "Floor":
        return [floor_value(b, x)]
    if n.op_type == "Ceil":
        return [composites.ceil_value(b, x)]
    return [round_half_even(n, x)]


def round_half_even(n: Node, x: Value) -> Value:
    """``x`` rounded to the nearest integer, ties to even (exact)."""
    return composites.round_half_even(n.b, x)


@register("Sign", dtypes=NUMERIC, doc="`select` chain (NaN stays NaN)")
def _sign(n: Node):
    b, x = n.b, n.value(0)
    zero = n.splat(0, x.dtype)
    pos = b.select(b.compare("gt", x, zero), n.splat(1, x.dtype), x if is_float(x.dtype) else zero)
    if x.dtype.kind == "u":  # never negative
        return [pos]
    return [b.select(b.compare("lt", x, zero), n.splat(-1, x.dtype), pos)]


@register("IsNaN", dtypes=FLOATS, doc="`graph.compare ne, x, x`")
def _isnan(n: Node):
    x = n.value(0)
    return [n.b.compare("ne", x, x)]


@register("IsInf", dtypes=FLOATS,
          attrs={"detect_negative": ANY_VALUE, "detect_positive": ANY_VALUE},
          doc="`graph.compare` with +-inf")
def _isinf(n: Node):
    b, x = n.b, n.value(0)
    neg, pos = int(n.attr("detect_negative")), int(n.attr("detect_positive"))
    if neg and pos:
        return [b.compare("eq", b.unary("abs", x), n.splat(np.inf, x.dtype))]
    if pos:
        return [b.compare("eq", x, n.splat(np.inf, x.dtype))]
    if neg:
        return [b.compare("eq", x, n.splat(-np.inf, x.dtype))]
    return [b.compare("lt", x, n.splat(-np.inf, x.dtype))]  # detects nothing: all false


@register("Not", dtypes=(BOOL,), doc="`graph.compare eq, x, false`",
          fold=lambda _n, ins: [np.logical_not(ins[0])] if is_known(ins[0]) else None)
def _not(n: Node):
    x = n.value(0)
    return [n.b.compare("eq", x, n.splat(False, BOOL))]


@register("LeakyRelu", dtypes=FLOATS, attrs={"alpha": ANY_VALUE},
          doc="`graph.leaky_relu`")
def _leaky_relu(n: Node):
    return [n.b.unary("leaky_relu", n.value(0), {"alpha": float(n.attr("alpha"))})]


@register("Elu", dtypes=FLOATS, attrs={"alpha": ANY_VALUE},
          doc="`select(x < 0, alpha * (exp(x) - 1), x)`")
def _elu(n: Node):
    return [elu(n.b, n.value(0), float(n.attr("alpha")))]


@register("Selu", dtypes=FLOATS, attrs={"alpha": ANY_VALUE, "gamma": ANY_VALUE},
          doc="`gamma * select(x > 0, x, alpha * (exp(x) - 1))`")
def _selu(n: Node):
    b, x = n.b, n.value(0)
    dt = x.dtype
    neg = b.binary("mul", b.binary("sub", b.unary("exp", x), n.splat(1, dt)),
                   n.splat(float(n.attr("alpha")), dt))
    y = b.select(b.compare("gt", x, n.splat(0, dt)), x, neg)
    return [b.binary("mul", y, n.splat(float(n.attr("gamma")), dt))]


@register("Celu", dtypes=FLOATS, attrs={"alpha": ANY_VALUE},
          doc="`max(0, x) + min(0, alpha * (exp(x / alpha) - 1))`")
def _celu(n: Node):
    b, x = n.b, n.value(0)
    dt, alpha = x.dtype, float(n.attr("alpha"))
    e = b.binary("mul", b.binary("sub", b.unary("exp", b.binary("div", x, n.splat(alpha, dt))),
                                 n.splat(1, dt)), n.splat(alpha, dt))
    return [b.binary("add", b.unary("relu", x), b.binary("min", e, n.splat(0, dt)))]


@register("ThresholdedRelu", dtypes=FLOATS, attrs={"alpha": ANY_VALUE},
          doc="`select(x > alpha, x, 0)`")
def _thresholded_relu(n: Node):
    return [activation(n.b, "ThresholdedRelu", n.value(0), float(n.attr("alpha")))]


@register("HardSigmoid", dtypes=FLOATS, attrs={"alpha": ANY_VALUE, "beta": ANY_VALUE},
          doc="`clamp(alpha * x + beta, 0, 1)`")
def _hard_sigmoid(n: Node):
    return [activation(n.b, "HardSigmoid", n.value(0), float(n.attr("alpha")),
                       float(n.attr("beta")))]


@register("Softplus", dtypes=FLOATS, doc="`max(x, 0) + log(1 + exp(-|x|))`")
def _softplus(n: Node):
    return [softplus(n.b, n.value(0))]


@register("Softsign", dtypes=FLOATS, doc="`x / (1 + |x|)`")
def _softsign(n: Node):
    return [activation(n.b, "Softsign", n.value(0))]


@register("Mish", dtypes=FLOATS, doc="`x * tanh(softplus(x))`")
def _mish(n: Node):
    b, x = n.b, n.value(0)
    return [b.binary("mul", x, b.unary("tanh", softplus(b, x)))]


@register("Swish", dtypes=FLOATS, attrs={"alpha": ANY_VALUE},
          doc="`x * sigmoid(alpha * x)` (`graph.silu` for alpha = 1)")
def _swish(n: Node):
    b, x = n.b, n.value(0)
    alpha = float(n.attr("alpha"))
    if alpha == 1.0:
        return [b.unary("silu", x)]
    return [b.binary("mul", x, b.unary("sigmoid", b.binary("mul", x, n.splat(alpha, x.dtype))))]


@register("Gelu", dtypes=FLOATS, attrs={"approximate": one_of("none", "tanh")},
          doc="`graph.gelu` (exact or tanh approximation)")
def _gelu(n: Node):
    return [n.b.gelu(n.value(0), n.attr("approximate"))]


@register("Shrink", dtypes=FLOATS, attrs={"bias": ANY_VALUE, "lambd": ANY_VALUE},
          doc="`select(x < -lambd, x + bias, select(x > lambd, x - bias, 0))`")
def _shrink(n: Node):
    b, x = n.b, n.value(0)
    dt = x.dtype
    lam, bias = float(n.attr("lambd")), float(n.attr("bias"))
    hi = b.select(b.compare("gt", x, n.splat(lam, dt)),
                  b.binary("sub", x, n.splat(bias, dt)), n.splat(0, dt))
    return [b.select(b.compare("lt", x, n.splat(-lam, dt)),
                     b.binary("add", x, n.splat(bias, dt)), hi)]


@register("PRelu", dtypes=FLOATS, typed=(0, 1),
          doc="`select(x < 0, slope * x, x)` (slope broadcast to x)")
def _prelu(n: Node):
    b, x, slope = n.b, n.value(0), n.value(1)
    y = b.select(b.compare("lt", x, n.splat(0, x.dtype)), b.binary("mul", x, slope), x)
    if y.shape != x.shape:
        raise Unsupported(f"slope {slope.type} does not broadcast to {x.type}")
    return [y]


# -- binary ----------------------------------------------------------------

_BINARY_NUMPY = {
    "Add": (np.add, lambda a, c: a + c),
    "Sub": (np.subtract, lambda a, c: a - c),
    "Mul": (np.multiply, lambda a, c: a * c),
    "Div": (None, _py_int_div),
}


def _fold_binary(op_type):
    np_fn, py_fn = _BINARY_NUMPY[op_type]

    def fold(_node, ins):
        a, c = ins[0], ins[1]
        if a.dtype == object or c.dtype == object:
            return [_elementwise_partial(py_fn, a, c)]
        with np.errstate(all="ignore"):
            if op_type == "Div":
                out = _int_div(a, c) if a.dtype.kind in "iu" else np.divide(a, c)
            else:
                out = np_fn(a, c)
        out = np.asarray(out).astype(a.dtype)
        return [out] if _small_float_ok(out) else None
    return fold


def _emit_binary(op: str):
    def emit(n: Node):
        return [n.b.binary(op, n.value(0), n.value(1))]
    return emit


for _name in ("Add", "Sub", "Mul", "Div"):
    register(_name, dtypes=NUMERIC, typed=(0, 1),
             doc=f"`graph.{_name.lower()}`" + (" (integers: truncating)" if _name == "Div" else ""),
             fold=_fold_binary(_name))(_emit_binary(_name.lower()))


@register("Pow", dtypes=FLOATS + INTS,
          doc="`graph.pow`; the exponent (any supported numeric type) is cast "
              "to the base's type. Integer bases: with an integer exponent, "
              "exponentiation by squaring in the base's type (wrapping on "
              "overflow as NumPy does; a negative exponent gives 1 / x^-e "
              "truncated: 0 but for bases 1 and -1); with a float exponent, "
              "`graph.pow` in f64, truncated to the base's type")
def _pow(n: Node):
    b, x, y = n.b, n.value(0), n.value(1)
    if y.dtype == BOOL:
        raise Unsupported("a bool exponent is not supported")
    if x.dtype in FLOATS:
        return [b.binary("pow", x, b.cast(y, x.dtype))]
    if y.dtype in FLOATS:
        return [b.cast(b.binary("pow", b.cast(x, F64), b.cast(y, F64)), x.dtype)]
    e = b.cast(y, x.dtype)
    zero, one = n.splat(0, x.dtype), n.splat(1, x.dtype)
    result, base, rest = one, x, b.binary("max", e, zero)
    for _ in range(8 * x.dtype.itemsize - 1):
        odd = b.compare("ne", b.binary("bitwise_and", rest, one), zero)
        result = b.select(odd, b.binary("mul", result, base), result)
        base = b.binary("mul", base, base)
        rest = b.binary("shift_right", rest, one)
    # x^-k: 1 for x = 1, +-1 for x = -1 (by the parity of k), else 0.
    minus_one = n.splat(-1, x.dtype)
    odd_e = b.compare("ne", b.binary("bitwise_and", e, one), zero)
    neg = b.select(b.compare("eq", x, one), one,
                   b.select(b.compare("eq", x, minus_one),
                            b.select(odd_e, minus_one, one), zero))
    return [b.select(b.compare("lt", e, zero), neg, result)]


@register("Mod", dtypes=NUMERIC, typed=(0, 1), attrs={"fmod": ANY_VALUE},
          doc="`graph.rem` (C's fmod), plus `b` where the result is nonzero "
              "and the signs differ for `fmod = 0` (numpy.mod)",
          fold=_known_only(lambda n, ins: [
              (np.fmod(ins[0], ins[1]) if n.attr("fmod") else np.mod(ins[0], ins[1])).astype(ins[0].dtype)]))
def _mod(n: Node):
    b, x, y = n.b, n.value(0), n.value(1)
    return [b.binary("rem", x, y) if n.attr("fmod") else b.python_mod(x, y)]


def _variadic_fold(fn):
    def fold(_node, ins):
        arrays = [a for a in ins if a is not None]
        if any(a.dtype == object for a in arrays):
            return None
        out = arrays[0]
        for a in arrays[1:]:
            out = fn(out, a)
        out = np.asarray(out).astype(arrays[0].dtype)
        return [out] if _small_float_ok(out) else None
    return fold


def _emit_variadic(op: str):
    def emit(n: Node):
        vals = n.values()
        out = vals[0]
        for v in vals[1:]:
            out = n.b.binary(op, out, v)
        if n.op_type == "Mean" and len(vals) > 1:
            out = n.b.binary("div", out, n.splat(len(vals), out.dtype))
        return [out]
    return emit


register("Max", dtypes=NUMERIC, typed=ALL, doc="`graph.max` pairwise (NaN propagates)",
         fold=_variadic_fold(np.maximum))(_emit_variadic("max"))
register("Min", dtypes=NUMERIC, typed=ALL, doc="`graph.min` pairwise (NaN propagates)",
         fold=_variadic_fold(np.minimum))(_emit_variadic("min"))
register("Sum", dtypes=NUMERIC, typed=ALL, doc="`graph.add` pairwise",
         fold=_variadic_fold(np.add))(_emit_variadic("add"))
register("Mean", dtypes=FLOATS, typed=ALL, doc="`graph.add` pairwise, then `graph.div`")(
    _emit_variadic("add"))


# -- comparisons and logic -------------------------------------------------

_COMPARE = {"Equal": ("eq", np.equal), "Less": ("lt", np.less),
            "Greater": ("gt", np.greater), "LessOrEqual": ("le", np.less_equal),
            "GreaterOrEqual": ("ge", np.greater_equal)}


def _emit_compare(direction: str):
    def emit(n: Node):
        return [n.b.compare(direction, n.value(0), n.value(1))]
    return emit


for _name, (_dir, _np) in _COMPARE.items():
    register(_name, dtypes=ANY if _name == "Equal" else NUMERIC, typed=(0, 1),
             doc=f"`graph.compare {_dir}`",
             fold=_known_only(lambda _n, ins, f=_np: [np.asarray(f(ins[0], ins[1]))]))(
        _emit_compare(_dir))


#: The integer element types (the bitwise ops and shifts).
INTEGERS = (I8, I16) + INTS + (U8, U16, U32, U64)

_BITWISE = {"BitwiseAnd": ("bitwise_and", np.bitwise_and),
            "BitwiseOr": ("bitwise_or", np.bitwise_or),
            "BitwiseXor": ("bitwise_xor", np.bitwise_xor)}


@register("BitwiseAnd", "BitwiseOr", "BitwiseXor", dtypes=INTEGERS, typed=(0, 1),
          doc="`graph.bitwise_and`, `graph.bitwise_or`, `graph.bitwise_xor`",
          fold=_known_only(lambda n, ins: [np.asarray(
              _BITWISE[n.op_type][1](ins[0], ins[1])).astype(ins[0].dtype)]))
def _bitwise(n: Node):
    return [n.b.binary(_BITWISE[n.op_type][0], n.value(0), n.value(1))]


@register("BitwiseNot", dtypes=INTEGERS, doc="`-x - 1` (two's complement; "
          "modulo 2^bits for unsigned types)",
          fold=_known_only(lambda n, ins: [np.bitwise_not(ins[0])]))
def _bitwise_not(n: Node):
    x = n.value(0)
    return [n.b.binary("sub", n.b.unary("neg", x), n.splat(1, x.dtype))]


def _fold_bitshift(n: Node, ins):
    x, y = ins
    bits = x.dtype.itemsize * 8
    out = np.empty(np.broadcast(x, y).shape, x.dtype)
    for idx, (a, s) in enumerate(zip(*[v.ravel() for v in np.broadcast_arrays(x, y)])):
        a, s = int(a), int(s)
        if not 0 <= s < bits:
            r = -1 if (n.attr("direction") == "RIGHT" and a < 0) else 0
        elif n.attr("direction") == "LEFT":
            r = (a << s) & ((1 << bits) - 1)
            if x.dtype.kind == "i" and r >= 1 << (bits - 1):
                r -= 1 << bits
        else:
            r = a >> s
        out.flat[idx] = r
    return [out]


@register("BitShift", dtypes=INTEGERS, typed=(0, 1),
          attrs={"direction": one_of("LEFT", "RIGHT")},
          doc="`graph.shift_left` / `graph.shift_right` (arithmetic for "
              "signed types; amounts outside [0, bits) give the sign fill "
              "or 0, as opset 28 specifies)",
          fold=_known_only(_fold_bitshift))
def _bitshift(n: Node):
    op = "shift_left" if n.attr("direction") == "LEFT" else "shift_right"
    return [n.b.binary(op, n.value(0), n.value(1))]


@register("And", "Or", "Xor", dtypes=(BOOL,), typed=(0, 1),
          doc="`graph.select` (And, Or), `graph.compare ne` (Xor)",
          fold=_known_only(lambda n, ins: [np.asarray(
              {"And": np.logical_and, "Or": np.logical_or,
               "Xor": np.logical_xor}[n.op_type](ins[0], ins[1]))]))
def _logic(n: Node):
    b, x, y = n.b, n.value(0), n.value(1)
    if n.op_type == "And":
        return [b.select(x, y, n.splat(False, BOOL))]
    if n.op_type == "Or":
        return [b.select(x, n.splat(True, BOOL), y)]
    return [b.compare("ne", x, y)]


def _fold_where(_node, ins):
    c, x, y = ins
    if c.dtype == object:
        return None
    if x.dtype == object or y.dtype == object:
        out = np.where(c, x.astype(object), y.astype(object))
        return [make_partial(list(out.reshape(-1)), out.shape)]
    return [np.where(c, x, y).astype(x.dtype)]


@register("Where", dtypes=ANY, typed=(1, 2), doc="`graph.select`", fold=_fold_where)
def _where(n: Node):
    return [n.b.select(n.value(0), n.value(1), n.value(2))]


@register("Clip", dtypes=NUMERIC,
          doc="`graph.clamp` when min/max are constants, else `graph.max`/"
              "`graph.min` with them")
def _clip(n: Node):
    b, x = n.b, n.value(0)
    bounds = {}           # constant bounds: clamp attributes
    tensors = []          # run-time bounds: (op, value)
    for i, key, op in ((1, "min", "max"), (2, "max", "min")):
        if not n.has(i):
            continue
        c = n.maybe_const(i)
        if c is not None and c.size != 1:
            raise Unsupported(f"{key} must be a scalar")
        if c is None or not is_float(x.dtype):
            # Integer bounds stay exact as tensors (f64 attributes would
            # round those beyond 2^53).
            tensors.append((op, n.value(i)))
        else:
            bounds[key] = float(c.reshape(-1)[0])
    y = b.unary("clamp", x, bounds) if bounds else x
    for op, v in tensors:
        y = b.binary(op, y, b.cast(v, x.dtype))
    return [y]


# -- quantization (QDQ) ------------------------------------------------------

_SATURATE = Attr("0 or 1 (for the float8 types: 1 clamps to the largest finite "
                 "value, 0 gives NaN, or +-inf for E5M2)",
                 lambda v, _n: None if v in (0, 1) else f"value {v!r} (0 or 1)")



#: Integer types QuantizeLinear produces and their ranges (the 2- and 4-bit
#: ones carried one value per byte).
_QTYPES = {np.dtype(np.int8): (-128, 127), np.dtype(np.uint8): (0, 255),
           np.dtype(np.int16): (-32768, 32767), np.dtype(np.uint16): (0, 65535)}
_QTYPES.update({t: subbyte_range(t)[1:] for t in SUBBYTE})


def _quant_param(n: Node, v: Value, x: Value, what: str) -> Value:
    """A scale or zero point, per tensor (rank 0 or one element), per
    axis (1-D along ``axis``) or per block (``block_size``: x's rank, one
    entry per block of that many along ``axis``), shaped to broadcast
    against ``x``."""
    block = int(n.attr("block_size", 0) or 0)
    if block:
        return _blocked_param(n, v, x, what, block)
    if v.rank == 0 or (v.rank == 1 and v.shape[0] == 1):
        return reshape_dims(n.b, v, []) if v.rank else v
    if v.rank != 1:
        raise Unsupported(f"invalid model: {what} of rank {v.rank} (0 or 1 without "
                          "block_size)")
    axis = n.axis(n.attr("axis", 1), x.rank)
    if v.shape[0] is not None and x.shape[axis] is not None and v.shape[0] != x.shape[axis]:
        raise Unsupported(f"invalid model: {what} has {v.shape[0]} entries for axis "
                          f"{axis} of size {x.shape[axis]}")
    shape = [1] * x.rank
    shape[axis] = v.shape[0]
    return reshape_dims(n.b, v, shape)


def _blocked_param(n: Node, v: Value, x: Value, what: str, block: int) -> Value:
    """Blocked quantization's parameter expanded to x's shape: entry i
    along ``axis`` repeated ``block`` times (the last block cut short)."""
    b = n.b
    axis = n.axis(n.attr("axis", 1), x.rank)
    if block < 0 or None in x.shape or None in v.shape:
        raise Unsupported(f"blocked quantization needs static shapes and block_size > 0 "
                          f"(x {x.type}, {what} {v.type}, block_size {block})")
    blocks = -(-x.shape[axis] // block)
    want = list(x.shape)
    want[axis] = blocks
    if list(v.shape) != want:
        raise Unsupported(f"invalid model: {what} {v.type} must be "
                          f"[{', '.join(map(str, want))}] for x {x.type} in blocks of "
                          f"{block} along axis {axis}")
    split = want[:axis + 1] + [1] + want[axis + 1:]
    wide = split[:]
    wide[axis + 1] = block
    full = want[:]
    full[axis] = blocks * block
    y = reshape_dims(b, b.broadcast_to(reshape_dims(b, v, split), wide), full)
    if full[axis] != x.shape[axis]:
        y = b.slice(y, [0] * x.rank, list(x.shape), [1] * x.rank)
    return y


@register("QuantizeLinear", dtypes=FLOATS, typed=(0, 1),
          attrs={"axis": ANY_VALUE, "block_size": ANY_VALUE, "saturate": _SATURATE,
                 "output_dtype": ANY_VALUE, "precision": ANY_VALUE},
          doc="`round_half_even(x / scale) + zero_point` clamped to the quantized "
              "type's range, computed in x's float type (int8, uint8, int16, "
              "uint16, int4, uint4, int2 and uint2 outputs, the 2- and 4-bit ones "
              "one value per byte; per tensor or per axis); to a float8 type "
              "`x / scale + zero_point` cast as Cast does (saturate); blocked "
              "(block_size: each scale repeated over its block along axis)")
def _quantize_linear(n: Node):
    b, x = n.b, n.value(0)
    if n.has(2):
        qt = n.type(2).dtype
    elif n.attr("output_dtype", 0):
        qt = numpy_dtype(n.attr("output_dtype"))
    else:
        qt = np.dtype(np.uint8)  # ONNX's default
    if qt in FLOAT8:
        q = b.binary("div", x, _quant_param(n, n.value(1), x, "y_scale"))
        if n.has(2):
            q = b.binary("add", q, b.cast(_quant_param(n, n.value(2), x, "y_zero_point"),
                                          x.dtype))
        return [_float8_cast(n, q, qt)]
    if qt not in _QTYPES:
        raise Unsupported(f"quantized type {dtype_name(qt)} (int8, uint8, int16, "
                          "uint16, int4, uint4, int2 and uint2 are supported)")
    scale = _quant_param(n, n.value(1), x, "y_scale")
    q = round_half_even(n, b.binary("div", x, scale))
    if n.has(2):
        q = b.binary("add", q, b.cast(_quant_param(n, n.value(2), x, "y_zero_point"), x.dtype))
    lo, hi = _QTYPES[qt]
    q = b.unary("clamp", q, {"min": float(lo), "max": float(hi)})
    return [b.cast(q, qt)]


@register("DequantizeLinear", dtypes=(I8, U8, I16, U16, I32) + SUBBYTE + FLOAT8,
          typed=(0, 2),
          attrs={"axis": ANY_VALUE, "block_size": ANY_VALUE, "output_dtype": ANY_VALUE},
          doc="`(x - zero_point) * scale` in the scale's float type (int8, uint8, "
              "int16, uint16, int32, int4, uint4, int2 and uint2 inputs; per tensor "
              "or per axis or per block)")
def _dequantize_linear(n: Node):
    b, x = n.b, n.value(0)
    scale = _quant_param(n, n.value(1), x, "x_scale")
    ft = scale.dtype
    xf = b.cast(x, ft)
    if n.has(2) and x.dtype in FLOAT8:  # exact in the scale's float type
        zp = _quant_param(n, n.value(2), x, "x_zero_point")
        xf = b.binary("sub", xf, b.cast(zp, ft))
    elif n.has(2):
        zp = _quant_param(n, n.value(2), x, "x_zero_point")
        # The difference in i32 (exact), then one conversion.
        xf = b.cast(b.binary("sub", b.cast(x, I32), b.cast(zp, I32)), ft)
    y = b.binary("mul", xf, scale)
    if n.attr("output_dtype", 0):
        y = b.cast(y, numpy_dtype(n.attr("output_dtype")))
    return [y]


# -- integer matmul and convolution (MatMulInteger, ConvInteger, QLinear*) ----

def minus_zero_point(n: Node, x: Value, i: int, per_axis) -> Value:
    """``x - zero_point`` in i32 (exact), the zero point being input ``i``
    (absent: 0), per tensor or, when 1-D with more than one entry, reshaped
    by ``per_axis(length)`` to broadcast along its axis."""
    b = n.b
    xi = b.cast(x, I32)
    if not n.has(i):
        return xi
    zp = n.value(i)
    if zp.rank == 1 and zp.shape[0] != 1:
        zp = reshape_dims(b, zp, per_axis(zp.shape[0]))
    elif zp.rank:
        if zp.rank > 1:
            raise Unsupported(f"invalid model: zero point of rank {zp.rank}")
        zp = reshape_dims(b, zp, [])
    return b.binary("sub", xi, b.cast(zp, I32))


def per_axis_param(n: Node, i: int, per_axis) -> Value:
    """Input ``i`` (a scale or zero point): per tensor as a scalar, 1-D
    reshaped by ``per_axis(length)``."""
    v = n.value(i)
    if v.rank == 0:
        return v
    if v.rank != 1:
        raise Unsupported(f"invalid model: input {i} of rank {v.rank} (0 or 1)")
    if v.shape[0] == 1:
        return reshape_dims(n.b, v, [])
    return reshape_dims(n.b, v, per_axis(v.shape[0]))


def requantize(n: Node, acc: Value, multiplier: Value, zp_index: int, qt,
               per_axis=None) -> Value:
    """``clip(round_half_even(acc * multiplier + zero_point))`` cast to the
    quantized type ``qt``, in f64 as ONNX's reference computes it (an int32
    times a float32 is a float64 in NumPy), ``multiplier`` being computed in
    the scales' float type first."""
    b = n.b
    y = b.binary("mul", b.cast(acc, F64), b.cast(multiplier, F64))
    if n.has(zp_index):
        zp = per_axis_param(n, zp_index, per_axis or (lambda m: [m]))
        y = b.binary("add", y, b.cast(zp, F64))
    lo, hi = _QTYPES[qt]
    y = b.unary("clamp", round_half_even(n, y), {"min": float(lo), "max": float(hi)})
    return b.cast(y, qt)


def _rows(m):
    return [m, 1]


def _cols(k):
    return [k]


@register("MatMulInteger", dtypes=(I8, U8), typed=(0, 1, 2, 3),
          doc="`graph.matmul` in i32 of `A - a_zero_point` and `B - b_zero_point` "
              "(zero points per tensor, per row of A, per column of B)")
def _matmul_integer(n: Node):
    a = minus_zero_point(n, n.value(0), 2, _rows)
    w = minus_zero_point(n, n.value(1), 3, _cols)
    return [n.b.matmul(a, w)]


@register("QLinearMatMul", dtypes=(I8, U8), typed=(0, 2, 3, 5, 7),
          doc="`graph.matmul` in i32 of the inputs minus their zero points, then "
              "`round_half_even(acc * (a_scale * b_scale / y_scale)) + y_zero_point` "
              "clamped, in f64 as ONNX's reference (scales per tensor, per row of "
              "a and y, per column of b)")
def _qlinear_matmul(n: Node):
    b = n.b
    a = minus_zero_point(n, n.value(0), 2, _rows)
    w = minus_zero_point(n, n.value(3), 5, _cols)
    acc = b.matmul(a, w)
    scale = b.binary("div", b.binary("mul", per_axis_param(n, 1, _rows),
                                     per_axis_param(n, 4, _cols)),
                     per_axis_param(n, 6, _rows))
    qt = n.type(7).dtype if n.has(7) else n.type(0).dtype
    return [requantize(n, acc, scale, 7, qt, _rows)]


@register("DynamicQuantizeLinear", dtypes=(F32,),
          doc="uint8 quantization with the scale and zero point of the input's "
              "range (including 0): `scale = (max - min) / 255` (1 / 255 when the "
              "range is empty), `zero_point = round_half_even(clamp(-min / scale, 0, "
              "255))`, `y = clamp(round_half_even(x / scale) + zero_point, 0, 255)`")
def _dynamic_quantize_linear(n: Node):
    b, x = n.b, n.value(0)
    axes = list(range(x.rank))
    zero = n.splat(0, x.dtype)
    hi = b.binary("max", b.reduce("max", x, axes), zero)
    lo = b.binary("min", b.reduce("min", x, axes), zero)
    span = b.binary("sub", hi, lo)
    span = b.select(b.compare("eq", span, zero), n.splat(1, x.dtype), span)
    scale = b.binary("div", span, n.splat(255, x.dtype))
    zp = b.unary("clamp", b.binary("sub", zero, b.binary("div", lo, scale)),
                 {"min": 0.0, "max": 255.0})
    zp = round_half_even(n, zp)
    y = b.binary("add", round_half_even(n, b.binary("div", x, scale)), zp)
    y = b.unary("clamp", y, {"min": 0.0, "max": 255.0})
    return [b.cast(y, U8), scale, b.cast(zp, U8)]


# -- casts -----------------------------------------------------------------

def _check_cast_to(v, _node):
    if v not in ONNX_TO_NUMPY:
        return f"cast to {onnx_type_name(v)} is not supported"
    return None


#: Per 8-bit float: (|x| at which a cast without saturation overflows,
#: whether |x| equal to it does too, the overflow's value). Beyond the
#: largest finite value, round to nearest even reaches the next power of
#: two at the midpoint when the largest value's mantissa is odd (E5M2,
#: E4M3FNUZ, E5M2FNUZ), past it when even (E4M3FN: 464 rounds to 448).
_FLOAT8_OVERFLOW = {"float8_e4m3fn": (464.0, False, np.nan),
                    "float8_e5m2": (61440.0, True, np.inf),
                    "float8_e4m3fnuz": (248.0, True, np.nan),
                    "float8_e5m2fnuz": (61440.0, True, np.nan)}


def _float8_cast(n: Node, x: Value, to) -> Value:
    """``graph.cast`` of ``x`` to ``to``, which saturates for an 8-bit float;
    with ``saturate = 0`` an overflow (infinities too) gives NaN, or +-inf
    for E5M2, as ONNX defines."""
    b = n.b
    y = b.cast(x, to)
    if to not in FLOAT8 or n.attr("saturate", 1) or x.dtype.kind == "b":
        return y
    limit, inclusive, value = _FLOAT8_OVERFLOW[to.name]
    xf = x if x.dtype in FLOATS else b.cast(x, F32)
    over = b.compare("ge" if inclusive else "gt", b.unary("abs", xf),
                     n.splat(limit, xf.dtype))
    if np.isnan(value):
        special = b.constant(np.array(np.nan, dtype=to))
    else:
        special = b.select(b.compare("lt", xf, n.splat(0.0, xf.dtype)),
                           b.constant(np.array(-value, dtype=to)),
                           b.constant(np.array(value, dtype=to)))
    return b.select(over, special, y)


def _subbyte_cast(n: Node, x: Value, to) -> Value:
    """``graph.cast`` of ``x`` to a 2- or 4-bit integer type (carried in a
    byte): from a float, truncated toward zero, and 0 where that is out of
    the type's range (ONNX leaves it undefined; 0 is what its reference
    gives, through ml_dtypes); from an integer, its low bits (two's
    complement for the signed types), as ONNX casts between integers."""
    b = n.b
    bits, lo, hi = subbyte_range(to)
    if x.dtype.kind == "b":
        return b.cast(x, to)
    if is_float(x.dtype):
        xf = x if x.dtype in FLOATS else b.cast(x, F32)
        # Truncation lands in [lo, hi] exactly for x in (lo - 1, hi + 1); the
        # clamp keeps the conversion of the other lanes defined.
        inside = b.select(b.compare("gt", xf, n.splat(lo - 1, xf.dtype)),
                          b.compare("lt", xf, n.splat(hi + 1, xf.dtype)),
                          b.constant(np.zeros((), np.bool_)))
        clamped = b.unary("clamp", xf, {"min": float(lo - 1), "max": float(hi + 1)})
        return b.select(inside, b.cast(clamped, to), n.splat(0, to))
    xi = b.cast(x, I32)
    low = b.binary("bitwise_and", xi, n.splat(2 ** bits - 1, I32))
    if lo < 0:  # sign-extend the top bit
        sign = n.splat(2 ** (bits - 1), I32)
        low = b.binary("sub", b.binary("bitwise_xor", low, sign), sign)
    return b.cast(low, to)


def _cast_to(n: Node, x: Value, to) -> Value:
    if to in SUBBYTE:
        return _subbyte_cast(n, x, to)
    return _float8_cast(n, x, to)


def _fold_cast(n: Node, ins):
    x = ins[0]
    to = numpy_dtype(n.attr("to")) if n.op_type == "Cast" else n.type(1).dtype
    if x.dtype == object:
        return [x] if to == I64 else None
    if to in FLOAT8 or x.dtype in FLOAT8:
        if x.dtype.kind in "iub" or not n.attr("saturate", 1):
            return None  # left to the compiled cast (and its overflow rule)
        big = float(np.finfo(to).max) if to in FLOAT8 else np.inf
        with np.errstate(all="ignore"):
            return [np.clip(x.astype(np.float64), -big, big).astype(to)]
    if is_float(x.dtype) and to.kind in "iub" and not np.isfinite(x).all():
        return None
    with np.errstate(all="ignore"):
        out = x.astype(to)
    return [out] if _small_float_ok(out) or not is_float(x.dtype) else None


@register("Cast", dtypes=ANY + FLOAT8 + SUBBYTE,
          attrs={"to": Attr("float, float16, bfloat16, double, int8 ... int64, uint8 ... "
                            "uint64, bool, float8e4m3fn, float8e4m3fnuz, float8e5m2, "
                            "float8e5m2fnuz, int4, uint4, int2, uint2", _check_cast_to),
                 "saturate": _SATURATE, "round_mode": IGNORED},
          doc="`graph.cast` (float to integer truncates toward zero; to bool "
              "tests `!= 0`; to a float8 type rounds to nearest even, then "
              "saturates, or with saturate = 0 selects the overflow value; to a "
              "2- or 4-bit integer (carried one value per byte, as int8/uint8): "
              "from a float truncated, 0 where out of range, from an integer its "
              "low bits)",
          fold=_fold_cast)
def _cast(n: Node):
    return [_cast_to(n, n.value(0), numpy_dtype(n.attr("to")))]


def _check_bitcast_to(v, _node) -> Optional[str]:
    # Cast's types less the storage-only ones (float8, 2/4-bit).
    if v not in ONNX_TO_NUMPY or numpy_dtype(v) not in ANY:
        return f"bitcast to {onnx_type_name(v)} is not supported"
    return None


@register("BitCast", dtypes=ANY,
          attrs={"to": Attr("float, float16, bfloat16, double, int8 ... int64, uint8 ... "
                            "uint64, bool", _check_bitcast_to)},
          doc="`graph.bitcast`: each element's bits read as `to` (of the same width; "
              "bool, stored as a byte, to an 8-bit integer 0 or 1)")
def _bitcast(n: Node):
    x, to = n.value(0), numpy_dtype(n.attr("to"))
    if x.dtype.itemsize != to.itemsize or (to == BOOL and x.dtype != BOOL):
        raise Unsupported(f"invalid model: BitCast from {dtype_name(x.dtype)} "
                          f"({8 * x.dtype.itemsize} bits) to {dtype_name(to)} "
                          f"({8 * to.itemsize} bits): the widths must be equal")
    if to == x.dtype:
        return [x]
    return [n.b.with_attrs("bitcast", x, {}, x.type.with_dtype(to))]


@register("CastLike", dtypes=ANY + FLOAT8 + SUBBYTE, typed=(0, 1),
          attrs={"saturate": _SATURATE, "round_mode": IGNORED},
          doc="`graph.cast` to the element type of `target_type` (as Cast)",
          fold=_fold_cast, fold_inputs=(0,))
def _cast_like(n: Node):
    return [_cast_to(n, n.value(0), n.type(1).dtype)]


@register("Identity", dtypes=ANY, doc="no op")
def _identity(n: Node):
    return [n.tensor(0)]


@register("Dropout", dtypes=FLOATS,
          attrs={"seed": IGNORED},
          doc="Inference only: the identity (`training_mode` must be absent "
              "or a constant false); the mask output is all true")
def _dropout(n: Node):
    if n.has(2):
        tm = n.maybe_const(2)
        if tm is None or bool(tm.reshape(-1)[0]):
            raise Unsupported("training mode (training_mode input not a constant false) "
                              "is not supported")
    outs: List[Output] = [n.tensor(0)]
    if n.wants(1):
        t = n.type(0)
        if not t.is_static:
            raise Unsupported("the mask output of a dynamic-shaped input")
        outs.append(np.ones(t.shape, dtype=np.bool_))
    return outs


@register("SwiGLU", dtypes=FLOATS, typed=(0, 1), attrs={"alpha": ANY_VALUE},
          doc="`a * sigmoid(alpha * a) * b` (`graph.silu` for alpha = 1); a and b "
              "of one shape")
def _swiglu(n: Node):
    b, a, v = n.b, n.value(0), n.value(1)
    if a.shape != v.shape:
        raise Unsupported(f"invalid model: a {a.type} and b {v.type} must have one "
                          "shape (SwiGLU does not broadcast)")
    alpha = float(n.attr("alpha"))
    gate = b.unary("silu", a) if alpha == 1.0 else b.binary(
        "mul", a, b.unary("sigmoid", b.binary("mul", a, n.splat(alpha, a.dtype))))
    return [b.binary("mul", gate, v)]
