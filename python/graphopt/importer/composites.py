"""Ops the graph dialect does not have, built from the ops it has, shared by
the ONNX and PyTorch importers: exact ``floor`` and round-half-to-even from
casts, grid sampling (ONNX GridSample, ``torch.nn.functional.grid_sample``)
from ``graph.gather_elements``, and 3-D convolution and pooling from the 2-D
ops.

Every function takes the importer's :class:`~.mlir_builder.Builder` and
works with either frontend's dtypes (``b.dtypes``)."""

from __future__ import annotations

import itertools
from typing import List, Sequence

import numpy as np

from .errors import Unsupported
from ._mlir_text import pool_out
from .mlir_builder import FunctionBuilder as Builder, Value

def _splat(b: Builder, v, like: Value) -> Value:
    """A rank-0 constant ``v`` of ``like``'s dtype."""
    return b.splat(v, like.dtype)


def floor_value(b: Builder, x: Value) -> Value:
    """``floor`` of a float tensor (``graph.floor``: exact, -0.0, inf and
    NaN kept)."""
    return b.unary("floor", x)


def ceil_value(b: Builder, x: Value) -> Value:
    """``ceil`` of a float tensor (``graph.ceil``; ``ceil(-0.5)`` is -0.0)."""
    return b.unary("ceil", x)


def trunc_value(b: Builder, x: Value) -> Value:
    """``x`` rounded toward zero: ``ceil`` below zero, ``floor`` elsewhere
    (exact; a zero result has ``x``'s sign)."""
    negative = b.compare("lt", x, _splat(b, 0, x))
    return b.select(negative, ceil_value(b, x), floor_value(b, x))


def round_half_even(b: Builder, x: Value) -> Value:
    """``x`` rounded to the nearest integer, ties to even (``graph.round``:
    exact; a zero result has ``x``'s sign)."""
    return b.unary("round", x)


# ---------------------------------------------------------------------------
# Affine grids and grid sampling
# ---------------------------------------------------------------------------

def _affine_axis(n: int, align_corners: bool) -> np.ndarray:
    """The n positions of one axis in [-1, 1] (pixel centres; with
    align_corners the corner pixels' centres are -1 and 1)."""
    if align_corners:
        return np.linspace(-1.0, 1.0, n) if n > 1 else np.zeros(1)
    return (2.0 * np.arange(n) + 1.0) / n - 1.0


def affine_grid(b: Builder, theta: Value, size: Sequence[int], align_corners: bool) -> Value:
    """ONNX AffineGrid, ``F.affine_grid``: the [N, *spatial, k] positions
    that the affine maps ``theta`` ([N, 2, 3] for a 4-D ``size``, [N, 3, 4]
    for a 5-D one) send the output's pixel centres to: the constant grid
    of homogeneous positions [N, H*W, 3] times theta transposed
    (``graph.matmul``)."""
    dims = len(size) - 2
    if dims not in (2, 3) or theta.rank != 3 or list(theta.shape[1:]) != [dims, dims + 1]:
        raise Unsupported(f"invalid model: theta {theta.type} and size {list(size)}: theta "
                          "must be [N, 2, 3] for a 4-D size or [N, 3, 4] for a 5-D one")
    if theta.shape[0] is not None and theta.shape[0] != size[0]:
        raise Unsupported(f"invalid model: theta has {theta.shape[0]} matrices, size "
                          f"says N = {size[0]}")
    spatial = list(size[2:])                 # [H, W] or [D, H, W]
    mesh = np.meshgrid(*[_affine_axis(s, align_corners) for s in spatial], indexing="ij")
    # Homogeneous positions, x (the last, fastest dim) first: (x, y[, z], 1).
    base = np.stack([m.reshape(-1) for m in reversed(mesh)] +
                    [np.ones(_prod(spatial))], axis=1)
    base = b.constant(b.dtypes.from_numpy(base, theta.dtype), hint="grid")
    rows = b.broadcast_to(b.reshape(base, [1] + list(base.shape)),
                          [theta.shape[0]] + list(base.shape))
    grid = b.matmul(rows, b.transpose(theta, [0, 2, 1]))
    return b.reshape(grid, [theta.shape[0] if theta.shape[0] is not None else -1]
                     + spatial + [dims])


GRID_MODES = ("nearest", "linear", "cubic")
GRID_PADDINGS = ("zeros", "border", "reflection")


