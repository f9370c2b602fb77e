#!/usr/bin/env bash
# The GPU checks and benchmarks of the CUDA target, in one go (docs/CUDA.md):
#
#   bench/cuda.sh [OUTDIR]        (default OUTDIR: bench/results/cuda)
#
#  1. builds graphopt if the build directory has no graph-run (with
#     scripts/setup.sh) and the cuBLAS reference (bench/cuda/cublas_ref.cu,
#     nvcc, linked with cuBLAS/cuBLASLt from the toolkit);
#  2. runs every lit test that needs a GPU (REQUIRES: cuda-gpu: the
#     execution tests of test/Integration against NumPy on the GPU, the
#     warp-reduction tests, the CUDA AOT program, the e2e models against
#     eager PyTorch);
#  3. checks the 4096^3 GEMMs against NumPy;
#  4. benchmarks, each against cuBLAS/cuBLASLt measured in the same run
#     (CUDA events, median of 20 after 3 warm-ups, data on the device):
#     GEMM 4096^3 in f16, bf16 (f32 accumulation) and f32 (IEEE, no TF32),
#     the fused MLP block (gelu(x W1 + b1) W2 + b2, cuBLASLt with bias/GELU
#     epilogues), attention at sequence length 2048 (cuBLAS batched GEMMs
#     and a softmax kernel).
#
# Writes OUTDIR/cuda-bench.md (the table for docs/Performance.md) and the
# logs. Exits 1 if there is no GPU or a check fails. Environment:
# GRAPHOPT_BUILD_DIR (default build/), CUDA_HOME (default /usr/local/cuda),
# REPS (default 20).
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${GRAPHOPT_BUILD_DIR:-$ROOT/build}"
OUT="${1:-$ROOT/bench/results/cuda}"
CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"
REPS="${REPS:-20}"
PY="${PYTHON:-python3}"
mkdir -p "$OUT"
export PATH="$CUDA_HOME/bin:$PATH"
start=$(date +%s)
say() { echo "[cuda.sh $(( $(date +%s) - start ))s] $*"; }
status=0

# -- 0. A GPU? ---------------------------------------------------------------
if ! "$PY" - <<'EOF'
import ctypes, sys
try:
    cuda = ctypes.CDLL("libcuda.so.1")
except OSError as e:
    sys.exit(f"no CUDA driver: {e}")
n = ctypes.c_int(0)
if cuda.cuInit(0) != 0 or cuda.cuDeviceGetCount(ctypes.byref(n)) != 0 or n.value == 0:
    sys.exit("the CUDA driver reports no device")
EOF
then
  say "no GPU here: nothing to run (the non-GPU CUDA tests run in scripts/test.sh)"
  exit 1
fi
nvidia-smi -L 2>/dev/null | tee "$OUT/gpu.txt" || true

# -- 1. Build ------------------------------------------------------------------
if [[ ! -x "$BUILD/bin/graph-run" || ! -f "$BUILD/lib/libGraphOptCUDARuntime.so" ]]; then
  say "building graphopt in $BUILD"
  GRAPHOPT_BUILD_DIR="$BUILD" "$ROOT/scripts/setup.sh" || { say "build failed"; exit 1; }
else
  cmake --build "$BUILD" >/dev/null || { say "build failed"; exit 1; }
fi
GRAPH_RUN="$BUILD/bin/graph-run"
say "building the cuBLAS reference"
nvcc -O2 -std=c++17 "$ROOT/bench/cuda/cublas_ref.cu" -o "$OUT/cublas_ref" \
  -lcublas -lcublasLt || { say "nvcc failed"; exit 1; }

# -- 2. GPU tests --------------------------------------------------------------
LIT="$(llvm-config-22 --prefix 2>/dev/null)/bin/lit"
[[ -x "$LIT" ]] || LIT=lit
# The tests that need a GPU (REQUIRES: cuda-gpu); the other CUDA tests run
# in scripts/test.sh on any machine.
say "lit: the GPU tests"
if "$LIT" -sv -j 4 --filter 'cuda-run|Integration/cuda-reductions|aot-cuda-run|e2e-cuda\.test' \
     "$BUILD/test" > "$OUT/lit.log" 2>&1; then
  say "lit: $(grep -E '^\s*Passed' "$OUT/lit.log" | tr -s ' ')"
else
  status=1
  say "lit: FAILURES (see $OUT/lit.log)"
  grep -E '^(FAIL|XPASS|UNRESOLVED):' "$OUT/lit.log" | head -20
fi

# -- 3. + 4. Workloads -------------------------------------------------------
W="$OUT/work"
mkdir -p "$W"
gemm_mlir() { # type
  cat > "$W/gemm_$1.mlir" <<EOF
func.func @main(%a: tensor<4096x4096x$1>, %b: tensor<4096x4096x$1>) -> tensor<4096x4096x$1> {
  %c = graph.matmul %a, %b : tensor<4096x4096x$1>, tensor<4096x4096x$1> -> tensor<4096x4096x$1>
  return %c : tensor<4096x4096x$1>
}
EOF
}
for t in f16 bf16 f32; do gemm_mlir $t; done
# MLP block: M=4096 tokens, D=1024, H=4096.
cat > "$W/mlp.mlir" <<'EOF'
func.func @main(%x: tensor<4096x1024xf16>, %w1: tensor<1024x4096xf16>, %b1: tensor<4096xf16>,
                %w2: tensor<4096x1024xf16>, %b2: tensor<1024xf16>) -> tensor<4096x1024xf16> {
  %h = graph.matmul %x, %w1 : tensor<4096x1024xf16>, tensor<1024x4096xf16> -> tensor<4096x4096xf16>
  %hb = graph.add %h, %b1 : tensor<4096x4096xf16>, tensor<4096xf16> -> tensor<4096x4096xf16>
  %g = graph.gelu %hb : tensor<4096x4096xf16> -> tensor<4096x4096xf16>
  %y = graph.matmul %g, %w2 : tensor<4096x4096xf16>, tensor<4096x1024xf16> -> tensor<4096x1024xf16>
  %yb = graph.add %y, %b2 : tensor<4096x1024xf16>, tensor<1024xf16> -> tensor<4096x1024xf16>
  return %yb : tensor<4096x1024xf16>
}
EOF
# Attention: batch 1, 16 heads, sequence 2048, head dim 64.
cat > "$W/attention.mlir" <<'EOF'
func.func @main(%q: tensor<1x16x2048x64xf16>, %k: tensor<1x16x2048x64xf16>, %v: tensor<1x16x2048x64xf16>) -> tensor<1x16x2048x64xf16> {
  %o = graph.scaled_dot_product_attention %q, %k, %v
      : (tensor<1x16x2048x64xf16>, tensor<1x16x2048x64xf16>, tensor<1x16x2048x64xf16>) -> tensor<1x16x2048x64xf16>
  return %o : tensor<1x16x2048x64xf16>
}
EOF

