"""The ai.onnx.preview.training optimizers against their formulas written
out in NumPy (float64, rounded to f32), at the first step (T = 0: Adam
uses the learning rate as given, Momentum's beta counts as 1) and a later
one (T = 5), with regularization, two tensors per node. rtol 1e-5, atol
1e-6 (a few f32 operations per element). Prints one line per case;
optimizers.test checks them."""

import numpy as np
from onnx import TensorProto as TP, helper

import graphopt
from graphopt.importer.onnx import import_onnx

DOMAIN = "ai.onnx.preview.training"


def model(op, names, outs, **attrs):
    shapes = {"R": [], "T": []}
    g = helper.make_graph(
        [helper.make_node(op, names, outs, domain=DOMAIN, **attrs)], op,
        [helper.make_tensor_value_info(nm, TP.INT64 if nm == "T" else TP.FLOAT,
                                       shapes.get(nm, [3, 4] if nm.endswith("1") else [5]))
         for nm in names],
        [helper.make_tensor_value_info(o, TP.FLOAT, None) for o in outs])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17),
                                               helper.make_opsetid(DOMAIN, 1)])


rng = np.random.default_rng(0)
r = np.array(0.1, np.float32)


def tensors(*names):
    return {nm: rng.standard_normal([3, 4] if nm.endswith("1") else [5]).astype(np.float32)
            for nm in names}


def run(op, names, outs, feeds, want, **attrs):
    got = graphopt.Program(import_onnx(model(op, names, outs, **attrs))).run(
        [feeds[nm] for nm in names])
    ok = all(np.allclose(g, w.astype(np.float32), rtol=1e-5, atol=1e-6)
             for g, w in zip(got, want))
    t = int(feeds["T"])
    print(f"{'PASS' if ok else 'FAIL'} {op} {attrs.get('mode', '')} T={t}".replace("  ", " "),
          flush=True)


for t in (0, 5):
    T = np.array(t, np.int64)
    # Adagrad
    f = dict(R=r, T=T, **tensors("X1", "X2", "G1", "G2"),
             H1=np.abs(rng.standard_normal((3, 4))).astype(np.float32),
             H2=np.abs(rng.standard_normal(5)).astype(np.float32))
    want = {}
    for i in "12":
        x, g, h = (f[k + i].astype(np.float64) for k in "XGH")
        gr = 0.01 * x + g
        h2 = h + gr * gr
        want["X" + i] = x - 0.1 / (1 + t * 0.1) * gr / (np.sqrt(h2) + 1e-6)
        want["H" + i] = h2
    run("Adagrad", ["R", "T", "X1", "X2", "G1", "G2", "H1", "H2"],
        ["X1n", "X2n", "H1n", "H2n"], f, [want[k] for k in ("X1", "X2", "H1", "H2")],
        decay_factor=0.1, epsilon=1e-6, norm_coefficient=0.01)
    # Adam
    f = dict(R=r, T=T, **tensors("X1", "X2", "G1", "G2", "V1", "V2"),
             H1=np.abs(rng.standard_normal((3, 4))).astype(np.float32),
             H2=np.abs(rng.standard_normal(5)).astype(np.float32))
    a, bt = 0.9, 0.99
    rate = 0.1 * np.sqrt(1 - bt ** t) / (1 - a ** t) if t > 0 else 0.1
    for i in "12":
        x, g, v, h = (f[k + i].astype(np.float64) for k in "XGVH")
        gr = 0.02 * x + g
        v2, h2 = a * v + (1 - a) * gr, bt * h + (1 - bt) * gr * gr
        want["X" + i] = (1 - 0.05) * (x - rate * v2 / (np.sqrt(h2) + 1e-4))
        want["V" + i], want["H" + i] = v2, h2
    run("Adam", ["R", "T", "X1", "X2", "G1", "G2", "V1", "V2", "H1", "H2"],
        ["X1n", "X2n", "V1n", "V2n", "H1n", "H2n"], f,
        [want[k] for k in ("X1", "X2", "V1", "V2", "H1", "H2")],
        alpha=a, beta=bt, epsilon=1e-4, norm_coefficient=0.02, norm_coefficient_post=0.05)
    # Momentum, both modes
    for mode in ("standard", "nesterov"):
        f = dict(R=r, T=T, **tensors("X1", "X2", "G1", "G2", "V1", "V2"))
        beta = 0.7 if t > 0 else 1.0
        for i in "12":
            x, g, v = (f[k + i].astype(np.float64) for k in "XGV")
            gr = 0.03 * x + g
            v2 = 0.8 * v + beta * gr
            want["X" + i] = x - 0.1 * (v2 if mode == "standard" else gr + 0.8 * v2)
            want["V" + i] = v2
        run("Momentum", ["R", "T", "X1", "X2", "G1", "G2", "V1", "V2"],
            ["X1n", "X2n", "V1n", "V2n"], f, [want[k] for k in ("X1", "X2", "V1", "V2")],
            alpha=0.8, beta=0.7, mode=mode, norm_coefficient=0.03)