def _reflect(b: Builder, v: Value, lo: float, hi: float) -> Value:
    """``v`` reflected at ``lo`` and ``hi`` until it lies between them
    (ONNX's ``_gs_reflect``: the distance past the nearer border, folded
    by the range)."""
    if hi == lo:
        return b.binary("add", b.binary("mul", v, _splat(b, 0, v)), _splat(b, lo, v))
    rng, lo_v, hi_v = _splat(b, hi - lo, v), _splat(b, lo, v), _splat(b, hi, v)
    below = b.compare("lt", v, lo_v)
    above = b.compare("gt", v, hi_v)
    dx = b.select(below, b.binary("sub", lo_v, v), b.binary("sub", v, hi_v))
    dx = b.binary("max", dx, _splat(b, 0, v))  # lanes inside: unused
    n = b.cast(b.binary("div", dx, rng), b.dtypes.i64)  # dx >= 0: floor
    r = b.binary("sub", dx, b.binary("mul", b.cast(n, v.dtype), rng))
    i64 = b.dtypes.i64
    even = b.compare("eq", b.binary("bitwise_and", n, b.splat(1, i64)), b.splat(0, i64))
    from_lo = b.binary("add", lo_v, r)
    from_hi = b.binary("sub", hi_v, r)
    return b.select(below, b.select(even, from_lo, from_hi),
                    b.select(above, b.select(even, from_hi, from_lo), v))


def _cubic_weights(b: Builder, t: Value) -> List[Value]:
    """Keys' cubic convolution weights (a = -0.75) of the taps at -1, 0, 1
    and 2 for a fraction ``t`` in [0, 1)."""
    a = -0.75

    def near(x: Value) -> Value:  # |x| <= 1: ((a + 2) x - (a + 3)) x^2 + 1
        p = b.binary("sub", b.binary("mul", _splat(b, a + 2, x), x), _splat(b, a + 3, x))
        return b.binary("add", b.binary("mul", b.binary("mul", p, x), x), _splat(b, 1, x))

    def far(x: Value) -> Value:  # 1 < |x| < 2: ((a x - 5a) x + 8a) x - 4a
        p = b.binary("sub", b.binary("mul", _splat(b, a, x), x), _splat(b, 5 * a, x))
        p = b.binary("add", b.binary("mul", p, x), _splat(b, 8 * a, x))
        return b.binary("sub", b.binary("mul", p, x), _splat(b, 4 * a, x))

    one, two = _splat(b, 1, t), _splat(b, 2, t)
    return [far(b.binary("add", t, one)), near(t), near(b.binary("sub", one, t)),
            far(b.binary("sub", two, t))]


