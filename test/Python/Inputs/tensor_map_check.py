"""The runtime's TMA tensor maps and their emulation, checked directly
(test/Python/tensor-map.test): graphopt_cuda_tensor_map_f16 over the
emulated driver (its cache, its errors), and graphoptEmuTensorLoad's box
copy (128-byte swizzle on the destination's address bits, zeros outside
the tensor) against a NumPy model written from the PTX ISA's description.
"""
import ctypes
import os
import subprocess
import sys

import numpy as np

BUILD = os.environ["GRAPHOPT_BUILD_DIR"]
rt = ctypes.CDLL(os.path.join(BUILD, "lib", "libGraphOptCUDARuntime.so"))
rt.graphoptCudaUseDriver.argtypes = [ctypes.c_char_p]
rt.graphoptCudaGetError.restype = ctypes.c_char_p
rt.graphoptCudaSetErrorPrinting(0)
assert rt.graphoptCudaUseDriver(
    os.path.join(BUILD, "lib", "libGraphOptCUDAEmulator.so").encode()) == 0
assert rt.graphoptCudaInit(0) == 0
tmap = rt.graphopt_cuda_tensor_map_f16
tmap.restype = ctypes.c_void_p
tmap.argtypes = [ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64]


def descriptor(a, offset=0, shape=None, strides=None):
    """MLIR's ranked memref descriptor of `a` (element strides)."""
    shape = list(shape or a.shape)
    strides = list(strides or [s // a.itemsize for s in a.strides])
    words = [a.ctypes.data, a.ctypes.data, offset] + shape + strides
    return (ctypes.c_int64 * len(words))(*words)


def error():
    e = rt.graphoptCudaGetError()
    rt.graphoptCudaClearError()
    return e.decode() if e else ""


# A 256 x 128 f16 matrix (16-byte aligned: NumPy aligns to 16 or more).
a = np.arange(256 * 128, dtype=np.float16).reshape(256, 128)
assert a.ctypes.data % 16 == 0
d = descriptor(a)
m1 = tmap(2, d, 64, 128)
m2 = tmap(2, descriptor(a), 64, 128)
m3 = tmap(2, descriptor(a), 64, 64)
print("map:", m1 is not None, "cached:", m1 == m2, "other box:", m3 != m1)
# CHECK: map: True cached: True other box: True
# The emulated map's fields (EmulatedTensorMap.h): magic, rank, element
# bytes, swizzle, address, dims and box innermost first, byte strides.
words = (ctypes.c_uint32 * 32).from_address(m1)
addr = (ctypes.c_uint64 * 1).from_address(m1 + 16)[0]
stride = (ctypes.c_uint64 * 1).from_address(m1 + 64)[0]
print("fields:", hex(words[0]), words[1], words[2], words[3],
      addr == a.ctypes.data, list(words[6:8]), list(words[11:13]), stride)
# CHECK: fields: 0x474f544d 2 2 128 True [128, 256] [64, 128] 256

# A view 1 element in (2 bytes: not 16-byte aligned): no map, an error
# naming the shape and strides.
print("misaligned:", tmap(2, descriptor(a, offset=1, shape=[255, 128]), 64, 128))
print(error())
# CHECK: misaligned: None
# CHECK: cuTensorMapEncodeTiled failed (CUDA_ERROR_INVALID_VALUE) for a 255x128 tensor at {{.*}} with byte strides [256, 2] (TMA copies need a 16-byte aligned address and strides that are multiples of 16 bytes)
# Rows 100 elements apart (200 bytes).
print("stride:", tmap(2, descriptor(a, shape=[200, 100], strides=[100, 1]), 64, 128))
print(error())
# CHECK: stride: None
# CHECK: for a 200x100 tensor at {{.*}} with byte strides [200, 2]
# A last dim that is not contiguous.
print("columns:", tmap(2, descriptor(a, shape=[128, 256], strides=[1, 128]), 64, 128))
print(error())
# CHECK: columns: None
# CHECK: TMA tensor map of a rank-2 view whose last dim is not contiguous

# graphoptEmuTensorLoad: box (64, 16) at coordinates (x0, y0) of a 40 x 100
# tensor (rows 104 elements, 208 bytes, apart: a view of a 40 x 104 array)
# into a 1024-byte aligned buffer (and 384 bytes past one), against the
# model: element (r, c) of the box is tensor[y0 + r, x0 + c] (0 outside),
# in box row r's 128 bytes, its 16-byte chunk k = 2 c / 16 moved to chunk
# k ^ (line % 8), line the row's 128-byte line in the 1024-byte period.
t = np.random.default_rng(0).standard_normal((40, 104)).astype(np.float16)
m = tmap(2, descriptor(t, shape=[40, 100]), 64, 16)
print("map of t:", m is not None, error() == "")
if m is None:
    sys.exit(1)
# CHECK: map of t: True True
init = rt.graphoptEmuMbarrierInit
arrive = rt.graphoptEmuMbarrierArriveExpectTx
wait = rt.graphoptEmuMbarrierWaitParity
load = rt.graphoptEmuTensorLoad
load.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_int32] * 6
raw = np.zeros(4096 + 1024, dtype=np.uint8)
base = (-raw.ctypes.data) % 1024
bar = np.zeros(1, dtype=np.uint64)
ok = True
for x0, y0, shift in ((0, 0, 0), (48, 30, 0), (-8, -3, 0), (64, 10, 384)):
    dst = raw[base + shift:base + shift + 2048]
    dst[:] = 0xAB
    init(ctypes.c_void_p(bar.ctypes.data), 1)
    arrive(ctypes.c_void_p(bar.ctypes.data), 2048)
    load(dst.ctypes.data, m, bar.ctypes.data, 2, x0, y0, 0, 0, 0)
    # The phase completed (one arrival, 2048 bytes): parity 0 is done.
    wait(ctypes.c_void_p(bar.ctypes.data), 0)
    want = np.zeros(2048, dtype=np.uint8)
    for r in range(16):
        for c in range(64):
            y, x = y0 + r, x0 + c
            v = t[y, x] if 0 <= y < 40 and 0 <= x < 100 else np.float16(0)
            # Row r lies in 128-byte line r + shift / 128 of the 1024-byte
            # period; its 16-byte chunk k goes to chunk k ^ (line % 8).
            line = r + shift // 128
            at = r * 128 + (((2 * c) // 16) ^ (line % 8)) * 16 + (2 * c) % 16
            want[at:at + 2] = np.frombuffer(np.float16(v).tobytes(), np.uint8)
    same = np.array_equal(dst, want)
    ok &= same
    print("box at (%d, %d), destination +%d: %s" % (x0, y0, shift, same))
# CHECK: box at (0, 0), destination +0: True
# CHECK: box at (48, 30), destination +0: True
# CHECK: box at (-8, -3), destination +0: True
# CHECK: box at (64, 10), destination +384: True

# A wait on a phase that never completes stops the process with a message
# (the GPU would hang): expect 2048 bytes, deliver none.
code = r"""
import ctypes, os, numpy as np
rt = ctypes.CDLL(os.path.join(os.environ["GRAPHOPT_BUILD_DIR"], "lib", "libGraphOptCUDARuntime.so"))
bar = np.zeros(1, dtype=np.uint64)
rt.graphoptEmuMbarrierInit(ctypes.c_void_p(bar.ctypes.data), 1)
rt.graphoptEmuMbarrierArriveExpectTx(ctypes.c_void_p(bar.ctypes.data), 2048)
rt.graphoptEmuMbarrierWaitParity(ctypes.c_void_p(bar.ctypes.data), 0)
print("not reached")
"""
p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
print("hang: exit", p.returncode != 0, p.stdout.strip() == "", p.stderr.strip())
# CHECK: hang: exit True True graphopt CUDA emulation: mbarrier.try_wait.parity 0 would never return (phase incomplete: 0 arrivals and 2048 transaction bytes pending); on a GPU the kernel would hang
print("tensor_map_check:", "ok" if ok else "FAILED")
# CHECK: tensor_map_check: ok
