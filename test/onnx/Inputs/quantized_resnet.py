"""ResNet-18 (torchvision, random weights from a fixed seed) exported to
ONNX and quantized by ONNX Runtime's `quantize_static` (QDQ format, uint8
activations, int8 weights per channel: the tool's defaults for a CNN),
calibrated here on four random images; imported, compiled and run on three
other random images against ONNX Runtime running the same int8 model.

Tolerance: the output is the dequantized value of the last QuantizeLinear,
a grid of step `scale`; graphopt computes the convolutions between the
Q/DQ pairs in f32 (no integer convolution kernels yet; the final linear
layer is an integer matmul) where ONNX Runtime fuses them into int8
kernels with their own requantization, so an intermediate can round
to the neighbouring integer and the logits may differ by one step. ONNX
Runtime differs from itself in the same way: its optimized (fused int8
kernels) and unoptimized (QDQ ops one by one) graphs put 18-20% of the
logits one step apart on these inputs. Required, against both of ONNX
Runtime's graphs: every element within one step (1.01 x scale), at most
30% of them off by one, the same top-1 class; the fractions are printed
with ONNX Runtime's own."""
import sys

import numpy as np
import onnx
import onnxruntime as ort
import torch
import torchvision
from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType,
                                      quantize_static)

import graphopt
from graphopt.importer.onnx import import_onnx

d = sys.argv[1]
torch.manual_seed(0)
model = torchvision.models.resnet18().eval()
torch.onnx.export(model, (torch.randn(1, 3, 224, 224),), f"{d}/r18.onnx",
                  input_names=["x"], output_names=["y"], opset_version=17,
                  dynamo=False)
rng = np.random.default_rng(0)


class Calibration(CalibrationDataReader):
    def __init__(self):
        self.it = iter([{"x": rng.standard_normal((1, 3, 224, 224)).astype(np.float32)}
                        for _ in range(4)])

    def get_next(self):
        return next(self.it, None)


quantize_static(f"{d}/r18.onnx", f"{d}/r18_int8.onnx", Calibration(),
                quant_format=QuantFormat.QDQ, activation_type=QuantType.QUInt8,
                weight_type=QuantType.QInt8, per_channel=True)
m = onnx.load(f"{d}/r18_int8.onnx")
ops = {n.op_type for n in m.graph.node}
print("quantized:", "QuantizeLinear" in ops and "DequantizeLinear" in ops, "conv" if "Conv" in ops else "")
last_q = [n for n in m.graph.node if n.op_type == "QuantizeLinear"][-1]
scale = float(onnx.numpy_helper.to_array(
    next(i for i in m.graph.initializer if i.name == last_q.input[1])))
program = graphopt.Program(import_onnx(m))
session = ort.InferenceSession(f"{d}/r18_int8.onnx", providers=["CPUExecutionProvider"])
plain = ort.SessionOptions()
plain.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
unfused = ort.InferenceSession(f"{d}/r18_int8.onnx", plain,
                               providers=["CPUExecutionProvider"])
worst, off, off_unfused, off_ort = 0.0, 0.0, 0.0, 0.0
ok = True
for _ in range(3):
    x = rng.standard_normal((1, 3, 224, 224)).astype(np.float32)
    got = program.run([x])[0]
    want, want_unfused = session.run(None, {"x": x})[0], unfused.run(None, {"x": x})[0]
    for w in (want, want_unfused):
        diff = np.abs(got - w)
        worst = max(worst, float(diff.max()) / scale)
        ok &= bool(diff.max() <= 1.01 * scale) and got.argmax() == w.argmax()
    off = max(off, float((np.abs(got - want) > 0.5 * scale).mean()))
    off_unfused = max(off_unfused, float((np.abs(got - want_unfused) > 0.5 * scale).mean()))
    off_ort = max(off_ort, float((np.abs(want - want_unfused) > 0.5 * scale).mean()))
ok &= max(off, off_unfused) <= 0.30
print(f"{'PASS' if ok else 'FAIL'} resnet18 int8 vs onnxruntime: max |diff| "
      f"{worst:.2f} steps; logits one step off: {100 * off:.0f}% against the "
      f"fused graph, {100 * off_unfused:.0f}% against the unfused one (ONNX "
      f"Runtime's two graphs: {100 * off_ort:.0f}%)")
