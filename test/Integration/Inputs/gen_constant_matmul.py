#!/usr/bin/env python3
"""Writes OUTDIR/constant-matmul.mlir, matmuls whose weight is a constant
(a dense_resource blob) that the CUDA kernels' tiles do not divide, and for
each function OUTDIR/NAME/x0.npy (the input) and expected.npy (NumPy: the
product summed in float64, rounded once; f16 results via f32 as graph.matmul
rounds). Used by test/Integration/gpu-matmul-padded.mlir."""

import os
import sys

import numpy as np

CASES = [
    # name, dtype, x shape, w shape
    ("cp_f16_n", np.float16, (64, 512), (512, 200)),  # N 200 -> 256
    ("cp_f32_kn", np.float32, (200, 300), (300, 72)),  # K 300 -> 304, N 72
]

MLIR_TYPE = {np.float16: "f16", np.float32: "f32"}


def tensor(shape, dtype):
    return "tensor<%sx%s>" % ("x".join(map(str, shape)), MLIR_TYPE[dtype])


def main(out):
    rng = np.random.default_rng(20261207)
    funcs, blobs = [], []
    for name, dtype, xs, ws in CASES:
        x = rng.uniform(-1, 1, xs).astype(dtype)
        w = rng.uniform(-1, 1, ws).astype(dtype)
        y = (x.astype(np.float64) @ w.astype(np.float64)).astype(np.float32)
        os.makedirs(os.path.join(out, name), exist_ok=True)
        np.save(os.path.join(out, name, "x0.npy"), x)
        np.save(os.path.join(out, name, "expected.npy"), y.astype(dtype))
        xt, wt = tensor(xs, dtype), tensor(ws, dtype)
        yt = tensor((xs[0], ws[1]), dtype)
        funcs.append(f"""func.func @{name}(%x: {xt}) -> {yt} {{
  %w = graph.constant dense_resource<{name}_w> : {wt}
  %y = graph.matmul %x, %w : {xt}, {wt} -> {yt}
  return %y : {yt}
}}""")
        # A resource blob: its alignment (4 bytes, little endian), then data.
        blobs.append(f'      {name}_w: "0x04000000{w.tobytes().hex()}"')
    with open(os.path.join(out, "constant-matmul.mlir"), "w") as f:
        f.write("\n\n".join(funcs))
        f.write("\n\n{-#\n  dialect_resources: {\n    builtin: {\n")
        f.write(",\n".join(blobs))
        f.write("\n    }\n  }\n#-}\n")


if __name__ == "__main__":
    main(sys.argv[1])
