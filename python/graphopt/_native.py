"""ctypes bindings of libGraphOpt.so's C API (include/graphopt-c/GraphOpt.h).

This module is the only place that touches the native library. It offers:

* :func:`version` and :func:`transform` (parse, run a pass pipeline, print);
* :class:`Program`, a module JIT-compiled for the host CPU, run on NumPy
  arrays;
* the exception classes :class:`GraphOptError`, :class:`CompileError` and
  :class:`ExecutionError`, which carry the C++ diagnostics (with locations).

Where the library is found, first match wins:

1. ``$GRAPHOPT_LIBRARY`` when set (an explicit override, never required);
2. ``graphopt/_lib/libGraphOpt.so``: the copy that ``pip install`` bundles;
3. ``<repo>/build/lib/libGraphOpt.so``: the build tree next to the sources,
   for ``PYTHONPATH=python`` and editable (``pip install -e``) installs.

If none exists, importing this module raises :class:`ImportError` that says
to run ``scripts/setup.sh``.
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Optional, Sequence

import numpy as np

__all__ = [
    "GraphOptError", "CompileError", "ExecutionError", "TensorSpec",
    "Program", "transform", "version", "LIBRARY_PATH",
]

_LIB_NAME = "libGraphOpt.so"


# --------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------

class GraphOptError(Exception):
    """Base class of every error reported by the graphopt compiler/runtime.

    ``diagnostics`` holds the full text returned by the C++ side (MLIR
    diagnostics with their locations), ``str(err)`` shows it too.
    """

    def __init__(self, message: str, diagnostics: str = ""):
        super().__init__(message)
        self.diagnostics = diagnostics or message


class CompileError(GraphOptError):
    """Parsing, verifying, a pass pipeline or code generation failed."""


class ExecutionError(GraphOptError):
    """A compiled program could not run: inputs that do not match its
    signature (the message names the input and the dim) or a runtime
    failure."""


# --------------------------------------------------------------------------
# Loading the library
# --------------------------------------------------------------------------

_PACKAGE_DIR = Path(__file__).resolve().parent


def _candidates() -> list[Path]:
    found = []
    override = os.environ.get("GRAPHOPT_LIBRARY")
    if override:
        if not Path(override).is_file():
            raise ImportError(f"graphopt: GRAPHOPT_LIBRARY={override} is not a "
                              "file; unset it to use the package's own library")
        found.append(Path(override))
    found.append(_PACKAGE_DIR / "_lib" / _LIB_NAME)
    # python/graphopt/_native.py -> <repo>/build/lib
    repo = _PACKAGE_DIR.parent.parent
    build = os.environ.get("GRAPHOPT_BUILD_DIR")
    if build:
        found.append(Path(build) / "lib" / _LIB_NAME)
    found.append(repo / "build" / "lib" / _LIB_NAME)
    return found


def _load() -> tuple[ctypes.CDLL, Path]:
    tried = _candidates()
    for path in tried:
        if path.is_file():
            try:
                # RTLD_LOCAL until the first compile: see _ensure_runtime().
                return ctypes.CDLL(str(path), mode=ctypes.RTLD_LOCAL), path
            except OSError as e:  # e.g. libMLIR.so missing
                raise ImportError(
                    f"graphopt: cannot load {path}: {e}. (Is it being "
                    "rebuilt? It also needs the MLIR/LLVM 22 runtime in "
                    "/usr/lib/llvm-22/lib.) Run scripts/setup.sh from the "
                    "graphopt repository to install and build it.") from e
    raise ImportError(
        "graphopt: the native library libGraphOpt.so was not found; looked "
        "in:\n  " + "\n  ".join(str(p) for p in tried) + "\nBuild it with "
        "scripts/setup.sh (in the graphopt repository), then use the package "
        "in-tree (PYTHONPATH=python), or reinstall it with "
        "`pip install python/` so that the library is bundled.")


_lib, LIBRARY_PATH = _load()


class _CTensor(ctypes.Structure):
    """``graphopt_tensor``."""
    _fields_ = [
        ("dtype", ctypes.c_int32),
        ("rank", ctypes.c_int32),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("data", ctypes.c_void_p),
    ]


_err_p = ctypes.POINTER(ctypes.c_char_p)
_prog_p = ctypes.c_void_p
_res_p = ctypes.c_void_p


def _declare(name, restype, *argtypes):
    fn = getattr(_lib, name)
    fn.restype = restype
    fn.argtypes = list(argtypes)
    return fn


# Strings the library allocates are returned as c_void_p so that we can free
# them (ctypes would convert c_char_p to bytes and lose the pointer).
_version = _declare("graphopt_version", ctypes.c_char_p)
_hash128 = _declare("graphopt_hash128", None, ctypes.c_void_p, ctypes.c_size_t,
                    ctypes.POINTER(ctypes.c_uint64))
_cache_directory = _declare("graphopt_cache_directory", ctypes.c_void_p)
_release_cached_memory = _declare("graphopt_release_cached_memory", ctypes.c_size_t)
_pipeline_options = _declare("graphopt_pipeline_options", ctypes.c_char_p)
_string_free = _declare("graphopt_string_free", None, ctypes.c_void_p)
_transform = _declare("graphopt_transform", ctypes.c_void_p, ctypes.c_char_p,
                      ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p))


class _CConstantData(ctypes.Structure):
    """``graphopt_constant_data``."""
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("data", ctypes.c_void_p),
        ("size", ctypes.c_int64),
    ]


# graphopt_compile is graphopt_compile_with_constants without constants:
# one call path.
_compile_with_constants = _declare(
    "graphopt_compile_with_constants", _prog_p, ctypes.c_char_p,
    ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(_CConstantData),
    ctypes.c_int, ctypes.POINTER(ctypes.c_void_p))
_program_destroy = _declare("graphopt_program_destroy", None, _prog_p)
_num_inputs = _declare("graphopt_program_num_inputs", ctypes.c_int, _prog_p)
_num_outputs = _declare("graphopt_program_num_outputs", ctypes.c_int, _prog_p)
_program_input = _declare("graphopt_program_input", _CTensor, _prog_p,
                          ctypes.c_int)
_program_output = _declare("graphopt_program_output", _CTensor, _prog_p,
                           ctypes.c_int)
_lower_seconds = _declare("graphopt_program_lower_seconds", ctypes.c_double,
                          _prog_p)
_codegen_seconds = _declare("graphopt_program_codegen_seconds",
                            ctypes.c_double, _prog_p)
_cache_status = _declare("graphopt_program_cache_status", ctypes.c_int,
                         _prog_p)
_CACHE_STATUS = ("off", "hit", "stored", "not stored")
_program_run = _declare("graphopt_program_run", _res_p, _prog_p, ctypes.c_int,
                        ctypes.POINTER(_CTensor),
                        ctypes.POINTER(ctypes.c_void_p))
_program_run_into = _declare("graphopt_program_run_into", ctypes.c_int,
                             _prog_p, ctypes.c_int, ctypes.POINTER(_CTensor),
                             ctypes.c_int, ctypes.POINTER(_CTensor),
                             ctypes.POINTER(ctypes.c_void_p))
try:  # a library older than the package lacks it: run_device says so
    _program_run_device = _declare(
        "graphopt_program_run_device", ctypes.c_int, _prog_p, ctypes.c_int,
        ctypes.POINTER(_CTensor), ctypes.c_int, ctypes.POINTER(_CTensor),
        ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p))
except AttributeError:
    _program_run_device = None
_prepare_call = _declare("graphopt_program_prepare_call", ctypes.c_void_p,
                         _prog_p, ctypes.c_int, ctypes.POINTER(_CTensor),
                         ctypes.c_int, ctypes.POINTER(_CTensor),
                         ctypes.POINTER(ctypes.c_void_p))
_call_run = _declare("graphopt_call_run", ctypes.c_int, ctypes.c_void_p,
                     ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p))
_call_destroy = _declare("graphopt_call_destroy", None, ctypes.c_void_p)
_results_count = _declare("graphopt_results_count", ctypes.c_int, _res_p)
_results_get = _declare("graphopt_results_get", _CTensor, _res_p, ctypes.c_int)
_results_destroy = _declare("graphopt_results_destroy", None, _res_p)

# Results at least this large (all together) are returned without a copy.
_ADOPT_BYTES = 1 << 20


class _ResultsOwner:
    """Keeps a graphopt_results object alive while NumPy arrays view its
    buffers (each array's base holds it); frees it with the last one."""

    __slots__ = ("handle", "__weakref__")

    def __init__(self, handle):
        self.handle = handle

    def __del__(self):
        handle, self.handle = self.handle, None
        if handle and _results_destroy is not None:
            _results_destroy(handle)


def _take_string(ptr: Optional[int]) -> str:
    """Copies and frees a malloc'ed string returned by the library."""
    if not ptr:
        return ""
    try:
        return ctypes.string_at(ptr).decode("utf-8", errors="replace")
    finally:
        _string_free(ptr)


# --------------------------------------------------------------------------
# Element types
# --------------------------------------------------------------------------

# enum graphopt_dtype
(_F32, _F16, _BF16, _I1, _I32, _I64, _F64, _I8, _I16, _U8, _U16, _U32, _U64,
 _F8E4M3FN, _F8E5M2, _F8E4M3FNUZ, _F8E5M2FNUZ) = range(17)

_FROM_NUMPY = {
    np.dtype(np.float32): _F32,
    np.dtype(np.float16): _F16,
    np.dtype(np.float64): _F64,
    np.dtype(np.bool_): _I1,  # one byte per element, 0 or 1: the same layout
    np.dtype(np.int8): _I8,
    np.dtype(np.int16): _I16,
    np.dtype(np.int32): _I32,
    np.dtype(np.int64): _I64,
    np.dtype(np.uint8): _U8,
    np.dtype(np.uint16): _U16,
    np.dtype(np.uint32): _U32,
    np.dtype(np.uint64): _U64,
}
_TO_NUMPY = {code: dt for dt, code in _FROM_NUMPY.items()}
_DTYPE_NAMES = {_F32: "f32", _F16: "f16", _BF16: "bf16", _F64: "f64", _I1: "i1",
                _I8: "i8", _I16: "i16", _I32: "i32", _I64: "i64", _U8: "ui8",
                _U16: "ui16", _U32: "ui32", _U64: "ui64", _F8E4M3FN: "f8E4M3FN",
                _F8E5M2: "f8E5M2", _F8E4M3FNUZ: "f8E4M3FNUZ", _F8E5M2FNUZ: "f8E5M2FNUZ"}

#: The element types NumPy has no dtype for: ml_dtypes' names for them.
_ML_DTYPES = {_BF16: "bfloat16", _F8E4M3FN: "float8_e4m3fn", _F8E5M2: "float8_e5m2",
              _F8E4M3FNUZ: "float8_e4m3fnuz", _F8E5M2FNUZ: "float8_e5m2fnuz"}


def _ml_dtype(code: int) -> Optional[np.dtype]:
    """NumPy's dtype for bf16 or an 8-bit float, from the ml_dtypes package
    (which ONNX and JAX install; NumPy has none of its own), registered
    with the others on first use; None without ml_dtypes."""
    if code not in _TO_NUMPY:
        try:
            import ml_dtypes
        except ImportError:
            return None
        for c, name in _ML_DTYPES.items():
            dtype = np.dtype(getattr(ml_dtypes, name))
            _FROM_NUMPY[dtype] = c
            _TO_NUMPY[c] = dtype
    return _TO_NUMPY[code]


#: torch's names of the dtypes NumPy lacks (bf16 and the 8-bit floats:
#: the same names as ml_dtypes') -> element type codes.
_TORCH_BITS = {"bfloat16": _BF16, "float8_e4m3fn": _F8E4M3FN, "float8_e5m2": _F8E5M2,
               "float8_e4m3fnuz": _F8E4M3FNUZ, "float8_e5m2fnuz": _F8E5M2FNUZ}


def numpy_of_torch_bits(t) -> Optional[np.ndarray]:
    """A CPU torch tensor of bf16 or an 8-bit float as a NumPy array of
    ml_dtypes' dtype with the same bits (torch has no NumPy form for them);
    None for the other dtypes. Raises GraphOptError without ml_dtypes."""
    import torch
    code = _TORCH_BITS.get(str(t.dtype).replace("torch.", ""))
    if code is None:
        return None
    dtype = _numpy_dtype(code)
    bits = torch.int16 if dtype.itemsize == 2 else torch.uint8
    return t.contiguous().view(bits).numpy().view(dtype)


def numpy_dtype_of_torch(dtype) -> Optional[np.dtype]:
    """NumPy's dtype for a torch dtype (ml_dtypes' for bf16 and the 8-bit
    floats); None where NumPy has none (or ml_dtypes is missing)."""
    name = str(dtype).replace("torch.", "")
    code = _TORCH_BITS.get(name)
    if code is not None:
        return _ml_dtype(code)
    try:
        return np.dtype(name)
    except TypeError:
        return None


def torch_of_numpy(torch, array: np.ndarray):
    """A NumPy array as a torch tensor without a copy; bf16 and the 8-bit
    floats (ml_dtypes' dtypes) through their bits."""
    if array.dtype.name in _TORCH_BITS:
        bits = np.int16 if array.dtype.itemsize == 2 else np.uint8
        return torch.from_numpy(array.view(bits)).view(getattr(torch, array.dtype.name))
    return torch.from_numpy(array)


def dtype_named(name: str) -> np.dtype:
    """NumPy's dtype for an element type by its MLIR name ("f32", "bf16",
    "f8E4M3FN", ...): GraphOptError for an unknown name, or for bf16 and
    the 8-bit floats without ml_dtypes."""
    for code, n in _DTYPE_NAMES.items():
        if n == name:
            return _numpy_dtype(code)
    raise GraphOptError(f"element type {name} is not supported")


def bfloat16() -> Optional[np.dtype]:
    """NumPy's bfloat16 (``ml_dtypes.bfloat16``), or None without ml_dtypes."""
    return _ml_dtype(_BF16)


def _numpy_dtype(code: int) -> np.dtype:
    if code in _ML_DTYPES and _ml_dtype(code) is None:
        raise GraphOptError(
            f"{_DTYPE_NAMES[code]} tensors need the ml_dtypes package (NumPy "
            "has no such dtype of its own): pip install ml_dtypes, or cast "
            "the model to float32 or float16")
    try:
        return _TO_NUMPY[code]
    except KeyError:
        raise GraphOptError(f"unknown element type code {code}") from None


def supported_dtypes() -> list[np.dtype]:
    """NumPy dtypes that programs accept and return."""
    return list(_FROM_NUMPY)


@dataclass(frozen=True)
class TensorSpec:
    """The signature of one program input or output.

    ``shape`` has ``None`` for a dynamic dim. ``dtype`` is a NumPy dtype
    (bf16: ``ml_dtypes.bfloat16``), or ``None`` for bf16 without the
    ml_dtypes package; ``type_str`` is the MLIR spelling, e.g.
    ``tensor<?x10xf32>``.
    """
    dtype: Optional[np.dtype]
    shape: tuple
    type_str: str

    @property
    def rank(self) -> int:
        return len(self.shape)


def _spec(t: _CTensor) -> TensorSpec:
    shape = tuple(None if t.shape[i] < 0 else int(t.shape[i])
                  for i in range(t.rank))
    dims = "".join(("?" if d is None else str(d)) + "x" for d in shape)
    name = _DTYPE_NAMES.get(t.dtype, f"dtype{t.dtype}")
    dtype = _ml_dtype(t.dtype) if t.dtype in _ML_DTYPES else _TO_NUMPY.get(t.dtype)
    return TensorSpec(dtype, shape, f"tensor<{dims}{name}>")


# --------------------------------------------------------------------------
# Symbols of JIT-compiled code
# --------------------------------------------------------------------------

# The library is loaded RTLD_LOCAL, which is all that parsing and passes
# need, and promoted to RTLD_GLOBAL before the first compile, so that symbols
# of the process stay visible to code a user links in (--shared-lib kernels).
# (Compiled code gets the runtime's functions -- allocation, memrefCopy --
# from the JIT directly, and no MLIR runtime library is loaded any more.)
# With the development build, whose libGraphOpt.so exports LLVM 22's symbols
# through libLLVM.so, they then become global, and a library that bundles
# its own LLVM with exported symbols crashes when loaded after that: triton,
# which torch imports lazily (torch.compile, torchvision.ops). Such libraries
# are imported before the first compile, so that they bind to their own LLVM.
# The wheel's self-contained library exports only its C API.
_BUNDLE_OWN_LLVM = ("triton",)
_runtime_lock = threading.Lock()
_runtime_ready = False


def _ensure_runtime() -> None:
    """Prepares the process for JIT-compiled code, once."""
    global _runtime_ready
    if _runtime_ready:
        return
    with _runtime_lock:
        if _runtime_ready:
            return
        import importlib
        import importlib.util
        for name in _BUNDLE_OWN_LLVM:
            try:
                if importlib.util.find_spec(name) is not None:
                    importlib.import_module(name)
            except Exception:  # an unusable install: nothing to protect
                pass
        ctypes.CDLL(str(LIBRARY_PATH),
                    mode=ctypes.RTLD_GLOBAL | getattr(os, "RTLD_NOLOAD", 4))
        _runtime_ready = True


# --------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------

def version() -> str:
    """The C library's version string."""
    return _version().decode()


def hash128(array: np.ndarray) -> str:
    """The 128-bit xxh3 hash of a C-contiguous array's bytes, as 32 hex
    digits (what the compile cache hashes constants with)."""
    if not array.flags.c_contiguous:
        raise ValueError("hash128: the array must be C-contiguous")
    out = (ctypes.c_uint64 * 2)()
    _hash128(array.ctypes.data if array.nbytes else None, array.nbytes, out)
    return f"{out[1]:016x}{out[0]:016x}"


def release_cached_memory() -> int:
    """Frees the buffers the runtime keeps for reuse between calls (compiled
    code's freed blocks of 64 KiB or more, up to 1 GiB); returns the bytes
    released. The next calls allocate afresh."""
    return int(_release_cached_memory())


def cache_directory() -> Optional[str]:
    """The compile cache's directory as the environment sets it
    (docs/CompileCache.md), or None when the cache is off."""
    return _take_string(_cache_directory()) or None


def transform(mlir_text: str, pipeline: str = "",
              debug_locations: bool = False) -> str:
    """Parses and verifies ``mlir_text``, runs the textual pass ``pipeline``
    (graph-opt syntax, e.g. ``"builtin.module(graph-optimize-pipeline)"``;
    empty: none) and returns the printed module. Raises :class:`CompileError`
    with the diagnostics on failure."""
    err = ctypes.c_void_p()
    out = _transform(mlir_text.encode(), pipeline.encode(),
                     int(bool(debug_locations)), ctypes.byref(err))
    if not out:
        msg = _take_string(err.value) or "graphopt_transform failed"
        raise CompileError(msg, msg)
    return _take_string(out)


def pipeline_options() -> dict:
    """The compile pipeline's options with their default values (as text),
    by their Python names (``fuse_elementwise`` for ``fuse-elementwise``).
    Each may be passed to :class:`Program` and :func:`graphopt.compile` as a
    keyword argument; docs/Passes.md describes them."""
    text = _pipeline_options().decode().strip().strip("{}")
    out = {}
    for item in text.split():
        name, _, value = item.partition("=")
        out[name.replace("-", "_")] = value
    return out


def _flag(value) -> str:
    return "true" if value else "false"


def _format_options(optimize=True, vectorize=None, fuse=None, opt_level=None,
                    timing=False, specialize=None, target="cpu",
                    compile_only=False, cuda_emulate=False,
                    pipeline=None, cuda_device=None, verify_each=False,
                    object_file=None) -> str:
    """The C API's options string: the runner's options, then the compile
    pipeline's (``pipeline``: keyword arguments by Python name)."""
    if target not in ("cpu", "cuda"):
        raise ValueError(f"target must be 'cpu' or 'cuda', got {target!r}")
    items = [f"target={target}", f"optimize={_flag(optimize)}"]
    if vectorize is not None:
        items.append(f"vectorize={_flag(vectorize)}")
    if fuse is not None:
        items.append(f"fuse-elementwise={_flag(fuse)}")
    if pipeline:
        known = pipeline_options()
        for name, value in pipeline.items():
            if name not in known:
                raise TypeError(
                    f"unknown compile option {name!r}; the compile pipeline's "
                    f"options: {', '.join(sorted(known))}")
            text = _flag(value) if isinstance(value, bool) else str(value)
            if any(c.isspace() for c in text):
                raise ValueError(f"compile option {name}={text!r}: values "
                                 "cannot contain spaces")
            items.append(f"{name.replace('_', '-')}={text}")
    if opt_level is not None:
        if opt_level not in (0, 1, 2, 3):
            raise ValueError(f"opt_level must be 0..3, got {opt_level!r}")
        items.append(f"opt-level={int(opt_level)}")
    if timing:
        items.append("timing=1")
    if verify_each:
        items.append("verify-each=1")
    if compile_only:
        items.append("compile-only=1")
    if cuda_emulate:
        items.append("cuda-emulate=1")
    if object_file is not None:
        path = os.fspath(object_file)
        if not path or any(c.isspace() for c in path):
            raise ValueError(f"object_file={path!r}: the path cannot be empty "
                             "or contain spaces")
        items.append(f"object-file={path}")
    if cuda_device is not None:
        if isinstance(cuda_device, bool) or not isinstance(cuda_device, int) \
                or cuda_device < 0:
            raise ValueError("cuda_device must be a device ordinal (0, 1, "
                             f"...), got {cuda_device!r}")
        items.append(f"cuda-device={cuda_device}")
    # A function without arguments has nothing to specialize (and an empty
    # list would read as one rank-0 shape).
    if specialize:
        shapes = []
        for shape in specialize:
            dims = [int(d) for d in shape]
            if any(d < 0 for d in dims):
                raise ValueError(f"specialize: negative dim in {shape!r}")
            shapes.append("x".join(str(d) for d in dims))
        items.append("specialize=" + ";".join(shapes))
    return " ".join(items)


class _PreparedCall:
    """A graphopt_call: the per-call state of one input signature (the
    pointer array passed to graphopt_call_run and the error slot)."""

    __slots__ = ("handle", "data", "err", "err_ref")

    def __init__(self, handle: int, n: int):
        self.handle = handle
        self.data = (ctypes.c_void_p * max(1, n))()
        self.err = ctypes.c_void_p()
        self.err_ref = ctypes.byref(self.err)

    def close(self) -> None:
        handle, self.handle = self.handle, None
        if handle and _call_destroy is not None:
            _call_destroy(handle)

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass


class Program:
    """A function of an MLIR module, JIT-compiled for the host CPU (or, with
    ``target="cuda"``, an NVIDIA GPU).

    >>> p = Program(text, optimize=True)
    >>> (y,) = p.run([x0, x1])          # NumPy arrays in, NumPy arrays out

    Options (the C API's ``options`` string): ``optimize`` (graph-level
    optimization), ``vectorize``, ``fuse`` (operator fusion, the pipeline's
    ``fuse_elementwise``), ``opt_level`` (LLVM 0..3), ``timing`` (print
    per-pass and per-phase times to stderr), ``verify_each`` (run MLIR's
    verifier after every pass, a debugging aid; by default the compiled
    module is verified once, at the end), ``specialize`` (a list of
    argument shapes to fix before compiling; dynamic dims of the module
    become these constants), and every option of the compile pipeline by
    name (:func:`pipeline_options` lists them: ``vector_width=8``,
    ``flash_attention=False``, ``fusion_report="-"``, ``chip="sm_80"``, ...);
    an unknown name raises ``TypeError``. ``constants`` gives the data of
    the module's ``dense_resource<NAME>`` constants by NAME (raw
    little-endian elements; :func:`graphopt.importer.mlir_builder.out_of_band_constants`
    makes such a module and its data), read during compilation only.
    ``object_file`` also writes the compiled program as an object file for
    ahead-of-time use (what ``graph-run --emit-object`` writes: link it as
    docs/AOT.md says; with ``compile_only=True`` nothing is loaded to run).

    Results are copied out of the native buffers, so the returned arrays own
    their memory. A program may be run from several threads; runs of one
    program are serialized.
    """

    def __init__(self, mlir_text: str, entry: str = "main", *,
                 optimize: bool = True, vectorize: Optional[bool] = None,
                 fuse: Optional[bool] = None, opt_level: Optional[int] = None,
                 timing: bool = False,
                 specialize: Optional[Sequence[Sequence[int]]] = None,
                 target: str = "cpu", compile_only: bool = False,
                 cuda_emulate: bool = False,
                 cuda_device: Optional[int] = None,
                 verify_each: bool = False,
                 constants: Optional[Mapping[str, np.ndarray]] = None,
                 object_file: Optional[str] = None,
                 **pipeline_options):
        self._handle = None
        self._lock = threading.Lock()
        self.entry = entry
        self.target = target
        self.options = _format_options(optimize, vectorize, fuse, opt_level,
                                       timing, specialize, target,
                                       compile_only, cuda_emulate,
                                       pipeline_options, cuda_device,
                                       verify_each, object_file)
        _ensure_runtime()
        err = ctypes.c_void_p()
        # Constant data is read during the call only (the compiler copies it).
        arrays = [np.ascontiguousarray(a) for a in (constants or {}).values()]
        table = (_CConstantData * len(arrays))(*[
            _CConstantData(name.encode(), a.ctypes.data, a.nbytes)
            for name, a in zip(constants or {}, arrays)])
        handle = _compile_with_constants(
            mlir_text.encode(), entry.encode(), self.options.encode(),
            table, len(arrays), ctypes.byref(err))
        if not handle:
            msg = _take_string(err.value) or "graphopt_compile failed"
            if msg.startswith("no function @"):
                first, _, rest = msg.partition("\n")
                msg = first + "; choose one with Program(..., entry=NAME)" + \
                    (("\n" + rest) if rest else "")
            raise CompileError(msg, msg)
        self._handle = handle
        self.inputs = [_spec(_program_input(handle, i))
                       for i in range(_num_inputs(handle))]
        self.outputs = [_spec(_program_output(handle, i))
                        for i in range(_num_outputs(handle))]
        self.lower_seconds = float(_lower_seconds(handle))
        self.codegen_seconds = float(_codegen_seconds(handle))
        # The compile cache (GRAPHOPT_CACHE_DIR, docs/CompileCache.md): "hit"
        # (codegen_seconds is then the load), "stored", "not stored", "off".
        self.cache = _CACHE_STATUS[_cache_status(handle)]
        # Static result shapes: results are copied straight into arrays
        # allocated here (graphopt_program_run_into), and the C structs
        # describing a call are built once per input signature and reused.
        self._static_outputs = all(
            o.dtype is not None and None not in o.shape for o in self.outputs)
        self._output_bytes = (
            sum(int(np.prod(o.shape, dtype=np.int64)) * np.dtype(o.dtype).itemsize
                for o in self.outputs) if self._static_outputs else 0)
        self._call_structs = {}

    def __repr__(self) -> str:
        ins = ", ".join(s.type_str for s in self.inputs)
        outs = ", ".join(s.type_str for s in self.outputs)
        return f"<graphopt.Program @{self.entry}: ({ins}) -> ({outs})>"

    def close(self) -> None:
        """Releases the compiled code now (also done when garbage
        collected)."""
        with self._lock:
            handle, self._handle = self._handle, None
            # Prepared calls refer to the program: released first.
            for structs in self._call_structs.values():
                if structs[3] is not None:
                    structs[3].close()
            self._call_structs = {}
        if handle and _program_destroy is not None:
            _program_destroy(handle)

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass

    def __call__(self, *arrays):
        return self.run(list(arrays))

    def _call_structs_for(self, arrays: list) -> Optional[tuple]:
        """The C structs describing a call with inputs shaped like
        ``arrays`` (all C-contiguous NumPy arrays of supported dtypes), or
        None when an input needs the general path."""
        key = []
        for a in arrays:
            if (type(a) is not np.ndarray or not a.flags.c_contiguous
                    or a.dtype not in _FROM_NUMPY):
                return None
            key.append((a.dtype, a.shape))
        return self._structs_for_signature(tuple(key))

    def _structs_for_signature(self, key: tuple) -> tuple:
        """The C structs describing a call with inputs of these (NumPy
        dtype, shape) pairs: built on the first call of a signature, then
        reused with only the data pointers set."""
        structs = self._call_structs.get(key)
        if structs is None:
            if len(self._call_structs) > 16:
                self._call_structs.clear()
            n_in, n_out = max(1, len(key)), max(1, len(self.outputs))
            c_in, c_out = (_CTensor * n_in)(), (_CTensor * n_out)()
            keep = []
            for c, (dtype, shape) in zip(c_in, key):
                dims = (ctypes.c_int64 * max(1, len(shape)))(*shape)
                keep.append(dims)
                c.dtype, c.rank = _FROM_NUMPY[dtype], len(shape)
                c.shape = ctypes.cast(dims, ctypes.POINTER(ctypes.c_int64))
            for c, spec in zip(c_out, self.outputs):
                dims = (ctypes.c_int64 * max(1, len(spec.shape)))(*spec.shape)
                keep.append(dims)
                c.dtype, c.rank = _FROM_NUMPY[spec.dtype], len(spec.shape)
                c.shape = ctypes.cast(dims, ctypes.POINTER(ctypes.c_int64))
            structs = (c_in, c_out, keep, self._prepare(key, c_in, c_out))
            self._call_structs[key] = structs
        return structs

    def _prepare(self, key: tuple, c_in, c_out) -> Optional["_PreparedCall"]:
        """A prepared call of this signature (graphopt_program_prepare_call:
        shapes checked once, then only data pointers per call), or None
        where the library does not prepare one (CUDA programs); the
        struct-based call is used then."""
        err = ctypes.c_void_p()
        handle = _prepare_call(self._handle, len(key), c_in,
                               len(self.outputs), c_out, ctypes.byref(err))
        if not handle:
            _take_string(err.value)
            return None
        return _PreparedCall(handle, len(key) + len(self.outputs))

    def _run_pointers(self, structs: tuple, in_ptrs: list,
                      out_ptrs: list) -> bool:
        """Runs on inputs and into outputs at these addresses, laid out as
        the signature of ``structs`` (from :meth:`_structs_for_signature`)
        says; the caller keeps them alive. False when the library reports
        that the outputs do not fit; raises ExecutionError when the run
        fails."""
        c_in, c_out, _, call = structs
        if call is not None:
            # The pointer array is shared by the calls of this signature: it
            # is filled under the lock that serializes runs. The error slot
            # too: its message is taken before another run can overwrite it.
            with self._lock:
                if self._handle is None:
                    raise ExecutionError("the program was closed")
                data = call.data
                data[:] = in_ptrs + out_ptrs
                if _call_run(call.handle, data, call.err_ref) == 1:
                    return True
                msg = _take_string(call.err.value)
                call.err.value = None
            msg = msg or "graphopt_call_run failed"
            raise ExecutionError(msg, msg)
        err = ctypes.c_void_p()
        # The structs are shared by the calls of this signature: their data
        # pointers are set under the lock that serializes runs.
        with self._lock:
            if self._handle is None:
                raise ExecutionError("the program was closed")
            for c, ptr in zip(c_in, in_ptrs):
                c.data = ptr
            for c, ptr in zip(c_out, out_ptrs):
                c.data = ptr
            status = _program_run_into(self._handle, len(in_ptrs), c_in,
                                       len(out_ptrs), c_out,
                                       ctypes.byref(err))
        if status == 1:
            return True
        msg = _take_string(err.value) or "graphopt_program_run_into failed"
        if status == 0:
            raise ExecutionError(msg, msg)
        return False

    def _run_into(self, arrays: list) -> Optional[list]:
        """The fast path of :meth:`run` for static result shapes: the
        results are written into arrays allocated here. None when the inputs
        need the general path (conversion, an unsupported dtype) or the
        library reports that the outputs do not fit."""
        structs = self._call_structs_for(arrays)
        if structs is None:
            return None
        outs = [np.empty(o.shape, o.dtype) for o in self.outputs]
        if self._run_pointers(
                structs, [a.ctypes.data if a.size else None for a in arrays],
                [o.ctypes.data if o.size else None for o in outs]):
            return outs
        return None

    @staticmethod
    def _device_buffer(buf, what: str) -> tuple:
        """(NumPy dtype, shape, address) of a device buffer given as a
        contiguous torch CUDA tensor or an ``(address, dtype, shape)``
        tuple."""
        torch = sys.modules.get("torch")
        if torch is not None and isinstance(buf, torch.Tensor):
            if not buf.is_cuda or not buf.is_contiguous():
                raise ExecutionError(
                    f"{what}: expected a contiguous CUDA tensor, got one on "
                    f"{buf.device}" + ("" if buf.is_contiguous()
                                       else " (not contiguous)"))
            dtype = numpy_dtype_of_torch(buf.dtype)
            if dtype is None:
                raise ExecutionError(f"{what}: unsupported dtype {buf.dtype}")
            return dtype, tuple(buf.shape), buf.data_ptr()
        try:
            address, dtype, shape = buf
        except (TypeError, ValueError):
            raise TypeError(f"{what}: expected a torch CUDA tensor or an "
                            f"(address, dtype, shape) tuple, got "
                            f"{type(buf).__name__}") from None
        if isinstance(dtype, str) and dtype in _ML_DTYPES.values():
            dtype = _ml_dtype(next(c for c, n in _ML_DTYPES.items() if n == dtype))
        return np.dtype(dtype), tuple(int(d) for d in shape), int(address)

    def run_device(self, inputs: Sequence, outputs: Sequence,
                   stream: Optional[int] = None) -> None:
        """Runs a CUDA program on device memory, with no copy through the
        host (``graphopt_program_run_device``): ``inputs`` and ``outputs``
        are contiguous torch CUDA tensors, or ``(address, dtype, shape)``
        tuples of device buffers (16-byte aligned inputs); the outputs are
        shaped and typed as the results (static shapes) and receive them.
        ``stream``: a CUstream address (PyTorch's
        ``torch.cuda.current_stream().cuda_stream``) that the work goes to,
        after what is queued there; None or 0 for the runtime's own stream,
        which does not wait for other streams (PyTorch's default stream
        reports 0: pass 1, CU_STREAM_LEGACY, for it). The results are
        complete on return."""
        if self._handle is None:
            raise ExecutionError("the program was closed")
        if _program_run_device is None:
            raise ExecutionError("run_device: the graphopt library loaded "
                                 "predates graphopt_program_run_device")
        if len(inputs) != len(self.inputs):
            raise ExecutionError(f"@{self.entry} takes {len(self.inputs)} "
                                 f"input(s), got {len(inputs)}")
        if len(outputs) != len(self.outputs):
            raise ExecutionError(f"@{self.entry} has {len(self.outputs)} "
                                 f"result(s), got {len(outputs)} output(s)")
        ins = [self._device_buffer(b, f"input {i}") for i, b in enumerate(inputs)]
        outs = [self._device_buffer(b, f"output {i}") for i, b in enumerate(outputs)]
        for i, ((dtype, shape, _), spec) in enumerate(zip(outs, self.outputs)):
            if spec.dtype is None or None in spec.shape:
                raise ExecutionError(f"@{self.entry}: result {i} has a dynamic "
                                     "shape; run() handles it")
            if dtype != np.dtype(spec.dtype) or shape != tuple(spec.shape):
                raise ExecutionError(
                    f"output {i}: {dtype.name}{list(shape)} given, the result "
                    f"is {spec.type_str}")
        for i, (dtype, _, _) in enumerate(ins):
            if dtype not in _FROM_NUMPY:
                raise ExecutionError(f"input {i}: unsupported dtype {dtype}")
        c_in, c_out = self._structs_for_signature(
            tuple((d, s) for d, s, _ in ins))[:2]
        err = ctypes.c_void_p()
        # The structs are shared by the calls of this signature: their data
        # pointers are set under the lock that serializes runs.
        with self._lock:
            for c, (_, _, ptr) in zip(c_in, ins):
                c.data = ptr or None
            for c, (_, _, ptr) in zip(c_out, outs):
                c.data = ptr or None
            status = _program_run_device(self._handle, len(ins), c_in,
                                         len(outs), c_out, stream,
                                         ctypes.byref(err))
        if status != 1:
            msg = _take_string(err.value) or "graphopt_program_run_device failed"
            raise ExecutionError(msg, msg)

    def run(self, arrays: Sequence) -> list[np.ndarray]:
        """Runs the program on ``arrays`` (anything ``np.asarray`` accepts;
        made C-contiguous) and returns one NumPy array per result.

        Raises :class:`ExecutionError` when the inputs do not match the
        signature (count, dtype, rank or a static dim) or the run fails.
        """
        if self._handle is None:
            raise ExecutionError("the program was closed")
        if len(arrays) != len(self.inputs):
            raise ExecutionError(
                f"@{self.entry} takes {len(self.inputs)} input(s), got "
                f"{len(arrays)}")
        # Small static results are copied into fresh arrays (cheaper than
        # wrapping the library's buffers); large ones are handed over
        # without a copy (a 16 MiB result: ~1 ms of copying and page faults).
        if self._static_outputs and self._output_bytes < _ADOPT_BYTES:
            outs = self._run_into(arrays)
            if outs is not None:
                return outs
        keep = []  # keeps buffers and shapes alive during the call
        c_inputs = (_CTensor * max(1, len(arrays)))()
        for i, a in enumerate(arrays):
            # order="C" keeps rank 0 (np.ascontiguousarray makes it rank 1)
            arr = np.asarray(a, order="C")
            code = _FROM_NUMPY.get(arr.dtype)
            if code is None and arr.dtype.name in _ML_DTYPES.values():
                _ml_dtype(_BF16)  # registers ml_dtypes' types
                code = _FROM_NUMPY.get(arr.dtype)
            if code is None:
                raise ExecutionError(
                    f"input {i}: unsupported dtype {arr.dtype} (supported: "
                    "float32, float16, bfloat16 and float8 (ml_dtypes), float64, bool, "
                    "int8 ... int64, uint8 ... uint64)")
            shape = (ctypes.c_int64 * max(1, arr.ndim))(*arr.shape)
            keep.append((arr, shape))
            c_inputs[i].dtype = code
            c_inputs[i].rank = arr.ndim
            c_inputs[i].shape = ctypes.cast(shape,
                                            ctypes.POINTER(ctypes.c_int64))
            c_inputs[i].data = arr.ctypes.data if arr.size else None
        err = ctypes.c_void_p()
        with self._lock:
            res = _program_run(self._handle, len(arrays), c_inputs,
                               ctypes.byref(err))
        del keep
        if not res:
            msg = _take_string(err.value) or "graphopt_program_run failed"
            raise ExecutionError(msg, msg)
        # The arrays view the result buffers; the results object is freed
        # when the last of them is.
        owner = _ResultsOwner(res)
        outs = []
        for i in range(_results_count(res)):
            t = _results_get(res, i)
            dtype = np.dtype(_numpy_dtype(t.dtype))
            shape = tuple(int(t.shape[d]) for d in range(t.rank))
            nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
            if nbytes == 0 or not t.data:
                outs.append(np.empty(shape, dtype=dtype))
                continue
            buf = (ctypes.c_char * nbytes).from_address(t.data)
            buf._graphopt_owner = owner
            out = np.frombuffer(buf, dtype=dtype).reshape(shape)
            outs.append(out)
        return outs
