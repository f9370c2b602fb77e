"""ONNX ops: convolution and pooling (the registry and the node context are in
:mod:`.core`)."""

from __future__ import annotations

import math
from typing import List, Optional, Sequence, Tuple

import numpy as np

from ... import composites
from ..._mlir_text import pool_out
from ...mlir_builder import F64Array
from .core import (ANY_VALUE, Attr, BOOL, F64, FLOATS, I8, I32, I64, NUMERIC, U8, Node,
                   Unsupported, Value, one_of, register, reshape_dims)


# ===========================================================================
# Convolution and pooling
# ===========================================================================

def _check_auto_pad(v, _node):
    if v not in ("NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"):
        return f"value {v!r}"
    return None


def window_padding(n: Node, spatial: Sequence[Optional[int]], kernel: Sequence[int],
                   strides: Sequence[int], dilations: Sequence[int]) -> List[int]:
    """ONNX padding ``[b1, b2, ..., e1, e2, ...]`` from ``pads`` or
    ``auto_pad``."""
    k = len(kernel)
    auto = n.attr("auto_pad")
    if auto in ("NOTSET", None, ""):
        pads = n.attr("pads", None) or [0] * (2 * k)
        if len(pads) != 2 * k:
            raise Unsupported(f"pads has {len(pads)} entries for {k} spatial dims")
        if any(p < 0 for p in pads):
            raise Unsupported("negative pads")
        return [int(p) for p in pads]
    if auto == "VALID":
        return [0] * (2 * k)
    begin, end = [], []
    for size, kk, s, d in zip(spatial, kernel, strides, dilations):
        if size is None:
            raise Unsupported(f"auto_pad {auto} with a dynamic spatial dim")
        total = max(0, (-(-size // s) - 1) * s + (kk - 1) * d + 1 - size)
        lo = total // 2 if auto == "SAME_UPPER" else total - total // 2
        begin.append(lo)
        end.append(total - lo)
    return begin + end


def _to_2d(n: Node, x: Value) -> Tuple[Value, bool]:
    """NC[L] -> NC1L for the 1-D forms; returns (value, was_1d)."""
    if x.rank == 4:
        return x, False
    if x.rank == 3:
        return reshape_dims(n.b, x, [x.shape[0], x.shape[1], 1, x.shape[2]]), True
    raise Unsupported(f"{x.rank - 2}-D {n.op_type} is not supported (1-D and 2-D are)")


def _from_2d(n: Node, y: Value) -> Value:
    return reshape_dims(n.b, y, [y.shape[0], y.shape[1], y.shape[3]])


_CONV_ATTRS = {
    "auto_pad": Attr("NOTSET, VALID, SAME_UPPER, SAME_LOWER (SAME_*: static "
                     "spatial dims)", _check_auto_pad),
    "dilations": ANY_VALUE, "group": ANY_VALUE, "kernel_shape": ANY_VALUE,
    "pads": Attr(">= 0"), "strides": ANY_VALUE,
}


@register("Conv", dtypes=FLOATS, typed=(0, 1, 2), attrs=_CONV_ATTRS,
          doc="`graph.conv2d` (1-D: through a unit H dim; 3-D: a sum of 2-D "
              "convolutions, one per depth tap)")
def _conv(n: Node):
    return [conv_of(n, n.value(0), n.value(1), n.value(2) if n.has(2) else None)]


def conv_of(n: Node, x: Value, w: Value, bias: Optional[Value]) -> Value:
    """The convolution of node ``n``'s attributes (Conv's) on ``x``, ``w``
    and ``bias`` (1-D through a unit H dim)."""
    b = n.b
    k = x.rank - 2
    if w.rank != x.rank:
        raise Unsupported(f"weight rank {w.rank} for input rank {x.rank}")
    kernel = list(w.shape[2:])
    if None in kernel:
        raise Unsupported("a dynamic kernel size")
    if n.attr("kernel_shape", None) not in (None, kernel):
        raise Unsupported(f"kernel_shape {n.attr('kernel_shape')} differs from the weight's {kernel}")
    strides = n.attr("strides", None) or [1] * k
    dilations = n.attr("dilations", None) or [1] * k
    pads = window_padding(n, x.shape[2:], kernel, strides, dilations)
    if x.rank == 5:
        return composites.conv3d(b, x, w, bias, strides, dilations, int(n.attr("group")),
                                 pads[:3], pads[3:])
    x2, one_d = _to_2d(n, x)
    if one_d:
        w = reshape_dims(b, w, [w.shape[0], w.shape[1], 1, w.shape[2]])
        strides, dilations = [1] + list(strides), [1] + list(dilations)
        pads = [0, pads[0], 0, pads[1]]
    n_, _, h, wd = x2.shape
    oh = pool_out(h, w.shape[2], strides[0], pads[0], pads[2], dilations[0], False)
    ow = pool_out(wd, w.shape[3], strides[1], pads[1], pads[3], dilations[1], False)
    y = b.generic("conv2d", [x2, w] + ([bias] if bias is not None else []),
                  {"strides": list(strides), "padding": list(pads),
                   "dilations": list(dilations), "groups": int(n.attr("group"))},
                  x2.type.with_shape([n_, w.shape[0], oh, ow]))
    return _from_2d(n, y) if one_d else y


@register("CausalConvWithState", dtypes=FLOATS, typed=(0, 1, 2, 3),
          attrs={"activation": one_of("none", "silu", "swish")},
          doc="`concat(past_state, input)` along the length (zeros when there is "
              "no past state), a depthwise `graph.conv2d` over it with no padding "
              "(through a unit H dim), plus bias, then SiLU for 'silu'/'swish'; "
              "present_state is the concatenation's last k - 1 positions")
def _causal_conv_with_state(n: Node):
    b, x, w = n.b, n.value(0), n.value(1)
    if x.rank != 3 or w.rank != 3:
        raise Unsupported(f"invalid model: input {x.type} and weight {w.type} must "
                          "be rank 3")
    if None in tuple(x.shape) + tuple(w.shape):
        raise Unsupported("dynamic shapes (CausalConvWithState needs static ones)")
    batch, channels, length = x.shape
    k = w.shape[2]
    if w.shape[0] != channels or w.shape[1] != 1:
        raise Unsupported(f"invalid model: weight {w.type} for {channels} channels "
                          f"(expected ({channels}, 1, k))")
    if n.has(3):
        past = n.value(3)
        if tuple(past.shape) != (batch, channels, k - 1):
            raise Unsupported(f"invalid model: past_state {past.type}, expected "
                              f"({batch}, {channels}, {k - 1})")
    else:
        past = b.constant(np.zeros((batch, channels, k - 1), dtype=x.dtype))
    full = b.concat([past, x], 2) if k > 1 else x
    total = full.shape[2]
    w2 = reshape_dims(b, w, [channels, 1, 1, k])
    x2 = reshape_dims(b, full, [full.shape[0], channels, 1, total])
    y = b.conv2d(x2, w2, n.value(2) if n.has(2) else None, strides=[1, 1],
                 padding=[0, 0, 0, 0], dilations=[1, 1], groups=channels)
    y = reshape_dims(b, y, [y.shape[0], channels, length])
    if n.attr("activation", "none") in ("silu", "swish"):
        y = b.unary("silu", y)
    present = b.slice(full, [0, 0, total - (k - 1)], [full.shape[0], channels, total],
                      [1, 1, 1])
    return [y, present]


_POOL_ATTRS = {
    "auto_pad": _CONV_ATTRS["auto_pad"], "ceil_mode": ANY_VALUE,
    "kernel_shape": ANY_VALUE, "pads": Attr(">= 0"), "strides": ANY_VALUE,
}


def _pool(n: Node, kind: str, x: Optional[Value] = None,
          count_include_pad: Optional[bool] = None):
    b = n.b
    x = n.value(0) if x is None else x
    kernel = list(n.attr("kernel_shape"))
    k = len(kernel)
    if x.rank != k + 2:
        raise Unsupported(f"kernel_shape has {k} dims for input rank {x.rank}")
    strides = n.attr("strides", None) or [1] * k
    dilations = n.attr("dilations", None) or [1] * k
    ceil = bool(n.attr("ceil_mode"))
    pads = window_padding(n, x.shape[2:], kernel, strides, dilations)
    if x.rank == 5:
        cip = bool(n.attr("count_include_pad")) if count_include_pad is None \
            else count_include_pad
        return composites.pool3d(b, kind, x, kernel, strides, pads[:3], pads[3:],
                                 dilations, ceil, cip)
    x2, one_d = _to_2d(n, x)
    if one_d:
        kernel, strides, dilations = [1] + kernel, [1] + list(strides), [1] + list(dilations)
        pads = [0, pads[0], 0, pads[1]]
    if kind == "avg_pool2d" and any(d != 1 for d in dilations):
        y = composites.avg_pool2d_dilated(b, x2, kernel, strides, pads, dilations, ceil,
                                          bool(n.attr("count_include_pad"))
                                          if count_include_pad is None else count_include_pad)
        return _from_2d(n, y) if one_d else y
    n_, c, h, w = x2.shape
    oh = pool_out(h, kernel[0], strides[0], pads[0], pads[2], dilations[0], ceil)
    ow = pool_out(w, kernel[1], strides[1], pads[1], pads[3], dilations[1], ceil)
    attrs = {"kernel": kernel, "strides": list(strides), "padding": pads}
    if kind == "max_pool2d":
        attrs["dilations"] = list(dilations)
    attrs["ceil_mode"] = ceil
    if kind == "avg_pool2d":
        attrs["count_include_pad"] = bool(n.attr("count_include_pad")) \
            if count_include_pad is None else count_include_pad
    y = b.generic(kind, [x2], attrs, x2.type.with_shape([n_, c, oh, ow]))
    return _from_2d(n, y) if one_d else y


def _check_indices(n: Node) -> Optional[str]:
    if n.wants(1) and n.value(0).rank != 4:
        return "the Indices output of a MaxPool that is not 2-D is not supported"
    return None


@register("MaxPool", dtypes=FLOATS,
          attrs={**_POOL_ATTRS, "dilations": ANY_VALUE,
                 "storage_order": Attr("any (only affects Indices)")},
          check=_check_indices,
          doc="`graph.max_pool2d` (1-D and 2-D; 3-D as two 2-D pools); the Indices "
              "output (2-D, static shapes) from a running argmax over the window's "
              "taps, offset by each plane's start")
def _max_pool(n: Node):
    y = _pool(n, "max_pool2d")
    if not n.wants(1):
        return [y]
    b, x = n.b, n.value(0)
    if None in x.shape:
        raise Unsupported("the Indices output of MaxPool needs static shapes")
    kernel = list(n.attr("kernel_shape"))
    strides = n.attr("strides", None) or [1, 1]
    dilations = n.attr("dilations", None) or [1, 1]
    pads = window_padding(n, x.shape[2:], kernel, strides, dilations)
    idx = composites.max_pool2d_indices(b, x, y, kernel, strides, pads, dilations,
                                        column_major=n.attr("storage_order", 0) == 1)
    # Indices over the whole tensor: plus (n * C + c) * H * W.
    nn_, c, h, w = x.shape
    planes = np.arange(nn_ * c, dtype=np.int64).reshape(nn_, c, 1, 1) * (h * w)
    return [y, b.binary("add", idx, b.constant(planes))]


@register("MaxUnpool", dtypes=FLOATS,
          attrs={"kernel_shape": ANY_VALUE, "pads": Attr(">= 0"), "strides": ANY_VALUE},
          doc="2-D: zeros of `(H - 1) * stride - pads + kernel`, each element of X "
              "scattered to its index (`graph.scatter` on the flattened tensor; "
              "static shapes), then zeros to a larger `output_shape`")
def _max_unpool(n: Node):
    b, x, idx = n.b, n.value(0), n.value(1)
    if x.rank != 4 or None in x.shape:
        raise Unsupported(f"MaxUnpool of {x.type} (2-D with static shapes is supported)")
    kernel = list(n.attr("kernel_shape"))
    strides = n.attr("strides", None) or [1, 1]
    pads = n.attr("pads", None) or [0, 0, 0, 0]
    nn_, c, h, w = x.shape
    shape = [nn_, c] + [(d - 1) * s - pads[i] - pads[i + 2] + k
                        for i, (d, s, k) in enumerate(zip((h, w), strides, kernel))]
    total = int(np.prod(shape))
    flat = b.scatter(b.splat(0, x.dtype, [total]), b.reshape(idx, [nn_ * c * h * w]),
                     b.reshape(x, [nn_ * c * h * w]), 0)
    y = b.reshape(flat, shape)
    if n.has(2):
        # The indices address the default shape; a larger output_shape
        # adds zeros at the end of each spatial dim (the reference's rule).
        out = list(n.ints(2, "output_shape"))
        if len(out) != 4 or out[:2] != shape[:2] or out[2] < shape[2] or out[3] < shape[3]:
            raise Unsupported(f"MaxUnpool output_shape {out} for the unpooled shape {shape}")
        y = b.pad(y, [0, 0, 0, 0], [0, 0, out[2] - shape[2], out[3] - shape[3]], 0.0)
    return [y]


@register("AveragePool", dtypes=FLOATS,
          attrs={**_POOL_ATTRS, "count_include_pad": ANY_VALUE, "dilations": ANY_VALUE},
          doc="`graph.avg_pool2d` (1-D and 2-D; 3-D as two 2-D pools); with dilations "
              "the sum of the kernel's taps as strided slices divided by each "
              "window's tap count (static shapes)")
def _avg_pool(n: Node):
    return [_pool(n, "avg_pool2d")]


@register("LpPool", dtypes=FLOATS,
          attrs={**_POOL_ATTRS, "p": ANY_VALUE, "dilations": ANY_VALUE},
          doc="`(k * avg_pool2d(|x|^p, count_include_pad))^(1/p)` (1-D, 2-D and 3-D); "
              "2-D with dilations: the sum of the kernel's taps as strided slices")
def _lp_pool(n: Node):
    b, x = n.b, n.value(0)
    p = float(n.attr("p"))
    dt = x.dtype
    powered = b.binary("pow", b.unary("abs", x), n.splat(p, dt))
    kernel = list(n.attr("kernel_shape"))
    dilations = n.attr("dilations", None) or [1] * len(kernel)
    if any(d != 1 for d in dilations):
        if x.rank != 4:
            raise Unsupported("LpPool with dilations beyond 2-D")
        strides = n.attr("strides", None) or [1, 1]
        pads = window_padding(n, x.shape[2:], kernel, strides, dilations)
        total = composites.avg_pool2d_dilated(b, powered, kernel, strides, pads, dilations,
                                              bool(n.attr("ceil_mode")), True, divide=False)
    else:
        pooled = _pool(n, "avg_pool2d", powered, count_include_pad=True)
        total = b.binary("mul", pooled, n.splat(float(math.prod(kernel)), dt))
    return [b.binary("pow", total, n.splat(1.0 / p, dt))]


@register("GlobalAveragePool", "GlobalMaxPool", dtypes=FLOATS,
          doc="`graph.reduce mean`/`max` over the spatial dims (keepdims)")
def _global_pool(n: Node):
    x = n.value(0)
    kind = "mean" if n.op_type == "GlobalAveragePool" else "max"
    return [n.b.reduce(kind, x, list(range(2, x.rank)), True)]


# ===========================================================================
# Resize
# ===========================================================================

_RESIZE_ATTRS = {
    "mode": one_of("nearest", "linear", "cubic"),
    "coordinate_transformation_mode": one_of(
        "half_pixel", "half_pixel_symmetric", "pytorch_half_pixel",
        "align_corners", "asymmetric", "tf_crop_and_resize"),
    "nearest_mode": one_of("round_prefer_floor", "round_prefer_ceil", "floor", "ceil"),
    "cubic_coeff_a": ANY_VALUE, "exclude_outside": ANY_VALUE,
    "extrapolation_value": ANY_VALUE, "antialias": ANY_VALUE,
    "axes": ANY_VALUE,
    "keep_aspect_ratio_policy": one_of("stretch", "not_larger", "not_smaller"),
}


_GRID_MODES = {"bilinear": "linear", "bicubic": "cubic", "linear": "linear",
               "cubic": "cubic", "nearest": "nearest"}


@register("GridSample", dtypes=FLOATS, typed=(0, 1),
          attrs={"mode": one_of(*_GRID_MODES),
                 "padding_mode": one_of(*composites.GRID_PADDINGS),
                 "align_corners": ANY_VALUE},
          doc="a sum over the 1, 2^k or 4^k taps (nearest, linear, cubic) of "
              "`graph.gather_elements` from the flattened input times the taps' "
              "weights (`composites.grid_sample`); 4-D and 5-D inputs, static "
              "shapes, f16/bf16 computed in f32")
def _grid_sample(n: Node):
    return [composites.grid_sample(n.b, n.value(0), n.value(1), _GRID_MODES[n.attr("mode")],
                                   n.attr("padding_mode"), bool(n.attr("align_corners")))]


def _optional_const(n: Node, i: int, what: str):
    """Optional input ``i`` as a constant array, or None when absent or
    empty (Resize passes an empty ``scales`` when it gives ``sizes``)."""
    if not n.has(i):
        return None
    c = n.const(i, what)
    return c.reshape(-1) if c.size else None


@register("Resize", dtypes=NUMERIC, typed=(0,), attrs=_RESIZE_ATTRS,
          doc="`graph.resize` (static resized dims; `scales`, `sizes` and, "
              "with tf_crop_and_resize, `roi` constant); linear and cubic "
              "on floats")
def _resize(n: Node):
    x = n.value(0)
    r = x.rank
    mode = n.attr("mode")
    if mode != "nearest" and x.dtype.kind not in "f":
        raise Unsupported(f"{mode} resize of {x.dtype} (floats only)")
    axes = [n.axis(a, r) for a in n.attr("axes", None) or range(r)]
    if len(set(axes)) != len(axes):
        raise Unsupported(f"invalid model: repeated axes {axes}")
    ctm = n.attr("coordinate_transformation_mode")
    roi = _optional_const(n, 1, "roi") if ctm == "tf_crop_and_resize" else None
    scales = _optional_const(n, 2, "scales")
    sizes = _optional_const(n, 3, "sizes")
    if (scales is None) == (sizes is None):
        raise Unsupported("invalid model: exactly one of scales and sizes must be given")
    given = scales if scales is not None else sizes
    if len(given) != len(axes):
        raise Unsupported(f"invalid model: {len(given)} {'scales' if sizes is None else 'sizes'} "
                          f"for {len(axes)} axes")
    for a in axes:
        if x.shape[a] is None:
            raise Unsupported(f"resizes dim {a}, which is dynamic")
    full_scales = [1.0] * r
    out = [None] * r  # None: kept
    if scales is not None:
        for a, s in zip(axes, scales.astype(np.float64)):
            if not s > 0:
                raise Unsupported(f"invalid model: scale {s} for axis {a}")
            full_scales[a] = float(s)
            out[a] = int(float(s) * x.shape[a])
    else:
        sizes = [int(v) for v in sizes]
        for a, v in zip(axes, sizes):
            full_scales[a] = v / x.shape[a]
        policy = n.attr("keep_aspect_ratio_policy")
        if policy != "stretch":
            pick = min if policy == "not_larger" else max
            s = pick(full_scales[a] for a in axes)
            for a in axes:
                full_scales[a] = s
                sizes[axes.index(a)] = int(s * x.shape[a] + 0.5)
        for a, v in zip(axes, sizes):
            out[a] = v
    for a in axes:
        if out[a] < 1:
            raise Unsupported(f"an output size of {out[a]} along axis {a}")
    attrs = {"mode": mode, "coordinate_transformation_mode": ctm,
             "nearest_mode": n.attr("nearest_mode"),
             "sizes": [-1 if v is None else v for v in out],
             "scales": F64Array(full_scales),
             "cubic_coeff_a": float(n.attr("cubic_coeff_a")),
             "exclude_outside": bool(n.attr("exclude_outside")),
             "antialias": bool(n.attr("antialias", 0))}
    if roi is not None:
        if len(roi) != 2 * len(axes):
            raise Unsupported(f"invalid model: {len(roi)} roi entries for {len(axes)} axes")
        full = [0.0] * r + [1.0] * r
        for i, a in enumerate(axes):
            full[a], full[r + a] = float(roi[i]), float(roi[len(axes) + i])
        attrs["roi"] = F64Array(full)
        attrs["extrapolation_value"] = float(n.attr("extrapolation_value"))
    elif ctm == "tf_crop_and_resize":
        raise Unsupported("tf_crop_and_resize without roi")
    shape = [x.shape[d] if out[d] is None else out[d] for d in range(r)]
    return [n.b.with_attrs("resize", x, attrs, x.type.with_shape(shape))]


# ===========================================================================
# ConvTranspose
# ===========================================================================

@register("ConvTranspose", dtypes=FLOATS, typed=(0, 1, 2),
          attrs={**_CONV_ATTRS, "output_padding": Attr(">= 0"),
                 "output_shape": ANY_VALUE},
          doc="1-D and 2-D: the builder's conv_transpose2d (a 1x1 `graph.conv2d` "
              "and a reshape when the kernel equals the stride; strided: one "
              "stride-1 `graph.conv2d` per output phase with the flipped "
              "kernel's taps that meet input pixels, interleaved; with a "
              "dynamic batch, over the input with zeros between pixels); 3-D "
              "as a sum over the kernel's depth taps of 2-D transposed "
              "convolutions of the depth slices, shifted into place "
              "(static shapes)")
def _conv_transpose(n: Node):
    b = n.b
    x, w = n.value(0), n.value(1)
    bias = n.value(2) if n.has(2) else None
    k = x.rank - 2
    if k not in (1, 2, 3):
        raise Unsupported(f"{k}-D transposed convolution (1-D, 2-D and 3-D are supported)")
    if w.rank != x.rank:
        raise Unsupported(f"invalid model: weight rank {w.rank} for input rank {x.rank}")
    kernel = list(w.shape[2:])
    spatial = list(x.shape[2:])
    if None in kernel or None in spatial:
        raise Unsupported("dynamic spatial or kernel dims")
    if n.attr("kernel_shape", None) not in (None, kernel):
        raise Unsupported(f"kernel_shape {n.attr('kernel_shape')} differs from the weight's {kernel}")
    strides = list(n.attr("strides", None) or [1] * k)
    dilations = list(n.attr("dilations", None) or [1] * k)
    out_pad = list(n.attr("output_padding", None) or [0] * k)
    auto_pad = n.attr("auto_pad")
    out_shape = n.attr("output_shape", None)
    if out_shape is not None and len(out_shape) == k + 2:
        out_shape = out_shape[2:]
    if auto_pad in ("SAME_UPPER", "SAME_LOWER") and out_shape is None:
        out_shape = [d * s for d, s in zip(spatial, strides)]
    if out_shape is not None:
        # ONNX's rule: the total padding that gives output_shape, split
        # with the odd one at the end (SAME_UPPER) or the start.
        total = [s * (d - 1) + op + (kk - 1) * dl + 1 - o for s, d, op, kk, dl, o
                 in zip(strides, spatial, out_pad, kernel, dilations, out_shape)]
        if auto_pad == "SAME_UPPER":
            begin = [t // 2 for t in total]
        else:
            begin = [t - t // 2 for t in total]
        pads = begin + [t - bg for t, bg in zip(total, begin)]
    elif auto_pad == "VALID" or auto_pad == "NOTSET":
        pads = list(n.attr("pads", None) or [0] * (2 * k))
    else:
        raise Unsupported(f"auto_pad {auto_pad}")
    # (An output_shape beyond the natural size gives negative pads: more
    # output at the edges, the bias only.)
    if k == 3:
        return [composites.conv_transpose3d(b, x, w, bias, strides, dilations,
                                            int(n.attr("group")), pads[:3], pads[3:],
                                            out_pad)]
    x2, one_d = _to_2d(n, x)
    if one_d:
        w = reshape_dims(b, w, [w.shape[0], w.shape[1], 1, w.shape[2]])
        strides, dilations, out_pad = [1] + strides, [1] + dilations, [0] + out_pad
        pads = [0, pads[0], 0, pads[1]]
    y = b.conv_transpose2d(x2, w, bias, strides=strides, padding=pads,
                           output_padding=out_pad, dilations=dilations,
                           groups=int(n.attr("group")))
    return [_from_2d(n, y) if one_d else y]


# -- integer convolutions (ConvInteger, QLinearConv) --------------------------

def _out_channels(m):
    return [m, 1, 1, 1]


def _integer_conv(n: Node, x: Value, x_zp: int, w: Value, w_zp: int,
                  bias: Optional[Value]) -> Value:
    """The convolution of ``x - x_zero_point`` and ``w - w_zero_point`` (per
    output channel), plus an i32 bias, exactly: in f64, whose 53-bit
    mantissa holds every sum of products of 8-bit values a network has, then
    back to i32."""
    from .elementwise import minus_zero_point
    b = n.b
    if w.rank != 4 or x.rank != 4:
        raise Unsupported(f"integer convolution of rank {x.rank} (2-D images only)")
    xs = b.cast(minus_zero_point(n, x, x_zp, lambda c: [1, c, 1, 1]), F64)
    ws = b.cast(minus_zero_point(n, w, w_zp, _out_channels), F64)
    y = conv_of(n, xs, ws, b.cast(bias, F64) if bias is not None else None)
    return b.cast(y, I32)


@register("ConvInteger", dtypes=(I8, U8), typed=(0, 1, 2, 3), attrs=_CONV_ATTRS,
          doc="`graph.conv2d` of `x - x_zero_point` and `w - w_zero_point` (per "
              "tensor, or per output channel for w), computed exactly in f64 and "
              "returned as i32 (2-D images)")
def _conv_integer(n: Node):
    return [_integer_conv(n, n.value(0), 2, n.value(1), 3, None)]


@register("QLinearConv", dtypes=(I8, U8), typed=(0, 2, 3, 5, 7), attrs=_CONV_ATTRS,
          doc="`graph.conv2d` of the inputs minus their zero points plus the i32 "
              "bias, exactly (in f64), then `round_half_even(acc * (x_scale * "
              "w_scale / y_scale)) + y_zero_point` clamped (w_scale per tensor or "
              "per output channel; 2-D images)")
def _qlinear_conv(n: Node):
    from .elementwise import per_axis_param, requantize
    b = n.b
    acc = _integer_conv(n, n.value(0), 2, n.value(3), 5,
                        n.value(8) if n.has(8) else None)
    per_channel = lambda m: [1, m, 1, 1]  # noqa: E731
    scale = b.binary("div", b.binary("mul", per_axis_param(n, 1, per_channel),
                                     per_axis_param(n, 4, per_channel)),
                     per_axis_param(n, 6, per_channel))
    qt = n.type(7).dtype if n.has(7) else n.type(0).dtype
    return [requantize(n, acc, scale, 7, qt)]


@register("Col2Im", dtypes=FLOATS,
          attrs={"dilations": ANY_VALUE, "pads": Attr(">= 0"), "strides": ANY_VALUE},
          doc="2-D: one scatter-add of every column's patch into the zero-padded "
              "image at constant positions, the padding cut off (composites.col2im; "
              "image_shape and block_shape known at import time, static shapes)")
def _col2im(n: Node):
    x = n.value(0)
    image = n.ints(1, "image_shape")
    block = n.ints(2, "block_shape")
    if len(image) != 2 or len(block) != 2:
        raise Unsupported(f"Col2Im of a {len(image)}-D image (2-D is supported)")
    if x.rank != 3:
        raise Unsupported(f"invalid model: Col2Im input of rank {x.rank} (3 expected)")
    return [composites.col2im(n.b, x, image, block,
                              list(n.attr("dilations", None) or [1, 1]),
                              list(n.attr("pads", None) or [0, 0, 0, 0]),
                              list(n.attr("strides", None) or [1, 1]))]


@register("RoiAlign", dtypes=FLOATS, typed=(0, 1),
          attrs={"coordinate_transformation_mode": one_of("half_pixel", "output_half_pixel"),
                 "mode": one_of("avg", "max"), "output_height": ANY_VALUE,
                 "output_width": ANY_VALUE, "sampling_ratio": ANY_VALUE,
                 "spatial_scale": ANY_VALUE},
          doc="the sample points' coordinates from the rois (elementwise), their "
              "four bilinear corners gathered from each roi's image "
              "(`graph.gather`, `graph.gather_elements`), weighted and averaged "
              "(or ONNX's max of weighted corners) per output cell; static shapes "
              "and a sampling_ratio > 0 (0 makes the sample count depend on the "
              "roi values)")
def _roi_align(n: Node):
    """ONNX RoiAlign (as ONNX Runtime and the reference compute it): cell
    (ph, pw) of roi r averages sampling_ratio^2 bilinear samples at y =
    y1 + (ph + (iy + 0.5) / grid) * roi_h / OH (x likewise); a sample
    outside [-1, H] x [-1, W] is 0, others are clamped into the image."""
    b = n.b
    n.require_ranks({0: 4, 1: 2, 2: 1})
    x, rois, bidx = n.value(0), n.value(1), n.value(2)
    if None in x.shape or None in rois.shape or rois.shape[1] != 4:
        raise Unsupported(f"RoiAlign needs static shapes and rois of 4 columns "
                          f"(X {x.type}, rois {rois.type})")
    grid = int(n.attr("sampling_ratio") or 0)
    if grid <= 0:
        raise Unsupported("sampling_ratio 0 (adaptive: the number of samples per cell "
                          "depends on the roi values); give a positive sampling_ratio")
    nb, ch, h, w = x.shape
    nr = rois.shape[0]
    oh, ow = int(n.attr("output_height")), int(n.attr("output_width"))
    scale = float(n.attr("spatial_scale"))
    half_pixel = n.attr("coordinate_transformation_mode") == "half_pixel"
    dt = x.dtype
    c = lambda v: n.splat(float(v), dt)  # noqa: E731

    def column(i: int) -> Value:  # rois[:, i] as [R, 1]
        return b.slice(rois, [0, i], [nr, i + 1], [1, 1])

    def samples(lo: int, hi: int, cells: int, size: int):
        """For one axis: the corners' indices (i64) and weights, and
        whether each sample is inside, [R, cells * grid]."""
        start = b.binary("sub", b.binary("mul", column(lo), c(scale)), c(0.5 * half_pixel))
        end = b.binary("sub", b.binary("mul", column(hi), c(scale)), c(0.5 * half_pixel))
        extent = b.binary("sub", end, start)
        if not half_pixel:
            extent = b.binary("max", extent, c(1.0))
        step = np.arange(cells)[:, None] + (np.arange(grid)[None, :] + 0.5) / grid
        at = b.constant(step.reshape(1, cells * grid).astype(dt), hint="steps")
        pos = b.binary("add", start, b.binary("mul", b.binary("div", extent, c(cells)), at))
        inside = b.select(b.compare("ge", pos, c(-1.0)), b.compare("le", pos, c(size)),
                          n.splat(False, BOOL))
        pos = b.binary("max", pos, c(0.0))
        low = b.cast(b.cast(pos, I64), dt)               # floor of a non-negative value
        edge = b.compare("ge", low, c(size - 1))
        low = b.select(edge, c(size - 1), low)
        pos = b.select(edge, c(size - 1), pos)
        high = b.select(edge, c(size - 1), b.binary("add", low, c(1.0)))
        frac = b.binary("sub", pos, low)
        return (b.cast(low, I64), b.cast(high, I64), b.binary("sub", c(1.0), frac), frac,
                inside)

    ylo, yhi, hy, ly, yin = samples(1, 3, oh, h)             # [R, OH * g]
    xlo, xhi, hx, lx, xin = samples(0, 2, ow, w)             # [R, OW * g]
    sy, sx = oh * grid, ow * grid

    def outer(a: Value, bv: Value, op: str) -> Value:  # [R, SY] op [R, SX] -> [R, 1, SY*SX]
        return reshape_dims(b, b.binary(op, reshape_dims(b, a, [nr, sy, 1]),
                                        reshape_dims(b, bv, [nr, 1, sx])), [nr, 1, sy * sx])

    inside = outer(b.cast(yin, dt), b.cast(xin, dt), "mul")  # 1 inside, else 0
    images = b.gather(reshape_dims(b, x, [nb, ch, h * w]), b.cast(bidx, I64), 0)
    width = n.splat(w, I64)
    vals = []
    for yi, wy in ((ylo, hy), (yhi, ly)):
        for xi, wx in ((xlo, hx), (xhi, lx)):
            idx = outer(b.binary("mul", yi, width), xi, "add")  # [R, 1, SY*SX]
            got = b.gather_elements(images, b.broadcast_to(idx, [nr, ch, sy * sx]), 2)
            vals.append(b.binary("mul", got, b.binary("mul", outer(wy, wx, "mul"), inside)))
    if n.attr("mode") == "max":
        v = vals[0]
        for other in vals[1:]:
            v = b.binary("max", v, other)
        kind = "max"
    else:
        v = b.binary("add", b.binary("add", vals[0], vals[1]), b.binary("add", vals[2], vals[3]))
        kind = "mean"
    v = reshape_dims(b, v, [nr, ch, oh, grid, ow, grid])
    return [b.reduce(kind, v, [3, 5])]


@register("DeformConv", dtypes=FLOATS, typed=(0, 1, 2, 3, 4),
          attrs={"dilations": ANY_VALUE, "group": ANY_VALUE, "kernel_shape": ANY_VALUE,
                 "offset_group": ANY_VALUE, "pads": ANY_VALUE, "strides": ANY_VALUE},
          doc="2-D: each kernel tap's sample point (its position plus the offset) "
              "read bilinearly, each of the four corners zero outside the image "
              "(`graph.gather_elements` on the flattened image, per offset group), "
              "times the mask; the sampled columns by the weights (`graph.matmul`, "
              "per group), plus the bias; static shapes")
def _deform_conv(n: Node):
    """ONNX DeformConv (torchvision's deform_conv2d): output (i, j) sums,
    over the taps (ki, kj) and input channels, W[f, c, ki, kj] *
    mask * X[c] read bilinearly at (i * sh - pad_top + ki * dh + dy,
    j * sw - pad_left + kj * dw + dx), (dy, dx) the tap's offset there;
    each of the four corners outside the image reads 0."""
    b = n.b
    n.require_ranks({0: 4, 1: 4, 2: 4, 3: 1, 4: 4})
    x, wt, off = n.value(0), n.value(1), n.value(2)
    if None in x.shape or None in wt.shape or None in off.shape:
        raise Unsupported("DeformConv needs static shapes")
    nb, ch, h, w = x.shape
    oc, cpg, kh, kw = wt.shape
    group, og = int(n.attr("group", 1) or 1), int(n.attr("offset_group", 1) or 1)
    sh, sw = (int(v) for v in (n.attr("strides", None) or [1, 1]))
    dh, dw = (int(v) for v in (n.attr("dilations", None) or [1, 1]))
    pt, pl = [int(v) for v in (n.attr("pads", None) or [0, 0, 0, 0])][:2]
    oh, ow = off.shape[2], off.shape[3]
    taps, pix = kh * kw, oh * ow
    if cpg * group != ch or oc % group or ch % og:
        raise Unsupported(f"invalid model: X {x.type}, W {wt.type}, group {group} and "
                          f"offset_group {og} do not fit")
    if off.shape[:2] != (nb, og * taps * 2):
        raise Unsupported(f"invalid model: offset {off.type} must be [{nb}, "
                          f"{og * taps * 2}, OH, OW]")
    dt = x.dtype
    # Sample coordinates [N, G, taps, pixels], y and x.
    ki, kj = np.meshgrid(np.arange(kh), np.arange(kw), indexing="ij")
    oi, oj = np.meshgrid(np.arange(oh), np.arange(ow), indexing="ij")
    base_y = (ki.reshape(-1, 1) * dh + oi.reshape(1, -1) * sh - pt).astype(dt)
    base_x = (kj.reshape(-1, 1) * dw + oj.reshape(1, -1) * sw - pl).astype(dt)
    off = reshape_dims(b, off, [nb, og, taps, 2, pix])

    def coord(i: int, base: np.ndarray) -> Value:
        part = b.slice(off, [0, 0, 0, i, 0], [nb, og, taps, i + 1, pix], [1] * 5)
        return b.binary("add", reshape_dims(b, part, [nb, og, taps, pix]),
                        b.constant(base, hint="taps"))

    ys, xs = coord(0, base_y), coord(1, base_x)
    y0, x0 = composites.floor_value(b, ys), composites.floor_value(b, xs)
    wy1, wx1 = b.binary("sub", ys, y0), b.binary("sub", xs, x0)
    one = n.splat(1, dt)
    wy0, wx0 = b.binary("sub", one, wy1), b.binary("sub", one, wx1)
    mask = reshape_dims(b, n.value(4), [nb, og, taps, pix]) if n.has(4) else None
    if mask is not None and tuple(n.value(4).shape) != (nb, og * taps, oh, ow):
        raise Unsupported(f"invalid model: mask {n.value(4).type} must be "
                          f"[{nb}, {og * taps}, {oh}, {ow}]")
    image = reshape_dims(b, x, [nb, og, ch // og, h * w])
    zero = n.splat(0, dt)
    cols = None
    for yc, wy in ((y0, wy0), (b.binary("add", y0, one), wy1)):
        for xc, wx in ((x0, wx0), (b.binary("add", x0, one), wx1)):
            inside = b.select(
                b.select(b.compare("ge", yc, zero), b.compare("le", yc, n.splat(h - 1, dt)),
                         n.splat(False, BOOL)),
                b.select(b.compare("ge", xc, zero), b.compare("le", xc, n.splat(w - 1, dt)),
                         n.splat(False, BOOL)),
                n.splat(False, BOOL))
            weight = b.select(inside, b.binary("mul", wy, wx), zero)
            if mask is not None:
                weight = b.binary("mul", weight, mask)
            yi = b.cast(b.binary("min", b.binary("max", yc, zero), n.splat(h - 1, dt)), I64)
            xi = b.cast(b.binary("min", b.binary("max", xc, zero), n.splat(w - 1, dt)), I64)
            idx = b.binary("add", b.binary("mul", yi, n.splat(w, I64)), xi)
            idx = reshape_dims(b, idx, [nb, og, 1, taps * pix])
            got = b.gather_elements(image, b.broadcast_to(idx, [nb, og, ch // og, taps * pix]), 3)
            term = b.binary("mul", got, reshape_dims(b, weight, [nb, og, 1, taps * pix]))
            cols = term if cols is None else b.binary("add", cols, term)
    # [N, C, taps, pixels] -> per group [N, group, C/group * taps, pixels].
    cols = reshape_dims(b, cols, [nb, group, cpg * taps, pix])
    kernel = reshape_dims(b, wt, [group, oc // group, cpg * taps])
    y = reshape_dims(b, b.matmul(kernel, cols), [nb, oc, oh, ow])
    if n.has(3):
        y = b.binary("add", y, reshape_dims(b, n.value(3), [oc, 1, 1]))
    return [y]
