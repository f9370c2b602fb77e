"""ONNX ops: control flow (If, Loop, Scan) onto ``graph.if`` and
``graph.loop``; the subgraphs are imported in place by the importer
(:meth:`_Importer.import_subgraph`), seeing the enclosing graph's values."""

from __future__ import annotations

from typing import List

import numpy as np

from .core import ANY, ANY_VALUE, Node, Unsupported, Value, register

INT64_MAX = np.iinfo(np.int64).max


def _scalar(n: Node, v: Value, what: str) -> Value:
    """A one-element tensor (ONNX allows shape [] or [1]) as rank 0."""
    if v.rank == 0:
        return v
    if None in v.shape or int(np.prod(v.shape)) != 1:
        raise Unsupported(f"{what} must have one element, got shape {list(v.shape)}")
    return n.b.reshape(v, [])


@register("If", dtypes=ANY, typed=(0,),
          attrs={"then_branch": ANY_VALUE, "else_branch": ANY_VALUE},
          doc="`graph.if`; the branches may use the enclosing graph's values "
              "and must give outputs of one element type each")
def _if(n: Node):
    cond = _scalar(n, n.value(0), "the condition")
    imp = n.imp
    then_g, else_g = n.attr("then_branch"), n.attr("else_branch")
    return n.b.if_(cond, lambda: imp.import_subgraph(then_g, [], "then_branch"),
                   lambda: imp.import_subgraph(else_g, [], "else_branch"))


def _passes_condition_through(body) -> bool:
    """Whether the body's condition output is its condition input or a
    constant true (a for loop: it never ends early)."""
    cond_in, cond_out = body.input[1].name, body.output[0].name
    if cond_out == cond_in:
        return True
    for node in body.node:
        if cond_out in node.output:
            if node.op_type == "Identity" and node.input[0] == cond_in:
                return True
            if node.op_type == "Constant":
                from onnx import numpy_helper
                value = [a for a in node.attribute if a.name == "value"]
                return bool(value) and bool(np.all(numpy_helper.to_array(value[0].t)))
    return False


@register("Loop", dtypes=ANY, typed=(),
          attrs={"body": ANY_VALUE},
          doc="`graph.loop` (trip count and/or condition); scan outputs need "
              "a constant trip count and a body that does not end the loop "
              "early, and static shapes (each is a carried [M, ...] buffer "
              "written with `graph.dynamic_update_slice`)")
def _loop(n: Node):
    b, imp = n.b, n.imp
    body = n.attr("body")
    n_carried = n.num_inputs - 2
    n_scan = len(body.output) - 1 - n_carried
    if n_scan < 0:
        raise Unsupported(f"invalid model: the body has {len(body.output)} outputs for "
                          f"{n_carried} carried values")
    trip = _scalar(n, n.value(0), "M") if n.has(0) else \
        b.constant(np.array(INT64_MAX, dtype=np.int64))
    cond = _scalar(n, n.value(1), "cond") if n.has(1) else b.constant(np.array(True))
    carried = [n.value(i) for i in range(2, n.num_inputs)]
    steps = None
    if n_scan:
        if not n.has(0) or not _passes_condition_through(body):
            raise Unsupported("scan outputs need a constant trip count M and a body "
                              "that never ends the loop early")
        steps = int(np.asarray(n.const(0, "the trip count M of a loop with scan "
                                          "outputs")).reshape(-1)[0])
    true = b.constant(np.array(True))
    scan_types: List = []

    def run_body(iv: Value, state: List[Value]):
        # The body runs only while the condition holds: its condition input
        # is true.
        outs = imp.import_subgraph(body, [iv, true] + state[:n_carried], "loop body")
        cont, nxt, scans = outs[0], outs[1:1 + n_carried], outs[1 + n_carried:]
        cont = _scalar(n, cont, "the body's condition")
        bufs = state[n_carried:]
        if n_scan and not bufs:  # first emission: learn the scan outputs' types
            scan_types[:] = [v.type for v in scans]
            raise _Retry
        nxt = list(nxt) + [b.dynamic_update_slice(buf, v, iv, 0)
                           for buf, v in zip(bufs, scans)]
        return cont, nxt

    if n_scan:
        bufs = _scan_buffers(n, trip, cond, carried, run_body, scan_types, steps)
        return b.loop(trip, cond, carried + bufs, run_body)
    if not carried:
        raise Unsupported("a Loop without loop-carried values (nothing to compute)")
    return b.loop(trip, cond, carried, run_body)


