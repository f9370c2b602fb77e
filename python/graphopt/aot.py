"""Loading an ahead-of-time compiled model: ``graphopt.load``.

``graph-run model.mlir --compile-only --emit-object=model.o`` writes an
object that runs without the compiler (docs/AOT.md); linked as a shared
library (``cc -shared model.o -o libmodel.so -lm``) it can be called from
Python without LLVM, MLIR or libGraphOpt.so:

    model = graphopt.load("libmodel.so")
    y = model(x)                    # NumPy arrays or torch tensors

An object compiled for CUDA (linked with ``-lGraphOptCUDARuntime``) takes
torch CUDA tensors as they are, uploads NumPy arrays and CPU tensors, and
copies its results back (see ``LoadedModel._call_cuda``).

The object describes itself: it exports its entry's signature as the C
string ``graphopt_<entry>_signature`` (JSON: element types, shapes with -1
for dynamic dims, the dynamic dims the program needs equal), from which the
loader checks every call's inputs -- count, element type, rank, each dim --
with the messages the JIT's checks give, builds the memref descriptors and
calls ``_mlir_ciface_<entry>``. Results are copied into NumPy arrays (torch
tensors when the first input is one) and their buffers freed. Calls of one
loaded model may come from several threads: the compiled code keeps no
state between calls.
"""

import ctypes
import ctypes.util
import json
import os
import sys
from typing import List, Optional

import numpy as np

from . import _native
from ._native import ExecutionError, GraphOptError


def _dtype(t: dict) -> np.dtype:
    """NumPy's dtype of a signature entry (bf16 and the 8-bit floats:
    ml_dtypes')."""
    return _native.dtype_named(t["dtype"])

# Weights files mapped for loaded libraries (kept until the process exits:
# the libraries' code points into them).
_MAPPED_WEIGHTS: list = []

_libc = ctypes.CDLL(ctypes.util.find_library("c"))
_libc.free.argtypes = [ctypes.c_void_p]
_libc.free.restype = None


def _descriptor_type(rank: int):
    """The memref descriptor of `rank`: allocated, aligned, offset, sizes,
    strides (MLIR's C interface)."""
    fields = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
              ("offset", ctypes.c_int64)]
    if rank:
        fields += [("sizes", ctypes.c_int64 * rank),
                   ("strides", ctypes.c_int64 * rank)]
    return type(f"MemRef{rank}D", (ctypes.Structure,), {"_fields_": fields})


def _type_str(t: dict) -> str:
    dims = "x".join("?" if d < 0 else str(d) for d in t["shape"])
    return f"tensor<{dims + 'x' if dims else ''}{t['dtype']}>"


#: Device buffers the CUDA kernels read with 16-byte vector loads must be
#: aligned to this many bytes; a torch CUDA tensor that is not is copied.
_CUDA_ALIGNMENT = 16

