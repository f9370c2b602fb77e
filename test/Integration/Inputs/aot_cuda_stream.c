/* A host thread's own stream (graphoptCudaSetStream) for compiled CUDA code
 * and the runtime API, run on the emulated driver: the stream comes from
 * the driver's cuStreamCreate (the emulator numbers streams 1, 2, ... in
 * creation order: the runtime's own is 1), and GRAPHOPT_CUDA_EMULATOR_TRACE
 * shows which stream each allocation, copy, free and synchronization uses.
 * The program is examples/aot/model.mlir compiled for emulation. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "graphopt/Runtime/CUDARuntime.h"

typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} Memref2D;

void _mlir_ciface_main(Memref2D *result, Memref2D *x);

typedef int (*StreamCreate)(void **stream, unsigned flags);

int main(void) {
  if (graphoptCudaInit(-1) != 0) {
    fprintf(stderr, "error: %s\n", graphoptCudaGetError());
    return 1;
  }
  void *own = graphoptCudaGetStream();
  void *driver = dlopen(graphoptCudaDriverPath(), RTLD_NOW | RTLD_NOLOAD);
  StreamCreate create =
      driver ? (StreamCreate)dlsym(driver, "cuStreamCreate") : NULL;
  void *mine = NULL;
  if (!create || create(&mine, 1) != 0 || !mine) {
    fprintf(stderr, "error: no cuStreamCreate in %s\n",
            graphoptCudaDriverPath());
    return 1;
  }
  graphoptCudaSetStream(mine);
  printf("stream set: %s\n",
         graphoptCudaGetStream() == mine && own != mine ? "yes" : "no");
  fflush(stdout);
  float x[6] = {1, 2, 3, 4, 5, 6}, y[4];
  Memref2D in = {0, 0, 0, {2, 3}, {3, 1}}, out;
  memset(&out, 0, sizeof(out));
  float *dx = graphoptCudaMalloc(sizeof(x));
  if (!dx || graphoptCudaCopyToDevice(dx, x, sizeof(x)) != 0)
    return 1;
  in.allocated = in.aligned = dx;
  _mlir_ciface_main(&out, &in);
  if (graphoptCudaSynchronize() != 0 ||
      graphoptCudaCopyToHost(y, out.aligned + out.offset, sizeof(y)) != 0)
    return 1;
  graphoptCudaFree(out.allocated);
  fprintf(stderr, "back to the runtime's stream\n");
  graphoptCudaSetStream(NULL);
  printf("stream reset: %s\n", graphoptCudaGetStream() == own ? "yes" : "no");
  fflush(stdout);
  graphoptCudaFree(dx);
  printf("result: %g %g %g %g\n", y[0], y[1], y[2], y[3]);
  return 0;
}
