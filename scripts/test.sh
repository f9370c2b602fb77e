#!/usr/bin/env bash
# Sets up (scripts/setup.sh: packages + build) and runs every test: the lit
# suite in test/ (FileCheck tests, execution tests against NumPy, the plugin
# loaded into mlir-opt, the installed CMake package, the Python package and
# its e2e suite against eager PyTorch: test/Python/, test/e2e/). Ends with
# the line "N passed, N failed".
#
# --sanitize: builds graphopt with AddressSanitizer and
# UndefinedBehaviorSanitizer in build-sanitize/ (GRAPHOPT_BUILD_DIR
# overrides) and runs the lit suite without the parts that load graphopt
# into a process that is not instrumented (Python, the ONNX tests, the
# mlir-opt plugin, the installed CMake package, the CUDA AOT test that links
# an uninstrumented program); test/PythonSanitized runs a sample of the
# Python package with ASan's runtime preloaded instead, and the CUDA checks
# over the Integration tests take every third file. Leak checking is off:
# MLIR keeps some allocations until exit on purpose.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LIT_ARGS=()
if [[ "${1:-}" == "--sanitize" ]]; then
  export GRAPHOPT_SANITIZE=1
  BUILD_DIR="${GRAPHOPT_BUILD_DIR:-$ROOT/build-sanitize}"
  export GRAPHOPT_BUILD_DIR="$BUILD_DIR"
  export ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
  LIT_ARGS=(--filter-out "Python/|onnx/|Plugin/|CMakePackage/|aot-cuda")
else
  BUILD_DIR="${GRAPHOPT_BUILD_DIR:-$ROOT/build}"
fi

"$ROOT/scripts/setup.sh" || { echo "0 passed, 1 failed"; exit 1; }

# Debian's lit, from llvm-22-tools: the version the suite is written for.
LIT="$(llvm-config-22 --prefix)/bin/lit"
log="$(mktemp)"
start=$(date +%s)
$LIT -sv --time-tests "${LIT_ARGS[@]}" "$BUILD_DIR/test" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
# lit's summary lines read "  Passed: 33 (100.00%)".
count() {
  local n
  n=$(grep -E "^\s*$1\s*:\s*[0-9]+" "$log" | tail -1 | sed -E 's/.*:\s*([0-9]+).*/\1/')
  echo "${n:-0}"
}
passed=$(( $(count Passed) + $(count "Expectedly Failed") ))
failed=$(( $(count Failed) + $(count "Unexpectedly Passed") + $(count Unresolved) + $(count "Timed Out") ))
skipped=$(( $(count Unsupported) + $(count Skipped) ))
echo "lit finished in $(( $(date +%s) - start )) s"
rm -f "$log"
if (( passed == 0 && failed == 0 )); then
  echo "0 passed, 1 failed"
  exit 1
fi
echo "$passed passed, $failed failed, $skipped skipped"
(( status == 0 && failed == 0 ))
