// The peer of bench/cuda.sh: the same workloads with cuBLAS / cuBLASLt,
// timed with CUDA events in the same run as graphopt.
//
//   cublas_ref gemm f16|bf16|f32 M N K [reps]
//       C[M,N] = A[M,K] @ B[K,N]; f16/bf16 inputs with f32 accumulation and
//       an f16/bf16 result (CUBLAS_COMPUTE_32F), f32 in IEEE f32
//       (CUBLAS_COMPUTE_32F, no TF32).
//   cublas_ref mlp f16 M D H [reps]
//       gelu(x @ W1 + b1) @ W2 + b2 with cuBLASLt epilogues
//       (GELU_BIAS, then BIAS): x [M,D], W1 [D,H], W2 [H,D].
//   cublas_ref attention f16 B H S D [reps]
//       softmax(Q K^T / sqrt(D)) V, unfused: two strided-batched cuBLAS
//       GEMMs with a row softmax kernel between them (f32 scores).
//
// Prints "cublas <what>: median X ms, min Y ms, Z TFLOP/s". Inputs are
// random (fixed seed); the results are not checked here (graphopt's are,
// by the lit tests).
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#define CHECK_CUDA(x)                                                          \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "cublas_ref: %s: %s\n", #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)
#define CHECK_CUBLAS(x)                                                        \
  do {                                                                         \
    cublasStatus_t s_ = (x);                                                   \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                         \
      std::fprintf(stderr, "cublas_ref: %s: status %d\n", #x, (int)s_);        \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

namespace {

/// Uniform values in [-0.5, 0.5) from a hash of the index, converted to T.
__device__ float hashUniform(size_t i, unsigned seed) {
  unsigned x = (unsigned)i * 2654435761u + seed;
  x ^= x >> 13;
  x *= 0x5bd1e995u;
  return (x & 0xffff) / 65536.0f - 0.5f;
}

template <typename T> __device__ T fromFloat(float v);
template <> __device__ float fromFloat<float>(float v) { return v; }
template <> __device__ __half fromFloat<__half>(float v) {
  return __float2half(v);
}
template <> __device__ __nv_bfloat16 fromFloat<__nv_bfloat16>(float v) {
  return __float2bfloat16(v);
}

template <typename T>
__global__ void fillRandom(T *p, size_t n, unsigned seed) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = fromFloat<T>(hashUniform(i, seed));
}

/// Row softmax of S [rows, n] (f32, scaled) into P (f16), one block per row.
__global__ void softmaxRows(const float *s, __half *p, int n, float scale) {
  extern __shared__ float red[];
  const float *row = s + (size_t)blockIdx.x * n;
  __half *out = p + (size_t)blockIdx.x * n;
  float m = -INFINITY;
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    m = fmaxf(m, row[j] * scale);
  red[threadIdx.x] = m;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k /= 2) {
    if (threadIdx.x < k)
      red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + k]);
    __syncthreads();
  }
  m = red[0];
  __syncthreads();
  float sum = 0;
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    sum += __expf(row[j] * scale - m);
  red[threadIdx.x] = sum;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k /= 2) {
    if (threadIdx.x < k)
      red[threadIdx.x] += red[threadIdx.x + k];
    __syncthreads();
  }
  float inv = 1.0f / red[0];
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    out[j] = __float2half(__expf(row[j] * scale - m) * inv);
}

void *deviceRandom(size_t elements, size_t elementBytes, unsigned seed,
                   bool bf16 = false) {
  void *p;
  CHECK_CUDA(cudaMalloc(&p, elements * elementBytes));
  unsigned blocks = (unsigned)((elements + 255) / 256);
  if (elementBytes == 4)
    fillRandom<<<blocks, 256>>>((float *)p, elements, seed);
  else if (bf16)
    fillRandom<<<blocks, 256>>>((__nv_bfloat16 *)p, elements, seed);
  else
    fillRandom<<<blocks, 256>>>((__half *)p, elements, seed);
  CHECK_CUDA(cudaGetLastError());
  return p;
}

