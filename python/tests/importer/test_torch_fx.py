"""import_torch (torch.export and torch.fx paths): each model is imported,
run with build/bin/graph-run and compared with eager PyTorch (rtol 1e-4,
atol 1e-5).

    python3 -m pytest python/tests/importer      # or run this file directly
"""

import _util
from _util import check_numerics, run_mlir, verify
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from graphopt.importer import UnsupportedOpsError, import_torch, parameter_order
from seed_models import SimpleModel  # test/lib

torch.manual_seed(0)


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.c = nn.Conv2d(3, 8, 3, stride=2, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.dw = nn.Conv2d(8, 8, 3, groups=8, padding="same")
        self.c2 = nn.Conv2d(8, 4, 2, padding="valid", dilation=2)
        self.mp = nn.MaxPool2d(2, ceil_mode=True)
        self.ap = nn.AvgPool2d(3, 1, 1)
        self.aap = nn.AdaptiveAvgPool2d(1)
        self.aap2 = nn.AdaptiveAvgPool2d((2, 3))

    def forward(self, x):
        y = F.relu6(self.bn(self.c(x)))
        y = F.hardswish(self.dw(y)) + F.hardsigmoid(y)
        z = F.leaky_relu(self.c2(y), 0.2)
        return self.mp(z), self.ap(y), self.aap(y).flatten(1), self.aap2(y)


def _eval_with_stats(m):
    m.eval()
    for mod in m.modules():
        if isinstance(mod, (nn.BatchNorm1d, nn.BatchNorm2d)):
            mod.running_mean.normal_()
            mod.running_var.uniform_(0.5, 2.0)
    return m


def test_seed_simple_model():
    m = SimpleModel().eval()
    x = torch.randn(4, 10)
    text = import_torch(m, (x,))
    assert "func.func @main(%x: tensor<4x10xf32>) -> tensor<4x2xf32>" in text
    assert "graph.matmul" in text and "graph.relu" in text
    assert 'loc("linear1.weight")' in text and "seed_models.py" in text
    check_numerics(text, m, (x,))


def test_seed_matmul_add():
    def my_function(x, y):
        a = torch.matmul(x, y)
        return torch.add(a, x)
    x, y = torch.randn(128, 128), torch.randn(128, 128)
    check_numerics(import_torch(my_function, (x, y)), my_function, (x, y))


def test_params_as_args_order():
    m = SimpleModel().eval()
    x = torch.randn(3, 10)
    text = import_torch(m, (x,), params_as_args=True)
    assert "%p_linear1_weight: tensor<20x10xf32> loc(\"linear1.weight\")" in text
    check_numerics(text, m, (x,), run_args=[x] + parameter_order(m))


def test_dynamic_batch():
    m = SimpleModel().eval()
    text = import_torch(m, (torch.randn(2, 10),), dynamic_dims={0: [0]})
    assert "tensor<?x10xf32>" in text and "-> tensor<?x2xf32>" in text
    for n in (1, 5):
        x = torch.randn(n, 10)
        check_numerics(text, m, (x,))


def test_elementwise_and_shapes():
    def f(x, y, m):
        a = torch.matmul(x, y) + x
        b = a.softmax(-1) + F.log_softmax(a, dim=0)
        c = torch.where(a > 0, a, 0.5 * a) - torch.sigmoid(x) * torch.tanh(y)
        d = x.masked_fill(m, -3.0)
        e = torch.cat([x[:, 1:3], x[:, :2]], 1).t()
        g = torch.arange(8, dtype=torch.float32) * 2 + torch.triu(torch.ones(8, 8))[2]
        h = F.gelu(x) + F.gelu(x, approximate="tanh") + F.silu(x) - x.abs().sqrt()
        i = x.view(2, 32).reshape(64).unsqueeze(0).squeeze(0).view(4, 4, 4).permute(2, 0, 1)
        j = (x > y) & (x < 0.5)
        k = x.int() + 3
        l = x.rsqrt().neg() - (2 - x) / 3 + x ** 2
        return a, b, c, d, e, g, h, i, j, k, l, x.to(torch.float16), torch.stack([x, y], 1)
    x, y, m = torch.rand(8, 8) + 0.1, torch.randn(8, 8), torch.rand(8, 8) > 0.5
    check_numerics(import_torch(f, (x, y, m)), f, (x, y, m))


def test_reductions_and_indexing():
    def f(x, ids):
        a, b = x.split([3, 5], dim=1)
        mx = x.max(dim=1)
        mn = x.min(dim=0, keepdim=True)
        return (a, b, x.chunk(3, 1)[2], x.unbind(0)[1], mx.values, mx.indices, mn.values,
                mn.indices, x.amin(1), x.argmin(), x.argmax(-1), x.cumsum(1), x.var(1),
                x.std(), x.logsumexp(1), x.sum(), x.mean((0, 1)), x.prod(0),
                torch.clamp(x, -0.5, 0.5), F.hardtanh(x), x[0], x[:, 2], x.narrow(1, 2, 3),
                x.repeat(2, 1), x.expand(3, 2, 8), torch.tril(x), torch.full_like(x, 2.0),
                torch.index_select(x, 1, ids), F.pad(x, (1, 2)), torch.erf(x))
    x, ids = torch.randn(2, 8), torch.tensor([0, 2, 7])
    check_numerics(import_torch(f, (x, ids)), f, (x, ids))


def test_conv_pool_batchnorm():
    m = _eval_with_stats(ConvNet())
    x = torch.randn(2, 3, 16, 16)
    text = import_torch(m, (x,))
    assert "graph.conv2d" in text and "graph.batch_norm" in text
    check_numerics(text, m, (x,))


def test_norms_embedding_attention():
    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.ln = nn.LayerNorm(8)
            self.emb = nn.Embedding(10, 8)
            self.gn = nn.GroupNorm(2, 4)

        def forward(self, ids, x, q, img):
            h = self.ln(self.emb(ids) + x)
            return (h, self.gn(img),
                    F.scaled_dot_product_attention(q, q, q, is_causal=True),
                    F.scaled_dot_product_attention(q, q, q, scale=0.3))
    args = (torch.tensor([[1, 2, 3, 4], [5, 6, 7, 9]]), torch.randn(2, 4, 8),
            torch.randn(1, 2, 4, 8), torch.randn(2, 4, 3, 3))
    m = M().eval()
    check_numerics(import_torch(m, args), m, args)


def test_multihead_attention_and_transformer():
    for m, args in [
            (nn.MultiheadAttention(8, 2, batch_first=True), (torch.randn(2, 5, 8),) * 3),
            (nn.TransformerEncoderLayer(8, 2, 16, batch_first=True), (torch.randn(2, 5, 8),)),
            (nn.TransformerEncoderLayer(8, 2, 16, activation="gelu", norm_first=True),
             (torch.randn(5, 2, 8),))]:
        m.eval()
        check_numerics(import_torch(m, args), m, args)


def test_lstm_gru():
    for m, x in [(nn.LSTM(4, 6, num_layers=2, batch_first=True), torch.randn(2, 5, 4)),
                 (nn.LSTM(4, 6), torch.randn(5, 2, 4)),
                 (nn.GRU(4, 6, num_layers=2), torch.randn(5, 2, 4)),
                 (nn.GRU(4, 6, batch_first=True, bias=False), torch.randn(3, 5, 4))]:
        m.eval()
        text = import_torch(m, (x,))
        assert "graph.loop" in text and "graph.dynamic_update_slice" in text
        check_numerics(text, m, (x,))


def test_inplace_ops_are_functionalized():
    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.l = nn.Linear(4, 4)

        def forward(self, x):
            y = self.l(x)
            y.relu_()
            y += 1
            return y
    m, x = M().eval(), torch.randn(2, 4)
    check_numerics(import_torch(m, (x,)), m, (x,))


def test_inplace_ops_without_a_second_trace():
    """In-place ops on fresh intermediates become functional ops in the FX
    graph itself (no run_decompositions); reads before the op keep the old
    value. Ops the rewrite cannot prove safe (the tensor has a view, the
    operands' dtypes differ) are left for run_decompositions({})."""
    from graphopt.importer.pytorch.fx import _functionalize_in_place

    class Residual(nn.Module):
        def __init__(self):
            super().__init__()
            self.l = nn.Linear(4, 4)
            self.bn = nn.BatchNorm1d(4)

        def forward(self, x):
            out = self.bn(self.l(x))
            before = out * 2          # reads the value before the update
            out += x
            out.relu_()
            return out, before

    class ViewOfUpdated(nn.Module):
        def __init__(self):
            super().__init__()
            self.l = nn.Linear(4, 4)

        def forward(self, x):
            y = self.l(x)
            row = y[0]                # a view: sees the update below
            y.relu_()
            return row * 2

    class OtherDtype(nn.Module):
        def __init__(self):
            super().__init__()
            self.l = nn.Linear(4, 4)

        def forward(self, x, n):
            y = self.l(x)
            y.add_(n)                 # int64 operand: not rewritten
            return y

    x = torch.randn(3, 4)
    n = torch.arange(4)
    for m, args, fast in [(_eval_with_stats(Residual()), (x,), True),
                          (ViewOfUpdated().eval(), (x,), False),
                          (OtherDtype().eval(), (x, n), False)]:
        ep = torch.export.export(m, args)
        assert _functionalize_in_place(ep.graph) is fast, type(m).__name__
        check_numerics(import_torch(m, args), m, args)


def test_torch_cond():
    class M(nn.Module):
        def forward(self, x):
            return torch.cond(x.sum() > 0, lambda x: x.exp() * 2, lambda x: x.abs() - 1, (x,))
    m, x = M(), torch.randn(4, 4).abs()
    text = import_torch(m, (x,))
    assert "graph.if" in text
    check_numerics(text, m, (x,))
    check_numerics(text, m, (-x,))


def test_unsupported_ops_are_all_listed():
    class Bad(nn.Module):
        def forward(self, x, img):
            return (torch.nonzero(x), torch.special.ndtri(x),
                    F.avg_pool2d(img, 2, divisor_override=3), torch.polygamma(1, x))
    try:
        import_torch(Bad().eval(), (torch.randn(5, 2, 4), torch.randn(1, 3, 8, 8)))
    except UnsupportedOpsError as e:
        lines = str(e).splitlines()[1:]
        assert len(lines) == 4, str(e)
        assert "test_torch_fx.py:" in lines[0]
        assert "aten.nonzero.default (node nonzero): unsupported operator" in lines[0]
        assert "aten.special_ndtri.default (node special_ndtri): unsupported operator" in lines[1]
        assert "avg_pool2d divisor_override is not supported" in lines[2]
        assert "aten.polygamma.default (node polygamma): polygamma of order 1" in lines[3]
        assert len(e.errors) == 4
        return
    raise AssertionError("no UnsupportedOpsError")


def test_training_mode_is_reported():
    m = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5))
    try:
        import_torch(m.train(), (torch.randn(2, 4),))
    except UnsupportedOpsError as e:
        assert "model.eval()" in str(e)
        return
    raise AssertionError("no UnsupportedOpsError")


