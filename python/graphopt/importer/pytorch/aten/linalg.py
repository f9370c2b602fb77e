"""ATen op mappings: matrix products and attention (the registry and the
emission context are in :mod:`.core`)."""

from __future__ import annotations

from typing import Optional

import torch

from .core import Args, op
from .elementwise import _scaled


# ---------------------------------------------------------------------------
# Matrix products
# ---------------------------------------------------------------------------

@op("aten.matmul", "aten.mm", "aten.bmm")
def _matmul(ctx, a):
    lhs, rhs = ctx.same_dtype("matmul", a.self, a.first("other", "mat2"))
    return ctx.b.matmul(lhs, rhs)


@op("aten.linear")
def _linear(ctx, a):
    x, w = ctx.same_dtype("linear", a.input, a.weight)
    wt = ctx.b.transpose(w, [1, 0]) if w.rank == 2 else w
    y = ctx.b.matmul(x, wt)
    if a.get("bias") is not None:
        y = ctx.b.binary("add", y, ctx.tensor(a.bias, y.dtype))
    return y


@op("aten.addmm")
def _addmm(ctx, a):
    m1, m2 = ctx.same_dtype("addmm", a.mat1, a.mat2)
    y = _scaled(ctx, ctx.b.matmul(m1, m2), a.get("alpha", 1))
    bias = _scaled(ctx, ctx.tensor(a.self, y.dtype), a.get("beta", 1))
    return ctx.b.binary("add", y, bias)


@op("aten.t", "aten.numpy_T")
def _t_op(ctx, a):
    x = ctx.tensor(a.self)
    return x if x.rank < 2 else ctx.b.transpose(x, list(range(x.rank))[::-1])


# ---------------------------------------------------------------------------
# Attention
# ---------------------------------------------------------------------------

def _check_sdpa(a: Args) -> Optional[str]:
    p = a.get("dropout_p", 0.0)
    if isinstance(p, (int, float)) and p != 0:
        return "scaled_dot_product_attention with dropout_p != 0 is not supported"
    if a.get("enable_gqa") is True:
        return "scaled_dot_product_attention with enable_gqa is not supported"
    return None


@op("aten.scaled_dot_product_attention", check=_check_sdpa)
def _sdpa(ctx, a):
    q, k, v = ctx.promote(a.query, a.key, a.value)
    q, k, v = (ctx.to_float(t) for t in (q, k, v))
    mask = a.get("attn_mask")
    if mask is not None:
        mask = ctx.tensor(mask)
        if mask.dtype != torch.bool:
            mask = ctx.b.cast(mask, q.dtype)
    scale = a.get("scale")
    return ctx.b.scaled_dot_product_attention(
        q, k, v, mask, scale=None if scale is None else ctx.float_(scale, "scale"),
        is_causal=bool(a.get("is_causal", False)))
