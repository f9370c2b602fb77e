"""``graphopt.compile``: PyTorch model -> MLIR (importers) -> CPU code (JIT).

The result is a :class:`CompiledModule`, a callable that takes torch tensors
(and returns torch tensors) or NumPy arrays (and returns NumPy arrays).

Compiled programs are cached per *input signature*: the dtypes and shapes of
the arguments. A call whose signature was not seen before imports the model
again with those arguments and compiles a new program (instead of failing on
a shape mismatch). Dims named in ``dynamic_dims`` are imported as dynamic
(``?``) and left out of the signature, so one program serves every size of
them.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Optional

import numpy as np

from . import _native

__all__ = ["compile", "CompiledModule", "COMPILE_OPTIONS"]

#: Extra keyword options of :func:`compile`, passed to the native compiler.
COMPILE_OPTIONS = {
    "vectorize": "vectorize the generated loops (default True)",
    "fuse": "fuse elementwise ops into their producers/consumers (default True)",
    "opt_level": "LLVM optimization level 0..3 (default 3)",
    "entry": "name of the MLIR function to compile (default 'main')",
    "compile_only": "compile without preparing to run (no GPU needed for "
                    "target='cuda'); calling the module then raises",
    "cuda_emulate": "with target='cuda', a testing aid: run the CUDA "
                    "pipeline's generic kernels as loops on the CPU "
                    "(docs/CUDA.md)",
    "verify_each": "verify the IR after every pass of the compile pipeline "
                   "(a debugging aid; default: once, at the end)",
    "cuda_device": "with target='cuda', the GPU to run on (its ordinal; "
                   "default GRAPHOPT_CUDA_DEVICE, else 0; one device per "
                   "process)",
    "import_cache": "reuse the import of an earlier compile of the same "
                    "model (code, attributes, weights), signature and options, "
                    "in any process, instead of running torch.export again "
                    "(default: GRAPHOPT_IMPORT_CACHE, else off; "
                    "python/graphopt/import_cache.py says what it checks)",
}

_TARGETS = ("cpu", "cuda")


def _torch():
    import torch  # imported lazily: the NumPy-only API works without it
    return torch


# --------------------------------------------------------------------------
# Output structure
# --------------------------------------------------------------------------

@dataclass
class _Tree:
    """The structure of a model's result: a leaf (one tensor), or a
    tuple/list/dict of subtrees. Compiled programs return a flat list of
    tensors; the tree rebuilds the model's structure from it."""
    kind: str                      # "leaf", "tuple", "list", "dict"
    children: list = field(default_factory=list)
    keys: list = field(default_factory=list)
    tuple_type: Any = tuple        # a namedtuple class stays a namedtuple

    @property
    def num_leaves(self) -> int:
        if self.kind == "leaf":
            return 1
        return sum(c.num_leaves for c in self.children)

    def unflatten(self, leaves: list):
        if self.kind == "leaf":
            return leaves[0]
        it = iter(leaves)
        return self._build(it)

    def _build(self, it):
        if self.kind == "leaf":
            return next(it)
        values = [c._build(it) for c in self.children]
        if self.kind == "list":
            return values
        if self.kind == "dict":
            return dict(zip(self.keys, values))
        if self.tuple_type is tuple:
            return tuple(values)
        return self.tuple_type(*values)


class _SpecTree:
    """A result structure given as the pytree spec torch.export recorded
    (the same interface as :class:`_Tree`)."""

    def __init__(self, spec):
        self.spec = spec
        self.num_leaves = spec.num_leaves
        # One tensor, the common case: returned as it is (tree_unflatten
        # costs ~1 us per call).
        self.is_leaf = spec.is_leaf()

    def unflatten(self, leaves: list):
        if self.is_leaf:
            return leaves[0]
        import torch.utils._pytree as pytree
        return pytree.tree_unflatten(list(leaves), self.spec)


def _tree_of(value) -> Optional[_Tree]:
    """The structure of ``value``, or None when it holds something else than
    tensors (then results are returned flat)."""
    torch = _torch()
    if isinstance(value, torch.Tensor):
        return _Tree("leaf")
    if isinstance(value, (tuple, list)):
        children = [_tree_of(v) for v in value]
        if any(c is None for c in children):
            return None
        if isinstance(value, list):
            return _Tree("list", children)
        return _Tree("tuple", children, tuple_type=type(value))
    if isinstance(value, dict):
        children = [_tree_of(v) for v in value.values()]
        if any(c is None for c in children):
            return None
        return _Tree("dict", children, keys=list(value.keys()))
    return None


