"""ONNX FlexAttention (domain ai.onnx.preview) beyond the node suite's
shapes: grouped heads (8 query heads on 2 key/value heads) with a causal
score_mod (Trilu/Where on the scores), an ALiBi-like score_mod built from
constants, a prob_mod, float16 (softmax in f32) and double, against ONNX's
reference evaluator. Tolerances: f32 rtol 1e-5 / atol 1e-6 (sums of 64-96
products and a softmax; the order differs), f16 rtol/atol 2e-3 (the output
rounded once from f32), f64 1e-12. Then an invalid model (a score_mod that
changes the shape) and a domain the importer does not take: the import names
the node and the reason. Prints one line per case; flex-attention.test
checks them."""

import numpy as np
from onnx import TensorProto as TP, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

import graphopt
from graphopt.importer.onnx import import_onnx

ELEM = {np.dtype(np.float32): TP.FLOAT, np.dtype(np.float16): TP.FLOAT16,
        np.dtype(np.float64): TP.DOUBLE}


def mod_graph(name, nodes, elem, shape, inits=(), out_shape=None):
    return helper.make_graph(
        nodes, name, [helper.make_tensor_value_info("s", elem, shape)],
        [helper.make_tensor_value_info("o", elem, out_shape or shape)], list(inits))


def model(q, k, v, domain="ai.onnx.preview", **attrs):
    node = helper.make_node("FlexAttention", ["Q", "K", "V"], ["Y"], domain=domain, **attrs)
    elem = ELEM[q.dtype]
    g = helper.make_graph(
        [node], "flex",
        [helper.make_tensor_value_info(n, elem, list(x.shape)) for n, x in
         (("Q", q), ("K", k), ("V", v))],
        [helper.make_tensor_value_info("Y", elem, None)])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 26),
                                               helper.make_opsetid(domain, 1)])


rng = np.random.default_rng(0)


def rand(*shape, dtype=np.float32):
    return rng.standard_normal(shape).astype(dtype)


def check(name, q, k, v, rtol, atol, **attrs):
    m = model(q, k, v, **attrs)
    want = ReferenceEvaluator(m).run(None, {"Q": q, "K": k, "V": v})[0]
    got = graphopt.Program(import_onnx(m)).run([q, k, v])[0]
    err = float(np.max(np.abs(got.astype(np.float64) - want.astype(np.float64))))
    ok = got.dtype == want.dtype and got.shape == want.shape and \
        np.allclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol)
    print(f"{'PASS' if ok else 'FAIL'} {name}: max error {err:.2e}", flush=True)


B, HQ, HKV, L, S, E, EV = 2, 8, 2, 24, 40, 16, 12
shape = [B, HQ, L, S]
neg = numpy_helper.from_array(np.array(-np.inf, np.float32), "neg")
causal = mod_graph("causal", [
    helper.make_node("Trilu", ["s", "k"], ["t"], upper=0),
    helper.make_node("Equal", ["t", "s"], ["keep"]),
    helper.make_node("Where", ["keep", "s", "neg"], ["o"])], TP.FLOAT, shape,
    [neg, numpy_helper.from_array(np.array(S - L, np.int64), "k")])
check("GQA 8/2, causal score_mod (Trilu + Where)", rand(B, HQ, L, E), rand(B, HKV, S, E),
      rand(B, HKV, S, EV), 1e-5, 1e-6, score_mod=causal)
slopes = (2.0 ** -np.arange(1, HQ + 1)).reshape(1, HQ, 1, 1).astype(np.float32)
dist = (np.arange(S)[None, :] - np.arange(L)[:, None]).astype(np.float32)
alibi = mod_graph("alibi", [
    helper.make_node("Mul", ["slopes", "dist"], ["bias"]),
    helper.make_node("Add", ["s", "bias"], ["o"])], TP.FLOAT, shape,
    [numpy_helper.from_array(slopes, "slopes"), numpy_helper.from_array(dist, "dist")])
check("ALiBi score_mod from constants, scale 0.1", rand(B, HQ, L, E), rand(B, HQ, S, E),
      rand(B, HQ, S, EV), 1e-5, 1e-6, score_mod=alibi, scale=0.1)
sharpen = mod_graph("sharpen", [
    helper.make_node("Mul", ["s", "s"], ["sq"]),
    helper.make_node("ReduceSum", ["sq", "axes"], ["z"], keepdims=1),
    helper.make_node("Div", ["sq", "z"], ["o"])], TP.FLOAT, shape,
    [numpy_helper.from_array(np.array([3], np.int64), "axes")])
check("prob_mod (squared, renormalized)", rand(B, HQ, L, E), rand(B, HQ, S, E),
      rand(B, HQ, S, EV), 1e-5, 1e-6, prob_mod=sharpen)
check("float16 (softmax in f32)", rand(1, 4, 32, 64, dtype=np.float16),
      rand(1, 4, 48, 64, dtype=np.float16), rand(1, 4, 48, 32, dtype=np.float16), 2e-3, 2e-3)
check("double", rand(1, 2, 8, 8, dtype=np.float64), rand(1, 2, 8, 8, dtype=np.float64),
      rand(1, 2, 8, 8, dtype=np.float64), 1e-12, 1e-12)


def refused(name, m):
    try:
        import_onnx(m)
        print(f"FAIL {name}: imported")
    except Exception as e:  # graphopt's report of unsupported nodes
        print(f"REFUSED {name}: {str(e).splitlines()[-1].strip()}")


shrink = mod_graph("shrink", [
    helper.make_node("ReduceMax", ["s", "axes"], ["o"], keepdims=1)], TP.FLOAT, [1, 2, 4, 6],
    [numpy_helper.from_array(np.array([3], np.int64), "axes")], out_shape=[1, 2, 4, 1])
q, k, v = rand(1, 2, 4, 8), rand(1, 2, 6, 8), rand(1, 2, 6, 8)
refused("score_mod changing the shape", model(q, k, v, score_mod=shrink))
refused("another domain", model(q, k, v, domain="com.example"))
