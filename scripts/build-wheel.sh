#!/usr/bin/env bash
# Builds the self-contained Python wheel (docs/Wheel.md):
#   dist/graphopt-<version>-py3-none-manylinux_2_34_x86_64.whl
# holding one libGraphOpt.so linked with MLIR/LLVM's static archives (no
# LLVM or MLIR package needed where it is installed), LLVM's OpenMP runtime,
# the CUDA runtime libraries when the toolkit was found, and the ODS/PDLL
# files that .pdll rule files include.
#
# Usage: scripts/build-wheel.sh [--out DIR] [--test]
#   --out DIR  where the wheel goes (default: dist/ in the repository)
#   --test     then run scripts/test-wheel.sh on it
# Runs scripts/setup.sh first when the build directory
# (GRAPHOPT_BUILD_DIR, default build/) is not configured yet.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${GRAPHOPT_BUILD_DIR:-$ROOT/build}"
OUT="$ROOT/dist"
TEST=0
while (($#)); do
  case "$1" in
    --out) OUT="$2"; shift 2 ;;
    --test) TEST=1; shift ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "build-wheel.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
PYTHON="${PYTHON:-$(command -v python3 || echo /usr/bin/python3)}"
log() { printf '[wheel] %s\n' "$*"; }
start=$(date +%s)

if [[ ! -f "$BUILD_DIR/build.ninja" ]]; then
  log "no configured build in $BUILD_DIR: running scripts/setup.sh"
  GRAPHOPT_BUILD_DIR="$BUILD_DIR" "$ROOT/scripts/setup.sh"
fi
# What the wheel is built and checked with: lld links the library (the
# archives are ~800 MB; GNU ld takes minutes), auditwheel names its platform.
if ! command -v ld.lld >/dev/null; then
  log "installing lld"
  SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends lld
fi
"$PYTHON" -c "import auditwheel" 2>/dev/null || "$PYTHON" -m pip install -q auditwheel
"$PYTHON" -c "import wheel" 2>/dev/null || "$PYTHON" -m pip install -q wheel

log "linking the self-contained library"
# scripts/setup.sh configures with the option on (the target is not part of
# `all`); an older build directory is reconfigured once.
grep -q "^GRAPHOPT_STANDALONE_LIBRARY:BOOL=ON" "$BUILD_DIR/CMakeCache.txt" ||
  cmake -DGRAPHOPT_STANDALONE_LIBRARY=ON "$BUILD_DIR" >/dev/null
targets=(GraphOptStandalone)
grep -q "^build lib/libGraphOptCUDARuntime.so" "$BUILD_DIR/build.ninja" 2>/dev/null &&
  targets+=(GraphOptCUDARuntime GraphOptCUDAEmulator)
ninja -C "$BUILD_DIR" "${targets[@]}" | tail -1

# The package's native files, as they will sit in graphopt/_lib/, and the
# include tree PDLL searches (graphopt/include/, next to _lib/).
STAGE="$BUILD_DIR/wheel-stage"
rm -rf "$STAGE"
mkdir -p "$STAGE/lib" "$STAGE/include/mlir"
strip --strip-unneeded -o "$STAGE/lib/libGraphOpt.so" "$BUILD_DIR/standalone/libGraphOpt.so"
LIBOMP="$(sed -n 's/^GRAPHOPT_LIBOMP:FILEPATH=//p' "$BUILD_DIR/CMakeCache.txt")"
if [[ -n "$LIBOMP" && -e "$LIBOMP" ]]; then
  cp -L "$LIBOMP" "$STAGE/lib/libomp.so.5"
else
  log "warning: LLVM's OpenMP runtime was not found: the wheel's code runs on one thread"
fi
for lib in libGraphOptCUDARuntime.so libGraphOptCUDAEmulator.so; do
  [[ -f "$BUILD_DIR/lib/$lib" ]] && cp "$BUILD_DIR/lib/$lib" "$STAGE/lib/"
done
(cd "$ROOT/include" && find graphopt \( -name '*.td' -o -name '*.pdll' \) -print0 |
  xargs -0 -I{} cp --parents {} "$STAGE/include/")
MLIR_INCLUDE="$(llvm-config-22 --includedir)"
for sub in IR Interfaces Pass; do
  mkdir -p "$STAGE/include/mlir/$sub"
  cp "$MLIR_INCLUDE/mlir/$sub/"*.td "$STAGE/include/mlir/$sub/"
done

log "building the wheel"
# From a copy of python/: pip builds in the source tree, and another build
# of the package (pip install python/) may be running there.
rm -rf "$BUILD_DIR/wheel-build" "$BUILD_DIR/wheel-src" && mkdir -p "$OUT" "$BUILD_DIR/wheel-src"
(cd "$ROOT/python" && tar --exclude=./build --exclude='*.egg-info' --exclude=__pycache__ \
  --exclude=./graphopt/_lib -cf - .) | tar -xf - -C "$BUILD_DIR/wheel-src"
GRAPHOPT_WHEEL_STAGE="$STAGE" "$PYTHON" -m pip wheel --no-deps --no-build-isolation \
  -q -w "$BUILD_DIR/wheel-build" "$BUILD_DIR/wheel-src"
built=("$BUILD_DIR"/wheel-build/graphopt-*.whl)
# The platform tag is what auditwheel finds the library needs (glibc's symbol
# versions, the libraries it links): manylinux_2_34 when nothing newer.
platform="$("$PYTHON" - "${built[0]}" <<'EOF'
import json, subprocess, sys
out = subprocess.run([sys.executable, "-m", "auditwheel", "show", sys.argv[1]],
                     capture_output=True, text=True)
text = out.stdout + out.stderr
import re
m = re.search(r'"(manylinux_\d+_\d+_x86_64)"', text)
print(m.group(1) if m else "")
EOF
)"
if [[ -z "$platform" ]]; then
  "$PYTHON" -m auditwheel show "${built[0]}" >&2 || true
  echo "build-wheel.sh: auditwheel found no manylinux platform for the wheel" >&2
  exit 1
fi
"$PYTHON" -m wheel tags --remove --platform-tag "$platform" "${built[0]}" >/dev/null
wheel=("$BUILD_DIR"/wheel-build/graphopt-*-"$platform".whl)
rm -f "$OUT"/graphopt-*.whl
mv "${wheel[0]}" "$OUT/"
final="$OUT/$(basename "${wheel[0]}")"
log "$final: $(du -m "$final" | cut -f1) MB, $platform, built in $(( $(date +%s) - start )) s"
"$PYTHON" -m auditwheel show "$final" | sed 's/^/[wheel]   /' | head -12

if ((TEST)); then
  "$ROOT/scripts/test-wheel.sh" "$final"
fi
