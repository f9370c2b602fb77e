"""ONNX DFT with inverse=1, onesided=1 (IRFFT) against numpy.fft.irfft in
float64: the default length 2 (m - 1), odd and longer lengths (the half
spectrum zero-padded) and a shorter one (truncated), on a middle axis,
opsets 17 (axis attribute) and 20 (axis input). graphopt computes in f64
and rounds once to f32: rtol 1e-5, atol 1e-6. Prints one line per case;
irfft.test checks them."""

import numpy as np
from onnx import TensorProto as TP, helper, numpy_helper

import graphopt
from graphopt.importer.onnx import import_onnx


def model(shape, length, axis, opset):
    inputs, inits, attrs = ["x"], [], {"inverse": 1, "onesided": 1}
    if length is not None:
        inputs.append("n")
        inits.append(numpy_helper.from_array(np.array(length, np.int64), "n"))
    if opset >= 20:
        if length is None:
            inputs.append("")
        inputs.append("axis")
        inits.append(numpy_helper.from_array(np.array(axis, np.int64), "axis"))
    else:
        attrs["axis"] = axis
    g = helper.make_graph([helper.make_node("DFT", inputs, ["y"], **attrs)], "irfft",
                          [helper.make_tensor_value_info("x", TP.FLOAT, list(shape))],
                          [helper.make_tensor_value_info("y", TP.FLOAT, None)], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])


rng = np.random.default_rng(0)
for shape, length, axis, opset in [((2, 9, 2), None, 1, 17), ((2, 9, 2), 15, 1, 20),
                                   ((3, 9, 4, 2), 20, 1, 20), ((2, 9, 2), 6, 1, 17),
                                   ((4, 5, 7, 2), None, 2, 20)]:
    x = rng.standard_normal(shape).astype(np.float32)
    spectrum = x[..., 0].astype(np.float64) + 1j * x[..., 1].astype(np.float64)
    want = np.fft.irfft(spectrum, n=length, axis=axis)[..., None]
    got = graphopt.Program(import_onnx(model(shape, length, axis, opset))).run([x])[0]
    ok = got.shape == want.shape and np.allclose(got, want, rtol=1e-5, atol=1e-6)
    err = float(np.max(np.abs(got - want))) if got.shape == want.shape else float("inf")
    print(f"{'PASS' if ok else 'FAIL'} shape {list(shape)} length {length} axis {axis} "
          f"opset {opset}: {list(got.shape)}, max error {err:.1e}", flush=True)
