"""ONNX ops: attention, losses, GatherElements (the registry and the node context are in
:mod:`.core`)."""

from __future__ import annotations

import math
from typing import Optional

import numpy as np

from .core import (ANY, ANY_VALUE, Attr, BOOL, Builder, FLOATS, I32, I64, INTS, Node,
                   TType, Unsupported, Value, shape_text, one_of, register, reshape_dims)
from .reductions import iota_along


# ===========================================================================
# Attention, losses, GatherElements
# ===========================================================================

# softmax_precision (an ONNX element type) -> the NumPy dtype the softmax is
# computed in.
_SOFTMAX_PRECISION = {1: np.dtype(np.float32), 10: np.dtype(np.float16),
                      11: np.dtype(np.float64)}


def _check_softmax_precision(v, node):
    if v in (0, None) or v in _SOFTMAX_PRECISION:
        return None
    return f"value {v} (float, float16 and double are supported)"


def _repeat_heads(b: Builder, x: Value, reps: int) -> Value:
    """[B, h, S, E] -> [B, h * reps, S, E], each head repeated in place
    (``np.repeat`` along axis 1)."""
    if reps == 1:
        return x
    bsz, h, s, e = x.shape
    y = reshape_dims(b, x, [bsz, h, 1, s, e])
    y = b.broadcast_to(y, [bsz, h, reps, s, e])
    return reshape_dims(b, y, [bsz, h * reps, s, e])


@register("Attention", dtypes=FLOATS, typed=(0, 1, 2, 4, 5),
          attrs={"is_causal": ANY_VALUE, "kv_num_heads": ANY_VALUE, "q_num_heads": ANY_VALUE,
                 "qk_matmul_output_mode": one_of(0, 1, 2, 3), "scale": ANY_VALUE,
                 "softcap": ANY_VALUE,
                 "softmax_precision": Attr("float, float16 or double", _check_softmax_precision),
                 "left_window_size": ANY_VALUE, "right_window_size": ANY_VALUE},
          doc="`graph.matmul`, `graph.softmax` and elementwise ops: 3-D and 4-D "
              "inputs, grouped heads, boolean/additive masks, causal and "
              "sliding-window masks, past key/value, nonpad_kv_seqlen, softcap, "
              "every qk_matmul_output mode (static sequence lengths)")
