/* Calls a model compiled ahead of time by
 *   graph-run model.mlir --compile-only --emit-object=model.o [--target=cuda]
 * through its C interface, _mlir_ciface_main, without the compiler.
 *
 *   CPU:  cc run_model.c model.o -lm -o run_model
 *   CUDA: cc -DGRAPHOPT_AOT_CUDA -I<graphopt>/include run_model.c model.o \
 *           -L<graphopt>/lib -lGraphOptCUDARuntime -o run_model
 *
 * The ABI (docs/AOT.md): a rank-r memref is passed as a pointer to the
 * descriptor {T *allocated, T *aligned, int64 offset, int64 sizes[r],
 * int64 strides[r]}; the result descriptor comes first. On the CPU the
 * result buffer is malloc'ed by the model and freed by the caller with
 * free(); on CUDA inputs and results are device buffers (graphoptCuda*
 * functions of CUDARuntime.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef GRAPHOPT_AOT_CUDA
#include "graphopt/Runtime/CUDARuntime.h"
#endif

typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} Memref2D;

void _mlir_ciface_main(Memref2D *result, Memref2D *x);

int main(void) {
  float x[6] = {1, 2, 3, 4, 5, 6};
  float y[4];
  Memref2D in = {x, x, 0, {2, 3}, {3, 1}}, out;
  memset(&out, 0, sizeof(out));
#ifdef GRAPHOPT_AOT_CUDA
  float *dx = graphoptCudaMalloc(sizeof(x));
  if (!dx || graphoptCudaCopyToDevice(dx, x, sizeof(x)) != 0) {
    fprintf(stderr, "error: %s\n", graphoptCudaGetError());
    return 1;
  }
  in.allocated = in.aligned = dx;
  _mlir_ciface_main(&out, &in);
  if (graphoptCudaSynchronize() != 0 ||
      graphoptCudaCopyToHost(y, out.aligned + out.offset, sizeof(y)) != 0) {
    fprintf(stderr, "error: %s\n", graphoptCudaGetError());
    return 1;
  }
  graphoptCudaFree(out.allocated);
  graphoptCudaFree(dx);
#else
  _mlir_ciface_main(&out, &in);
  memcpy(y, out.aligned + out.offset, sizeof(y));
  free(out.allocated);
#endif
  printf("result: %g %g %g %g\n", y[0], y[1], y[2], y[3]);
  return 0;
}
