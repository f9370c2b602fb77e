"""PyTorch (``torch.export`` / ``torch.fx``) -> ``graph`` dialect importer.

:func:`import_torch` captures a model with ``torch.export.export`` (no
core-ATen decomposition: high-level ops such as ``aten.linear``,
``aten.conv2d``, ``aten.layer_norm``, ``aten.scaled_dot_product_attention``
and ``aten.lstm`` map directly onto ``graph`` ops), walks the FX graph and
prints an MLIR module whose ``func.func @main`` computes the model.
Without ``torch.export`` (old PyTorch), or with ``method="fx"``, the model
is captured with ``torch.fx.symbolic_trace`` instead and its calls of
modules, functions and tensor methods are normalized to the same ATen
mappings (static shapes only).

Details:

* In-place ops (``ReLU(inplace=True)``, ``x += y``) on fresh intermediates
  become their functional forms (``_functionalize_in_place``); any other
  in-place op makes the importer functionalize the program
  (``run_decompositions({})``, which decomposes nothing, but traces again). Ops without a mapping but with a PyTorch decomposition are
  decomposed, and only those.
* ``nn.MultiheadAttention`` and ``nn.TransformerEncoderLayer``:
  ``torch.export`` always traces their decomposed ("slow") path, never the
  fused ``_native_multi_head_attention`` / ``_transformer_encoder_layer_fwd``
  kernels, so they import as linear/matmul/softmax (or
  ``scaled_dot_product_attention``) ops.
* ``torch.cond`` becomes ``graph.if``; ``aten.lstm``/``aten.gru`` a
  ``graph.loop`` over time.
* Ops whose inputs are all import-time constants (``torch.arange``,
  ``torch.triu(torch.ones(n, n))``, parameter slices) are evaluated in
  Python and emitted as ``graph.constant``.
"""

from __future__ import annotations

import operator
from typing import Any, Dict, List, Optional, Sequence

import torch

from ..errors import Unsupported, UnsupportedOp, UnsupportedOpsError
from .aten import to_graph_value
from .dtypes import DTYPE_TO_MLIR, TensorType, Value, module_text
from .fx_graph import FxGraphImporter, _named_state, tensor_type_of

__all__ = ["import_torch", "import_torch_with_structure", "parameter_order"]


# ---------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------

def parameter_order(model) -> List[torch.Tensor]:
    """The tensors :func:`import_torch` with ``params_as_args=True`` takes
    after the user inputs, in order: ``model.named_parameters()``, then
    ``model.named_buffers()`` (duplicates, e.g. tied weights, once).
    Empty for a plain function."""
    if not isinstance(model, torch.nn.Module):
        return []
    return [t for _, t in _named_state(model)]


def import_torch(model_or_fn, example_args, *, params_as_args: bool = False,
                 dynamic_dims: Optional[Dict[int, Sequence[int]]] = None,
                 entry: str = "main", method: Optional[str] = None) -> str:
    """Imports a PyTorch model or function as MLIR text in the ``graph``
    dialect.

    Args:
        model_or_fn: an ``nn.Module`` (use ``.eval()`` for inference:
            dropout and batch norm in training mode are reported as
            unsupported) or a function of tensors.
        example_args: a tensor or a tuple of tensors; their shapes and
            dtypes become the function's argument types.
        params_as_args: by default parameters and buffers are embedded as
            ``graph.constant``. With True they become function arguments
            after the user inputs, in the order of :func:`parameter_order`
            (``named_parameters()`` then ``named_buffers()``), each with its
            qualified name as location.
        dynamic_dims: ``{input index: [dims]}``, the dims of each input that
            are dynamic (``tensor<?x...>``), e.g. ``{0: [0]}`` for a dynamic
            batch. Uses ``torch.export`` dynamic shapes; PyTorch may
            specialize (and then reject) a dim the model needs static.
        entry: the function's name.
        method: ``"export"`` (default when available) or ``"fx"``
            (``torch.fx.symbolic_trace``; static shapes only).

    Returns:
        The module as text: ``func.func @<entry>(inputs...) -> results``.
        Every op carries a location ``loc("node"("file.py":line:0))``
        pointing at the model's source line.

    Raises:
        UnsupportedOpsError: listing every unsupported op or attribute value
            in the model, before anything is emitted.
    """
    return import_torch_with_structure(
        model_or_fn, example_args, params_as_args=params_as_args,
        dynamic_dims=dynamic_dims, entry=entry, method=method)[0]


