"""importer.test: import_onnx on a ModelProto, bytes and a path; the
UnsupportedOpsError records; a run compared with ONNX Runtime."""

import sys
from pathlib import Path

import numpy as np
import onnx
import onnxruntime

import graphopt
from graphopt.importer.errors import UnsupportedOpsError
from graphopt.importer.onnx import import_onnx

d = Path(sys.argv[1])
try:
    import_onnx(onnx.load(str(d / "unsupported.onnx")))
except UnsupportedOpsError as e:
    print("errors:", len(e.errors))
    for r in e.errors:
        if r.op == "Unique":
            print(r.op, r.node, r.reason)

path = d / "conv_reshape.onnx"
text = import_onnx(path.read_bytes())
assert text == import_onnx(path) == import_onnx(onnx.load(str(path)))
x = np.random.default_rng(0).standard_normal((3, 3, 8, 8)).astype(np.float32)
(got,) = graphopt.Program(text).run([x])
(want,) = onnxruntime.InferenceSession(str(path)).run(None, {"x": x})
print("result matches onnxruntime:", bool(np.allclose(got, want, rtol=1e-5, atol=1e-5)))

# Truncated bytes (not a path) are a ValueError too, not protobuf's
# DecodeError (found by scripts/fuzz_onnx.py).
try:
    import_onnx(path.read_bytes()[:100])
except ValueError as e:
    print("truncated bytes:", str(e).split(":")[0])
