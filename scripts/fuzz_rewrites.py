#!/usr/bin/env python3
"""Rewrite-rule fuzzer: random subgraph-replacement rules that are equal by
construction must be applied, pass --verify-rewrites and keep the results.

    scripts/fuzz_rewrites.py --seed S --count N [--build DIR] [--out DIR]

Program I is scripts/fuzz_graph.py's program I of seed S (its generator,
NumPy reference and tolerances). One op of it, chosen at random among those
with an identity below, becomes the pattern of a rule (`@pattern_r`: the op
over arguments typed as its operands) and an equal formulation its
replacement (`@replacement_r`):

    add/mul/max/min(a, b)   the operands swapped
    sub(a, b)               add(a, neg(b))
    neg(x)                  sub(0, x)
    relu(x)                 max(x, 0)
    abs(x)                  max(x, neg(x))
    silu(x)                 mul(x, sigmoid(x))
    transpose(x, p)         two transposes whose permutations compose to p
    reshape(x, s)           reshape to 1-D, then to s
    matmul(a, b), 2-D       transpose(matmul(transpose(b), transpose(a)))

`graph-opt prog.mlir --graph-replace-patterns="patterns-file=rules.mlir
report verify-rewrites"` must report the rule applied in @main and must not
reject it (verify-rewrites runs both sides on random values) except where it
matched an op of other shapes, for which the replacement does not type-check
(the matcher ignores types, as torch.fx's does), and graph-run on the
rewritten program must match the reference. A failing program is
saved to OUT/I/ (prog.mlir, rules.mlir, the rewritten program, inputs,
expected outputs, logs). The last line is "N passed, N failed, N without a
rewritable op"; exit 1 if any failed.
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzz_graph as fg  # noqa: E402

IDENTITY_OPS = ("add", "mul", "max", "min", "sub", "neg", "relu", "abs",
                "silu", "transpose", "reshape", "matmul")


class Builder:
    """Nodes of a small function: arguments, constants and ops whose result
    shapes come from fuzz_graph's type inference."""

    def __init__(self):
        self.nodes = []

    def arg(self, v):
        n = fg.Node("arg", [], {"data": v.node.attrs.get("data")}, v.dtype,
                    v.shape)
        self.nodes.append(n)
        return n.out

    def zero(self, dtype):
        data = np.zeros((), dtype=np.float32 if dtype == "f32" else np.int32)
        n = fg.Node("const", [], {"data": data, "splat": True}, dtype, ())
        self.nodes.append(n)
        return n.out

    def op(self, op, ins, attrs=None, dtype=None):
        n = fg.Node(op, ins, attrs or {}, dtype or ins[0].dtype, ())
        n.out.shape = tuple(fg.infer(n, [v.shape for v in ins]))
        self.nodes.append(n)
        return n.out

    def program(self, out):
        return fg.Program(self.nodes, [out])


def rewritable(n):
    if n.op not in IDENTITY_OPS or n.out.dtype not in ("f32", "i32"):
        return False
    if n.op == "silu" and n.out.dtype != "f32":
        return False
    if n.op == "matmul":
        return all(len(v.shape) == 2 for v in n.ins)
    return True


def replacement(b, n, x, rng):
    """The identity's formulation of node `n` over `x` (its operands' values
    in the builder)."""
    op, dt = n.op, n.out.dtype
    if op in ("add", "mul", "max", "min"):
        return b.op(op, [x[1], x[0]])
    if op == "sub":
        return b.op("add", [x[0], b.op("neg", [x[1]])])
    if op == "neg":
        return b.op("sub", [b.zero(dt), x[0]])
    if op == "relu":
        return b.op("max", [x[0], b.zero(dt)])
    if op == "abs":
        return b.op("max", [x[0], b.op("neg", [x[0]])])
    if op == "silu":
        return b.op("mul", [x[0], b.op("sigmoid", [x[0]])])
    if op == "transpose":
        p = n.attrs["perm"]
        q = list(range(len(p)))
        rng.shuffle(q)
        r = [q.index(d) for d in p]
        y = b.op("transpose", [x[0]], {"perm": q})
        return b.op("transpose", [y], {"perm": r})
    if op == "reshape":
        flat = b.op("reshape", [x[0]], {"shape": [fg.numel(x[0].shape)]})
        return b.op("reshape", [flat], {"shape": list(n.attrs["shape"])})
    if op == "matmul":
        bt = b.op("transpose", [x[1]], {"perm": [1, 0]})
        at = b.op("transpose", [x[0]], {"perm": [1, 0]})
        return b.op("transpose", [b.op("matmul", [bt, at])], {"perm": [1, 0]})
    raise AssertionError(op)


