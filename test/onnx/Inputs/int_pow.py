"""ONNX Pow with integer bases against NumPy: int32 and int64 bases with
integer exponents (exponentiation by squaring; NumPy's wrapping on
overflow; negative exponents give 1 / x^-e truncated toward zero, which
NumPy refuses: checked against Python's integers) and with float exponents
(f64 pow truncated to the base's type; non-negative bases, as a negative
base's non-integer power is NaN). Exact. Prints one line per case;
int-pow.test checks them."""

import numpy as np
from onnx import TensorProto as TP, helper

import graphopt
from graphopt.importer.onnx import import_onnx

ELEM = {np.dtype(np.int32): TP.INT32, np.dtype(np.int64): TP.INT64,
        np.dtype(np.float32): TP.FLOAT}


def model(x, y):
    g = helper.make_graph(
        [helper.make_node("Pow", ["x", "y"], ["z"])], "pow",
        [helper.make_tensor_value_info("x", ELEM[x.dtype], list(x.shape)),
         helper.make_tensor_value_info("y", ELEM[y.dtype], list(y.shape))],
        [helper.make_tensor_value_info("z", ELEM[x.dtype], None)])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 15)])


def reference(x, y):
    out = []
    for a, e in zip(x.ravel().tolist(), y.ravel().tolist()):
        if isinstance(e, float):
            v = int(np.trunc(np.power(np.float64(a), np.float64(e))))
        elif e >= 0:
            bits = 8 * x.dtype.itemsize
            v = pow(a, e, 1 << bits)
            v = v - (1 << bits) if v >= 1 << (bits - 1) else v
        else:
            v = 1 if a == 1 else ((-1 if e % 2 else 1) if a == -1 else 0)
        out.append(v)
    return np.array(out, dtype=x.dtype).reshape(x.shape)


rng = np.random.default_rng(0)
count = 0
for dt in (np.int32, np.int64):
    x = rng.integers(-9, 10, (6, 7)).astype(dt)
    x[0, :3] = [1, -1, 0]
    for name, y in [("small", rng.integers(0, 6, (6, 7)).astype(dt)),
                    ("overflowing", rng.integers(20, 70, (6, 7)).astype(dt)),
                    ("negative", rng.integers(-3, 3, (6, 7)).astype(dt)),
                    ("broadcast", np.array([3], dt)),
                    ("float", rng.uniform(0, 4, (6, 7)).astype(np.float32))]:
        if name == "float":  # a negative base's non-integer power is NaN
            x = np.abs(x)
        got = graphopt.Program(import_onnx(model(x, y))).run([x, y])[0]
        want = reference(x, np.broadcast_to(y, x.shape))
        ok = got.dtype == want.dtype and np.array_equal(got, want)
        print(f"{'PASS' if ok else 'FAIL'} {np.dtype(dt).name} {name}", flush=True)
        count += 1
print(f"{count} cases checked")
