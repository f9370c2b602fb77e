#!/usr/bin/env python3
"""graphopt against the systems a user would pick instead, measured in one run.

Usage:

    python3 bench/peers.py                          # every workload, 1 thread
    python3 bench/peers.py --quick                  # fewer rounds; no 4096 GEMM,
                                                    # no batch-8 CNNs (< 10 min, 2 cores)
    python3 bench/peers.py --only sgemm1024,seed,lstm
    python3 bench/peers.py --peers eager,ort,jax    # default: every peer that installs
    python3 bench/peers.py --threads 2 --markdown results.md
    python3 bench/peers.py --list                   # workload and peer names

Systems. graphopt: ``graphopt.compile(model, example_args)`` from python/
(its generated code uses the cores of the process's affinity mask: the
``--threads`` cores the script pins itself to).
Peers: PyTorch eager (also the reference every result is checked against;
``torch.mm`` is MKL's sgemm in PyTorch's x86 wheels), ``torch.compile``
(Inductor, default options), ONNX Runtime (CPU execution provider, model
from ``torch.onnx.export``), IREE (``llvm-cpu``, ``--iree-llvmcpu-target-cpu=
host``, imported from the same ONNX file with ``iree-import-onnx``), JAX/XLA
(``jax.jit``, on the workloads that are simple to write in JAX) and, for
plain GEMM, NumPy/OpenBLAS and oneDNN (PyTorch's ``mkldnn_linear`` on
``to_mkldnn()`` tensors). A missing peer is installed with ``python3 -m pip
install -q`` (``--no-install`` skips that); a peer that fails to install,
compile or run shows ``-`` and a footnote with the reason, ``n/a`` marks a
peer that does not apply to a workload.

Method. Every workload (f32, models in eval mode, under ``torch.no_grad()``)
runs in a child process of its own, so that a native crash or a hang costs
one system only: the workload is run again without it. In the child each
system compiles (the time is recorded: for ONNX Runtime and IREE it includes
the ONNX export), its result is checked against eager PyTorch (max abs error
and max abs error / max |reference|; a result outside rtol/atol is marked
wrong), it is warmed up and calibrated to K calls per round; then rounds
alternate between the systems (round r: each system runs K calls, in an order
rotated every round) and the table gives the median per-call time over the
rounds. With several threads each system's calls start after 0.3 s of idling
and one untimed call, so that the spinning worker threads of the system before
it (OpenMP, ONNX Runtime's pool) do not take its cores and its own threads are
awake. NumPy runs in a process of its own, driven by the child in the same
rounds, with ``OPENBLAS_CORETYPE`` and ``OPENBLAS_L2_SIZE`` unset for that
process only (threadpoolctl tells which OpenBLAS kernel it runs).

Threads. ``--threads N`` (default 1) gives every system N threads:
``torch.set_num_threads``, ONNX Runtime ``intra_op_num_threads``, OMP/MKL/
OpenBLAS environment variables, ``XLA_FLAGS``, IREE's ``local-sync`` driver
(1 thread) or ``local-task`` with N workers. The script re-executes itself
under ``taskset -c`` on the first N allowed cores (``taskset -c 0`` for 1
thread), since JAX/XLA ignores its thread flags otherwise.

The report: a markdown table of ms per call with graphopt / the fastest
correct peer, compile times and each workload process's peak RSS, GFLOP/s and
GB/s against the machine's FMA peak (a register-resident FMA loop compiled
with ``cc -O3 -march=native``) and copy bandwidth (``np.copyto`` of 64 MiB),
the CPU model, thread count and versions. ``--markdown FILE`` writes it to
FILE as well.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.metadata
import importlib.util
import io
import json
import os
import platform
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = Path(__file__).resolve()

# --------------------------------------------------------------------------
# Systems
# --------------------------------------------------------------------------

#: Column order of the tables. graphopt and eager always run; the others
#: are the peers ``--peers`` chooses from.
SYSTEMS = ("graphopt", "eager", "inductor", "ort", "iree", "jax", "numpy",
           "onednn")
PEERS = SYSTEMS[2:]

LABELS = {
    "graphopt": "graphopt",
    "eager": "PyTorch eager",
    "inductor": "torch.compile",
    "ort": "ONNX Runtime",
    "iree": "IREE",
    "jax": "JAX/XLA",
    "numpy": "NumPy/OpenBLAS",
    "onednn": "oneDNN",
}

#: What each system needs: (module to import, pip requirement) pairs.
REQUIREMENTS = {
    "graphopt": [("torch", "torch")],
    "eager": [("torch", "torch")],
    "inductor": [("torch", "torch")],
    "ort": [("onnxruntime", "onnxruntime"), ("onnx", "onnx"),
            ("onnxscript", "onnxscript")],
    "iree": [("onnx", "onnx"), ("onnxscript", "onnxscript"),
             ("iree.compiler", "iree-base-compiler"),
             ("iree.runtime", "iree-base-runtime")],
    "jax": [("jax", "jax[cpu]")],
    "numpy": [("numpy", "numpy"), ("threadpoolctl", "threadpoolctl")],
    "onednn": [("torch", "torch")],
}

#: Distributions whose versions the report lists.
DISTRIBUTIONS = ("torch", "torchvision", "onnxruntime", "onnx", "onnxscript",
                 "iree-base-compiler", "iree-base-runtime", "jax", "jaxlib",
                 "numpy", "threadpoolctl")


class NotApplicable(Exception):
    """The system does not run this workload (shown as ``n/a``)."""


# --------------------------------------------------------------------------
# Workloads
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class Workload:
    """One row of the table."""
    name: str                       # the --only key
    label: str                      # the row title
    build: Callable[[], tuple]      # () -> (model or function, inputs)
    flops: float = 0.0              # per call, for GFLOP/s
    bytes: float = 0.0              # moved per call, for GB/s
    gemm: bool = False              # NumPy and oneDNN apply
    jax: Optional[Callable] = None  # model -> (jax function, parameters)
    rtol: float = 1e-3
    atol: float = 1e-3
    quick: bool = True              # part of --quick


def _torch():
    import torch
    return torch


def matmul(a, b):
    return a @ b


def seed_model(x, y):
    return _torch().matmul(x, y) + x


def gelu_chain(x, b, r):
    F = _torch().nn.functional
    return F.gelu(x + b, approximate="tanh") + r


def attention(q, k, v):
    return _torch().nn.functional.scaled_dot_product_attention(q, k, v)


def _randn(*shape):
    return _torch().randn(*shape)


def _sgemm(n):
    return lambda: (matmul, (_randn(n, n), _randn(n, n)))


def _mlp():
    nn = _torch().nn
    model = nn.Sequential(nn.Linear(1024, 4096), nn.GELU(),
                          nn.Linear(4096, 1024)).eval()
    return model, (_randn(256, 1024),)


def _bert(batch):
    def build():
        layer = _torch().nn.TransformerEncoderLayer(768, 12, 3072,
                                                    batch_first=True).eval()
        return layer, (_randn(batch, 128, 768),)
    return build


def _conv_block():
    nn = _torch().nn
    model = nn.Sequential(nn.Conv2d(3, 16, 3), nn.ReLU(), nn.MaxPool2d(2))
    return model.eval(), (_randn(8, 3, 224, 224),)


def _vision(name, batch):
    def build():
        import torchvision
        model = getattr(torchvision.models, name)(weights=None).eval()
        _randomize_batch_norm(model)
        return model, (_randn(batch, 3, 224, 224),)
    return build


def _randomize_batch_norm(model):
    """Random BatchNorm statistics: with the defaults (mean 0, variance 1)
    batch norm is the identity and MobileNetV3's logits are ~1e-9, too small
    for the check to see anything."""
    nn = _torch().nn
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.uniform_(-0.2, 0.2)
            m.running_var.uniform_(0.5, 1.5)
            m.weight.data.uniform_(0.5, 1.0)
            m.bias.data.uniform_(-0.1, 0.1)


def _lstm():
    return _torch().nn.LSTM(256, 256).eval(), (_randn(32, 8, 256),)


def _jax_function(fn):
    """A JAX version of a parameterless workload."""
    return lambda model: (fn, [])


def _jax_seed(x, y):
    return x @ y + x


def _jax_gelu_chain(x, b, r):
    import jax
    return jax.nn.gelu(x + b, approximate=True) + r


def _jax_attention(q, k, v):
    import jax
    import jax.numpy as jnp
    scores = jnp.einsum("bhqd,bhkd->bhqk", q, k) / jnp.sqrt(q.shape[-1])
    return jnp.einsum("bhqk,bhkd->bhqd", jax.nn.softmax(scores, axis=-1), v)


def _jax_mlp(model):
    """The MLP with its weights as arguments, pre-transposed."""
    import jax

    def mlp(x, w1, b1, w2, b2):
        return jax.nn.gelu(x @ w1 + b1, approximate=False) @ w2 + b2
    first, last = model[0], model[2]
    params = [first.weight.T.contiguous(), first.bias,
              last.weight.T.contiguous(), last.bias]
    return mlp, [p.detach().numpy() for p in params]


def _gemm_flops(m, k, n):
    return 2.0 * m * k * n


WORKLOADS = [
    Workload("sgemm1024", "SGEMM 1024", _sgemm(1024), _gemm_flops(1024, 1024, 1024),
             gemm=True, jax=_jax_function(matmul)),
    Workload("sgemm2048", "SGEMM 2048", _sgemm(2048), _gemm_flops(2048, 2048, 2048),
             gemm=True, jax=_jax_function(matmul)),
    Workload("sgemm4096", "SGEMM 4096", _sgemm(4096), _gemm_flops(4096, 4096, 4096),
             gemm=True, jax=_jax_function(matmul), quick=False),
    Workload("seed", "seed `matmul(x, y) + x`, 128x128",
             lambda: (seed_model, (_randn(128, 128), _randn(128, 128))),
             _gemm_flops(128, 128, 128), jax=_jax_function(_jax_seed),
             rtol=1e-4, atol=1e-4),
    Workload("gelu", "bias + tanh-GELU + residual, 4M f32",
             lambda: (gelu_chain, (_randn(1024, 4096), _randn(4096),
                                   _randn(1024, 4096))),
             bytes=3 * 4 * 1024 * 4096, jax=_jax_function(_jax_gelu_chain),
             rtol=1e-4, atol=1e-4),
    Workload("mlp", "MLP 256 x 1024 -> 4096 GELU -> 1024", _mlp,
             2 * _gemm_flops(256, 1024, 4096), jax=_jax_mlp),
    Workload("bert_b1", "BERT-base encoder layer, batch 1, seq 128", _bert(1)),
    Workload("bert_b8", "BERT-base encoder layer, batch 8, seq 128", _bert(8)),
    Workload("attention", "attention, seq 2048, 12 heads x 64",
             lambda: (attention, tuple(_randn(1, 12, 2048, 64) for _ in range(3))),
             2 * _gemm_flops(12 * 2048, 64, 2048), jax=_jax_function(_jax_attention)),
    Workload("conv", "seed conv block Conv2d(3,16,3)-ReLU-MaxPool2d(2), batch 8, 224x224",
             _conv_block),
    Workload("resnet18_b1", "ResNet-18, batch 1", _vision("resnet18", 1)),
    Workload("resnet18_b8", "ResNet-18, batch 8", _vision("resnet18", 8), quick=False),
    Workload("resnet50_b1", "ResNet-50, batch 1", _vision("resnet50", 1)),
    Workload("resnet50_b8", "ResNet-50, batch 8", _vision("resnet50", 8), quick=False),
    Workload("mobilenet_b1", "MobileNetV3-small, batch 1",
             _vision("mobilenet_v3_small", 1)),
    Workload("mobilenet_b8", "MobileNetV3-small, batch 8",
             _vision("mobilenet_v3_small", 8), quick=False),
    Workload("lstm", "LSTM, hidden 256, 32 steps, batch 8", _lstm),
]
WORKLOADS_BY_NAME = {w.name: w for w in WORKLOADS}


# --------------------------------------------------------------------------
# Running one system: compiling it into a Runner
# --------------------------------------------------------------------------

@dataclass
class Runner:
    """A system ready to run one workload."""
    call: Callable[[], Any]                 # one call; returns the result
    compile_s: float = 0.0
    time_calls: Optional[Callable[[int], float]] = None  # k -> s per call
    close: Callable[[], None] = lambda: None
    info: Optional[dict] = None             # what the report should say

    def seconds_per_call(self, k: int) -> float:
        if self.time_calls is not None:
            return self.time_calls(k)
        call = self.call
        start = time.perf_counter()
        for _ in range(k):
            call()
        return (time.perf_counter() - start) / k


@dataclass
class Context:
    """What the systems of one workload share."""
    workload: Workload
    model: Any
    inputs: tuple                   # torch tensors
    arrays: list                    # the same as NumPy arrays
    threads: int
    tmp: Path
    _onnx: Optional[tuple] = None   # (path, export seconds)

    def onnx(self) -> tuple[Path, float]:
        """The model exported with torch.onnx.export (once per workload)."""
        if self._onnx is None:
            torch = _torch()
            model = self.model
            if not isinstance(model, torch.nn.Module):
                model = _function_module(model)
            path = self.tmp / f"{self.workload.name}.onnx"
            start = time.perf_counter()
            with _quiet():
                torch.onnx.export(model, self.inputs, str(path), dynamo=True)
            self._onnx = (path, time.perf_counter() - start)
        return self._onnx


def _function_module(fn):
    """A function of tensors as a module, for torch.onnx.export."""
    torch = _torch()

    class FunctionModule(torch.nn.Module):
        def forward(self, *args):
            return fn(*args)
    return FunctionModule()


@contextlib.contextmanager
def _quiet():
    """Silences exporters and compilers that print progress."""
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()), \
            contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        yield


def _timed(fn):
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def prepare_graphopt(ctx: Context) -> Runner:
    sys.path.insert(0, str(ROOT / "python"))
    import graphopt
    compiled, seconds = _timed(lambda: graphopt.compile(ctx.model, ctx.inputs))
    inputs = ctx.inputs
    return Runner(lambda: compiled(*inputs), seconds)


def prepare_eager(ctx: Context) -> Runner:
    model, inputs = ctx.model, ctx.inputs
    return Runner(lambda: model(*inputs))


def prepare_inductor(ctx: Context) -> Runner:
    torch = _torch()
    compiled = torch.compile(ctx.model)
    inputs = ctx.inputs
    with _quiet():
        _, seconds = _timed(lambda: compiled(*inputs))  # compiles
    return Runner(lambda: compiled(*inputs), seconds)


def prepare_ort(ctx: Context) -> Runner:
    import onnxruntime as ort
    path, export_s = ctx.onnx()
    options = ort.SessionOptions()
    options.intra_op_num_threads = ctx.threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.log_severity_level = 3
    session, seconds = _timed(lambda: ort.InferenceSession(
        str(path), options, providers=["CPUExecutionProvider"]))
    feeds = {i.name: a for i, a in zip(session.get_inputs(), ctx.arrays)}
    return Runner(lambda: session.run(None, feeds), export_s + seconds)


def prepare_iree(ctx: Context) -> Runner:
    import iree.compiler
    import iree.runtime as rt
    path, export_s = ctx.onnx()
    mlir = path.with_suffix(".mlir")
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "iree.compiler.tools.import_onnx",
                    str(path), "-o", str(mlir)],
                   check=True, capture_output=True, text=True)
    vmfb = iree.compiler.compile_file(
        str(mlir), target_backends=["llvm-cpu"],
        extra_args=["--iree-llvmcpu-target-cpu=host"])
    if ctx.threads == 1:
        config = rt.Config("local-sync")
    else:
        rt.flags.parse_flags(f"--task_topology_max_group_count={ctx.threads}")
        config = rt.Config("local-task")
    system = rt.SystemContext(config=config)
    vm_module = rt.VmModule.copy_buffer(config.vm_instance, vmfb)
    system.add_vm_module(vm_module)
    # The synchronous entry point: not "__init", not "main_graph$async".
    entry = next(n for n in vm_module.function_names
                 if not n.startswith("__") and "$" not in n)
    function = system.modules[vm_module.name][entry]
    args = [rt.asdevicearray(config.device, a) for a in ctx.arrays]
    seconds = time.perf_counter() - start

    def call():
        result = function(*args)
        if isinstance(result, (tuple, list)):
            return [r.to_host() for r in result]
        return result.to_host()
    return Runner(call, export_s + seconds)


def prepare_jax(ctx: Context) -> Runner:
    if ctx.workload.jax is None:
        raise NotApplicable("not written for JAX")
    import jax
    fn, params = ctx.workload.jax(ctx.model)
    args = [jax.device_put(a) for a in list(ctx.arrays) + params]
    compiled, seconds = _timed(lambda: jax.jit(fn).lower(*args).compile())
    return Runner(lambda: compiled(*args).block_until_ready(), seconds)


def prepare_onednn(ctx: Context) -> Runner:
    if not ctx.workload.gemm:
        raise NotApplicable("plain GEMM only")
    torch = _torch()
    a, b = ctx.inputs
    lhs, weight = a.to_mkldnn(), b.t().contiguous().to_mkldnn()
    linear = torch._C._nn.mkldnn_linear  # pylint: disable=protected-access
    return Runner(lambda: linear(lhs, weight, None))


def prepare_numpy(ctx: Context) -> Runner:
    if not ctx.workload.gemm:
        raise NotApplicable("plain GEMM only")
    worker = NumpyWorker(ctx.threads)
    try:
        paths = []
        for i, a in enumerate(ctx.arrays):
            paths.append(str(ctx.tmp / f"numpy_in{i}.npy"))
            _numpy().save(paths[-1], a)
        out = str(ctx.tmp / "numpy_out.npy")
        worker.request(op="load", inputs=paths, output=out)
    except Exception:
        worker.close()
        raise
    np = _numpy()
    return Runner(lambda: np.load(out), 0.0,
                  lambda k: worker.request(op="time", calls=k)["seconds"],
                  worker.close, worker.info)


PREPARE = {
    "graphopt": prepare_graphopt,
    "eager": prepare_eager,
    "inductor": prepare_inductor,
    "ort": prepare_ort,
    "iree": prepare_iree,
    "jax": prepare_jax,
    "numpy": prepare_numpy,
    "onednn": prepare_onednn,
}


def _numpy():
    import numpy
    return numpy


# --------------------------------------------------------------------------
# The NumPy process
# --------------------------------------------------------------------------

NUMPY_WORKER = textwrap.dedent("""
    import json, sys, time
    import numpy as np

    def peak_rss_mib():
        # VmHWM, not ru_maxrss: Linux keeps ru_maxrss across execve, so it
        # would report the workload process this one was forked from.
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024

    def reply(**fields):
        fields["rss_mib"] = peak_rss_mib()
        print(json.dumps(fields), flush=True)

    def blas_info():
        try:
            from threadpoolctl import threadpool_info
        except ImportError as e:
            return str(e)
        keys = ("internal_api", "version", "architecture", "threading_layer",
                "num_threads")
        return [{k: i.get(k) for k in keys} for i in threadpool_info()
                if i.get("user_api") == "blas"]

    np.ones((2, 2), np.float32) @ np.ones((2, 2), np.float32)
    reply(numpy=np.__version__, blas=blas_info())
    for line in sys.stdin:
        request = json.loads(line)
        if request["op"] == "load":
            a, b = (np.load(p) for p in request["inputs"])
            np.save(request["output"], a @ b)
            reply()
        elif request["op"] == "time":
            start = time.perf_counter()
            for _ in range(request["calls"]):
                a @ b
            reply(seconds=(time.perf_counter() - start) / request["calls"])
