"""A BERT-base encoder layer (test/onnx/models.py: Q, K, V, output, two
feed-forward linears, attention with a padding mask, GELU, two layer norms)
exported to ONNX and quantized by ONNX Runtime's `quantize_static` (QDQ
format, uint8 activations, int8 weights per tensor), calibrated here on four
random inputs; imported and run on three other random inputs against ONNX
Runtime running the same int8 model. The six linear layers' products of
dequantized tensors are integer matmuls in graphopt where the CPU has
AVX-512 VNNI (graph-cpu-quantized-matmul), f32 products elsewhere.

Tolerance: the output is the dequantized value of the last QuantizeLinear,
a grid of step `scale`. Both systems sum the integer products exactly, but
ONNX Runtime fuses the QDQ pairs into integer kernels with their own
requantization (and its own GELU, softmax and layer norm), so an
intermediate can round to the neighbouring integer and move what follows
by a step or two. ONNX Runtime differs from itself in the same way: its
fused and unfused (QDQ ops one by one) graphs are compared too, and
printed. Required, against both: every element within 3 steps, at most 5%
of them one step or more apart, and within 2% of the largest output."""
import sys
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType,
                                      quantize_static)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import models  # noqa: E402

import graphopt  # noqa: E402
from graphopt.importer.onnx import import_onnx  # noqa: E402

d = Path(sys.argv[1])
path, inputs = models.export("bert_layer", d)
names = [i.name for i in onnx.load(str(path)).graph.input]
rng = np.random.default_rng(0)


def sample():
    return [rng.standard_normal(inputs[0].shape).astype(np.float32), inputs[1]]


class Calibration(CalibrationDataReader):
    def __init__(self):
        self.it = iter([dict(zip(names, sample())) for _ in range(4)])

    def get_next(self):
        return next(self.it, None)


qpath = d / "bert_int8.onnx"
quantize_static(str(path), str(qpath), Calibration(), quant_format=QuantFormat.QDQ,
                activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                per_channel=False)
m = onnx.load(str(qpath))
ops = [n.op_type for n in m.graph.node]
print("quantized:", ops.count("MatMul"), "MatMul,", ops.count("DequantizeLinear"),
      "DequantizeLinear")
last_q = [n for n in m.graph.node if n.op_type == "QuantizeLinear"][-1]
scale = float(onnx.numpy_helper.to_array(
    next(i for i in m.graph.initializer if i.name == last_q.input[1])))
text = import_onnx(m)
(d / "bert_int8.mlir").write_text(text)
program = graphopt.Program(text)
session = models.ort_session(qpath)
plain = ort.SessionOptions()
plain.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
plain.intra_op_num_threads = 1
unfused = ort.InferenceSession(str(qpath), plain, providers=["CPUExecutionProvider"])
worst, off, off_ort, ok = 0.0, 0.0, 0.0, True
for _ in range(3):
    x = sample()
    got = program.run(x)[0]
    feed = dict(zip(names, x))
    want, want_unfused = session.run(None, feed)[0], unfused.run(None, feed)[0]
    for w in (want, want_unfused):
        diff = np.abs(got.astype(np.float64) - w)
        worst = max(worst, float(diff.max()) / scale)
        off = max(off, float((diff > 0.5 * scale).mean()))
        ok &= bool(diff.max() <= 3.01 * scale) and bool(
            diff.max() <= 0.02 * np.abs(w).max())
    off_ort = max(off_ort, float((np.abs(want - want_unfused) > 0.5 * scale).mean()))
ok &= off <= 0.05
print(f"{'PASS' if ok else 'FAIL'} bert layer int8 vs onnxruntime: max |diff| "
      f"{worst:.2f} steps; {100 * off:.1f}% of the outputs one step or more off "
      f"(ONNX Runtime's fused and unfused graphs: {100 * off_ort:.1f}%)")
