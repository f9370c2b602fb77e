#!/usr/bin/env python3
"""The GPU check: prepared here, run on a machine with a GPU but no LLVM/MLIR.

    python3 bench/gpu_check.py prepare [--dir DIR] [--emulate]   # here
    python3 bench/gpu_check.py run [--dir DIR] [--emulate]       # on the GPU

`prepare` compiles every workload below ahead of time for the CUDA target
(`graph-run --target=cuda --compile-only --cuda-format=bin --emit-object`,
cubins built by ptxas for --chip, sm_90 by default), links each object into
a small shared library beside a copy of libGraphOptCUDARuntime.so, and
copies the self-contained wheel (scripts/build-wheel.sh) for the e2e half.
Everything lands in DIR (default bench/results/gpucheck, ignored by git):
a few MiB plus the wheel, well under what a device call carries.

`run` needs only Python, NumPy, PyTorch and the NVIDIA driver:
1. every workload: inputs made on the GPU from a fixed seed, the library
   called through its C interface on PyTorch's device buffers (the
   runtime uses the device's primary context, as PyTorch does; PyTorch's
   stream is synchronised before each call), the result compared with a
   reference PyTorch computes in higher precision (float32 for f16/bf16
   inputs, float64 for f32; TF32 off), then timed against PyTorch's own
   kernel for the same work (cuBLAS, SDPA, ...) with CUDA events, median
   of --reps calls after warm-ups; a device-to-device copy gives the
   bandwidth roofline;
2. graphopt.load of a CUDA object (test/Python/Inputs/load_cuda_check.py:
   arrays, CPU and CUDA tensors, a misaligned CUDA view), and the JIT;
3. the e2e suite (test/e2e/run.py --target cuda) against eager PyTorch on
   the GPU, with the wheel's compiler (no LLVM/MLIR needed there).
It prints a markdown table and writes it, with the e2e log, to $OUT when
set (the device tool's output folder), else DIR/results.

`prepare --emulate` dry-runs the whole flow on this machine: small
shapes, objects compiled with --cuda-emulate (kernels as host loops), the
emulated driver (libGraphOptCUDAEmulator.so), PyTorch on the CPU. The
tensor-core, SIMT-matmul and warp-reduction kernels exist only on a GPU.
"""

import argparse
import ctypes
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DIR = ROOT / "bench" / "results" / "gpucheck"


# ---------------------------------------------------------------- workloads
#
# Each workload: a program (static shapes), its inputs ("uniform" in
# [-1, 1), "weight" scaled by 1/sqrt(fan-in), "positive" in [0.5, 1.5)),
# the reference and the peer (named functions of `run`), the work for the
# throughput column (flops, or bytes moved for memory-bound ones) and the
# tolerance |got - ref| <= atol + rtol * |ref|.

def _t(shape, dtype):
    return f"tensor<{'x'.join(map(str, shape))}x{dtype}>"