def import_torch_with_structure(model_or_fn, example_args, *,
                                params_as_args: bool = False,
                                dynamic_dims: Optional[Dict[int, Sequence[int]]] = None,
                                entry: str = "main", method: Optional[str] = None):
    """:func:`import_torch`, and the structure of the model's result: the
    ``torch.utils._pytree`` spec ``torch.export`` recorded (tuples, lists,
    dicts of the function's results, in order), so that a caller can give
    the compiled results that structure without running the model. The
    spec is None on the ``torch.fx`` path, or when a result is not a tensor."""
    if isinstance(example_args, torch.Tensor):
        example_args = (example_args,)
    example_args = tuple(example_args)
    if method is None:
        method = "export" if hasattr(torch, "export") and \
            hasattr(torch.export, "export") else "fx"
    if method == "export":
        importer = _ExportImporter(model_or_fn, example_args, params_as_args,
                                   dynamic_dims, entry)
        text = importer.run()
        return text, importer.out_spec
    if method == "fx":
        if dynamic_dims:
            raise NotImplementedError("dynamic_dims needs torch.export "
                                      "(method='export')")
        from .fx_trace import FxTraceImporter
        return FxTraceImporter(model_or_fn, example_args, params_as_args,
                               entry).run(), None
    raise ValueError(f"unknown import method {method!r} (use 'export' or 'fx')")


def _is_python_scalar(value) -> bool:
    return isinstance(value, (bool, int, float))



def _overload_named(name: str):
    """The OpOverload an unsupported-op error names ("aten.movedim.int"),
    or None."""
    parts = name.split(".", 2)
    if len(parts) != 3:
        return None
    try:
        return getattr(getattr(getattr(torch.ops, parts[0]), parts[1]), parts[2])
    except (AttributeError, RuntimeError):
        return None