def grid_sample(b: Builder, x: Value, grid: Value, mode: str, padding: str,
                align_corners: bool, *, pad_coordinates: bool = True) -> Value:
    """Samples ``x`` ([N, C, *spatial], 2 or 3 spatial dims) at the
    positions of ``grid`` ([N, *out, k], the last dim (x, y[, z]) in
    [-1, 1]) with ONNX GridSample's rules (its reference implementation):
    a position is unnormalized (with ``align_corners`` -1 and 1 are the
    corner pixels' centres, else their outer edges); ``nearest`` rounds it
    half to even; with ``border`` or ``reflection`` padding a position
    outside the borders (-0.5 and size - 0.5, or 0 and size - 1) is clamped
    to [0, size - 1] or reflected at them; ``linear`` and ``cubic`` (Keys,
    a = -0.75) weight the 2 or 4 taps around it per dim, and a tap outside
    the input reads 0 (``zeros``), the nearest edge pixel (``border``) or
    its reflection (``reflection``). ``pad_coordinates=False`` skips the
    position's padding and pads only the taps (PyTorch's bicubic).

    Each tap is one ``graph.gather_elements`` over the flattened spatial
    dims. f16 and bf16 are computed in f32 and rounded once; the result is
    [N, C, *out] in ``x``'s dtype. Static shapes only."""
    if mode not in GRID_MODES:
        raise Unsupported(f"mode {mode!r} (supported: {', '.join(GRID_MODES)})")
    if padding not in GRID_PADDINGS:
        raise Unsupported(f"padding mode {padding!r} (supported: {', '.join(GRID_PADDINGS)})")
    k = x.rank - 2
    if k not in (2, 3):
        raise Unsupported(f"input {x.type}: 4-D or 5-D inputs are supported")
    if not b.dtypes.is_float(x.dtype) or not b.dtypes.is_float(grid.dtype):
        raise Unsupported(f"input {x.type} and grid {grid.type}: float tensors are supported")
    if grid.rank != k + 2 or grid.shape[-1] != k:
        raise Unsupported(f"invalid model: grid {grid.type} for input {x.type}: the grid "
                          f"must be [N, ...{k} output dims..., {k}]")
    if not x.type.is_static or not grid.type.is_static:
        raise Unsupported(f"input {x.type} and grid {grid.type}: static shapes are supported")
    if grid.shape[0] != x.shape[0]:
        raise Unsupported(f"invalid model: input {x.type} and grid {grid.type} have "
                          "different batch sizes")
    n, c, spatial, out = x.shape[0], x.shape[1], list(x.shape[2:]), list(grid.shape[1:-1])
    pixels = _prod(out)
    size = _prod(spatial)
    if pixels == 0 or n == 0 or c == 0 or size == 0:
        if pixels and n and c:
            raise Unsupported(f"input {x.type}: sampling an empty input")
        return b.constant(b.dtypes.full([n, c] + out, 0, x.dtype), hint="empty")
    i64 = b.dtypes.i64
    wide = b.dtypes.element_type(x.dtype) in ("f16", "bf16")
    ct = b.dtypes.f32 if wide else x.dtype
    g = b.reshape(b.cast(grid, ct), [n, pixels, k])

    positions, borders = [], []  # per spatial dim (0: the outermost): [N, P]
    for d in range(k):
        # The grid's last dim lists x (the innermost dim) first.
        j = k - 1 - d
        comp = b.reshape(b.slice(g, [0, 0, j], [n, pixels, j + 1], [1, 1, 1]), [n, pixels])
        length = spatial[d]
        one = _splat(b, 1, comp)
        if align_corners:  # (v + 1) (size - 1) / 2
            v = b.binary("mul", b.binary("add", comp, one), _splat(b, (length - 1) / 2.0, comp))
            lo, hi = 0.0, float(length - 1)
        else:  # ((v + 1) size - 1) / 2
            v = b.binary("add", comp, one)
            v = b.binary("sub", b.binary("mul", v, _splat(b, float(length), comp)), one)
            v = b.binary("mul", v, _splat(b, 0.5, comp))
            lo, hi = -0.5, length - 0.5
        if mode == "nearest":
            v = round_half_even(b, v)
        if pad_coordinates and padding != "zeros":
            outside = b.binary("bitwise_or", b.compare("lt", v, _splat(b, lo, v)),
                               b.compare("gt", v, _splat(b, hi, v)))
            if padding == "border":
                moved = b.binary("min", b.binary("max", v, _splat(b, 0, v)),
                                 _splat(b, length - 1, v))
            else:
                moved = _reflect(b, v, lo, hi)
            v = b.select(outside, moved, v)
        positions.append(v)
        borders.append((lo, hi))

    def tap_index(i: Value, d: int):
        """The tap at position ``i`` (integral) of dim ``d``: its index,
        i64 [N, P], and whether it lies inside (None: always, after
        padding)."""
        length = spatial[d]
        valid = None
        if padding == "zeros":
            valid = b.binary("bitwise_and", b.compare("ge", i, _splat(b, 0, i)),
                             b.compare("le", i, _splat(b, length - 1, i)))
        elif padding == "reflection":
            i = _reflect(b, i, *borders[d])
        idx = b.cast(i, i64)  # toward zero, as the reference's int()
        idx = b.binary("min", b.binary("max", idx, b.splat(0, i64)),
                       b.splat(length - 1, i64))
        return idx, valid

    # Per dim: the taps as (position, weight or None).
    per_dim = []
    for v in positions:
        if mode == "nearest":
            per_dim.append([(v, None)])
            continue
        base = floor_value(b, v)
        t = b.binary("sub", v, base)
        if mode == "linear":
            weights, offsets = [b.binary("sub", _splat(b, 1, t), t), t], [0, 1]
        else:
            weights, offsets = _cubic_weights(b, t), [-1, 0, 1, 2]
        per_dim.append([(b.binary("add", base, _splat(b, o, base)) if o else base, w)
                        for o, w in zip(offsets, weights)])
    taps_of_dim = [[tap_index(pos, d) + (w,) for pos, w in per_dim[d]] for d in range(k)]

    flat = b.reshape(x, [n, c, size])
    strides = [_prod(spatial[d + 1:]) for d in range(k)]
    zero, one = _splat(b, 0, positions[0]), _splat(b, 1, positions[0])
    acc = None
    for taps in itertools.product(*taps_of_dim):
        index = weight = valid = None
        for d, (idx, ok, w) in enumerate(taps):
            term = idx if strides[d] == 1 else b.binary("mul", idx, b.splat(strides[d], i64))
            index = term if index is None else b.binary("add", index, term)
            if w is not None:
                weight = w if weight is None else b.binary("mul", weight, w)
            if ok is not None:
                valid = ok if valid is None else b.binary("bitwise_and", valid, ok)
        if valid is not None:
            weight = b.select(valid, one if weight is None else weight, zero)
        index = b.broadcast_to(b.reshape(index, [n, 1, pixels]), [n, c, pixels])
        value = b.cast(b.gather_elements(flat, index, 2), ct)
        if weight is not None:
            value = b.binary("mul", value, b.reshape(weight, [n, 1, pixels]))
        acc = value if acc is None else b.binary("add", acc, value)
    return b.reshape(b.cast(acc, x.dtype), [n, c] + out)


