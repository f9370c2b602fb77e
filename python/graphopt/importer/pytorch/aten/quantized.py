"""PT2E quantization's ops (``torch.ops.quantized_decomposed``), as
``convert_pt2e`` writes them around convolutions and linear layers.

Each is written in graph ops the way PyTorch computes it
(``torch/ao/quantization/fx/_decomposed.py``), so that results are equal to
eager PyTorch's:

* ``quantize_per_tensor(x, scale, zp, qmin, qmax, dtype)``:
  ``clamp(round(x * (1 / scale)) + zp, qmin, qmax)`` cast to ``dtype``, in
  f32 (``1 / scale`` computed in double and rounded to f32, as PyTorch's
  scalar multiplication does; ``round`` is half to even);
* ``dequantize_per_tensor(q, scale, zp, ...)``: ``(q - zp) * scale`` in f32;
* ``quantize_per_channel``/``dequantize_per_channel``: the same with a
  scale and zero point per index of ``axis`` (a multiplication by
  ``1 / scales`` computed in the scales' type).

Dequantization is written as ONNX's DequantizeLinear imports it,
``mul(cast(sub(cast(q, i32), zp)), scale)`` (the difference is exact in i32
and in f32 alike), which ``graph-cpu-quantized-matmul`` recognizes around
matmuls and convolutions: a PT2E model gets the integer kernels too. The
mappings never fold, so a constant int8 weight stays int8 until that pass.
"""

from __future__ import annotations

import numpy as np
import torch

from ... import composites
from ...errors import Unsupported
from ..dtypes import Value
from .core import op

#: The integer types PT2E quantizes to and their full ranges.
_QTYPES = {torch.int8: (-128, 127), torch.uint8: (0, 255),
           torch.int16: (-32768, 32767), torch.int32: (-2**31, 2**31 - 1)}


def _qtype(ctx, a) -> torch.dtype:
    dt = ctx.dtype(a.dtype)
    if dt not in _QTYPES:
        raise Unsupported(f"quantized dtype {dt} (int8, uint8, int16 and int32 are "
                          "supported)")
    lo, hi = _QTYPES[dt]
    qmin, qmax = ctx.int_(a.quant_min, "quant_min"), ctx.int_(a.quant_max, "quant_max")
    if not lo <= qmin <= qmax <= hi:
        raise Unsupported(f"quant_min {qmin} and quant_max {qmax} outside {dt}'s "
                          f"range [{lo}, {hi}]")
    return dt


def _float_input(ctx, x: Value) -> Value:
    """PyTorch quantizes f16/bf16 inputs after converting them to f32."""
    if x.dtype in (torch.float16, torch.bfloat16):
        return ctx.b.cast(x, torch.float32)
    if x.dtype != torch.float32:
        raise Unsupported(f"quantizing a {x.dtype} tensor (float32, float16 and "
                          "bfloat16 are supported)")
    return x


def _per_tensor(ctx, a):
    """``(scale, zero_point)`` of a per-tensor op as Python numbers (the
    ``.tensor`` overloads pass them as one-element constant tensors)."""
    def number(v):
        if isinstance(v, Value) and v.const is not None:
            return np.asarray(v.const).reshape(-1)[0].item()
        if isinstance(v, torch.Tensor):
            return v.reshape(-1)[0].item()
        return v  # a number, or a run-time value (refused below)
    return ctx.float_(number(a.scale), "scale"), ctx.int_(number(a.zero_point), "zero_point")


def _quantize(ctx, x: Value, inv_scale: Value, zp: Value, a, dt) -> Value:
    b = ctx.b
    q = composites.round_half_even(b, b.binary("mul", x, inv_scale))
    q = b.binary("add", q, zp)
    q = b.unary("clamp", q, {"min": float(ctx.int_(a.quant_min)),
                             "max": float(ctx.int_(a.quant_max))})
    return b.cast(q, dt)


def _dequantize(ctx, q: Value, scale: Value, zp, out_dtype) -> Value:
    b = ctx.b
    qi = b.cast(q, torch.int32)
    if zp is not None:
        qi = b.binary("sub", qi, b.cast(zp, torch.int32))
    return b.cast(b.binary("mul", b.cast(qi, scale.dtype), scale), out_dtype)


