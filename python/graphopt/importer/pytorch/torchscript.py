"""TorchScript -> ``graph`` dialect importer.

:func:`import_torchscript` imports ``torch.jit.script`` and ``torch.jit.trace``
modules and functions by walking their TorchScript graph. Modules are frozen
(parameters become constants, ``self.training`` branches fold away), then
calls are inlined and in-place ops removed where TorchScript can prove it
safe. ``aten::`` ops use the same mappings as :func:`~.fx.import_torch`
(:mod:`.aten`); control flow becomes ``graph.if`` and ``graph.loop``.

TorchScript scalars (``int``, ``float``, ``bool``) that are not constants
become rank-0 tensors (i64, f32, i1): ``if x.sum() > 0:`` gives a
``tensor<i1>`` condition, a loop counter a ``tensor<i64>``.

Details:

* ``prim::If`` with a constant condition (shape, dtype and ``is None``
  checks) keeps only the taken branch; a branch that only raises (an
  assertion) is dropped: checks are not compiled.
* Writes through ``select`` views (``out[t] = h``) become
  ``graph.dynamic_update_slice``; tensors written inside a loop or branch
  become loop-carried values / if results.
* Loops over Python values (``any(p.requires_grad for p in ...)``) and
  loops that append to a list are unrolled when their trip count is a
  compile-time constant.
* ``torch.is_grad_enabled()`` and ``requires_grad`` read as True, so that
  ``nn.MultiheadAttention``/``nn.TransformerEncoderLayer`` take their
  decomposed path instead of the fused ``_native_multi_head_attention`` /
  ``_transformer_encoder_layer_fwd`` kernels.
* Source locations are TorchScript's: the innermost source line (for a
  layer, the line inside ``torch.nn``).
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Tuple

import torch

from .dtypes import DTYPE_TO_MLIR, FunctionBuilder, TensorType, Value, module_text
from ..errors import Unsupported, UnsupportedOp, UnsupportedOpsError
from .aten import (POISON, Context, bind, emit_op, is_poisoned, lookup,
                         qualified_name, to_graph_value)

__all__ = ["import_torchscript"]

_SOURCE = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+)')

# Ops whose result aliases their input and that writes can go through.
_VIEW_OPS = {"aten::select"}

# c10::ScalarType codes of the dtypes the dialect has (prim::dtype results).
_DTYPE_CODES = {torch.uint8: 0, torch.int8: 1, torch.int16: 2, torch.int32: 3,
                torch.int64: 4, torch.float16: 5, torch.float32: 6,
                torch.float64: 7, torch.bool: 11, torch.bfloat16: 15}


def import_torchscript(scripted, example_args, *, entry: str = "main") -> str:
    """Imports a TorchScript module or function as MLIR text in the
    ``graph`` dialect.

    Args:
        scripted: a ``torch.jit.ScriptModule`` (from ``torch.jit.script`` or
            ``torch.jit.trace``; use ``.eval()``: the module is frozen in
            its current mode, and training-mode ops such as dropout are
            reported as unsupported) or a ``torch.jit.ScriptFunction``.
        example_args: values for the leading inputs (a tensor or a tuple);
            trailing inputs with defaults may be left out. A tensor becomes
            a function argument of its shape and dtype (a rank-0 tensor for
            a TorchScript ``int``/``float``/``bool`` input); a Python value
            (number, None, ...) is a compile-time constant.
        entry: the function's name.

    Returns:
        The module as text, ``func.func @<entry>`` taking the tensor inputs.

    Raises:
        UnsupportedOpsError: listing every unsupported op or attribute value
            (found before anything is emitted).
    """
    if isinstance(example_args, torch.Tensor) or not isinstance(example_args, (tuple, list)):
        example_args = (example_args,)
    graph, module, schema = _prepare(scripted)
    example_args = list(example_args)
    params = list(schema.arguments)[1 if module is not None else 0:]
    if len(example_args) > len(params):
        raise ValueError(f"import_torchscript: {len(example_args)} example args for "
                         f"{len(params)} inputs")
    for p in params[len(example_args):]:  # trailing inputs with defaults
        if not p.has_default_value():
            raise ValueError(f"import_torchscript: no example value for input {p.name!r}")
        example_args.append(p.default_value)
    return _TorchScriptImporter(graph, module, tuple(example_args), entry).run()


def _prepare(scripted):
    """``(graph, module, schema)``: the graph to import (a copy: frozen for
    modules, inlined, mutation removed where safe, constants propagated),
    the frozen module (None for functions) and the method's schema (for
    the defaults of inputs not given)."""
    module = None
    if isinstance(scripted, torch.jit.ScriptModule):
        methods = scripted._c._method_names()
        # nn.LSTM & co. script their overloads as forward__0, forward__1, ...
        name = "forward" if "forward" in methods else next(
            (m for m in sorted(methods) if m.startswith("forward__")), None)
        if name is None:
            raise ValueError("import_torchscript: the module has no forward method")
        schema = scripted._c._get_method(name).schema
        # Freezing inlines the parameters as constants and folds attribute
        # reads (self.training: a module in training mode keeps its
        # training-mode ops, which are then reported as unsupported).
        frozen = torch._C._freeze_module(scripted._c, [name])
        graph = frozen._get_method(name).graph.copy()
        module = frozen
    elif isinstance(scripted, torch.jit.ScriptFunction):
        graph = scripted.graph.copy()
        schema = scripted.schema
    else:
        raise TypeError("import_torchscript expects a torch.jit.ScriptModule or "
                        f"ScriptFunction, got {type(scripted).__name__}")
    torch._C._jit_pass_inline(graph)
    torch._C._jit_pass_remove_mutation(graph)
    torch._C._jit_pass_constant_propagation(graph)
    torch._C._jit_pass_dce(graph)
    return graph, module, schema


def _location(node) -> Tuple[Optional[str], Optional[int]]:
    try:
        text = node.sourceRange()
    except Exception:
        return None, None
    m = _SOURCE.search(text or "")
    if m:
        return m["file"], int(m["line"])
    return None, None


def _short_kind(node) -> str:
    return node.kind().split("::")[-1]


def _op_qualname(node) -> Optional[str]:
    schema = _schema(node)
    return qualified_name(schema) if schema is not None else None


def _schema(node):
    try:
        text = node.schema()
    except Exception:
        return None
    if not text or text == "(no schema)":
        return None
    try:
        return torch._C.parse_schema(text)
    except Exception:
        return None


def _is_inplace(node) -> bool:
    """``aten::add_``-style in-place ops (not dunders like ``__and__``)."""
    name = _short_kind(node)
    return name.endswith("_") and not name.endswith("__")


class _AlreadyReported(Unsupported):
    """A region produced a poisoned value: its error is already recorded."""


class _TorchScriptImporter:
    """Emits one ``func.func`` from a TorchScript graph.

    Unsupported ops are collected, not fatal: a node that cannot be
    imported records an :class:`UnsupportedOp` and poisons its outputs
    (ops using them are skipped), and the walk goes on through both
    branches of an ``if`` whose condition is unknown. Only the branches
    that can actually run are checked: TorchScript code often guards
    unsupported paths (fused fast paths, error checks) with conditions
    that fold to constants once shapes and dtypes are known.
    """

    def __init__(self, graph, module, example_args, entry):
        self.graph = graph
        self.module = module
        self.example_args = example_args
        self.builder = FunctionBuilder(entry)
        self.ctx = Context(self.builder)
        self.env: Dict[Any, Any] = {}
        self.errors: List[UnsupportedOp] = []
        # select views: view value -> (base value, dim, index), for writes
        # through them (out[t] = h).
        self.view_of: Dict[Any, Tuple[Any, Any, Any]] = {}

    @staticmethod
    def _node_name(node) -> str:
        outs = list(node.outputs())
        return outs[0].debugName() if outs else _short_kind(node)

    # -- emission ----------------------------------------------------------------

    def run(self) -> str:
        b = self.builder
        inputs = list(self.graph.inputs())
        if self.module is not None:
            self.env[inputs[0]] = self.module
            inputs = inputs[1:]
        for v, ex in zip(inputs, self.example_args):
            name = v.debugName().split(".")[0] or "arg"
            if isinstance(ex, torch.Tensor) and ex.dtype not in DTYPE_TO_MLIR:
                self.errors.append(UnsupportedOp(
                    "input", v.debugName(), f"input dtype {ex.dtype} is not supported"))
                self.env[v] = POISON
            elif isinstance(ex, torch.Tensor):
                weak = v.type().kind() in ("IntType", "FloatType", "BoolType")
                arg = b.add_argument(name, TensorType(tuple(ex.shape), ex.dtype))
                arg.weak = weak
                self.env[v] = arg
            else:
                self.env[v] = ex
        self.emit_nodes(self.graph.nodes())
        outs = [self.env[v] for v in self.graph.return_node().inputs()]
        results = []
        if not self.errors:
            try:
                results = [self._as_value(o, "model output") for o in _flatten(outs)]
            except Unsupported as e:
                self.errors.append(UnsupportedOp("output", "return", str(e)))
        if self.errors:
            raise UnsupportedOpsError(self.errors)
        b.set_results(results)
        return module_text([b])

    def _as_value(self, x, what: str) -> Value:
        if is_poisoned(x):
            raise _AlreadyReported(what)
        if isinstance(x, Value):
            return x
        if isinstance(x, (bool, int, float, torch.Tensor)):
            return self.ctx.tensor(x)
        raise Unsupported(f"{what} of type {type(x).__name__} is not supported")

    def emit_nodes(self, nodes):
        b = self.builder
        for node in nodes:
            file, line = _location(node)
            b.set_location(_short_kind(node), file, line)
            try:
                self.emit_node(node)
            except _AlreadyReported:
                self._poison(node)
            except Unsupported as e:
                qual = _op_qualname(node) or node.kind().replace("::", ".")
                self.errors.append(UnsupportedOp(qual, self._node_name(node), str(e),
                                                 file, line))
                self._poison(node)

    def _poison(self, node):
        for o in node.outputs():
            self.env[o] = POISON

    def _set_outputs(self, node, values):
        outs = list(node.outputs())
        if len(outs) == 1:
            self.env[outs[0]] = values
            return
        values = list(values)
        if len(values) != len(outs):
            raise Unsupported(f"op gave {len(values)} results for {len(outs)} outputs")
        for o, v in zip(outs, values):
            self.env[o] = v

    def emit_node(self, node):
        kind = node.kind()
        ins = [self.env[i] for i in node.inputs()]
        if is_poisoned(ins):
            if kind == "prim::If":
                self._check_branches(node)
            elif kind == "prim::Loop":
                self._check_loop_body(node)
            elif kind.startswith("aten::"):
                self._check_statically(node, ins)
            self._poison(node)
            return
        handler = getattr(self, "_" + kind.replace("::", "_"), None)
        if handler is not None:
            handler(node, ins)
            return
        if kind in ("prim::RaiseException", "prim::Print", "aten::warn"):
            return
        if not kind.startswith("aten::"):
            raise Unsupported("unsupported operator")
        schema = _schema(node)
        if schema is None:
            raise Unsupported("operator without schema")
        qualname = qualified_name(schema)
        if qualname.startswith("aten.copy_."):
            self._assign(node.inputsAt(0), self._copy_value(ins[0], ins[1]))
            self._set_outputs(node, self.env[node.inputsAt(0)])
            return
        inplace = lookup(qualname) is None and _is_inplace(node)
        if inplace:  # aten::add_ & co. that remove_mutation left: out of place
            qualname = qualname.replace("_.", ".", 1)
        a = bind(schema, ins, {})
        result = emit_op(self.ctx, qualname, a)
        if inplace:
            self._assign(node.inputsAt(0), result)
        elif kind in _VIEW_OPS and isinstance(result, Value):
            self.view_of[node.output()] = (node.inputsAt(0), ins[1], ins[2])
        if node.outputsSize():
            self._set_outputs(node, result)

    # -- mutation --------------------------------------------------------------------

    def _copy_value(self, dst, src) -> Value:
        """``src`` as ``dst``'s dtype and shape (what ``dst.copy_(src)``
        writes)."""
        dst = self.ctx.tensor(dst)
        v = self.ctx.tensor(src, dst.dtype)
        if v.shape != dst.shape:
            v = self.builder.broadcast_to(v, [-1 if d is None else d for d in dst.shape])
        return v

    def _assign(self, target, value: Value) -> None:
        """Gives TorchScript value ``target`` a new value (an in-place op
        wrote it). When ``target`` is ``base.select(dim, index)``, the write
        goes to ``base`` with graph.dynamic_update_slice."""
        self.env[target] = value
        view = self.view_of.get(target)
        if view is None:
            return
        base, dim, index = view
        base_v = self.ctx.tensor(self.env[base])
        from .aten import norm_dim
        d = norm_dim(self.ctx.int_(dim, "dim"), base_v.rank)
        if not isinstance(index, Value) and index < 0:
            if base_v.shape[d] is None:
                raise Unsupported("negative index into a dynamic dim")
            index += base_v.shape[d]
        idx = self.ctx.tensor(index, torch.int64)
        update = self.ctx.tensor(value, base_v.dtype)
        self._assign(base, self.builder.dynamic_update_slice(base_v, update, idx, d))

    def _mutated_outer(self, blocks) -> List[Any]:
        """The values defined outside ``blocks`` that ops inside them mutate
        (in place, through ``select`` views, or list appends)."""
        inside = set()
        nodes = []

        def walk(block):
            inside.update(block.inputs())
            for n in block.nodes():
                nodes.append(n)
                inside.update(n.outputs())
                for b in n.blocks():
                    walk(b)
        for b in blocks:
            walk(b)
        roots = []
        for n in nodes:
            if not (_is_inplace(n) or n.kind() == "aten::append"):
                continue
            v = n.inputsAt(0)
            while v in inside and v.node().kind() in _VIEW_OPS:
                v = v.node().inputsAt(0)
            if v not in inside and v not in roots:
                roots.append(v)
        return roots

    # -- structural nodes ----------------------------------------------------------

    def _prim_Constant(self, node, ins):
        out = node.output()
        value = out.toIValue()
        if isinstance(value, torch.Tensor):
            value = to_graph_value(self.ctx, value)
        self.env[out] = value

    def _prim_ListConstruct(self, node, ins):
        self.env[node.output()] = list(ins)

    def _prim_TupleConstruct(self, node, ins):
        self.env[node.output()] = tuple(ins)

    def _prim_ListUnpack(self, node, ins):
        self._unpack(node, ins[0])

    _prim_TupleUnpack = _prim_ListUnpack

    def _unpack(self, node, seq):
        if not isinstance(seq, (list, tuple)):
            raise Unsupported(f"cannot unpack a {type(seq).__name__}")
        for o, v in zip(node.outputs(), seq):
            self.env[o] = v

    def _prim_TupleIndex(self, node, ins):
        self.env[node.output()] = ins[0][self.ctx.int_(ins[1], "tuple index")]

    def _aten___getitem__(self, node, ins):
        seq, idx = ins
        if isinstance(seq, (list, tuple)):
            self.env[node.output()] = seq[self.ctx.int_(idx, "list index")]
            return
        raise Unsupported("indexing a non-list value")

    def _aten_append(self, node, ins):
        if not isinstance(ins[0], list):
            raise Unsupported("append to a run-time list")
        ins[0].append(ins[1])
        self.env[node.output()] = ins[0]

    def _aten_len(self, node, ins):
        if isinstance(ins[0], (list, tuple, str, dict)):
            self.env[node.output()] = len(ins[0])
        elif isinstance(ins[0], Value) and ins[0].rank > 0 and ins[0].shape[0] is not None:
            self.env[node.output()] = ins[0].shape[0]
        else:
            raise Unsupported("len of a run-time value")

    def _prim_GetAttr(self, node, ins):
        obj = ins[0]
        value = getattr(obj, node.s("name"))
        if isinstance(value, torch.Tensor):
            value = self.ctx.tensor(value)
        self.env[node.output()] = value

    def _prim_NumToTensor(self, node, ins):
        v = self.ctx.tensor(ins[0])
        self.env[node.output()] = Value(v.name, v.type, False, v.const)

    def _prim_unchecked_cast(self, node, ins):
        self.env[node.output()] = ins[0]

    _prim_data = _prim_unchecked_cast

    def _prim_dtype(self, node, ins):
        self.env[node.output()] = _DTYPE_CODES[self.ctx.tensor(ins[0]).dtype]

    def _prim_device(self, node, ins):
        self.env[node.output()] = torch.device("cpu")

    def _prim_layout(self, node, ins):
        self.env[node.output()] = 0  # torch.strided

    def _prim_is_cuda(self, node, ins):
        self.env[node.output()] = False

    _prim_is_nested = _prim_is_cuda

    # Environment queries are answered as in a grad-enabled session with
    # trainable parameters. This makes nn.MultiheadAttention and
    # nn.TransformerEncoderLayer take their decomposed ("slow") path rather
    # than the fused _native_multi_head_attention /
    # _transformer_encoder_layer_fwd kernels, which compute the same thing.
    def _aten_is_grad_enabled(self, node, ins):
        self.env[node.output()] = True

    def _prim_requires_grad(self, node, ins):
        self.env[node.output()] = True

    def _aten_is_autocast_enabled(self, node, ins):
        self.env[node.output()] = False

    _aten_is_autocast_cpu_enabled = _aten_is_autocast_enabled

    def _prim_type(self, node, ins):
        dev = ins[0]
        self.env[node.output()] = getattr(dev, "type", "cpu")

    def _aten_list(self, node, ins):
        if not isinstance(ins[0], (list, tuple)):
            raise Unsupported("list() of a run-time value")
        self.env[node.output()] = list(ins[0])

    def _prim_Uninitialized(self, node, ins):
        self.env[node.output()] = None

    def _aten___is__(self, node, ins):
        self.env[node.output()] = ins[0] is ins[1] or (ins[0] is None and ins[1] is None)

    def _aten___isnot__(self, node, ins):
        self.env[node.output()] = not (ins[0] is ins[1] or (ins[0] is None and ins[1] is None))

    def _prim_isinstance(self, node, ins):
        raise Unsupported("isinstance checks are not supported")

    def _aten_format(self, node, ins):
        # Strings only appear in messages and fast-path checks (whose logic
        # tests them for emptiness): tensors print as a placeholder.
        args = ["<tensor>" if isinstance(v, Value) else v for v in ins[1:]]
        try:
            self.env[node.output()] = str(ins[0]).format(*args)
        except (IndexError, KeyError, ValueError):
            self.env[node.output()] = str(ins[0])

    def _prim_min(self, node, ins):
        self._minmax(node, ins, min)

    def _prim_max(self, node, ins):
        self._minmax(node, ins, max)

    def _minmax(self, node, ins, fn):
        vals = ins[0] if len(ins) == 1 else ins
        if all(isinstance(v, (int, float)) for v in vals):
            self.env[node.output()] = fn(vals)
            return
        vs = self.ctx.promote(*vals)
        r = vs[0]
        for v in vs[1:]:
            r = self.builder.binary("min" if fn is min else "max", r, v)
        self.env[node.output()] = r

    def _aten___contains__(self, node, ins):
        if isinstance(ins[0], (list, tuple, dict)) and not isinstance(ins[1], Value):
            self.env[node.output()] = ins[1] in ins[0]
            return
        raise Unsupported("`in` on run-time values")

    # -- control flow --------------------------------------------------------------

    def _check_statically(self, node, ins):
        """Checks an op whose inputs could not be imported (so it is not
        emitted) as far as its constant arguments allow."""
        schema = _schema(node)
        qualname = qualified_name(schema) if schema is not None else None
        if qualname is None or qualname.startswith("aten.copy_."):
            return
        opdef = lookup(qualname) or (lookup(qualname.replace("_.", ".", 1))
                                     if _is_inplace(node) else None)
        if opdef is None:
            reason = "unsupported operator"
        elif opdef.check is None:
            return
        else:
            unknown = Value("%?", None)  # type unknown: checks skip it
            vals = [unknown if is_poisoned(v) else v for v in ins]
            try:
                reason = opdef.check(bind(schema, vals, {}))
            except (Unsupported, AttributeError, TypeError):
                return
        if reason:
            file, line = _location(node)
            self.errors.append(UnsupportedOp(qualname, self._node_name(node), reason,
                                             file, line))

    def _check_branches(self, node):
        """Walks both branches of an if whose condition is unknown (an
        unsupported op computes it), to report what they contain."""
        for block in node.blocks():
            self.emit_nodes(block.nodes())

    def _check_loop_body(self, node):
        block = next(node.blocks())
        for p in block.inputs():
            self.env[p] = POISON
        self.emit_nodes(block.nodes())

    @staticmethod
    def _raises(block) -> bool:
        return any(n.kind() == "prim::RaiseException" for n in block.nodes())

    def _emit_block(self, block) -> List[Any]:
        self.emit_nodes(block.nodes())
        return [self.env[v] for v in block.returnNode().inputs()]

    def _prim_If(self, node, ins):
        cond = ins[0]
        then_b, else_b = list(node.blocks())
        outs = list(node.outputs())
        if isinstance(cond, Value) and cond.const is not None:
            cond = bool(cond.const.item())
        if not isinstance(cond, Value):
            results = self._emit_block(then_b if cond else else_b)
        elif self._raises(then_b) or self._raises(else_b):
            # An assertion (`if bad: raise ...`): checks are not compiled.
            results = self._emit_block(else_b if self._raises(then_b) else then_b)
        else:
            results = self._emit_if(node, self.ctx.to_bool(self._rank0(cond)), then_b, else_b)
        for o, v in zip(outs, results):
            self.env[o] = v

    def _rank0(self, v: Value) -> Value:
        if v.rank == 0:
            return v
        if v.type.numel() != 1:
            raise Unsupported(f"condition of type {v.type} is not a single value")
        return self.ctx.reshape_dims(v, [])

    def _emit_if(self, node, cond: Value, then_b, else_b) -> List[Any]:
        outs = list(node.outputs())
        # Outputs that are not tensors or scalars (None, lists, ...) must be
        # the same Python value on both paths; they are not yielded.
        tensor_like = [o.type().kind() in ("TensorType", "IntType", "FloatType",
                                           "BoolType", "NumberType") for o in outs]
        # Tensors defined before the if and written in a branch are results too.
        mutated = self._mutated_outer([then_b, else_b])
        if any(not isinstance(self.env[m], Value) for m in mutated):
            raise Unsupported("a list or other non-tensor value is modified under "
                              "a run-time condition")
        before = {m: self.env[m] for m in mutated}
        raw: Dict[str, List[Any]] = {}

        def branch(block, key):
            def fn():
                for m, v in before.items():
                    self.env[m] = v
                vals = self._emit_block(block)
                raw[key] = vals
                return [self._as_value(v, "if result") for v, t in zip(vals, tensor_like)
                        if t] + [self._as_value(self.env[m], "if result") for m in mutated]
            return fn
        yielded = iter(self.builder.if_(cond, branch(then_b, "then"), branch(else_b, "else")))
        results = []
        for i, t in enumerate(tensor_like):
            if t:
                results.append(next(yielded))
            else:
                a, b_ = raw["then"][i], raw["else"][i]
                if not (a is b_ or a == b_):
                    raise Unsupported("if branches give different non-tensor values")
                results.append(a)
        for m in mutated:
            self._assign(m, next(yielded))
        return results

    #: Loops over Python values (no tensor state), and loops that append to
    #: a list, with at most this many iterations are unrolled at import time.
    UNROLL_LIMIT = 1024

    def _unroll(self, node, trip, cond, init) -> bool:
        """Unrolls a loop whose state is plain Python values (``any(...)``
        over a list, counting), or that appends to a list (``outs.append(h)``
        then ``torch.stack(outs)``), when its trip count is a compile-time
        constant. False if it is not such a loop."""
        block = next(node.blocks())
        appends = any(not isinstance(self.env[m], Value)
                      for m in self._mutated_outer([block]))
        if not isinstance(trip, int) or not isinstance(cond, bool) or \
                trip > self.UNROLL_LIMIT:
            if appends:
                raise Unsupported("a list modified in a loop needs a compile-time "
                                  "trip count (the loop is unrolled)")
            return False
        if any(isinstance(v, Value) for v in init) and not appends:
            return False
        params = list(block.inputs())
        rets = list(block.returnNode().inputs())
        state = list(init)
        i = 0
        while i < trip and cond:
            self.env[params[0]] = i
            for p, v in zip(params[1:], state):
                self.env[p] = v
            self.emit_nodes(block.nodes())
            vals = [self.env[r] for r in rets]
            cond, state = vals[0], vals[1:]
            if isinstance(cond, Value) and cond.const is not None:
                cond = bool(cond.const.item())
            if not isinstance(cond, bool):
                raise Unsupported("a loop over Python values whose condition "
                                  "depends on tensors")
            i += 1
        for o, v in zip(node.outputs(), state):
            self.env[o] = v
        return True

    def _prim_Loop(self, node, ins):
        b, ctx = self.builder, self.ctx
        trip, cond, init = ins[0], ins[1], ins[2:]
        if self._unroll(node, trip, cond, init):
            return
        block = next(node.blocks())
        params = list(block.inputs())
        rets = list(block.returnNode().inputs())
        trip_v = ctx.tensor(trip, torch.int64)
        cond_v = self._rank0(ctx.to_bool(cond))
        # Tensors defined before the loop and written in it (out[t] = h) are
        # carried too.
        mutated = self._mutated_outer([block])
        # A tuple or list of tensors (an LSTM state (h, c)) is carried as its
        # tensors, and rebuilt in the body and after the loop.
        specs = [_structure(v) for v in init] + \
            [_structure(self.env[m]) for m in mutated]
        init_v = [self._as_value(v, "loop-carried value")
                  for v in _flatten(list(init) + [self.env[m] for m in mutated])]
        n = len(init)

        def body(iv, carried):
            self.env[params[0]] = iv
            rebuilt = _rebuild_all(specs, carried)
            for p, v in zip(params[1:], rebuilt[:n]):
                self.env[p] = v
            for m, v in zip(mutated, rebuilt[n:]):
                self.env[m] = v
            self.emit_nodes(block.nodes())
            vals = [self.env[r] for r in rets] + [self.env[m] for m in mutated]
            cont = self._rank0(ctx.to_bool(vals[0]))
            if [_structure(v) for v in vals[1:]] != specs:
                raise Unsupported("a loop-carried tuple or list changes its "
                                  "structure in the loop")
            nxt = [self._as_value(v, "loop-carried value")
                   for v in _flatten(vals[1:])]
            nxt = [ctx.tensor(v, c.dtype) if v.dtype != c.dtype else v
                   for v, c in zip(nxt, carried)]
            return cont, nxt

        hints = [p.debugName().split(".")[0] or "arg" for p in params[1:]] + \
            [m.debugName().split(".")[0] or "arg" for m in mutated]
        if not init_v:
            raise Unsupported("a loop without loop-carried values has no effect "
                              "to compile")
        hints = [h for h, spec in zip(hints, specs)
                 for _ in range(_count_leaves(spec))]
        results = b.loop(trip_v, cond_v, init_v, body,
                         iv_hint=params[0].debugName().split(".")[0] or "iv",
                         carried_hints=hints)
        results = _rebuild_all(specs, results)
        for o, v in zip(node.outputs(), results[:n]):
            self.env[o] = v
        for m, v in zip(mutated, results[n:]):
            self._assign(m, v)


def _structure(x):
    """None for a leaf; (tuple or list, [the items' structures]) for a
    container (of any depth)."""
    if isinstance(x, (list, tuple)):
        return (type(x), [_structure(v) for v in x])
    return None


def _count_leaves(spec) -> int:
    return 1 if spec is None else sum(_count_leaves(s) for s in spec[1])


def _rebuild_all(specs, leaves) -> List[Any]:
    """The values of `specs` from their flattened `leaves`, in order."""
    it = iter(leaves)

    def build(spec):
        if spec is None:
            return next(it)
        return spec[0](build(s) for s in spec[1])
    return [build(s) for s in specs]


def _flatten(xs) -> List[Any]:
    out = []
    for x in xs:
        if isinstance(x, (list, tuple)):
            out += _flatten(x)
        else:
            out.append(x)
    return out