def workloads(small: bool):
    n = 256 if small else 4096
    out = []

    def gemm(dtype, tol):
        a = _t([n, n], dtype)
        out.append(dict(
            name=f"gemm_{dtype}", title=f"GEMM {dtype} {n}^3",
            mlir=f"""func.func @main(%a: {a}, %b: {a}) -> {a} {{
  %c = graph.matmul %a, %b : {a}, {a} -> {a}
  return %c : {a}
}}""",
            inputs=[([n, n], dtype, "uniform"), ([n, n], dtype, "uniform")],
            op="matmul", flops=2 * n ** 3, tol=tol))
    # |c| ~ sqrt(n/3) ~ 37: f16 rounds at 0.03 there, bf16 at 0.25; f32
    # accumulation order differs from the float64 reference by ~1e-5.
    gemm("f16", (6e-2, 1e-2))
    gemm("bf16", (5e-1, 2e-2))
    gemm("f32", (1e-3, 1e-4))
    # The opt-in TF32 (pipeline option tf32; PyTorch with allow_tf32):
    # inputs rounded to 10 mantissa bits, ~6e-3 typical error at |c| ~ 37
    # against the float64 reference, ~5x that at the tail of 16M elements.
    gemm("f32", (1e-1, 1e-2))
    out[-1].update(name="gemm_tf32", title=f"GEMM f32 {n}^3 as TF32 (opt-in)",
                   options=["--pipeline-options=tf32=true"], tf32=True)
    # Hopper's warpgroup MMAs (chip sm_90a, graph-gpu-matmul's wgmma
    # kernel; never run on a GPU before): objects for sm_90a load only on
    # a compute capability 9.0 device, skipped elsewhere.
    # Its tiles are copied by TMA (default); gemm_f16_wgmma_cpasync is the
    # same kernel fed by cp.async (pipeline option tma=false), to compare.
    for dtype, tol in (("f16", (6e-2, 1e-2)), ("bf16", (5e-1, 2e-2))):
        gemm(dtype, tol)
        out[-1].update(name=f"gemm_{dtype}_wgmma",
                       title=f"GEMM {dtype} {n}^3, sm_90a wgmma (TMA)",
                       chip="sm_90a")
    gemm("f16", (6e-2, 1e-2))
    out[-1].update(name="gemm_f16_wgmma_cpasync",
                   title=f"GEMM f16 {n}^3, sm_90a wgmma (cp.async)",
                   chip="sm_90a", options=["--pipeline-options=tma=false"])

    m, d, h = (256, 128, 512) if small else (4096, 1024, 4096)
    x, w1, b1 = _t([m, d], "f16"), _t([d, h], "f16"), _t([h], "f16")
    w2, b2, hh, y = _t([h, d], "f16"), _t([d], "f16"), _t([m, h], "f16"), _t([m, d], "f16")
    out.append(dict(
        name="mlp_f16", title=f"MLP f16 gelu(x W1 + b1) W2 + b2, {m}x{d}x{h}",
        mlir=f"""func.func @main(%x: {x}, %w1: {w1}, %b1: {b1}, %w2: {w2}, %b2: {b2}) -> {y} {{
  %h = graph.matmul %x, %w1 : {x}, {w1} -> {hh}
  %hb = graph.add %h, %b1 : {hh}, {b1} -> {hh}
  %g = graph.gelu %hb : {hh} -> {hh}
  %o = graph.matmul %g, %w2 : {hh}, {w2} -> {y}
  %ob = graph.add %o, %b2 : {y}, {b2} -> {y}
  return %ob : {y}
}}""",
        inputs=[([m, d], "f16", "uniform"), ([d, h], "f16", "weight"),
                ([h], "f16", "uniform"), ([h, d], "f16", "weight"),
                ([d], "f16", "uniform")],
        op="mlp", flops=4 * m * d * h, tol=(3e-2, 2e-2)))

    # A batch-1 linear layer (the matrix-vector kernel, M <= 8): bound by
    # reading the weight once; the rate column is its bytes per second.
    d, h = (256, 512) if small else (4096, 4096)
    x, w, b, y = _t([1, d], "f16"), _t([d, h], "f16"), _t([h], "f16"), _t([1, h], "f16")
    out.append(dict(
        name="linear_m1_f16", title=f"linear f16 x W + b, 1x{d}x{h} (matrix-vector)",
        mlir=f"""func.func @main(%x: {x}, %w: {w}, %b: {b}) -> {y} {{
  %h = graph.matmul %x, %w : {x}, {w} -> {y}
  %o = graph.add %h, %b : {y}, {b} -> {y}
  return %o : {y}
}}""",
        inputs=[([1, d], "f16", "uniform"), ([d, h], "f16", "weight"),
                ([h], "f16", "uniform")],
        op="linear", bytes=2 * d * h, tol=(3e-2, 2e-2)))

    # A linear layer whose rows the tiles do not divide (ViT-B/16's 197
    # tokens, batch 4): the tiled kernel into C padded to the tiles, A read
    # in place with its row index clamped, the bias and rounding applied
    # in the kernel, only the rows below M stored (1 kernel).
    m, d, h = (100, 256, 192) if small else (4 * 197, 768, 3072)
    x, w, b, y = _t([m, d], "f16"), _t([d, h], "f16"), _t([h], "f16"), _t([m, h], "f16")
    out.append(dict(
        name="linear_ragged_f16",
        title=f"linear f16 x W + b, {m}x{d}x{h} (M padded to the tiles)",
        mlir=f"""func.func @main(%x: {x}, %w: {w}, %b: {b}) -> {y} {{
  %h = graph.matmul %x, %w : {x}, {w} -> {y}
  %o = graph.add %h, %b : {y}, {b} -> {y}
  return %o : {y}
}}""",
        inputs=[([m, d], "f16", "uniform"), ([d, h], "f16", "weight"),
                ([h], "f16", "uniform")],
        op="linear", flops=2 * m * d * h, tol=(3e-2, 2e-2)))

    heads, seq, hd = (2, 128, 64) if small else (16, 2048, 64)
    q = _t([1, heads, seq, hd], "f16")
    out.append(dict(
        name="attention_f16", title=f"attention f16 1x{heads}x{seq}x{hd}",
        mlir=f"""func.func @main(%q: {q}, %k: {q}, %v: {q}) -> {q} {{
  %o = graph.scaled_dot_product_attention %q, %k, %v : ({q}, {q}, {q}) -> {q}
  return %o : {q}
}}""",
        inputs=[([1, heads, seq, hd], "f16", "uniform")] * 3,
        op="attention", flops=4 * heads * seq * seq * hd, tol=(1e-2, 1e-2)))
    qb = _t([1, heads, seq, hd], "bf16")
    out.append(dict(
        name="attention_bf16", title=f"attention bf16 1x{heads}x{seq}x{hd}",
        mlir=f"""func.func @main(%q: {qb}, %k: {qb}, %v: {qb}) -> {qb} {{
  %o = graph.scaled_dot_product_attention %q, %k, %v : ({qb}, {qb}, {qb}) -> {qb}
  return %o : {qb}
}}""",
        inputs=[([1, heads, seq, hd], "bf16", "uniform")] * 3,
        op="attention", flops=4 * heads * seq * seq * hd, tol=(2e-2, 2e-2)))

    # Ragged lengths: ViT-B/16's 197 tokens (12 heads, batch 32).
    vb, vh, vs = (1, 2, 100) if small else (32, 12, 197)
    qv = _t([vb, vh, vs, hd], "f16")
    out.append(dict(
        name="attention_vit_f16", title=f"attention f16 {vb}x{vh}x{vs}x{hd} (ragged L, S)",
        mlir=f"""func.func @main(%q: {qv}, %k: {qv}, %v: {qv}) -> {qv} {{
  %o = graph.scaled_dot_product_attention %q, %k, %v : ({qv}, {qv}, {qv}) -> {qv}
  return %o : {qv}
}}""",
        inputs=[([vb, vh, vs, hd], "f16", "uniform")] * 3,
        op="attention", flops=4 * vb * vh * vs * vs * hd, tol=(1e-2, 1e-2)))
    # The same in f32: the SIMT kernel (IEEE f32; PyTorch's peer picks its
    # own f32 SDPA backend).
    qf = _t([vb, vh, vs, hd], "f32")
    out.append(dict(
        name="attention_vit_f32", title=f"attention f32 {vb}x{vh}x{vs}x{hd} (ragged L, S)",
        mlir=f"""func.func @main(%q: {qf}, %k: {qf}, %v: {qf}) -> {qf} {{
  %o = graph.scaled_dot_product_attention %q, %k, %v : ({qf}, {qf}, {qf}) -> {qf}
  return %o : {qf}
}}""",
        inputs=[([vb, vh, vs, hd], "f32", "uniform")] * 3,
        op="attention", flops=4 * vb * vh * vs * vs * hd, tol=(1e-4, 1e-4)))

    r, c = (64, 1000) if small else (4096, 4096)
    s = _t([r, c], "f32")
    out.append(dict(
        name="softmax_f32", title=f"softmax f32 {r}x{c}, last axis",
        mlir=f"""func.func @main(%x: {s}) -> {s} {{
  %r = graph.softmax %x axis = 1 : {s} -> {s}
  return %r : {s}
}}""",
        inputs=[([r, c], "f32", "uniform")], op="softmax",
        bytes=2 * r * c * 4, tol=(1e-7, 1e-5)))

    r, c = (64, 768) if small else (8192, 1024)
    s, v = _t([r, c], "f32"), _t([c], "f32")
    out.append(dict(
        name="layer_norm_f32", title=f"layer norm f32 {r}x{c}",
        mlir=f"""func.func @main(%x: {s}, %w: {v}, %b: {v}) -> {s} {{
  %r = graph.layer_norm %x, %w, %b : ({s}, {v}, {v}) -> {s}
  return %r : {s}
}}""",
        inputs=[([r, c], "f32", "uniform"), ([c], "f32", "positive"),
                ([c], "f32", "uniform")], op="layer_norm",
        bytes=2 * r * c * 4, tol=(1e-5, 1e-5)))

    # RMS norm as torch.nn.RMSNorm imports (there is no graph op; the CUDA
    # pipeline matches the chain into one row kernel).
    r, c = (64, 768) if small else (8192, 4096)
    s, v, k = _t([r, c], "f32"), _t([c], "f32"), _t([r, 1], "f32")
    out.append(dict(
        name="rms_norm_f32", title=f"RMS norm f32 {r}x{c}",
        mlir=f"""func.func @main(%x: {s}, %w: {v}) -> {s} {{
  %eps = graph.constant dense<1.0e-06> : tensor<f32>
  %sq = graph.mul %x, %x : {s}, {s} -> {s}
  %ms = graph.reduce mean %sq axes = [1] keepdims : {s} -> {k}
  %a = graph.add %ms, %eps : {k}, tensor<f32> -> {k}
  %inv = graph.rsqrt %a : {k} -> {k}
  %n = graph.mul %x, %inv : {s}, {k} -> {s}
  %y = graph.mul %n, %w : {s}, {v} -> {s}
  return %y : {s}
}}""",
        inputs=[([r, c], "f32", "uniform"), ([c], "f32", "positive")],
        op="rms_norm", bytes=2 * r * c * 4, tol=(1e-5, 1e-5)))

    shape = [2, 4, 32, 32] if small else [16, 64, 128, 128]
    s = _t(shape, "f32")
    count = math.prod(shape)
    out.append(dict(
        name="add_rank4_f32", title="add f32 " + "x".join(map(str, shape)),
        mlir=f"""func.func @main(%a: {s}, %b: {s}) -> {s} {{
  %c = graph.add %a, %b : {s}, {s} -> {s}
  return %c : {s}
}}""",
        inputs=[(shape, "f32", "uniform")] * 2, op="add",
        bytes=3 * count * 4, tol=(1e-38, 2 ** -24)))  # f32 rounding of the sum

    count = 1 << (16 if small else 24)
    s = _t([count], "f32")
    out.append(dict(
        name="bias_gelu_residual_f32",
        title=f"bias + tanh-GELU + residual f32, {count >> 20}M" if not small
        else f"bias + tanh-GELU + residual f32, {count}",
        mlir=f"""func.func @main(%x: {s}, %b: {s}, %r: {s}) -> {s} {{
  %a = graph.add %x, %b : {s}, {s} -> {s}
  %g = graph.gelu %a approximate = tanh : {s} -> {s}
  %o = graph.add %g, %r : {s}, {s} -> {s}
  return %o : {s}
}}""",
        inputs=[([count], "f32", "uniform")] * 3, op="bias_gelu_residual",
        bytes=4 * count * 4, tol=(2e-6, 1e-5)))

    r, c = (256, 256) if small else (4096, 4096)
    s = _t([r, c], "f32")
    out.append(dict(
        name="reduce_all_f32", title=f"sum of all elements, f32 {r}x{c}",
        mlir=f"""func.func @main(%x: {s}) -> tensor<f32> {{
  %r = graph.reduce sum %x axes = [0, 1] : {s} -> tensor<f32>
  return %r : tensor<f32>
}}""",
        inputs=[([r, c], "f32", "uniform")], op="sum_all",
        # f32 sums of 2^24 terms in [-1, 1), |sum| ~ 2.4e3: rows of 4096
        # (graph-gpu-split-reductions), then 4096 partial values each added
        # with a rounding error of ~1e-4: a random walk of ~1e-2 at most.
        bytes=r * c * 4, tol=(2e-2, 1e-5)))

    r, c = (64, 1000) if small else (8192, 4096)
    s, o = _t([r, c], "f32"), _t([r], "f32")
    out.append(dict(
        name="reduce_rows_f32", title=f"row sums, f32 {r}x{c}",
        mlir=f"""func.func @main(%x: {s}) -> {o} {{
  %r = graph.reduce sum %x axes = [1] : {s} -> {o}
  return %r : {o}
}}""",
        inputs=[([r, c], "f32", "uniform")], op="sum_rows",
        bytes=r * c * 4, tol=(1e-3, 1e-5)))
    return out


