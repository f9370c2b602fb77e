"""PyTorch models exported to ONNX for the model tests (test_models.py) and
the ONNX Runtime benchmark (bench/onnx_vs_ort.py).

Each factory returns ``(module, example_inputs, export_options)``; the
models are exported in the run with ``torch.onnx.export`` (nothing is
downloaded; weights are random with a fixed seed).
"""

from __future__ import annotations

import math
import warnings
from pathlib import Path


def _torch():
    import torch
    return torch


# ------------------------------------------------------------------ models

def _randomize_bn(model):
    """Random BatchNorm statistics, so that BatchNorm is not the identity."""
    torch = _torch()
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-0.2, 0.2)
                m.running_var.uniform_(0.5, 1.5)
                m.weight.uniform_(0.5, 1.0)
                m.bias.uniform_(-0.1, 0.1)
    return model.eval()


def resnet18():
    import torchvision
    model = _randomize_bn(torchvision.models.resnet18(weights=None))
    return model, (_torch().randn(1, 3, 224, 224),), {}


def resnet18_dynamic_batch():
    """ResNet-18 with a dynamic batch dim (dim_param 'batch')."""
    model, args, _ = resnet18()
    torch = _torch()
    return model, (torch.randn(2, 3, 224, 224),), {
        "dynamic_shapes": ({0: torch.export.Dim("batch", min=1, max=64)},)}


def mobilenet_v3_small():
    import torchvision
    model = _randomize_bn(torchvision.models.mobilenet_v3_small(weights=None))
    return model, (_torch().randn(1, 3, 224, 224),), {}


def _bert_layer_class():
    torch = _torch()
    nn = torch.nn

    class BertLayer(nn.Module):
        """One BERT-base encoder layer (Hugging Face's BertLayer, inference):
        self-attention with an additive mask, dense + residual + LayerNorm,
        GELU feed-forward, dense + residual + LayerNorm."""

        def __init__(self, hidden=768, heads=12, intermediate=3072, eps=1e-12):
            super().__init__()
            self.heads, self.head_dim = heads, hidden // heads
            self.query = nn.Linear(hidden, hidden)
            self.key = nn.Linear(hidden, hidden)
            self.value = nn.Linear(hidden, hidden)
            self.attn_out = nn.Linear(hidden, hidden)
            self.attn_norm = nn.LayerNorm(hidden, eps=eps)
            self.intermediate = nn.Linear(hidden, intermediate)
            self.output = nn.Linear(intermediate, hidden)
            self.out_norm = nn.LayerNorm(hidden, eps=eps)

        def forward(self, x, mask):
            b, s, h = x.shape

            def heads(t):
                return t.view(b, s, self.heads, self.head_dim).transpose(1, 2)
            q, k, v = heads(self.query(x)), heads(self.key(x)), heads(self.value(x))
            scores = q @ k.transpose(-1, -2) / math.sqrt(self.head_dim) + mask
            ctx = (scores.softmax(-1) @ v).transpose(1, 2).reshape(b, s, h)
            x = self.attn_norm(self.attn_out(ctx) + x)
            y = self.output(torch.nn.functional.gelu(self.intermediate(x)))
            return self.out_norm(y + x)

    return BertLayer


def bert_layer():
    """BERT-base encoder layer, sequence 128, with a padding mask."""
    torch = _torch()
    model = _bert_layer_class()().eval()
    mask = torch.zeros(1, 1, 1, 128)
    mask[..., 100:] = -10000.0  # the last 28 positions are padding
    return model, (torch.randn(1, 128, 768), mask), {}


def bert_small_dynamic_batch():
    """A small BERT layer (256 dims, 4 heads, sequence 32) with a dynamic
    batch dim: the exporter's shape computations (Shape -> Gather -> Concat
    -> Reshape) must become reshapes with one -1."""
    torch = _torch()
    model = _bert_layer_class()(hidden=256, heads=4, intermediate=1024).eval()
    mask = torch.zeros(2, 1, 1, 32)
    mask[..., 24:] = -10000.0
    batch = torch.export.Dim("batch", min=1, max=64)
    return model, (torch.randn(2, 32, 256), mask), {
        "dynamic_shapes": ({0: batch}, {0: batch})}


def lstm():
    """A 2-layer LSTM (64 -> 256), sequence 32, batch 1: the ONNX LSTM op."""
    torch = _torch()
    return torch.nn.LSTM(64, 256, num_layers=2).eval(), (torch.randn(32, 1, 64),), {}


def gru_bidirectional():
    """A bidirectional, batch-first GRU with an initial state."""
    torch = _torch()
    return torch.nn.GRU(32, 64, batch_first=True, bidirectional=True).eval(), \
        (torch.randn(2, 16, 32), torch.randn(2, 2, 64)), {}


def gpt2_block():
    """A GPT-2 block (768 dims, 12 heads, causal SDPA), sequence 64."""
    torch = _torch()
    nn, F = torch.nn, torch.nn.functional

    class Block(nn.Module):
        def __init__(self, d=768, h=12):
            super().__init__()
            self.h = h
            self.ln_1, self.ln_2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.c_attn, self.c_proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.fc, self.proj = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

        def forward(self, x):
            b, t, c = x.shape
            q, k, v = self.c_attn(self.ln_1(x)).split(c, dim=2)
            q, k, v = (z.view(b, t, self.h, c // self.h).transpose(1, 2) for z in (q, k, v))
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            x = x + self.c_proj(y.transpose(1, 2).reshape(b, t, c))
            return x + self.proj(F.gelu(self.fc(self.ln_2(x)), approximate="tanh"))

    return Block().eval(), (torch.randn(1, 64, 768),), {}


def keypoint_head():
    """ConvTranspose, Resize (bilinear) and TopK: a CenterNet-style head on
    a 64x64 input (test/lib/dense_models.py)."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "lib"))
    from dense_models import KeypointHead
    torch = _torch()
    return KeypointHead().eval(), (torch.randn(1, 3, 64, 64),), {}


#: name -> factory. ``MODELS``: ResNet-18, the BERT-base layer and the LSTM
#: (the benchmark's models); ``EXTRA``: more exporter patterns (dynamic
#: batch dims, SDPA, depthwise convolutions and hardswish, bidirectional GRU,
#: ConvTranspose + Resize + TopK).
MODELS = {"resnet18": resnet18, "bert_layer": bert_layer, "lstm": lstm}
EXTRA = {"bert_small_dynamic_batch": bert_small_dynamic_batch,
         "resnet18_dynamic_batch": resnet18_dynamic_batch,
         "gpt2_block": gpt2_block, "mobilenet_v3_small": mobilenet_v3_small,
         "gru_bidirectional": gru_bidirectional, "keypoint_head": keypoint_head}
ALL = {**MODELS, **EXTRA}


def export(name: str, directory: Path, seed: int = 0):
    """Exports model ``name`` to ``directory/name.onnx``; returns (path,
    input arrays, output names)."""
    torch = _torch()
    torch.manual_seed(seed)
    factory = ALL[name]
    model, args, options = factory()
    path = Path(directory) / f"{name}.onnx"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import contextlib
        import io
        with contextlib.redirect_stdout(io.StringIO()):
            torch.onnx.export(model, args, str(path), dynamo=True, **options)
    return path, [a.detach().numpy() for a in args]


def ort_session(path: Path, threads: int = 1):
    """An ONNX Runtime CPU session with ``threads`` threads."""
    import onnxruntime as ort
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so.log_severity_level = 3
    return ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])


def ort_run(session, inputs):
    names = [i.name for i in session.get_inputs()]
    return session.run(None, dict(zip(names, inputs)))
