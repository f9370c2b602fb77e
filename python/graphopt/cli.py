"""Command line: ``python -m graphopt {import,optimize,run,onnx-support,version}``.

    python -m graphopt import model.py:ResNet --shape 1x3x224x224 -o model.mlir
    python -m graphopt import model.onnx --dim batch=1 -o model.mlir
    python -m graphopt import model.py:my_function --shape 128x128 --shape 128x128
    python -m graphopt optimize model.mlir -o model.opt.mlir
    python -m graphopt run model.py:ResNet --shape 1x3x224x224 --benchmark 10

A model is named ``FILE.py:NAME``: NAME is an ``nn.Module`` subclass
(instantiated with no arguments and put in eval mode), a module instance, a
function, or a TorchScript function/module defined in FILE. A saved
TorchScript archive (``FILE.pt``/``FILE.pth``, from ``torch.jit.save``) is
accepted too. Inputs are random (fixed seed) with the given shapes.

``import FILE.onnx`` imports an ONNX model (``graphopt.import_onnx``; the
input shapes come from the file, ``--dim NAME=SIZE`` fixes a named dynamic
dim); ``onnx-support`` prints the ONNX support table (docs/ONNXSupport.md).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path

_DTYPES = {
    "f32": "float32", "float32": "float32", "float": "float32",
    "f16": "float16", "float16": "float16", "half": "float16",
    "f64": "float64", "float64": "float64", "double": "float64",
    "i8": "int8", "int8": "int8",
    "i16": "int16", "int16": "int16", "short": "int16",
    "ui8": "uint8", "uint8": "uint8", "ui16": "uint16", "uint16": "uint16",
    "ui32": "uint32", "uint32": "uint32", "ui64": "uint64", "uint64": "uint64",
    "i32": "int32", "int32": "int32",
    "i64": "int64", "int64": "int64", "long": "int64",
    "i1": "bool", "bool": "bool",
}


class CLIError(Exception):
    """A user error: printed without a traceback, exit code 2."""


# --------------------------------------------------------------------------
# Loading models and making inputs
# --------------------------------------------------------------------------

def parse_shape(text: str) -> tuple:
    """``1x3x224x224`` -> (1, 3, 224, 224); ``scalar`` (or empty) -> ()."""
    text = text.strip()
    if text in ("", "scalar"):
        return ()
    try:
        dims = tuple(int(d) for d in text.lower().split("x"))
    except ValueError:
        raise CLIError(f"bad --shape {text!r}: expected dims joined by 'x', "
                       "e.g. 1x3x224x224 (or 'scalar')") from None
    if any(d < 0 for d in dims):
        raise CLIError(f"bad --shape {text!r}: negative dim")
    return dims


def _load_python(path: Path, name: str):
    import torch
    if not path.is_file():
        raise CLIError(f"no such file: {path}")
    spec = importlib.util.spec_from_file_location(
        f"_graphopt_user_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent.resolve()))  # its own imports
    try:
        spec.loader.exec_module(module)
    except SyntaxError as e:
        raise CLIError(f"{e.filename}:{e.lineno}: syntax error: {e.msg}") from None
    finally:
        sys.path.pop(0)
    if not hasattr(module, name):
        raise CLIError(f"{path} defines no {name!r}")
    obj = getattr(module, name)
    if isinstance(obj, type):
        if not issubclass(obj, torch.nn.Module):
            raise CLIError(f"{path}:{name} is a class but not an nn.Module")
        try:
            obj = obj()
        except TypeError as e:
            raise CLIError(f"cannot instantiate {name}() without arguments: "
                           f"{e}") from None
    if isinstance(obj, torch.nn.Module):
        obj.eval()
    elif not callable(obj):
        raise CLIError(f"{path}:{name} is neither an nn.Module nor callable")
    return obj


def load_model(spec: str):
    """Loads ``FILE.py:NAME`` or a TorchScript archive ``FILE.pt``."""
    path_text, _, name = spec.rpartition(":") if ":" in spec else (spec, "", "")
    path = Path(path_text)
    suffix = path.suffix.lower()
    if suffix == ".onnx":
        raise CLIError(f"{path}: an ONNX model is imported with "
                       "`python -m graphopt import`, not run")
    if suffix in (".pt", ".pth") and not name:
        import torch
        if not path.is_file():
            raise CLIError(f"no such file: {path}")
        try:
            return torch.jit.load(str(path)).eval()
        except (RuntimeError, ValueError, OSError) as e:
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise CLIError(f"{path}: not a TorchScript archive ({first})") from None
    if suffix != ".py" or not name:
        raise CLIError(
            f"cannot load {spec!r}: name a model as FILE.py:NAME (NAME: an "
            "nn.Module class, a module instance or a function), or a "
            "TorchScript archive FILE.pt")
    return _load_python(path, name)


def make_inputs(shapes, dtypes, seed: int):
    """Random inputs: floats ~ N(0, 1), integers in [0, 10), bools."""
    import torch
    if not dtypes:
        dtypes = ["f32"]
    if len(dtypes) == 1:
        dtypes = dtypes * len(shapes)
    if len(dtypes) != len(shapes):
        raise CLIError(f"{len(dtypes)} --dtype for {len(shapes)} --shape: give "
                       "one --dtype for all inputs or one per --shape")
    gen = torch.Generator().manual_seed(seed)
    inputs = []
    for shape, dt in zip(shapes, dtypes):
        if dt not in _DTYPES:
            raise CLIError(f"unknown --dtype {dt!r}; one of: "
                           + ", ".join(sorted(set(_DTYPES))))
        tdt = getattr(torch, _DTYPES[dt])
        if tdt.is_floating_point:
            inputs.append(torch.randn(shape, generator=gen).to(tdt))
        elif tdt == torch.bool:
            inputs.append(torch.rand(shape, generator=gen) > 0.5)
        else:
            inputs.append(torch.randint(0, 10, shape, generator=gen, dtype=tdt))
    return tuple(inputs)


def _import_text(model, inputs, params_as_args, dynamic_batch):
    import torch
    from .importer import import_torch, import_torchscript
    if isinstance(model, (torch.jit.ScriptModule, torch.jit.ScriptFunction)):
        if params_as_args or dynamic_batch:
            raise CLIError("--params-as-args and --dynamic-batch are not "
                           "supported for TorchScript models")
        return import_torchscript(model, inputs)
    dynamic = {i: [0] for i, t in enumerate(inputs) if t.dim() > 0} \
        if dynamic_batch else None
    return import_torch(model, inputs, params_as_args=params_as_args,
                        dynamic_dims=dynamic)


# --------------------------------------------------------------------------
# Commands
# --------------------------------------------------------------------------

def _write(text: str, output) -> None:
    if output in (None, "-"):
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    else:
        Path(output).write_text(text if text.endswith("\n") else text + "\n")


def import_onnx_file(path: Path, args) -> str:
    """``import FILE.onnx``: shapes come from the file; ``--dim NAME=SIZE``
    fixes a named dynamic dim."""
    try:
        from .importer.onnx import import_onnx
    except ImportError as e:
        raise CLIError(
            f"{path}: ONNX models need the onnx package ({e}); "
            "pip install onnx") from None
    if args.shape or args.dtype or args.params_as_args or args.dynamic_batch:
        raise CLIError("--shape, --dtype, --params-as-args and "
                       "--dynamic-batch apply to PyTorch models; an ONNX "
                       "model's inputs are described by the file")
    if not path.is_file():
        raise CLIError(f"no such file: {path}")
    dims = {}
    for d in args.dim:
        name, sep, size = d.partition("=")
        if not sep or not size.isdigit():
            raise CLIError(f"bad --dim {d!r}: expected NAME=SIZE")
        dims[name] = int(size)
    return import_onnx(str(path), entry=args.entry, dim_values=dims)


def cmd_import(args) -> int:
    if Path(args.model).suffix.lower() == ".onnx":
        try:
            text = import_onnx_file(Path(args.model), args)
        except (ValueError, OSError) as e:  # an invalid model: no traceback
            print(f"graphopt: error: {e}", file=sys.stderr)
            return 1
    else:
        if args.dim or args.entry != "main":
            raise CLIError("--dim and --entry apply to ONNX models")
        if not args.shape:
            raise CLIError("give the input shapes with --shape (once per "
                           "input)")
        model = load_model(args.model)
        inputs = make_inputs([parse_shape(s) for s in args.shape],
                             args.dtype, args.seed)
        text = _import_text(model, inputs, args.params_as_args,
                            args.dynamic_batch)
    if args.optimize:
        from . import optimize
        text = optimize(text)
    _write(text, args.output)
    return 0


def cmd_onnx_support(args) -> int:
    from .importer.onnx import support_table
    _write(support_table(), args.output)
    return 0


def cmd_optimize(args) -> int:
    from . import optimize
    text = sys.stdin.read() if args.input == "-" else Path(args.input).read_text()
    _write(optimize(text, args.pipeline, debug_locations=args.debug_locations),
           args.output)
    return 0


def cmd_run(args) -> int:
    import numpy as np
    import torch
    from .compiler import compile as _compile
    if not args.shape:
        raise CLIError("give the input shapes with --shape (once per input)")
    model = load_model(args.model)
    inputs = make_inputs([parse_shape(s) for s in args.shape], args.dtype,
                         args.seed)
    dynamic = {i: [0] for i, t in enumerate(inputs) if t.dim() > 0} \
        if args.dynamic_batch else None
    options = {}
    if args.opt_level is not None:
        options["opt_level"] = args.opt_level
    compiled = _compile(model, inputs, optimize=not args.no_optimize,
                        dynamic_dims=dynamic,
                        params_as_args=args.params_as_args,
                        timing=args.timing, **options)
    t = compiled.timings
    print(f"compiled: import {t['import']:.3f} s, lower {t['lower']:.3f} s, "
          f"codegen {t['codegen']:.3f} s")
    got = compiled(*inputs)
    with torch.no_grad():
        want = model(*inputs)
    got_l = list(got) if isinstance(got, (tuple, list)) else [got]
    want_l = list(want) if isinstance(want, (tuple, list)) else [want]
    status = 0
    for i, (g, w) in enumerate(zip(got_l, want_l)):
        g, w = g.numpy(), w.detach().numpy()
        if g.shape != w.shape:
            print(f"result {i}: shape {g.shape}, eager {w.shape}")
            status = 1
            continue
        err = float(np.max(np.abs(g.astype(np.float64) - w))) if g.size else 0.0
        print(f"result {i}: {g.dtype}{list(g.shape)}, max |graphopt - eager| "
              f"= {err:.3g}")
    if args.benchmark:
        _benchmark(lambda: compiled(*inputs), args.benchmark)
    return status


def _random_input(spec, rng):
    """A random array for a program input: normal floats, small integers."""
    import numpy as np
    if spec.dtype is None or None in spec.shape:
        raise CLIError(f"input {spec.type_str} has dynamic dims or an "
                       "unsupported type: give it with --arg FILE.npy")
    dtype = np.dtype(spec.dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, spec.shape).astype(np.bool_)
    if dtype.kind in "iu":
        low = 0 if dtype.kind == "u" else -3
        return rng.integers(low, 4, spec.shape).astype(dtype)
    return rng.standard_normal(spec.shape).astype(dtype)


def cmd_run_mlir(args) -> int:
    """graph-run's main use, over the C API: compile an MLIR file's entry,
    run it on given or random inputs, check against expected outputs."""
    import numpy as np
    from ._native import Program
    def load(path):
        try:
            return np.load(path, allow_pickle=False)
        except (OSError, ValueError) as e:
            raise CLIError(f"cannot read {path} as a .npy file: {e}")
    try:
        text = Path(args.input).read_text()
    except OSError as e:
        raise CLIError(f"cannot read {args.input}: {e.strerror or e}")
    options = {}
    if args.opt_level is not None:
        options["opt_level"] = args.opt_level
    if args.threads is not None:
        options["threads"] = args.threads
    program = Program(text, args.entry, optimize=not args.no_optimize,
                      timing=args.timing, **options)
    if len(args.arg) > len(program.inputs):
        raise CLIError(f"{len(args.arg)} --arg files for @{args.entry}, which "
                       f"takes {len(program.inputs)} inputs")
    rng = np.random.default_rng(args.seed)
    inputs = []
    for i, spec in enumerate(program.inputs):
        if i < len(args.arg):
            inputs.append(load(args.arg[i]))
        else:
            inputs.append(_random_input(spec, rng))
    results = program.run(inputs)
    print(f"compiled @{args.entry}: lower {program.lower_seconds:.3f} s, "
          f"codegen {program.codegen_seconds:.3f} s")
    if len(args.expected_output) > len(results):
        raise CLIError(f"{len(args.expected_output)} --expected-output files, "
                       f"but @{args.entry} returns {len(results)} results")
    status = 0
    for i, r in enumerate(results):
        line = f"result {i}: {r.dtype}{list(r.shape)}"
        if i < len(args.expected_output):
            want = load(args.expected_output[i])
            if want.dtype != r.dtype or want.shape != r.shape:
                line += (f": expected {want.dtype}{list(want.shape)} "
                         "(element type or shape differ)")
                status = 1
            else:
                ok = np.allclose(r, want, rtol=args.rtol, atol=args.atol,
                                 equal_nan=True)
                diff = float(np.max(np.abs(r.astype(np.float64) -
                                           want.astype(np.float64)))) if r.size else 0.0
                line += (f", max |got - expected| = {diff:.3g} "
                         f"({'within' if ok else 'NOT within'} rtol "
                         f"{args.rtol:g}, atol {args.atol:g})")
                status = status or (0 if ok else 1)
        print(line)
        if args.save:
            out = f"{args.save}{i}.npy"
            np.save(out, r)
            print(f"  written to {out}")
    if args.benchmark:
        _benchmark(lambda: program.run(inputs), args.benchmark)
    return status


def _benchmark(call, runs: int) -> None:
    """Times `runs` calls after up to 3 untimed ones; prints median and min."""
    for _ in range(min(3, runs)):
        call()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        call()
        times.append(time.perf_counter() - t)
    times.sort()
    print(f"benchmark: median {times[len(times) // 2] * 1e3:.3f} ms, "
          f"min {times[0] * 1e3:.3f} ms ({runs} runs)")


def cmd_version(args) -> int:
    from . import __version__, LIBRARY_PATH, native_version
    print(f"graphopt {__version__} (libGraphOpt {native_version()}, "
          f"{LIBRARY_PATH})")
    return 0


# --------------------------------------------------------------------------
# Argument parsing
# --------------------------------------------------------------------------

def _nonnegative_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number")
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"{text}: give a value >= 0")
    return value


def _model_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", metavar="MODEL",
                   help="FILE.py:NAME (an nn.Module class instantiated with "
                        "no arguments, a module instance, or a function), or "
                        "a TorchScript archive FILE.pt; `import` also takes "
                        "an ONNX model FILE.onnx (through the ONNX importer "
                        "when it is available)")
    p.add_argument("--shape", action="append", default=[],
                   metavar="DIMS",
                   help="shape of one input, dims joined by 'x' (1x3x224x224; "
                        "'scalar' for rank 0); repeat once per input, in "
                        "order (required for PyTorch models)")
    p.add_argument("--dtype", action="append", default=[], metavar="DTYPE",
                   help="element type of the inputs: f32 (default), f16, "
                        "f64, i8, i16, i32, i64, ui8, ui16, ui32, ui64, bool; "
                        "once for all inputs or once per --shape")
    p.add_argument("--seed", type=int, default=0,
                   help="seed of the random inputs (default 0)")
    p.add_argument("--params-as-args", action="store_true",
                   help="make parameters and buffers function arguments "
                        "instead of constants in the MLIR")
    p.add_argument("--dynamic-batch", action="store_true",
                   help="make dim 0 (the batch) of every input dynamic ('?')")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m graphopt",
        description="graphopt: import PyTorch models to MLIR, optimize and "
                    "JIT-run them on the CPU.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("import", help="import a PyTorch model to MLIR text",
                       description="Import a PyTorch model (called on random "
                                   "inputs of the given shapes) to MLIR in "
                                   "the graph dialect.")
    _model_args(p)
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write the MLIR here (default: stdout)")
    p.add_argument("--optimize", action="store_true",
                   help="also run graph-level optimization on the result")
    p.add_argument("--dim", action="append", default=[], metavar="NAME=SIZE",
                   help="ONNX: fix a named dynamic dimension (dim_param); "
                        "repeatable")
    p.add_argument("--entry", default="main",
                   help="ONNX: the function's name (default main)")
    p.set_defaults(func=cmd_import)

    p = sub.add_parser("onnx-support", help="print the ONNX support table",
                       description="Print docs/ONNXSupport.md, generated "
                                   "from the ONNX importer's op registry.")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write the table here (default: stdout)")
    p.set_defaults(func=cmd_onnx_support)

    p = sub.add_parser("optimize", help="run a pass pipeline on MLIR text",
                       description="Parse, verify and transform MLIR text "
                                   "with a graph-opt pass pipeline.")
    p.add_argument("input", metavar="FILE",
                   help="the MLIR file ('-' for stdin)")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write the result here (default: stdout)")
    p.add_argument("--pipeline",
                   default="builtin.module(graph-optimize-pipeline)",
                   help="textual pass pipeline (default: %(default)s)")
    p.add_argument("--debug-locations", action="store_true",
                   help="print locations in the output")
    p.set_defaults(func=cmd_optimize)

    p = sub.add_parser("run", help="compile a model, run it and compare with "
                                   "eager PyTorch",
                       description="Compile a PyTorch model with "
                                   "graphopt.compile, run it on random "
                                   "inputs and print the largest difference "
                                   "from eager PyTorch.")
    _model_args(p)
    p.add_argument("--no-optimize", action="store_true",
                   help="skip graph-level optimization")
    p.add_argument("--opt-level", type=int, choices=range(4), metavar="N",
                   help="LLVM optimization level 0..3")
    p.add_argument("--timing", action="store_true",
                   help="print per-pass and per-phase compile times")
    p.add_argument("--benchmark", type=int, default=0, metavar="N",
                   help="time N runs and print median and min")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("run-mlir", help="compile and run a function of an "
                                        "MLIR file (graph-run's main use)",
                       description="JIT-compile a function of an MLIR file "
                                   "(graph dialect), run it on .npy inputs "
                                   "or random ones, print its results and "
                                   "compare them with expected .npy files. "
                                   "Exit status 1 on a mismatch.")
    p.add_argument("input", metavar="FILE", help="the MLIR file")
    p.add_argument("--entry", default="main",
                   help="the function to run (default: main)")
    p.add_argument("--arg", action="append", default=[], metavar="FILE.npy",
                   help="an input, in order (repeat); inputs not given are "
                        "random (normal floats, integers in [-3, 3])")
    p.add_argument("--seed", type=int, default=0,
                   help="seed of the random inputs (default 0)")
    p.add_argument("--expected-output", action="append", default=[],
                   metavar="FILE.npy",
                   help="the expected value of a result, in order (repeat)")
    p.add_argument("--rtol", type=_nonnegative_float, default=1e-5,
                   help="relative tolerance of the comparison (default 1e-5)")
    p.add_argument("--atol", type=_nonnegative_float, default=1e-6,
                   help="absolute tolerance of the comparison (default 1e-6)")
    p.add_argument("--save", metavar="PREFIX",
                   help="write result i to PREFIX<i>.npy")
    p.add_argument("--no-optimize", action="store_true",
                   help="skip graph-level optimization")
    p.add_argument("--opt-level", type=int, choices=range(4), metavar="N",
                   help="LLVM optimization level 0..3")
    p.add_argument("--threads", type=int, metavar="N",
                   help="threads of the generated code (default: the cores "
                        "this process may use)")
    p.add_argument("--timing", action="store_true",
                   help="print per-pass and per-phase compile times")
    p.add_argument("--benchmark", type=int, default=0, metavar="N",
                   help="time N runs and print median and min")
    p.set_defaults(func=cmd_run_mlir)

    p = sub.add_parser("version", help="print the package and library "
                                       "versions")
    p.set_defaults(func=cmd_version)
    return parser


def main(argv=None) -> int:
    import warnings
    # torch.jit is deprecated upstream; loading/scripting still works.
    warnings.filterwarnings("ignore", category=FutureWarning,
                            message=r".*torch\.jit")
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except CLIError as e:
        print(f"graphopt: error: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # importer/compiler errors: message, no traceback
        from ._native import GraphOptError
        names = {"UnsupportedOpsError"}
        if isinstance(e, GraphOptError) or type(e).__name__ in names:
            print(f"graphopt: error: {e}", file=sys.stderr)
            return 1
        raise


if __name__ == "__main__":
    sys.exit(main())
