"""Whole models: torchvision ResNet-18/50 and MobileNetV3 (random weights),
nn.TransformerEncoderLayer, a GPT-2 block, nn.LSTM / nn.GRU, MobileNet-style
depthwise-separable and inverted-residual blocks.

All use the default f32 tolerance (rtol 1e-4, atol 1e-5): measured against
an f64 evaluation of the same model, PyTorch's own f32 results stay within
4% of that bound (ResNet-50: max |error| 1e-6), so the bound leaves room for
a different summation order.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from framework import case


def randn(*shape):
    return torch.randn(*shape)


# ------------------------------------------------------------------ vision

def _randomize_bn(model):
    """Random running statistics, so that BatchNorm is not the identity and
    activations stay O(1) through deep networks."""
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, (nn.BatchNorm2d, nn.BatchNorm3d)):
                m.running_mean.uniform_(-0.2, 0.2)
                m.running_var.uniform_(0.5, 1.5)
                m.weight.uniform_(0.5, 1.0)
                m.bias.uniform_(-0.1, 0.1)
    return model.eval()


@case(tags=("model", "vision", "v2"))
def resnet18():
    import torchvision
    model = _randomize_bn(torchvision.models.resnet18(weights=None))
    return model, (randn(1, 3, 224, 224),)


@case(tags=("model", "vision", "v2", "slow"))
def resnet50():
    import torchvision
    model = _randomize_bn(torchvision.models.resnet50(weights=None))
    return model, (randn(1, 3, 224, 224),)


@case(tags=("model", "vision", "v2"))
def mobilenet_v3_small():
    import torchvision
    model = _randomize_bn(torchvision.models.mobilenet_v3_small(weights=None))
    return model, (randn(1, 3, 224, 224),)


@case(tags=("model", "vision", "segmentation"))
def lraspp_mobilenet_v3_large():
    """Semantic segmentation: torchvision's LR-ASPP (MobileNetV3-large
    backbone; bilinear upsampling of its low- and high-resolution branches
    and of the logits, F.interpolate -> graph.resize). Returns a dict."""
    import torchvision
    model = torchvision.models.segmentation.lraspp_mobilenet_v3_large(
        weights=None, weights_backbone=None, num_classes=5)
    return _randomize_bn(model), (randn(1, 3, 96, 96),)


@case(tags=("model", "vision", "detection"))
def keypoint_head():
    """ConvTranspose2d, bilinear F.interpolate and torch.topk in one model
    (test/lib/dense_models.py); random heatmap scores have no ties, so
    the indices compare exactly."""
    from dense_models import KeypointHead
    return KeypointHead().eval(), (randn(1, 3, 64, 64),)


class SpatialTransformer(nn.Module):
    """The spatial transformer network of PyTorch's tutorial (MNIST-sized):
    a localization net predicts an affine map, F.affine_grid and
    F.grid_sample resample the input by it, a small classifier follows."""

    def __init__(self):
        super().__init__()
        self.loc = nn.Sequential(nn.Conv2d(1, 8, 7), nn.MaxPool2d(2), nn.ReLU(True),
                                 nn.Conv2d(8, 10, 5), nn.MaxPool2d(2), nn.ReLU(True))
        self.fc = nn.Sequential(nn.Linear(10 * 3 * 3, 32), nn.ReLU(True), nn.Linear(32, 6))
        self.cls = nn.Sequential(nn.Conv2d(1, 10, 5), nn.MaxPool2d(2), nn.ReLU(),
                                 nn.Flatten(), nn.Linear(10 * 12 * 12, 10))

    def forward(self, x):
        theta = self.fc(self.loc(x).flatten(1)).view(-1, 2, 3)
        grid = F.affine_grid(theta, x.size(), align_corners=False)
        return self.cls(F.grid_sample(x, grid, align_corners=False))


@case(tags=("model", "vision"))
def spatial_transformer():
    return SpatialTransformer().eval(), (randn(4, 1, 28, 28),)


class DepthwiseSeparable(nn.Module):
    """MobileNet v1 block: 3x3 depthwise conv, BN, ReLU6, 1x1 conv, BN,
    ReLU6."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.dw = nn.Conv2d(cin, cin, 3, stride, 1, groups=cin, bias=False)
        self.bn1 = nn.BatchNorm2d(cin)
        self.pw = nn.Conv2d(cin, cout, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)

    def forward(self, x):
        x = F.relu6(self.bn1(self.dw(x)))
        return F.relu6(self.bn2(self.pw(x)))