def _attention(n: Node):
    b = n.b
    q, k, v = n.value(0), n.value(1), n.value(2)
    dt = q.dtype
    if not (q.rank == k.rank == v.rank):
        raise Unsupported(f"invalid model: Q, K and V must have one rank (3 or 4), "
                          f"got {q.rank}, {k.rank} and {v.rank}")
    three_d = q.rank == 3
    if three_d:
        qh, kvh = n.attr("q_num_heads"), n.attr("kv_num_heads")
        if not qh or not kvh:
            raise Unsupported("3-D inputs need q_num_heads and kv_num_heads")

        def heads(x: Value, h: int) -> Value:
            bsz, s, hidden = x.shape
            if hidden is None or hidden % h:
                raise Unsupported(f"hidden size {hidden} is not a multiple of {h} heads")
            return b.transpose(reshape_dims(b, x, [bsz, s, h, hidden // h]), [0, 2, 1, 3])
        q, k, v = heads(q, qh), heads(k, kvh), heads(v, kvh)
    elif q.rank != 4:
        raise Unsupported(f"rank-{q.rank} inputs (3-D and 4-D are supported)")
    if n.has(4) != n.has(5):
        raise Unsupported("past_key without past_value (or the reverse)")
    past = n.has(4)
    if past:
        k = b.concat([n.value(4), k], 2)
        v = b.concat([n.value(5), v], 2)
    present_k, present_v = k, v
    head_dim = q.shape[3]
    L, S = q.shape[2], k.shape[2]
    if None in (L, S, head_dim):
        raise Unsupported("dynamic sequence lengths or head size")
    scale = n.attr("scale", None)
    scale = 1.0 / math.sqrt(head_dim) if scale is None else float(scale)
    sq = n.splat(float(np.sqrt(np.float64(scale))), dt)
    np_dt = dt.type

    # The attention bias: a constant part [L, S] and a run-time part.
    const_bias = np.zeros((L, S), dtype=dt)
    dyn: Optional[Value] = None

    def add_dyn(x: Value):
        nonlocal dyn
        dyn = x if dyn is None else b.binary("add", dyn, x)

    neg_inf = n.splat(-np.inf, dt)
    zero = n.splat(0, dt)
    if n.has(3):
        m = n.value(3)
        if m.shape[-1] is None:
            raise Unsupported("a mask with a dynamic last dim")
        if m.shape[-1] < S:
            lo, hi = [0] * m.rank, [0] * m.rank
            hi[-1] = S - m.shape[-1]
            m = b.with_attrs("pad", m, {"low": lo, "high": hi,
                                        "value": 0.0 if m.dtype == BOOL else float("-inf")},
                             m.type.with_shape(list(m.shape[:-1]) + [S]))
        add_dyn(b.select(m, zero, neg_inf) if m.dtype == BOOL else b.cast(m, dt))
    nonpad = n.value(6) if n.has(6) else None
    if nonpad is not None and past:
        raise Unsupported("nonpad_kv_seqlen with past key/value")
    if nonpad is not None and (nonpad.rank != 1 or nonpad.shape[0] not in (None, q.shape[0])):
        raise Unsupported(f"invalid model: nonpad_kv_seqlen has shape {shape_text(nonpad.shape)}, "
                          f"expected [{q.shape[0]}] (one length per batch entry)")
    i_idx = np.arange(L).reshape(L, 1)
    j_idx = np.arange(S).reshape(1, S)
    left = n.attr("left_window_size", -1)
    right = n.attr("right_window_size", -1)
    left = -1 if left is None else int(left)
    right = -1 if right is None else int(right)

    def allowed_static(offset: int) -> np.ndarray:
        ok = np.ones((L, S), bool)
        diff = i_idx + offset - j_idx
        if n.attr("is_causal"):
            ok &= diff >= 0
        if left >= 0:
            ok &= diff <= left
        if right >= 0:
            ok &= -diff <= right
        return ok

    if n.attr("is_causal") or left >= 0 or right >= 0:
        if nonpad is None:
            offset = n.type(4).shape[2] if past else 0
            const_bias = np.where(allowed_static(offset), const_bias, np_dt(-np.inf)).astype(dt)
        else:
            # Per batch: query i is at position i + nonpad[b] - L.
            off = reshape_dims(b, b.binary("sub", b.cast(nonpad, I64), n.splat(L, I64)),
                               [nonpad.shape[0], 1, 1, 1])
            diff = b.binary("add", b.constant((i_idx - j_idx).astype(np.int64), hint="diff"), off)
            ok = None

            def both(x):
                nonlocal ok
                ok = x if ok is None else b.select(ok, x, n.splat(False, BOOL))
            if n.attr("is_causal"):
                both(b.compare("ge", diff, n.splat(0, I64)))
            if left >= 0:
                both(b.compare("le", diff, n.splat(left, I64)))
            if right >= 0:
                both(b.compare("ge", diff, n.splat(-right, I64)))
            add_dyn(b.select(ok, zero, neg_inf))
    if nonpad is not None:
        valid = b.compare("lt", b.constant(np.arange(S, dtype=np.int64), hint="iota"),
                          reshape_dims(b, b.cast(nonpad, I64), [nonpad.shape[0], 1]))
        add_dyn(reshape_dims(b, b.select(valid, zero, neg_inf), [nonpad.shape[0], 1, 1, S]))

    q_heads, kv_heads = q.shape[1], k.shape[1]
    if q_heads != kv_heads:
        if q_heads is None or kv_heads is None or q_heads % kv_heads:
            raise Unsupported(f"{q_heads} query heads for {kv_heads} key/value heads")
        k = _repeat_heads(b, k, q_heads // kv_heads)
        v = _repeat_heads(b, v, q_heads // kv_heads)
    qk = b.matmul(b.binary("mul", q, sq), b.transpose(b.binary("mul", k, sq), [0, 1, 3, 2]))
    softcap = n.attr("softcap", 0.0) or 0.0
    if softcap > 0:
        cap = n.splat(float(softcap), dt)
        qk = b.binary("mul", b.unary("tanh", b.binary("div", qk, cap)), cap)
    qk_out = qk
    bias = None
    if const_bias.any() or dyn is None:
        bias = b.constant(const_bias, hint="bias") if const_bias.any() else None
    if dyn is not None:
        bias = dyn if bias is None else b.binary("add", dyn, bias)
    scores = b.binary("add", qk, bias) if bias is not None else qk
    mode = n.attr("qk_matmul_output_mode")
    if mode == 2:
        qk_out = scores
    precision = _SOFTMAX_PRECISION.get(n.attr("softmax_precision", 0) or 0, scores.dtype)
    if precision != scores.dtype:  # computed in the precision asked for
        p = b.cast(b.softmax(b.cast(scores, precision), 3), scores.dtype)
    else:
        p = b.softmax(scores, 3)
    # Rows where every key is masked give 0 (softmax alone would give NaN).
    if dyn is not None:
        masked = b.compare("eq", b.reduce("max", bias, [bias.rank - 1], True), neg_inf)
        p = b.select(masked, zero, p)
    elif np.isneginf(const_bias).all(axis=1).any():
        p = b.select(b.constant(np.isneginf(const_bias).all(axis=1, keepdims=True), hint="masked"),
                     zero, p)
    if mode == 3:
        qk_out = p
    y = b.matmul(p, v)
    if three_d:
        bsz, h, _, ev = y.shape
        y = reshape_dims(b, b.transpose(y, [0, 2, 1, 3]), [bsz, L, h * ev])
    return [y, present_k, present_v, qk_out]


def _loss_attrs():
    return {"ignore_index": ANY_VALUE, "reduction": one_of("none", "sum", "mean")}


def _nll(n: Node, logp: Value, target_index: int, weight_index: int, sce: bool) -> Value:
    """The loss of log-probabilities ``logp`` [N, C, ...] for the targets."""
    b = n.b
    target = n.value(target_index)
    if target.dtype not in INTS:
        raise Unsupported("non-integer targets")
    if logp.rank < 2 or target.rank != logp.rank - 1:
        raise Unsupported(f"invalid model: targets of shape {shape_text(target.shape)} for "
                          f"scores of shape {shape_text(logp.shape)} (the targets have "
                          "the scores' dims without the class dim)")
    c = logp.shape[1]
    if c is None:
        raise Unsupported("a dynamic class dim")
    dt = logp.dtype
    t = b.cast(target, I64)
    t1 = reshape_dims(b, t, [t.shape[0], 1] + list(t.shape[1:]))
    hit = b.compare("eq", t1, iota_along(b, c, 1, logp.rank))
    picked = b.reduce("sum", b.select(hit, logp, n.splat(0, dt)), [1])
    loss = b.unary("neg", picked)
    ignore = n.attr("ignore_index", None)
    weighted = n.has(weight_index)
    w = None
    if weighted:
        w = b.generic("gather", [n.value(weight_index), t], {"axis": 0},
                      TType(t.shape, dt))
    if ignore is not None:
        valid = b.compare("ne", t, n.splat(int(ignore), I64))
        w = b.select(valid, w if w is not None else n.splat(1, dt), n.splat(0, dt))
    if w is not None:
        loss = b.binary("mul", loss, w)
    reduction = n.attr("reduction")
    if reduction == "none":
        return loss
    axes = list(range(loss.rank))
    total = b.reduce("sum", loss, axes)
    if reduction == "sum":
        return total
    # mean: weighted by the gathered weights (the reference's quirk: an
    # unweighted NegativeLogLikelihoodLoss with ignore_index -1 averages
    # over every element).
    if w is not None and (weighted or sce or ignore != -1):
        w_full = b.broadcast_to(w, loss.shape) if w.shape != loss.shape else w
        return b.binary("div", total, b.reduce("sum", w_full, axes))
    return b.reduce("mean", loss, axes)


@register("NegativeLogLikelihoodLoss", dtypes=FLOATS, typed=(0, 2), attrs=_loss_attrs(),
          doc="a one-hot `graph.compare` of the targets selects the inputs; "
              "weights by `graph.gather` (static class dim)")
def _nll_loss(n: Node):
    return [_nll(n, n.value(0), 1, 2, sce=False)]


@register("SoftmaxCrossEntropyLoss", dtypes=FLOATS, typed=(0, 2), attrs=_loss_attrs(),
          doc="log-softmax over axis 1, then as NegativeLogLikelihoodLoss")
def _sce_loss(n: Node):
    b, x = n.b, n.value(0)
    s = b.binary("sub", x, b.reduce("max", x, [1], True))
    logp = b.binary("sub", s, b.unary("log", b.reduce("sum", b.unary("exp", s), [1], True)))
    return [_nll(n, logp, 1, 2, sce=True), logp]


@register("GatherElements", dtypes=ANY, attrs={"axis": ANY_VALUE},
          doc="`graph.gather_elements` (negative indices count from the end; "
              "out-of-range indices are clamped)")
def _gather_elements(n: Node):
    data, idx = n.value(0), n.value(1)
    return [take_along_axis(n, data, idx, n.axis(n.attr("axis"), data.rank))]


def take_along_axis(n: Node, data: Value, idx: Value, axis: int) -> Value:
    """GatherElements (numpy.take_along_axis) as ``graph.gather_elements``."""
    if idx.dtype not in INTS:
        raise Unsupported("non-integer indices")
    if idx.rank != data.rank or any(
            i is not None and d is not None and i > d
            for a, (i, d) in enumerate(zip(idx.shape, data.shape)) if a != axis):
        raise Unsupported(f"invalid model: indices of shape {list(idx.shape)} for data of "
                          f"shape {list(data.shape)} (axis {axis}): the ranks must be equal "
                          "and no other dim larger than the data's")
    if data.shape[axis] == 0 and (idx.shape[axis] or 0) > 0:
        raise Unsupported(f"invalid model: indices select along axis {axis}, which is "
                          "empty in the data")
    return n.b.gather_elements(data, idx, axis)


@register("RotaryEmbedding", dtypes=FLOATS, typed=(0, 1, 2),
          attrs={"interleaved": one_of(0, 1), "num_heads": ANY_VALUE,
                 "rotary_embedding_dim": ANY_VALUE},
          doc="ONNX's definition as `graph` ops: the caches gathered at "
              "`position_ids` (`graph.gather`), the rotated part split in halves "
              "(or even/odd elements when interleaved: strided `graph.slice`), "
              "`cos * x1 - sin * x2`, `sin * x1 + cos * x2`, `graph.concat` with "
              "the part not rotated; static head size")
def _rotary_embedding(n: Node):
    b, x = n.b, n.value(0)
    n.require_ranks({1: 2 if n.has(3) else 3, 2: 2 if n.has(3) else 3})
    if x.rank not in (3, 4):
        raise Unsupported(f"input of rank {x.rank} (3 or 4 is supported)")
    cos, sin = n.value(1), n.value(2)
    if n.has(3):  # [max_position, half] -> [batch, seq, half]
        pos = n.value(3)
        if pos.rank != 2:
            raise Unsupported(f"invalid model: position_ids {pos.type} must be 2-D")
        cos, sin = b.gather(cos, pos, 0), b.gather(sin, pos, 0)
    if x.rank == 4:  # [batch, heads, seq, head]: caches as [batch, 1, seq, half]
        bsz, _, seq, head = x.shape
        y = x
        cos_shape = [cos.shape[0], 1, cos.shape[1], cos.shape[2]]
    else:  # [batch, seq, hidden] as [batch, seq, heads, head]
        heads = int(n.attr("num_heads") or 0)
        bsz, seq, hidden = x.shape
        if heads <= 0 or hidden is None or hidden % heads:
            raise Unsupported(f"a 3-D input {x.type} needs num_heads dividing its "
                              f"hidden size (num_heads = {heads})")
        head = hidden // heads
        y = reshape_dims(b, x, [bsz, seq, heads, head])
        cos_shape = [cos.shape[0], cos.shape[1], 1, cos.shape[2]]
    if head is None:
        raise Unsupported(f"input {x.type} of dynamic head size")
    rot = int(n.attr("rotary_embedding_dim") or 0) or head
    half = rot // 2
    if rot % 2 or rot > head or cos.shape[-1] != half or sin.shape[-1] != half:
        raise Unsupported(f"invalid model: the caches' last dim ({cos.shape[-1]}, "
                          f"{sin.shape[-1]}) must be half the rotary dim {rot}")
    cos, sin = reshape_dims(b, cos, cos_shape), reshape_dims(b, sin, cos_shape)
    lead = list(y.shape[:3])
    start, limit, step = [0, 0, 0], [d if d is not None else -1 for d in lead], [1, 1, 1]
    if None in lead:
        raise Unsupported(f"input {x.type} of dynamic shape")

    def part(lo, hi, st):
        return b.slice(y, start + [lo], limit + [hi], step + [st])

    if n.attr("interleaved"):
        x1, x2 = part(0, rot, 2), part(1, rot, 2)
    else:
        x1, x2 = part(0, half, 1), part(half, rot, 1)
    real = b.binary("sub", b.binary("mul", cos, x1), b.binary("mul", sin, x2))
    imag = b.binary("add", b.binary("mul", sin, x1), b.binary("mul", cos, x2))
    if n.attr("interleaved"):
        pair = lead + [half, 1]
        rotated = reshape_dims(b, b.concat([reshape_dims(b, real, pair),
                                            reshape_dims(b, imag, pair)], 4), lead + [rot])
    else:
        rotated = b.concat([real, imag], 3)
    if rot < head:
        rotated = b.concat([rotated, part(rot, head, 1)], 3)
    return [rotated if x.rank == 4 else reshape_dims(b, rotated, list(x.shape))]


_LINEAR_ATTENTION_RULES = ("linear", "gated", "delta", "gated_delta")


@register("LinearAttention", dtypes=[d for d in FLOATS if d != np.dtype(np.float64)],
          typed=(0, 1, 2, 4, 5),
          attrs={"chunk_size": ANY_VALUE, "kv_num_heads": ANY_VALUE,
                 "q_num_heads": ANY_VALUE, "scale": ANY_VALUE,
                 "update_rule": one_of(*_LINEAR_ATTENTION_RULES)},
          doc="the recurrence as one `graph.loop` over the (static) sequence, "
              "the state [B, H_kv, d_k, d_v] carried in f32: decay "
              "(per head or per key dim), the delta correction, the rank-1 "
              "update and the read (`graph.matmul`), grouped query heads; "
              "chunk_size (a tuning hint) is ignored")
def _linear_attention(n: Node):
    """ONNX LinearAttention: for each step t, with the state S
    [B, H_kv, d_k, d_v] (zeros, or past_state),
    S *= exp(g_t) (gated rules), v_t = beta_t (v_t - S^T k_t) (delta rules),
    S += k_t (x) v_t, o_t = scale q_t^T S (each KV head's state read by its
    q_num_heads / kv_num_heads query heads). Computed in f32 whatever the
    input type, as ONNX's reference does."""
    b = n.b
    n.require_ranks({0: 3, 1: 3, 2: 3, 3: 4, 4: 3, 5: 3})
    q, k, v = n.value(0), n.value(1), n.value(2)
    rule = n.attr("update_rule") or "gated_delta"
    hq, hkv = int(n.attr("q_num_heads") or 0), int(n.attr("kv_num_heads") or 0)
    if hq <= 0 or hkv <= 0 or hq % hkv:
        raise Unsupported(f"invalid model: q_num_heads ({hq}) must be a positive "
                          f"multiple of kv_num_heads ({hkv})")
    gated, delta = rule in ("gated", "gated_delta"), rule in ("delta", "gated_delta")
    for idx, name, needed in ((4, "decay", gated), (5, "beta", delta)):
        if needed and not n.has(idx):
            raise Unsupported(f"invalid model: update_rule {rule!r} needs the {name} input")
        if not needed and n.has(idx):
            raise Unsupported(f"invalid model: update_rule {rule!r} takes no {name} input")
    bsz, seq, qw = q.shape
    if None in (bsz, seq, qw, k.shape[2], v.shape[2]):
        raise Unsupported(f"LinearAttention needs static shapes (query {q.type}, "
                          f"key {k.type}, value {v.type})")
    if qw % hq or k.shape[2] % hkv or v.shape[2] % hkv:
        raise Unsupported(f"invalid model: the packed widths (query {qw}, key "
                          f"{k.shape[2]}, value {v.shape[2]}) must be multiples of "
                          f"their head counts ({hq}, {hkv})")
    dk, dv = qw // hq, v.shape[2] // hkv
    for name, x in (("key", k), ("value", v)):
        if tuple(x.shape[:2]) != (bsz, seq):
            raise Unsupported(f"invalid model: {name} {x.type} must have query's batch "
                              f"and sequence dims ({bsz}, {seq})")
    if k.shape[2] != hkv * dk:
        raise Unsupported(f"invalid model: key {k.type} must be [B, T, kv_num_heads * "
                          f"d_k] = [{bsz}, {seq}, {hkv * dk}]")
    out_dt = q.dtype
    f32 = np.dtype(np.float32)

    def steps(x: Value, heads: int, width: int) -> Value:
        """[B, T, heads * width] -> [T, B, heads, width] in f32."""
        x = reshape_dims(b, b.cast(x, f32), [bsz, seq, heads, width])
        return b.transpose(x, [1, 0, 2, 3])

    q4, k4, v4 = steps(q, hq, dk), steps(k, hkv, dk), steps(v, hkv, dv)
    g4 = beta4 = None
    if gated:
        g = n.value(4)
        last = g.shape[2]
        if tuple(g.shape[:2]) != (bsz, seq) or last not in (hkv, hkv * dk):
            raise Unsupported(f"invalid model: decay {g.type} must be [{bsz}, {seq}, "
                              f"{hkv}] (per head) or [{bsz}, {seq}, {hkv * dk}] (per key dim)")
        g4 = steps(g, hkv, last // hkv)                  # [T, B, H_kv, 1 or d_k]
    if delta:
        be = n.value(5)
        if tuple(be.shape[:2]) != (bsz, seq) or be.shape[2] not in (hkv, 1):
            raise Unsupported(f"invalid model: beta {be.type} must be [{bsz}, {seq}, "
                              f"{hkv}] or [{bsz}, {seq}, 1]")
        beta4 = steps(be, be.shape[2], 1)                # [T, B, H_kv or 1, 1]
    state_shape = [bsz, hkv, dk, dv]
    if n.has(3):
        past = n.value(3)
        if list(past.shape) != state_shape:
            raise Unsupported(f"invalid model: past_state {past.type} must be "
                              f"[{', '.join(map(str, state_shape))}]")
        state_dt = past.dtype
        s0 = b.cast(past, f32)
    else:
        state_dt = out_dt
        s0 = b.splat(0, f32, state_shape)
    scale = float(n.attr("scale") or 0.0) or 1.0 / math.sqrt(dk)
    group = hq // hkv
    y0 = b.splat(0, f32, (seq, bsz, hq * dv))

    def at(x: Value, t: Value) -> Value:
        return b.generic("gather", [x, t], {"axis": 0},
                         TType(tuple(x.shape[1:]), f32))

    def body(t, carried):
        s, y = carried
        kt, vt = at(k4, t), at(v4, t)                    # [B, H_kv, d_k], [B, H_kv, d_v]
        if gated:                                        # S *= exp(g_t), over d_v
            gt = b.unary("exp", at(g4, t))
            s = b.binary("mul", s, reshape_dims(b, gt, list(gt.shape) + [1]))
        if delta:                                        # v_t = beta (v_t - S^T k_t)
            got = b.matmul(reshape_dims(b, kt, [bsz, hkv, 1, dk]), s)
            got = reshape_dims(b, got, [bsz, hkv, dv])
            vt = b.binary("mul", at(beta4, t), b.binary("sub", vt, got))
        s = b.binary("add", s, b.binary("mul", reshape_dims(b, kt, [bsz, hkv, dk, 1]),
                                        reshape_dims(b, vt, [bsz, hkv, 1, dv])))
        read = s
        if group > 1:                                    # KV head h serves query heads h*g ..
            read = b.broadcast_to(reshape_dims(b, s, [bsz, hkv, 1, dk, dv]),
                                  [bsz, hkv, group, dk, dv])
            read = reshape_dims(b, read, [bsz, hq, dk, dv])
        qt = reshape_dims(b, at(q4, t), [bsz, hq, 1, dk])
        ot = b.binary("mul", b.matmul(qt, read), b.splat(scale, f32))
        ot = reshape_dims(b, ot, [bsz, hq * dv])
        y = b.generic("dynamic_update_slice", [y, ot, t], {"axis": 0}, y.type)
        return n.splat(True, BOOL), [s, y]

    s, y = b.loop(n.splat(seq, I64), n.splat(True, BOOL), [s0, y0], body)
    out = b.cast(b.transpose(y, [1, 0, 2]), out_dt)
    return [out, b.cast(s, state_dt)]


@register("FlexAttention", domain="ai.onnx.preview", dtypes=FLOATS, typed=(0, 1, 2),
          attrs={"scale": ANY_VALUE, "score_mod": ANY_VALUE, "prob_mod": ANY_VALUE,
                 "softmax_precision": Attr("float, float16 or double",
                                           _check_softmax_precision)},
          doc="(`ai.onnx.preview` domain) `graph.matmul`, `graph.softmax`, the "
              "score_mod and prob_mod subgraphs imported in place on the "
              "[B, H_q, L, S] scores and probabilities (in the softmax precision: "
              "f32 for f16/bf16 inputs), grouped heads; static head counts")
def _flex_attention(n: Node):
    """ONNX FlexAttention: ``softmax(score_mod(Q K^T scale)) -> prob_mod``,
    times V; each K/V head serves q_num_heads / kv_num_heads consecutive
    query heads. Q and K are each scaled by sqrt(scale) before the product,
    as ONNX's reference does."""
    b, imp = n.b, n.imp
    n.require_ranks({0: 4, 1: 4, 2: 4})
    q, k, v = n.value(0), n.value(1), n.value(2)
    dt = q.dtype
    head, hq, hkv = q.shape[3], q.shape[1], k.shape[1]
    if None in (head, hq, hkv) or v.shape[1] is None:
        raise Unsupported(f"dynamic head counts or head size (Q {q.type}, K {k.type})")
    if k.shape[3] != head or v.shape[1] != hkv or v.shape[2] != k.shape[2]:
        raise Unsupported(f"invalid model: Q {q.type}, K {k.type} and V {v.type} must "
                          "share the head size (Q, K), the heads and the sequence (K, V)")
    if hq % hkv:
        raise Unsupported(f"invalid model: {hq} query heads for {hkv} key/value heads "
                          "(a multiple is needed)")
    scale = n.attr("scale", None)
    scale = 1.0 / math.sqrt(head) if scale is None else float(scale)
    if hq != hkv:
        k, v = _repeat_heads(b, k, hq // hkv), _repeat_heads(b, v, hq // hkv)
    sq = n.splat(float(np.sqrt(np.float32(scale))), dt)
    scores = b.matmul(b.binary("mul", q, sq),
                      b.transpose(b.binary("mul", k, sq), [0, 1, 3, 2]))
    precision = n.attr("softmax_precision", 0) or 0
    compute = _SOFTMAX_PRECISION.get(precision) or \
        (np.dtype(np.float32) if dt.itemsize < 4 else dt)
    scores = b.cast(scores, compute)

    def modify(name: str, x: Value) -> Value:
        g = n.attr(name, None)
        if g is None:
            return x
        out = imp.import_subgraph(g, [x], name)
        if len(out) != 1 or out[0].type != x.type:
            got = ", ".join(str(o.type) for o in out)
            raise Unsupported(f"invalid model: {name} must return one {x.type}, got {got}")
        return out[0]

    p = modify("prob_mod", b.softmax(modify("score_mod", scores), 3))
    y = b.matmul(p, b.cast(v, compute))
    return [b.cast(y, v.dtype)]


@register("TensorScatter", dtypes=ANY, typed=(0, 1),
          attrs={"axis": ANY_VALUE, "mode": one_of("linear", "circular")},
          doc="a KV-cache update as a select: cache position p of batch entry b takes "
              "update row p - write_indices[b] (modulo the cache length when "
              "circular; `graph.gather_elements`) where that row exists, else the "
              "past cache's; static shapes")
def _tensor_scatter(n: Node):
    b = n.b
    past, upd = n.value(0), n.value(1)
    r = past.rank
    if r < 2 or upd.rank != r or None in past.shape or None in upd.shape:
        raise Unsupported(f"invalid model: past_cache {past.type} and update {upd.type} "
                          "must have one static rank >= 2")
    axis = n.axis(int(n.attr("axis", -2)), r)
    if axis == 0:
        raise Unsupported("invalid model: axis 0 is the batch dimension")
    if any(p != u for d, (p, u) in enumerate(zip(past.shape, upd.shape)) if d != axis) \
            or upd.shape[axis] > past.shape[axis]:
        raise Unsupported(f"invalid model: update {upd.type} must match past_cache "
                          f"{past.type} except along axis {axis}, where it is no longer")
    batch, cap, seq = past.shape[0], past.shape[axis], upd.shape[axis]
    if n.has(2):
        w = n.value(2)
        if w.rank != 1 or w.shape[0] not in (None, batch):
            raise Unsupported(f"invalid model: write_indices {w.type} must be [{batch}]")
        w = b.cast(w, I64)
    else:
        w = n.splat(0, I64)
    # off[b, p] = p - write_indices[b], shaped to broadcast against the cache.
    shape = [batch] + [1] * (axis - 1) + [cap] + [1] * (r - axis - 1)
    pos = b.constant(np.arange(cap, dtype=np.int64).reshape([1] * axis + [cap] +
                                                            [1] * (r - axis - 1)))
    if w.rank:
        w = reshape_dims(b, w, [batch] + [1] * (r - 1))
    off = b.binary("sub", pos, w)
    if n.attr("mode", "linear") == "circular":
        off = b.python_mod(off, n.splat(cap, I64))
    off = b.broadcast_to(off, shape)
    valid = b.select(b.compare("ge", off, n.splat(0, I64)),
                     b.compare("lt", off, n.splat(seq, I64)), n.splat(False, BOOL))
    idx = b.binary("max", b.binary("min", off, n.splat(seq - 1, I64)), n.splat(0, I64))
    rows = b.gather_elements(upd, b.broadcast_to(idx, list(past.shape)), axis)
    return [b.select(valid, rows, past)]
