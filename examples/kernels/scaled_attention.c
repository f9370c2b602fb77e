/* A hand-written attention kernel, the seed article's "custom C++ operator":
 * out = softmax(q k^T / sqrt(D)) v for q, k, v of shape [B, H, L, D].
 * graphopt calls it for `fusion.custom_call @scaled_attention(q, k, v)`
 * through MLIR's C interface: one strided-memref descriptor pointer per
 * operand, then one per result (see docs/Dialects/Fusion.md).
 *
 *   cc -O2 -shared -fPIC scaled_attention.c -o libscaled_attention.so -lm
 *   graph-run model.mlir --shared-lib=./libscaled_attention.so ...
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[4], strides[4];
} MemRef4F32;

static float at(const MemRef4F32 *m, int64_t b, int64_t h, int64_t i,
                int64_t j) {
  return m->aligned[m->offset + b * m->strides[0] + h * m->strides[1] +
                    i * m->strides[2] + j * m->strides[3]];
}

void _mlir_ciface_scaled_attention(MemRef4F32 *q, MemRef4F32 *k,
                                   MemRef4F32 *v, MemRef4F32 *out) {
  int64_t B = q->sizes[0], H = q->sizes[1], L = q->sizes[2], D = q->sizes[3];
  int64_t S = k->sizes[2], Dv = v->sizes[3];
  float scale = 1.0f / sqrtf((float)D);
  float *p = malloc(sizeof(float) * (size_t)S);
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t i = 0; i < L; ++i) {
        float max = -INFINITY, sum = 0.0f;
        for (int64_t j = 0; j < S; ++j) {
          float s = 0.0f;
          for (int64_t d = 0; d < D; ++d)
            s += at(q, b, h, i, d) * at(k, b, h, j, d);
          p[j] = s * scale;
          if (p[j] > max)
            max = p[j];
        }
        for (int64_t j = 0; j < S; ++j) {
          p[j] = expf(p[j] - max);
          sum += p[j];
        }
        for (int64_t e = 0; e < Dv; ++e) {
          float acc = 0.0f;
          for (int64_t j = 0; j < S; ++j)
            acc += p[j] * at(v, b, h, j, e);
          out->aligned[out->offset + b * out->strides[0] +
                       h * out->strides[1] + i * out->strides[2] +
                       e * out->strides[3]] = acc / sum;
        }
      }
  free(p);
}