/// Median and min of `reps` timed calls of `fn` (after 3 warm-ups).
void timeIt(const std::string &what, int reps, double flops,
            const std::function<void()> &fn) {
  for (int i = 0; i < 3; ++i)
    fn();
  CHECK_CUDA(cudaDeviceSynchronize());
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  std::vector<float> ms;
  for (int i = 0; i < reps; ++i) {
    CHECK_CUDA(cudaEventRecord(start));
    fn();
    CHECK_CUDA(cudaEventRecord(stop));
    CHECK_CUDA(cudaEventSynchronize(stop));
    float t;
    CHECK_CUDA(cudaEventElapsedTime(&t, start, stop));
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  double median = reps % 2 ? ms[reps / 2]
                           : 0.5 * (ms[reps / 2 - 1] + ms[reps / 2]);
  std::printf("cublas %s: median %.4f ms, min %.4f ms, %.1f TFLOP/s\n",
              what.c_str(), median, ms.front(), flops / (median * 1e-3) / 1e12);
}

// Row-major C[M,N] = A[M,K] B[K,N] is column-major C^T = B^T A^T: cuBLAS
// gets (N, M, K) with B first.
int gemm(const std::string &type, int M, int N, int K, int reps) {
  cublasHandle_t h;
  CHECK_CUBLAS(cublasCreate(&h));
  bool f32 = type == "f32";
  cudaDataType_t dt = f32 ? CUDA_R_32F
                          : (type == "bf16" ? CUDA_R_16BF : CUDA_R_16F);
  size_t es = f32 ? 4 : 2;
  void *a = deviceRandom((size_t)M * K, es, 1, type == "bf16");
  void *b = deviceRandom((size_t)K * N, es, 2, type == "bf16");
  void *c = deviceRandom((size_t)M * N, es, 3, type == "bf16");
  float alpha = 1, beta = 0;
  // IEEE f32: no TF32 (CUBLAS_COMPUTE_32F with the default math mode).
  CHECK_CUBLAS(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
  timeIt("gemm " + type + " " + std::to_string(M) + "x" + std::to_string(N) +
             "x" + std::to_string(K),
         reps, 2.0 * M * N * K, [&] {
           CHECK_CUBLAS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K,
                                     &alpha, b, dt, N, a, dt, K, &beta, c, dt,
                                     N, CUBLAS_COMPUTE_32F,
                                     CUBLAS_GEMM_DEFAULT));
         });
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  cublasDestroy(h);
  return 0;
}

/// One cuBLASLt matmul with a bias (and optionally GELU) epilogue:
/// row-major out[M,N] = epilogue(in[M,K] @ w[K,N] + bias[N]), f16 in/out,
/// f32 accumulation.
struct LtLinear {
  cublasLtMatmulDesc_t desc;
  cublasLtMatrixLayout_t la, lb, lc;
  cublasLtMatmulAlgo_t algo;
  bool haveAlgo = false;
  LtLinear(cublasLtHandle_t lt, int M, int N, int K, const void *bias,
           bool gelu, void *workspace, size_t wsBytes) {
    CHECK_CUBLAS(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F,
                                          CUDA_R_32F));
    cublasLtEpilogue_t epi =
        gelu ? CUBLASLT_EPILOGUE_GELU_BIAS : CUBLASLT_EPILOGUE_BIAS;
    CHECK_CUBLAS(cublasLtMatmulDescSetAttribute(
        desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi)));
    CHECK_CUBLAS(cublasLtMatmulDescSetAttribute(
        desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias)));
    // Column-major view: out^T[N,M] = w^T[N,K] in^T[K,M].
    CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&la, CUDA_R_16F, N, K, N));
    CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&lb, CUDA_R_16F, K, M, K));
    CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&lc, CUDA_R_16F, N, M, N));
    cublasLtMatmulPreference_t pref;
    CHECK_CUBLAS(cublasLtMatmulPreferenceCreate(&pref));
    CHECK_CUBLAS(cublasLtMatmulPreferenceSetAttribute(
        pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsBytes,
        sizeof(wsBytes)));
    cublasLtMatmulHeuristicResult_t result;
    int found = 0;
    CHECK_CUBLAS(cublasLtMatmulAlgoGetHeuristic(lt, desc, la, lb, lc, lc, pref,
                                                1, &result, &found));
    if (found) {
      algo = result.algo;
      haveAlgo = true;
    }
    cublasLtMatmulPreferenceDestroy(pref);
    (void)workspace;
  }
  void run(cublasLtHandle_t lt, const void *in, const void *w, void *out,
           void *workspace, size_t wsBytes) {
    float alpha = 1, beta = 0;
    CHECK_CUBLAS(cublasLtMatmul(lt, desc, &alpha, w, la, in, lb, &beta, out,
                                lc, out, lc, haveAlgo ? &algo : nullptr,
                                workspace, wsBytes, 0));
  }
};

