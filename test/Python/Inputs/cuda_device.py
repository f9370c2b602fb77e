"""The CUDA device is an explicit option (cuda_device=N) of graphopt.Program
and graphopt.compile, checked in one process through the emulated driver
(one device, 0): the device in use runs; another device is an error naming
both; a bad value is refused before compiling."""
import os
import sys

import numpy as np

import graphopt

text = open(os.path.join(os.path.dirname(__file__), "add.mlir")).read()
x = np.array([1, -2, 3, -4], np.float32)
y = np.array([10, 20, 30, 40], np.float32)

p = graphopt.Program(text, target="cuda", cuda_emulate=True, cuda_device=0)
(r,) = p.run([x, y])
np.testing.assert_array_equal(r, x + y)  # exact: one f32 add per element
print("device 0:", r.tolist())
# CHECK: device 0: [11.0, 18.0, 33.0, 36.0]

try:
    graphopt.Program(text, target="cuda", cuda_emulate=True, cuda_device=1)
    print("device 1: no error")
except graphopt.CompileError as e:
    print("device 1:", e)
# CHECK: device 1: CUDA device 1 requested, but this process already runs CUDA programs on device 0 (one device per process): run it in a separate process

for bad in (-1, True, "0"):
    try:
        graphopt.Program(text, target="cuda", cuda_emulate=True,
                         cuda_device=bad)
        print("bad", repr(bad), "accepted")
    except ValueError as e:
        print("bad", repr(bad), "->", e)
# CHECK: bad -1 -> cuda_device must be a device ordinal (0, 1, ...), got -1
# CHECK: bad True -> cuda_device must be a device ordinal (0, 1, ...), got True
# CHECK: bad '0' -> cuda_device must be a device ordinal (0, 1, ...), got '0'
sys.stdout.flush()
