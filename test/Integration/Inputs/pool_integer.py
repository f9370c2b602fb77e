"""Random integer max pools (ui8, i8, i16, i32; kernels 1x1 to 5x5, strides
1-2, paddings up to half the kernel, dilations 1-2, images up to 3 x 24 x
300) through graph-run against a NumPy reference, compared exactly. The
shapes reach lib/Codegen/CPUConv.cpp's vectorizeWindowOp for integers
(64 lanes of 8 bits with 512-bit vectors; padding read through, masked last
chunks, rows in compile-time and loop blocks) and, past 16 vectors per row,
the generic path. Usage: pool_integer.py GRAPH_RUN DIR SEED COUNT; prints
one line per case and a summary."""
import os
import subprocess
import sys

import numpy as np

graph_run, out_dir, seed, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
os.makedirs(out_dir, exist_ok=True)
rng = np.random.default_rng(seed)
TYPES = {"ui8": np.uint8, "i8": np.int8, "i16": np.int16, "i32": np.int32}


def reference(x, k, s, p, d):
    """Max over each window; padding never wins (the type's minimum)."""
    n, c, h, w = x.shape
    low = np.iinfo(x.dtype).min
    xp = np.full((n, c, h + p[0] + p[2], w + p[1] + p[3]), low, x.dtype)
    xp[:, :, p[0]:p[0] + h, p[1]:p[1] + w] = x
    oh = (xp.shape[2] - d[0] * (k[0] - 1) - 1) // s[0] + 1
    ow = (xp.shape[3] - d[1] * (k[1] - 1) - 1) // s[1] + 1
    out = np.full((n, c, oh, ow), low, x.dtype)
    for i in range(k[0]):
        for j in range(k[1]):
            r0, c0 = i * d[0], j * d[1]
            out = np.maximum(out, xp[:, :, r0:r0 + s[0] * (oh - 1) + 1:s[0],
                                     c0:c0 + s[1] * (ow - 1) + 1:s[1]])
    return out


failures = 0
done = 0
while done < count:
    t = rng.choice(list(TYPES))
    k = (int(rng.integers(1, 6)), int(rng.integers(1, 6)))
    s = (int(rng.integers(1, 3)), int(rng.integers(1, 3)))
    d = (int(rng.choice([1, 1, 2])), int(rng.choice([1, 1, 2])))
    p = tuple(int(rng.integers(0, k[i % 2] // 2 + 1)) for i in range(4))
    shape = (int(rng.integers(1, 3)), int(rng.integers(1, 4)),
             int(rng.integers(1, 25)), int(rng.choice([int(rng.integers(1, 80)), 300])))
    if (shape[2] + p[0] + p[2] - d[0] * (k[0] - 1) < 1
            or shape[3] + p[1] + p[3] - d[1] * (k[1] - 1) < 1):
        continue
    info = np.iinfo(TYPES[t])
    x = rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=TYPES[t])
    r = reference(x, k, s, p, d)
    dims = "x".join(map(str, shape))
    odims = "x".join(map(str, r.shape))
    base = os.path.join(out_dir, f"case{done}")
    with open(base + ".mlir", "w") as f:
        f.write(f"""func.func @main(%x: tensor<{dims}x{t}>) -> tensor<{odims}x{t}> {{
  %p = graph.max_pool2d %x {{kernel = array<i64: {k[0]}, {k[1]}>, strides = array<i64: {s[0]}, {s[1]}>, padding = array<i64: {p[0]}, {p[1]}, {p[2]}, {p[3]}>, dilations = array<i64: {d[0]}, {d[1]}>}} : (tensor<{dims}x{t}>) -> tensor<{odims}x{t}>
  return %p : tensor<{odims}x{t}>
}}
""")
    np.save(base + "_x.npy", x)
    np.save(base + "_ref.npy", r)
    run = subprocess.run([graph_run, base + ".mlir", f"--input=@{base}_x.npy",
                          f"--expected-output=@{base}_ref.npy", "--atol=0", "--rtol=0",
                          "--quiet"], capture_output=True, text=True)
    ok = run.returncode == 0
    failures += not ok
    print(f"{'ok  ' if ok else 'FAIL'} case {done}: {t} {dims} kernel {k} strides {s} "
          f"padding {p} dilations {d}" + ("" if ok else ": " + (run.stdout + run.stderr)[-300:]))
    done += 1
print(f"{count - failures} of {count} integer max pools match NumPy")
sys.exit(1 if failures else 0)
