"""The ONNX integer and QOperator ops (MatMulInteger, ConvInteger,
QLinearMatMul, QLinearConv, DynamicQuantizeLinear) with per-row, per-column
and per-channel parameters, biases, padding and strides the node suite does
not cover: imported, compiled and run against

* a NumPy evaluation of the ONNX definitions written here (integer sums in
  int64, the requantization in float64 as ONNX's reference computes it);
* onnx.reference's evaluator (where it follows the definition: its
  MatMulInteger broadcasts a 1-D a_zero_point along columns, not rows, so
  per-row zero points are compared with NumPy only);
* ONNX Runtime (when installed and the op is in its CPU provider).

Tolerances: the i32 outputs of MatMulInteger and ConvInteger must be equal
(exact integer sums). The quantized outputs must be equal to NumPy's and
onnx.reference's (the same float64 arithmetic); against ONNX Runtime, which
requantizes in float32, they may differ by 1 on at most 2% of the elements
(a product landing on the other side of a rounding boundary). Prints one
line per case and reference; qlinear.test checks them."""

import numpy as np
import onnx
from onnx import TensorProto as TP, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

import graphopt
from graphopt.importer.onnx import import_onnx

rng = np.random.default_rng(1)


def const(name, a):
    return numpy_helper.from_array(np.asarray(a), name)


