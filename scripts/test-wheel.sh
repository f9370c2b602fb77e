#!/usr/bin/env bash
# Installs a graphopt wheel into fresh virtual environments, one per Python
# 3.10-3.13 found (pyenv's, else python3.X on PATH), and runs
# scripts/wheel_smoke.py in each twice:
#   - with LLVM 22 visible (the development machine as it is);
#   - with /usr/lib/llvm-22 hidden under an empty tmpfs in a private mount
#     namespace (`unshare -m`, needs root), as on a machine without the
#     LLVM/MLIR packages.
# The Python the build uses (PYTHON, default python3) gets a venv that sees
# its site-packages, so that the smoke test also imports a PyTorch model.
#
# Usage: scripts/test-wheel.sh [WHEEL]   (default: the newest dist/graphopt-*.whl)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WHEEL="${1:-$(ls -t "$ROOT"/dist/graphopt-*.whl 2>/dev/null | head -1)}"
if [[ -z "$WHEEL" || ! -f "$WHEEL" ]]; then
  echo "test-wheel.sh: no wheel (build one with scripts/build-wheel.sh)" >&2
  exit 2
fi
PYTHON="${PYTHON:-$(command -v python3)}"
log() { printf '[test-wheel] %s\n' "$*"; }
WORK="$(mktemp -d /tmp/graphopt-wheel.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
unset PYTHONPATH GRAPHOPT_LIBRARY GRAPHOPT_BUILD_DIR
export GRAPHOPT_CACHE_DIR=off

# The PDL translation of the PDLL example, for the run without LLVM (where
# mlir-pdll cannot run): the documented way to ship rules to such machines.
PDLL="$(command -v mlir-pdll-22 || echo /usr/lib/llvm-22/bin/mlir-pdll)"
PDL_MLIR=""
if [[ -x "$PDLL" ]]; then
  PDL_MLIR="$WORK/relu_to_leaky_relu.pdl.mlir"
  "$PDLL" "$ROOT/examples/patterns/relu_to_leaky_relu.pdll" -x=mlir \
    -I "$ROOT/include" -I /usr/lib/llvm-22/include -o "$PDL_MLIR"
fi

can_hide=0
if [[ $(id -u) -eq 0 ]] && unshare -m true 2>/dev/null; then
  can_hide=1
else
  log "warning: not root or no unshare: the run with LLVM hidden is skipped"
fi

pythons=()
main_version="$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
for v in 3.10 3.11 3.12 3.13; do
  if [[ "$v" == "$main_version" ]]; then
    pythons+=("$PYTHON")
    continue
  fi
  found=""
  if command -v pyenv >/dev/null; then
    found="$(ls -d "$(pyenv root)"/versions/"$v".*/bin/python 2>/dev/null | sort -V | tail -1)"
  fi
  [[ -z "$found" ]] && found="$(command -v "python$v" || true)"
  if [[ -n "$found" ]]; then
    pythons+=("$found")
  else
    log "Python $v not found: skipped"
  fi
done

failed=0 runs=0
for py in "${pythons[@]}"; do
  v="$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
  venv="$WORK/venv-$v"
  site=""
  [[ "$py" == "$PYTHON" ]] && site="--system-site-packages"
  "$py" -m venv $site "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check "$WHEEL" numpy
  where="$("$venv/bin/python" -c 'import graphopt, os; print(os.path.dirname(graphopt.__file__))')"
  if [[ "$where" != "$venv"/* ]]; then
    log "Python $v: graphopt imported from $where, not from the venv"
    failed=$((failed + 1))
    continue
  fi
  log "Python $v, LLVM 22 visible"
  runs=$((runs + 1))
  (cd "$WORK" && "$venv/bin/python" "$ROOT/scripts/wheel_smoke.py" --expect-llvm visible) ||
    failed=$((failed + 1))
  if ((can_hide)); then
    log "Python $v, /usr/lib/llvm-22 hidden"
    runs=$((runs + 1))
    (cd "$WORK" && unshare -m sh -c 'mount -t tmpfs none /usr/lib/llvm-22 && exec "$@"' sh \
      "$venv/bin/python" "$ROOT/scripts/wheel_smoke.py" --expect-llvm hidden \
      ${PDL_MLIR:+--pdl-mlir "$PDL_MLIR"}) || failed=$((failed + 1))
  fi
done
if ((runs == 0)); then
  log "no Python to test with"
  exit 1
fi
log "$runs runs, $failed failed ($(basename "$WHEEL"))"
((failed == 0))
