/* The CUDA header's input check, without a GPU (it reads descriptors only):
   a device buffer that is not 16-byte aligned is refused with a message
   naming the input (the kernels read inputs with 16-byte vector loads, and
   a misaligned one would fault and end the CUDA context); an aligned one
   passes. Pointers are never dereferenced. */
#include "model.h"

#include <stdio.h>

int main(void) {
  char msg[512];
  graphopt_main_in0 in = {0};
  in.sizes[0] = 2;
  in.sizes[1] = 3;
  in.strides[0] = 3;
  in.strides[1] = 1;
  in.allocated = in.aligned = (float *)(uintptr_t)0x10000;
  int ok = graphopt_main_check(&in, msg, sizeof msg);
  printf("aligned: %d\n", ok);
  in.allocated = in.aligned = (float *)(uintptr_t)0x10004;
  int bad = graphopt_main_check(&in, msg, sizeof msg);
  printf("misaligned: %d %s\n", bad, msg);
  return ok == GRAPHOPT_AOT_OK && bad == GRAPHOPT_AOT_BAD_INPUT ? 0 : 1;
}