""")

#: Unset for the NumPy process only, so that OpenBLAS detects this CPU.
OPENBLAS_OVERRIDES = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")


class NumpyWorker:
    """NumPy in a process of its own, answering one JSON line per request."""

    def __init__(self, threads: int):
        env = dict(os.environ)
        self.unset = {k: env.pop(k) for k in OPENBLAS_OVERRIDES if k in env}
        for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
            env[var] = str(threads)
        self.process = subprocess.Popen(
            [sys.executable, "-c", NUMPY_WORKER], env=env, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.info = self._reply()

    def _reply(self) -> dict:
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the NumPy process exited ({self.process.wait()})")
        return json.loads(line)

    def request(self, **fields) -> dict:
        self.process.stdin.write(json.dumps(fields) + "\n")
        self.process.stdin.flush()
        reply = self._reply()
        self.info["rss_mib"] = reply["rss_mib"]
        return reply

    def close(self):
        if self.process.poll() is None:
            self.process.stdin.close()
            self.process.wait()


# --------------------------------------------------------------------------
# The workload process
# --------------------------------------------------------------------------

def _arrays(result) -> list:
    """A system's result as a flat list of NumPy arrays."""
    np = _numpy()
    if isinstance(result, (tuple, list)):
        return [a for r in result for a in _arrays(r)]
    if isinstance(result, dict):
        return _arrays(list(result.values()))
    if hasattr(result, "is_mkldnn") and result.is_mkldnn:
        result = result.to_dense()
    if hasattr(result, "detach"):
        result = result.detach().numpy()
    return [np.array(result, dtype=np.float64)]