# --------------------------------------------------------------------------
# Arguments
# --------------------------------------------------------------------------

_NUMPY_OF_TORCH: dict = {}
_TORCH_OF_NUMPY: dict = {}


def _torch_dtype_maps(torch) -> None:
    """Fills the torch <-> NumPy maps of the dtypes whose tensors convert to
    NumPy as they are (and that the direct call path passes as they are)."""
    if not _NUMPY_OF_TORCH:
        for t, n in ((torch.float32, np.float32), (torch.float16, np.float16),
                     (torch.int32, np.int32), (torch.int64, np.int64),
                     (torch.bool, np.bool_)):
            _NUMPY_OF_TORCH[t] = n
            _TORCH_OF_NUMPY[np.dtype(n)] = t


def _plain_torch_dtypes(torch):
    """The torch dtypes whose tensors convert to NumPy as they are."""
    _torch_dtype_maps(torch)
    return _NUMPY_OF_TORCH.keys()


# PyTorch's tracing (torch.export, dynamo) keeps its modes in process-wide
# state: two imports at once, or a tensor made in one thread while another
# traces, fail inside torch. Every graphopt step that runs torch code holds
# this lock; the compiled code itself runs outside it.
_TORCH_LOCK = threading.RLock()


class _Scalar:
    """A Python int, float or bool argument: a specialization key, not an
    input of the compiled program. The model is imported with its value
    (torch.export and the TorchScript importer make it a constant) and a
    call with another value compiles again, as torch.compile does for
    Python scalars it has not made dynamic."""
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def key(self):
        return ("scalar", type(self.value), self.value)


def _as_numpy(value, index: int) -> np.ndarray:
    """One argument as a C-contiguous NumPy array (no copy when possible);
    a Python scalar as a _Scalar."""
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(value, torch.Tensor):
        if (value.device.type == "cpu" and not value.requires_grad
                and value.is_contiguous() and value.dtype in _plain_torch_dtypes(torch)
                and not value.is_neg()):
            return value.numpy()  # the common case, without a copy
        t = value.detach()
        if t.device.type != "cpu":
            t = t.cpu()
        t = t.resolve_conj().resolve_neg()
        try:
            # bf16 and the 8-bit floats: the same bits, as ml_dtypes' NumPy
            # dtype (torch has no NumPy form for them).
            bits = _native.numpy_of_torch_bits(t)
        except _native.GraphOptError as e:
            raise TypeError(f"argument {index}: {e}") from None
        if bits is not None:
            return bits
        return np.asarray(t.numpy(), order="C")
    if isinstance(value, np.ndarray):
        return np.asarray(value, order="C")
    if isinstance(value, np.generic):
        return np.asarray(value)
    if isinstance(value, (bool, int, float)):
        return _Scalar(value)
    raise TypeError(
        f"argument {index}: expected a torch.Tensor, a NumPy array or a "
        f"Python int, float or bool, got {type(value).__name__}")


def _torch_of_numpy(torch, array: np.ndarray):
    """A result as a torch tensor without a copy (bf16 and the 8-bit floats
    through their bits)."""
    return _native.torch_of_numpy(torch, array)


def _tensors(arrays) -> list:
    """The arrays of `arrays` that are program inputs (not _Scalar)."""
    return [a for a in arrays if not isinstance(a, _Scalar)]


def _as_torch(value):
    torch = _torch()
    if isinstance(value, torch.Tensor):
        return value
    if isinstance(value, _Scalar):
        return value.value
    if isinstance(value, (bool, int, float)):
        return value
    return torch.from_numpy(np.asarray(value, order="C"))


def _normalize_dynamic_dims(dynamic_dims, example_arrays) -> dict:
    if not dynamic_dims:
        return {}
    out = {}
    for i, dims in dict(dynamic_dims).items():
        if not isinstance(i, int) or not 0 <= i < len(example_arrays):
            raise ValueError(
                f"dynamic_dims: input index {i!r} out of range (the model "
                f"takes {len(example_arrays)} input(s))")
        if isinstance(dims, int):
            dims = [dims]
        if isinstance(example_arrays[i], _Scalar):
            raise ValueError(f"dynamic_dims: input {i} is a Python scalar, "
                             "which has no dims (it is a specialization key)")
        rank = example_arrays[i].ndim
        norm = []
        for d in dims:
            if not isinstance(d, int) or not -rank <= d < rank:
                raise ValueError(
                    f"dynamic_dims: dim {d!r} of input {i} out of range "
                    f"(rank {rank})")
            norm.append(d % rank)
        out[i] = sorted(set(norm))
    return out