def _prod(dims: Sequence[int]) -> int:
    p = 1
    for d in dims:
        p *= d
    return p


# ---------------------------------------------------------------------------
# 3-D convolution and pooling from the 2-D ops
# ---------------------------------------------------------------------------

def _slice_axis(b: Builder, x: Value, axis: int, start: int, limit: int,
                step: int = 1) -> Value:
    starts, limits, steps = [0] * x.rank, list(x.shape), [1] * x.rank
    starts[axis], limits[axis], steps[axis] = start, limit, step
    return b.slice(x, starts, limits, steps)


def require_static(x: Value, what: str) -> None:
    if None in x.shape:
        raise Unsupported(f"{what} of {x.type}: static shapes are supported")


def conv3d(b: Builder, x: Value, w: Value, bias, strides: Sequence[int],
           dilations: Sequence[int], groups: int, lo: Sequence[int],
           hi: Sequence[int]) -> Value:
    """NCDHW / FCDHW convolution as a sum of 2-D convolutions, one per depth
    tap kd of the kernel: the input's depth slices kd * dilation + od *
    stride (od < OD), moved into the batch ([N * OD, C, H, W]), convolved
    with w[:, :, kd] (the first with the bias). The arithmetic of a direct
    3-D convolution; the taps add up in another order. ``lo``/``hi``: the
    padding before and after each of D, H, W."""
    require_static(x, "3-D convolution")
    require_static(w, "3-D convolution")
    n, c, d, h, wd = x.shape
    f, cg, kd_n, kh, kw = w.shape
    if lo[0] or hi[0]:
        x = b.pad(x, [0, 0, lo[0], 0, 0], [0, 0, hi[0], 0, 0], 0.0)
        d += lo[0] + hi[0]
    od = (d - dilations[0] * (kd_n - 1) - 1) // strides[0] + 1
    if od <= 0:
        raise Unsupported(f"3-D convolution of {x.type} by {w.type}: empty output")
    y = None
    for kd in range(kd_n):
        start = kd * dilations[0]
        xs = _slice_axis(b, x, 2, start, start + strides[0] * (od - 1) + 1, strides[0])
        xs = b.reshape(b.transpose(xs, [0, 2, 1, 3, 4]), [n * od, c, h, wd])
        wk = b.reshape(_slice_axis(b, w, 2, kd, kd + 1), [f, cg, kh, kw])
        t = b.conv2d(xs, wk, bias if kd == 0 else None, strides=list(strides[1:]),
                     padding=[lo[1], lo[2], hi[1], hi[2]], dilations=list(dilations[1:]),
                     groups=groups)
        y = t if y is None else b.binary("add", y, t)
    oh, ow = y.shape[2], y.shape[3]
    return b.transpose(b.reshape(y, [n, od, f, oh, ow]), [0, 2, 1, 3, 4])


