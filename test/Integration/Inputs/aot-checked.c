/* aot-checked.test: two objects' headers in one program; rank 0, i32 and
   i1 descriptors. */
#include "mask.h"
#include "scalar.h"

#include <stdio.h>
#include <stdlib.h>

int main(void) {
  float x = 3;
  graphopt_scalar_in0 in = {&x, &x, 0};
  graphopt_scalar_out0 out;
  char msg[256];
  int status = graphopt_scalar_run(&out, &in, msg, sizeof(msg));
  printf("scalar: %d %g\n", status, out.aligned[out.offset]);
  free(out.allocated);

  int32_t v[4] = {1, 5, 2, 3};
  graphopt_mask_in0 vin = {v, v, 0, {4}, {1}};
  graphopt_mask_out0 m;
  status = graphopt_mask_run(&m, &vin, msg, sizeof(msg));
  printf("mask: %d:", status);
  for (int i = 0; i < 4; ++i)
    printf(" %d", m.aligned[m.offset + i]);
  printf("\n");
  free(m.allocated);
  vin.sizes[0] = 3;
  status = graphopt_mask_run(&m, &vin, msg, sizeof(msg));
  printf("mask 3: %d %s\n", status, msg);
  return 0;
}
