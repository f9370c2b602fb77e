"""ONNX STFT against NumPy (numpy.fft.fft of each windowed frame, float64):
one-sided real signals with and without a Hann window, a frame length
shorter than the window's default (given as an input), and a two-sided
complex signal. graphopt computes in f64 and rounds once to f32: rtol 1e-5,
atol 1e-5 (sums of up to 64 products of O(1) values). Prints one line per
case; stft.test checks them."""

import numpy as np
from onnx import TensorProto as TP, helper, numpy_helper

import graphopt
from graphopt.importer.onnx import import_onnx


def model(shape, step, window, length, onesided):
    inputs = ["x", "step", "w" if window is not None else "", "n" if length else ""]
    while inputs[-1] == "":
        inputs.pop()
    inits = [numpy_helper.from_array(np.array(step, np.int64), "step")]
    if length:
        inits.append(numpy_helper.from_array(np.array(length, np.int64), "n"))
    ins = [helper.make_tensor_value_info("x", TP.FLOAT, list(shape))]
    if window is not None:
        ins.append(helper.make_tensor_value_info("w", TP.FLOAT, list(window.shape)))
    g = helper.make_graph([helper.make_node("STFT", inputs, ["y"], onesided=onesided)],
                          "stft", ins, [helper.make_tensor_value_info("y", TP.FLOAT, None)],
                          inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def reference(x, step, window, length, onesided):
    sig = x[..., 0].astype(np.float64)
    if x.shape[-1] == 2:
        sig = sig + 1j * x[..., 1].astype(np.float64)
    w = np.ones(length) if window is None else window.astype(np.float64)
    frames = 1 + (x.shape[1] - length) // step
    spec = np.stack([np.fft.fft(sig[:, f * step:f * step + length] * w, axis=-1)
                     for f in range(frames)], axis=1)
    if onesided:
        spec = spec[..., :length // 2 + 1]
    return np.stack([spec.real, spec.imag], axis=-1)


rng = np.random.default_rng(0)
hann = (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(64) / 64)).astype(np.float32)
for name, shape, step, window, length, onesided in [
        ("real, Hann window 64, step 16", (2, 256, 1), 16, hann, None, 1),
        ("real, no window, frame_length 20, step 7", (3, 100, 1), 7, None, 20, 1),
        ("complex, two-sided, window and frame_length 64, step 32", (1, 200, 2), 32, hann, 64, 0)]:
    x = rng.standard_normal(shape).astype(np.float32)
    n = length or (window.shape[0] if window is not None else shape[1])
    want = reference(x, step, window, n, onesided)
    args = [x] + ([window] if window is not None else [])
    got = graphopt.Program(import_onnx(model(shape, step, window, length, onesided))).run(args)[0]
    ok = got.shape == want.shape and np.allclose(got, want, rtol=1e-5, atol=1e-5)
    err = float(np.max(np.abs(got - want))) if got.shape == want.shape else float("inf")
    print(f"{'PASS' if ok else 'FAIL'} {name}: {list(got.shape)}, max error {err:.1e}",
          flush=True)
