#!/usr/bin/env python3
"""A model-level fuzzer for the ONNX importer: mutated node-test models.

Takes the ONNX backend node tests that graphopt passes (the installed
``onnx`` package's cases, less those listed in test/onnx/expectations.txt),
applies one random mutation to each drawn case, and runs it through
``graphopt.import_onnx`` -> ``graphopt.Program`` -> ``run`` in worker
processes (a native crash kills only its worker). The mutations:

* ``truncate``     the serialized model cut short at a random byte;
* ``flip``         1-4 random bytes of the serialized model changed;
* ``drop-input``   a node input removed (or left empty: "optional, absent");
* ``undefined``    a node input renamed to a value nothing defines;
* ``data-shape``   an input fed with a shape other than the declared one;
* ``decl-shape``   a graph input's declared shape changed (data to match);
* ``dtype``        a graph input's element type changed (data to match);
* ``attr``         an integer attribute (or one element of a list) changed.

The only allowed outcomes are a correct result or a clear error:

* ``ok``          a result that matches ONNX's reference evaluator
                  (``onnx.reference``, rtol 1e-3, atol 1e-5), or an error of
                  graphopt's own (``UnsupportedOpsError`` naming the node,
                  ``ValueError`` from the importer, ``CompileError``,
                  ``ExecutionError``) for a model or data that is invalid or
                  unsupported;
* ``crash``       the worker died (a signal) or timed out: a bug;
* ``internal``    another Python exception escaped (``KeyError``,
                  ``IndexError``, ...), or the importer reported an internal
                  error: a bug;
* ``mismatch``    a result that differs from the reference evaluator's: a bug;
* ``accepted``    a result for a model ONNX's checker rejects, or for data
                  whose shape contradicts a static declared shape: a bug (a
                  wrong program without a word).

Where the checker accepts a model but the reference evaluator fails on it (a
class label out of range, indices shaped as the spec allows but the
evaluator does not), ONNX leaves the result undefined: any result is ``ok``.

A ``CompileError`` on a model the importer accepted is allowed but counted
(``late``): the importer should have named the node itself.

    python3 scripts/fuzz_onnx.py --seed 1 --count 300            # 2 workers
    python3 scripts/fuzz_onnx.py --seed 1 --count 300 --keep DIR # failing models

The last line reads ``N cases: ok N, late N, crash N, internal N, mismatch N,
accepted N``; the exit status is 1 when any bug was found.
"""

from __future__ import annotations

import argparse
import json
import pickle
import random
import sys
import tempfile
import time
import warnings
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "test" / "onnx"))
sys.path.insert(0, str(ROOT / "python"))

import run_node_tests as nt  # noqa: E402  (the node-test runner's workers)

MUTATIONS = ["truncate", "flip", "drop-input", "undefined", "data-shape",
             "decl-shape", "dtype", "attr"]
BUGS = ("crash", "internal", "mismatch", "accepted")


# ---------------------------------------------------------------------------
# Mutations (in the parent: deterministic for a seed)
# ---------------------------------------------------------------------------

def _inputs(model):
    inits = {i.name for i in model.graph.initializer}
    return [i for i in model.graph.input if i.name not in inits]