# ------------------------------------------------------------------ prepare

def prepare(opts) -> int:
    build = Path(os.environ.get("GRAPHOPT_BUILD_DIR", ROOT / "build"))
    graph_run = build / "bin" / "graph-run"
    runtime = build / "lib" / "libGraphOptCUDARuntime.so"
    for f in (graph_run, runtime):
        if not f.exists():
            sys.exit(f"gpu_check: {f} is missing: build graphopt first "
                     "(scripts/setup.sh, GRAPHOPT_BUILD_DIR)")
    out = Path(opts.dir)
    if out.exists():
        shutil.rmtree(out)
    (out / "lib").mkdir(parents=True)
    shutil.copy2(runtime, out / "lib")
    if opts.emulate:
        shutil.copy2(build / "lib" / "libGraphOptCUDAEmulator.so", out / "lib")
    cc = os.environ.get("CC", "cc")
    manifest = {"chip": opts.chip, "emulate": opts.emulate, "workloads": []}
    work = Path(tempfile.mkdtemp(prefix="gpu_check."))
    start = time.time()
    for w in workloads(opts.emulate):
        src = work / f"{w['name']}.mlir"
        src.write_text(w["mlir"] + "\n")
        obj = work / f"{w['name']}.o"
        cmd = [str(graph_run), str(src), "--target=cuda", "--compile-only",
               f"--emit-object={obj}", *w.get("options", [])]
        chip = w.get("chip", opts.chip)
        cmd += ["--cuda-emulate", f"--cuda-chip={chip}"] if opts.emulate else \
            [f"--cuda-chip={chip}", "--cuda-format=bin"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"gpu_check: compiling {w['name']} failed:\n{p.stderr}")
        lib = out / "lib" / f"lib{w['name']}.so"
        subprocess.run([cc, "-shared", "-o", str(lib), str(obj),
                        f"-L{out / 'lib'}", "-lGraphOptCUDARuntime",
                        "-Wl,-rpath,$ORIGIN"], check=True)
        entry = {k: v for k, v in w.items() if k != "mlir"}
        entry["lib"] = f"lib/{lib.name}"
        manifest["workloads"].append(entry)
        print(f"[gpu_check] {w['name']}: {lib.stat().st_size // 1024} KiB "
              f"({time.time() - start:.1f} s)", flush=True)
    # graphopt.load's CUDA path (python/graphopt/aot.py): the program of
    # test/Python/load-cuda*.test, with a dynamic row count.
    obj = work / "load_cuda.o"
    cmd = [str(graph_run), str(ROOT / "test" / "Python" / "Inputs" / "load_cuda.mlir"),
           "--target=cuda", "--compile-only", "--specialize-shapes=false",
           f"--emit-object={obj}"]
    cmd += ["--cuda-emulate"] if opts.emulate else \
        [f"--cuda-chip={opts.chip}", "--cuda-format=bin"]
    subprocess.run(cmd, check=True)
    subprocess.run([cc, "-shared", "-o", str(out / "lib" / "libload_cuda.so"),
                    str(obj), f"-L{out / 'lib'}", "-lGraphOptCUDARuntime",
                    "-Wl,-rpath,$ORIGIN"], check=True)
    manifest["load"] = "lib/libload_cuda.so"
    shutil.rmtree(work)
    if not opts.emulate and not opts.no_wheel:
        wheel = Path(opts.wheel) if opts.wheel else _find_or_build_wheel(build)
        (out / "wheel").mkdir()
        shutil.copy2(wheel, out / "wheel")
        manifest["wheel"] = f"wheel/{wheel.name}"
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    print(f"[gpu_check] staged {len(manifest['workloads'])} workloads in {out} "
          f"({size / 2**20:.1f} MiB)")
    return 0


