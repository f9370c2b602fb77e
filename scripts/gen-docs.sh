#!/usr/bin/env bash
# Copies the references generated from TableGen (ops, passes) into docs/.
# test/Docs/generated-docs-current.test fails when they are stale.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${GRAPHOPT_BUILD_DIR:-$ROOT/build}"
cmake --build "$BUILD_DIR" --target mlir-doc
mkdir -p "$ROOT/docs/Dialects" "$ROOT/docs/Passes"
cp "$BUILD_DIR/docs/Dialects/GraphOpsReference.md" "$ROOT/docs/Dialects/GraphOpsReference.md"
for p in GraphPasses ConversionPasses CodegenPasses; do
  cp "$BUILD_DIR/docs/$p.md" "$ROOT/docs/Passes/$p.md"
done
echo "docs/Dialects/GraphOpsReference.md and docs/Passes/*.md updated"