# --------------------------------------------------------------------------
# The compiled module
# --------------------------------------------------------------------------

@dataclass
class _Entry:
    program: _native.Program
    timings: dict


class _TorchCall:
    """The call path of one input signature of CPU torch tensors with small
    static results: the tensors' memory is passed as it is, the results are
    written straight into torch tensors allocated here. Per call it checks
    what the signature does not fix (layout, device, the lazy negation
    bit); a call it cannot take returns None and goes the general way."""

    __slots__ = ("program", "structs", "outputs", "torch", "prepared")

    def __init__(self, program: _native.Program, key: tuple, torch):
        self.program = program
        self.torch = torch
        self.structs = program._structs_for_signature(tuple(
            (np.dtype(_NUMPY_OF_TORCH[dtype]), tuple(shape))
            for dtype, shape in key))
        # The prepared call (graphopt_call_run: shapes checked once, only
        # pointers per call), run here without _run_pointers' generality.
        self.prepared = self.structs[3]
        # torch.empty(*shape, dtype=...) parses faster than with a tuple
        # (1.1 against 1.7 us); rank 0 needs the tuple.
        self.outputs = [(tuple(o.shape) or ((),),
                         _TORCH_OF_NUMPY[np.dtype(o.dtype)])
                        for o in program.outputs]

    def __call__(self, args) -> Optional[list]:
        # Where the microseconds go (a 2 x 2 add, one core, ~4.5 us in
        # all): the signature key in CompiledModule.__call__ ~0.9, the
        # layout checks ~0.5, torch.empty ~1.0 per result, the ctypes call
        # ~0.7 (the compiled code itself ~0.4), the rest Python.
        empty = self.torch.empty
        with _TORCH_LOCK:
            ptrs = []
            for a in args:
                if not a.is_cpu or not a.is_contiguous() or a.is_neg():
                    return None
                ptrs.append(a.data_ptr() or None)
            outs = [empty(*shape, dtype=dtype) for shape, dtype in self.outputs]
        for o in outs:
            ptrs.append(o.data_ptr() or None)
        call = self.prepared
        if call is None:
            if not self.program._run_pointers(
                    self.structs, ptrs[:len(args)], ptrs[len(args):]):
                return None
            return outs
        program = self.program
        # As in Program._run_pointers: the pointer array and the error slot
        # are shared by the calls of this signature, so they are used under
        # the lock that serializes runs.
        with program._lock:
            if program._handle is None:
                raise _native.ExecutionError("the program was closed")
            call.data[:] = ptrs
            if _native._call_run(call.handle, call.data, call.err_ref) == 1:
                return outs
            msg = _native._take_string(call.err.value)
            call.err.value = None
        msg = msg or "graphopt_call_run failed"
        raise _native.ExecutionError(msg, msg)