def _find_or_build_wheel(build: Path) -> Path:
    """The newest wheel in dist/, rebuilt when there is none or when it is
    older than the build's libraries (the run pairs the wheel's library
    with this tree's Python package: a stale one would lack new C API
    functions and test an old compiler)."""
    dist = ROOT / "dist"
    wheels = sorted(dist.glob("graphopt-*.whl"), key=lambda p: p.stat().st_mtime)
    libs = [p.stat().st_mtime for p in (build / "lib").glob("libGraphOpt*.so")]
    stale = bool(wheels and libs and wheels[-1].stat().st_mtime < max(libs))
    if not wheels or stale:
        print("[gpu_check] building the wheel (scripts/build-wheel.sh)"
              + (f": {wheels[-1].name} is older than {build}/lib" if stale else ""),
              flush=True)
        subprocess.run([str(ROOT / "scripts" / "build-wheel.sh")], check=True,
                       env=dict(os.environ, GRAPHOPT_BUILD_DIR=str(build)))
        wheels = sorted(dist.glob("graphopt-*.whl"))
    return wheels[-1]


# ---------------------------------------------------------------------- run

class Runtime:
    """libGraphOptCUDARuntime's host API, and the compiled libraries."""

    def __init__(self, lib_dir: Path, emulate: bool):
        self.lib = ctypes.CDLL(str(lib_dir / "libGraphOptCUDARuntime.so"),
                               mode=ctypes.RTLD_GLOBAL)
        L = self.lib
        for name, res, args in [
                ("graphoptCudaUseDriver", ctypes.c_int, [ctypes.c_char_p]),
                ("graphoptCudaInit", ctypes.c_int, [ctypes.c_int]),
                ("graphoptCudaGetError", ctypes.c_char_p, []),
                ("graphoptCudaFree", None, [ctypes.c_void_p]),
                ("graphoptCudaCopyToHost", ctypes.c_int,
                 [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]),
                ("graphoptCudaSynchronize", ctypes.c_int, []),
                ("graphoptCudaEventCreate", ctypes.c_void_p, []),
                ("graphoptCudaEventDestroy", None, [ctypes.c_void_p]),
                ("graphoptCudaEventRecord", None, [ctypes.c_void_p]),
                ("graphoptCudaEventElapsedMs", ctypes.c_float,
                 [ctypes.c_void_p, ctypes.c_void_p])]:
            fn = getattr(L, name)
            fn.restype, fn.argtypes = res, args
        if emulate:
            path = str(lib_dir / "libGraphOptCUDAEmulator.so").encode()
            if L.graphoptCudaUseDriver(path) != 0:
                raise RuntimeError(self.error())
        if L.graphoptCudaInit(0) != 0:
            raise RuntimeError(self.error())

    def error(self) -> str:
        e = self.lib.graphoptCudaGetError()
        return e.decode() if e else "(no error recorded)"

    def check(self, what: str) -> None:
        if self.lib.graphoptCudaSynchronize() != 0 or \
                self.lib.graphoptCudaGetError():
            raise RuntimeError(f"{what}: {self.error()}")


