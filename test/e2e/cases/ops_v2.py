"""The second op set (docs/design/graph-ops-v2.md): conv2d, pooling, batch and
layer norm, erf/hardswish/hardsigmoid/leaky_relu/clamp, gather (embedding,
index_select), scatter, pad, split, argmax, cumsum, scaled_dot_product_attention."""

import torch
import torch.nn as nn
import torch.nn.functional as F

from framework import add_case, case


def randn(*shape):
    return torch.randn(*shape)


# ------------------------------------------------------------------ conv2d

@case(tags=("op", "v2"))
def conv2d_basic():
    return nn.Conv2d(3, 8, 3), (randn(2, 3, 16, 16),)


@case(tags=("op", "v2"))
def conv2d_stride_pad_dilation():
    return nn.Conv2d(4, 8, 3, stride=2, padding=2, dilation=2), \
        (randn(1, 4, 17, 17),)


@case(tags=("op", "v2"))
def conv2d_asymmetric_no_bias():
    """Non-square kernel, per-dim stride and padding, no bias."""
    return nn.Conv2d(4, 6, (3, 5), stride=(1, 2), padding=(1, 2), bias=False), \
        (randn(1, 4, 12, 15),)


@case(tags=("op", "v2"))
def conv2d_grouped():
    return nn.Conv2d(8, 16, 3, padding=1, groups=4), (randn(1, 8, 10, 10),)


@case(tags=("op", "v2"))
def conv2d_depthwise():
    return nn.Conv2d(32, 32, 3, padding=1, groups=32), (randn(1, 32, 8, 8),)


@case(tags=("op", "v2"))
def conv2d_pointwise():
    return nn.Conv2d(32, 64, 1), (randn(1, 32, 8, 8),)


@case(tags=("op", "v2"))
def conv2d_functional_padding_same():
    return (lambda x, w: F.conv2d(x, w, padding="same")), \
        (randn(1, 3, 9, 9), randn(5, 3, 3, 3))


# ----------------------------------------------------------------- pooling

@case(tags=("op", "v2"))
def max_pool2d_resnet_stem():
    return nn.MaxPool2d(3, stride=2, padding=1), (randn(1, 8, 32, 32),)


@case(tags=("op", "v2"))
def max_pool2d_ceil_mode():
    return nn.MaxPool2d(2, stride=2, ceil_mode=True), (randn(1, 3, 7, 7),)


@case(tags=("op", "v2"))
def avg_pool2d():
    return nn.AvgPool2d(2), (randn(1, 8, 8, 8),)


@case(tags=("op", "v2"))
def avg_pool2d_pad_exclude():
    """count_include_pad=False: padded cells are not counted."""
    return nn.AvgPool2d(3, stride=2, padding=1, count_include_pad=False), \
        (randn(1, 4, 9, 9),)


@case(tags=("op", "v2"))
def avg_pool2d_pad_include():
    return nn.AvgPool2d(3, stride=2, padding=1), (randn(1, 4, 9, 9),)


@case(tags=("op", "v2"))
def adaptive_avg_pool2d():
    """Global pooling (output 1x1; the importer may emit a mean)."""
    return nn.AdaptiveAvgPool2d((1, 1)), (randn(2, 16, 7, 7),)


@case(tags=("op", "v2"))
def adaptive_avg_pool2d_2x3():
    """Output 2x3 of 8x9: divisible rows, overlapping column windows."""
    return nn.AdaptiveAvgPool2d((2, 3)), (randn(2, 16, 8, 9),)


@case(tags=("op", "v2"))
def adaptive_avg_pool2d_uneven():
    """Output 3x4 of 7x10: windows of different sizes."""
    return nn.AdaptiveAvgPool2d((3, 4)), (randn(1, 4, 7, 10),)


# ------------------------------------------------------------------- norms

def _eval_bn(bn):
    """A BatchNorm with non-trivial running statistics, in eval mode."""
    with torch.no_grad():
        bn.running_mean.copy_(torch.randn(bn.num_features) * 0.5)
        bn.running_var.copy_(torch.rand(bn.num_features) + 0.5)
        bn.weight.copy_(torch.randn(bn.num_features))
        bn.bias.copy_(torch.randn(bn.num_features))
    return bn.eval()