def mutate(case: dict, kind: str, rng: random.Random):
    """(model bytes, inputs, data_shape_contradicts, what) or None when the
    mutation does not apply to this case."""
    import numpy as np
    import onnx
    model_bytes = case["model"]
    inputs = [None if v is None else np.array(v) for v in case["data_sets"][0][0]]
    if kind == "truncate":
        cut = rng.randrange(1, len(model_bytes))
        return model_bytes[:cut], inputs, False, f"cut at byte {cut} of {len(model_bytes)}"
    if kind == "flip":
        b = bytearray(model_bytes)
        where = []
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(b))
            b[i] = rng.randrange(256)
            where.append(i)
        return bytes(b), inputs, False, f"bytes {where} changed"
    model = onnx.ModelProto.FromString(model_bytes)
    graph = model.graph
    if kind in ("drop-input", "undefined"):
        nodes = [n for n in graph.node if len(n.input)]
        if not nodes:
            return None
        node = rng.choice(nodes)
        i = rng.randrange(len(node.input))
        if kind == "undefined":
            node.input[i] = "fuzz_undefined_value"
            what = f"input {i} of {node.op_type} renamed to an undefined value"
        elif rng.random() < 0.5:
            node.input[i] = ""
            what = f"input {i} of {node.op_type} left empty"
        else:
            del node.input[i]
            what = f"input {i} of {node.op_type} removed"
        return model.SerializeToString(), inputs, False, what
    graph_inputs = _inputs(model)
    if kind in ("data-shape", "decl-shape", "dtype"):
        cands = [k for k, (gi, v) in enumerate(zip(graph_inputs, inputs))
                 if isinstance(v, np.ndarray) and gi.type.HasField("tensor_type")]
        if not cands:
            return None
        k = rng.choice(cands)
        gi, v = graph_inputs[k], inputs[k]
        dims = gi.type.tensor_type.shape.dim
        if kind == "dtype":
            choices = [onnx.TensorProto.FLOAT, onnx.TensorProto.DOUBLE,
                       onnx.TensorProto.INT32, onnx.TensorProto.INT64,
                       onnx.TensorProto.BOOL, onnx.TensorProto.FLOAT16,
                       onnx.TensorProto.UINT8]
            old = gi.type.tensor_type.elem_type
            new = rng.choice([c for c in choices if c != old])
            gi.type.tensor_type.elem_type = new
            np_type = onnx.helper.tensor_dtype_to_np_dtype(new)
            inputs[k] = v.astype(np_type)
            return (model.SerializeToString(), inputs, False,
                    f"input {gi.name}: {onnx.TensorProto.DataType.Name(old)} -> "
                    f"{onnx.TensorProto.DataType.Name(new)}")
        shape = list(v.shape)
        if shape and rng.random() < 0.7:
            d = rng.randrange(len(shape))
            shape[d] = max(0, shape[d] + rng.choice([-1, 1, 2]))
        elif shape and rng.random() < 0.5:
            shape.pop(rng.randrange(len(shape)))
        else:
            shape.insert(rng.randrange(len(shape) + 1), rng.choice([1, 2]))
        data = np.resize(v, shape).astype(v.dtype)
        if kind == "data-shape":
            inputs[k] = data
            static = len(dims) == len(v.shape) and all(dd.HasField("dim_value") for dd in dims)
            contradicts = static and list(shape) != [dd.dim_value for dd in dims]
            return (model.SerializeToString(), inputs, contradicts,
                    f"input {gi.name} fed as {shape}, declared {list(v.shape)}")
        del dims[:]
        for s in shape:
            dims.add().dim_value = s
        inputs[k] = data
        return (model.SerializeToString(), inputs, False,
                f"input {gi.name} declared and fed as {shape}, was {list(v.shape)}")
    if kind == "attr":
        # Not ignore_index: which labels it ignores is data, and labels out
        # of range are undefined in ONNX (the reference wraps them).
        attrs = [(n, a) for n in graph.node for a in n.attribute
                 if a.type in (onnx.AttributeProto.INT, onnx.AttributeProto.INTS)
                 and a.name != "ignore_index"
                 and (a.type == onnx.AttributeProto.INT or len(a.ints))]
        if not attrs:
            return None
        node, a = rng.choice(attrs)
        value = rng.choice([-2, -1, 0, 1, 2, 3, 7, 100])
        if a.type == onnx.AttributeProto.INT:
            old = a.i
            a.i = value
            what = f"{node.op_type}.{a.name}: {old} -> {value}"
        else:
            j = rng.randrange(len(a.ints))
            old = list(a.ints)
            a.ints[j] = value
            what = f"{node.op_type}.{a.name}: {old} -> {list(a.ints)}"
        return model.SerializeToString(), inputs, False, what
    raise ValueError(kind)


