"""The import cache (graphopt.compile(..., import_cache=True);
python/graphopt/import_cache.py): a compile in a new process reuses an
earlier import only when nothing the exported graph depends on changed.

Each case runs `graphopt.compile` in a fresh Python process (so nothing is
remembered in memory) with a temporary cache directory, on a model whose
code lives in files this script writes, and reports what the import cache
did; every compiled result is checked against eager PyTorch run in the same
process (rtol 1e-4, atol 1e-5: f32 sums in another order)."""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

MODEL = '''
import torch
import helper

SHIFT = 0.25


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(64, 32)
        self.scale = 2.0

    def forward(self, x):
        return helper.act(self.fc(x)) * self.scale + SHIFT
'''

HELPER = '''
import torch


def act(x):
    return torch.relu(x)
'''

CHILD = r'''
import json, sys
import numpy as np
import torch
import graphopt
import usermodel

variant = sys.argv[1]
torch.manual_seed(0)
model = usermodel.Net().eval()
x = torch.randn(4, 64)
options = {} if variant == "default-off" else {"import_cache": True}
if variant == "env":
    options = {}
if variant == "weights":
    with torch.no_grad():
        model.fc.weight += 0.5
if variant == "attribute":
    model.scale = 3.0
if variant == "global":
    usermodel.SHIFT = 1.5
if variant == "hook":
    model.fc.register_forward_hook(lambda m, i, o: o * 2)
if variant == "shape":
    x = torch.randn(8, 64)
if variant == "function":
    bias = torch.randn(32)
    def fn(a, w):
        return torch.tanh(a @ w + bias)
    w = torch.randn(64, 32)
    compiled = graphopt.compile(fn, (x, w), **options)
    got, ref = compiled(x, w), fn(x, w)
else:
    compiled = graphopt.compile(model, (x,), **options)
    with torch.no_grad():
        got, ref = compiled(x), model(x)
np.testing.assert_allclose(got.numpy(), ref.numpy(), rtol=1e-4, atol=1e-5)
if compiled.import_cache == "hit" and variant != "function":
    # The text of a reused import prints its constants too, and compiles to
    # the same program.
    text = compiled.mlir
    assert "dense_resource" not in text and 'dense<"0x' in text
    (again,) = graphopt.Program(text).run([x.numpy()])
    np.testing.assert_array_equal(again, got.numpy())
print(json.dumps({"import_cache": compiled.import_cache,
                  "cache": compiled.program.cache}))
'''

tmp = Path(tempfile.mkdtemp(prefix="graphopt-import-cache-"))
code = tmp / "code"
code.mkdir()
(code / "usermodel.py").write_text(MODEL)
(code / "helper.py").write_text(HELPER)
(code / "child.py").write_text(CHILD)
cache = tmp / "cache"
env = dict(os.environ, GRAPHOPT_CACHE_DIR=str(cache),
           PYTHONPATH=str(code) + os.pathsep + os.environ.get("PYTHONPATH", ""),
           PYTHONDONTWRITEBYTECODE="1")
env.pop("GRAPHOPT_IMPORT_CACHE", None)


def run(case, variant=None, extra_env=None):
    result = subprocess.run(
        [sys.executable, str(code / "child.py"), variant or case],
        env=dict(env, **(extra_env or {})), capture_output=True, text=True)
    if result.returncode != 0:
        print(result.stdout, result.stderr)
        raise SystemExit(f"{case}: the child failed")
    got = json.loads(result.stdout.strip().splitlines()[-1])
    print(f"{case}: import cache {got['import_cache']}, compile cache {got['cache']}")


def records():
    return sorted((cache / "imports").glob("*.json"))


run("default-off")
# CHECK: default-off: import cache None, compile cache stored
assert not (cache / "imports").exists(), "the import cache is off by default"
run("first", "base")
# The same program as the default-off run's: the compile cache has it.
# CHECK: first: import cache stored, compile cache hit
run("again", "base")
# CHECK: again: import cache hit, compile cache hit
run("env", extra_env={"GRAPHOPT_IMPORT_CACHE": "1"})
# CHECK: env: import cache hit, compile cache hit
run("weights")
# CHECK: weights: import cache stored, compile cache stored
run("attribute")
# CHECK: attribute: import cache stored, compile cache stored
run("global")
# CHECK: global: import cache stored, compile cache stored
run("shape")
# CHECK: shape: import cache stored, compile cache stored
run("hook")
# CHECK: hook: import cache None
run("function")
# CHECK: function: import cache stored
run("function again", "function")
# CHECK: function again: import cache hit, compile cache hit

# The model's source edited (the same length, so only the contents differ).
(code / "usermodel.py").write_text(MODEL.replace("self.scale + SHIFT",
                                                 "self.scale - SHIFT"))
run("edited forward", "base")
# CHECK: edited forward: import cache stored, compile cache stored
# A helper in another of the user's files edited.
(code / "helper.py").write_text(HELPER.replace("torch.relu", "torch.tanh"))
run("edited helper", "base")
# CHECK: edited helper: import cache stored, compile cache stored
run("edited helper again", "base")
# CHECK: edited helper again: import cache hit, compile cache hit

# Corrupt records are ignored (the one looked up is removed), never fatal.
count = len(records())
for p in records():
    p.write_text("{not json")
run("corrupt", "base")
# CHECK: corrupt: import cache stored, compile cache hit
run("after corrupt", "base")
# CHECK: after corrupt: import cache hit, compile cache hit


def readable(p):
    try:
        json.loads(p.read_text())
        return True
    except ValueError:
        return False


print(f"records: {count}, readable after: {sum(map(readable, records()))}")
# CHECK: records: 8, readable after: 1