@case(tags=("op", "v2"))
def batch_norm2d():
    return _eval_bn(nn.BatchNorm2d(16)), (randn(2, 16, 5, 5),)


@case(tags=("op", "v2"))
def batch_norm1d():
    return _eval_bn(nn.BatchNorm1d(12)), (randn(4, 12, 7),)


@case(tags=("op", "v2"))
def layer_norm():
    return nn.LayerNorm(64), (randn(2, 10, 64),)


@case(tags=("op", "v2"))
def layer_norm_2d_no_affine():
    """Normalized shape of two dims, elementwise_affine=False (the importer
    passes ones/zeros)."""
    return nn.LayerNorm((8, 16), elementwise_affine=False), (randn(3, 8, 16),)


@case(tags=("composite", "v2"))
def conv_bn_relu():
    model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1, bias=False),
                          _eval_bn(nn.BatchNorm2d(16)), nn.ReLU())
    return model.eval(), (randn(1, 3, 16, 16),)


# -------------------------------------------------------- unary activations

_V2_UNARY = {
    "erf": torch.erf,
    "hardswish": F.hardswish,
    "hardsigmoid": F.hardsigmoid,
    "leaky_relu": F.leaky_relu,
    "leaky_relu_0_2": lambda x: F.leaky_relu(x, 0.2),
    "clamp": lambda x: torch.clamp(x, -0.5, 0.75),
    "clamp_min": lambda x: torch.clamp(x, min=0.1),
    "relu6": F.relu6,
    "hardtanh": F.hardtanh,
    "elu": F.elu,
}


def _v2_unary_factory(fn):
    def factory():
        return fn, (randn(3, 4, 5) * 3,)
    return factory


for _name, _fn in _V2_UNARY.items():
    add_case(f"unary_{_name}", _v2_unary_factory(_fn), tags=("op", "v2"))


@case(tags=("op", "v2"))
def clamp_int():
    return (lambda x: torch.clamp(x, 0, 5)), (torch.randint(-8, 8, (4, 6)),)


# ------------------------------------------------------------------ gather

@case(tags=("op", "v2"))
def embedding():
    return nn.Embedding(100, 32), (torch.randint(0, 100, (2, 16)),)


@case(tags=("op", "v2"))
def index_select():
    return (lambda x, i: torch.index_select(x, 1, i)), \
        (randn(4, 10, 3), torch.tensor([0, 7, 7, 2]))


@case(tags=("op", "v2"))
def index_tensor_int32():
    """Indexing with an i32 index tensor along the first dim."""
    return (lambda x, i: x[i]), (randn(10, 6), torch.tensor([3, 1, 9],
                                                          dtype=torch.int32))


# ------------------------------------------------------------------ scatter

@case(tags=("op", "v2", "scatter"))
def gather_dim1():
    """torch.gather along dim 1, the index narrower than the input in dim 0."""
    return (lambda x, i: torch.gather(x, 1, i)), \
        (randn(4, 6), torch.tensor([[0, 5, 5], [2, 1, 0], [3, 3, 4]]))


@case(tags=("op", "v2", "scatter"))
def take_along_dim_topk():
    """The values at topk's indices (take_along_dim), and a constant index
    row broadcast over the batch."""
    cols = torch.tensor([[7, 0, 0, 3]])

    def f(x):
        _, i = torch.topk(x, 3, dim=1)
        return torch.take_along_dim(x, i, dim=1), torch.take_along_dim(x, cols, dim=1)
    return f, (randn(5, 8),)


@case(tags=("op", "v2", "scatter"))
def scatter_src():
    """torch.scatter along dim 1, the source larger than the index (torch
    reads its leading part); unique indices per row (duplicates with no
    reduction are unspecified in torch)."""
    idx = torch.tensor([[0, 4], [1, 3], [2, 0]])
    return (lambda x, s: torch.scatter(x, 1, idx, s)), (randn(3, 5), randn(3, 4))


@case(tags=("op", "v2", "scatter"))
def scatter_value_one_hot():
    """One-hot labels: zeros.scatter_(1, labels, 1.0) on run-time labels."""
    def f(labels):
        return torch.zeros(labels.shape[0], 10).scatter_(1, labels.unsqueeze(1), 1.0)
    return f, (torch.tensor([3, 0, 9, 3, 7]),)


