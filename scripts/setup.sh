#!/usr/bin/env bash
# Idempotent set-up for graphopt on a fresh Debian 12 machine:
#   1. installs the Debian packages the build needs (as root, only when missing),
#   2. installs the Python packages the tests use (only when missing),
#   3. configures (CMake + Ninja) and builds into ./build.
# Usage: scripts/setup.sh [--no-build]
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${GRAPHOPT_BUILD_DIR:-$ROOT/build}"
LLVM_VERSION=22

DEB_PACKAGES=(
  "libmlir-${LLVM_VERSION}-dev" "mlir-${LLVM_VERSION}-tools"
  "llvm-${LLVM_VERSION}-dev" "llvm-${LLVM_VERSION}-tools" "clang-${LLVM_VERSION}"
  cmake ninja-build
  # LLVM's OpenMP runtime: multi-threaded generated CPU code calls it.
  "libomp-${LLVM_VERSION}-dev"
  # The linker of the self-contained library in the Python wheel
  # (scripts/build-wheel.sh; GNU ld takes minutes over MLIR's archives).
  lld
  # LLVMConfig.cmake looks for ZLIB (LLVM_ENABLE_ZLIB=1); not a dependency
  # of the LLVM packages, so a bare machine may lack it.
  zlib1g-dev
)
# The sanitizer runtimes, for scripts/test.sh --sanitize only.
[[ "${GRAPHOPT_SANITIZE:-0}" == 1 ]] && DEB_PACKAGES+=("libclang-rt-${LLVM_VERSION}-dev")
# Python modules the tests use (lit itself comes with llvm-22-tools), as
# "import-name pip-name debian-package": NumPy for the NumPy references, torch
# and torchvision for the Python package's importers and the e2e suite
# (test/e2e).
PY_MODULES=(
  "numpy numpy python3-numpy"
  "torch torch python3-torch"
  "torchvision torchvision python3-torchvision"
)

log() { printf '[setup] %s\n' "$*"; }

missing=()
for p in "${DEB_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if ((${#missing[@]})); then
  log "installing Debian packages: ${missing[*]}"
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  log "Debian packages present"
fi

PYTHON="${PYTHON:-$(command -v python3 || echo /usr/bin/python3)}"
missing_py=() missing_pip=() missing_deb=()
all_mods=$(for e in "${PY_MODULES[@]}"; do echo "${e%% *}"; done | paste -sd,)
if ! "$PYTHON" -c "import $all_mods" 2>/dev/null; then  # one start when all present
  for entry in "${PY_MODULES[@]}"; do
    read -r mod pipname debname <<<"$entry"
    if ! "$PYTHON" -c "import $mod" 2>/dev/null; then
      missing_py+=("$mod") missing_pip+=("$pipname") missing_deb+=("$debname")
    fi
  done