# The memref descriptor, as graphopt.aot builds it: this script imports no
# graphopt module (that needs libGraphOpt.so, which the GPU machine lacks).
def _descriptor(rank: int):
    fields = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
              ("offset", ctypes.c_int64)]
    if rank:
        fields += [("sizes", ctypes.c_int64 * rank),
                   ("strides", ctypes.c_int64 * rank)]
    return type(f"MemRef{rank}D", (ctypes.Structure,), {"_fields_": fields})


class Compiled:
    """One workload's library: call(*tensors) -> result tensor (copied to
    the host, its device buffer freed)."""

    def __init__(self, rt: Runtime, path: Path, torch):
        self.rt, self.torch = rt, torch
        self.lib = ctypes.CDLL(str(path))
        address = ctypes.addressof(
            ctypes.c_char.in_dll(self.lib, "graphopt_main_signature"))
        self.sig = json.loads(ctypes.cast(address, ctypes.c_char_p).value)
        self.fn = self.lib._mlir_ciface_main
        self.fn.restype = None
        (out,) = self.sig["outputs"]
        self.out_rank = len(out["shape"])
        self.out_dtype = out["dtype"]

    def raw_call(self, *tensors):
        descs = []
        for t in tensors:
            d = _descriptor(t.dim())()
            d.allocated = d.aligned = t.data_ptr()
            d.offset = 0
            if t.dim():
                d.sizes[:] = list(t.shape)
                d.strides[:] = list(t.stride())
            descs.append(d)
        result = _descriptor(self.out_rank)()
        self.fn(ctypes.byref(result), *[ctypes.byref(d) for d in descs])
        return result

    def free(self, result) -> None:
        self.rt.lib.graphoptCudaFree(result.allocated)

    def call(self, *tensors):
        torch = self.torch
        result = self.raw_call(*tensors)
        self.rt.check("the call")
        dtype = {"f32": torch.float32, "f16": torch.float16,
                 "bf16": torch.bfloat16}[self.out_dtype]
        shape = list(result.sizes) if self.out_rank else []
        strides = list(result.strides) if self.out_rank else []
        span = 1 + sum((n - 1) * s for n, s in zip(shape, strides))
        host = torch.empty(span, dtype=dtype)
        nbytes = span * host.element_size()
        src = result.aligned + result.offset * host.element_size()
        if self.rt.lib.graphoptCudaCopyToHost(host.data_ptr(), src, nbytes) != 0:
            raise RuntimeError(f"copying the result: {self.rt.error()}")
        self.free(result)
        return torch.as_strided(host, shape, strides).clone()


def _inputs(w, torch, device):
    g = torch.Generator(device=device).manual_seed(1234)
    dtypes = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
    out = []
    for shape, dtype, kind in w["inputs"]:
        x = torch.rand(shape, generator=g, device=device, dtype=torch.float32)
        if kind == "uniform":
            x = x * 2 - 1
        elif kind == "weight":
            x = (x * 2 - 1) * (3.0 / shape[0]) ** 0.5
        elif kind == "positive":
            x = x + 0.5
        out.append(x.to(dtypes[dtype]).contiguous())
    return out


def _ops(torch):
    F = torch.nn.functional

    def mlp(x, w1, b1, w2, b2):
        return F.linear(F.gelu(F.linear(x, w1.t(), b1)), w2.t(), b2)

    def attention(q, k, v):
        return F.scaled_dot_product_attention(q, k, v)

    return {
        "matmul": torch.matmul,
        "mlp": mlp,
        "linear": lambda x, w, b: F.linear(x, w.t(), b),
        "attention": attention,
        "softmax": lambda x: torch.softmax(x, dim=1),
        "layer_norm": lambda x, w, b: F.layer_norm(x, x.shape[-1:], w, b),
        "rms_norm": lambda x, w: F.rms_norm(x, x.shape[-1:], w, 1e-6),
        "add": torch.add,
        "bias_gelu_residual": lambda x, b, r: F.gelu(x + b, approximate="tanh") + r,
        "sum_all": lambda x: x.sum(),
        "sum_rows": lambda x: x.sum(dim=1),
    }


