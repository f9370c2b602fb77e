"""Command line of the ONNX importer.

    python -m graphopt.importer.onnx_cli model.onnx -o model.mlir [--dim batch=1]
    python -m graphopt.importer.onnx_cli --support-table [-o docs/ONNXSupport.md]

(``python -m graphopt import model.onnx`` imports ONNX models too.)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Optional, Sequence

from .errors import UnsupportedOpsError
from .onnx_importer import import_onnx, support_table


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m graphopt.importer.onnx_cli",
        description="Imports an ONNX model to MLIR (graph dialect), or prints "
                    "the ONNX support table.")
    parser.add_argument("model", nargs="?", help="the .onnx file")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write the MLIR (or the table) here instead of stdout")
    parser.add_argument("--dim", action="append", default=[], metavar="NAME=SIZE",
                        help="fix a named dynamic dimension (dim_param), repeatable")
    parser.add_argument("--entry", default="main", help="function name (default main)")
    parser.add_argument("--support-table", action="store_true",
                        help="print docs/ONNXSupport.md (generated from the registry)")
    args = parser.parse_args(argv)
    if args.support_table:
        text = support_table()
    else:
        if not args.model:
            parser.error("a model is required (or --support-table)")
        dims = {}
        for d in args.dim:
            name, sep, size = d.partition("=")
            if not sep or not size.isdigit():
                parser.error(f"bad --dim {d!r}: expected NAME=SIZE")
            dims[name] = int(size)
        try:
            text = import_onnx(args.model, entry=args.entry, dim_values=dims)
        except UnsupportedOpsError as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        except (OSError, ValueError) as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
    if args.output:
        Path(args.output).write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