class _FunctionModule(torch.nn.Module):
    """Wraps a plain function so that torch.export can capture it."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn
        # Non-strict export keeps only `forward` frames in stack traces;
        # anchoring the function keeps its lines too (private API, optional).
        anchor = getattr(torch.fx.proxy, "_register_stack_trace_anchor", None)
        if anchor is not None:
            anchor(fn)

    def forward(self, *args):
        return self.fn(*args)


def _output_spec(ep):
    """The pytree spec of the exported function's result when every user
    output is a tensor (None otherwise, or when this PyTorch does not say)."""
    try:
        spec = ep.module_call_graph[0].signature.out_spec
        out_node = next(n for n in ep.graph.nodes if n.op == "output")
        outs = [o for o, sp in zip(out_node.args[0], ep.graph_signature.output_specs)
                if sp.kind.name == "USER_OUTPUT"]
    except (AttributeError, IndexError, StopIteration):
        return None
    if spec is None or spec.num_leaves != len(outs) or not all(
            isinstance(o, torch.fx.Node) and isinstance(o.meta.get("val"), torch.Tensor)
            for o in outs):
        return None
    return spec


def _has_mutation(graph: torch.fx.Graph) -> bool:
    return any(isinstance(n.target, torch._ops.OpOverload) and n.target._schema.is_mutable
               for n in graph.nodes if n.op == "call_function")


def _aliases_input(node: torch.fx.Node) -> bool:
    """True unless ``node`` is an ATen op (or an item of one's result)
    whose result is a new tensor, sharing no memory with its inputs."""
    import operator
    index = 0
    if node.op == "call_function" and node.target is operator.getitem:
        node, index = node.args[0], node.args[1]
        if not isinstance(node, torch.fx.Node) or not isinstance(index, int):
            return True
    if node.op != "call_function" or not isinstance(node.target, torch._ops.OpOverload):
        return True
    returns = node.target._schema.returns
    return not 0 <= index < len(returns) or returns[index].alias_info is not None


def _functional_variant(op: torch._ops.OpOverload):
    """``aten.relu`` for ``aten.relu_`` (the same overload), or None."""
    packet = op._schema.name.split("::")[-1]
    if not packet.endswith("_") or packet.startswith("_"):
        return None
    variant = getattr(getattr(torch.ops.aten, packet[:-1], None),
                      op._overloadname, None)
    if variant is None or variant._schema.is_mutable or len(
            variant._schema.arguments) != len(op._schema.arguments):
        return None
    return variant


def _functionalize_in_place(graph: torch.fx.Graph) -> bool:
    """Replaces each in-place op on a fresh intermediate (``relu_`` of a
    batch norm's result, ``out += identity`` in a residual block) by its
    functional form, reading the new value wherever the old one was read
    after it. That is what ``run_decompositions({})`` does to such ops,
    without tracing the model a second time (ResNet-50: ~2 s). An op it
    cannot prove safe (it writes an input, a parameter, a view or an
    argument other than the first; the tensor has views; its operands'
    dtypes differ, so the functional form could promote) is left; returns
    True when no in-place op remains."""
    position = {n: i for i, n in enumerate(graph.nodes)}
    for node in list(graph.nodes):
        if node.op != "call_function" or not isinstance(
                node.target, torch._ops.OpOverload) or not node.target._schema.is_mutable:
            continue
        schema = node.target._schema
        written = [i for i, a in enumerate(schema.arguments)
                   if a.alias_info is not None and a.alias_info.is_write]
        variant = _functional_variant(node.target)
        if written != [0] or not node.args or variant is None:
            continue
        target = node.args[0]
        if not isinstance(target, torch.fx.Node) or _aliases_input(target):
            continue
        if any(u is not node and (u.op != "call_function" or _aliases_input(u))
               and not (isinstance(u.target, torch._ops.OpOverload)
                        and u.target._schema.is_mutable)
               for u in target.users if u.op != "output"):
            continue
        val = target.meta.get("val")
        if not isinstance(val, torch.Tensor) or not val.dtype.is_floating_point:
            continue
        operands = [a for a in list(node.args) + list(node.kwargs.values())
                    if isinstance(a, torch.fx.Node)]
        if any(not isinstance(a.meta.get("val"), torch.Tensor)
               or a.meta["val"].dtype != val.dtype for a in operands):
            continue
        with graph.inserting_after(node):
            fresh = graph.create_node(
                "call_function", variant, tuple(node.args), dict(node.kwargs),
                name=variant._schema.name.split("::")[-1])
        fresh.meta = dict(node.meta)
        node.replace_all_uses_with(fresh)
        here = position[node]
        for user in list(target.users):
            if user is not fresh and user is not node and (
                    user.op == "output" or position.get(user, -1) > here):
                user.replace_input_with(target, fresh)
        position[fresh] = here
        graph.erase_node(node)
    return not _has_mutation(graph)


def _parameter_names(fn, n: int) -> Optional[List[str]]:
    """The names of ``fn``'s first ``n`` positional parameters, if it has
    them (the function's inputs are named after them in the MLIR)."""
    import inspect
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return None
    names = [p.name for p in params
             if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return names[:n] if len(names) >= n else None


def _fix_rnn_state_shapes(ep) -> None:
    """Reshapes the final states of `aten.lstm`/`aten.gru`/`aten.rnn_*` in
    `ep` to their initial states' shapes, which the ops define them to have.
    PyTorch 2.11's shape function for a bidirectional LSTM gives h_n and c_n
    as (2, 1, batch, hidden), and its decomposition computes that shape,
    where eager PyTorch returns (2, batch, hidden). A no-op where they
    already agree."""
    rnn = {"aten::lstm": (1, 2), "aten::gru": (1,), "aten::rnn_tanh": (1,),
           "aten::rnn_relu": (1,)}
    graph = ep.graph
    changed = False
    for node in list(graph.nodes):
        if node.op != "call_function" or not isinstance(node.target, torch._ops.OpOverload) \
                or node.target._schema.name not in rnn or node.target._overloadname != "input":
            continue
        positions = rnn[node.target._schema.name]
        hx = node.args[1]
        states = list(hx) if isinstance(hx, (list, tuple)) else [hx]
        for user in list(node.users):
            if user.target is not operator.getitem or user.args[1] not in positions:
                continue
            i = positions.index(user.args[1])
            want = getattr(states[i], "meta", {}).get("val") if i < len(states) else None
            got = user.meta.get("val")
            if not isinstance(want, torch.Tensor) or not isinstance(got, torch.Tensor) \
                    or tuple(want.shape) == tuple(got.shape) or want.numel() != got.numel():
                continue
            with graph.inserting_after(user):
                r = graph.call_function(torch.ops.aten.reshape.default,
                                        (user, list(want.shape)))
            user.replace_all_uses_with(r, delete_user_cb=lambda u: u is not r)
            r.meta = dict(user.meta)
            r.meta["val"] = got.reshape(list(want.shape))
            changed = True
    if changed:
        ep.graph_module.recompile()


class _ExportImporter(FxGraphImporter):
    def __init__(self, model, example_args, params_as_args, dynamic_dims, entry):
        self.model = model if isinstance(model, torch.nn.Module) else _FunctionModule(model)
        self.example_args = example_args
        self.params_as_args = params_as_args
        self.dynamic_dims = dynamic_dims or {}
        self.entry = entry

    def _export(self):
        dynamic_shapes = None
        if self.dynamic_dims:
            for i in self.dynamic_dims:
                if not 0 <= i < len(self.example_args):
                    raise ValueError(f"dynamic_dims: no input {i}")
            specs = []
            for i, t in enumerate(self.example_args):
                dims = self.dynamic_dims.get(i) or []
                specs.append({int(d) % max(t.dim(), 1): torch.export.Dim(f"in{i}_dim{d}")
                              for d in dims} or None)
            dynamic_shapes = tuple(specs)
            if isinstance(self.model, _FunctionModule):
                dynamic_shapes = (dynamic_shapes,)
        try:
            return torch.export.export(self.model, self.example_args,
                                       dynamic_shapes=dynamic_shapes)
        except Exception as e:
            text = f"{type(e).__name__} {e}".lower()
            if "datadependent" in text or "data-dependent" in text or \
                    "data dependent" in text:
                first = str(e).strip().splitlines()[0] if str(e).strip() else ""
                raise NotImplementedError(
                    "torch.export cannot capture the model: its control flow "
                    f"depends on tensor values ({type(e).__name__}: {first}). "
                    "Script it instead (torch.jit.script(model), which "
                    "graphopt.compile and import_torchscript accept: the branch "
                    "becomes graph.if), or write it with torch.cond") from e
            raise

    def run(self) -> str:
        ep = self._export()
        if _has_mutation(ep.graph) and not _functionalize_in_place(ep.graph):
            # In-place ops the rewrite above could not prove safe:
            # functionalize by tracing again. An empty table decomposes
            # nothing, so linear/conv2d/... stay as they are.
            ep = ep.run_decompositions({})
        super().__init__(ep.graph, self.entry)
        self.ep = ep
        self.out_spec = _output_spec(ep)
        self.root_module = ep.graph_module
        sig = ep.graph_signature
        self.specs = {s.arg.name: s for s in sig.input_specs
                      if hasattr(s.arg, "name")}
        errors = self.collect_unsupported()
        errors += self._mutations()
        if errors:
            decomposed = self._decompose_unsupported(errors)
            if decomposed is None:
                raise UnsupportedOpsError(errors)
            return decomposed
        return self._emit_module()

    def _decompose_unsupported(self, errors) -> Optional[str]:
        """Core-ATen-decomposes only the unsupported ops (when PyTorch has a
        decomposition for them) and imports again, repeating while a
        decomposition leaves ops that have decompositions of their own
        (up to four rounds); None if that does not remove every error."""
        table = dict(torch.export.default_decompositions()) if hasattr(
            torch.export, "default_decompositions") else None
        if table is None:
            return None
        # Core ATen ops (log1p, sign, ...) have no entry in the core table;
        # PyTorch's full table has decompositions for some of them.
        from torch._decomp import decomposition_table
        for k, v in decomposition_table.items():
            table.setdefault(k, v)
        # Errors name ops as "aten.einsum.default"; OpOverload.name() leaves
        # out ".default" ("aten::einsum"), so key by the full name.
        by_name = {f"{k.namespace}.{k._schema.name.split('::')[-1]}."
                   f"{k._overloadname}": k for k in table
                   if isinstance(k, torch._ops.OpOverload)}
        written = {e.op for e in errors}  # what the user's model uses
        names = set(written)
        ep = self.ep
        _fix_rnn_state_shapes(ep)
        for _ in range(4):
            for n in names - by_name.keys():
                # Not in either table, but defined in terms of other ops
                # (CompositeImplicitAutograd: movedim, tensor_split, ...).
                overload = _overload_named(n)
                if overload is not None and torch._C._dispatch_has_kernel_for_dispatch_key(
                        overload.name(), "CompositeImplicitAutograd"):
                    by_name[n] = overload
                    table[overload] = overload.decompose
            chosen = {by_name[n]: table[by_name[n]] for n in names if n in by_name}
            if not chosen:
                return None
            try:
                ep = ep.run_decompositions(chosen)
            except Exception:
                return None
            retry = _ExportImporter.__new__(_ExportImporter)
            retry.__dict__.update(self.__dict__)
            FxGraphImporter.__init__(retry, ep.graph, self.entry)
            retry.ep = ep
            retry.root_module = ep.graph_module
            retry.specs = {s.arg.name: s for s in ep.graph_signature.input_specs
                           if hasattr(s.arg, "name")}
            remaining = retry.collect_unsupported() + retry._mutations()
            if not remaining:
                return retry._emit_module()
            left = {e.op for e in remaining}
            if left <= written:
                raise UnsupportedOpsError(remaining)
            if not any(n in by_name for n in left - names):
                # The decompositions introduced ops the user never wrote
                # and PyTorch cannot decompose further.
                return None
            names = left
        return None

    def _mutations(self) -> List[UnsupportedOp]:
        errors = []
        for s in self.ep.graph_signature.output_specs:
            kind = s.kind.name
            if kind != "USER_OUTPUT":
                errors.append(UnsupportedOp(
                    "output", s.arg.name,
                    f"the model updates {getattr(s, 'target', '') or 'a tensor'} in place "
                    f"({kind.lower()}); is it in training mode? (call model.eval())"))
        return errors

    def _emit_module(self) -> str:
        self._state = dict(_named_state(self.model))
        self._param_args: Dict[str, Value] = {}
        self.symbol_sources = {}
        b = self.builder
        # User inputs first, then (with params_as_args) every parameter and
        # buffer in parameter_order(), so the signature does not depend on
        # which of them the graph uses.
        user = [n for n in self.graph.nodes if n.op == "placeholder"
                and self.specs[n.name].kind.name == "USER_INPUT"]
        names = [n.name for n in user]
        if isinstance(self.model, _FunctionModule):
            names = _parameter_names(self.model.fn, len(user)) or names
        # Python scalars (int, float, bool) are specialized: torch.export
        # bakes their example value into the graph, so they are not
        # arguments of the function (graphopt.compile recompiles for
        # another value).
        for n in user:
            if _is_python_scalar(n.meta.get("val")):
                self.env[n] = n.meta.get("val")
        named = [(n, name) for n, name in zip(user, names)
                 if not _is_python_scalar(n.meta.get("val"))]
        for n, name in named:
            ty = tensor_type_of(n.meta.get("val"))
            if ty is None:
                raise UnsupportedOpsError([UnsupportedOp(
                    "input", n.name, f"input of type {n.meta.get('val')!r} is not "
                    "supported (inputs must be f32/f16/bf16/i1/i32/i64 tensors)")])
            v = b.add_argument(name, ty)
            self.env[n] = v
            val = n.meta.get("val")
            for d, size in enumerate(val.shape):
                if ty.shape[d] is None:
                    self.symbol_sources.setdefault(str(size), (v, d))
        if self.params_as_args:
            for name, t in self._state.items():
                self._param_args[name] = b.add_argument(
                    "p_" + name.replace(".", "_"),
                    TensorType(tuple(t.shape), t.dtype), loc=name)
        self.emit()
        return module_text([b])

    # -- inputs ------------------------------------------------------------------

    def check_placeholder(self, node) -> Optional[str]:
        spec = self.specs.get(node.name)
        if spec is None:
            return None
        kind = spec.kind.name
        if kind in ("CUSTOM_OBJ", "TOKEN"):
            return f"input of kind {kind.lower()} is not supported"
        val = node.meta.get("val")
        if kind == "USER_INPUT" and _is_python_scalar(val):
            return None  # specialized: its value is a constant of the graph
        if kind == "USER_INPUT" and not (isinstance(val, torch.Tensor) and
                                         val.dtype in DTYPE_TO_MLIR):
            return (f"input {node.name} of type {getattr(val, 'dtype', type(val).__name__)} "
                    "is not supported (inputs must be f32/f16/bf16/i1/i32/i64 tensors)")
        return None

    def placeholder(self, node):
        if node in self.env:  # user input
            return self.env[node]
        spec = self.specs[node.name]
        kind, target = spec.kind.name, spec.target
        if kind in ("PARAMETER", "BUFFER"):
            if not node.users:
                return None
            if self.params_as_args:
                arg = self._param_args.get(target)
                if arg is None:  # an alias of a deduplicated tensor
                    t = self._tensor(target)
                    arg = next((self._param_args[n] for n, s in self._state.items()
                                if s is t), None)
                if arg is None:
                    raise Unsupported(f"parameter {target} not found in the model")
                return arg
            with self.builder.location(target):
                return self.ctx.tensor(self._tensor(target))
        if kind == "CONSTANT_TENSOR":
            if not node.users:
                return None
            with self.builder.location(target):
                return to_graph_value(self.ctx, self._tensor(target))
        raise Unsupported(f"input of kind {kind.lower()} is not supported")

    def _tensor(self, target: str) -> torch.Tensor:
        if target in self.ep.state_dict:
            return self.ep.state_dict[target]
        if target in self.ep.constants:
            return self.ep.constants[target]
        return self._state[target]

    def output_values(self, node) -> List[Any]:
        """The user outputs (mutated buffers, also returned by the graph,
        are reported by :meth:`_mutations`)."""
        values = []
        for o, spec in zip(node.args[0], self.ep.graph_signature.output_specs):
            if spec.kind.name != "USER_OUTPUT":
                continue
            values.append(self.env[o] if isinstance(o, torch.fx.Node)
                          else getattr(spec.arg, "value", o))
        return values