@case(tags=("model", "vision", "v2"))
def mobilenet_depthwise_separable():
    model = nn.Sequential(
        nn.Conv2d(3, 32, 3, 2, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU6(),
        DepthwiseSeparable(32, 64, 1), DepthwiseSeparable(64, 128, 2),
        DepthwiseSeparable(128, 128, 1), DepthwiseSeparable(128, 256, 2),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(256, 10))
    return _randomize_bn(model), (randn(1, 3, 64, 64),)


class InvertedResidual(nn.Module):
    """MobileNet v2 block: 1x1 expand, 3x3 depthwise, 1x1 project,
    residual."""

    def __init__(self, c, expand=6):
        super().__init__()
        h = c * expand
        self.block = nn.Sequential(
            nn.Conv2d(c, h, 1, bias=False), nn.BatchNorm2d(h), nn.ReLU6(),
            nn.Conv2d(h, h, 3, 1, 1, groups=h, bias=False), nn.BatchNorm2d(h),
            nn.ReLU6(),
            nn.Conv2d(h, c, 1, bias=False), nn.BatchNorm2d(c))

    def forward(self, x):
        return x + self.block(x)


@case(tags=("model", "vision", "v2"))
def mobilenet_v2_inverted_residual():
    model = nn.Sequential(InvertedResidual(16), InvertedResidual(16))
    return _randomize_bn(model), (randn(2, 16, 28, 28),)


# ------------------------------------------------------------- transformers

@case(tags=("model", "transformer", "v2"))
def transformer_encoder_layer():
    layer = nn.TransformerEncoderLayer(d_model=768, nhead=12,
                                       dim_feedforward=3072, batch_first=True)
    return layer.eval(), (randn(1, 128, 768),)


class CausalSelfAttention(nn.Module):
    """GPT-2 (nanoGPT) causal self-attention."""

    def __init__(self, n_embd, n_head, block_size, flash=True):
        super().__init__()
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.n_head, self.n_embd, self.flash = n_head, n_embd, flash
        self.register_buffer("bias", torch.tril(torch.ones(
            block_size, block_size)).view(1, 1, block_size, block_size))

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        if self.flash:
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
            att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
            att = F.softmax(att, dim=-1)
            y = att @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)


class MLP(nn.Module):
    def __init__(self, n_embd):
        super().__init__()
        self.c_fc = nn.Linear(n_embd, 4 * n_embd)
        self.c_proj = nn.Linear(4 * n_embd, n_embd)

    def forward(self, x):
        return self.c_proj(F.gelu(self.c_fc(x), approximate="tanh"))


class GPT2Block(nn.Module):
    def __init__(self, n_embd=768, n_head=12, block_size=1024, flash=True):
        super().__init__()
        self.ln_1 = nn.LayerNorm(n_embd)
        self.attn = CausalSelfAttention(n_embd, n_head, block_size, flash)
        self.ln_2 = nn.LayerNorm(n_embd)
        self.mlp = MLP(n_embd)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


@case(tags=("model", "transformer", "v2"))
def gpt2_block():
    """GPT-2 small dims (768, 12 heads), sequence 64, SDPA is_causal."""
    return GPT2Block().eval(), (randn(1, 64, 768),)


@case(tags=("model", "transformer"))
def gpt2_attention_masked():
    """The explicit-mask attention of nanoGPT (masked_fill with -inf on a
    tril buffer, softmax): needs only the first op set."""
    return CausalSelfAttention(256, 8, 128, flash=False).eval(), \
        (randn(2, 32, 256),)