def _reference(w, ops, args, torch):
    """In float32 for f16/bf16 inputs (the programs accumulate in f32),
    float64 for f32; the matmul reference with TF32 off."""
    wide = torch.float64 if all(a.dtype == torch.float32 for a in args) \
        else torch.float32
    if args[0].device.type == "cpu" and wide == torch.float32:
        wide = torch.float64  # CPU half matmuls are slow; float64 is exact enough
    return ops[w["op"]](*[a.to(wide) for a in args])


def _time(fn, reps, sync, events):
    times = []
    for _ in range(reps):
        start, stop = events()
        start.record()
        fn()
        stop.record()
        sync()
        times.append(start.elapsed(stop))
    return statistics.median(times)


def run(opts) -> int:
    import numpy as np  # noqa: F401  (PyTorch's CPU conversions need it)
    import torch
    d = Path(opts.dir)
    manifest = json.loads((d / "manifest.json").read_text())
    emulate = manifest["emulate"]
    results_dir = Path(os.environ.get("OUT") or d / "results")
    results_dir.mkdir(parents=True, exist_ok=True)
    if not emulate and not torch.cuda.is_available():
        sys.exit("gpu_check: PyTorch sees no GPU (prepare with --emulate for a "
                 "dry run without one)")
    device = "cpu" if emulate else "cuda"
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    log = []

    def say(msg):
        print(msg, flush=True)
        log.append(msg)

    if not emulate:
        say(f"GPU: {torch.cuda.get_device_name(0)}, PyTorch {torch.__version__}, "
            f"CUDA {torch.version.cuda}; objects for {manifest['chip']}")
    rt = Runtime(d / "lib", emulate)
    ops = _ops(torch)

    class TorchEvents:
        def __init__(self):
            self.e = torch.cuda.Event(enable_timing=True)

        def record(self):
            self.e.record()

        def elapsed(self, other):
            return self.e.elapsed_time(other.e)

    class RuntimeEvents:
        def __init__(self):
            self.e = rt.lib.graphoptCudaEventCreate()

        def record(self):
            rt.lib.graphoptCudaEventRecord(self.e)

        def elapsed(self, other):
            return rt.lib.graphoptCudaEventElapsedMs(self.e, other.e)

        def __del__(self):
            rt.lib.graphoptCudaEventDestroy(self.e)

    class WallClock:
        def record(self):
            self.t = time.perf_counter()

        def elapsed(self, other):
            return (other.t - self.t) * 1e3

    rows, failures = [], 0
    roofline = None
    if not emulate:
        a = torch.empty(1 << 28, dtype=torch.float32, device="cuda")  # 1 GiB
        b = torch.empty_like(a)
        ms = _time(lambda: b.copy_(a), 10, torch.cuda.synchronize,
                   lambda: (TorchEvents(), TorchEvents()))
        roofline = 2 * a.numel() * 4 / ms / 1e6
        say(f"device-to-device copy: {roofline:.0f} GB/s (bytes read + written)")
        del a, b
    for w in manifest["workloads"] if not opts.skip_workloads else []:
        name = w["name"]
        if not emulate and w.get("chip", "").endswith("a") and \
                "sm_%d%d" % torch.cuda.get_device_capability(0) != w["chip"][:-1]:
            say(f"{name}: skipped (objects for {w['chip']}, not this GPU)")
            rows.append((w, "skipped", None, None, None))
            continue
        try:
            lib = Compiled(rt, d / w["lib"], torch)
            args = _inputs(w, torch, device)
            ref = _reference(w, ops, args, torch)
            if not emulate:
                torch.cuda.synchronize()
            got = lib.call(*args).to(torch.float64)
            want = ref.to("cpu", torch.float64)
            atol, rtol = w["tol"]
            if got.shape != want.shape:
                raise RuntimeError(f"result shape {list(got.shape)}, expected "
                                   f"{list(want.shape)}")
            err = (got - want).abs()
            bad = int((err > atol + rtol * want.abs()).sum()) + \
                int(torch.isnan(got).sum())
            max_err = float(err.max()) if err.numel() else 0.0
            ok = bad == 0
            verdict = "ok" if ok else f"MISMATCH ({bad} elements)"
            if not ok:
                failures += 1
            say(f"{name}: {verdict}, max |error| {max_err:.3g} "
                f"(atol {atol:g}, rtol {rtol:g})")
            if emulate:
                ms_g, ms_p = _time(lambda: lib.call(*args), 2, lambda: None,
                                   lambda: (WallClock(), WallClock())), None
            else:
                peer = ops[w["op"]]
                # PyTorch's TF32 only for the workloads that opt in: set
                # once, for the warm-up and timed calls (graphopt's calls do
                # not read it), outside the timed lambdas.
                torch.backends.cuda.matmul.allow_tf32 = w.get("tf32", False)
                try:
                    for _ in range(3):
                        lib.free(lib.raw_call(*args))
                        peer(*args)
                    torch.cuda.synchronize()
                    rt.check("the warm-up calls")
                    results = []

                    def one():
                        results.append(lib.raw_call(*args))
                    ms_g = _time(one, opts.reps,
                                 lambda: rt.check("a timed call"),
                                 lambda: (RuntimeEvents(), RuntimeEvents()))
                    for r in results:
                        lib.free(r)
                    ms_p = _time(lambda: peer(*args), opts.reps,
                                 torch.cuda.synchronize,
                                 lambda: (TorchEvents(), TorchEvents()))
                finally:
                    torch.backends.cuda.matmul.allow_tf32 = False
            rows.append((w, verdict, max_err, ms_g, ms_p))
        except Exception as e:  # a failure is reported and the run goes on
            failures += 1
            say(f"{name}: FAILED: {e}")
            rows.append((w, "FAILED", None, None, None))

    def rate(w, ms):
        if ms is None:
            return "n/a"
        if "flops" in w:
            return f"{w['flops'] / ms / 1e9:.1f} TFLOP/s"
        return f"{w['bytes'] / ms / 1e6:.0f} GB/s"

    table = ["| workload | check | graphopt ms | graphopt rate | PyTorch ms | "
             "PyTorch rate | graphopt / PyTorch time |", "|---" * 7 + "|"]
    for w, verdict, _, ms_g, ms_p in rows:
        fmt = (lambda v: "n/a" if v is None else f"{v:.3f}")
        ratio = f"{ms_g / ms_p:.2f}" if ms_g and ms_p else "n/a"
        table.append(f"| {w['title']} | {verdict} | {fmt(ms_g)} | {rate(w, ms_g)} "
                     f"| {fmt(ms_p)} | {rate(w, ms_p)} | {ratio} |")
    say("")
    for line in table:
        say(line)

    lib_dir = _wheel_libs(d, manifest) if manifest.get("wheel") else None
    if manifest.get("load") and not opts.skip_jit:
        failures += _run_load(d, manifest, emulate, lib_dir, results_dir, say)
    if manifest.get("wheel") and not opts.skip_jit:
        worked = _run_jit(lib_dir, results_dir, say)
        failures += 2 - len(worked)
        if worked and not opts.skip_e2e:
            options = [] if "isa" in worked else ["format=bin"]
            failures += _run_e2e(d, manifest, opts, results_dir, say, lib_dir,
                                 options)
    (results_dir / "gpu_check.md").write_text("\n".join(log) + "\n")
    say(f"gpu_check: {'all checks passed' if not failures else f'{failures} FAILED'}")
    return 1 if failures else 0