class CompiledModule:
    """A model compiled by :func:`compile`. Call it like the model.

    Attributes:
        mlir: the MLIR text imported for the last compiled signature.
        timings: seconds spent in the last compile: ``import`` (PyTorch ->
            MLIR), ``lower`` (MLIR pipeline), ``codegen`` (LLVM; on a compile
            cache hit, loading the cached code), ``total``. What the compile
            cache did is ``program.cache`` (docs/CompileCache.md).
        compile_count: how many programs were compiled (one per signature).
        program: the :class:`graphopt.Program` of the last call.
        import_cache: what the import cache did in the last compile:
            ``"hit"`` (no ``torch.export``), ``"stored"``, or None (off, or
            a model it cannot vouch for; see graphopt/import_cache.py).
    """

    def __init__(self, model, example_args, *, target="cpu", optimize=True,
                 dynamic_dims=None, params_as_args=False, timing=False,
                 **options):
        if target not in _TARGETS:
            raise NotImplementedError(
                f"graphopt.compile: target {target!r} is not supported; "
                "use 'cpu' or 'cuda'")
        pipeline = _native.pipeline_options()
        unknown = sorted(set(options) - set(COMPILE_OPTIONS) - set(pipeline))
        if unknown:
            raise TypeError(
                f"graphopt.compile: unknown option(s) {', '.join(unknown)}; "
                "known: " + ", ".join(sorted(COMPILE_OPTIONS)) + ", and the "
                "compile pipeline's: " + ", ".join(sorted(pipeline)))
        if not isinstance(example_args, (tuple, list)):
            example_args = (example_args,)
        self.model = model
        self.target = target
        self.optimize = optimize
        self.params_as_args = params_as_args
        self.timing = timing
        self.options = dict(options)
        self.entry = self.options.pop("entry", "main")
        from . import import_cache
        self._import_cache = import_cache.enabled(
            self.options.pop("import_cache", None))
        self.import_cache: Optional[str] = None
        arrays = [_as_numpy(a, i) for i, a in enumerate(example_args)]
        self.dynamic_dims = _normalize_dynamic_dims(dynamic_dims, arrays)
        # Which arguments are Python scalars (specialization keys): fixed by
        # the example arguments.
        self._scalar_args = tuple(isinstance(a, _Scalar) for a in arrays)
        self._cache: dict = {}
        self._torch_calls: dict = {}
        self._lock = threading.Lock()
        self.compile_count = 0
        # target='cuda': calls whose torch CUDA tensors were passed and
        # returned on the device, with no copy through the host.
        self.device_calls = 0
        self.timings: dict = {}
        # The last import: its text with large constants as
        # dense_resource<NAME>, and their data (the `mlir` property).
        self._mlir: Optional[tuple] = None
        self.program: Optional[_native.Program] = None
        self._params: list = []
        torch_args = tuple(_as_torch(a) for a in example_args)
        self._tree: Optional[_Tree] = None
        self._out_spec = None  # the result's structure, from torch.export
        self._entry_for(arrays, torch_args)
        # After compiling, so that import errors come first.
        self._tree = self._output_tree(torch_args)

    # -- importing -------------------------------------------------------

    def _is_torchscript(self) -> bool:
        torch = _torch()
        return isinstance(self.model, (torch.jit.ScriptModule,
                                       torch.jit.ScriptFunction))

    def _output_tree(self, torch_args):
        """The structure of the model's result: the one torch.export
        recorded, else learned by running the model once eagerly
        (TorchScript, the torch.fx path)."""
        if self._out_spec is not None:
            return _SpecTree(self._out_spec)
        torch = _torch()
        try:
            with _TORCH_LOCK, torch.no_grad():
                result = self.model(*torch_args)
        except Exception:
            return None  # structure unknown: results are returned flat
        return _tree_of(result)

    def _import(self, torch_args):
        """(MLIR text, the data of its out-of-band constants)."""
        from .importer.mlir_builder import out_of_band_constants
        with out_of_band_constants() as constants:
            return self._import_text(torch_args), constants

    def _import_text(self, torch_args) -> str:
        from .importer import import_torchscript
        from .importer.pytorch.fx import import_torch_with_structure
        if self._is_torchscript():
            if self.dynamic_dims:
                raise NotImplementedError(
                    "graphopt.compile: dynamic_dims is not supported for "
                    "TorchScript models; pass the nn.Module or function "
                    "instead")
            if self.params_as_args:
                raise NotImplementedError(
                    "graphopt.compile: params_as_args is not supported for "
                    "TorchScript models")
            return import_torchscript(self.model, torch_args)
        text, spec = import_torch_with_structure(
            self.model, torch_args, params_as_args=self.params_as_args,
            dynamic_dims=self.dynamic_dims or None, entry=self.entry)
        if self._out_spec is None:
            self._out_spec = spec
        return text

    def _parameter_arrays(self) -> list:
        """With params_as_args: the model's parameters and buffers, in the
        order the importer appends them to the user inputs."""
        try:
            from .importer import parameter_order
        except ImportError:
            from .importer.pytorch.fx import parameter_order
        return [_as_numpy(t, i)
                for i, t in enumerate(parameter_order(self.model))]

    @property
    def mlir(self) -> Optional[str]:
        """The MLIR text imported for the last compiled signature, every
        constant printed in it (made on first use: the compile itself passes
        large weights to the compiler out of band; the values printed are the
        model's as they are now)."""
        if self._mlir is None:
            return None
        text, constants = self._mlir
        if constants.raw:
            text = constants.inline(text)
            self._mlir = (text, type(constants)())
        return text

    # -- compiling -------------------------------------------------------

    def _key(self, arrays) -> tuple:
        # np.dtype objects, not their names: dtype.name is computed in
        # Python on every access (~5 us a call in NumPy 2).
        scalars = tuple(isinstance(a, _Scalar) for a in arrays)
        if scalars != self._scalar_args:
            wrong = next(i for i, (x, y) in enumerate(zip(scalars, self._scalar_args))
                         if x != y) if len(scalars) == len(self._scalar_args) else None
            if wrong is None:
                raise TypeError(f"expected {len(self._scalar_args)} arguments, "
                                f"got {len(scalars)}")
            raise TypeError(
                f"argument {wrong}: compiled for a "
                f"{'Python scalar' if self._scalar_args[wrong] else 'tensor'}, "
                f"got a {'Python scalar' if scalars[wrong] else 'tensor'}")
        if not self.dynamic_dims:
            return tuple(a.key() if isinstance(a, _Scalar) else (a.dtype, a.shape)
                         for a in arrays)
        key = []
        for i, a in enumerate(arrays):
            if isinstance(a, _Scalar):
                key.append(a.key())
                continue
            dyn = self.dynamic_dims.get(i, ())
            shape = tuple(None if d in dyn else n
                          for d, n in enumerate(a.shape))
            key.append((a.dtype, shape))
        return tuple(key)

    def _entry_for(self, arrays, torch_args=None) -> _Entry:
        key = self._key(arrays)
        entry = self._cache.get(key)
        if entry is not None:
            return entry
        with self._lock:
            entry = self._cache.get(key)
            if entry is None:
                if torch_args is None:
                    torch_args = tuple(_as_torch(a) for a in arrays)
                entry = self._compile(arrays, torch_args)
                self._cache[key] = entry
        return entry

    def _import_cache_key(self, arrays) -> Optional[str]:
        """The import cache's key for compiling these arguments, or None when
        the cache is off or cannot vouch for the model."""
        if not self._import_cache or self.params_as_args or self.target != "cpu" \
                or self._is_torchscript():
            return None
        from . import import_cache
        if import_cache.directory() is None:
            return None  # the compile cache is off: nothing to reuse
        signature = [a.key() if isinstance(a, _Scalar) else (a.dtype.str, a.shape)
                     for a in arrays]
        settings = (self.optimize, sorted(self.options.items()), self.entry,
                    sorted((self.dynamic_dims or {}).items()))
        return import_cache.model_key(self.model, repr(signature), repr(settings))

    def _compile(self, arrays, torch_args) -> _Entry:
        from . import import_cache
        from .importer.mlir_builder import ConstantData
        t0 = time.perf_counter()
        with _TORCH_LOCK:
            key = self._import_cache_key(arrays)
            hit = import_cache.lookup(key, self.model) if key else None
            if hit is not None:
                mlir, raw, spec = hit
                constants = ConstantData()
                constants.raw.update(raw)
                if self._out_spec is None:
                    self._out_spec = spec
            else:
                mlir, constants = self._import(torch_args)
                if key:
                    import_cache.store(key, self.model, mlir, constants.raw,
                                       self._out_spec, self.entry)
            if self.params_as_args:
                self._params = self._parameter_arrays()
        t1 = time.perf_counter()
        self.import_cache = None if key is None else ("hit" if hit else "stored")
        specialize = None
        if not self.dynamic_dims:
            specialize = [a.shape for a in _tensors(arrays) + self._params]
        program = _native.Program(
            mlir, self.entry, optimize=self.optimize,
            vectorize=self.options.get("vectorize"),
            fuse=self.options.get("fuse"),
            opt_level=self.options.get("opt_level"),
            timing=self.timing, specialize=specialize, target=self.target,
            compile_only=bool(self.options.get("compile_only")),
            cuda_emulate=bool(self.options.get("cuda_emulate")),
            cuda_device=self.options.get("cuda_device"),
            verify_each=bool(self.options.get("verify_each")),
            constants=constants.raw,
            **{k: v for k, v in self.options.items()
               if k not in COMPILE_OPTIONS})
        t2 = time.perf_counter()
        timings = {"import": t1 - t0, "lower": program.lower_seconds,
                   "codegen": program.codegen_seconds, "total": t2 - t0}
        self.compile_count += 1
        self.timings = timings
        self._mlir = (mlir, constants)
        self.program = program
        if self.timing:
            sig = ", ".join(repr(a.value) if isinstance(a, _Scalar)
                            else f"{a.dtype}{list(a.shape)}" for a in arrays)
            print(f"graphopt: compiled ({sig}): import {timings['import']:.3f} s, "
                  f"lower {timings['lower']:.3f} s, codegen "
                  f"{timings['codegen']:.3f} s, total {timings['total']:.3f} s"
                  f" (compile cache: {program.cache}"
                  + (f"; import cache: {self.import_cache}" if self._import_cache else "")
                  + ")",
                  file=sys.stderr)
        return _Entry(program, timings)

    # -- calling ---------------------------------------------------------

    def __call__(self, *args):
        # CPU torch tensors of a signature seen before: the direct path.
        try:
            key = tuple([(a.dtype, a.shape) for a in args])
        except AttributeError:
            key = None
        call = self._torch_calls.get(key)
        if call is not None:
            outs = call(args)
            if outs is not None:
                self.program = call.program
                return self._structured(outs)
        return self._call(args, key)

    def _structured(self, outs: list):
        """The program's flat results in the model's output structure."""
        if self._tree is not None and self._tree.num_leaves == len(outs):
            return self._tree.unflatten(outs)
        return outs[0] if len(outs) == 1 else tuple(outs)

    def _torch_call_for(self, args, key, program) -> None:
        """Prepares the direct path for this call's signature when it can
        take it: torch tensors of supported dtypes, no parameters passed as
        arguments, static results under the size that is handed over
        without a copy (larger ones are adopted by the general path)."""
        torch = sys.modules.get("torch")
        if (torch is None or key is None or self._params or self.target != "cpu"
                or len(self._torch_calls) > 16
                or not program._static_outputs
                or program._output_bytes >= _native._ADOPT_BYTES
                or not all(type(a) is torch.Tensor for a in args)):
            return
        _torch_dtype_maps(torch)
        if not all(dtype in _NUMPY_OF_TORCH for dtype, _ in key) or not all(
                np.dtype(o.dtype) in _TORCH_OF_NUMPY for o in program.outputs):
            return  # a uint8 result, say: the general path converts it
        self._torch_calls[key] = _TorchCall(program, key, torch)

    def _cuda_device_ordinal(self) -> int:
        """The GPU the CUDA programs run on (the ``cuda_device`` option,
        else GRAPHOPT_CUDA_DEVICE, else 0)."""
        ordinal = self.options.get("cuda_device")
        if ordinal is None:
            try:
                ordinal = int(os.environ.get("GRAPHOPT_CUDA_DEVICE", "0"))
            except ValueError:
                ordinal = 0
        return ordinal

    def _call_on_device(self, args, torch) -> Optional[list]:
        """target='cuda' with every argument a torch CUDA tensor on the
        program's GPU, of a signature compiled before: the tensors' memory
        is passed as it is and the results are written into CUDA tensors
        allocated here, on PyTorch's current stream; nothing goes through
        the host. None when the call needs the general path (the first call
        of a signature compiles there; results of dynamic shape; an
        unsupported dtype)."""
        if self._params or not all(
                type(a) is torch.Tensor and a.is_cuda for a in args):
            return None
        device = args[0].device
        if any(a.device != device for a in args) or \
                device.index != self._cuda_device_ordinal():
            return None
        metas = []
        for a in args:
            dtype = _native.numpy_dtype_of_torch(a.dtype)
            if dtype is None:
                return None
            # Only the dtype and the shape make the key: a zero-strided view.
            metas.append(np.lib.stride_tricks.as_strided(
                np.empty(1, dtype), tuple(a.shape), (0,) * a.dim()))
        try:
            entry = self._cache.get(self._key(metas))
        except TypeError:
            return None
        if entry is None or not entry.program._static_outputs or \
                _native._program_run_device is None:
            return None
        program = entry.program
        ins = []
        for a in args:
            v = a.detach()
            if not v.is_contiguous() or v.data_ptr() % 16:
                # The kernels read 16-byte vectors: a view at an offset (x[1:])
                # or a strided one is passed as a fresh copy.
                v = v.contiguous() if not v.is_contiguous() else v.clone()
            ins.append(v)
        outs = []
        for o in program.outputs:
            # NumPy's (and ml_dtypes') names are torch's: float16, bool,
            # bfloat16, float8_e4m3fn, ...
            tdtype = getattr(torch, np.dtype(o.dtype).name, None)
            if not isinstance(tdtype, torch.dtype):
                return None
            outs.append(torch.empty(tuple(o.shape), dtype=tdtype, device=device))
        # PyTorch's default stream reports 0, the legacy default stream:
        # passed as CU_STREAM_LEGACY (1), so that the program runs after
        # the work queued there (a 0 would mean the runtime's own stream,
        # which does not wait for it).
        stream = torch.cuda.current_stream(device).cuda_stream or 1
        program.run_device(ins, outs, stream)
        self.program = program
        self.device_calls += 1
        return self._structured(outs)

    def _call(self, args, key):
        torch = sys.modules.get("torch")
        torch_in = None
        if torch is not None:
            torch_in = next((a for a in args if isinstance(a, torch.Tensor)),
                            None)
            if self.target == "cuda" and torch_in is not None \
                    and torch_in.is_cuda:
                outs = self._call_on_device(args, torch)
                if outs is not None:
                    return outs
        # Converting torch tensors runs torch code; NumPy inputs need no lock.
        with _TORCH_LOCK if torch_in is not None else contextlib.nullcontext():
            arrays = [_as_numpy(a, i) for i, a in enumerate(args)]
        entry = self._entry_for(arrays)
        self.program = entry.program
        outs = entry.program.run(_tensors(arrays) + self._params)
        if torch_in is not None and key not in self._torch_calls:
            with self._lock:
                self._torch_call_for(args, key, entry.program)
        if torch_in is not None:
            with _TORCH_LOCK:
                outs = [_torch_of_numpy(torch, o) for o in outs]
                if torch_in.device.type != "cpu":
                    outs = [o.to(torch_in.device) for o in outs]
        return self._structured(outs)

    @property
    def signatures(self) -> list:
        """The input signatures compiled so far: per input (dtype, shape),
        None marking a dynamic dim; ("scalar", value) for a Python scalar."""
        return [tuple(("scalar", k[2]) if k[0] == "scalar" else (k[0].name, k[1])
                      for k in key)
                for key in self._cache]

    def __repr__(self) -> str:
        name = getattr(self.model, "__name__", type(self.model).__name__)
        return (f"<graphopt.CompiledModule of {name}, target={self.target}, "
                f"{self.compile_count} program(s)>")