# ------------------------------------------------------------------ RNNs

@case(tags=("model", "rnn", "v2"))
def lstm():
    """nn.LSTM, seq 32, hidden 256; returns (output, (h_n, c_n))."""
    return nn.LSTM(64, 256).eval(), (randn(32, 1, 64),)


@case(tags=("model", "rnn", "v2"))
def gru():
    """nn.GRU, seq 32, hidden 256, batch_first, initial state given."""
    return nn.GRU(64, 256, batch_first=True).eval(), \
        (randn(1, 32, 64), randn(1, 1, 256))


@case(tags=("model", "rnn"))
def lstm_bidirectional():
    """A bidirectional nn.LSTM: the importer has no mapping for it; PyTorch's
    decomposition (one step at a time, both directions) is imported
    instead (fx.py, _decompose_unsupported)."""
    return nn.LSTM(16, 24, bidirectional=True).eval(), (randn(10, 2, 16),)


@case(tags=("model", "rnn"))
def gru_bidirectional_two_layers():
    return nn.GRU(16, 20, num_layers=2, bidirectional=True, batch_first=True).eval(), \
        (randn(3, 7, 16),)


@case(tags=("model", "rnn", "v2"))
def lstm_two_layers():
    return nn.LSTM(32, 64, num_layers=2, batch_first=True).eval(), \
        (randn(2, 16, 32),)


# ----------------------------- ops built from other graph ops, in small models

class TinyC3D(nn.Module):
    """A C3D-style video classifier: 3-d convolutions (conv3d as 2-d
    convolutions per depth tap), BatchNorm3d, 3-d max pooling, global
    average pooling."""

    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv3d(3, 8, 3, padding=1), nn.BatchNorm3d(8), nn.ReLU(),
            nn.MaxPool3d((1, 2, 2)),
            nn.Conv3d(8, 16, 3, stride=(2, 1, 1), padding=1), nn.ReLU(),
            nn.AvgPool3d(2, ceil_mode=True),
            nn.Conv3d(16, 16, (1, 3, 3), padding=(0, 1, 1), groups=4), nn.ReLU(),
            nn.AdaptiveAvgPool3d(1))
        self.fc = nn.Linear(16, 5)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


@case(tags=("model", "video"))
def tiny_c3d():
    model = _randomize_bn(TinyC3D())
    return model, (randn(2, 3, 6, 16, 16),)


class TinyUNet3D(nn.Module):
    """A 3-D U-Net's shape (volumetric segmentation): Conv3d blocks, a
    MaxPool3d down, a ConvTranspose3d up (2-d transposed convolutions per
    depth tap), the skip connection concatenated."""

    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv3d(2, 8, 3, padding=1), nn.BatchNorm3d(8), nn.ReLU())
        self.down = nn.MaxPool3d(2)
        self.mid = nn.Sequential(nn.Conv3d(8, 16, 3, padding=1), nn.ReLU())
        self.up = nn.ConvTranspose3d(16, 8, 2, stride=2)
        self.dec = nn.Sequential(nn.Conv3d(16, 8, 3, padding=1), nn.ReLU(),
                                 nn.Conv3d(8, 3, 1))

    def forward(self, x):
        e = self.enc(x)
        return self.dec(torch.cat([self.up(self.mid(self.down(e))), e], 1))


@case(tags=("model", "segmentation"))
def tiny_unet3d():
    return _randomize_bn(TinyUNet3D()), (randn(1, 2, 8, 12, 12),)


