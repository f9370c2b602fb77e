"""ONNX ops: recurrent networks: LSTM, GRU, RNN (the registry and the node context are in
:mod:`.core`)."""

from __future__ import annotations

from typing import Optional

import numpy as np

from .core import (ANY_VALUE, Attr, BOOL, FLOATS, I64, Node, RNN_ACTIVATIONS, TType,
                   Unsupported, Value, activation, one_of, register, reshape_dims)


# ===========================================================================
# Recurrent networks: LSTM, GRU, RNN
# ===========================================================================
#
# Each direction is one `graph.loop` over the (static) sequence length. The
# input projection of every time step is one matmul before the loop
# (X @ W^T + biases: [T, B, gates * H]); the loop body reads step t with
# `graph.gather` (rank-0 index), adds the recurrent projection H @ R^T,
# applies the gate equations and writes H_t into the [T, B, H] output with
# `graph.dynamic_update_slice`. The reverse direction runs t = T-1 .. 0.

_RNN_GATES = {"LSTM": 4, "GRU": 3, "RNN": 1}
_RNN_DEFAULT_ACTS = {"LSTM": ["Sigmoid", "Tanh", "Tanh"], "GRU": ["Sigmoid", "Tanh"],
                     "RNN": ["Tanh"]}


def _check_rnn(n: Node) -> Optional[str]:
    hidden = n.attr("hidden_size", None)
    if hidden is None or int(hidden) <= 0:
        return f"invalid model: hidden_size must be positive, got {hidden}"
    acts = n.attr("activations", None)
    if acts is not None:
        bad = [a for a in acts if a not in RNN_ACTIVATIONS]
        if bad:
            return f"activation {bad[0]!r} is not supported"
    if n.attr("activation_alpha", None) or n.attr("activation_beta", None):
        return "activation_alpha/activation_beta are not supported"
    return None


def _direction_weights(n: Node, i: int, d: int, rows: int) -> Value:
    """``W[d]^T`` (or ``R[d]^T``): [in, rows]."""
    c = n.maybe_const(i)
    if c is not None:
        return n.b.constant(np.ascontiguousarray(c[d].T), hint="w")
    b, w = n.b, n.value(i)
    wd = b.slice(w, [d, 0, 0], [d + 1, w.shape[1], w.shape[2]], [1, 1, 1])
    return b.transpose(reshape_dims(b, wd, [w.shape[1], w.shape[2]]), [1, 0])


def _direction_row(n: Node, v: Value, d: int) -> Value:
    """``v[d]`` of a [D, ...] value."""
    b = n.b
    sl = b.slice(v, [d] + [0] * (v.rank - 1), [d + 1] + list(v.shape[1:]), [1] * v.rank)
    return reshape_dims(b, sl, list(v.shape[1:]))


