"""ATen op mappings: normalization, convolution and pooling, recurrent layers
(the registry and the emission context are in :mod:`.core`)."""

from __future__ import annotations

import math
from typing import List, Optional

import torch

from ... import composites
from ...errors import Unsupported
from ..dtypes import Value, is_float
from .core import Args, SymInt, is_static_int, op


# ---------------------------------------------------------------------------
# Normalization
# ---------------------------------------------------------------------------

@op("aten.layer_norm")
def _layer_norm(ctx, a):
    x = ctx.to_float(ctx.tensor(a.input))
    shape = ctx.ints(a.normalized_shape, what="normalized_shape")
    w = a.get("weight")
    bias = a.get("bias")
    w = ctx.tensor(w, x.dtype) if w is not None else \
        ctx.b.constant(torch.ones(shape, dtype=x.dtype))
    bias = ctx.tensor(bias, x.dtype) if bias is not None else \
        ctx.b.constant(torch.zeros(shape, dtype=x.dtype))
    return ctx.b.layer_norm(x, w, bias, ctx.float_(a.get("eps", 1e-5), "eps"))


@op("aten.native_layer_norm")
def _native_layer_norm(ctx, a):
    return (_layer_norm(ctx, a), None, None)


def _check_batch_norm(a: Args) -> Optional[str]:
    if a.get("training") is True:
        return "batch_norm in training mode is not supported (call model.eval())"
    if a.get("running_mean", 0) is None or a.get("running_var", 0) is None:
        return "batch_norm without running statistics is not supported"
    return None


def _batch_norm(ctx, a) -> Value:
    x = ctx.to_float(ctx.tensor(a.input))
    mean = ctx.tensor(a.running_mean, x.dtype)
    var = ctx.tensor(a.running_var, x.dtype)
    n = mean.shape[0]
    w = a.get("weight")
    bias = a.get("bias")
    w = ctx.tensor(w, x.dtype) if w is not None else ctx.b.constant(torch.ones(n, dtype=x.dtype))
    bias = ctx.tensor(bias, x.dtype) if bias is not None else \
        ctx.b.constant(torch.zeros(n, dtype=x.dtype))
    return ctx.b.batch_norm(x, mean, var, w, bias, ctx.float_(a.get("eps", 1e-5), "eps"))


@op("aten.batch_norm", "aten._native_batch_norm_legit_no_training",
    "aten._batch_norm_impl_index", check=_check_batch_norm)
def _batch_norm_op(ctx, a):
    y = _batch_norm(ctx, a)
    return y if a.schema is None or len(a.schema.returns) == 1 else \
        (y,) + (None,) * (len(a.schema.returns) - 1)


