"""int8 and uint8 QDQ models (QuantizeLinear / DequantizeLinear around a
MatMul and a Conv, per-tensor activations, per-channel weights, asymmetric
zero points; uint8 activations with int8 weights as ONNX Runtime's
quantizer makes them by default):
imported, compiled (the products of dequantized tensors as integer kernels
where the CPU has AVX-512 VNNI, in f32 as the ONNX definition says
elsewhere) and run, against three references:

* a NumPy evaluation of the ONNX definitions (np.rint rounds half to even;
  x / scale in float32 as the model computes it);
* onnx.reference's evaluator;
* ONNX Runtime (when installed).

Tolerances: the int8 outputs may differ by 1 where the f32 sums before the
second quantization differ in their last bits (another summation order) and
land on the other side of a rounding boundary; at most 2% of the elements
may. The dequantized f32 outputs likewise within one quantization step.
Prints one line per model and reference; qdq.test checks them."""

import numpy as np
import onnx
from onnx import TensorProto as TP, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

import graphopt
from graphopt.importer.onnx import import_onnx

rng = np.random.default_rng(0)


def q(x, scale, zp, axis=None, shape=None, qtype=np.int8):
    s, z = np.asarray(scale, np.float32), np.asarray(zp, np.int32)
    if axis is not None:
        s, z = s.reshape(shape), z.reshape(shape)
    info = np.iinfo(qtype)
    return np.clip(np.rint(np.asarray(x, np.float32) / s) + z, info.min, info.max).astype(qtype)


def dq(x, scale, zp, axis=None, shape=None):
    s, z = np.asarray(scale, np.float32), np.asarray(zp, np.int32)
    if axis is not None:
        s, z = s.reshape(shape), z.reshape(shape)
    return ((x.astype(np.int32) - z).astype(np.float32) * s).astype(np.float32)


def const(name, a):
    return numpy_helper.from_array(np.asarray(a), name)


def compare(name, what, got, want):
    ok = True
    for g, w in zip(got, want):
        if g.shape != w.shape or g.dtype != w.dtype:
            ok = False
            continue
        if g.dtype in (np.int8, np.uint8):
            d = np.abs(g.astype(np.int32) - w.astype(np.int32))
            ok &= bool(d.max(initial=0) <= 1 and (d > 0).mean() <= 0.02)
        else:
            ok &= bool(np.allclose(g, w, rtol=0, atol=0.1 + 1e-6))
    print(f"{'PASS' if ok else 'FAIL'} {name} vs {what}")


def run_all(name, m, feeds, numpy_want):
    onnx.checker.check_model(m)
    text = import_onnx(m)
    assert "graph.matmul" in text or "graph.conv2d" in text
    got = graphopt.Program(text).run(list(feeds.values()))
    compare(name, "numpy", got, numpy_want)
    compare(name, "onnx.reference", got, ReferenceEvaluator(m).run(None, feeds))
    try:
        import onnxruntime
    except ImportError:
        print(f"PASS {name} vs onnxruntime (not installed)")
        return
    s = onnxruntime.InferenceSession(m.SerializeToString(),
                                     providers=["CPUExecutionProvider"])
    compare(name, "onnxruntime", got, s.run(None, feeds))


# MatMul: x [8, 64] -> Q/DQ (0.05, zp 3); W [64, 32] int8 per output column
# (axis 1) with zero points 0; + bias; Q/DQ (0.2, zp -2). Outputs: the int8
# tensor and its dequantized value.
x = rng.uniform(-3, 3, (8, 64)).astype(np.float32)
w = rng.integers(-127, 128, (64, 32)).astype(np.int8)
ws = rng.uniform(0.002, 0.01, 32).astype(np.float32)
bias = rng.uniform(-1, 1, 32).astype(np.float32)
nodes = [
    helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"]),
    helper.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xd"]),
    helper.make_node("DequantizeLinear", ["w", "ws", "wz"], ["wd"], axis=1),
    helper.make_node("MatMul", ["xd", "wd"], ["mm"]),
    helper.make_node("Add", ["mm", "b"], ["y"]),
    helper.make_node("QuantizeLinear", ["y", "ys", "yz"], ["yq"]),
    helper.make_node("DequantizeLinear", ["yq", "ys", "yz"], ["yd"]),
]
g = helper.make_graph(
    nodes, "qdq_matmul", [helper.make_tensor_value_info("x", TP.FLOAT, [8, 64])],
    [helper.make_tensor_value_info("yq", TP.INT8, [8, 32]),
     helper.make_tensor_value_info("yd", TP.FLOAT, [8, 32])],
    [const("xs", np.float32(0.05)), const("xz", np.int8(3)), const("w", w),
     const("ws", ws), const("wz", np.zeros(32, np.int8)), const("b", bias),
     const("ys", np.float32(0.2)), const("yz", np.int8(-2))])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 19)])
