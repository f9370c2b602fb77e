#!/usr/bin/env bash
# Copies the references generated from TableGen (ops, passes) into docs/.
# test/Docs/generated-docs-current.test fails when they are stale.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${GRAPHOPT_BUILD_DIR:-$ROOT/build}"
cmake --build "$BUILD_DIR" --target mlir-doc
mkdir -p "$ROOT/docs/Dialects" "$ROOT/docs/Passes"
for d in GraphOpsReference FusionOpsReference; do
  cp "$BUILD_DIR/docs/Dialects/$d.md" "$ROOT/docs/Dialects/$d.md"
done
for p in GraphPasses FusionPasses ConversionPasses CodegenPasses; do
  cp "$BUILD_DIR/docs/$p.md" "$ROOT/docs/Passes/$p.md"
done
echo "docs/Dialects/*OpsReference.md and docs/Passes/*.md updated"