# ---------------------------------------------------------------------------
# The worker: one mutated case
# ---------------------------------------------------------------------------

def _reference(model_bytes: bytes, names, inputs):
    """(outputs, None) from ONNX's reference evaluator, or (None, reason)
    when ONNX itself rejects the model or its data."""
    import numpy as np
    import onnx
    from onnx import checker, reference
    try:
        model = onnx.ModelProto.FromString(model_bytes)
    except Exception as e:
        return None, f"does not parse: {type(e).__name__}"
    try:
        checker.check_model(model, full_check=True)
    except Exception as e:
        return None, f"checker: {nt._first_line(e)}"
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            outs = reference.ReferenceEvaluator(model).run(None, dict(zip(names, inputs)))
        return [np.asarray(o) for o in outs], None
    except Exception as e:
        return None, f"reference evaluator: {type(e).__name__}: {nt._first_line(e)}"


def run_mutant(case: dict) -> dict:
    import numpy as np
    import onnx
    import graphopt
    from graphopt.importer.errors import UnsupportedOpsError
    from graphopt.importer.onnx import INTERNAL_ERROR
    model_bytes, inputs = case["model"], case["inputs"]
    try:
        graph = onnx.ModelProto.FromString(model_bytes).graph
        inits = {i.name for i in graph.initializer}
        names = [i.name for i in graph.input if i.name not in inits]
    except Exception:
        names = case["names"]
    # ONNX's own checker runs only once graphopt has produced a result: on
    # some malformed graphs (an undefined EyeLike input) onnx's shape
    # inference segfaults, which graphopt's importer must not reach.
    outcome = {}
    try:
        text, bound = nt._import(model_bytes, names, inputs)
    except UnsupportedOpsError as e:
        internal = [r for r in e.errors if r.reason.startswith(INTERNAL_ERROR)]
        if internal:
            r = internal[0]
            return {**outcome, "outcome": "internal", "reason": f"importer: {r.op} ({r.node}): {r.reason}"}
        return {**outcome, "outcome": "ok", "reason": f"unsupported: {nt._first_line(e)}"}
    except ValueError as e:
        return {**outcome, "outcome": "ok", "reason": f"ValueError: {nt._first_line(e)}"}
    except Exception as e:
        return {**outcome, "outcome": "internal",
                "reason": f"importer raised {type(e).__name__}: {nt._first_line(e)}"}
    args = [a for n, a in zip(names, inputs) if n not in bound]
    if any(not isinstance(a, np.ndarray) for a in args):
        return {**outcome, "outcome": "ok", "reason": "non-tensor input data"}
    try:
        program = graphopt.Program(text, specialize=[a.shape for a in args] if args else None)
    except graphopt.CompileError as e:
        return {**outcome, "outcome": "late",
                "reason": f"compile error: {nt._first_line(e.diagnostics.split('error:', 1)[-1])}"}
    except graphopt.GraphOptError as e:
        return {**outcome, "outcome": "ok", "reason": f"{type(e).__name__}: {nt._first_line(e)}"}
    except Exception as e:
        return {**outcome, "outcome": "internal",
                "reason": f"Program raised {type(e).__name__}: {nt._first_line(e)}"}
    try:
        outs = program.run(args)
    except graphopt.GraphOptError as e:
        return {**outcome, "outcome": "ok", "reason": f"{type(e).__name__}: {nt._first_line(e)}"}
    except Exception as e:
        return {**outcome, "outcome": "internal",
                "reason": f"run raised {type(e).__name__}: {nt._first_line(e)}"}
    expected, invalid = _reference(model_bytes, names, inputs)
    outcome = {"reference": invalid or "ok"}
    if case["contradicts"]:
        return {**outcome, "outcome": "accepted",
                "reason": "ran with data whose shape contradicts the declared static shape"}
    if expected is None and invalid.startswith("reference evaluator"):
        # The checker accepts the model; the evaluator failed on it (an index
        # out of range in the data, or a limit of the evaluator itself):
        # ONNX leaves the result undefined, so any result is allowed.
        return {**outcome, "outcome": "ok", "reason": f"result; undefined by ONNX ({invalid})"}
    if expected is None:
        return {**outcome, "outcome": "accepted", "reason": f"ran a model ONNX rejects ({invalid})"}
    why = nt._compare(outs, expected, 1e-3, 1e-5)
    if why:
        return {**outcome, "outcome": "mismatch", "reason": why}
    return {**outcome, "outcome": "ok", "reason": "correct result"}