@op("aten.instance_norm", "aten.group_norm")
def _group_norm(ctx, a):
    """group_norm / instance_norm (without running stats), decomposed:
    normalize [N, G, -1] groups, then the per-channel affine."""
    b = ctx.b
    x = ctx.to_float(ctx.tensor(a.input))
    n, c = x.shape[0], x.shape[1]
    if c is None or None in x.shape[2:]:
        raise Unsupported("group_norm needs static channel and spatial dims")
    if "num_groups" in a:
        g = ctx.int_(a.num_groups, "num_groups")
    else:
        if a.get("use_input_stats") is False:
            raise Unsupported("instance_norm with running stats is not supported")
        g = c
    eps = ctx.float_(a.get("eps", 1e-5), "eps")
    y = ctx.reshape_dims(x, [n, g, math.prod(x.shape[1:]) // g])
    mean = b.reduce("mean", y, [2], True)
    d = b.binary("sub", y, mean)
    var = b.reduce("mean", b.binary("mul", d, d), [2], True)
    y = b.binary("mul", d, b.unary("rsqrt", b.binary("add", var, b.scalar(eps, x.dtype))))
    y = ctx.reshape_dims(y, list(x.shape))
    bshape = [c] + [1] * (x.rank - 2)
    if a.get("weight") is not None:
        y = b.binary("mul", y, b.reshape(ctx.tensor(a.weight, x.dtype), bshape))
    if a.get("bias") is not None:
        y = b.binary("add", y, b.reshape(ctx.tensor(a.bias, x.dtype), bshape))
    return y


# ---------------------------------------------------------------------------
# Convolution and pooling
# ---------------------------------------------------------------------------

def _check_conv(a: Args) -> Optional[str]:
    pad = a.get("padding")
    if isinstance(pad, str) and pad not in ("same", "valid"):
        return f"padding={pad!r} is not supported"
    w = a.get("weight")
    if isinstance(w, Value) and w.type is not None and w.rank not in (3, 4, 5):
        return (f"{w.rank - 2}-d convolution is not supported (conv1d, conv2d and "
                "conv3d are)")
    return None


def _conv(ctx, a) -> Value:
    b = ctx.b
    x, w = ctx.promote(a.input, a.weight)
    x = ctx.to_float(x)
    w = ctx.tensor(w, x.dtype)
    bias = a.get("bias")
    bias = ctx.tensor(bias, x.dtype) if bias is not None else None
    spatial = w.rank - 2
    if spatial not in (1, 2, 3):
        raise Unsupported(f"{spatial}-d convolution is not supported")
    unbatched = x.rank == spatial + 1
    if unbatched:
        x = ctx.reshape_dims(x, [1] + list(x.shape))
    stride = ctx.ints(a.get("stride", 1), spatial, "stride")
    dilation = ctx.ints(a.get("dilation", 1), spatial, "dilation")
    groups = ctx.int_(a.get("groups", 1), "groups")
    pad = a.get("padding", 0)
    kernel = list(w.shape[2:])
    if isinstance(pad, str):
        if pad == "valid":
            lo = hi = [0] * spatial
        elif pad == "same":
            total = [d * (k - 1) for d, k in zip(dilation, kernel)]
            lo = [t // 2 for t in total]
            hi = [t - l for t, l in zip(total, lo)]
        else:
            raise Unsupported(f"padding={pad!r} is not supported")
    else:
        lo = hi = ctx.ints(pad, spatial, "padding")
    transposed = a.get("transposed") is True
    out_pad = ctx.ints(a.get("output_padding", 0), spatial, "output_padding")
    if spatial == 1:  # conv1d as a conv2d over [N, C, 1, L]
        x = ctx.reshape_dims(x, list(x.shape[:2]) + [1, x.shape[2]])
        w = ctx.reshape_dims(w, list(w.shape[:2]) + [1, w.shape[2]])
        stride, dilation = [1] + stride, [1] + dilation
        lo, hi = [0] + list(lo), [0] + list(hi)
        out_pad = [0] + out_pad
    if transposed and isinstance(pad, str):
        raise Unsupported(f"transposed convolution with padding={pad!r}")
    if spatial == 3 and transposed:
        y = composites.conv_transpose3d(b, x, w, bias, stride, dilation, groups, lo, hi,
                                        out_pad)
    elif spatial == 3:
        y = composites.conv3d(b, x, w, bias, stride, dilation, groups, lo, hi)
    elif transposed:
        y = b.conv_transpose2d(x, w, bias, strides=stride,
                               padding=[lo[0], lo[1], hi[0], hi[1]],
                               output_padding=out_pad, dilations=dilation,
                               groups=groups)
    else:
        y = b.conv2d(x, w, bias, strides=stride, padding=[lo[0], lo[1], hi[0], hi[1]],
                     dilations=dilation, groups=groups)
    if spatial == 1:
        y = ctx.reshape_dims(y, [y.shape[0], y.shape[1], y.shape[3]])
    if unbatched:
        y = ctx.reshape_dims(y, list(y.shape[1:]))
    return y


def _conv_transpose(ctx, a) -> Value:
    """aten.conv_transpose1d/2d/3d (input, weight, bias, stride, padding,
    output_padding, groups, dilation): _conv with transposed=True."""
    values = dict(a.items())
    values["transposed"] = True
    return _conv(ctx, Args(values, a.schema, a.out_types))


op("aten.conv2d", "aten.conv1d", "aten.conv3d", "aten.convolution", "aten._convolution",
   "aten._convolution_mode", check=_check_conv)(_conv)
op("aten.conv_transpose2d", "aten.conv_transpose1d", "aten.conv_transpose3d",
   check=_check_conv)(_conv_transpose)


def _pool_params(ctx, a, x: Value):
    kernel = ctx.ints(a.kernel_size, 2, "kernel_size")
    stride = a.get("stride")
    stride = kernel if stride is None or (isinstance(stride, (list, tuple)) and not stride) \
        else ctx.ints(stride, 2, "stride")
    pad = ctx.ints(a.get("padding", 0), 2, "padding")
    return kernel, stride, [pad[0], pad[1], pad[0], pad[1]]


def _pool_input(ctx, x: Value, rank: int = 4):
    if x.rank == 3:
        return ctx.reshape_dims(x, [1] + list(x.shape)), True
    return x, False


@op("aten.max_pool2d", "aten.max_pool2d_with_indices")
def _max_pool2d(ctx, a):
    x, unbatched = _pool_input(ctx, ctx.tensor(a.self))
    kernel, stride, pad = _pool_params(ctx, a, x)
    dilation = ctx.ints(a.get("dilation", 1), 2, "dilation")
    y = ctx.b.pool2d("max_pool2d", x, kernel=kernel, strides=stride, padding=pad,
                     dilations=dilation, ceil_mode=bool(a.get("ceil_mode", False)))
    indices = None
    if len(a.schema.returns) == 2 and is_float(x.dtype) and None not in x.shape:
        # Computed whether or not they are used: dead code when they are not.
        indices = composites.max_pool2d_indices(ctx.b, x, y, kernel, stride, pad, dilation)
    if unbatched:
        y = ctx.reshape_dims(y, list(y.shape[1:]))
        if indices is not None:
            indices = ctx.reshape_dims(indices, list(indices.shape[1:]))
    return (y, indices) if len(a.schema.returns) == 2 else y


@op("aten.max_unpool2d")
def _max_unpool2d(ctx, a):
    """Each element written at its index into zeros of output_size
    (max_pool2d's indices; where two share an index, one of them)."""
    x, unbatched = _pool_input(ctx, ctx.tensor(a.self))
    idx = ctx.tensor(a.indices)
    if unbatched:
        idx = ctx.reshape_dims(idx, [1] + list(idx.shape))
    size = ctx.ints(a.output_size, 2, "output_size")
    y = composites.max_unpool2d(ctx.b, x, idx, size)
    return ctx.reshape_dims(y, list(y.shape[1:])) if unbatched else y


@op("aten.avg_pool2d", check=lambda a: "avg_pool2d divisor_override is not supported"
    if a.get("divisor_override") is not None else None)
def _avg_pool2d(ctx, a):
    x, unbatched = _pool_input(ctx, ctx.to_float(ctx.tensor(a.self)))
    kernel, stride, pad = _pool_params(ctx, a, x)
    cip = a.get("count_include_pad", True)
    y = ctx.b.pool2d("avg_pool2d", x, kernel=kernel, strides=stride, padding=pad,
                     ceil_mode=bool(a.get("ceil_mode", False)),
                     count_include_pad=True if cip is None else bool(cip))
    return ctx.reshape_dims(y, list(y.shape[1:])) if unbatched else y


@op("aten.adaptive_avg_pool2d", "aten._adaptive_avg_pool2d")
def _adaptive_avg_pool2d(ctx, a):
    x, unbatched = _pool_input(ctx, ctx.to_float(ctx.tensor(a.self)))
    size = a.output_size
    size = [size, size] if not isinstance(size, (list, tuple)) else list(size)
    size = [x.shape[2 + i] if s is None else ctx.int_(s, "output_size")
            for i, s in enumerate(size)]
    if size == [1, 1]:
        y = ctx.b.reduce("mean", x, [2, 3], True)  # global pooling
    else:
        y = ctx.b.adaptive_avg_pool2d(x, size)
    return ctx.reshape_dims(y, list(y.shape[1:])) if unbatched else y


@op("aten.adaptive_max_pool2d")
def _adaptive_max_pool2d(ctx, a):
    """Output cell (i, j) is the max over rows [floor(i H / OH), ceil((i + 1)
    H / OH)) and the same for columns: a max_pool2d when the sizes divide,
    otherwise the column windows, then the row windows, as slices (max is
    separable). The indices output is not supported."""
    b = ctx.b
    x, unbatched = _pool_input(ctx, ctx.tensor(a.self))
    size = a.output_size
    size = [size, size] if not isinstance(size, (list, tuple)) else list(size)
    size = [x.shape[2 + i] if s is None else ctx.int_(s, "output_size")
            for i, s in enumerate(size)]
    if None in x.shape[2:]:
        raise Unsupported(f"adaptive_max_pool2d of {x.type}: static spatial dims")
    if x.shape[2] % size[0] == 0 and x.shape[3] % size[1] == 0:
        k = [x.shape[2] // size[0], x.shape[3] // size[1]]
        y = b.pool2d("max_pool2d", x, kernel=k, strides=k, padding=[0, 0, 0, 0])
    else:
        y = x
        for axis in (3, 2):
            n, o = y.shape[axis], size[axis - 2]
            cells = [b.reduce("max", ctx.slice_axis(y, axis, (i * n) // o,
                                                    -(-((i + 1) * n) // o)),
                              [axis], True) for i in range(o)]
            y = cells[0] if o == 1 else b.concat(cells, axis)
    if unbatched:
        y = ctx.reshape_dims(y, list(y.shape[1:]))
    return (y, None)


def _volume_input(ctx, x: Value, what: str):
    """[C, D, H, W] -> [1, C, D, H, W] (and whether it was unbatched); the
    channel and spatial dims must be static."""
    unbatched = x.rank == 4
    if unbatched:
        x = ctx.reshape_dims(x, [1] + list(x.shape))
    if x.rank != 5 or None in x.shape[1:]:
        raise Unsupported(f"{what} of {x.type}: a 5-D input with static channel and "
                          "spatial dims")
    return x, unbatched


def _pool3d(ctx, a, kind: str):
    """max_pool3d / avg_pool3d: two 2-d pools (composites.pool3d)."""
    b = ctx.b
    x = ctx.tensor(a.self)
    if kind == "avg_pool2d":
        x = ctx.to_float(x)
        if a.get("divisor_override") is not None:
            raise Unsupported("avg_pool3d divisor_override is not supported")
    x, unbatched = _volume_input(ctx, x, f"{kind[:3]}_pool3d")
    kernel = ctx.ints(a.kernel_size, 3, "kernel_size")
    stride = a.get("stride")
    stride = kernel if stride is None or (isinstance(stride, (list, tuple)) and not stride) \
        else ctx.ints(stride, 3, "stride")
    pad = ctx.ints(a.get("padding", 0), 3, "padding")
    dil = ctx.ints(a.get("dilation", 1), 3, "dilation")
    ceil = bool(a.get("ceil_mode", False))
    cip = a.get("count_include_pad", True)
    y = composites.pool3d(b, kind, x, kernel, stride, pad, pad, dil, ceil,
                          True if cip is None else bool(cip))
    if unbatched:
        y = ctx.reshape_dims(y, list(y.shape[1:]))
    return y


@op("aten.adaptive_avg_pool3d", "aten._adaptive_avg_pool3d")
def _adaptive_avg_pool3d(ctx, a):
    """Adaptive averages are separable (each output cell averages a box):
    adaptive_avg_pool2d over (H, W) on [N, C * D, H, W], then over D on
    [N, C, D, OH * OW]."""
    b = ctx.b
    x = ctx.to_float(ctx.tensor(a.self))
    x, unbatched = _volume_input(ctx, x, "adaptive_avg_pool3d")
    n, c, d, h, w = x.shape
    size = a.output_size
    size = [size] * 3 if not isinstance(size, (list, tuple)) else list(size)
    od, oh, ow = [x.shape[2 + i] if s is None else ctx.int_(s, "output_size")
                  for i, s in enumerate(size)]
    if (od, oh, ow) == (1, 1, 1):
        y = b.reduce("mean", x, [2, 3, 4], True)
    else:
        y = ctx.reshape_dims(x, [n, c * d, h, w])
        if (oh, ow) != (h, w):
            y = b.adaptive_avg_pool2d(y, [oh, ow])
        y = ctx.reshape_dims(y, [n, c, d, oh * ow])
        if od != d:
            y = b.adaptive_avg_pool2d(y, [od, oh * ow])
        y = ctx.reshape_dims(y, [n, c, od, oh, ow])
    return ctx.reshape_dims(y, list(y.shape[1:])) if unbatched else y


@op("aten.max_pool3d", "aten.max_pool3d_with_indices")
def _max_pool3d(ctx, a):
    y = _pool3d(ctx, a, "max_pool2d")
    return (y, None) if a.schema is not None and len(a.schema.returns) == 2 else y


@op("aten.avg_pool3d")
def _avg_pool3d(ctx, a):
    return _pool3d(ctx, a, "avg_pool2d")


# ---------------------------------------------------------------------------
# Upsampling (F.interpolate, nn.Upsample): graph.resize
# ---------------------------------------------------------------------------

# ATen op -> (graph.resize mode, how output coordinates map to the input).
_UPSAMPLE = {
    "upsample_nearest1d": ("nearest", "nearest"),
    "upsample_nearest2d": ("nearest", "nearest"),
    "upsample_nearest3d": ("nearest", "nearest"),
    "_upsample_nearest_exact1d": ("nearest", "exact"),
    "_upsample_nearest_exact2d": ("nearest", "exact"),
    "_upsample_nearest_exact3d": ("nearest", "exact"),
    "upsample_linear1d": ("linear", "linear"),
    "upsample_bilinear2d": ("linear", "linear"),
    "upsample_trilinear3d": ("linear", "linear"),
    "upsample_bicubic2d": ("cubic", "linear"),
    "_upsample_bilinear2d_aa": ("linear", "aa"),
    "_upsample_bicubic2d_aa": ("cubic", "aa"),
}


def _upsample(ctx, a, name: str):
    """PyTorch's upsampling as graph.resize with ONNX's coordinate rules:
    nearest is `asymmetric` + `floor` (src = floor(dst * in / out)),
    nearest-exact `half_pixel` + `round_prefer_ceil`, (bi|tri)linear and
    bicubic `half_pixel` (or `align_corners`), bicubic with a = -0.75; the
    antialiased kernels add `antialias` and `exclude_outside` (PIL's filter:
    taps outside the input are dropped and the rest renormalized). The
    scale in the coordinate formula is the caller's `scale_factor` when
    given (as PyTorch uses it), else out / in."""
    mode, rule = _UPSAMPLE[name]
    x = ctx.tensor(a.get("input", a.get("self")))
    k = x.rank - 2
    if k < 1:
        raise Unsupported(f"{name} of a rank-{x.rank} tensor")
    if mode != "nearest":
        x = ctx.to_float(x)
    spatial = list(x.shape[2:])
    if None in spatial:
        raise Unsupported(f"{name} of dynamic spatial dims {x.shape}")
    size = a.get("output_size")
    factors = a.get("scale_factors")
    if factors is None:
        named = [a.get(n) for n in ("scales_d", "scales_h", "scales_w", "scales")
                 if n in a]
        factors = named[-k:] if named and any(f is not None for f in named) else None
    if factors is not None:
        factors = [None if f is None else ctx.float_(f, "scale_factor") for f in factors]
        if len(factors) == 1 and k > 1:
            factors = factors * k
    if size is not None:
        size = ctx.ints(size, k, what="output_size")
    elif factors is not None and None not in factors:
        size = [int(math.floor(d * f)) for d, f in zip(spatial, factors)]
    else:
        raise Unsupported(f"{name} without an output size or scale factors")
    align = bool(a.get("align_corners", False)) if mode != "nearest" else False
    scales = []
    for i, (d, o) in enumerate(zip(spatial, size)):
        f = factors[i] if factors is not None and i < len(factors) else None
        scales.append(f if f is not None and f > 0 and not align else o / d)
    attrs = {"mode": mode,
             "coordinate_transformation_mode":
                 "asymmetric" if rule == "nearest" else
                 "align_corners" if align else "half_pixel",
             "nearest_mode": "floor" if rule == "nearest" else "round_prefer_ceil",
             # PIL's antialiased bicubic (PyTorch's too) uses a = -0.5.
             "cubic_coeff_a": -0.5 if rule == "aa" else -0.75,
             "exclude_outside": rule == "aa",
             "antialias": rule == "aa"}
    return ctx.b.resize(x, [-1, -1] + list(size), [1.0, 1.0] + scales, attrs)


for _name in _UPSAMPLE:
    op(f"aten.{_name}")(lambda ctx, a, _n=_name: _upsample(ctx, a, _n))


# ---------------------------------------------------------------------------
# Grid sampling (F.grid_sample): composites.grid_sample
# ---------------------------------------------------------------------------

_GRID_MODES = {0: "linear", 1: "nearest", 2: "cubic"}
_GRID_PADDINGS = {0: "zeros", 1: "border", 2: "reflection"}


@op("aten.affine_grid_generator")
def _affine_grid_generator(ctx, a):
    """F.affine_grid: composites.affine_grid (a constant grid times theta)."""
    theta = ctx.to_float(ctx.tensor(a.theta))
    size = [int(s) for s in a.size] if all(is_static_int(s) for s in a.size) else None
    if size is None:
        raise Unsupported(f"affine_grid with a symbolic size {list(a.size)}")
    return composites.affine_grid(ctx.b, theta, size, bool(a.align_corners))


@op("aten.grid_sampler", "aten.grid_sampler_2d", "aten.grid_sampler_3d")
def _grid_sampler(ctx, a):
    """F.grid_sample. PyTorch's bicubic pads only its taps, not the sampled
    position (its bilinear and nearest give the same values as ONNX's rules
    that composites.grid_sample follows)."""
    x = ctx.tensor(a.input)
    grid = ctx.tensor(a.grid)
    mode = _GRID_MODES.get(a.interpolation_mode)
    padding = _GRID_PADDINGS.get(a.padding_mode)
    if mode is None or padding is None:
        raise Unsupported(f"grid_sampler with interpolation_mode {a.interpolation_mode} "
                          f"and padding_mode {a.padding_mode}")
    if grid.dtype != x.dtype:
        raise Unsupported(f"grid_sampler of {x.dtype} input with a {grid.dtype} grid "
                          "(PyTorch requires one dtype)")
    return composites.grid_sample(ctx.b, x, grid, mode, padding, bool(a.align_corners),
                                  pad_coordinates=mode != "cubic")


# ---------------------------------------------------------------------------
# Recurrent layers: a graph.loop over time
# ---------------------------------------------------------------------------

def _check_rnn(a: Args) -> Optional[str]:
    if a.get("bidirectional") is True:
        return "bidirectional RNNs are not supported"
    if a.get("train") is True and a.get("dropout", 0) not in (0, 0.0):
        return "RNN dropout in training mode is not supported (call model.eval())"
    params = a.get("params")
    layers = a.get("num_layers")
    if isinstance(params, (list, tuple)) and is_static_int(layers) and layers > 0:
        per = len(params) // layers
        if per not in (2, 4):
            return "LSTM projections (proj_size > 0) are not supported"
    return None


def _rnn(ctx, a, kind: str):
    """aten.lstm.input / aten.gru.input, unidirectional, any num_layers.

    Per layer: the input projection of every time step is one matmul before
    the loop; the loop carries h (and c) and the output sequence, reads
    step t with graph.gather (rank-0 index) and writes it with
    graph.dynamic_update_slice.
    """
    b = ctx.b
    if a.bidirectional:
        raise Unsupported("bidirectional RNNs are not supported")
    x = ctx.to_float(ctx.tensor(a.input))
    dt = x.dtype
    layers = ctx.int_(a.num_layers, "num_layers")
    params = [ctx.tensor(p, dt) for p in a.params]
    has_bias = bool(a.has_biases)
    per = 4 if has_bias else 2
    if len(params) != per * layers:
        raise Unsupported("LSTM projections (proj_size > 0) are not supported")
    batch_first = bool(a.batch_first)
    unbatched = x.rank == 2
    if unbatched:  # [T, I] -> [T, 1, I]
        x = ctx.reshape_dims(x, [x.shape[0], 1, x.shape[1]])
    elif batch_first:
        x = b.transpose(x, [1, 0, 2])
    hx = list(a.hx) if kind == "lstm" else [a.hx]
    states0 = []
    for h in hx:
        h = ctx.tensor(h, dt)
        if unbatched:
            h = ctx.reshape_dims(h, [h.shape[0], 1, h.shape[1]])
        states0.append(h)
    gates = 4 if kind == "lstm" else 3
    seq_len = x.shape[0]
    trip = b.scalar(seq_len, torch.int64, weak=False) if seq_len is not None \
        else ctx.dim_size(x, 0)
    true = b.scalar(True, torch.bool, weak=False)
    finals: List[List[Value]] = [[] for _ in states0]
    for layer in range(layers):
        w_ih, w_hh = params[per * layer], params[per * layer + 1]
        hidden = w_hh.shape[1]
        xw = b.matmul(x, b.transpose(w_ih, [1, 0]))          # [T, B, G*H]
        if has_bias:
            xw = b.binary("add", xw, params[per * layer + 2])
        b_hh = params[per * layer + 3] if has_bias else None
        w_hh_t = b.transpose(w_hh, [1, 0])
        init = [ctx.take(s, 0, layer) for s in states0]       # [B, H] each
        out0 = ctx.full([_dim_or_sym(x, 0), _dim_or_sym(x, 1), hidden], 0.0, dt)

        def body(t, carried, xw=xw, w_hh_t=w_hh_t, b_hh=b_hh, hidden=hidden):
            h = carried[0]
            xt = b.gather(xw, t, 0)                             # [B, G*H]
            hw = b.matmul(h, w_hh_t)
            if kind == "lstm":
                c = carried[1]
                g = b.binary("add", xt, hw)
                if b_hh is not None:
                    g = b.binary("add", g, b_hh)
                i, f, gg, o = b.split(g, 1, [hidden] * gates)
                i, f, o = b.unary("sigmoid", i), b.unary("sigmoid", f), b.unary("sigmoid", o)
                c2 = b.binary("add", b.binary("mul", f, c), b.binary("mul", i, b.unary("tanh", gg)))
                h2 = b.binary("mul", o, b.unary("tanh", c2))
                new_states = [h2, c2]
            else:
                if b_hh is not None:
                    hw = b.binary("add", hw, b_hh)
                xr, xz, xn = b.split(xt, 1, [hidden] * gates)
                hr, hz, hn = b.split(hw, 1, [hidden] * gates)
                r = b.unary("sigmoid", b.binary("add", xr, hr))
                z = b.unary("sigmoid", b.binary("add", xz, hz))
                n = b.unary("tanh", b.binary("add", xn, b.binary("mul", r, hn)))
                # h' = (1 - z) * n + z * h = n + z * (h - n)
                h2 = b.binary("add", n, b.binary("mul", z, b.binary("sub", h, n)))
                new_states = [h2]
            out = b.dynamic_update_slice(carried[-1], h2, t, 0)
            return true, new_states + [out]

        hints = ["h", "c"][:len(init)] + ["out"]
        results = b.loop(trip, true, init + [out0], body, iv_hint="t", carried_hints=hints)
        for k, s in enumerate(results[:-1]):
            finals[k].append(s)
        x = results[-1]
    out = x
    if unbatched:
        out = ctx.reshape_dims(out, [out.shape[0], out.shape[2]])
    elif batch_first:
        out = b.transpose(out, [1, 0, 2])
    states = []
    for per_layer in finals:
        stacked = b.concat([ctx.reshape_dims(s, [1] + list(s.shape)) for s in per_layer], 0)
        if unbatched:
            stacked = ctx.reshape_dims(stacked, [stacked.shape[0], stacked.shape[2]])
        states.append(stacked)
    return tuple([out] + states)


def _dim_or_sym(x: Value, axis: int):
    d = x.shape[axis]
    return d if d is not None else SymInt(f"dim{axis}", (x, axis))


op("aten.lstm.input", check=_check_rnn)(lambda ctx, a: _rnn(ctx, a, "lstm"))
op("aten.gru.input", check=_check_rnn)(lambda ctx, a: _rnn(ctx, a, "gru"))


# ---------------------------------------------------------------------------
# Recurrent cells: one time step, as nn.LSTMCell / GRUCell / RNNCell call it
# ---------------------------------------------------------------------------

def _cell_gates(ctx, a, x, h, dt):
    """x W_ih^T + b_ih and h W_hh^T + b_hh, [B, G*H] each."""
    b = ctx.b
    xw = b.matmul(x, b.transpose(ctx.tensor(a.w_ih, dt), [1, 0]))
    hw = b.matmul(h, b.transpose(ctx.tensor(a.w_hh, dt), [1, 0]))
    if a.get("b_ih") is not None:
        xw = b.binary("add", xw, ctx.tensor(a.b_ih, dt))
    if a.get("b_hh") is not None:
        hw = b.binary("add", hw, ctx.tensor(a.b_hh, dt))
    return xw, hw


def _cell_input(ctx, a, h):
    x = ctx.to_float(ctx.tensor(a.input))
    h = ctx.tensor(h, x.dtype)
    if x.rank != 2 or h.rank != 2:
        raise Unsupported("recurrent cells take a batched [B, I] input and "
                          "[B, H] state (nn.LSTMCell/GRUCell/RNNCell add the "
                          "batch dim themselves)")
    return x, h


@op("aten.lstm_cell")
def _lstm_cell(ctx, a):
    """(h', c') with i, f, g, o = split(x W_ih^T + b_ih + h W_hh^T + b_hh):
    c' = sigmoid(f) c + sigmoid(i) tanh(g), h' = sigmoid(o) tanh(c')."""
    b = ctx.b
    hx = list(a.hx)
    if len(hx) != 2:
        raise Unsupported("lstm_cell takes hx = (h, c)")
    x, h = _cell_input(ctx, a, hx[0])
    c = ctx.tensor(hx[1], x.dtype)
    hidden = h.shape[1]
    xw, hw = _cell_gates(ctx, a, x, h, x.dtype)
    i, f, g, o = b.split(b.binary("add", xw, hw), 1, [hidden] * 4)
    c2 = b.binary("add", b.binary("mul", b.unary("sigmoid", f), c),
                  b.binary("mul", b.unary("sigmoid", i), b.unary("tanh", g)))
    h2 = b.binary("mul", b.unary("sigmoid", o), b.unary("tanh", c2))
    return h2, c2


@op("aten.gru_cell")
def _gru_cell(ctx, a):
    """h' = (1 - z) n + z h with r = sigmoid(x_r + h_r), z = sigmoid(x_z +
    h_z), n = tanh(x_n + r h_n) (the biases inside x_* and h_*)."""
    b = ctx.b
    x, h = _cell_input(ctx, a, a.hx)
    hidden = h.shape[1]
    xw, hw = _cell_gates(ctx, a, x, h, x.dtype)
    xr, xz, xn = b.split(xw, 1, [hidden] * 3)
    hr, hz, hn = b.split(hw, 1, [hidden] * 3)
    r = b.unary("sigmoid", b.binary("add", xr, hr))
    z = b.unary("sigmoid", b.binary("add", xz, hz))
    n = b.unary("tanh", b.binary("add", xn, b.binary("mul", r, hn)))
    return b.binary("add", n, b.binary("mul", z, b.binary("sub", h, n)))


def _rnn_cell(ctx, a, activation: str):
    """h' = act(x W_ih^T + b_ih + h W_hh^T + b_hh)."""
    x, h = _cell_input(ctx, a, a.hx)
    xw, hw = _cell_gates(ctx, a, x, h, x.dtype)
    return ctx.b.unary(activation, ctx.b.binary("add", xw, hw))


op("aten.rnn_tanh_cell")(lambda ctx, a: _rnn_cell(ctx, a, "tanh"))
op("aten.rnn_relu_cell")(lambda ctx, a: _rnn_cell(ctx, a, "relu"))
