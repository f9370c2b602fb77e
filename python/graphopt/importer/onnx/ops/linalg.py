"""ONNX ops: linear algebra (the registry and the node context are in
:mod:`.core`)."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from .core import (ANY_VALUE, NUMERIC, Node, Unsupported, Value, is_float, register)


# ===========================================================================
# Linear algebra
# ===========================================================================

@register("MatMul", dtypes=NUMERIC, typed=(0, 1), doc="`graph.matmul` (NumPy semantics)")
def _matmul(n: Node):
    return [n.b.matmul(n.value(0), n.value(1))]


def transposed(n: Node, i: int, perm: Sequence[int]) -> Value:
    """Input ``i`` transposed by ``perm``; done in NumPy for a constant."""
    c = n.maybe_const(i)
    if c is not None:
        return n.b.constant(np.ascontiguousarray(np.transpose(c, perm)), hint="w")
    return n.b.transpose(n.value(i), perm)


@register("Gemm", dtypes=NUMERIC, typed=(0, 1, 2),
          attrs={"alpha": ANY_VALUE, "beta": ANY_VALUE, "transA": ANY_VALUE,
                 "transB": ANY_VALUE},
          doc="`graph.matmul` (+ `graph.mul` by alpha, `graph.add` of beta * C); "
              "integers need alpha = beta = 1")
def _gemm(n: Node):
    b = n.b
    a = transposed(n, 0, [1, 0]) if n.attr("transA") else n.value(0)
    w = transposed(n, 1, [1, 0]) if n.attr("transB") else n.value(1)
    alpha, beta = float(n.attr("alpha")), float(n.attr("beta"))
    if not is_float(a.dtype) and (alpha != 1.0 or beta != 1.0):
        raise Unsupported("integer Gemm with alpha or beta other than 1")
    y = b.matmul(a, w)
    if alpha != 1.0:
        y = b.binary("mul", y, n.splat(alpha, y.dtype))
    if n.has(2) and beta != 0.0:
        c = n.value(2)
        if beta != 1.0:
            c = b.binary("mul", c, n.splat(beta, c.dtype))
        out = b.binary("add", y, c)
        if out.shape != y.shape and None not in y.shape:
            raise Unsupported(f"C {c.type} does not broadcast to {y.type}")
        y = out
    return [y]