@case(tags=("op", "v2", "scatter"))
def scatter_add_duplicates():
    return (lambda x, s, i: torch.scatter_add(x, 0, i, s)), \
        (randn(4, 3), randn(3, 3), torch.tensor([[1, 0, 3], [1, 1, 2], [0, 3, 3]]))


@case(tags=("op", "v2", "scatter"))
def scatter_reduce_amax_amin_prod():
    i = torch.tensor([[0, 2, 2, 1], [3, 3, 0, 0]])
    return (lambda x, s: (x.scatter_reduce(1, i, s, "amax"),
                          x.scatter_reduce(1, i, s, "amin"),
                          x.scatter_reduce(1, i, s, "prod"),
                          x.scatter_reduce(1, i, s, "sum"))), \
        (randn(2, 5), randn(2, 4))


@case(tags=("op", "v2", "scatter"))
def scatter_int64():
    i = torch.tensor([[2, 0], [1, 1]])
    return (lambda x, s: torch.scatter_add(x, 1, i, s)), \
        (torch.randint(-50, 50, (2, 3)), torch.randint(-50, 50, (2, 2)))


# ------------------------------------------------------- pad/split/argmax

@case(tags=("op", "v2"))
def pad_constant():
    return (lambda x: (F.pad(x, (1, 2)), F.pad(x, (0, 1, 2, 0), value=-3.0))), \
        (randn(2, 3, 4),)


@case(tags=("op", "v2"))
def split_chunk():
    return (lambda x: (*torch.split(x, [2, 4], dim=1), *x.chunk(3, dim=0))), \
        (randn(3, 6),)


@case(tags=("op", "v2"))
def argmax():
    return (lambda x: (torch.argmax(x, dim=1), torch.argmax(x, dim=0,
                                                           keepdim=True))), \
        (randn(4, 10),)


@case(tags=("op", "v2"))
def argmax_ties():
    """Ties resolve to the first index."""
    return (lambda x: torch.argmax(x, dim=-1)), \
        (torch.tensor([[1.0, 3.0, 3.0, 0.0], [2.0, 2.0, 2.0, 2.0]]),)


@case(tags=("op", "v2"))
def cumsum():
    return (lambda x: (torch.cumsum(x, dim=1), torch.cumsum(x, dim=0))), \
        (randn(4, 10),)


@case(tags=("op", "v2"))
def cumprod():
    # Integer input: multiplied in int64, as eager PyTorch does.
    ints = torch.randint(-3, 4, (3, 5), generator=torch.Generator().manual_seed(7))
    return (lambda x, i: (torch.cumprod(x, dim=1), torch.cumprod(x, dim=0),
                          torch.cumprod(i, dim=1))), (randn(4, 10), ints)


@case(tags=("op", "v2"))
def bitwise_and_shifts():
    # Integer &, |, ^, ~ (with a broadcast and a Python int) and shifts whose
    # amounts include negative ones and ones of at least the bit width (0,
    # or the sign fill, in eager PyTorch as in graph.shift_left/right).
    g = torch.Generator().manual_seed(11)
    a = torch.randint(-1000, 1000, (3, 8), generator=g, dtype=torch.int32)
    b = torch.randint(-1000, 1000, (8,), generator=g, dtype=torch.int32)
    n = torch.tensor([0, 1, 5, 31, 32, 40, -1, 3], dtype=torch.int32)
    u = torch.randint(0, 256, (8,), generator=g, dtype=torch.uint8)
    m = torch.tensor([0, 1, 7, 8, 9, 2, 3, 4], dtype=torch.uint8)
    return (lambda a, b, n, u, m: (a & b, a | b, a ^ b, ~a, a & 0xFF,
                                   a << n, a >> n, u << m, u >> m, u ^ 0x5A,
                                   torch.bitwise_left_shift(a, 2))), (a, b, n, u, m)


# ------------------------------------------------------------------ top-k

@case(tags=("op", "topk"))
def topk_largest():
    return (lambda x: torch.topk(x, 3)), (randn(4, 10),)


@case(tags=("op", "topk"))
def topk_smallest_dim0():
    return (lambda x: torch.topk(x, 2, dim=0, largest=False)), (randn(5, 3, 4),)