def check(result, reference, workload: Workload) -> dict:
    """Max abs error, max abs error / max |reference|, and whether every
    element is within rtol/atol. For a result whose largest magnitude is
    below 1, atol shrinks with it: MobileNetV3's random-weight logits are
    ~1e-2, and atol 1e-3 would pass a result that is 10% off."""
    np = _numpy()
    got = _arrays(result)
    if len(got) != len(reference):
        raise RuntimeError(f"{len(got)} results, eager gives {len(reference)}")
    abs_err = rel_err = 0.0
    ok = True
    for g, w in zip(got, reference):
        if g.shape != w.shape:
            raise RuntimeError(f"result shape {g.shape}, eager gives {w.shape}")
        diff = float(np.abs(g - w).max()) if g.size else 0.0
        scale = float(np.abs(w).max()) if w.size else 1.0
        abs_err = max(abs_err, diff)
        rel_err = max(rel_err, diff / max(scale, 1e-30))
        atol = workload.atol * min(1.0, scale)
        ok = ok and bool(np.allclose(g, w, rtol=workload.rtol, atol=atol))
    return {"max_abs": abs_err, "max_rel": rel_err, "ok": ok}


def _reason(error: BaseException) -> str:
    """The first informative line of an error."""
    text = str(error).strip()
    if isinstance(error, subprocess.CalledProcessError) and error.stderr:
        text = error.stderr.strip()
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    first = lines[0] if lines else ""
    return f"{type(error).__name__}: {first}"[:300]