def _out_dtype(ctx, a) -> torch.dtype:
    dt = ctx.dtype(a.get("out_dtype")) or torch.float32
    if not dt.is_floating_point:
        raise Unsupported(f"out_dtype {dt} (a float type is needed)")
    return dt


@op("quantized_decomposed.quantize_per_tensor", foldable=False)
def _quantize_per_tensor(ctx, a):
    dt = _qtype(ctx, a)
    x = _float_input(ctx, ctx.tensor(a.input))
    scale, zp = _per_tensor(ctx, a)
    b = ctx.b
    inv = b.splat(float(np.float32(1.0 / scale)), torch.float32)
    return _quantize(ctx, x, inv, b.splat(float(zp), torch.float32), a, dt)


def _quantized_input(ctx, a) -> Value:
    """A dequantize op's input, checked to be of the op's dtype."""
    dt = _qtype(ctx, a)
    q = ctx.tensor(a.input)
    if q.dtype != dt:
        raise Unsupported(f"input is {q.dtype}, the op says {dt}")
    return q


@op("quantized_decomposed.dequantize_per_tensor", foldable=False)
def _dequantize_per_tensor(ctx, a):
    q = _quantized_input(ctx, a)
    scale, zp = _per_tensor(ctx, a)
    b = ctx.b
    return _dequantize(ctx, q, b.splat(float(np.float32(scale)), torch.float32),
                       b.scalar(zp, torch.int32) if zp else None, _out_dtype(ctx, a))


def _along(ctx, v: Value, x: Value, axis: int, what: str) -> Value:
    """A 1-D per-channel parameter shaped to broadcast along ``axis`` of x."""
    if v.rank != 1 or (v.shape[0] is not None and x.shape[axis] is not None
                       and v.shape[0] not in (1, x.shape[axis])):
        raise Unsupported(f"{what} of shape {list(v.shape)} for axis {axis} of "
                          f"size {x.shape[axis]}")
    shape = [1] * x.rank
    shape[axis] = v.shape[0]
    return ctx.b.reshape(v, shape)


def _axis(ctx, a, x: Value) -> int:
    axis = ctx.int_(a.axis, "axis")
    if not -x.rank <= axis < x.rank:
        raise Unsupported(f"axis {axis} of a rank-{x.rank} tensor")
    return axis % x.rank


@op("quantized_decomposed.quantize_per_channel", foldable=False)
def _quantize_per_channel(ctx, a):
    dt = _qtype(ctx, a)
    x = _float_input(ctx, ctx.tensor(a.input))
    axis = _axis(ctx, a, x)
    b = ctx.b
    scales = ctx.tensor(a.scales)
    if not scales.dtype.is_floating_point:
        raise Unsupported(f"scales of type {scales.dtype}")
    # x * (1 / scales): the reciprocal in the scales' type, the product in
    # the promoted one (f64 scales make it f64, as in PyTorch).
    inv = b.binary("div", b.splat(1.0, scales.dtype), _along(ctx, scales, x, axis, "scales"))
    ft = torch.promote_types(x.dtype, scales.dtype)
    zp = b.cast(_along(ctx, ctx.tensor(a.zero_points), x, axis, "zero_points"), ft)
    return _quantize(ctx, b.cast(x, ft), b.cast(inv, ft), zp, a, dt)


@op("quantized_decomposed.dequantize_per_channel", foldable=False)
def _dequantize_per_channel(ctx, a):
    q = _quantized_input(ctx, a)
    axis = _axis(ctx, a, q)
    scales = ctx.tensor(a.scales)
    if not scales.dtype.is_floating_point:
        raise Unsupported(f"scales of type {scales.dtype}")
    zps = a.get("zero_points")
    zp = _along(ctx, ctx.tensor(zps), q, axis, "zero_points") if zps is not None else None
    return _dequantize(ctx, q, _along(ctx, scales, q, axis, "scales"), zp,
                       _out_dtype(ctx, a))