def _run(case: dict) -> dict:
    result = run_mutant(case)
    result["status"] = result["outcome"]
    return result


# ---------------------------------------------------------------------------
# The parent
# ---------------------------------------------------------------------------

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=200, help="mutated cases to run")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per case")
    ap.add_argument("--keep", type=Path, help="write each failing mutant here (NAME.onnx + NAME.json)")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        return nt.worker_main(args.worker, _run)

    import onnx
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cases = nt.collect_cases(None)
    known = nt.load_expectations(nt.EXPECTATIONS)
    passing = sorted(n for n in cases if n not in known)
    rng = random.Random(args.seed)
    mutants = {}
    with tempfile.TemporaryDirectory(prefix="graphopt-onnx-fuzz-") as tmp:
        tmp = Path(tmp)
        while len(mutants) < args.count:
            name = rng.choice(passing)
            kind = rng.choice(MUTATIONS)
            case = cases[name]
            if not case["data_sets"]:
                continue
            m = mutate(case, kind, rng)
            if m is None:
                continue
            model, inputs, contradicts, what = m
            names = [i.name for i in _inputs(onnx.ModelProto.FromString(case["model"]))]
            key = f"{len(mutants):05d}-{kind}-{name}"
            mutants[key] = {"case": name, "kind": kind, "what": what}
            with open(tmp / f"{key}.pkl", "wb") as f:
                pickle.dump({"model": model, "inputs": inputs, "names": names,
                             "contradicts": contradicts}, f)
        def report(k, r):
            if r.get("category") in ("crash", "timeout"):
                r.update(outcome="crash")
            elif r.get("category") == "error":  # an exception escaped the worker's case
                r.update(outcome="internal")
            if args.verbose or r["outcome"] in BUGS:
                print(f"{r['outcome'].upper():9s} {k}: {mutants[k]['what']}: {r['reason']}",
                      flush=True)
        results = nt.run_all(list(mutants), tmp, args.jobs, args.timeout, False,
                             script=__file__, on_result=report)
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            for k, r in results.items():
                if r["outcome"] in BUGS or r["outcome"] == "late":
                    with open(tmp / f"{k}.pkl", "rb") as f:
                        data = pickle.load(f)
                    (args.keep / f"{k}.onnx").write_bytes(data["model"])
                    (args.keep / f"{k}.json").write_text(json.dumps(
                        {**mutants[k], **r,
                         "input_shapes": [None if a is None else list(a.shape) for a in data["inputs"]],
                         "input_dtypes": [None if a is None else str(a.dtype) for a in data["inputs"]]},
                        indent=1))
    counts = Counter(r["outcome"] for r in results.values())
    kinds = Counter(mutants[k]["kind"] for k in results)
    print("mutations: " + ", ".join(f"{k} {kinds[k]}" for k in MUTATIONS))
    print(f"seed {args.seed}, {time.perf_counter() - t0:.0f} s")
    print(f"{len(results)} cases: " + ", ".join(
        f"{o} {counts[o]}" for o in ("ok", "late") + BUGS))
    return 1 if any(counts[o] for o in BUGS) else 0


if __name__ == "__main__":
    sys.exit(main())