def rules_text(n, rng):
    """@pattern_r and @replacement_r for node `n`."""
    texts = []
    for side in ("pattern", "replacement"):
        b = Builder()
        args = {}
        for v in n.ins:
            if v not in args:
                args[v] = b.arg(v)
        x = [args[v] for v in n.ins]
        if side == "pattern":
            out = b.op(n.op, x, n.attrs, n.out.dtype)
        else:
            out = replacement(b, n, x, rng)
        if out.shape != n.out.shape:
            raise AssertionError("%s: the identity gives shape %s, not %s"
                                 % (n.op, out.shape, n.out.shape))
        prog = b.program(out)
        text = fg.print_program(prog, fg.static_types(prog))
        texts.append(text.replace("@main(", "@%s_r(" % side, 1))
    return "\n".join(texts)


def run(cmd, cwd):
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                           timeout=fg.RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, "timeout after %d s" % fg.RUN_TIMEOUT
    return p, p.stdout + p.stderr


def fuzz_one(index, args, bin_dir, work):
    """None when program `index` passes or has no rewritable op ("skip"),
    else a failure description."""
    prog = fg.generate(args.seed, index, args.max_ops)
    rng = random.Random("rewrite-fuzz:%d:%d" % (args.seed, index))
    cands = [n for n in prog.nodes if rewritable(n)]
    if not cands:
        return "skip"
    n = rng.choice(cands)
    case = fg.Case(prog, work)
    with open(os.path.join(work, "rules.mlir"), "w") as f:
        f.write(rules_text(n, rng))
    p, log = run([os.path.join(bin_dir, "graph-opt"), "prog.mlir",
                  "--graph-replace-patterns=patterns-file=rules.mlir report "
                  "verify-rewrites", "-o", "rewritten.mlir"], work)
    with open(os.path.join(work, "graph-opt.log"), "w") as f:
        f.write(log)
    if p is None or p.returncode != 0:
        return "%s: graph-opt failed: %s" % (n.op, log.strip()[-300:])
    # The matcher ignores types (torch.fx semantics): the rule may also
    # match ops of other shapes, where an identity written for the chosen
    # op's shapes does not type-check; verify-rewrites refuses those, as it
    # should. Any other refusal is a failure.
    refused = [l for l in p.stderr.splitlines()
               if "rejected by verify-rewrites" in l and
               "the replacement does not compile" not in l]
    if refused:
        return "%s: rule rejected: %s" % (n.op, refused[0].strip()[:300])
    if "'r' in @main" not in p.stderr:
        return "%s: rule not applied" % n.op
    p, log = run([os.path.join(bin_dir, "graph-run"), "rewritten.mlir"] +
                 case.flags, work)
    with open(os.path.join(work, "graph-run.log"), "w") as f:
        f.write(log)
    if p is None or p.returncode != 0:
        return "%s: the rewritten program: %s" % (n.op, log.strip()[-300:])
    if p.stdout.count("matches expected") != len(prog.outputs):
        return "%s: not every result reported as matching" % n.op
    return None


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--build", default=os.path.join(here, "..", "build"),
                    help="graphopt build directory (bin/graph-opt, "
                         "bin/graph-run)")
    ap.add_argument("--out", default="rewrite-fuzz-failures",
                    help="where failing programs are saved (OUT/I/)")
    ap.add_argument("--max-ops", type=int, default=8)
    args = ap.parse_args(argv[1:])
    bin_dir = os.path.abspath(os.path.join(args.build, "bin"))
    for tool in ("graph-opt", "graph-run"):
        if not os.path.exists(os.path.join(bin_dir, tool)):
            print("fuzz_rewrites.py: no %s in %s" % (tool, bin_dir),
                  file=sys.stderr)
            return 2
    tmp = tempfile.mkdtemp(prefix="rewrite-fuzz-")
    passed = failed = skipped = 0
    ops = {}
    try:
        for i in range(args.count):
            work = os.path.join(tmp, str(i))
            res = fuzz_one(i, args, bin_dir, work)
            if res == "skip":
                skipped += 1
            elif res is None:
                passed += 1
            else:
                failed += 1
                dest = os.path.join(args.out, str(i))
                shutil.rmtree(dest, ignore_errors=True)
                shutil.copytree(work, dest)
                print("FAIL program %d: %s; saved in %s" % (i, res, dest))
            if res != "skip":
                with open(os.path.join(work, "rules.mlir")) as f:
                    first = f.read().split("graph.", 1)[1].split(" ", 1)[0]
                ops[first] = ops.get(first, 0) + 1
            shutil.rmtree(work, ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("rules by pattern op: " +
          " ".join("%s=%d" % kv for kv in sorted(ops.items())))
    print("%d passed, %d failed, %d without a rewritable op"
          % (passed, failed, skipped))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
