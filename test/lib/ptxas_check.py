#!/usr/bin/env python3
"""Assembles every kernel of a graph-opt CUDA output with `ptxas -v` and
reports registers and spills; exits 1 if any kernel spills or ptxas fails.

    graph-opt prog.mlir --graph-cuda-pipeline="lower-host=false" |
        ptxas_check.py --chip sm_90 [--ptxas PATH]

Reads the MLIR text on stdin and takes the PTX of each `gpu.binary` object
(format=isa, the default). Prints one line per kernel:
    KERNEL <name> sm_90: <N> registers, <S> bytes spill stores, <L> bytes spill loads
and a summary line `ptxas_check: <K> kernels, <M> spilling`.

With --sass, also prints each kernel's SASS (the cubin from ptxas
disassembled by nvdisasm: --nvdisasm, $GRAPHOPT_NVDISASM or PATH), one
instruction or label per line after a `SASS <name>` line, without the
addresses and encodings, for FileCheck.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile


def mlir_strings(text, start):
    """Decodes the MLIR string literal starting at text[start] == '"'."""
    out = bytearray()
    i = start + 1
    while True:
        c = text[i]
        if c == '"':
            return out.decode("utf-8", "replace"), i + 1
        if c == "\\":
            nxt = text[i + 1]
            if nxt in '\\"':
                out += nxt.encode()
                i += 2
                continue
            if nxt == "n":
                out += b"\n"
                i += 2
                continue
            if nxt == "t":
                out += b"\t"
                i += 2
                continue
            out.append(int(text[i + 1:i + 3], 16))
            i += 3
            continue
        out += c.encode()
        i += 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--chip", default="sm_90")
    ap.add_argument("--ptxas", default=shutil.which("ptxas") or
                    os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"),
                                 "bin", "ptxas"))
    ap.add_argument("--sass", action="store_true")
    ap.add_argument("--nvdisasm", default=os.environ.get("GRAPHOPT_NVDISASM")
                    or shutil.which("nvdisasm"))
    opts = ap.parse_args()
    if opts.sass and not opts.nvdisasm:
        print("ptxas_check: --sass needs nvdisasm (--nvdisasm PATH)")
        return 1
    text = sys.stdin.read()
    kernels = spilling = 0
    failed = False
    for m in re.finditer(r"gpu\.binary @(\w+)\s+\[#gpu\.object<", text):
        name = m.group(1)
        line_end = text.find("\n", m.end())
        at = text.find('assembly = "', m.end(), line_end)
        ptx = mlir_strings(text, at + len("assembly = "))[0] if at >= 0 else None
        if not ptx or ".entry" not in ptx:
            print("ptxas_check: %s holds no PTX (format=isa?)" % name)
            failed = True
            continue
        with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as f:
            f.write(ptx)
            path = f.name
        cubin = path[:-4] + ".cubin"
        p = subprocess.run([opts.ptxas, "-v", "--gpu-name", opts.chip, path,
                            "-o", cubin if opts.sass else os.devnull],
                           capture_output=True, text=True)
        os.unlink(path)
        if opts.sass and p.returncode == 0:
            d = subprocess.run([opts.nvdisasm, "-c", cubin],
                               capture_output=True, text=True)
            print("SASS %s" % name)
            for line in d.stdout.splitlines():
                line = re.sub(r"/\*[0-9a-f]{4,}\*/", "", line)
                line = re.sub(r"/\* 0x[0-9a-f]+ \*/", "", line).strip()
                if line and not line.startswith(("//", ".section", ".headerflags",
                                                 ".elftype", ".align", ".sectionflags",
                                                 ".sectioninfo", ".global", ".type",
                                                 ".size", ".other")):
                    print(line)
            if d.returncode != 0:
                print("FAIL %s: nvdisasm failed:\n%s" % (name, d.stderr))
                failed = True
        if os.path.exists(cubin):
            os.unlink(cubin)
        if p.returncode != 0:
            print("FAIL %s: ptxas rejected it:\n%s" % (name, p.stderr))
            failed = True
            continue
        # ptxas's warnings (such as wgmma serialization), for tests to rule
        # out.
        for line in p.stderr.splitlines():
            if "warning" in line.lower() or "Performance Loss" in line:
                print("WARNING %s: %s" % (name, line.strip()))
        for entry in re.finditer(
                r"Compiling entry function '(\w+)'.*?Used (\d+) registers",
                p.stderr, re.S):
            block = p.stderr[entry.start():entry.end()]
            spill = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads",
                              p.stderr[entry.start():])
            st, ld = (int(spill.group(1)), int(spill.group(2))) if spill else (0, 0)
            kernels += 1
            if st or ld:
                spilling += 1
            print("KERNEL %s/%s %s: %s registers, %d bytes spill stores, "
                  "%d bytes spill loads" % (name, entry.group(1), opts.chip,
                                            entry.group(2), st, ld))
    print("ptxas_check: %d kernels, %d spilling" % (kernels, spilling))
    return 1 if failed or spilling or kernels == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
