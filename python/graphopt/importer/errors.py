"""Errors raised by the PyTorch importers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence


class Unsupported(Exception):
    """Raised by an op mapping for something it cannot express.

    The importers catch it and report it, with the node's name and source
    location, as part of an :class:`UnsupportedOpsError`.
    """


@dataclass(frozen=True)
class UnsupportedOp:
    """One unsupported op (or attribute value) found in a graph."""

    op: str                     # e.g. "aten.lstm.input"
    node: str                   # the node's name in the source graph
    reason: str                 # what is not supported
    file: Optional[str] = None  # source location, when known
    line: Optional[int] = None

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.file else "<unknown>"
        return f"{where}: {self.op} (node {self.node}): {self.reason}"


class UnsupportedOpsError(Exception):
    """The model uses ops or attribute values the importer cannot map.

    The importers walk the whole graph before emitting anything and report
    every problem at once, one per line::

        model.py:12: aten.lstm.input (node lstm): bidirectional LSTM is not supported
        model.py:20: aten.nonzero.default (node nonzero): unsupported operator

    ``errors`` holds the :class:`UnsupportedOp` records.
    """

    def __init__(self, errors: Sequence[UnsupportedOp]):
        self.errors = list(errors)
        n = len(self.errors)
        header = (f"the model uses {n} unsupported op{'s' if n != 1 else ''} "
                  "or attribute value" + ("s" if n != 1 else "") + ":")
        super().__init__("\n".join([header] + [str(e) for e in self.errors]))
