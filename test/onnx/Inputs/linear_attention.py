"""ONNX LinearAttention (opset 27) at shapes beyond the node suite's: a
33-step prefill with grouped query heads, per-key-dim decay and a past
state; multi-query delta with a scalar beta; the plain linear rule in
float16; one decode step. Checked against ONNX's reference evaluator
(onnx.reference, which runs the recurrence in NumPy). The sums are of
T * d_k f32 products in the same order: rtol 1e-4 and atol 1e-5 (f32),
rtol 2e-3 and atol 2e-3 for float16 (an f16 ulp at 1 is 1e-3, and the
output is rounded once from f32). Then invalid models: the import names
the op and what is wrong. Prints one line per case; linear-attention.test
checks them."""

import numpy as np
from onnx import TensorProto as TP, helper
from onnx.reference import ReferenceEvaluator

import graphopt
from graphopt.importer.onnx import import_onnx

ELEM = {np.dtype(np.float32): TP.FLOAT, np.dtype(np.float16): TP.FLOAT16}


def model(inputs, **attrs):
    """A LinearAttention model over ``inputs`` (name -> array; absent
    optional inputs are None)."""
    order = ["query", "key", "value", "past_state", "decay", "beta"]
    names = [n if inputs.get(n) is not None else "" for n in order]
    while names and names[-1] == "":
        names.pop()
    node = helper.make_node("LinearAttention", names, ["output", "present_state"], **attrs)
    ins = [helper.make_tensor_value_info(n, ELEM[inputs[n].dtype], list(inputs[n].shape))
           for n in names if n]
    outs = [helper.make_tensor_value_info("output", ELEM[inputs["query"].dtype], None),
            helper.make_tensor_value_info("present_state", ELEM[inputs["query"].dtype], None)]
    g = helper.make_graph([node], "linear_attention", ins, outs)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 27)]), \
        [inputs[n] for n in names if n]


rng = np.random.default_rng(0)


def rand(*shape, dtype=np.float32, scale=0.5):
    return (rng.standard_normal(shape) * scale).astype(dtype)


def l2(x, heads):
    b, t, w = x.shape
    y = x.reshape(b, t, heads, w // heads)
    return (y / np.linalg.norm(y, axis=-1, keepdims=True)).reshape(b, t, w).astype(x.dtype)


def check(name, inputs, rtol, atol, **attrs):
    m, args = model(inputs, **attrs)
    want = ReferenceEvaluator(m).run(None, dict(zip([i.name for i in m.graph.input], args)))
    got = graphopt.Program(import_onnx(m)).run(args)
    ok = True
    for g, w in zip(got, want):
        ok &= g.dtype == w.dtype and g.shape == w.shape and \
            np.allclose(g.astype(np.float64), w.astype(np.float64), rtol=rtol, atol=atol)
    err = max(float(np.max(np.abs(g.astype(np.float64) - w.astype(np.float64))))
              for g, w in zip(got, want))
    print(f"{'PASS' if ok else 'FAIL'} {name}: max error {err:.2e}", flush=True)


B, T, HQ, HKV, DK, DV = 2, 33, 4, 2, 8, 6
check("gated_delta prefill, GQA 4/2, per-key decay, past state", {
    "query": rand(B, T, HQ * DK), "key": l2(rand(B, T, HKV * DK), HKV),
    "value": rand(B, T, HKV * DV), "past_state": rand(B, HKV, DK, DV),
    "decay": -np.abs(rand(B, T, HKV * DK, scale=0.1)),
    "beta": (1 / (1 + np.exp(-rand(B, T, HKV)))).astype(np.float32)},
    1e-4, 1e-5, q_num_heads=HQ, kv_num_heads=HKV, update_rule="gated_delta")
check("delta, MQA 4/1, scalar beta, explicit scale", {
    "query": rand(1, 17, 4 * DK), "key": l2(rand(1, 17, DK), 1), "value": rand(1, 17, DV),
    "beta": np.full((1, 17, 1), 0.7, np.float32)},
    1e-4, 1e-5, q_num_heads=4, kv_num_heads=1, update_rule="delta", scale=0.25)
check("gated, per-head decay", {
    "query": rand(B, 9, HKV * DK), "key": rand(B, 9, HKV * DK), "value": rand(B, 9, HKV * DV),
    "decay": -np.abs(rand(B, 9, HKV, scale=0.3))},
    1e-4, 1e-5, q_num_heads=HKV, kv_num_heads=HKV, update_rule="gated")
check("linear, float16", {
    "query": rand(1, 12, 2 * DK, dtype=np.float16), "key": rand(1, 12, 2 * DK, dtype=np.float16),
    "value": rand(1, 12, 2 * DV, dtype=np.float16)},
    2e-3, 2e-3, q_num_heads=2, kv_num_heads=2, update_rule="linear")
check("gated_delta decode step (T = 1)", {
    "query": rand(B, 1, HQ * DK), "key": l2(rand(B, 1, HKV * DK), HKV),
    "value": rand(B, 1, HKV * DV), "past_state": rand(B, HKV, DK, DV),
    "decay": -np.abs(rand(B, 1, HKV, scale=0.1)), "beta": np.full((B, 1, HKV), 0.5, np.float32)},
    1e-4, 1e-5, q_num_heads=HQ, kv_num_heads=HKV)


def refused(name, inputs, **attrs):
    m, _ = model(inputs, **attrs)
    try:
        import_onnx(m)
        print(f"FAIL {name}: imported")
    except Exception as e:  # graphopt's report of unsupported nodes
        print(f"REFUSED {name}: {str(e).splitlines()[-1].strip()}")


q, k, v = rand(1, 4, 2 * DK), rand(1, 4, 2 * DK), rand(1, 4, 2 * DV)
refused("gated without decay", {"query": q, "key": k, "value": v},
        q_num_heads=2, kv_num_heads=2, update_rule="gated")
refused("linear with beta", {"query": q, "key": k, "value": v,
                             "beta": np.ones((1, 4, 2), np.float32)},
        q_num_heads=2, kv_num_heads=2, update_rule="linear")
refused("heads not dividing", {"query": q, "key": k, "value": v},
        q_num_heads=3, kv_num_heads=2, update_rule="linear")
refused("past state of the wrong shape", {"query": q, "key": k, "value": v,
                                          "past_state": rand(1, 2, DK, DV + 1)},
        q_num_heads=2, kv_num_heads=2, update_rule="linear")
