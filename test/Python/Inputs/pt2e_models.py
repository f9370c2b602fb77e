"""PT2E-quantized models (torchao's prepare_pt2e / convert_pt2e) through
graphopt.compile, against the same quantized model run by eager PyTorch.

Models: a small conv -> ReLU -> linear network and torchvision's ResNet-18
(random weights from a fixed seed), quantized by the XNNPACK quantizer
(symmetric int8, weights per channel, the quantizer PyTorch's PT2E tutorial
uses) and, for the small network, by the X86 Inductor quantizer (uint8
activations, f32 output); calibrated on four random inputs, checked on
three others.

Tolerance. Eager PyTorch runs the quantize/dequantize ops as written, in
f32: each convolution sums rounded f32 products of dequantized values;
graphopt's integer kernels sum the integers exactly and scale once. Where
an intermediate lands within f32 rounding of a quantization boundary the
two round it to neighbouring integers, and the difference carries on. The
XNNPACK models' outputs are quantized (a grid of step `scale`): every
element must be within one step (1.01 x scale) and at most 40% of them off
by one, with the same top-1 class. Two f32 renderings of the same model
differ as much: graphopt computing the QDQ ops in f32 (no integer
kernels; printed beside) puts 27% of ResNet-18's outputs one step away
from eager's on an Intel Xeon, as many as the integer kernels do. The X86 model's output is f32: max |diff| at most
1% of max |reference|.

The MLIR of each model is written to DIR for the pass check in pt2e.test.
"""
import sys

import numpy as np
import torch
import torchvision
from torch import nn
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

import graphopt
from graphopt.importer.pytorch.fx import import_torch

d = sys.argv[1]


def quantizer(kind):
    if kind == "x86":
        import torchao.quantization.pt2e.quantizer.x86_inductor_quantizer as xiq
        q = xiq.X86InductorQuantizer()
        q.set_global(xiq.get_default_x86_inductor_quantization_config())
        return q
    from torchao.testing.pt2e._xnnpack_quantizer import (XNNPACKQuantizer,
                                                         get_symmetric_quantization_config)
    q = XNNPACKQuantizer()
    q.set_global(get_symmetric_quantization_config(is_per_channel=True))
    return q


def quantize(model, shape, kind):
    x = torch.randn(shape)
    prepared = prepare_pt2e(torch.export.export(model.eval(), (x,)).module(), quantizer(kind))
    g = torch.Generator().manual_seed(1)
    for _ in range(4):
        prepared(torch.randn(shape, generator=g))
    return convert_pt2e(prepared)


def output_step(converted):
    """The scale of the last quantize op (the output's grid), or None."""
    qs = [n for n in converted.graph.nodes if "quantize_per_tensor" in str(n.target)
          and "dequantize" not in str(n.target)]
    return float(qs[-1].args[1]) if qs else None


def check(name, model, shape, kind, f32_output=False):
    torch.manual_seed(0)
    converted = quantize(model, shape, kind)
    x = torch.randn(shape)
    with open(f"{d}/{name}.mlir", "w") as f:
        f.write(import_torch(converted, (x,)))
    program = graphopt.compile(converted, (x,))
    # The same quantized model with the QDQ ops computed in f32 as written
    # (no integer kernels): how far apart two f32 summation orders are.
    qdq = graphopt.compile(converted, (x,), int8_matmul=False)
    g = torch.Generator().manual_seed(5)
    ok, worst, off, off_qdq = True, 0.0, 0.0, 0.0
    step = output_step(converted)
    for _ in range(3):
        xi = torch.randn(shape, generator=g)
        got = np.asarray(program(xi))
        with torch.no_grad():
            want = converted(xi).numpy()
        diff = np.abs(got - want)
        ok &= bool((got.argmax(-1) == want.argmax(-1)).all())
        if f32_output:
            worst = max(worst, float(diff.max() / np.abs(want).max()))
        else:
            worst = max(worst, float(diff.max()) / step)
            off = max(off, float((diff > 0.5 * step).mean()))
            off_qdq = max(off_qdq, float((np.abs(np.asarray(qdq(xi)) - want)
                                          > 0.5 * step).mean()))
    if f32_output:
        ok &= worst <= 0.01
        print(f"{'PASS' if ok else 'FAIL'} {name} ({kind}): max |diff| "
              f"{100 * worst:.3f}% of max |reference|")
    else:
        ok &= worst <= 1.01 and off <= 0.40
        print(f"{'PASS' if ok else 'FAIL'} {name} ({kind}): max |diff| {worst:.2f} "
              f"steps; {100 * off:.0f}% of the outputs one step off (graphopt "
              f"computing the QDQ ops in f32: {100 * off_qdq:.0f}%)")


class OpByOp(nn.Module):
    """Every mapped op and overload on its own, on a run-time input: the
    results must equal eager PyTorch's exactly (the same f32 operations)."""

    def __init__(self):
        super().__init__()
        self.register_buffer("scales", torch.tensor([0.02, 0.05, 0.11]))
        self.register_buffer("zps", torch.tensor([-3, 0, 7]))

    def forward(self, x):
        qd = torch.ops.quantized_decomposed
        a = qd.quantize_per_tensor(x, 0.037, 5, 0, 255, torch.uint8)
        b = qd.dequantize_per_tensor(a, 0.037, 5, 0, 255, torch.uint8)
        c = qd.quantize_per_tensor.tensor(x, torch.tensor(0.013), torch.tensor(-2),
                                          -128, 127, torch.int8)
        d = qd.dequantize_per_tensor.tensor(c, torch.tensor(0.013), torch.tensor(-2),
                                            -128, 127, torch.int8)
        e = qd.quantize_per_channel(x, self.scales, self.zps, 1, -128, 127, torch.int8)
        f = qd.dequantize_per_channel(e, self.scales, self.zps, 1, -128, 127, torch.int8)
        g = qd.dequantize_per_channel(e, self.scales, None, 1, -128, 127, torch.int8)
        return a, b, c, d, e, f, g


def check_ops():
    x = torch.randn(4, 3, 5) * 3
    got = graphopt.compile(OpByOp().eval(), (x,))(x)
    want = OpByOp().eval()(x)
    same = all(torch.equal(g, w) and g.dtype == w.dtype for g, w in zip(got, want))
    print(f"{'PASS' if same else 'FAIL'} ops equal to eager PyTorch: "
          f"{[str(g.dtype).split('.')[-1] for g in got]}")


check_ops()
small = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 6 * 6, 10))
check("small_x86", small, (2, 3, 8, 8), "x86", f32_output=True)
check("small_xnnpack", small, (2, 3, 8, 8), "xnnpack")
check("resnet18_xnnpack", torchvision.models.resnet18(), (1, 3, 224, 224), "xnnpack")
