"""ONNX ops of the ``ai.onnx.preview.training`` domain: the optimizer
updates Adagrad, Adam and Momentum (the registry and the node context are
in :mod:`.core`). Each is elementwise over its tensors, with the scalar
learning rate R and step count T read at run time; several tensors
(X1..Xn, G1..Gn, ...) are updated alike."""

from __future__ import annotations

from typing import List

from .core import ANY_VALUE, BOOL, F32, F64, I64, Node, Unsupported, Value, one_of, register

_TRAINING = "ai.onnx.preview.training"


def _groups(n: Node, per: int) -> List[List[Value]]:
    """Inputs 2.. as ``per`` lists of n tensors each (X, G, then V/H)."""
    count = n.num_inputs - 2
    if count <= 0 or count % per:
        raise Unsupported(f"invalid model: {n.num_inputs} inputs; the op takes R, T and "
                          f"{per} tensors per updated tensor")
    k = count // per
    vals = [n.value(2 + i) for i in range(count)]
    groups = [vals[j * k:(j + 1) * k] for j in range(per)]
    for i, x in enumerate(groups[0]):
        for g in groups[1:]:
            if g[i].shape != x.shape or g[i].dtype != x.dtype:
                raise Unsupported(f"invalid model: tensors {x.type} and {g[i].type} of "
                                  "one update differ")
    return groups


def _scalar(n: Node, i: int, dt) -> Value:
    v = n.value(i)
    if v.rank not in (0, 1) or (v.rank == 1 and v.shape[0] != 1):
        raise Unsupported(f"invalid model: input {i} {v.type} must be a scalar")
    return n.b.cast(n.b.reshape(v, []) if v.rank else v, dt)


def _common(n: Node, dt):
    b = n.b
    r, t = _scalar(n, 0, dt), _scalar(n, 1, I64)
    return b, r, t, b.cast(t, dt), (lambda v: n.splat(float(v), dt))


def _regularized(n: Node, c, x: Value, g: Value) -> Value:
    """The gradient with the L2 term: ``norm_coefficient * x + g``."""
    return n.b.binary("add", n.b.binary("mul", c(n.attr("norm_coefficient")), x), g)


def _after_first_step(n: Node, t: Value) -> Value:
    """``t > 0``: the step count past the first update."""
    return n.b.compare("gt", t, n.splat(0, I64))


@register("Adagrad", domain=_TRAINING, dtypes=(F32, F64), typed=(2,),
          attrs={"decay_factor": ANY_VALUE, "epsilon": ANY_VALUE,
                 "norm_coefficient": ANY_VALUE},
          doc="(`ai.onnx.preview.training` domain) elementwise: "
              "g' = norm x + g, h' = h + g'^2, x' = x - r / (1 + t decay) g' / "
              "(sqrt(h') + epsilon); any number of tensors")
def _adagrad(n: Node):
    xs, gs, hs = _groups(n, 3)
    dt = xs[0].dtype
    b, r, _t, tf, c = _common(n, dt)
    rate = b.binary("div", r, b.binary("add", c(1), b.binary("mul", tf,
                                                              c(n.attr("decay_factor")))))
    xo, ho = [], []
    for x, g, h in zip(xs, gs, hs):
        gr = _regularized(n, c, x, g)
        h2 = b.binary("add", h, b.binary("mul", gr, gr))
        den = b.binary("add", b.unary("sqrt", h2), c(n.attr("epsilon")))
        xo.append(b.binary("sub", x, b.binary("div", b.binary("mul", rate, gr), den)))
        ho.append(h2)
    return xo + ho


@register("Adam", domain=_TRAINING, dtypes=(F32, F64), typed=(2,),
          attrs={"alpha": ANY_VALUE, "beta": ANY_VALUE, "epsilon": ANY_VALUE,
                 "norm_coefficient": ANY_VALUE, "norm_coefficient_post": ANY_VALUE},
          doc="(`ai.onnx.preview.training` domain) elementwise: g' = norm x + g, "
              "v' = alpha v + (1 - alpha) g', h' = beta h + (1 - beta) g'^2, "
              "x' = (1 - norm_post) (x - r' v' / (sqrt(h') + epsilon)) with r' = "
              "r sqrt(1 - beta^t) / (1 - alpha^t) when t > 0 (`graph.select`); "
              "any number of tensors")
def _adam(n: Node):
    xs, gs, vs, hs = _groups(n, 4)
    dt = xs[0].dtype
    b, r, t, tf, c = _common(n, dt)
    alpha, beta = float(n.attr("alpha")), float(n.attr("beta"))
    corrected = b.binary("div", b.binary("mul", r, b.unary(
        "sqrt", b.binary("sub", c(1), b.binary("pow", c(beta), tf)))),
        b.binary("sub", c(1), b.binary("pow", c(alpha), tf)))
    rate = b.select(_after_first_step(n, t), corrected, r)
    xo, vo, ho = [], [], []
    for x, g, v, h in zip(xs, gs, vs, hs):
        gr = _regularized(n, c, x, g)
        v2 = b.binary("add", b.binary("mul", c(alpha), v), b.binary("mul", c(1 - alpha), gr))
        h2 = b.binary("add", b.binary("mul", c(beta), h),
                      b.binary("mul", c(1 - beta), b.binary("mul", gr, gr)))
        den = b.binary("add", b.unary("sqrt", h2), c(n.attr("epsilon")))
        x2 = b.binary("sub", x, b.binary("mul", rate, b.binary("div", v2, den)))
        xo.append(b.binary("mul", c(1 - float(n.attr("norm_coefficient_post"))), x2))
        vo.append(v2)
        ho.append(h2)
    return xo + vo + ho


@register("Momentum", domain=_TRAINING, dtypes=(F32, F64), typed=(2,),
          attrs={"alpha": ANY_VALUE, "beta": ANY_VALUE,
                 "mode": one_of("standard", "nesterov"), "norm_coefficient": ANY_VALUE},
          doc="(`ai.onnx.preview.training` domain) elementwise: g' = norm x + g, "
              "v' = alpha v + beta' g' (beta' = beta when t > 0, else 1), x' = x - "
              "r v' (standard) or x - r (g' + alpha v') (nesterov); any number of "
              "tensors")
def _momentum(n: Node):
    xs, gs, vs = _groups(n, 3)
    dt = xs[0].dtype
    b, r, t, _tf, c = _common(n, dt)
    for name in ("alpha", "beta", "mode", "norm_coefficient"):
        if n.attr(name) is None:
            raise Unsupported(f"invalid model: attribute {name} is required")
    alpha = float(n.attr("alpha"))
    beta = b.select(_after_first_step(n, t), c(n.attr("beta")), c(1))
    xo, vo = [], []
    for x, g, v in zip(xs, gs, vs):
        gr = _regularized(n, c, x, g)
        v2 = b.binary("add", b.binary("mul", c(alpha), v), b.binary("mul", beta, gr))
        step = v2 if n.attr("mode") == "standard" else \
            b.binary("add", gr, b.binary("mul", c(alpha), v2))
        xo.append(b.binary("sub", x, b.binary("mul", r, step)))
        vo.append(v2)
    return xo + vo
