"""Single ops and small compositions of the first op set (the ops of
docs/Dialects/Graph.md: elementwise, matmul, reductions, softmax, shape ops,
compare/select, cast, constants)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

from framework import add_case, case


def randn(*shape):
    return torch.randn(*shape)


def positive(*shape):
    """Values in [0.1, 2.1): for log, sqrt, rsqrt, pow with real exponents."""
    return torch.rand(*shape) * 2 + 0.1


def unit(*shape):
    """Values in (-0.95, 0.95): for asin, acos, atanh."""
    return (torch.rand(*shape) * 2 - 1) * 0.95


# ------------------------------------------------------------------ unary

_UNARY = {
    "neg": (torch.neg, randn),
    "abs": (torch.abs, randn),
    "exp": (torch.exp, randn),
    "log": (torch.log, positive),
    "sqrt": (torch.sqrt, positive),
    "rsqrt": (torch.rsqrt, positive),
    "tanh": (torch.tanh, randn),
    "sigmoid": (torch.sigmoid, randn),
    "relu": (torch.relu, randn),
    "gelu": (F.gelu, randn),
    "gelu_tanh": (lambda x: F.gelu(x, approximate="tanh"), randn),
    "silu": (F.silu, randn),
    "square": (torch.square, randn),
    "pow_scalar": (lambda x: torch.pow(x, 3.0), randn),
    "pow_fractional": (lambda x: x ** 0.5, positive),
    "reciprocal": (torch.reciprocal, positive),
    "sin": (torch.sin, randn),
    "cos": (torch.cos, randn),
    "tan": (torch.tan, randn),
    "asin": (torch.asin, unit),
    "acos": (torch.acos, unit),
    "atan": (torch.atan, randn),
    "sinh": (torch.sinh, randn),
    "cosh": (torch.cosh, randn),
    "asinh": (torch.asinh, randn),
    "acosh": (lambda x: torch.acosh(x + 1.0), positive),
    "atanh": (torch.atanh, unit),
}


def _unary_factory(fn, make):
    def factory():
        return fn, (make(3, 4, 5),)
    return factory


for _name, (_fn, _make) in _UNARY.items():
    add_case(f"unary_{_name}", _unary_factory(_fn, _make), tags=("op",))


# ----------------------------------------------------------------- binary

_BINARY = {
    "add": torch.add,
    "sub": torch.sub,
    "mul": torch.mul,
    "div": lambda a, b: a / (b.abs() + 0.5),
    "maximum": torch.maximum,
    "minimum": torch.minimum,
    "pow": lambda a, b: torch.pow(a.abs() + 0.1, b),
}


def _binary_factory(fn, shape_a, shape_b):
    def factory():
        return fn, (randn(*shape_a), randn(*shape_b))
    return factory


for _name, _fn in _BINARY.items():
    add_case(f"binary_{_name}", _binary_factory(_fn, (4, 6), (4, 6)),
             tags=("op",))
# Broadcasting: rank extension and size-1 dims on both sides.
add_case("binary_add_broadcast",
         _binary_factory(torch.add, (2, 1, 6), (3, 1)), tags=("op",))
add_case("binary_mul_broadcast",
         _binary_factory(torch.mul, (5, 1, 4), (1, 3, 4)), tags=("op",))


@case(tags=("op",))
def binary_scalar_ops():
    """Python scalars become constants: x * 2.5 - 1, 1 / x, 3 - x."""
    return (lambda x: (x * 2.5 - 1) + 1 / (x.abs() + 1) + (3 - x)), \
        (randn(8, 8),)


@case(tags=("op",))
def binary_int64_arith():
    return (lambda a, b: a * b + a - b), \
        (torch.randint(-8, 8, (4, 5)), torch.randint(-8, 8, (4, 5)))


@case(tags=("op",))
def binary_fmod_remainder_float():
    """torch.fmod (graph.rem: C's fmod, exact) and torch.remainder
    (Python's sign rule) of floats of both signs; divisors kept away from
    0, and a scalar divisor (x % 1.5)."""
    def f(x, y):
        return torch.fmod(x, y), torch.remainder(x, y), x % 1.5
    y = torch.randn(4, 6)
    y = torch.where(y.abs() < 0.25, y.sign() * 0.25 + y, y)
    return f, (randn(4, 6) * 5, y)


@case(tags=("op",))
def binary_fmod_remainder_int():
    def f(a, b):
        return torch.fmod(a, b), torch.remainder(a, b), a % 3
    b = torch.randint(1, 6, (4, 5)) * (torch.randint(0, 2, (4, 5)) * 2 - 1)
    return f, (torch.randint(-20, 20, (4, 5)), b)


# ----------------------------------------------------------------- matmul

@case(tags=("op",))
def matmul_2d():
    return torch.matmul, (randn(16, 32), randn(32, 8))


@case(tags=("op",))
def matmul_batched():
    return torch.bmm, (randn(3, 16, 32), randn(3, 32, 8))


@case(tags=("op",))
def matmul_broadcast_4d_2d():
    return torch.matmul, (randn(2, 3, 5, 16), randn(16, 7))


@case(tags=("op",))
def matmul_vector():
    """matrix @ vector and vector @ matrix (rank-1 operands)."""
    return (lambda m, v: (m @ v, v @ m.t())), (randn(6, 9), randn(9))


@case(tags=("op",))
def linear_bias():
    return nn.Linear(32, 16), (randn(4, 32),)


@case(tags=("op",))
def linear_no_bias_3d():
    return nn.Linear(32, 16, bias=False), (randn(2, 5, 32),)


@case(tags=("op",))
def addmm():
    return (lambda b, x, w: torch.addmm(b, x, w)), \
        (randn(8), randn(4, 16), randn(16, 8))


@case(tags=("model",))
def mlp_gelu():
    return nn.Sequential(nn.Linear(64, 128), nn.GELU(), nn.Linear(128, 128),
                         nn.GELU(), nn.Linear(128, 10)), (randn(8, 64),)


# -------------------------------------------------------------- reductions

_REDUCE = {
    "sum_dim": lambda x: x.sum(dim=1),
    "sum_all": lambda x: x.sum(),
    "sum_keepdim": lambda x: x.sum(dim=(0, 2), keepdim=True),
    "mean_dim": lambda x: x.mean(dim=-1),
    "amax": lambda x: torch.amax(x, dim=1),
    "amin": lambda x: torch.amin(x, dim=(1, 2)),
    "max_values": lambda x: torch.max(x, dim=2).values,
    "prod": lambda x: torch.prod(x, dim=1),
    "var": lambda x: torch.var(x, dim=-1, unbiased=False),
}
for _name, _fn in _REDUCE.items():
    add_case(f"reduce_{_name}", _unary_factory(_fn, randn), tags=("op",))


# ----------------------------------------------------------------- softmax

@case(tags=("op",))
def softmax_last():
    return nn.Softmax(dim=-1), (randn(4, 7, 33),)


@case(tags=("op",))
def softmax_dim1():
    return (lambda x: F.softmax(x, dim=1)), (randn(4, 7, 33),)


@case(tags=("op",))
def log_softmax():
    return (lambda x: F.log_softmax(x, dim=-1)), (randn(4, 50),)


@case(tags=("op",))
def softmax_large_values():
    """Numerically stable softmax: inputs up to +-100."""
    return (lambda x: torch.softmax(x * 50, dim=-1)), (randn(3, 16),)


# -------------------------------------------------------------- shape ops

@case(tags=("op",))
def reshape_view_flatten():
    return (lambda x: (x.reshape(6, 20), x.view(2, -1), torch.flatten(x, 1))), \
        (randn(2, 3, 4, 5),)


@case(tags=("op",))
def squeeze_unsqueeze():
    return (lambda x: x.unsqueeze(0).unsqueeze(-1).squeeze(2)), (randn(3, 1, 4),)


@case(tags=("op",))
def permute_transpose():
    return (lambda x: (x.permute(2, 0, 1), x.transpose(1, 2), x[0].t())), \
        (randn(2, 3, 4),)


@case(tags=("op",))
def concat():
    return (lambda a, b: torch.cat([a, b, a], dim=1)), (randn(2, 3, 4),
                                                         randn(2, 5, 4))


@case(tags=("op",))
def stack():
    return (lambda a, b: torch.stack([a, b], dim=1)), (randn(3, 4), randn(3, 4))


@case(tags=("op",))
def slice_basic():
    return (lambda x: (x[:, 1:3], x[..., ::2], x[1:, :, -2:])), (randn(4, 5, 6),)


@case(tags=("op",))
def narrow_select_index():
    """narrow and integer indexing (x[:, 2])."""
    return (lambda x: (torch.narrow(x, 0, 1, 2), x[:, 2])), (randn(4, 5),)


@case(tags=("op",))
def expand():
    return (lambda x: x.expand(3, 4, 5)), (randn(4, 1),)


# --------------------------------------------------------- compare/select

@case(tags=("op",))
def where_compare():
    return (lambda x, y: torch.where(x > y, x, y * 2)), (randn(5, 6),
                                                        randn(5, 6))


@case(tags=("op",))
def compare_ops_bool_outputs():
    """Comparisons return bool tensors (i1 results)."""
    return (lambda x, y: (x < y, x >= 0, x == x, x != y)), (randn(3, 4),
                                                            randn(3, 4))


@case(tags=("op",))
def masked_fill():
    return (lambda x, m: x.masked_fill(m, -1e9)), \
        (randn(4, 8), torch.rand(4, 8) > 0.5)


@case(tags=("op",))
def logical_ops():
    return (lambda a, b: (a & b, a | ~b, torch.logical_xor(a, b))), \
        (torch.rand(4, 4) > 0.5, torch.rand(4, 4) > 0.5)


# ------------------------------------------------------------------- cast

@case(tags=("op",))
def cast_float_int():
    return (lambda x: ((x * 10).to(torch.int32), (x * 10).long().float())), \
        (randn(4, 5),)


@case(tags=("op",))
def cast_bool_float():
    return (lambda x: (x > 0).float() + (x > 0.5).to(torch.float32)), \
        (randn(4, 5),)


@case(tags=("op", "f16"))
def cast_f16():
    """f16 inputs and results (default f16 tolerance: rtol 1e-2, atol 1e-3)."""
    return (lambda x, y: (x.half() * y).float() + 1), \
        (randn(4, 8), randn(4, 8).half())


@case(tags=("op", "f16"))
def f16_linear():
    model = nn.Linear(16, 8).half()
    return model, (randn(4, 16).half(),)


# -------------------------------------------------------------- constants

class WithBuffer(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("scale", torch.linspace(0.5, 2.0, 6))
        self.offset = nn.Parameter(torch.randn(6))

    def forward(self, x):
        return x * self.scale + self.offset + torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])


@case(tags=("op",))
def constants_buffers():
    return WithBuffer(), (randn(3, 6),)


@case(tags=("op",))
def arange_ones_zeros():
    """Tensors created inside the model (arange, ones, zeros_like)."""
    return (lambda x: x + torch.arange(5, dtype=torch.float32) + torch.ones(5)
            * 2 - torch.zeros_like(x)), (randn(3, 5),)


# ------------------------------------------------------- compositions

@case(tags=("composite",))
def layer_norm_manual():
    """Layer norm written out: mean, var, rsqrt (the first op set only)."""
    def ln(x, w, b):
        mu = x.mean(-1, keepdim=True)
        var = ((x - mu) ** 2).mean(-1, keepdim=True)
        return (x - mu) * torch.rsqrt(var + 1e-5) * w + b
    return ln, (randn(4, 10, 64), randn(64), randn(64))


@case(tags=("composite",))
def attention_manual():
    """softmax(q k^T / sqrt(d)) v with the first op set."""
    def attn(q, k, v):
        s = q @ k.transpose(-2, -1) / 8.0
        return torch.softmax(s, dim=-1) @ v
    return attn, (randn(2, 4, 16, 64), randn(2, 4, 16, 64), randn(2, 4, 16, 64))


@case(tags=("composite",))
def multi_output_tuple():
    """A tuple result: the compiled module returns a tuple."""
    class Two(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(8, 4)

        def forward(self, x):
            y = self.fc(x)
            return y.relu(), y.sigmoid()
    return Two(), (randn(3, 8),)


@case(tags=("composite",))
def list_output():
    """A list result stays a list."""
    return (lambda x: [x + 1, x * 2]), (randn(3, 3),)


@case(tags=("composite",))
def swiglu_ffn():
    class FFN(nn.Module):
        def __init__(self):
            super().__init__()
            self.w1 = nn.Linear(64, 128, bias=False)
            self.w3 = nn.Linear(64, 128, bias=False)
            self.w2 = nn.Linear(128, 64, bias=False)

        def forward(self, x):
            return self.w2(F.silu(self.w1(x)) * self.w3(x))
    return FFN(), (randn(2, 16, 64),)


@case(tags=("composite",))
def rms_norm_manual():
    def rms(x, w):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w
    return rms, (randn(2, 8, 32), randn(32))


@case(tags=("composite",))
def residual_unused_branch():
    """Dead code (an unused branch) and a reused subexpression."""
    def fn(x):
        unused = torch.exp(x) * 3  # noqa: F841 (dead)
        y = x * 2
        return y + y.tanh() + x * 2
    return fn, (randn(4, 4),)


@case(tags=("op",))
def zero_size_dim():
    """A tensor with a 0-sized dim."""
    return (lambda x: x * 2 + 1), (randn(0, 4),)


@case(tags=("op",))
def scalar_input_output():
    """Rank-0 input and result."""
    return (lambda x, y: (x * y).sum() + x), (randn(()), randn(5))


# ------------------------------------------------------------- f64, i8, i16

@case(tags=("op", "dtypes"), rtol=1e-10, atol=1e-12,
      reason="tighter than the float64 default: the model is computed in f64")
def float64_mlp():
    """A float64 MLP (Linear, GELU, LayerNorm, softmax) computed in f64:
    compared at f64 precision (libm's functions, another summation order)."""
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.LayerNorm(32), nn.Linear(32, 8),
                      nn.Softmax(dim=-1)).double().eval()
    return m, (torch.randn(4, 16, dtype=torch.float64),)


@case(tags=("op", "dtypes"))
def int8_int16_arith():
    """int8 and int16 arithmetic wraps at the width as in PyTorch; casts,
    comparisons, max/min and a widening sum."""
    def f(a, b, c):
        s = a + b
        p = a * b
        w = a.to(torch.int16) * 300 + c
        m = torch.maximum(a, b) - torch.minimum(a, b)
        return s, p, w, m, (a > b), a.to(torch.int32).sum(dim=1), a.to(torch.float32) * 0.5
    g = torch.Generator().manual_seed(0)
    return f, (torch.randint(-128, 128, (3, 5), dtype=torch.int8, generator=g),
               torch.randint(-128, 128, (3, 5), dtype=torch.int8, generator=g),
               torch.randint(-30000, 30000, (3, 5), dtype=torch.int16, generator=g))


@case(tags=("op", "dtypes"))
def uint8_image_ops():
    """uint8 images: wrapping add, unsigned comparisons and max/min (values
    above 127), max pooling, a widening sum and a conversion to float."""
    def f(img, other):
        s = img + other
        brighter = torch.where(img > other, img, other)
        pooled = F.max_pool2d(img.float(), 2).to(torch.uint8)
        return s, brighter, torch.minimum(img, other), pooled, img.to(torch.int32).sum(dim=(2, 3)), \
            img.float() / 255.0
    g = torch.Generator().manual_seed(0)
    return f, (torch.randint(0, 256, (2, 3, 6, 6), dtype=torch.uint8, generator=g),
               torch.randint(0, 256, (2, 3, 6, 6), dtype=torch.uint8, generator=g))


@case(tags=("op", "dtypes"))
def float_to_8bit_results():
    """float32 tensors in, uint8 and int8 results out (a hand-written
    quantization): the direct call path for CPU tensors, which maps result
    dtypes to torch's, leaves these to the general one (it raised KeyError)."""
    def f(x):
        q = torch.round(x * 20.0) + 100.0
        return q.clamp(0, 255).to(torch.uint8), (q - 128.0).clamp(-128, 127).to(torch.int8)
    return f, (torch.randn(4, 8, generator=torch.Generator().manual_seed(0)) * 3,)


@case(tags=("op", "dtypes"))
def argmin_integer_extremes():
    """argmin / min(dim) of uint8 with 0 present and of int32 with INT_MIN
    present (the importer reverses the order with ~x: -x would map 0 and
    INT_MIN to themselves)."""
    def f(u, i):
        return torch.argmin(u, dim=1), torch.min(u, dim=1).indices, torch.argmin(i, dim=1)
    u = torch.tensor([[3, 0, 5, 200], [255, 7, 7, 1]], dtype=torch.uint8)
    i = torch.tensor([[5, -2147483648, 0, 7], [1, -1, 2147483647, -5]], dtype=torch.int32)
    return f, (u, i)
