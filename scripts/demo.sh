#!/usr/bin/env bash
# Sets up (scripts/setup.sh) and runs the main job on the built-in seed
# examples: show each graph before and after graph-level optimization, then
# JIT-compile it for this CPU, run it, and check the result against NumPy.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${GRAPHOPT_BUILD_DIR:-$ROOT/build}"
"$ROOT/scripts/setup.sh"
BIN="$BUILD_DIR/bin"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

for example in matmul_add simple_model; do
  file="$ROOT/examples/$example.mlir"
  echo "=================== $example: input ($file)"
  grep -v '^//' "$file" | cut -c1-160
  echo "=================== $example: after graph-optimize"
  "$BIN/graph-opt" "$file" --graph-optimize | cut -c1-160
  echo "=================== $example: run (inputs and reference from NumPy)"
  python3 "$ROOT/test/lib/reference.py" "$example" "$TMP/$example"
  args=()
  for x in "$TMP/$example"/x*.npy; do args+=("--input=@$x"); done
  "$BIN/graph-run" "$file" "${args[@]}" \
    --expected-output="@$TMP/$example/expected.npy" --rtol=1e-5 --atol=1e-5 \
    --benchmark=20
done