def _rnn(n: Node):
    n.require_ranks({0: 3, 1: 3, 2: 3, 3: 2, 5: 3, 6: 3, 7: 2})
    b = n.b
    kind = n.op_type
    gates = _RNN_GATES[kind]
    hidden = int(n.attr("hidden_size"))
    layout = int(n.attr("layout"))
    direction = n.attr("direction")
    dirs = ["forward", "reverse"] if direction == "bidirectional" else [direction]
    acts = n.attr("activations", None) or _RNN_DEFAULT_ACTS[kind] * len(dirs)
    per_dir = len(_RNN_DEFAULT_ACTS[kind])
    if len(acts) != per_dir * len(dirs):
        raise Unsupported(f"{len(acts)} activations for {len(dirs)} direction(s)")
    clip = n.attr("clip", None)
    x = n.value(0)
    if layout:
        x = b.transpose(x, [1, 0, 2])
    seq, batch, _ = x.shape
    if seq is None or batch is None:
        raise Unsupported(f"{kind} needs static sequence length and batch size")
    dt = x.dtype
    if n.has(4):
        lens = n.maybe_const(4)
        if lens is None or not (lens == seq).all():
            raise Unsupported("sequence_lens other than the full length")
    bias = n.value(3) if n.has(3) else None
    h0_all = n.value(5) if n.has(5) else None
    c0_all = n.value(6) if kind == "LSTM" and n.has(6) else None
    peep = n.value(7) if kind == "LSTM" and n.has(7) else None
    if layout:
        h0_all = b.transpose(h0_all, [1, 0, 2]) if h0_all is not None else None
        c0_all = b.transpose(c0_all, [1, 0, 2]) if c0_all is not None else None
    lbr = kind == "GRU" and bool(n.attr("linear_before_reset"))
    gh = gates * hidden
    one = n.splat(1, dt)

    def act(k: int, v: Value) -> Value:
        return activation(b, acts[k], v)

    def clipped(v: Value) -> Value:
        return b.unary("clamp", v, {"min": -float(clip), "max": float(clip)}) if clip else v

    ys, hs, cs = [], [], []
    for d, name in enumerate(dirs):
        a0 = per_dir * d
        wt = _direction_weights(n, 1, d, gh)          # [I, G*H]
        rt = _direction_weights(n, 2, d, gh)          # [H, G*H]
        xw = b.matmul(x, wt)                          # [T, B, G*H]
        rb = None
        if bias is not None:
            bd = _direction_row(n, bias, d)           # [2*G*H]
            wb = b.slice(bd, [0], [gh], [1])
            rb = b.slice(bd, [gh], [2 * gh], [1])
            if kind == "GRU" and lbr:
                xw = b.binary("add", xw, wb)          # Rb_h stays inside the reset gate
            else:
                xw = b.binary("add", xw, b.binary("add", wb, rb))
                rb = None
        h0 = _direction_row(n, h0_all, d) if h0_all is not None else \
            n.b.splat(0, dt, (batch, hidden))
        c0 = _direction_row(n, c0_all, d) if c0_all is not None else \
            n.b.splat(0, dt, (batch, hidden))
        pd = _direction_row(n, peep, d) if peep is not None else None
        y0 = n.b.splat(0, dt, (seq, batch, hidden))
        rev = name == "reverse"

        def body(iv, carried, rt=rt, xw=xw, rb=rb, pd=pd, rev=rev, a0=a0):
            if rev:
                t = b.binary("sub", n.splat(seq - 1, I64), iv)
            else:
                t = iv
            h, y = carried[0], carried[-1]
            xt = b.generic("gather", [xw, t], {"axis": 0}, TType((batch, gh), dt))
            hr = b.matmul(h, rt)
            if kind == "LSTM":
                c = carried[1]
                gi, go, gf, gc = b.split(b.binary("add", xt, hr), 1, [hidden] * 4)
                if pd is not None:
                    pi, po, pf = b.split(pd, 0, [hidden] * 3)
                    gi = b.binary("add", gi, b.binary("mul", pi, c))
                    gf = b.binary("add", gf, b.binary("mul", pf, c))
                i_ = act(a0, clipped(gi))
                f_ = b.binary("sub", one, i_) if n.attr("input_forget") else act(a0, clipped(gf))
                c_ = act(a0 + 1, clipped(gc))
                c_new = b.binary("add", b.binary("mul", f_, c), b.binary("mul", i_, c_))
                if pd is not None:
                    go = b.binary("add", go, b.binary("mul", po, c_new))
                o_ = act(a0, clipped(go))
                h_new = b.binary("mul", o_, act(a0 + 2, c_new))
                nxt = [h_new, c_new]
            elif kind == "GRU":
                xz, xr, xh = b.split(xt, 1, [hidden] * 3)
                if lbr:
                    if rb is not None:
                        hr = b.binary("add", hr, rb)
                    hz, hr_, hh = b.split(hr, 1, [hidden] * 3)
                    z = act(a0, clipped(b.binary("add", xz, hz)))
                    r = act(a0, clipped(b.binary("add", xr, hr_)))
                    ht = act(a0 + 1, clipped(b.binary("add", xh, b.binary("mul", r, hh))))
                else:
                    hz, hr_, _ = b.split(hr, 1, [hidden] * 3)
                    z = act(a0, clipped(b.binary("add", xz, hz)))
                    r = act(a0, clipped(b.binary("add", xr, hr_)))
                    rh = b.slice(rt, [0, 2 * hidden], [hidden, gh], [1, 1])
                    ht = act(a0 + 1, clipped(b.binary("add", xh, b.matmul(b.binary("mul", r, h), rh))))
                h_new = b.binary("add", b.binary("mul", b.binary("sub", one, z), ht),
                                 b.binary("mul", z, h))
                nxt = [h_new]
            else:
                h_new = act(a0, clipped(b.binary("add", xt, hr)))
                nxt = [h_new]
            y = b.generic("dynamic_update_slice", [y, h_new, t], {"axis": 0}, y.type)
            return n.splat(True, BOOL), nxt + [y]

        inits = [h0] + ([c0] if kind == "LSTM" else []) + [y0]
        outs = b.loop(n.splat(seq, I64), n.splat(True, BOOL), inits, body)
        hs.append(outs[0])
        if kind == "LSTM":
            cs.append(outs[1])
        ys.append(outs[-1])

    def stack(vals, axis):
        vals = [reshape_dims(b, v, list(v.shape[:axis]) + [1] + list(v.shape[axis:])) for v in vals]
        return b.concat(vals, axis)

    y = stack(ys, 1)                                  # [T, D, B, H]
    yh = stack(hs, 0)                                 # [D, B, H]
    yc = stack(cs, 0) if cs else None
    if layout:
        y = b.transpose(y, [2, 0, 1, 3])
        yh = b.transpose(yh, [1, 0, 2])
        yc = b.transpose(yc, [1, 0, 2]) if yc is not None else None
    return [y, yh] + ([yc] if kind == "LSTM" else [])


_RNN_ATTRS = {
    "activations": Attr(", ".join(RNN_ACTIVATIONS)),
    "activation_alpha": Attr("not supported (defaults only)"),
    "activation_beta": Attr("not supported (defaults only)"),
    "clip": ANY_VALUE, "direction": one_of("forward", "reverse", "bidirectional"),
    "hidden_size": ANY_VALUE, "layout": one_of(0, 1),
}
register("LSTM", dtypes=FLOATS, typed=(0, 1, 2, 3, 5, 6, 7),
         attrs={**_RNN_ATTRS, "input_forget": ANY_VALUE}, check=_check_rnn,
         doc="`graph.loop` per direction with `graph.gather`/"
             "`graph.dynamic_update_slice` (static sequence length and batch; "
             "sequence_lens only if all equal to the length)")(_rnn)
register("GRU", dtypes=FLOATS, typed=(0, 1, 2, 3, 5),
         attrs={**_RNN_ATTRS, "linear_before_reset": ANY_VALUE}, check=_check_rnn,
         doc="as LSTM")(_rnn)
register("RNN", dtypes=FLOATS, typed=(0, 1, 2, 3, 5), attrs=_RNN_ATTRS, check=_check_rnn,
         doc="as LSTM")(_rnn)
