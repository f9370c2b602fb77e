#!/usr/bin/env python3
"""Re-runs the graph-run commands of execution tests on the CUDA target.

    cuda_check.py [--compile-only] [--unsupported FILE] [--jobs N] TEST.mlir...

Reads the RUN lines of each test (test/Integration/*.mlir), runs its
`%reference` commands (the NumPy references) and each `graph-run` command
that is expected to succeed with `--target=cuda` added, and requires it to
exit 0 (with --expected-output, graph-run exits 1 on a mismatch, so this
compares the GPU's results with NumPy's under the test's own tolerances).
Commands under `not` (error tests) and those calling external kernels
(--shared-lib) are skipped.

--compile-only compiles each program for CUDA without running it (no GPU
needed): expected outputs and benchmarks are dropped.

--emulate runs each program with --cuda-emulate (no GPU needed): the CUDA
pipeline's generic and one-thread kernels run as loops on the CPU and the
results are compared with NumPy (the matmul and reduction kernels are not
generated in this mode).

--unsupported FILE (repeatable) lists `file.mlir:entry  reason` pairs the
CUDA target does not support yet: those must fail, with the reason in the error message
(so the list cannot go stale silently), and are not counted as failures.

Prints one line per command and a summary; exits 1 if anything failed.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))


def run_lines(path):
    """The RUN commands of `path`, continuation lines joined."""
    lines, cur = [], ""
    for raw in open(path):
        m = re.match(r"\s*//\s*RUN:(.*)", raw)
        if not m:
            continue
        part = m.group(1).rstrip()
        if part.endswith("\\"):
            cur += part[:-1] + " "
            continue
        lines.append((cur + part).strip())
        cur = ""
    return lines


SRC = os.path.dirname(os.path.dirname(HERE))


def subst(cmd, test, tmp):
    """lit's substitutions the Integration tests use."""
    return (cmd.replace("%graphopt_src", SRC).replace("%s", test)
            .replace("%t", tmp))


def entry_of(args):
    for a in args:
        if a.startswith("--entry="):
            return a.split("=", 1)[1]
    return "main"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--compile-only", action="store_true")
    ap.add_argument("--emulate", action="store_true",
                    help="run with --cuda-emulate: the CUDA pipeline's "
                         "generic and one-thread kernels as loops on the CPU")
    ap.add_argument("--unsupported", action="append", default=[])
    ap.add_argument("--graph-run", default="graph-run")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--sample", type=int, default=1, metavar="K",
                    help="check every K-th test file only (in sorted order; "
                         "the sanitizer run uses this to stay short)")
    ap.add_argument("tests", nargs="+")
    opts = ap.parse_args()
    if opts.sample > 1:
        opts.tests = sorted(opts.tests)[::opts.sample]

    # The helper commands (graph-opt) come from graph-run's directory.
    tools = os.path.dirname(os.path.abspath(opts.graph_run)) \
        if os.sep in opts.graph_run else None
    if tools:
        os.environ["PATH"] = tools + os.pathsep + os.environ["PATH"]

    unsupported = {}
    for listing in opts.unsupported:
        for line in open(listing):
            line = line.split("#", 1)[0].strip()
            if line:
                key, reason = line.split(None, 1)
                unsupported[key] = reason.strip()

    jobs = []
    tmp_root = tempfile.mkdtemp(prefix="cuda_check.")
    for test in opts.tests:
        name = os.path.basename(test)
        tmp = os.path.join(tmp_root, name)
        os.makedirs(tmp, exist_ok=True)
        commands = [c for line in run_lines(test) for c in line.split("&&")]
        for cmd in commands:
            stages = [s.strip() for s in cmd.split("|")]
            words = shlex.split(subst(stages[0], test, tmp))
            if not words:
                continue
            if words[0] == "%python":
                # Makes inputs (or checks outputs, which may not exist
                # under --compile-only: failures here are not the point).
                subprocess.run(subst(stages[0], test, tmp).replace(
                    "%python", opts.python), shell=True, check=False,
                    capture_output=True)
                continue
            if words[0] == "%reference":
                subprocess.run([opts.python, os.path.join(HERE, "reference.py")]
                               + words[1:], check=True)
                continue
            if words[0] != "graph-run":
                # Commands that prepare inputs (graph-opt ... > %t/x.mlir);
                # checks piped into FileCheck are the CPU test's business.
                if len(stages) == 1 and (">" in words or "-o" in words) and words[0] not in (
                        "not", "rm", "mkdir", "%cc", "%cxx"):
                    line = subst(stages[0], test, tmp).replace(
                        "%python", opts.python)
                    subprocess.run(line, shell=True, check=False)
                continue
            args = words[1:]
            if any(a.startswith("--shared-lib") or a.startswith("--target")
                   for a in args):
                continue
            if opts.compile_only:
                args = [a for a in args if not a.startswith(
                    ("--expected-output", "--benchmark", "--output",
                     "--warmup", "--seed", "--atol", "--rtol", "--quiet"))]
                args.append("--compile-only")
            args.append("--target=cuda")
            if opts.emulate:
                args.append("--cuda-emulate")
            key = "%s:%s" % (name, entry_of(args))
            jobs.append((key, [opts.graph_run] + args))

    def execute(job):
        key, argv = job
        p = subprocess.run(argv, capture_output=True, text=True)
        return key, argv, p

    failed = passed = expected_fail = 0
    seen_unsupported = set()
    with ThreadPoolExecutor(max_workers=opts.jobs) as pool:
        for key, argv, p in pool.map(execute, jobs):
            reason = unsupported.get(key)
            if reason is not None:
                seen_unsupported.add(key)
                if p.returncode != 0 and reason in p.stderr:
                    expected_fail += 1
                    print("UNSUPPORTED (as listed) %s" % key)
                    continue
                failed += 1
                print("FAIL %s: listed as unsupported (%r) but %s" % (
                    key, reason, "passed" if p.returncode == 0 else
                    "failed differently:\n" + p.stderr[-2000:]))
                continue
            if p.returncode == 0:
                passed += 1
                print("PASS %s" % key)
            else:
                failed += 1
                print("FAIL %s: %s\n%s" % (key, " ".join(map(shlex.quote, argv)),
                                          (p.stderr or p.stdout)[-3000:]))
    for key in sorted(set(unsupported) - seen_unsupported):
        # An entry whose test no longer exists: the list is stale.
        if any(os.path.basename(t) == key.split(":")[0] for t in opts.tests):
            failed += 1
            print("FAIL %s: listed as unsupported but never run" % key)
    print("cuda_check: %d passed, %d unsupported (listed), %d failed" % (
        passed, expected_fail, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