fi
if ((${#missing_py[@]})); then
  log "installing Python modules ${missing_py[*]} for $PYTHON"
  # pip where the interpreter allows it (a venv, pyenv; torch and torchvision
  # are PyPI wheels, about a minute); Debian's own Python is externally
  # managed, so fall back to its packages.
  if ! "$PYTHON" -m pip install -q "${missing_pip[@]}" 2>/dev/null; then
    SUDO=""
    [[ $(id -u) -ne 0 ]] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing_deb[@]}"
  fi
  for mod in "${missing_py[@]}"; do
    "$PYTHON" -c "import $mod" || { log "cannot import $mod with $PYTHON"; exit 1; }
  done
else
  log "Python modules present"
fi

# The ONNX importer's tests (test/onnx): onnx, onnxruntime (the reference),
# and onnxscript (torch.onnx.export's exporter). PyPI wheels only, so
# optional: without them those tests are reported unsupported.
ONNX_PIP=(onnx onnxruntime onnxscript)
if ! "$PYTHON" -c "import onnx, onnxruntime, onnxscript" 2>/dev/null; then
  log "installing Python modules ${ONNX_PIP[*]} for $PYTHON"
  "$PYTHON" -m pip install -q "${ONNX_PIP[@]}" 2>/dev/null \
    || log "cannot pip install ${ONNX_PIP[*]}: the ONNX tests will be skipped"
fi

# PyTorch's PT2E quantization (test/Python/pt2e.test): torchao, optional;
# without dependencies, so that it never replaces the installed PyTorch.
if ! "$PYTHON" -c "import torchao" 2>/dev/null; then
  log "installing Python module torchao for $PYTHON"
  "$PYTHON" -m pip install -q --no-deps torchao 2>/dev/null \
    || log "cannot pip install torchao: the PT2E test will be skipped"
fi

# What builds and checks the self-contained wheel (scripts/build-wheel.sh,
# test/Python/wheel.test): optional, without them that test is unsupported.
if ! "$PYTHON" -c "import auditwheel, wheel" 2>/dev/null; then
  log "installing Python modules auditwheel wheel for $PYTHON"
  "$PYTHON" -m pip install -q auditwheel wheel 2>/dev/null \
    || log "cannot pip install auditwheel wheel: the wheel test will be skipped"
fi

# NVIDIA's disassembler, for the SASS checks of the CUDA kernels
# (test/Pipelines/cuda-matmul-sass.mlir): a PyPI wheel, optional, without
# it that test is unsupported.
if ! command -v nvdisasm >/dev/null && ! "$PYTHON" - 2>/dev/null <<'PY'
import glob, os, sys, nvidia
sys.exit(0 if any(glob.glob(os.path.join(r, "*", "bin", "nvdisasm"))
                  for r in nvidia.__path__) else 1)
PY
then
  log "installing Python module nvidia-cuda-nvdisasm for $PYTHON"
  "$PYTHON" -m pip install -q nvidia-cuda-nvdisasm 2>/dev/null \
    || log "cannot pip install nvidia-cuda-nvdisasm: the SASS test will be skipped"
fi

[[ "${1:-}" == "--no-build" ]] && exit 0

LLVM_PREFIX="$(llvm-config-${LLVM_VERSION} --prefix)"
# GRAPHOPT_SANITIZE=1 (scripts/test.sh --sanitize): AddressSanitizer and
# UndefinedBehaviorSanitizer in graphopt's own code (LLVM's cmake option;
# MLIR/LLVM themselves are not instrumented).
# Optimized at -O1, as LLVM's own sanitizer builds are: 160 s to build
# against 185 s at -O3 on 2 cores, and the sanitized lit run is no slower
# (190 s; most of its time is in the uninstrumented libMLIR and the JIT).
SANITIZE=()
[[ "${GRAPHOPT_SANITIZE:-0}" == 1 ]] && SANITIZE=(
  -DLLVM_USE_SANITIZER="Address;Undefined"
  -DCMAKE_C_FLAGS_RELEASE="-O1 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG")
# GRAPHOPT_STANDALONE_LIBRARY=ON only defines the wheel's library target
# (not part of `all`; scripts/build-wheel.sh links it): the build is the same.
if [[ ! -f "$BUILD_DIR/build.ninja" ]]; then
  log "configuring $BUILD_DIR"
  cmake -G Ninja -S "$ROOT" -B "$BUILD_DIR" "${SANITIZE[@]}" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
    -DLLVM_DIR="$LLVM_PREFIX/lib/cmake/llvm" \
    -DCMAKE_C_COMPILER="clang-${LLVM_VERSION}" \
    -DCMAKE_CXX_COMPILER="clang++-${LLVM_VERSION}" \
    -DPython3_EXECUTABLE="$PYTHON" \
    -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" \
    -DGRAPHOPT_STANDALONE_LIBRARY=ON
fi
log "building"
start=$(date +%s)
cmake --build "$BUILD_DIR"
log "build done in $(( $(date +%s) - start )) s"