def test_fx_symbolic_trace_path():
    m = _eval_with_stats(ConvNet())
    x = torch.randn(2, 3, 16, 16)
    check_numerics(import_torch(m, (x,), method="fx"), m, (x,))

    class R(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(10, 8)
            self.lstm = nn.LSTM(8, 6, batch_first=True)

        def forward(self, ids):
            o, (h, c) = self.lstm(self.emb(ids))
            return o.reshape(o.size(0), -1).softmax(-1), h[0], c[..., 1:]
    m, ids = R().eval(), torch.tensor([[1, 2, 3], [4, 5, 6]])
    text = import_torch(m, (ids,), method="fx")
    check_numerics(text, m, (ids,))
    text = import_torch(m, (ids,), method="fx", params_as_args=True)
    check_numerics(text, m, (ids,), run_args=[ids] + parameter_order(m))


def test_half_precision():
    m = SimpleModel().eval().to(torch.float16)
    x = torch.randn(4, 10, dtype=torch.float16)
    text = import_torch(m, (x,))
    assert "tensor<4x10xf16>" in text
    verify(text)
    got = run_mlir(text, [x])[0]
    want = m(x).float().detach().numpy()
    assert abs(got.astype("float32") - want).max() < 1e-2


class GridSamples(nn.Module):
    """F.grid_sample in every mode, padding and align_corners (4-D), or
    the 5-D modes (bilinear and nearest)."""

    def __init__(self, modes):
        super().__init__()
        self.configs = [(m, p, a) for m in modes for p in ("zeros", "border", "reflection")
                        for a in (False, True)]

    def forward(self, x, g):
        return tuple(F.grid_sample(x, g, mode=m, padding_mode=p, align_corners=a)
                     for m, p, a in self.configs)


def test_grid_sample():
    # Positions to 1.6 past the borders, so that every padding rule and the
    # reflections beyond one range are exercised.
    x = torch.randn(2, 3, 5, 7)
    g = torch.rand(2, 4, 6, 2) * 3.2 - 1.6
    m = GridSamples(["bilinear", "nearest", "bicubic"])
    text = import_torch(m, (x, g))
    assert "graph.gather_elements" in text
    check_numerics(text, m, (x, g))
    x3 = torch.randn(1, 2, 3, 4, 5)
    g3 = torch.rand(1, 2, 3, 4, 3) * 3.2 - 1.6
    m3 = GridSamples(["bilinear", "nearest"])
    check_numerics(import_torch(m3, (x3, g3)), m3, (x3, g3))


def test_rounding():
    def rounding(x):
        return (torch.floor(x), torch.ceil(x), torch.trunc(x), torch.frac(x),
                torch.round(x), torch.round(x, decimals=2), torch.round(x, decimals=-1),
                torch.floor(x.to(torch.int32)))
    # Ties at every parity, negative values, and magnitudes past 2^23 (integers
    # already) next to random values.
    x = torch.cat([torch.tensor([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, -0.0, 3e8, -1e9,
                                 0.125, -0.375, 7.999]),
                   torch.randn(20) * 100])
    _check_exact(import_torch(rounding, (x,)), rounding, (x,))


def _check_exact(text, fn, args):
    """graph-run's results equal eager PyTorch's bit for bit in value: NaN
    where it has NaN, and zeros signed as its zeros."""
    with torch.no_grad():
        want = [w.numpy() for w in fn(*args)]
    got = run_mlir(text, list(args))
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == w.dtype and np.array_equal(g, w, equal_nan=True), \
            f"result {i}: {g} != {w}"
        assert np.array_equal(np.signbit(g), np.signbit(w)), f"result {i}: signs of zeros"


def test_float_floor_and_trunc_division():
    def divisions(x, y):
        return (torch.div(x, y, rounding_mode="floor"), torch.div(x, y, rounding_mode="trunc"),
                x // y, torch.floor_divide(x, 0.75), x // 2)
    # Exact multiples, remainders of either sign, zero quotients of either
    # sign, and division by zero (inf, -inf, NaN compared as NaN).
    x = torch.tensor([7.0, -7.0, 7.0, -7.0, 6.0, -6.0, 0.5, -0.5, 0.0, 3.0, -3.0, 0.0]
                     + (torch.randn(20) * 10).tolist())
    y = torch.tensor([2.0, 2.0, -2.0, -2.0, 3.0, 3.0, 4.0, 4.0, 5.0, 0.0, 0.0, 0.0]
                     + (torch.randn(20) * 3).tolist())
    _check_exact(import_torch(divisions, (x, y)), divisions, (x, y))


if __name__ == "__main__":
    _util.run_tests(globals())