_JIT_PROGRAM = r"""
import faulthandler, sys
import numpy as np
faulthandler.enable()
sys.path.insert(0, sys.argv[2])
import graphopt
text = '''func.func @main(%a: tensor<4x1000xf32>, %b: tensor<1000xf32>) -> tensor<4x1000xf32> {
  %c = graph.add %a, %b : tensor<4x1000xf32>, tensor<1000xf32> -> tensor<4x1000xf32>
  %r = graph.relu %c : tensor<4x1000xf32> -> tensor<4x1000xf32>
  return %r : tensor<4x1000xf32>
}'''
print("compiling (format=%s)" % sys.argv[1], flush=True)
program = graphopt.Program(text, target="cuda", format=sys.argv[1])
print("compiled; calling", flush=True)
a = np.linspace(-1, 1, 4000, dtype=np.float32).reshape(4, 1000)
b = np.linspace(-0.5, 0.5, 1000, dtype=np.float32)
(r,) = program(a, b)
want = np.maximum(a + b, 0)
print("max |error|", float(np.abs(r - want).max()), flush=True)
ok = bool(np.array_equal(r, want))
# Device memory in and out, no copy through the host: Program.run_device on
# torch CUDA tensors, and compile() called with CUDA tensors (its first call
# of a signature compiles through the host; later ones stay on the device).
import torch
if torch.cuda.is_available():
    ta, tb = torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda()
    out = torch.empty(4, 1000, device="cuda")
    program.run_device([ta, tb], [out], torch.cuda.current_stream().cuda_stream or 1)
    e1 = bool(torch.equal(out.cpu(), torch.from_numpy(want)))
    print("run_device on CUDA tensors matches NumPy:", e1, flush=True)
    class AddRelu(torch.nn.Module):
        def forward(self, x, y):
            return torch.relu(x + y) * 2
    m = graphopt.compile(AddRelu(), target="cuda")
    r1, r2 = m(ta, tb), m(ta, tb)
    ref = torch.relu(ta + tb) * 2
    e2 = bool(r2.is_cuda and torch.allclose(r2, ref) and torch.allclose(r1, ref)
              and m.device_calls == 1)
    print("compile() on CUDA tensors, second call on the device "
          f"(device_calls={m.device_calls}):", e2, flush=True)
    ok = ok and e1 and e2
sys.exit(0 if ok else 1)
"""


def _run_script(argv, env, timeout=120):
    """``(output, exit status)`` of a check's own process; "timeout" when
    it runs past ``timeout`` seconds."""
    try:
        p = subprocess.run(argv, capture_output=True, text=True, env=env,
                           timeout=timeout)
        return p.stdout + p.stderr, p.returncode
    except subprocess.TimeoutExpired:
        return "", "timeout"


def _run_load(d, manifest, emulate, lib_dir, results_dir, say) -> int:
    """graphopt.load of a CUDA object (test/Python/Inputs/load_cuda_check.py,
    as load-cuda-gpu.test runs it): NumPy arrays, CPU tensors and, on a GPU,
    torch CUDA tensors (also a view at an odd offset) in. Returns the
    failure count."""
    env = dict(os.environ, PYTHONUNBUFFERED="1",
               PYTHONPATH=str(ROOT / "python"))
    if lib_dir is not None:
        env["GRAPHOPT_LIBRARY"] = str(lib_dir / "libGraphOpt.so")
    argv = [sys.executable,
            str(ROOT / "test" / "Python" / "Inputs" / "load_cuda_check.py"),
            str(d / manifest["load"])]
    if emulate:
        env["GRAPHOPT_CUDA_DRIVER"] = str(d / "lib" / "libGraphOptCUDAEmulator.so")
    else:
        argv.append("gpu")
    out, rc = _run_script(argv, env)
    (results_dir / "load.log").write_text(out)
    checks = [line for line in out.splitlines()
              if line.endswith((" True", " False"))]
    for line in checks:
        say(f"load: {line}")
    bad = rc != 0 or not checks or any(c.endswith("False") for c in checks)
    say(f"load: exit {rc}" + ("" if not bad else " FAILED: see load.log"))
    return 1 if bad else 0