def conv_transpose3d(b: Builder, x: Value, w: Value, bias, strides: Sequence[int],
                     dilations: Sequence[int], groups: int, lo: Sequence[int],
                     hi: Sequence[int], output_padding: Sequence[int]) -> Value:
    """NCDHW transposed convolution (``w`` [C, F / groups, KD, KH, KW]) as a
    sum over the kernel's depth taps kd of 2-D transposed convolutions:
    every input depth slice, moved into the batch ([N * D, C, H, W]), is
    convolved with w[:, :, kd]; slice i lands at output depth i * stride +
    kd * dilation of the uncropped output, which the taps' results reach
    through zeros between slices (stride - 1 of them) and a shift; the sum
    is then cropped by the depth padding (before) and extended by the
    output padding (after). ``lo``/``hi``: the padding cropped before and
    after each of D, H, W (negative: zeros added, as ONNX's output_shape
    can ask); ``output_padding``: [D, H, W]."""
    require_static(x, "3-D transposed convolution")
    require_static(w, "3-D transposed convolution")
    n, c, d, h, wd = x.shape
    cw, fg, kd_n, kh, kw = w.shape
    sd, dd, opd = strides[0], dilations[0], output_padding[0]
    full = (d - 1) * sd + dd * (kd_n - 1) + 1 + opd
    od = full - lo[0] - hi[0]
    if od <= 0:
        raise Unsupported(f"3-D transposed convolution of {x.type} by {w.type}: empty output")
    xs = b.reshape(b.transpose(x, [0, 2, 1, 3, 4]), [n * d, c, h, wd])
    y = None
    for kd in range(kd_n):
        wk = b.reshape(_slice_axis(b, w, 2, kd, kd + 1), [cw, fg, kh, kw])
        t = b.conv_transpose2d(xs, wk, None, strides=list(strides[1:]),
                               padding=[lo[1], lo[2], hi[1], hi[2]],
                               output_padding=list(output_padding[1:]),
                               dilations=list(dilations[1:]), groups=groups)
        f, oh, ow = t.shape[1], t.shape[2], t.shape[3]
        t = b.reshape(t, [n, d, 1, f, oh, ow])
        if sd > 1:  # slice i at depth i * stride
            t = b.pad(t, [0] * 6, [0, 0, sd - 1, 0, 0, 0], 0.0)
        t = b.reshape(t, [n, d * sd, f, oh, ow])
        # Shift by kd * dilation within the uncropped depth `full`.
        before = kd * dd
        after = full - before - d * sd
        if after < 0:
            t = _slice_axis(b, t, 1, 0, d * sd + after)
            after = 0
        t = b.pad(t, [0, before, 0, 0, 0], [0, after, 0, 0, 0], 0.0)
        y = t if y is None else b.binary("add", y, t)
    if lo[0] < 0 or hi[0] < 0:
        y = b.pad(y, [0, max(-lo[0], 0), 0, 0, 0], [0, max(-hi[0], 0), 0, 0, 0], 0.0)
    if lo[0] > 0 or hi[0] > 0:
        start = max(lo[0], 0)
        y = _slice_axis(b, y, 1, start, start + od)
    y = b.transpose(y, [0, 2, 1, 3, 4])
    if bias is not None:
        y = b.binary("add", y, b.reshape(bias, [y.shape[1], 1, 1, 1]))
    return y


def _window_taps(b: Builder, x: Value, out_hw: Sequence[int], kernel: Sequence[int],
                 strides: Sequence[int], padding: Sequence[int],
                 dilations: Sequence[int], fill: float):
    """The kernel's taps (i, j) over NCHW ``x`` padded with ``fill`` (before
    by ``padding``'s top and left, after as far as the windows reach): for
    each, the [N, C, OH, OW] strided slice of the values the tap reads, in
    row-major tap order."""
    n, c, h, w = x.shape
    oh, ow = out_hw
    (kh, kw), (sh, sw), (dh, dw) = kernel, strides, dilations
    top, left = padding[0], padding[1]
    need_h, need_w = (oh - 1) * sh + (kh - 1) * dh + 1, (ow - 1) * sw + (kw - 1) * dw + 1
    xp = b.pad(x, [0, 0, top, left],
               [0, 0, max(need_h - h - top, 0), max(need_w - w - left, 0)], fill)
    for i in range(kh):
        for j in range(kw):
            yield i, j, b.slice(xp, [0, 0, i * dh, j * dw],
                                [n, c, i * dh + (oh - 1) * sh + 1, j * dw + (ow - 1) * sw + 1],
                                [1, 1, sh, sw])


