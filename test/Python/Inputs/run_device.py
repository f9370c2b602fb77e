# Program.run_device (graphopt_program_run_device): a CUDA program called on
# device memory, with no copy through the host. Under the emulated driver,
# device memory is host memory, so NumPy arrays' addresses stand for device
# pointers; the driver's trace counts the copies: one device-to-device copy
# per result, no upload of an input, no download. On a GPU the same call
# takes torch CUDA tensors (bench/gpu_check.py checks that, and
# graphopt.compile(..., target="cuda") called with CUDA tensors).
import os
import sys

import numpy as np

os.environ["GRAPHOPT_CUDA_EMULATOR_TRACE"] = "1"
from graphopt import _native  # noqa: E402

text = """func.func @main(%x: tensor<4x12x197x197xf32>, %y: tensor<4x12x197x197xf32>) -> (tensor<4x12x197x197xf32>, tensor<4x12x197xf32>) {
  %r = graph.add %x, %y : tensor<4x12x197x197xf32>, tensor<4x12x197x197xf32> -> tensor<4x12x197x197xf32>
  %s = graph.reduce sum %r axes = [3] : tensor<4x12x197x197xf32> -> tensor<4x12x197xf32>
  return %r, %s : tensor<4x12x197x197xf32>, tensor<4x12x197xf32>
}"""
p = _native.Program(text, target="cuda", cuda_emulate=True)
rng = np.random.default_rng(0)
x = rng.standard_normal((4, 12, 197, 197)).astype(np.float32)
y = rng.standard_normal(x.shape).astype(np.float32)
o0, o1 = np.zeros_like(x), np.full((4, 12, 197), np.nan, np.float32)


def dev(a):
    return (a.ctypes.data, a.dtype, a.shape)


sys.stdout.flush()
# The driver's trace goes to stderr: counted around the call.
r, w = os.pipe()
saved = os.dup(2)
os.dup2(w, 2)
p.run_device([dev(x), dev(y)], [dev(o0), dev(o1)])
os.dup2(saved, 2)
os.close(w)
trace = os.read(r, 1 << 20).decode()
copies = trace.count("cuMemcpyAsync")
# CHECK: copies 2
print("copies", copies)
# Tolerances: the sum's f32 order differs from NumPy's (float64 reference).
# CHECK: sum matches True
print("sum matches", np.array_equal(o0, x + y))
# CHECK: row sums match True
print("row sums match",
      np.allclose(o1, (x.astype(np.float64) + y).sum(-1), rtol=1e-4, atol=1e-3))

# Errors, each naming what is wrong; nothing is run.
misaligned = np.zeros(x.size + 1, np.float32)[1:].reshape(x.shape)
for what, ins, outs in [
        ("misaligned input", [dev(misaligned), dev(y)], [dev(o0), dev(o1)]),
        ("wrong output shape", [dev(x), dev(y)], [dev(o0), dev(o1[:, :, :5])]),
        ("wrong output dtype", [dev(x), dev(y)],
         [dev(o0), dev(o1.astype(np.float64))])]:
    try:
        p.run_device(ins, outs)
        print(what, "not refused")
    except _native.ExecutionError as e:
        print(what + ":", str(e).splitlines()[0])
# CHECK: misaligned input: @main: input 0 is at device address {{.*}}, not 16-byte aligned (a view at an offset into its buffer): pass a copy
# CHECK: wrong output shape: output 1: float32[4, 12, 5] given, the result is tensor<4x12x197xf32>
# CHECK: wrong output dtype: output 1: float64[4, 12, 197] given, the result is tensor<4x12x197xf32>

cpu = _native.Program(text)
try:
    cpu.run_device([dev(x), dev(y)], [dev(o0), dev(o1)])
except _native.ExecutionError as e:
    print("cpu:", str(e).splitlines()[0])
# CHECK: cpu: @main: device buffers are for CUDA programs (this one is for the CPU)