def model(nodes, inputs, outputs, inits, opset=21):
    g = helper.make_graph(nodes, "q", inputs, outputs, inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    onnx.checker.check_model(m)
    return m


def same(got, want, loose=False):
    if got.shape != want.shape or got.dtype != want.dtype:
        return False
    d = np.abs(got.astype(np.int64) - want.astype(np.int64))
    if not loose:
        return bool((d == 0).all())
    return bool(d.max(initial=0) <= 1 and (d > 0).mean() <= 0.02)


def check(name, m, feeds, want, reference=True, ort=True):
    got = graphopt.Program(import_onnx(m)).run(list(feeds.values()))
    print(f"{'PASS' if all(same(g, w) for g, w in zip(got, want)) else 'FAIL'} "
          f"{name} vs numpy")
    if reference:
        ref = ReferenceEvaluator(m).run(None, feeds)
        ok = all(same(g, r) for g, r in zip(got, ref))
        print(f"{'PASS' if ok else 'FAIL'} {name} vs onnx.reference")
    if ort:
        try:
            import onnxruntime
        except ImportError:
            print(f"PASS {name} vs onnxruntime (not installed)")
            return
        s = onnxruntime.InferenceSession(m.SerializeToString(),
                                         providers=["CPUExecutionProvider"])
        ok = all(same(g, r, loose=True) for g, r in zip(got, s.run(None, feeds)))
        print(f"{'PASS' if ok else 'FAIL'} {name} vs onnxruntime")


def requantize(acc, multiplier, zp, qtype):
    info = np.iinfo(qtype)
    y = acc.astype(np.float64) * np.asarray(multiplier).astype(np.float64) + zp
    return np.clip(np.rint(y), info.min, info.max).astype(qtype)


def conv_int(x, w, stride, pad):
    """Integer 2-D convolution (NCHW, OIHW), zero padding, in int64."""
    x = np.pad(x.astype(np.int64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    oh, ow = (h - kh) // stride + 1, (wd - kw) // stride + 1
    y = np.zeros((n, o, oh, ow), np.int64)
    for i in range(kh):
        for j in range(kw):
            patch = x[:, :, i:i + stride * oh:stride, j:j + stride * ow:stride]
            y += np.einsum("nchw,oc->nohw", patch, w[:, :, i, j].astype(np.int64))
    return y


# MatMulInteger, uint8 A with per-row zero points, int8 B with per-column
# ones (the definition's broadcasting).
a = rng.integers(0, 256, (6, 40)).astype(np.uint8)
b = rng.integers(-128, 128, (40, 12)).astype(np.int8)
az = rng.integers(100, 156, 6).astype(np.uint8)
bz = rng.integers(-5, 6, 12).astype(np.int8)
m = model([helper.make_node("MatMulInteger", ["a", "b", "az", "bz"], ["y"])],
          [helper.make_tensor_value_info("a", TP.UINT8, [6, 40])],
          [helper.make_tensor_value_info("y", TP.INT32, [6, 12])],
          [const("b", b), const("az", az), const("bz", bz)])
want = (a.astype(np.int64) - az[:, None]) @ (b.astype(np.int64) - bz)
check("matmulinteger per-row/column", m, {"a": a}, [want.astype(np.int32)],
      reference=False, ort=False)

# ConvInteger, uint8 x (zero point 128), int8 weights with a zero point per
# output channel, padding 1, stride 2.
x = rng.integers(0, 256, (2, 8, 9, 9)).astype(np.uint8)
w = rng.integers(-128, 128, (16, 8, 3, 3)).astype(np.int8)
wz = rng.integers(-3, 4, 16).astype(np.int8)
m = model([helper.make_node("ConvInteger", ["x", "w", "xz", "wz"], ["y"],
                            pads=[1, 1, 1, 1], strides=[2, 2])],
          [helper.make_tensor_value_info("x", TP.UINT8, [2, 8, 9, 9])],
          [helper.make_tensor_value_info("y", TP.INT32, [2, 16, 5, 5])],
          [const("w", w), const("xz", np.uint8(128)), const("wz", wz)])
want = conv_int(x.astype(np.int64) - 128, w.astype(np.int64) - wz[:, None, None, None], 2, 1)
check("convinteger per-channel", m, {"x": x}, [want.astype(np.int32)], ort=False)

# QLinearConv as ONNX Runtime's QOperator quantizer writes it: uint8 x and
# y, int8 weights per output channel (zero points 0), an int32 bias,
# padding 1, stride 1.
x = rng.integers(0, 256, (1, 16, 12, 12)).astype(np.uint8)
w = rng.integers(-127, 128, (32, 16, 3, 3)).astype(np.int8)
ws = rng.uniform(0.002, 0.01, 32).astype(np.float32)
bias = rng.integers(-2000, 2000, 32).astype(np.int32)
xs, xz, ys, yz = np.float32(0.02), np.uint8(120), np.float32(0.15), np.uint8(10)
m = model([helper.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys",
                                            "yz", "bias"], ["y"], pads=[1, 1, 1, 1])],
          [helper.make_tensor_value_info("x", TP.UINT8, [1, 16, 12, 12])],
          [helper.make_tensor_value_info("y", TP.UINT8, [1, 32, 12, 12])],
          [const("xs", xs), const("xz", xz), const("w", w), const("ws", ws),
           const("wz", np.zeros(32, np.int8)), const("ys", ys), const("yz", yz),
           const("bias", bias)])
acc = conv_int(x.astype(np.int64) - 120, w, 1, 1) + bias[None, :, None, None]
mult = (xs * ws / ys).astype(np.float32)[None, :, None, None]
check("qlinearconv per-channel", m, {"x": x}, [requantize(acc, mult, 10, np.uint8)])

# QLinearMatMul, int8 a and y, per-tensor parameters, a batch of 3.
a = rng.integers(-128, 128, (3, 5, 24)).astype(np.int8)
b = rng.integers(-128, 128, (24, 7)).astype(np.int8)
as_, az, bs, bz = np.float32(0.03), np.int8(-3), np.float32(0.02), np.int8(2)
ys, yz = np.float32(0.5), np.int8(-1)
m = model([helper.make_node("QLinearMatMul", ["a", "as", "az", "b", "bs", "bz",
                                              "ys", "yz"], ["y"])],
          [helper.make_tensor_value_info("a", TP.INT8, [3, 5, 24])],
          [helper.make_tensor_value_info("y", TP.INT8, [3, 5, 7])],
          [const("as", as_), const("az", az), const("b", b), const("bs", bs),
           const("bz", bz), const("ys", ys), const("yz", yz)])
acc = (a.astype(np.int64) + 3) @ (b.astype(np.int64) - 2)
check("qlinearmatmul batched", m, {"a": a},
      [requantize(acc, np.float32(as_ * bs / ys), -1, np.int8)])

# DynamicQuantizeLinear of a tensor that is all positive (its range starts
# at 0) and of a mixed one.
for name, lo, hi in (("positive", 0.5, 4.0), ("mixed", -2.5, 1.5)):
    x = rng.uniform(lo, hi, (4, 33)).astype(np.float32)
    m = model([helper.make_node("DynamicQuantizeLinear", ["x"], ["y", "s", "z"])],
              [helper.make_tensor_value_info("x", TP.FLOAT, [4, 33])],
              [helper.make_tensor_value_info("y", TP.UINT8, [4, 33]),
               helper.make_tensor_value_info("s", TP.FLOAT, []),
               helper.make_tensor_value_info("z", TP.UINT8, [])], [])
    mx, mn = np.float32(max(0.0, x.max())), np.float32(min(0.0, x.min()))
    s = np.float32((mx - mn) / np.float32(255))
    z = np.rint(np.clip(np.float32(0) - mn / s, 0, 255))
    y = np.clip(np.rint(x / s) + z, 0, 255).astype(np.uint8)
    got = graphopt.Program(import_onnx(m)).run([x])
    ok = same(got[0], y) and got[1] == s and got[2] == np.uint8(z)
    print(f"{'PASS' if ok else 'FAIL'} dynamicquantizelinear {name} vs numpy")
