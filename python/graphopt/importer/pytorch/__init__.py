"""The PyTorch importers: :func:`~.fx.import_torch` (``torch.export``, or
``torch.fx.symbolic_trace`` through :mod:`.fx_trace`; both walk FX graphs
with :mod:`.fx_graph`) and :func:`~.torchscript.import_torchscript`. Both map
ATen ops through one table, :mod:`.aten` (one module per op family); torch
dtypes reach the MLIR text builder through :mod:`.dtypes`."""