def _wheel_libs(d, manifest) -> Path:
    """The wheel's native libraries, unpacked (this tree's Python package
    runs with them through GRAPHOPT_LIBRARY)."""
    lib_dir = Path(tempfile.mkdtemp(prefix="gpu_check_lib."))
    with zipfile.ZipFile(d / manifest["wheel"]) as z:
        for info in z.infolist():
            if info.filename.startswith("graphopt/_lib/") and not info.is_dir():
                target = lib_dir / Path(info.filename).name
                target.write_bytes(z.read(info))
    return lib_dir


def _run_jit(lib_dir, results_dir, say) -> list:
    """A small program through the JIT (graphopt.Program, target cuda) in
    each device-code format, each in its own process; a crash is rerun
    under cuda-gdb, where there is one, for the native backtrace. Returns
    the formats that worked."""
    script = Path(tempfile.mkdtemp(prefix="gpu_check_jit.")) / "jit.py"
    script.write_text(_JIT_PROGRAM)
    env = dict(os.environ, GRAPHOPT_LIBRARY=str(lib_dir / "libGraphOpt.so"),
               PYTHONUNBUFFERED="1", GRAPHOPT_CUDA_SYNC="1")
    worked = []
    for fmt in ("bin", "isa"):
        argv = [sys.executable, str(script), fmt, str(ROOT / "python")]
        out, rc = _run_script(argv, env)
        (results_dir / f"jit_{fmt}.log").write_text(out)
        lines = out.strip().splitlines()
        say(f"jit format={fmt}: exit {rc}; " + " / ".join(lines[-3:]))
        if rc == 0:
            worked.append(fmt)
            continue
        gdb = shutil.which("cuda-gdb")
        if isinstance(rc, int) and rc < 0 and gdb:
            try:
                p = subprocess.run([gdb, "-batch", "-ex", "run", "-ex", "bt 40",
                                    "--args"] + argv, capture_output=True,
                                   text=True, env=env, timeout=150)
                trace = p.stdout + p.stderr
            except subprocess.TimeoutExpired as e:
                trace = f"cuda-gdb timed out: {e}"
            (results_dir / f"jit_{fmt}_gdb.log").write_text(trace)
            frames = [line for line in trace.splitlines() if line.startswith("#")]
            for line in frames[:25]:
                say(f"  {line[:220]}")
    return worked


def _run_e2e(d, manifest, opts, results_dir, say, lib_dir, options) -> int:
    """The e2e suite on the GPU, with the wheel's compiler and this tree's
    Python package."""
    # A worker that dies leaves its Python traceback in the log (-v).
    env = dict(os.environ, GRAPHOPT_LIBRARY=str(lib_dir / "libGraphOpt.so"),
               PYTHONUNBUFFERED="1", PYTHONFAULTHANDLER="1")
    cmd = [sys.executable, str(ROOT / "test" / "e2e" / "run.py"), "-v",
           "--target", "cuda", "--xfail", str(ROOT / "test" / "e2e" / "xfail-cuda.txt"),
           "-j", str(opts.jobs)] + [f"--option={o}" for o in options]
    if opts.e2e_isolate:
        cmd.append("--isolate")
    if opts.e2e_filter:
        cmd += ["--filter", opts.e2e_filter]
    say(f"e2e: {' '.join(cmd[1:])}")
    start = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env,
                           timeout=opts.e2e_timeout)
        output, rc = p.stdout + p.stderr, p.returncode
    except subprocess.TimeoutExpired as e:
        output = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        rc = f"timed out after {opts.e2e_timeout} s"
    (results_dir / "e2e.log").write_text(output)
    tail = [line for line in output.splitlines()
            if line.startswith(("FAIL", "XPASS", "ERROR"))][:20]
    summary = [line for line in output.splitlines() if "passed" in line][-1:]
    for line in tail + summary:
        say(f"e2e: {line}")
    say(f"e2e: exit {rc} in {time.time() - start:.0f} s")
    return 0 if rc == 0 else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("prepare", help="compile and stage (this machine)")
    p.add_argument("--dir", default=str(DEFAULT_DIR))
    p.add_argument("--chip", default="sm_90")
    p.add_argument("--emulate", action="store_true",
                   help="small shapes, emulated kernels: a dry run without a GPU")
    p.add_argument("--wheel", help="the wheel to stage (default: the newest "
                   "in dist/, built by scripts/build-wheel.sh if there is none)")
    p.add_argument("--no-wheel", action="store_true",
                   help="stage no wheel (the run skips the e2e suite)")
    r = sub.add_parser("run", help="check and time (the GPU machine)")
    r.add_argument("--dir", default=str(DEFAULT_DIR))
    r.add_argument("--reps", type=int, default=20)
    r.add_argument("--jobs", type=int, default=8, help="e2e workers")
    r.add_argument("--e2e-timeout", type=int, default=240)
    r.add_argument("--e2e-filter", metavar="REGEX", help="only these e2e cases")
    r.add_argument("--e2e-isolate", action="store_true",
                   help="a process per e2e case (a crash fails one case, not "
                        "the run; slower: PyTorch is imported per case)")
    r.add_argument("--skip-e2e", action="store_true")
    r.add_argument("--skip-jit", action="store_true",
                   help="neither the JIT check nor the e2e suite")
    r.add_argument("--skip-workloads", action="store_true")
    opts = ap.parse_args()
    return prepare(opts) if opts.command == "prepare" else run(opts)


if __name__ == "__main__":
    sys.exit(main())