class Events:
    """JSON lines the workload process appends for the parent: ``begin`` /
    ``end`` around every stage of every system (so that the parent knows
    which system a crash or hang happened in), then ``result``."""

    def __init__(self, path: str):
        self.file = open(path, "a", encoding="utf-8")

    def write(self, **fields):
        self.file.write(json.dumps(fields) + "\n")
        self.file.flush()

    @contextlib.contextmanager
    def stage(self, system: str, stage: str):
        self.write(event="begin", system=system, stage=stage)
        try:
            yield
        finally:  # an exception ends the stage too; only a crash does not
            self.write(event="end", system=system, stage=stage)


def _configure_threads(threads: int):
    torch = _torch()
    torch.set_num_threads(threads)
    with contextlib.suppress(RuntimeError):
        torch.set_num_interop_threads(1)
    torch.set_grad_enabled(False)


def _calibrate(runner: Runner, warmup_s: float, round_s: float) -> int:
    """Warms up for about ``warmup_s``; returns the calls per round."""
    deadline = time.perf_counter() + warmup_s
    per_call = runner.seconds_per_call(1)
    while time.perf_counter() < deadline:
        per_call = min(per_call, runner.seconds_per_call(1))
    return max(1, min(1000, round(round_s / per_call)))


def run_workload(args) -> None:
    """The child: compiles, checks and times every system on one workload,
    reporting through ``--events``."""
    workload = WORKLOADS_BY_NAME[args.worker]
    events = Events(args.events)
    _configure_threads(args.threads)
    torch = _torch()
    torch.manual_seed(0)
    model, inputs = workload.build()
    reference = _arrays(model(*inputs))
    systems = ["graphopt", "eager"] + [p for p in args.peers.split(",") if p]
    systems = [s for s in systems if s not in args.skip.split(",")]
    runners: dict[str, Runner] = {}
    calls: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="peers-") as tmp:
        ctx = Context(workload, model, inputs,
                      [t.numpy() for t in inputs], args.threads, Path(tmp))
        for system in systems:
            runner = _prepare_one(system, ctx, reference, events, args)
            if runner is not None:
                runners[system], calls[system] = runner
        times = _alternate(runners, calls, args.rounds, events,
                           pause=0.3 if args.threads > 1 else 0.0)
        for runner in runners.values():
            runner.close()
    numpy_info = runners["numpy"].info if "numpy" in runners else None
    events.write(event="result", times=times, calls=calls,
                 rss_mib=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                 versions=_child_versions(), numpy=numpy_info)


def _prepare_one(system: str, ctx: Context, reference: list, events: Events,
                 args) -> Optional[tuple]:
    """Compiles, checks and warms up one system: (runner, calls per round),
    or None after recording why it cannot run."""
    runner, stage = None, "compile"
    try:
        with events.stage(system, stage):
            runner = PREPARE[system](ctx)
        stage = "check"
        with events.stage(system, stage):
            accuracy = check(runner.call(), reference, ctx.workload)
        stage = "warm-up"
        with events.stage(system, stage):
            calls = _calibrate(runner, args.warmup, args.round_time)
    except NotApplicable as e:
        events.write(event="system", system=system, status="n/a", reason=str(e))
        return None
    except Exception as e:  # pylint: disable=broad-except
        if runner is not None:
            runner.close()
        reason = _reason(e) if stage == "compile" else f"{stage}: {_reason(e)}"
        events.write(event="system", system=system, status="failed", reason=reason)
        return None
    events.write(event="system", system=system, status="ok",
                 compile_s=runner.compile_s, **accuracy)
    return runner, calls


def _alternate(runners: dict, calls: dict, rounds: int, events: Events,
               pause: float = 0.0) -> dict:
    """Rounds of K calls per system, the order rotated every round; the
    median per-call time of each system, in seconds. ``pause`` seconds of
    idling and one untimed call before each system's calls: with several
    threads, the worker threads of the system that ran before keep spinning
    for a while after its last call (LLVM's OpenMP 200 ms, ONNX Runtime's
    pool, GNU OpenMP) and would take cores from the next one, and a first
    call after idling pays for waking its own threads (up to +60% for a
    ResNet-50 call on this VM)."""
    order = list(runners)
    samples: dict[str, list] = {s: [] for s in order}
    for r in range(rounds):
        shift = r % len(order) if order else 0
        for system in order[shift:] + order[:shift]:
            if system not in samples:
                continue
            try:
                if pause:
                    # Idle, then one untimed call: the spinning threads of
                    # the system before have stopped, and this one's own
                    # (asleep after the pause) are awake again.
                    time.sleep(pause)
                    runners[system].seconds_per_call(1)
                with events.stage(system, "timing"):
                    samples[system].append(
                        runners[system].seconds_per_call(calls[system]))
            except Exception as e:  # pylint: disable=broad-except
                events.write(event="system", system=system, status="failed",
                             reason="timing: " + _reason(e))
                del samples[system]
    return {s: statistics.median(t) for s, t in samples.items()}


def _child_versions() -> dict:
    """What only the workload process knows: graphopt's version and library."""
    versions = {}
    graphopt = sys.modules.get("graphopt")
    if graphopt is not None:
        versions["graphopt"] = (f"{graphopt.__version__} (library "
                                f"{graphopt.native_version()}, {graphopt.LIBRARY_PATH})")
    return versions


# --------------------------------------------------------------------------
# The parent: installing peers, pinning, running workload processes
# --------------------------------------------------------------------------