int mlp(int M, int D, int H, int reps) {
  cublasLtHandle_t lt;
  CHECK_CUBLAS(cublasLtCreate(&lt));
  size_t wsBytes = 32 << 20;
  void *ws;
  CHECK_CUDA(cudaMalloc(&ws, wsBytes));
  void *x = deviceRandom((size_t)M * D, 2, 1);
  void *w1 = deviceRandom((size_t)D * H, 2, 2);
  void *b1 = deviceRandom(H, 2, 3);
  void *w2 = deviceRandom((size_t)H * D, 2, 4);
  void *b2 = deviceRandom(D, 2, 5);
  void *hbuf = deviceRandom((size_t)M * H, 2, 6);
  void *y = deviceRandom((size_t)M * D, 2, 7);
  LtLinear l1(lt, M, H, D, b1, /*gelu=*/true, ws, wsBytes);
  LtLinear l2(lt, M, D, H, b2, /*gelu=*/false, ws, wsBytes);
  timeIt("mlp f16 " + std::to_string(M) + "x" + std::to_string(D) + "x" +
             std::to_string(H),
         reps, 4.0 * M * D * H, [&] {
           l1.run(lt, x, w1, hbuf, ws, wsBytes);
           l2.run(lt, hbuf, w2, y, ws, wsBytes);
         });
  cublasLtDestroy(lt);
  return 0;
}

int attention(int B, int Hh, int S, int D, int reps) {
  cublasHandle_t h;
  CHECK_CUBLAS(cublasCreate(&h));
  int batch = B * Hh;
  void *q = deviceRandom((size_t)batch * S * D, 2, 1);
  void *k = deviceRandom((size_t)batch * S * D, 2, 2);
  void *v = deviceRandom((size_t)batch * S * D, 2, 3);
  void *o = deviceRandom((size_t)batch * S * D, 2, 4);
  float *s;
  __half *p;
  CHECK_CUDA(cudaMalloc(&s, (size_t)batch * S * S * 4));
  CHECK_CUDA(cudaMalloc(&p, (size_t)batch * S * S * 2));
  float one = 1, zero = 0;
  float scale = 1.0f / std::sqrt((float)D);
  timeIt("attention f16 " + std::to_string(B) + "x" + std::to_string(Hh) +
             "x" + std::to_string(S) + "x" + std::to_string(D),
         reps, 4.0 * batch * (double)S * S * D, [&] {
           // S = Q K^T (row-major [S,S] per batch): column-major
           // S^T = K Q^T.
           CHECK_CUBLAS(cublasGemmStridedBatchedEx(
               h, CUBLAS_OP_T, CUBLAS_OP_N, S, S, D, &one, k, CUDA_R_16F, D,
               (long long)S * D, q, CUDA_R_16F, D, (long long)S * D, &zero, s,
               CUDA_R_32F, S, (long long)S * S, batch, CUBLAS_COMPUTE_32F,
               CUBLAS_GEMM_DEFAULT));
           softmaxRows<<<batch * S, 256, 256 * sizeof(float)>>>(s, p, S,
                                                                scale);
           // O = P V: column-major O^T = V^T P^T.
           CHECK_CUBLAS(cublasGemmStridedBatchedEx(
               h, CUBLAS_OP_N, CUBLAS_OP_N, D, S, S, &one, v, CUDA_R_16F, D,
               (long long)S * D, p, CUDA_R_16F, S, (long long)S * S, &zero, o,
               CUDA_R_16F, D, (long long)S * D, batch, CUBLAS_COMPUTE_32F,
               CUBLAS_GEMM_DEFAULT));
         });
  cublasDestroy(h);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  auto usage = [] {
    std::fprintf(stderr,
                 "usage: cublas_ref gemm f16|bf16|f32 M N K [reps]\n"
                 "       cublas_ref mlp f16 M D H [reps]\n"
                 "       cublas_ref attention f16 B H S D [reps]\n");
    return 2;
  };
  if (argc < 3)
    return usage();
  std::string what = argv[1], type = argv[2];
  auto arg = [&](int i, int dflt) { return argc > i ? std::atoi(argv[i]) : dflt; };
  if (what == "gemm" && argc >= 6)
    return gemm(type, arg(3, 0), arg(4, 0), arg(5, 0), arg(6, 20));
  if (what == "mlp" && argc >= 6)
    return mlp(arg(3, 0), arg(4, 0), arg(5, 0), arg(6, 20));
  if (what == "attention" && argc >= 7)
    return attention(arg(3, 0), arg(4, 0), arg(5, 0), arg(6, 0), arg(7, 20));
  return usage();
}