# ------------------------------------------------ transposed convolution

@case(tags=("op", "conv_transpose"))
def conv_transpose2d_unet_up():
    """Kernel = stride (U-Net's up-convolution): a 1x1 conv and a reshape."""
    return nn.ConvTranspose2d(8, 4, 2, stride=2), (randn(2, 8, 5, 7),)


@case(tags=("op", "conv_transpose"))
def conv_transpose2d_stride2_output_padding():
    return nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1), \
        (randn(1, 4, 5, 7),)


@case(tags=("op", "conv_transpose"))
def conv_transpose2d_dcgan():
    """DCGAN's generator layer: kernel 4, stride 2, padding 1."""
    return nn.ConvTranspose2d(16, 8, 4, stride=2, padding=1, bias=False), \
        (randn(2, 16, 4, 4),)


@case(tags=("op", "conv_transpose"))
def conv_transpose2d_grouped_dilated():
    return nn.ConvTranspose2d(4, 8, 3, stride=(2, 3), padding=(1, 2), dilation=2,
                              groups=2), (randn(1, 4, 5, 7),)


@case(tags=("op", "conv_transpose"))
def conv_transpose2d_crop():
    """Padding wider than the kernel reaches: the input is cropped."""
    return nn.ConvTranspose2d(4, 4, 3, padding=3), (randn(1, 4, 9, 9),)


@case(tags=("op", "conv_transpose"))
def conv_transpose2d_empty_phases():
    """Stride 4 with a 3-tap kernel: some output phases meet no tap (bias
    only)."""
    return nn.ConvTranspose2d(4, 6, 3, stride=4, padding=2, output_padding=3), \
        (randn(2, 4, 5, 6),)


@case(tags=("op", "conv_transpose"))
def conv_transpose2d_weight_input():
    """The weight an input, not a parameter: its taps are gathered at run
    time."""
    return (lambda x, w: F.conv_transpose2d(x, w, stride=2, groups=2, output_padding=1)), \
        (randn(1, 4, 5, 5), randn(4, 3, 3, 3))


@case(tags=("op", "conv_transpose"))
def conv_transpose1d():
    return nn.ConvTranspose1d(4, 6, 4, stride=2, padding=1), (randn(2, 4, 9),)