def compile(model_or_fn, example_args, target: str = "cpu", *,
            optimize: bool = True, dynamic_dims: Optional[dict] = None,
            params_as_args: bool = False, timing: bool = False,
            **options) -> CompiledModule:
    """Compiles a PyTorch model or function for ``target``: ``"cpu"`` (the
    host) or ``"cuda"`` (an NVIDIA GPU; NumPy arrays and CPU tensors are
    copied to and from the device around each call, torch CUDA tensors stay
    on the device: results come back as CUDA tensors; see docs/CUDA.md).

    Args:
        model_or_fn: an ``nn.Module`` (put it in ``eval()`` mode first), a
            function of tensors, a ``torch.fx.GraphModule``, or a TorchScript
            module/function (``torch.jit.script``/``trace``).
        example_args: a tensor or a tuple of tensors (NumPy arrays are
            accepted too) that the model is imported with.
        optimize: run the graph-level optimizations (default True).
        dynamic_dims: ``{input_index: [dim, ...]}``: dims imported as dynamic.
            One program then serves every size of them; otherwise every new
            input shape compiles a new program (cached).
        params_as_args: pass parameters as program arguments instead of
            embedding them as constants (smaller MLIR, no constant folding of
            weights).
        timing: print per-pass and per-phase compile times to stderr.
        **options: ``vectorize``, ``fuse``, ``opt_level``, ``entry``,
            ``compile_only``, ``cuda_emulate``, ``cuda_device``, ``verify_each``
            (see ``COMPILE_OPTIONS``),
            and every option of the compile pipeline by name
            (:func:`graphopt.pipeline_options` lists them, e.g.
            ``vector_width=8``, ``flash_attention=False``,
            ``fusion_report="-"``); an unknown name raises ``TypeError``.

    Returns:
        a :class:`CompiledModule`. Raises
        :class:`graphopt.importer.UnsupportedOpsError` when the model uses ops
        the importer does not know, :class:`graphopt.CompileError` when
        compilation fails, ``NotImplementedError`` for other targets.
    """
    return CompiledModule(model_or_fn, example_args, target=target,
                          optimize=optimize, dynamic_dims=dynamic_dims,
                          params_as_args=params_as_args, timing=timing,
                          **options)
