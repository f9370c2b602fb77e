"""Runs the importer's unit tests (python/tests/importer/test_*.py: plain
functions with asserts, pytest-compatible) without needing pytest: each
`test_*` function of each module, in file order, one line per failure with
its traceback's last lines, then "N passed, M failed".

    python run_unit_tests.py DIR
"""
import importlib.util
import sys
import traceback
from pathlib import Path

directory = Path(sys.argv[1]).resolve()
sys.path.insert(0, str(directory))
passed = failed = 0
for path in sorted(directory.glob("test_*.py")):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name, fn in vars(module).items():
        if not name.startswith("test_") or not callable(fn):
            continue
        try:
            fn()
            passed += 1
        except Exception:
            failed += 1
            tail = traceback.format_exc().strip().splitlines()[-3:]
            print(f"FAIL {path.name}::{name}: " + " | ".join(tail))
print(f"{passed} passed, {failed} failed")