class TinyUNet(nn.Module):
    """A two-level U-Net: conv blocks, max-pool down, ConvTranspose2d up,
    skip connections by concatenation, a 1x1 head."""

    def __init__(self):
        super().__init__()

        def block(cin, cout):
            return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout),
                                 nn.ReLU(), nn.Conv2d(cout, cout, 3, padding=1), nn.ReLU())
        self.enc1, self.enc2, self.mid = block(3, 8), block(8, 16), block(16, 32)
        self.up2, self.dec2 = nn.ConvTranspose2d(32, 16, 2, stride=2), block(32, 16)
        self.up1, self.dec1 = nn.ConvTranspose2d(16, 8, 2, stride=2), block(16, 8)
        self.head = nn.Conv2d(8, 2, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(F.max_pool2d(e1, 2))
        m = self.mid(F.max_pool2d(e2, 2))
        d2 = self.dec2(torch.cat([self.up2(m), e2], 1))
        d1 = self.dec1(torch.cat([self.up1(d2), e1], 1))
        return self.head(d1)


@case(tags=("model", "segmentation"))
def tiny_unet():
    return TinyUNet().eval(), (randn(1, 3, 32, 32),)


# ------------------------------------------------- upsampling (graph.resize)

def _interpolate_case(name, shape, **kw):
    add_case(name, lambda: ((lambda x: F.interpolate(x, **kw)), (randn(*shape),)),
             tags=("op", "resize"))


add_case("grid_sample_bicubic_reflection",
         lambda: ((lambda x, g: F.grid_sample(x, g, mode="bicubic", padding_mode="reflection",
                                              align_corners=True)),
                  (randn(2, 3, 6, 5), torch.rand(2, 4, 3, 2) * 3 - 1.5)),
         tags=("op", "grid_sample"))
add_case("grid_sample_3d_nearest_border",
         lambda: ((lambda x, g: F.grid_sample(x, g, mode="nearest", padding_mode="border")),
                  (randn(1, 2, 3, 4, 5), torch.rand(1, 2, 3, 4, 3) * 3 - 1.5)),
         tags=("op", "grid_sample"))
add_case("rounding_and_floor_division",
         lambda: ((lambda x, y: (torch.floor(x), torch.ceil(x), torch.round(x, decimals=1),
                                 torch.trunc(x), torch.frac(x), x // y,
                                 torch.div(x, y, rounding_mode="trunc"))),
                  (randn(3, 8) * 10, randn(3, 8) + 0.1)),
         tags=("op",))


# ------------------------------------- ops composed of other graph ops (more.py)

def _more_case(name, fn, *args):
    add_case(name, lambda: (fn, tuple(a() if callable(a) else a for a in args)),
             tags=("op", "more"))


# Small and large magnitudes (log1p/expm1 keep relative accuracy near 0).
_more_case("log1p_expm1_small", lambda x: (torch.log1p(x), torch.expm1(x)),
           lambda: torch.cat([torch.randn(16) * 1e-6, torch.randn(16) * 3,
                              torch.tensor([-1.0, 0.0, 80.0, -50.0])]))
_more_case("log2_log10_exp2", lambda x: (torch.log2(x), torch.log10(x), torch.exp2(x - 3)),
           lambda: torch.rand(4, 8) * 10 + 0.01)
_more_case("sign_nan_to_num", lambda x: (torch.sign(x), torch.nan_to_num(x / (x - x.round())),
                                         torch.nan_to_num(x.log(), nan=-1.0, neginf=-7.0)),
           lambda: torch.cat([torch.randn(20), torch.tensor([0.0, -0.0, 2.0, -3.0])]))
_more_case("atan2_hypot", lambda y, x: (torch.atan2(y, x), torch.hypot(y, x)),
           lambda: torch.cat([torch.randn(20), torch.tensor([1.0, -1.0, 0.0, 2.0, -2.0, 3e30])]),
           lambda: torch.cat([torch.randn(20), torch.tensor([0.0, 0.0, -1.0, -1.0, -1.0, 4e30])]))
_more_case("logsigmoid_threshold_glu",
           lambda x: (F.logsigmoid(x), F.threshold(x, 0.1, 20.0), F.glu(x, -1), F.glu(x, 0)),
           lambda: torch.randn(6, 8) * 20)
_more_case("one_hot", lambda i: F.one_hot(i, 7), lambda: torch.randint(0, 7, (3, 5)))
_more_case("flip_roll", lambda x: (torch.flip(x, [0, 2]), torch.roll(x, 2, 1),
                                   torch.roll(x, (-1, 3), (0, 2)), torch.roll(x, 5)),
           lambda: torch.randn(3, 4, 5))
_more_case("pixel_shuffle_unshuffle", lambda x: (F.pixel_shuffle(x, 2), F.pixel_unshuffle(x, 2)),
           lambda: torch.randn(2, 8, 4, 6))
_more_case("pad_reflect_replicate_circular",
           lambda x: (F.pad(x, (2, 1, 1, 3), mode="reflect"),
                      F.pad(x, (2, 1, 1, 3), mode="replicate"),
                      F.pad(x, (2, 1, 1, 3), mode="circular"),
                      F.pad(x[0], (3, 0), mode="reflect")),
           lambda: torch.randn(2, 3, 5, 6))
_more_case("reflection_pad_module", nn.Sequential(nn.ReflectionPad2d(2), nn.Conv2d(3, 4, 3),
                                                  nn.ReplicationPad2d((1, 0, 2, 1))).eval(),
           lambda: torch.randn(1, 3, 8, 8))
_more_case("diagonal", lambda x: (torch.diagonal(x), torch.diagonal(x, 1), torch.diagonal(x, -2),
                                  torch.diagonal(x, 0, 1, 2), torch.diag(x[0]),
                                  torch.diag(x[0, 0]), torch.diag(x[1, 1], -2)),
           lambda: torch.randn(3, 4, 5))
_more_case("var_mean_norms",
           lambda x: (*torch.var_mean(x, 1), *torch.std_mean(x, (0, 2), correction=0),
                      torch.linalg.vector_norm(x, dim=1), torch.linalg.vector_norm(x, 1, (1, 2)),
                      torch.linalg.vector_norm(x, float("inf"), -1, keepdim=True),
                      torch.linalg.vector_norm(x, 3.0), torch.norm(x, dim=2),
                      F.normalize(x, dim=1)),
           lambda: torch.randn(3, 4, 5))
_more_case("pool1d", lambda x: (F.max_pool1d(x, 3), F.max_pool1d(x, 3, 2, 1, dilation=2),
                                F.avg_pool1d(x, 4, 2, 1), F.avg_pool1d(x, 3, ceil_mode=True,
                                                                    count_include_pad=False),
                                F.max_pool1d(x[0], 2)),
           lambda: torch.randn(2, 3, 17))
_more_case("baddbmm_cosine_similarity",
           lambda c, a, b: (torch.baddbmm(c, a, b, beta=0.5, alpha=2.0), torch.addbmm(c[0], a, b),
                            F.cosine_similarity(a, a.flip(1), dim=2),
                            F.cosine_similarity(a[0], a[1], dim=0)),
           lambda: torch.randn(2, 3, 5), lambda: torch.randn(2, 3, 4), lambda: torch.randn(2, 4, 5))


_interpolate_case("interpolate_nearest_x2", (2, 3, 5, 7), scale_factor=2, mode="nearest")
_interpolate_case("interpolate_nearest_size", (1, 2, 6, 8), size=(7, 5), mode="nearest")
_interpolate_case("interpolate_nearest_exact", (1, 2, 6, 8), scale_factor=1.7,
                  mode="nearest-exact")
_interpolate_case("interpolate_bilinear_x2", (2, 3, 5, 7), scale_factor=2, mode="bilinear")
_interpolate_case("interpolate_bilinear_down", (1, 3, 9, 8), size=(4, 3), mode="bilinear")
_interpolate_case("interpolate_bilinear_align_corners", (1, 3, 5, 7), scale_factor=2,
                  mode="bilinear", align_corners=True)
_interpolate_case("interpolate_bicubic", (1, 2, 6, 8), scale_factor=1.5, mode="bicubic")
_interpolate_case("interpolate_bilinear_antialias", (1, 2, 12, 10), size=(5, 4),
                  mode="bilinear", antialias=True)
_interpolate_case("interpolate_bicubic_antialias", (1, 2, 12, 10), size=(5, 4),
                  mode="bicubic", antialias=True)
_interpolate_case("interpolate_linear_1d", (2, 3, 7), scale_factor=2, mode="linear")
_interpolate_case("interpolate_trilinear", (1, 2, 3, 4, 5), scale_factor=2,
                  mode="trilinear")


@case(tags=("op", "resize"))
def upsample_module_nearest():
    return nn.Upsample(scale_factor=2, mode="nearest"), (randn(1, 4, 6, 6),)


# --------------------------------------------------------------- attention

@case(tags=("op", "v2"))
def sdpa_causal():
    return (lambda q, k, v: F.scaled_dot_product_attention(q, k, v,
                                                           is_causal=True)), \
        (randn(1, 4, 32, 16), randn(1, 4, 32, 16), randn(1, 4, 32, 16))


@case(tags=("op", "v2"))
def sdpa_bool_mask():
    mask = torch.rand(8, 8) > 0.3
    mask[:, 0] = True  # every row attends somewhere
    return (lambda q, k, v, m: F.scaled_dot_product_attention(q, k, v,
                                                              attn_mask=m)), \
        (randn(2, 4, 8, 16), randn(2, 4, 8, 16), randn(2, 4, 8, 16), mask)


@case(tags=("op", "v2"))
def sdpa_float_mask_scale():
    return (lambda q, k, v, m: F.scaled_dot_product_attention(
        q, k, v, attn_mask=m, scale=0.125)), \
        (randn(2, 4, 8, 16), randn(2, 4, 12, 16), randn(2, 4, 12, 32),
         randn(8, 12))


class SelfAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.mha = nn.MultiheadAttention(64, 4, batch_first=True)

    def forward(self, x):
        return self.mha(x, x, x, need_weights=False)[0]


@case(tags=("model", "v2"))
def multihead_attention():
    return SelfAttention().eval(), (randn(2, 10, 64),)