@register("Scan", dtypes=ANY, typed=(),
          attrs={"body": ANY_VALUE, "num_scan_inputs": ANY_VALUE,
                 "scan_input_axes": ANY_VALUE, "scan_input_directions": ANY_VALUE,
                 "scan_output_axes": ANY_VALUE, "scan_output_directions": ANY_VALUE},
          doc="`graph.loop` over the scanned axis (static length): each step "
              "`graph.gather`s its slices and writes its scan outputs into "
              "carried buffers (`graph.dynamic_update_slice`); reversed "
              "directions index from the end, output axes other than 0 are a "
              "final transpose")
def _scan(n: Node):
    b, imp = n.b, n.imp
    body = n.attr("body")
    m = int(n.attr("num_scan_inputs"))
    inputs = [n.value(i) for i in range(n.num_inputs)]
    n_state = len(inputs) - m
    if n_state < 0 or m < 1:
        raise Unsupported(f"invalid model: {m} scan inputs of {len(inputs)} inputs")
    states, scanned = inputs[:n_state], inputs[n_state:]
    k = len(body.output) - n_state
    in_axes = [n.axis(a, v.rank) for a, v in
               zip(n.attr("scan_input_axes", None) or [0] * m, scanned)]
    in_dirs = list(n.attr("scan_input_directions", None) or [0] * m)
    out_dirs = list(n.attr("scan_output_directions", None) or [0] * k)
    lengths = {v.shape[a] for v, a in zip(scanned, in_axes)}
    if None in lengths or len(lengths) != 1:
        raise Unsupported(f"scanned dims must be static and equal, got {sorted(map(str, lengths))}")
    steps = lengths.pop()
    if steps < 1:
        raise Unsupported("a scan of length 0")
    trip = b.constant(np.array(steps, dtype=np.int64))
    last = b.constant(np.array(steps - 1, dtype=np.int64))
    true = b.constant(np.array(True))
    out_types: List = []

    def position(iv: Value, reverse) -> Value:
        return b.binary("sub", last, iv) if reverse else iv

    def run_body(iv: Value, state: List[Value]):
        slices = [b.gather(v, position(iv, d), a) for v, a, d in zip(scanned, in_axes, in_dirs)]
        outs = imp.import_subgraph(body, state[:n_state] + slices, "scan body")
        nxt, elems = list(outs[:n_state]), outs[n_state:]
        bufs = state[n_state:]
        if k and not bufs:
            out_types[:] = [v.type for v in elems]
            raise _Retry
        nxt += [b.dynamic_update_slice(buf, v, position(iv, d), 0)
                for buf, v, d in zip(bufs, elems, out_dirs)]
        return true, nxt

    bufs = _scan_buffers(n, trip, true, states, run_body, out_types, steps) if k else []
    if not states and not bufs:
        raise Unsupported("a Scan without states or scan outputs")
    results = b.loop(trip, true, states + bufs, run_body)
    finals, stacked = results[:n_state], results[n_state:]
    out_axes = list(n.attr("scan_output_axes", None) or [0] * k)
    for i, (v, a) in enumerate(zip(stacked, out_axes)):
        a = n.axis(a, v.rank)
        if a:
            perm = list(range(1, v.rank))
            perm.insert(a, 0)
            stacked[i] = b.transpose(v, perm)
    return list(finals) + list(stacked)


def _scan_buffers(n: Node, trip: Value, cond: Value, carried: List[Value], run_body,
                  types: List, steps: int) -> List[Value]:
    """Zero [steps, ...] buffers for the scan outputs of a loop body: a trial
    emission of the body (``run_body`` with only the ``carried`` values
    raises _Retry once it has stored its scan outputs' types in ``types``)
    learns their shapes; the caller then carries the buffers too."""
    b = n.b
    true = b.constant(np.array(True))
    try:
        b.loop(trip, cond, carried or [true],
               lambda iv, st: run_body(iv, st[:len(carried)]))
    except _Retry:
        pass
    bufs = []
    for t in types:
        if None in t.shape:
            raise Unsupported("a scan output of dynamic shape")
        bufs.append(b.splat(0, t.dtype, [steps] + list(t.shape)))
    return bufs


class _Retry(Exception):
    """Ends the trial emission of a Loop body with scan outputs."""