def max_pool2d_indices(b: Builder, x: Value, y: Value, kernel: Sequence[int],
                       strides: Sequence[int], padding: Sequence[int],
                       dilations: Sequence[int], column_major: bool = False) -> Value:
    """Where each max of a 2-D max pool of NCHW ``x`` (result ``y``) comes
    from, as PyTorch's max_pool2d_with_indices gives it: the flat index
    h * W + w in the input plane, int64. Over the window's taps in row-major
    order, an element replaces the running max when it is greater or NaN
    (so the first of equal maxima, the last NaN); a window of -inf only
    keeps its first in-bounds position. ``padding``: [top, left, bottom,
    right]. ``column_major``: h + w * H instead (ONNX's storage_order 1).
    Floats with static H and W."""
    require_static(x, "max pooling indices")
    h, w = x.shape[2], x.shape[3]
    oh, ow = y.shape[2], y.shape[3]
    (sh, sw), (dh, dw) = strides, dilations
    top, left = padding[0], padding[1]
    rows, cols = np.arange(oh) * sh - top, np.arange(ow) * sw - left

    def first_valid(start, d):  # PyTorch: while (start < 0) start += dilation
        return np.where(start < 0, start + (-start + d - 1) // d * d, start)

    def flat(hh, ww):
        return hh + ww * h if column_major else hh * w + ww

    init = flat(first_valid(rows, dh)[:, None], first_valid(cols, dw)[None, :])
    idx = b.constant(init.astype(np.int64))
    best = b.scalar(float("-inf"), x.dtype)
    for i, j, v in _window_taps(b, x, (oh, ow), kernel, strides, padding, dilations,
                                float("-inf")):
        take = b.binary("bitwise_or", b.compare("gt", v, best), b.compare("ne", v, v))
        tap = flat(rows[:, None] + i * dh, cols[None, :] + j * dw)
        best = b.select(take, v, best)
        idx = b.select(take, b.constant(tap.astype(np.int64)), idx)
    return idx


def max_unpool2d(b: Builder, x: Value, indices: Value, out_hw: Sequence[int]) -> Value:
    """The inverse of a 2-D max pool: zeros of [N, C, OH, OW] with each
    element of ``x`` written at its flat plane index h * OW + w."""
    require_static(x, "max unpooling")
    n, c, h, w = x.shape
    oh, ow = out_hw
    zeros = b.splat(0, x.dtype, [n, c, oh * ow])
    flat = b.scatter(zeros, b.reshape(indices, [n, c, h * w]), b.reshape(x, [n, c, h * w]), 2)
    return b.reshape(flat, [n, c, oh, ow])


def avg_pool2d_dilated(b: Builder, x: Value, kernel: Sequence[int], strides: Sequence[int],
                       padding: Sequence[int], dilations: Sequence[int], ceil_mode: bool,
                       count_include_pad: bool, divide: bool = True) -> Value:
    """2-D average pooling of NCHW with dilated windows (which
    ``graph.avg_pool2d`` does not take): the sum of the kernel's taps as
    strided slices of the zero-padded input, divided by each window's
    count of taps inside the padded input (``count_include_pad``) or inside
    the input itself; taps past the explicit padding (a ceil-mode window's
    overhang) never count, as ONNX's reference has it. ``padding``: [top,
    left, bottom, right]; ``divide`` false: the sums (LpPool's)."""
    require_static(x, "dilated average pooling")
    h, w = x.shape[2], x.shape[3]
    (kh, kw), (sh, sw), (dh, dw) = kernel, strides, dilations
    top, left, bottom, right = padding
    oh = pool_out(h, kh, sh, top, bottom, dh, ceil_mode)
    ow = pool_out(w, kw, sw, left, right, dw, ceil_mode)
    total = None
    for _, _, v in _window_taps(b, x, (oh, ow), kernel, strides, padding, dilations, 0.0):
        total = v if total is None else b.binary("add", total, v)
    if not divide:
        return total

    def counts(out, k, s, d, lo, size, hi):
        first, last = (0, size + lo + hi) if count_include_pad else (lo, lo + size)
        pos = np.arange(out)[:, None] * s + np.arange(k)[None, :] * d
        return ((pos >= first) & (pos < last)).sum(axis=1)

    divisor = (counts(oh, kh, sh, dh, top, h, bottom)[:, None] *
               counts(ow, kw, sw, dw, left, w, right)[None, :])
    return b.binary("div", total, b.cast(b.constant(divisor.astype(np.float32)), x.dtype))


def _last2(b: Builder, x: Value, rows, cols) -> Value:
    """x[..., r0:r1, c0:c1]."""
    starts = [0] * (x.rank - 2) + [rows[0], cols[0]]
    limits = list(x.shape[:-2]) + [rows[1], cols[1]]
    return b.slice(x, starts, limits, [1] * x.rank)


def gauss_jordan(b: Builder, a: Value, rhs=None, *, full: bool):
    """Elimination with partial pivoting on the static square matrices
    [..., n, n] of ``a`` (unrolled over the n columns: for the small
    matrices a model holds). Returns (det, sign, log|det|, solution):
    det as the product of the pivots with one sign flip per row swap
    (0 for a singular matrix), sign and log|det| for slogdet; with
    ``full`` (Gauss-Jordan: every other row eliminated and the pivot row
    normalized), the solution X of a X = ``rhs`` ([..., n, m]; the
    identity when None: the inverse), whose entries are inf/NaN where a is
    singular (PyTorch raises there)."""
    require_static(a, "matrix elimination")
    n = a.shape[-1]
    if a.shape[-2] != n:
        raise Unsupported(f"a square matrix expected, got {a.type}")
    lead = list(a.shape[:-2])
    dt = a.dtype
    c = lambda v: b.scalar(v, dt)

    def const(array, dtype):  # in the frontend's dtype, as the other operands
        return b.constant(b.dtypes.from_numpy(array, dtype))

    m = 0
    aug = a
    if full:
        if rhs is None:
            rhs = b.broadcast_to(const(np.eye(n), dt), lead + [n, n])
        require_static(rhs, "matrix elimination")
        m = rhs.shape[-1]
        aug = b.concat([a, rhs], a.rank - 1)
    width = n + m
    rows_iota = np.arange(n).reshape(n, 1)
    det = sign = None
    logabs = None
    for k in range(n):
        col = b.unary("abs", _last2(b, aug, (0, n), (k, k + 1)))          # [..., n, 1]
        below = b.constant(rows_iota >= k)
        col = b.select(below, col, c(-1.0))
        p = b.argmax(col, aug.rank - 2, keepdims=True)                     # [..., 1, 1]
        ohp = b.cast(b.compare("eq", const(rows_iota, b.dtypes.i64), p), dt)
        ohk = const((rows_iota == k).astype(np.float64), dt)
        row_p = b.reduce("sum", b.binary("mul", ohp, aug), [aug.rank - 2], True)
        row_k = _last2(b, aug, (k, k + 1), (0, width))
        diff = b.binary("sub", row_p, row_k)
        aug = b.binary("sub", b.binary("add", aug, b.binary("mul", ohk, diff)),
                       b.binary("mul", ohp, diff))
        swapped = b.compare("ne", p, const(np.array(k), b.dtypes.i64))
        flip = b.select(swapped, c(-1.0), c(1.0))
        pivot = _last2(b, aug, (k, k + 1), (k, k + 1))                     # [..., 1, 1]
        det = b.binary("mul", flip, pivot) if det is None else \
            b.binary("mul", det, b.binary("mul", flip, pivot))
        psign = b.binary("sub", b.cast(b.compare("gt", pivot, c(0.0)), dt),
                         b.cast(b.compare("lt", pivot, c(0.0)), dt))
        step_sign = b.binary("mul", flip, psign)
        sign = step_sign if sign is None else b.binary("mul", sign, step_sign)
        la = b.unary("log", b.unary("abs", pivot))
        logabs = la if logabs is None else b.binary("add", logabs, la)
        row_k = _last2(b, aug, (k, k + 1), (0, width))
        factor = _last2(b, aug, (0, n), (k, k + 1))
        if full:  # rows other than k eliminated with the normalized pivot row
            row_k = b.binary("div", row_k, pivot)
            others = b.constant(rows_iota != k)
        else:
            # Rows below k only. A zero pivot (a singular matrix: its column
            # below is zero too) eliminates nothing; dividing by it would
            # turn the remaining pivots, and so the zero determinant, into NaN.
            pivot = b.select(b.compare("eq", pivot, c(0.0)), c(1.0), pivot)
            factor = b.binary("div", factor, pivot)
            others = b.constant(rows_iota > k)
        factor = b.select(others, factor, c(0.0))
        aug = b.binary("sub", aug, b.binary("mul", factor, row_k))
        if full:  # the pivot row becomes the normalized one
            aug = b.select(others, aug, b.broadcast_to(row_k, aug.shape))
    squeeze = lambda v: b.reshape(v, lead)
    solution = _last2(b, aug, (0, n), (n, width)) if full else None
    return squeeze(det), squeeze(sign), squeeze(logabs), solution


def col2im(b: Builder, x: Value, out_hw: Sequence[int], kernel: Sequence[int],
           dilations: Sequence[int], padding: Sequence[int],
           strides: Sequence[int]) -> Value:
    """[N, C * kh * kw, L] -> [N, C, H, W] (torch's fold, ONNX's Col2Im):
    each column's kh x kw patch added at its window of the zero-padded
    output (overlaps sum), the padding cut off: one scatter-add over the
    flattened padded image at constant positions (im2col's adjoint).
    ``padding``: [top, left, bottom, right]."""
    require_static(x, "col2im")
    h, w = out_hw
    kh, kw = kernel
    dh, dw = dilations
    top, left, bottom, right = padding
    sh, sw = strides
    n, ck, length = x.shape
    k = kh * kw
    hp, wp = h + top + bottom, w + left + right
    oh = pool_out(h, kh, sh, top, bottom, dh, False)
    ow = pool_out(w, kw, sw, left, right, dw, False)
    if ck % k or oh * ow != length or oh <= 0 or ow <= 0:
        raise Unsupported(f"col2im of {x.type} into {h} x {w} with a {kh} x {kw} kernel: "
                          "the column count does not match the windows")
    c = ck // k
    pos = np.empty((k, length), dtype=np.int64)
    for i in range(kh):
        for j in range(kw):
            rows = np.arange(oh) * sh + i * dh
            cols = np.arange(ow) * sw + j * dw
            pos[i * kw + j] = (rows[:, None] * wp + cols[None, :]).reshape(-1)
    flat = b.reshape(x, [n, c, k * length])
    index = b.broadcast_to(
        b.reshape(b.constant(b.dtypes.from_numpy(pos.reshape(-1), b.dtypes.i64)),
                  [1, 1, k * length]), [n, c, k * length])
    out = b.scatter(b.splat(0, x.dtype, [n, c, hp * wp]), index, flat, 2, "add")
    out = b.reshape(out, [n, c, hp, wp])
    if top or left or bottom or right:
        out = b.slice(out, [0, 0, top, left], [n, c, top + h, left + w], [1, 1, 1, 1])
    return out


def pool3d(b: Builder, kind: str, x: Value, kernel: Sequence[int], strides: Sequence[int],
           lo: Sequence[int], hi: Sequence[int], dilations: Sequence[int],
           ceil_mode: bool, count_include_pad: bool = True) -> Value:
    """3-D max (``kind`` max_pool2d) or average (avg_pool2d) pooling of
    NCDHW as two 2-D pools, exact because both are separable (the max of
    maxes; the average's divisor, with or without the padding counted, is
    a product of one count per dim): over (H, W) on [N, C * D, H, W], then
    over D on [N, C, D, OH * OW]."""
    require_static(x, "3-D pooling")
    n, c, d, h, w = x.shape
    extra = {} if kind == "max_pool2d" else {"count_include_pad": bool(count_include_pad)}

    def pool(v, k, s, p0, p1, dl):
        if kind == "avg_pool2d" and any(v_ != 1 for v_ in dl):
            return avg_pool2d_dilated(b, v, k, s, [p0[0], p0[1], p1[0], p1[1]], dl,
                                      ceil_mode, count_include_pad)
        kw = dict(extra)
        if kind == "max_pool2d":
            kw["dilations"] = list(dl)
        return b.pool2d(kind, v, kernel=list(k), strides=list(s),
                        padding=[p0[0], p0[1], p1[0], p1[1]], ceil_mode=ceil_mode, **kw)

    y = pool(b.reshape(x, [n, c * d, h, w]), kernel[1:], strides[1:], lo[1:], hi[1:],
             dilations[1:])
    oh, ow = y.shape[2], y.shape[3]
    y = pool(b.reshape(y, [n, c, d, oh * ow]), [kernel[0], 1], [strides[0], 1],
             [lo[0], 0], [hi[0], 0], [dilations[0], 1])
    return b.reshape(y, [n, c, y.shape[2], oh, ow])