def _importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def ensure_installed(systems: list, install: bool) -> dict:
    """Installs what each system needs; returns {system: reason} for those
    that cannot run."""
    missing = {}
    for system in systems:
        needs = [pip for module, pip in REQUIREMENTS[system]
                 if not _importable(module)]
        if needs and install:
            _log(f"installing {' '.join(needs)} for {LABELS[system]}")
            done = subprocess.run([sys.executable, "-m", "pip", "install", "-q", *needs],
                                  capture_output=True, text=True)
            importlib.invalidate_caches()
            if done.returncode != 0:
                tail = (done.stderr.strip().splitlines() or ["?"])[-1]
                missing[system] = f"pip install {' '.join(needs)} failed: {tail}"
                continue
            needs = [pip for module, pip in REQUIREMENTS[system]
                     if not _importable(module)]
        if needs:
            missing[system] = f"not installed: {' '.join(needs)}"
    return missing


def thread_environment(threads: int) -> dict:
    """The environment variables that give every system ``threads`` threads."""
    env = {var: str(threads) for var in
           ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")}
    multi = "true" if threads > 1 else "false"
    xla = (f"--xla_cpu_multi_thread_eigen={multi} "
           f"intra_op_parallelism_threads={threads}")
    env["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " " + xla).strip()
    # graphopt's compile time is a cold compile: its persistent compile
    # cache (docs/CompileCache.md) would otherwise load an earlier run's
    # code (bench/compile_time.py measures cached compiles).
    env["GRAPHOPT_CACHE_DIR"] = "off"
    return env


def pin_to_cores(threads: int) -> None:
    """Re-executes this script under ``taskset -c`` on the first ``threads``
    allowed cores unless it runs on exactly that many already."""
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) == threads:
        return
    if threads > len(cores) or not shutil.which("taskset"):
        _log(f"not pinned: {len(cores)} cores allowed, taskset "
             f"{'found' if shutil.which('taskset') else 'missing'}")
        return
    cpu_list = ",".join(str(c) for c in cores[:threads])
    os.execvp("taskset", ["taskset", "-c", cpu_list, sys.executable,
                          str(SCRIPT), *sys.argv[1:]])


@dataclass
class Row:
    """What the workload processes found for one workload."""
    workload: Workload
    systems: dict = field(default_factory=dict)   # system -> event dict
    times: dict = field(default_factory=dict)     # system -> seconds per call
    rss_mib: Optional[float] = None
    numpy: Optional[dict] = None
    versions: dict = field(default_factory=dict)
    wall_s: float = 0.0
    round_trip_ns: tuple = ()    # before and after the row (threads > 1)


def run_row(workload: Workload, peers: list, args, tmp: Path) -> Row:
    """Runs a workload's process; after a crash or a hang, runs it again
    without the system it happened in."""
    row = Row(workload)
    skip: list = []
    start = time.perf_counter()
    while True:
        events_path = tmp / f"{workload.name}.{len(skip)}.jsonl"
        log_path = tmp / f"{workload.name}.{len(skip)}.log"
        command = [sys.executable, str(SCRIPT), "--worker", workload.name,
                   "--events", str(events_path), "--peers", ",".join(peers),
                   "--skip", ",".join(skip), "--threads", str(args.threads),
                   "--rounds", str(args.rounds), "--round-time", str(args.round_time),
                   "--warmup", str(args.warmup)]
        failure = _run_child(command, log_path, args.timeout, args.verbose)
        events = _read_events(events_path)
        for event in events:
            if event["event"] == "system":
                row.systems[event["system"]] = event
            elif event["event"] == "result":
                row.times = event["times"]
                row.rss_mib = event["rss_mib"]
                row.numpy = event["numpy"]
                row.versions = event["versions"]
        if failure is None:
            break
        culprit = _unfinished_stage(events)
        if culprit is None:
            reason = f"{failure}; {_log_tail(log_path)}"
            for system in ["graphopt", "eager", *peers]:
                row.systems.setdefault(system, {"status": "failed", "reason": reason})
            break
        system, stage = culprit
        row.systems[system] = {"status": "failed",
                               "reason": f"{failure} during {stage}; {_log_tail(log_path)}"}
        skip.append(system)
    row.wall_s = time.perf_counter() - start
    return row


def _run_child(command: list, log_path: Path, timeout: float,
               verbose: bool) -> Optional[str]:
    """Runs a workload process; returns why it failed, or None."""
    with open(log_path, "w", encoding="utf-8") as log:
        out = None if verbose else log
        # A session of its own, so that a hang can be ended with everything
        # the workload process started (compile workers, the NumPy process).
        process = subprocess.Popen(command, stdout=out, stderr=out,
                                   start_new_session=True)
        try:
            code = process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            return f"timed out after {timeout:.0f} s"
    if code == 0:
        return None
    if code < 0:
        return f"crashed (signal {-code})"
    return f"exited with {code}"


def _read_events(path: Path) -> list:
    if not path.exists():
        return []
    events = []
    for line in path.read_text(encoding="utf-8").splitlines():
        with contextlib.suppress(json.JSONDecodeError):
            events.append(json.loads(line))
    return events


def _unfinished_stage(events: list) -> Optional[tuple]:
    """(system, stage) of the last ``begin`` without its ``end``."""
    open_stage = None
    for event in events:
        if event["event"] == "begin":
            open_stage = (event["system"], event["stage"])
        elif event["event"] == "end":
            open_stage = None
    return open_stage


def _log_tail(path: Path) -> str:
    lines = [l.strip() for l in path.read_text(encoding="utf-8",
                                               errors="replace").splitlines()
             if l.strip()]
    return lines[-1][:200] if lines else "no output"


# --------------------------------------------------------------------------
# The machine
# --------------------------------------------------------------------------

FMA_PROBE = textwrap.dedent("""
    #include <stdio.h>
    #include <stdlib.h>
    #include <time.h>
    #if defined(__AVX512F__)
    #define WIDTH 16
    #elif defined(__AVX__)
    #define WIDTH 8
    #else
    #define WIDTH 4
    #endif
    typedef float vec __attribute__((vector_size(WIDTH * 4)));

    /* Twelve independent FMA chains, each a named variable so that it stays
       in a register: enough to cover the FMA latency on every FMA port. */
    #define CHAINS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)
    #define DECLARE(i) vec c##i = a * (float)(i + 1);
    #define STEP(i) c##i = c##i * m + a;
    #define SUM(i) total += c##i;

    static double now(void) {
      struct timespec t;
      clock_gettime(CLOCK_MONOTONIC, &t);
      return t.tv_sec + 1e-9 * t.tv_nsec;
    }

    int main(int argc, char **argv) {
      long iterations = atol(argv[1]);
      volatile float scale = 0.999999f, step = 1e-7f;
      vec m, a, total = {0};
      for (int i = 0; i < WIDTH; ++i) { m[i] = scale; a[i] = step; }
      CHAINS(DECLARE)
      double start = now();
      for (long i = 0; i < iterations; ++i) { CHAINS(STEP) }
      double seconds = now() - start;
      CHAINS(SUM)
      float sum = 0;
      for (int i = 0; i < WIDTH; ++i) sum += total[i];
      printf("%d %f %g\\n", WIDTH, 2.0 * WIDTH * 12 * iterations / seconds / 1e9, sum);
      return 0;
    }
""")


def fma_peak(tmp: Path) -> tuple[Optional[float], str]:
    """Single-core f32 FMA GFLOP/s of a register-resident loop, and its
    description (or why it could not be measured)."""
    compiler = shutil.which("cc")
    if compiler is None:
        return None, "no C compiler (cc)"
    source, binary = tmp / "fma.c", tmp / "fma"
    source.write_text(FMA_PROBE)
    try:
        subprocess.run([compiler, "-O3", "-march=native", "-ffp-contract=fast",
                        str(source), "-o", str(binary)],
                       check=True, capture_output=True, text=True)
        best, width = 0.0, 0
        for _ in range(3):
            out = subprocess.run([str(binary), "30000000"], check=True,
                                 capture_output=True, text=True).stdout.split()
            width, best = int(out[0]), max(best, float(out[1]))
    except (subprocess.CalledProcessError, OSError, ValueError, IndexError) as e:
        return None, _reason(e)
    return best, f"{width * 32}-bit vectors, `cc -O3 -march=native`, 1 core"


CORE_PROBE = textwrap.dedent("""
    #define _GNU_SOURCE
    #include <pthread.h>
    #include <sched.h>
    #include <stdatomic.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <time.h>
    /* A cache line bounced between two threads pinned to two CPUs: the
       round trip's nanoseconds, what one thread pays to see the other's
       writes. */
    static _Atomic long flag __attribute__((aligned(64)));
    static long rounds;
    static int cpus[2];
    static void pin(int c) {
      cpu_set_t s; CPU_ZERO(&s); CPU_SET(c, &s);
      pthread_setaffinity_np(pthread_self(), sizeof s, &s);
    }
    static void *other(void *unused) {
      (void)unused; pin(cpus[1]);
      for (long i = 0; i < rounds; i++) {
        while (atomic_load(&flag) != 2 * i + 1) {}
        atomic_store(&flag, 2 * i + 2);
      }
      return 0;
    }
    int main(int argc, char **argv) {
      cpus[0] = atoi(argv[1]); cpus[1] = atoi(argv[2]); rounds = atol(argv[3]);
      pthread_t t; pin(cpus[0]); pthread_create(&t, 0, other, 0);
      struct timespec a, b; clock_gettime(CLOCK_MONOTONIC, &a);
      for (long i = 0; i < rounds; i++) {
        atomic_store(&flag, 2 * i + 1);
        while (atomic_load(&flag) != 2 * i + 2) {}
      }
      clock_gettime(CLOCK_MONOTONIC, &b); pthread_join(t, 0);
      printf("%.0f\\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / rounds);
      return 0;
    }
""")

#: Above this core-to-core round trip the two CPUs of a two-thread run are
#: far apart (on this project's VMs, the hypervisor's placement changes from
#: one minute to the next): graphopt's two-thread times roughly double
#: (docs/Performance.md, eighteenth session).
FAR_ROUND_TRIP_NS = 350


def build_core_probe(tmp: Path) -> Optional[Path]:
    """The round-trip probe, compiled; None without a C compiler or two
    CPUs in the affinity mask."""
    compiler = shutil.which("cc")
    if compiler is None or len(os.sched_getaffinity(0)) < 2:
        return None
    source, binary = tmp / "roundtrip.c", tmp / "roundtrip"
    source.write_text(CORE_PROBE)
    try:
        subprocess.run([compiler, "-O2", "-pthread", str(source), "-o", str(binary)],
                       check=True, capture_output=True, text=True)
    except (subprocess.CalledProcessError, OSError):
        return None
    return binary


def core_round_trip(probe: Optional[Path]) -> Optional[float]:
    """Median of three round trips (ns) between the first two CPUs of the
    affinity mask, ~10 ms in all; None when not measurable."""
    if probe is None:
        return None
    cpus = sorted(os.sched_getaffinity(0))[:2]
    samples = []
    for _ in range(3):
        try:
            out = subprocess.run([str(probe), str(cpus[0]), str(cpus[1]), "5000"],
                                 check=True, capture_output=True, text=True,
                                 timeout=30).stdout
            samples.append(float(out.split()[0]))
        except (subprocess.SubprocessError, OSError, ValueError, IndexError):
            return None
    return sorted(samples)[1]


def copy_bandwidth() -> float:
    """GB/s of np.copyto between 64 MiB arrays (bytes read + bytes written)."""
    np = _numpy()
    src = np.ones(16 << 20, dtype=np.float32)
    dst = np.empty_like(src)
    np.copyto(dst, src)
    samples = []
    for _ in range(10):
        start = time.perf_counter()
        np.copyto(dst, src)
        samples.append(time.perf_counter() - start)
    return 2 * src.nbytes / min(samples) / 1e9


def cpu_model() -> str:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def vector_isa() -> str:
    with contextlib.suppress(OSError):
        flags = set()
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("flags"):
                flags = set(line.split(":", 1)[1].split())
                break
        for isa in ("amx_bf16", "avx512f", "avx2", "sse4_2"):
            if isa in flags:
                return isa
    return "unknown"


def distribution_versions() -> dict:
    versions = {}
    for name in DISTRIBUTIONS:
        with contextlib.suppress(importlib.metadata.PackageNotFoundError):
            versions[name] = importlib.metadata.version(name)
    return versions


def git_revision() -> str:
    done = subprocess.run(["git", "-C", str(ROOT), "describe", "--always", "--dirty"],
                          capture_output=True, text=True)
    return done.stdout.strip() or "unknown"


def measure_machine(tmp: Path) -> dict:
    """What the report says about the machine, measured now."""
    fma, fma_how = fma_peak(tmp)
    return {
        "command": "python3 bench/peers.py " + " ".join(sys.argv[1:]),
        "date": time.strftime("%Y-%m-%d"),
        "revision": git_revision(),
        "cpu": cpu_model(),
        "isa": vector_isa(),
        "cores": ",".join(str(c) for c in sorted(os.sched_getaffinity(0))),
        "fma": fma,
        "fma_how": fma_how,
        "bandwidth": copy_bandwidth(),
        "versions": distribution_versions(),
    }


# --------------------------------------------------------------------------
# The report
# --------------------------------------------------------------------------

class Footnotes:
    """Numbered reasons, one number per distinct text."""

    def __init__(self):
        self.notes: list[str] = []

    def ref(self, text: str) -> str:
        if text not in self.notes:
            self.notes.append(text)
        return f"[{self.notes.index(text) + 1}]"

    def markdown(self) -> str:
        return "\n".join(f"[{i}] {n}" for i, n in enumerate(self.notes, 1))


def _ms(seconds: float) -> str:
    ms = seconds * 1e3
    return f"{ms:#.3g}" if ms < 100 else f"{ms:.0f}"


def _cell(row: Row, system: str, notes: Footnotes) -> str:
    info = row.systems.get(system)
    if info is None:
        return "-"
    if info["status"] == "n/a":
        return "n/a"
    if info["status"] != "ok" or system not in row.times:
        reason = info.get("reason", "not timed")
        return "- " + notes.ref(f"{LABELS[system]}: {reason}")
    text = _ms(row.times[system])
    if not info["ok"]:
        text += " ✗" + notes.ref(
            f"{LABELS[system]}, {row.workload.label}: wrong result, max abs error "
            f"{info['max_abs']:.2g}, relative to max |eager| {info['max_rel']:.2g} "
            f"(rtol {row.workload.rtol:g}, atol {row.workload.atol:g})")
    return text


def best_peer(row: Row) -> Optional[tuple]:
    """(system, seconds) of the fastest peer with a correct result."""
    timed = [(t, s) for s, t in row.times.items()
             if s != "graphopt" and row.systems.get(s, {}).get("ok")]
    if not timed:
        return None
    seconds, system = min(timed)
    return system, seconds


def time_table(rows: list, systems: list, notes: Footnotes) -> str:
    header = ["workload", *(LABELS[s] for s in systems), "best peer",
              "graphopt / best"]
    lines = [_md_row(header), _md_row(["---"] * len(header))]
    for row in rows:
        best = best_peer(row)
        ratio = "-"
        if best and "graphopt" in row.times:
            ratio = f"{row.times['graphopt'] / best[1]:.2f}"
        lines.append(_md_row([row.workload.label,
                              *(_cell(row, s, notes) for s in systems),
                              LABELS[best[0]] if best else "-", ratio]))
    return "\n".join(lines)


def compile_table(rows: list, systems: list) -> str:
    compiled = [s for s in systems if s not in ("eager", "numpy", "onednn")]
    header = ["workload", *(LABELS[s] for s in compiled),
              "peak RSS of the workload process (MiB)", "wall (s)"]
    lines = [_md_row(header), _md_row(["---"] * len(header))]
    for row in rows:
        cells = []
        for system in compiled:
            info = row.systems.get(system, {})
            cells.append(f"{info['compile_s']:.2f}" if info.get("status") == "ok"
                         else "-" if info.get("status") != "n/a" else "n/a")
        rss = f"{row.rss_mib:.0f}" if row.rss_mib else "-"
        lines.append(_md_row([row.workload.label, *cells, rss, f"{row.wall_s:.0f}"]))
    return "\n".join(lines)


def accuracy_table(rows: list, systems: list) -> str:
    checked = [s for s in systems if s != "eager"]
    header = ["workload", *(LABELS[s] for s in checked), "rtol / atol"]
    lines = [_md_row(header), _md_row(["---"] * len(header))]
    for row in rows:
        cells = []
        for system in checked:
            info = row.systems.get(system, {})
            if info.get("status") == "ok":
                mark = "" if info["ok"] else " ✗"
                cells.append(f"{info['max_abs']:.1e} / {info['max_rel']:.1e}{mark}")
            else:
                cells.append("n/a" if info.get("status") == "n/a" else "-")
        tol = f"{row.workload.rtol:g} / {row.workload.atol:g}"
        lines.append(_md_row([row.workload.label, *cells, tol]))
    return "\n".join(lines)


def efficiency_table(rows: list, fma: Optional[float], threads: int,
                     bandwidth: float) -> str:
    """GFLOP/s (rows with a FLOP count) or GB/s (the elementwise chain) of
    graphopt and the best peer, as a share of the FMA peak of the threads
    each runs on (all systems get ``threads``: graphopt's parallel tile
    loops use the cores of its affinity mask) or of the copy bandwidth;
    empty when no row has either."""
    header = ["workload", "graphopt", "best peer", "graphopt % of machine",
              "best peer % of machine"]
    lines = [_md_row(header), _md_row(["---"] * len(header))]
    for row in rows:
        w = row.workload
        if not (w.flops or w.bytes):
            continue
        best = best_peer(row)
        if w.flops:
            amount, unit = w.flops, "GFLOP/s"
            machine = [fma * threads, fma * threads] if fma else [None, None]
        else:
            amount, unit, machine = w.bytes, "GB/s", [bandwidth, bandwidth]
        rates = [amount / s / 1e9 if s else None
                 for s in (row.times.get("graphopt"), best[1] if best else None)]
        cells = [f"{r:.1f} {unit}" if r else "-" for r in rates]
        if best:
            cells[1] += f" ({LABELS[best[0]]})"
        shares = [f"{100 * r / m:.0f}%" if r and m else "-"
                  for r, m in zip(rates, machine)]
        lines.append(_md_row([w.label, *cells, *shares]))
    return "\n".join(lines) if len(lines) > 2 else ""


def _md_row(cells: list) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


def machine_section(args, machine: dict, rows: list) -> str:
    versions = dict(machine["versions"])
    for row in rows:
        versions.update(row.versions)
    numpy_rows = [r for r in rows if r.numpy]
    numpy_info = numpy_rows[-1].numpy if numpy_rows else None
    numpy_rss = "; ".join(f"{r.workload.label}: {r.numpy['rss_mib']:.0f} MiB"
                          for r in numpy_rows)
    lines = [
        f"- command: `{machine['command']}` ({machine['date']}, revision "
        f"{machine['revision']})",
        f"- CPU: {machine['cpu']} ({machine['isa']}), threads per system: "
        f"{args.threads}" + (" (graphopt: its default, the cores of the "
                             "process's affinity mask; parallel tile loops "
                             "only, docs/Rationale/Threads.md)"
                             if args.threads > 1 else "")
        + f", pinned to cores {machine['cores']}",
        "- FMA peak: " + (f"{machine['fma']:.1f} GFLOP/s per core "
                          f"({machine['fma_how']})" if machine["fma"]
                          else f"not measured ({machine['fma_how']})")
        + (f"; every system's share is of {args.threads} x that"
           if args.threads > 1 else ""),
        f"- copy bandwidth: {machine['bandwidth']:.1f} GB/s (np.copyto, 64 MiB, "
        "bytes read + written, 1 thread; write-allocate moves 3 bytes for the "
        "2 counted, so a chain with 2 reads per write can pass 100%)",
        "- peak RSS (`ru_maxrss`, per process): the parent "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB; "
        "each workload's process in the compile table (every system of a row "
        "shares that process; NumPy runs in its own"
        + (f", VmHWM: {numpy_rss}" if numpy_rss else "") + ")",
    ]
    if numpy_info:
        blas = numpy_info.get("blas")
        kernel = (", ".join(f"{b['internal_api']} {b['version']}, kernel "
                            f"{b['architecture']}, {b['num_threads']} thread(s)"
                            for b in blas) if isinstance(blas, list) else blas)
        unset = ", ".join(OPENBLAS_OVERRIDES)
        lines.append(f"- NumPy {numpy_info['numpy']}: {kernel} ({unset} unset for "
                     f"that process only; here they are "
                     f"{_describe_overrides()})")
    lines.append("- eager `torch.mm` is MKL's sgemm (BLAS_INFO=mkl); oneDNN is "
                 "`torch._C._nn.mkldnn_linear` on `to_mkldnn()` tensors")
    lines.append("- versions: " + ", ".join(f"{k} {v}" for k, v in sorted(versions.items())))
    return "\n".join(lines)


def _describe_overrides() -> str:
    values = [f"{k}={os.environ[k]}" for k in OPENBLAS_OVERRIDES if k in os.environ]
    return ", ".join(values) if values else "not set"


def report(args, machine: dict, rows: list, systems: list, missing: dict) -> str:
    notes = Footnotes()
    for row in rows:
        for system, reason in missing.items():
            row.systems[system] = {"status": "failed", "reason": reason}
    parts = [
        "## graphopt against its peers (ms per call, median over rounds)",
        "",
        time_table(rows, systems, notes),
        "",
    ]
    if any(not info.get("ok", True) for row in rows for info in row.systems.values()):
        parts += ["✗: the result differs from eager PyTorch beyond the workload's "
                  "tolerance; such a peer is not counted as the best.", ""]
    parts += [
        "### Compile time (s)",
        "",
        compile_table(rows, systems),
        "",
        "ONNX Runtime and IREE include `torch.onnx.export`; torch.compile and "
        "JAX: the first call / `jit(...).lower().compile()`. torch.compile "
        "leaves `nn.LSTM` to eager PyTorch (`torch._dynamo.config.allow_rnn` "
        "is off by default).",
        "",
    ]
    efficiency = efficiency_table(rows, machine["fma"], args.threads,
                                  machine["bandwidth"])
    if efficiency:
        parts += ["### Against the machine", "", efficiency, ""]
    trips = [r for r in rows if r.round_trip_ns and None not in r.round_trip_ns]
    if trips:
        cells = ["| workload | before (ns) | after (ns) | CPUs |", "| --- | --- | --- | --- |"]
        for r in trips:
            far = max(r.round_trip_ns) > FAR_ROUND_TRIP_NS
            cells.append(f"| {r.workload.label} | {r.round_trip_ns[0]:.0f} | "
                         f"{r.round_trip_ns[1]:.0f} | {'far apart' if far else 'near'} |")
        parts += ["### Core-to-core round trip around each row", "",
                  "A cache line bounced between the first two CPUs before and "
                  "after each workload's process. On the shared VMs this "
                  "project runs on, the hypervisor sometimes places the two "
                  f"vCPUs far apart (round trips over {FAR_ROUND_TRIP_NS} ns, "
                  "~530 ns against ~60-300 ns), for seconds to minutes. "
                  "Every two-thread slow phase measured so far (graphopt "
                  "about 2x slower, the other systems 1.5-1.7x: their "
                  "threads pass data to each other at every parallel loop) "
                  "came with such round trips, though not every far-apart "
                  "measurement with a slow run: rows marked far apart should "
                  "be read against a rerun.", "", "\n".join(cells), ""]
    parts += [
        "### Max abs error / (max abs error / max |eager|)",
        "",
        accuracy_table(rows, systems),
        "",
        "A result is wrong (✗) outside rtol / atol; atol is multiplied by "
        "max |eager| where that is below 1.",
        "",
        "### Machine and versions",
        "",
        machine_section(args, machine, rows),
    ]
    if notes.notes:
        parts += ["", "### Notes", "", notes.markdown()]
    return "\n".join(parts) + "\n"


# --------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------

def _log(message: str) -> None:
    print(f"peers: {message}", file=sys.stderr, flush=True)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(
        description="graphopt against its peers, in one run.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true",
                        help="fewer rounds; skip the 4096 GEMM and batch-8 CNNs")
    parser.add_argument("--only", default="",
                        help="comma-separated workload names (see --list)")
    parser.add_argument("--peers", default=",".join(PEERS),
                        help="comma-separated peers (default: all that install)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--markdown", help="also write the report to this file")
    parser.add_argument("--rounds", type=int, help="timing rounds (15; quick: 5)")
    parser.add_argument("--round-time", type=float,
                        help="seconds per system per round (0.2; quick: 0.05)")
    parser.add_argument("--warmup", type=float,
                        help="warm-up seconds per system (0.5; quick: 0.1)")
    parser.add_argument("--timeout", type=float,
                        help="seconds per workload process (1200; quick: 300)")
    parser.add_argument("--no-install", action="store_true",
                        help="do not pip install missing peers")
    parser.add_argument("--verbose", action="store_true",
                        help="show the workload processes' output")
    parser.add_argument("--list", action="store_true",
                        help="list workloads and peers, then exit")
    # The workload process.
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--events", help=argparse.SUPPRESS)
    parser.add_argument("--skip", default="", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    defaults = ((5, 0.05, 0.1, 300) if args.quick else (15, 0.2, 0.5, 1200))
    for name, value in zip(("rounds", "round_time", "warmup", "timeout"), defaults):
        if getattr(args, name) is None:
            setattr(args, name, value)
    return args


def select_workloads(args) -> list:
    if args.only:
        names = [n for n in args.only.split(",") if n]
        unknown = [n for n in names if n not in WORKLOADS_BY_NAME]
        if unknown:
            sys.exit(f"peers: unknown workload(s) {', '.join(unknown)}; "
                     f"known: {', '.join(WORKLOADS_BY_NAME)}")
        return [WORKLOADS_BY_NAME[n] for n in names]
    return [w for w in WORKLOADS if w.quick or not args.quick]


def select_peers(args) -> list:
    """The peers named by --peers (graphopt and eager always run)."""
    peers = [p for p in args.peers.split(",") if p]
    unknown = [p for p in peers if p not in SYSTEMS]
    if unknown:
        sys.exit(f"peers: unknown peer(s) {', '.join(unknown)}; known: {', '.join(PEERS)}")
    return [p for p in PEERS if p in peers]


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.worker:
        run_workload(args)
        return 0
    if args.list:
        for w in WORKLOADS:
            print(f"{w.name:14} {w.label}{'' if w.quick else '  (not in --quick)'}")
        print("peers:", ", ".join(PEERS))
        return 0
    workloads, peers = select_workloads(args), select_peers(args)
    pin_to_cores(args.threads)
    os.environ.update(thread_environment(args.threads))
    started = time.perf_counter()
    missing = ensure_installed(["graphopt", *peers], not args.no_install)
    if "graphopt" in missing:
        sys.exit(f"peers: {missing['graphopt']}")
    peers = [p for p in peers if p not in missing]
    with tempfile.TemporaryDirectory(prefix="peers-") as tmp:
        machine = measure_machine(Path(tmp))
        probe = build_core_probe(Path(tmp)) if args.threads > 1 else None
        rows = []
        for i, workload in enumerate(workloads, 1):
            _log(f"[{i}/{len(workloads)}] {workload.name}")
            before = core_round_trip(probe)
            rows.append(run_row(workload, peers, args, Path(tmp)))
            rows[-1].round_trip_ns = (before, core_round_trip(probe))
            _log(f"[{i}/{len(workloads)}] {workload.name}: {rows[-1].wall_s:.0f} s"
                 + (f", core round trip {before:.0f} / "
                    f"{rows[-1].round_trip_ns[1]:.0f} ns"
                    if None not in rows[-1].round_trip_ns else ""))
    shown = [s for s in SYSTEMS if s in ("graphopt", "eager", *peers, *missing)]
    text = report(args, machine, rows, shown, missing)
    if args.markdown:
        Path(args.markdown).write_text(text, encoding="utf-8")
    print(text)
    _log(f"done in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
