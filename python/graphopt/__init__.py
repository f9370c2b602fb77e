"""graphopt: an MLIR-based graph compiler for PyTorch models.

    import graphopt
    compiled = graphopt.compile(model.eval(), (x,))   # import + JIT compile
    y = compiled(x)                                   # torch in, torch out

    torch.compile(model, backend=graphopt.torch_backend)

    text = graphopt.import_torch(model, (x,))         # MLIR (graph dialect)
    text = graphopt.optimize(text)                    # graph-level passes
    program = graphopt.Program(text)                  # NumPy in, NumPy out

The native compiler is ``libGraphOpt.so`` (C API:
``include/graphopt-c/GraphOpt.h``), bundled by ``pip install`` or found in
the source tree's ``build/lib``. PyTorch is imported only by the functions
that need it.
"""

from ._native import (
    LIBRARY_PATH,
    CompileError,
    ExecutionError,
    GraphOptError,
    Program,
    TensorSpec,
    pipeline_options,
    release_cached_memory,
    version as _native_version,
)
from .aot import LoadedModel, load
from .compiler import COMPILE_OPTIONS, CompiledModule, compile

__version__ = "0.1.0"

#: The default pipeline of :func:`optimize`: graph-level optimization.
DEFAULT_OPTIMIZE_PIPELINE = "builtin.module(graph-optimize-pipeline)"

__all__ = [
    "__version__", "compile", "CompiledModule", "COMPILE_OPTIONS", "optimize",
    "Program", "TensorSpec", "GraphOptError", "CompileError",
    "ExecutionError", "UnsupportedOpsError", "import_torch",
    "import_torchscript", "torch_backend", "native_version", "LIBRARY_PATH",
    "import_onnx", "pipeline_options", "load", "LoadedModel",
    "release_cached_memory",
]


def optimize(mlir_text: str, pipeline: str = DEFAULT_OPTIMIZE_PIPELINE,
             *, debug_locations: bool = False) -> str:
    """Runs the textual pass ``pipeline`` (graph-opt syntax) on
    ``mlir_text`` and returns the printed result. The default is graph-level
    optimization (shape refinement, constant folding, algebraic
    simplification, CSE/DCE). Raises :class:`CompileError` with the
    diagnostics when the text does not parse/verify or a pass fails."""
    from ._native import transform
    return transform(mlir_text, pipeline, debug_locations)


def native_version() -> str:
    """The version of the loaded libGraphOpt.so."""
    return _native_version()


# The importers and the torch.compile backend need PyTorch: loaded on first
# use (PEP 562), so `import graphopt` works without it.
_LAZY = {
    "import_torch": ("importer", "import_torch"),
    "import_torchscript": ("importer", "import_torchscript"),
    "UnsupportedOpsError": ("importer.errors", "UnsupportedOpsError"),
    "import_onnx": ("importer.onnx", "import_onnx"),
    "torch_backend": ("backend", "torch_backend"),
    "GraphOptFallbackWarning": ("backend", "GraphOptFallbackWarning"),
}


def __getattr__(name):
    if name in _LAZY:
        import importlib
        module, attr = _LAZY[name]
        value = getattr(importlib.import_module(f".{module}", __name__), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'graphopt' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