say "checking the 4096^3 GEMMs against NumPy"
"$PY" - "$W" <<'EOF'
import sys, numpy as np
w = sys.argv[1]
rng = np.random.default_rng(0)
a = rng.uniform(-1, 1, (4096, 4096)).astype(np.float32)
b = rng.uniform(-1, 1, (4096, 4096)).astype(np.float32)
# bf16-representable values for every type (NumPy has no bf16: graph-run
# reads f32 files for bf16 inputs and expected values).
def bf16(x):
    return (x.view(np.uint32) & 0xffff0000).view(np.float32)
a, b = bf16(a), bf16(b)
np.save(f"{w}/a_f32.npy", a); np.save(f"{w}/b_f32.npy", b)
np.save(f"{w}/a_f16.npy", a.astype(np.float16)); np.save(f"{w}/b_f16.npy", b.astype(np.float16))
c = (a.astype(np.float64) @ b.astype(np.float64))
np.save(f"{w}/c_f32.npy", c.astype(np.float32))
np.save(f"{w}/c_f16.npy", c.astype(np.float16))
np.save(f"{w}/c_bf16.npy", bf16(c.astype(np.float32)))
EOF
check_gemm() { # type atol rtol
  local in=$1; [[ $1 == bf16 ]] && in=f32
  if "$GRAPH_RUN" --target=cuda "$W/gemm_$1.mlir" --quiet \
       --input=@"$W/a_$in.npy" --input=@"$W/b_$in.npy" \
       --expected-output=@"$W/c_$1.npy" --atol=$2 --rtol=$3 > "$OUT/check_$1.log" 2>&1; then
    say "GEMM $1 4096^3 matches NumPy (atol $2, rtol $3)"
  else
    status=1
    say "GEMM $1 4096^3 MISMATCH: $(tail -2 "$OUT/check_$1.log")"
  fi
}
# |c| ~ 20: f16 results round at ~0.01, bf16 at ~0.1; f32 accumulation
# order differs from NumPy's by ~1e-5 relative.
check_gemm f32 1e-3 1e-4
check_gemm f16 5e-2 1e-2
check_gemm bf16 2.5e-1 2e-2

median_of() { sed -nE 's/.*median ([0-9.]+) ms.*/\1/p' "$1" | head -1; }
rows=()
bench() { # name mlir cublas-args... ; flops
  local name=$1 mlir=$2 flops=$3; shift 3
  "$GRAPH_RUN" --target=cuda "$mlir" --seed=1 --quiet --benchmark="$REPS" \
    --timing > "$OUT/bench_$name.log" 2>&1 || { status=1; say "$name: graph-run failed: $(tail -2 "$OUT/bench_$name.log")"; return; }
  "$OUT/cublas_ref" "$@" "$REPS" > "$OUT/cublas_$name.log" 2>&1 || { status=1; say "$name: cublas_ref failed"; return; }
  local g c
  g=$(median_of "$OUT/bench_$name.log"); c=$(median_of "$OUT/cublas_$name.log")
  local line
  line=$("$PY" -c "g=$g; c=$c; f=$flops; print(f'| $name | {g:.3f} | {f/g/1e9:.1f} | {c:.3f} | {f/c/1e9:.1f} | {g/c:.2f}x |')")
  rows+=("$line")
  say "$line"
}
say "benchmarks (median of $REPS, CUDA events)"
bench "GEMM f16 4096^3" "$W/gemm_f16.mlir" "2*4096**3" gemm f16 4096 4096 4096
bench "GEMM bf16 4096^3" "$W/gemm_bf16.mlir" "2*4096**3" gemm bf16 4096 4096 4096
bench "GEMM f32 4096^3" "$W/gemm_f32.mlir" "2*4096**3" gemm f32 4096 4096 4096
bench "MLP f16 4096x1024x4096" "$W/mlp.mlir" "4*4096*1024*4096" mlp f16 4096 1024 4096
bench "attention f16 1x16x2048x64" "$W/attention.mlir" "4*16*2048*2048*64" attention f16 1 16 2048 64

{
  echo "GPU: $(head -1 "$OUT/gpu.txt" 2>/dev/null)"
  echo
  echo "| workload | graphopt ms | graphopt TFLOP/s | cuBLAS ms | cuBLAS TFLOP/s | graphopt / cuBLAS time |"
  echo "|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
} > "$OUT/cuda-bench.md"
cat "$OUT/cuda-bench.md"
say "done: $( ((status == 0)) && echo all checks passed || echo FAILURES ); results in $OUT"
exit $status