class LoadedModel:
    """A compiled model loaded from a shared library (see :func:`load`).

    Attributes: ``path``, ``entry``, ``signature`` (the object's JSON
    signature, parsed), ``inputs`` and ``outputs`` (their types as
    ``tensor<...>`` strings)."""

    def __init__(self, path: str, entry: str = "main", weights=None):
        self.path = os.fspath(path)
        self.entry = entry
        try:
            self._lib = ctypes.CDLL(os.path.abspath(self.path))
        except OSError as e:
            raise GraphOptError(f"cannot load {self.path}: {e}") from e
        name = f"graphopt_{entry}_signature"
        try:
            address = ctypes.addressof(ctypes.c_char.in_dll(self._lib, name))
        except ValueError:
            raise GraphOptError(
                f"{self.path} has no {name}: not a graphopt object for entry "
                f"'{entry}' (compile it with graph-run --compile-only "
                "--emit-object, and give entry= for another entry)") from None
        self.signature = json.loads(ctypes.cast(address, ctypes.c_char_p).value)
        if self.signature.get("format") != 1:
            raise GraphOptError(f"{self.path}: signature format "
                                f"{self.signature.get('format')} is not supported")
        self.cuda = bool(self.signature.get("cuda"))
        if self.cuda:
            self._bind_cuda_runtime()
        for t in self.signature["inputs"] + self.signature["outputs"]:
            try:
                _dtype(t)
            except GraphOptError as e:
                raise GraphOptError(f"{self.path}: {e}") from None
        if "weights" in self.signature:
            self._bind_weights(weights)
        elif weights is not None:
            raise GraphOptError(f"{self.path} keeps its weights in the object: "
                                "do not give weights=")
        self.inputs = [_type_str(t) for t in self.signature["inputs"]]
        self.outputs = [_type_str(t) for t in self.signature["outputs"]]
        self._fn = getattr(self._lib, f"_mlir_ciface_{entry}")
        self._fn.restype = None
        self._in_types = [_descriptor_type(len(t["shape"]))
                          for t in self.signature["inputs"]]
        out_types = [_descriptor_type(len(t["shape"]))
                     for t in self.signature["outputs"]]
        # Several results are consecutive descriptors in one buffer.
        self._results_type = type("Results", (ctypes.Structure,), {
            "_fields_": [(f"r{i}", t) for i, t in enumerate(out_types)]})

    def _bind_cuda_runtime(self) -> None:
        """The CUDA runtime's host API, through the library (linked with
        -lGraphOptCUDARuntime), for uploads, downloads and frees."""
        api = {}
        for name, res, args in [
                ("graphoptCudaMalloc", ctypes.c_void_p, [ctypes.c_size_t]),
                ("graphoptCudaFree", None, [ctypes.c_void_p]),
                ("graphoptCudaCopyToDevice", ctypes.c_int,
                 [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]),
                ("graphoptCudaCopyToHost", ctypes.c_int,
                 [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]),
                ("graphoptCudaSynchronize", ctypes.c_int, []),
                ("graphoptCudaGetError", ctypes.c_char_p, []),
                ("graphoptCudaClearError", None, [])]:
            try:
                fn = getattr(self._lib, name)
            except AttributeError:
                raise GraphOptError(
                    f"{self.path} was compiled for CUDA but does not reach "
                    f"{name}: link it with -lGraphOptCUDARuntime "
                    "(docs/AOT.md)") from None
            fn.restype, fn.argtypes = res, args
            api[name[len("graphoptCuda"):]] = fn
        # Device-to-device result copies (a runtime of 2026-12-07 or later;
        # without it results go through the host).
        fn = getattr(self._lib, "graphoptCudaCopyOnDevice", None)
        if fn is not None:
            fn.restype = ctypes.c_int
            fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
        api["CopyOnDevice"] = fn
        self._cu = api

    def _cuda_error(self, what: str) -> ExecutionError:
        e = self._cu["GetError"]()
        self._cu["ClearError"]()
        return ExecutionError(f"@{self.entry} ({self.path}): {what}: "
                              f"{e.decode() if e else 'CUDA error'}")

    def _call_cuda(self, args):
        """A CUDA object: torch CUDA tensors are passed as they are (their
        memory is the device buffer; PyTorch's stream is synchronized
        first, since the program runs on the runtime's own stream); NumPy
        arrays and CPU tensors are uploaded. Results are copied out of the
        program's buffers (which are then freed): with a CUDA tensor input,
        into CUDA tensors on its device, on the device (contiguous results;
        others through the host); else through the host, as torch tensors on
        the device of the first tensor input if there is one, else NumPy
        arrays."""
        torch = sys.modules.get("torch")
        cu = self._cu
        cuda_in = torch_in = None
        views = []    # what the call reads: CUDA tensors or host arrays
        checked = []  # arrays of their dtypes and shapes, for _check
        for i, a in enumerate(args):
            if torch is not None and isinstance(a, torch.Tensor):
                torch_in = torch_in if torch_in is not None else a
                if a.is_cuda:
                    cuda_in = cuda_in if cuda_in is not None else a
                    v = a.detach().contiguous()
                    if v.data_ptr() % _CUDA_ALIGNMENT:
                        # A view into its storage at an odd offset (x[1:]):
                        # the kernels' 16-byte vector loads would fault and
                        # end the CUDA context. A fresh (aligned) copy.
                        v = v.clone()
                    views.append(v)
                    checked.append(np.lib.stride_tricks.as_strided(
                        np.empty(1, _torch_dtype_name(a)), tuple(a.shape),
                        (0,) * a.dim()))
                    continue
                a = a.detach().cpu().numpy()
            elif not isinstance(a, (np.ndarray, np.generic)):
                raise TypeError(f"argument {i}: expected a NumPy array or a "
                                f"torch.Tensor, got {type(a).__name__}")
            a = np.asarray(a, order="C")
            views.append(a)
            checked.append(a)
        self._check(checked)
        uploaded, descriptors = [], []
        try:
            for v, dtype in zip(views, self._in_types):
                d = dtype()
                if isinstance(v, np.ndarray):
                    ptr = cu["Malloc"](max(v.nbytes, 1))
                    if not ptr:
                        raise self._cuda_error(f"allocating {v.nbytes} bytes")
                    uploaded.append(ptr)
                    if v.nbytes and cu["CopyToDevice"](ptr, v.ctypes.data, v.nbytes):
                        raise self._cuda_error("copying an input to the device")
                else:
                    ptr = v.data_ptr()
                d.allocated = d.aligned = ptr
                d.offset = 0
                if v.ndim:
                    d.sizes[:] = list(v.shape)
                    d.strides[:] = [int(s) for s in (
                        v.stride() if not isinstance(v, np.ndarray)
                        else [s // v.itemsize for s in v.strides])]
                descriptors.append(d)
            if cuda_in is not None:
                torch.cuda.current_stream(cuda_in.device).synchronize()
            results = self._results_type()
            call_args = [ctypes.byref(d) for d in descriptors]
            if self.signature["outputs"]:
                call_args.insert(0, ctypes.byref(results))
            self._fn(*call_args)
            if cu["Synchronize"]() or cu["GetError"]():
                raise self._cuda_error("running on the GPU")
            outs = []
            owned = {getattr(results, f"r{i}").allocated
                     for i in range(len(self.signature["outputs"]))}
            owned -= set(uploaded) | {v.data_ptr() for v in views
                                      if not isinstance(v, np.ndarray)}
            try:
                for i, t in enumerate(self.signature["outputs"]):
                    r = getattr(results, f"r{i}")
                    out = None
                    if cuda_in is not None:
                        out = self._copy_on_device(r, t, cuda_in.device, torch)
                    if out is None:
                        out = self._download(r, t, torch_in)
                    outs.append(out)
            finally:
                for ptr in owned:
                    if ptr:
                        cu["Free"](ptr)
        finally:
            for ptr in uploaded:
                cu["Free"](ptr)
        return outs[0] if len(outs) == 1 else tuple(outs)

    def _copy_on_device(self, r, t: dict, device, torch):
        """Result ``r`` copied on the device into a new CUDA tensor on
        ``device``; None where it must go through the host (a strided
        result, a runtime without the copy, a dtype torch lacks)."""
        copy = self._cu.get("CopyOnDevice")
        dtype = _dtype(t)
        tdtype = getattr(torch, dtype.name, None)
        if copy is None or not isinstance(tdtype, torch.dtype):
            return None
        rank = len(t["shape"])
        shape = list(r.sizes) if rank else []
        strides = list(r.strides) if rank else []
        expect = 1
        for n, s in reversed(list(zip(shape, strides))):
            if n != 1 and s != expect:
                return None
            expect *= n
        out = torch.empty(shape, dtype=tdtype, device=device)
        nbytes = out.numel() * dtype.itemsize
        src = (r.aligned or 0) + r.offset * dtype.itemsize
        if nbytes and copy(out.data_ptr(), src, nbytes):
            raise self._cuda_error("copying a result on the device")
        return out

    def _download(self, r, t: dict, torch_in):
        rank = len(t["shape"])
        shape = list(r.sizes) if rank else []
        strides = list(r.strides) if rank else []
        dtype = _dtype(t)
        count = int(np.prod(shape)) if shape else 1
        span = 1 + sum((n - 1) * s for n, s in zip(shape, strides)) if count else 0
        flat = np.empty(span, dtype)
        src = (r.aligned or 0) + r.offset * dtype.itemsize
        if span and self._cu["CopyToHost"](flat.ctypes.data, src, flat.nbytes):
            raise self._cuda_error("copying a result to the host")
        out = _strided_copy(flat, dtype, span, shape, strides) \
            if count else np.zeros(shape, dtype)
        if torch_in is not None:
            import torch
            return _native.torch_of_numpy(torch, out).to(torch_in.device)
        return out

    def _bind_weights(self, weights) -> None:
        """Maps the weights file (``--emit-weights``), checks it as the C
        header does (size, header, checksum) and points the object's code
        at it, unless the library is bound already."""
        info, entry = self.signature["weights"], self.entry
        base = getattr(self._lib, f"graphopt_{entry}_weights_base")
        base.restype = ctypes.c_void_p
        if base():
            return
        if weights is None:
            raise GraphOptError(
                f"{self.path} keeps its weights in a file of their own "
                f"({info['bytes']} bytes, written with the object by "
                "--emit-weights): give weights=PATH")
        path = os.fspath(weights)
        want_bytes, want_sum = info["bytes"], int(info["checksum"], 16)
        try:
            size = os.path.getsize(path)
        except OSError as e:
            raise GraphOptError(f"cannot open the weights file {path}: "
                                f"{e.strerror}") from None
        if size != 64 + want_bytes:
            raise GraphOptError(
                f"the weights file {path} has {size} bytes; @{entry} needs "
                f"{64 + want_bytes} (a 64-byte header and {want_bytes} of "
                "data): not the file written with this object")
        data = np.memmap(path, dtype=np.uint8, mode="r")
        fields = data[8:32].view(np.uint64)
        if bytes(data[:8]) != b"GOWGHT01" or int(fields[0]) != want_bytes \
                or int(fields[1]) != want_sum:
            raise GraphOptError(
                f"{path} is not the weights file of this object of @{entry} "
                "(its header differs: written for another model or another "
                "compile)")
        words = data[64:].view(np.uint64)
        index = np.arange(words.size, dtype=np.uint64)
        with np.errstate(over="ignore"):
            t = (words ^ (index * np.uint64(0x9E3779B97F4A7C15))) \
                * np.uint64(0xBF58476D1CE4E5B9)
            t ^= t >> np.uint64(31)
            got = int(t.sum(dtype=np.uint64))
        if got != want_sum:
            raise GraphOptError(
                f"the weights file {path} is corrupt: the checksum of its data "
                f"is 0x{got:016x}, expected 0x{want_sum:016x}")
        bind = getattr(self._lib, f"graphopt_{entry}_bind_weights")
        bind.argtypes = [ctypes.c_void_p]
        bind.restype = None
        # The mapping stays for the life of the process, as the C header's.
        _MAPPED_WEIGHTS.append(data)
        bind(data.ctypes.data + 64)

    def _check(self, arrays: List[np.ndarray]) -> None:
        sig, entry = self.signature, self.entry
        want = sig["inputs"]
        if len(arrays) != len(want):
            raise ExecutionError(
                f"@{entry} takes {len(want)} input{'' if len(want) == 1 else 's'}"
                f" but {len(arrays)} {'was' if len(arrays) == 1 else 'were'} given")
        for i, (a, t) in enumerate(zip(arrays, want)):
            if a.dtype != _dtype(t):
                raise ExecutionError(
                    f"input {i} of @{entry}: expected element type {t['dtype']} "
                    f"({_type_str(t)}), got {a.dtype}")
            if a.ndim != len(t["shape"]):
                raise ExecutionError(
                    f"input {i} of @{entry}: expected rank {len(t['shape'])} "
                    f"({_type_str(t)}), got shape {list(a.shape)}")
            for d, (got, expected) in enumerate(zip(a.shape, t["shape"])):
                if expected >= 0 and got != expected:
                    raise ExecutionError(
                        f"input {i} of @{entry}: dim {d} is {got}, expected "
                        f"{expected} ({_type_str(t)})")
        for e in sig["dim_equalities"]:
            got = arrays[e["arg"]].shape[e["dim"]]
            other = e["other_arg"]
            expected = e["size"] if other < 0 else arrays[other].shape[e["other_dim"]]
            if got != expected:
                where = "the static size" if other < 0 else \
                    f"dim {e['other_dim']} of input {other}"
                raise ExecutionError(
                    f"input {e['arg']} of @{entry}: dim {e['dim']} is {got} but "
                    f"{where} is {expected}; the program needs them equal"
                    + (f" for {e['reason']}" if e["reason"] else ""))

    def __call__(self, *args):
        if self.cuda:
            return self._call_cuda(args)
        torch = sys.modules.get("torch")
        torch_in = None
        arrays = []
        for i, a in enumerate(args):
            if torch is not None and isinstance(a, torch.Tensor):
                torch_in = torch_in if torch_in is not None else a
                t = a.detach().cpu()
                bits = _native.numpy_of_torch_bits(t)
                a = bits if bits is not None else t.numpy()
            elif not isinstance(a, (np.ndarray, np.generic)):
                raise TypeError(f"argument {i}: expected a NumPy array or a "
                                f"torch.Tensor, got {type(a).__name__}")
            arrays.append(np.asarray(a, order="C"))  # keeps rank 0
        self._check(arrays)
        descriptors = []
        for a, dtype in zip(arrays, self._in_types):
            d = dtype()
            d.allocated = d.aligned = a.ctypes.data
            d.offset = 0
            if a.ndim:
                d.sizes[:] = list(a.shape)
                d.strides[:] = [s // a.itemsize for s in a.strides]
            descriptors.append(d)
        results = self._results_type()
        call_args = [ctypes.byref(d) for d in descriptors]
        if self.signature["outputs"]:
            call_args.insert(0, ctypes.byref(results))
        self._fn(*call_args)
        outs = []
        freed = set()
        inputs = {a.ctypes.data for a in arrays}
        for i, t in enumerate(self.signature["outputs"]):
            r = getattr(results, f"r{i}")
            rank = len(t["shape"])
            shape = list(r.sizes) if rank else []
            strides = list(r.strides) if rank else []
            dtype = _dtype(t)
            count = int(np.prod(shape)) if shape else 1
            if count == 0:
                out = np.zeros(shape, dtype)
            else:
                span = 1 + sum((n - 1) * s for n, s in zip(shape, strides))
                base = (ctypes.c_char * (span * dtype.itemsize)).from_address(
                    r.aligned + r.offset * dtype.itemsize)
                out = _strided_copy(base, dtype, span, shape, strides)
            outs.append(out)
        # Free each result buffer once (results may share one), never an
        # input's (a program may return its argument).
        for i in range(len(self.signature["outputs"])):
            ptr = getattr(results, f"r{i}").allocated
            if ptr and ptr not in freed and ptr not in inputs:
                freed.add(ptr)
                _libc.free(ptr)
        if torch_in is not None:
            outs = [_native.torch_of_numpy(torch, o).to(torch_in.device) for o in outs]
        return outs[0] if len(outs) == 1 else tuple(outs)

    def __repr__(self) -> str:
        return (f"<graphopt.LoadedModel {self.path}: @{self.entry}("
                f"{', '.join(self.inputs)}) -> ({', '.join(self.outputs)})>")


def _strided_copy(buffer, dtype: np.dtype, span: int, shape, strides) -> np.ndarray:
    """A C-contiguous copy of the ``shape``/``strides`` (in elements) view
    of ``span`` elements of ``dtype`` in ``buffer``. The view is taken on
    unsigned integers of the same width: NumPy's as_strided cannot express
    ml_dtypes' dtypes (bf16, the 8-bit floats)."""
    bits = np.dtype(f"u{dtype.itemsize}")
    flat = np.frombuffer(buffer, dtype=bits, count=span)
    view = np.lib.stride_tricks.as_strided(flat, shape, [s * dtype.itemsize for s in strides])
    return view.copy().view(dtype)


def _torch_dtype_name(t) -> np.dtype:
    """The NumPy dtype of a torch tensor's element type (for the checks)."""
    name = str(t.dtype).replace("torch.", "")
    if name in _native._TORCH_BITS:  # bf16, the 8-bit floats: ml_dtypes'
        return _native._numpy_dtype(_native._TORCH_BITS[name])
    try:
        return np.dtype(name)
    except TypeError:
        raise ExecutionError(f"element type {t.dtype} is not supported by the "
                             "Python loader") from None


def load(path, entry: str = "main", weights=None) -> LoadedModel:
    """Loads a shared library built from an object of ``graph-run
    --compile-only --emit-object`` and returns a callable that checks its
    inputs and runs entry ``entry`` (see the module docstring). ``weights``:
    the file written with the object by ``--emit-weights``, mapped and
    checked (size, checksum) on the first load of the library."""
    return LoadedModel(path, entry, weights)