xd = dq(q(x, 0.05, 3), 0.05, 3)
y = xd @ dq(w, ws, np.zeros(32), 1, (1, 32)) + bias
yq = q(y, 0.2, -2)
run_all("matmul", m, {"x": x}, [yq, dq(yq, 0.2, -2)])

# Conv 3x3, 8 -> 16 channels, weights per output channel (axis 0).
x = rng.uniform(-2, 2, (1, 8, 10, 10)).astype(np.float32)
w = rng.integers(-127, 128, (16, 8, 3, 3)).astype(np.int8)
ws = rng.uniform(0.002, 0.01, 16).astype(np.float32)
nodes = [
    helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"]),
    helper.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xd"]),
    helper.make_node("DequantizeLinear", ["w", "ws", "wz"], ["wd"], axis=0),
    helper.make_node("Conv", ["xd", "wd"], ["y"], pads=[1, 1, 1, 1]),
    helper.make_node("QuantizeLinear", ["y", "ys", "yz"], ["yq"]),
]
g = helper.make_graph(
    nodes, "qdq_conv", [helper.make_tensor_value_info("x", TP.FLOAT, [1, 8, 10, 10])],
    [helper.make_tensor_value_info("yq", TP.INT8, [1, 16, 10, 10])],
    [const("xs", np.float32(0.04)), const("xz", np.int8(-5)), const("w", w),
     const("ws", ws), const("wz", np.zeros(16, np.int8)),
     const("ys", np.float32(0.1)), const("yz", np.int8(1))])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 19)])
xd = dq(q(x, 0.04, -5), 0.04, -5)
wd = dq(w, ws, np.zeros(16), 0, (16, 1, 1, 1))
xp = np.pad(xd, ((0, 0), (0, 0), (1, 1), (1, 1)))
y = np.zeros((1, 16, 10, 10), np.float64)
for i in range(3):
    for j in range(3):
        y += np.einsum("chw,fc->fhw", xp[0, :, i:i + 10, j:j + 10],
                       wd[:, :, i, j].astype(np.float64))[None]
run_all("conv", m, {"x": x}, [q(y.astype(np.float32), 0.1, 1)])

# uint8 activations (zero points 128 and 100), int8 per-column weights: the
# QDQ form ONNX Runtime's quantize_static produces by default.
x = rng.uniform(-3, 3, (8, 64)).astype(np.float32)
w = rng.integers(-127, 128, (64, 32)).astype(np.int8)
ws = rng.uniform(0.002, 0.01, 32).astype(np.float32)
nodes = [
    helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"]),
    helper.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xd"]),
    helper.make_node("DequantizeLinear", ["w", "ws", "wz"], ["wd"], axis=1),
    helper.make_node("MatMul", ["xd", "wd"], ["y"]),
    helper.make_node("QuantizeLinear", ["y", "ys", "yz"], ["yq"]),
    helper.make_node("DequantizeLinear", ["yq", "ys", "yz"], ["yd"]),
]
g = helper.make_graph(
    nodes, "qdq_u8s8", [helper.make_tensor_value_info("x", TP.FLOAT, [8, 64])],
    [helper.make_tensor_value_info("yq", TP.UINT8, [8, 32]),
     helper.make_tensor_value_info("yd", TP.FLOAT, [8, 32])],
    [const("xs", np.float32(0.025)), const("xz", np.uint8(128)), const("w", w),
     const("ws", ws), const("wz", np.zeros(32, np.int8)),
     const("ys", np.float32(0.2)), const("yz", np.uint8(100))])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 19)])
xd = dq(q(x, 0.025, 128, qtype=np.uint8), 0.025, 128)
y = xd @ dq(w, ws, np.zeros(32), 1, (1, 32))
yq = q(y, 0.2, 100, qtype=np.uint8)
run_all("matmul_u8s8", m, {"x": x}, [yq, dq(yq, 0.2, 100)])
