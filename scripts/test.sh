#!/usr/bin/env bash
# Sets up (scripts/setup.sh: packages + build) and runs every test: the lit
# suite in test/ (FileCheck tests, execution tests against NumPy, the plugin
# loaded into mlir-opt, the installed CMake package). Ends with the line
# "N passed, N failed".
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${GRAPHOPT_BUILD_DIR:-$ROOT/build}"

"$ROOT/scripts/setup.sh" || { echo "0 passed, 1 failed"; exit 1; }

LIT="$(command -v lit || true)"
[[ -z "$LIT" ]] && LIT="python3 -m lit"
log="$(mktemp)"
start=$(date +%s)
$LIT -sv --time-tests "$BUILD_DIR/test" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
count() { grep -E "^\s*$1:\s*[0-9]+" "$log" | awk '{print $NF}' | tail -1; }
passed=$(( $(count Passed || echo 0) + $(count "Expectedly Failed" || echo 0) ))
failed=$(( $(count Failed || echo 0) + $(count "Unexpectedly Passed" || echo 0) + $(count Unresolved || echo 0) + $(count "Timed Out" || echo 0) ))
skipped=$(( $(count Unsupported || echo 0) + $(count Skipped || echo 0) ))
echo "lit finished in $(( $(date +%s) - start )) s"
rm -f "$log"
if (( passed == 0 && failed == 0 )); then
  echo "0 passed, 1 failed"
  exit 1
fi
echo "$passed passed, $failed failed, $skipped skipped"
(( status == 0 && failed == 0 ))