class TinySegNet(nn.Module):
    """SegNet's decoder: max pooling with indices on the way down,
    max_unpool2d with them on the way up."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU())
        self.c2 = nn.Sequential(nn.Conv2d(8, 16, 3, padding=1), nn.ReLU())
        self.pool = nn.MaxPool2d(2, 2, return_indices=True)
        self.unpool = nn.MaxUnpool2d(2, 2)
        self.d2 = nn.Sequential(nn.Conv2d(16, 8, 3, padding=1), nn.ReLU())
        self.d1 = nn.Conv2d(8, 4, 3, padding=1)

    def forward(self, x):
        a = self.c1(x)
        p1, i1 = self.pool(a)
        b = self.c2(p1)
        p2, i2 = self.pool(b)
        u2 = self.unpool(p2, i2, output_size=b.shape[-2:])
        u1 = self.unpool(self.d2(u2), i1, output_size=a.shape[-2:])
        return self.d1(u1)


@case(tags=("model", "segmentation"))
def tiny_segnet():
    return _randomize_bn(TinySegNet()), (randn(2, 3, 20, 24),)


class TinyDLRM(nn.Module):
    """DLRM's structure: sparse features through EmbeddingBags (sum and
    mean), dense features through an MLP, their pairwise dot products
    (a bmm), a top MLP."""

    def __init__(self):
        super().__init__()
        self.bags = nn.ModuleList([nn.EmbeddingBag(20, 8, mode="sum"),
                                   nn.EmbeddingBag(30, 8, mode="mean")])
        self.bottom = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 8))
        self.top = nn.Sequential(nn.Linear(8 + 3, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, dense, idx0, off0, idx1, off1):
        feats = [self.bottom(dense), self.bags[0](idx0, off0), self.bags[1](idx1, off1)]
        t = torch.stack(feats, 1)                              # [B, 3, 8]
        inter = torch.bmm(t, t.transpose(1, 2))                # [B, 3, 3]
        rows, cols = torch.triu_indices(3, 3, 1)
        pairs = inter[:, rows, cols]
        return torch.sigmoid(self.top(torch.cat([feats[0], pairs], 1)))


@case(tags=("model", "recommendation"))
def tiny_dlrm():
    g = torch.Generator().manual_seed(3)
    idx0 = torch.randint(0, 20, (10,), generator=g)
    idx1 = torch.randint(0, 30, (7,), generator=g)
    return TinyDLRM().eval(), (randn(4, 4), idx0, torch.tensor([0, 3, 3, 6]),
                               idx1, torch.tensor([0, 1, 4, 5]))


def _top_p_filter(logits, p: float = 0.8):
    """Nucleus (top-p) filtering as LLM samplers do it: sort descending,
    cumulative softmax, drop what lies past p, scatter the mask back."""
    sorted_logits, order = torch.sort(logits, dim=-1, descending=True)
    cum = torch.cumsum(F.softmax(sorted_logits, dim=-1), dim=-1)
    drop = cum - F.softmax(sorted_logits, dim=-1) > p
    mask = torch.zeros_like(drop).scatter(-1, order, drop)
    return logits.masked_fill(mask, float("-inf"))


@case(tags=("model", "more"))
def top_p_filter():
    return _top_p_filter, (randn(3, 50) * 2,)


class EinsumAttention(nn.Module):
    """Multi-head attention written with einsum (as many research models
    are)."""

    def __init__(self, dim=32, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x):
        b, n, d = x.shape
        q, k, v = self.qkv(x).reshape(b, n, 3, self.heads, d // self.heads).unbind(2)
        att = torch.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(d // self.heads)
        y = torch.einsum("bhqk,bkhd->bqhd", att.softmax(-1), v)
        return self.out(y.reshape(b, n, d))


@case(tags=("model", "more"))
def einsum_attention():
    return EinsumAttention().eval(), (randn(2, 10, 32),)


class UnfoldMedianFilter(nn.Module):
    """A 3x3 median filter over F.unfold patches, then a patch embedding
    (F.unfold + a linear layer, as early vision transformers wrote it)."""

    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(3 * 4 * 4, 16)

    def forward(self, x):
        n, c, h, w = x.shape
        patches = F.unfold(x, 3, padding=1).reshape(n, c, 9, h * w)
        smooth = patches.median(dim=2).values.reshape(n, c, h, w)
        tokens = F.unfold(smooth, 4, stride=4).transpose(1, 2)
        return self.embed(tokens)


@case(tags=("model", "more"))
def unfold_median_filter():
    return UnfoldMedianFilter().eval(), (randn(2, 3, 16, 16),)
