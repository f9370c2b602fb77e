/* Calls @batch (batch.mlir) through the header that
 *   graph-run batch.mlir --entry=batch --compile-only \
 *     --emit-object=batch.o --emit-header=batch.h
 * writes: graphopt_batch_run checks the inputs' descriptors against the
 * signature (static dims, the dims the program needs equal, a buffer,
 * offset 0, contiguous row-major strides) and returns a status with a
 * message instead of letting the compiled code read out of bounds.
 *
 *   cc -I. run_checked.c batch.o -lm -o run_checked
 */
#include "batch.h"

#include <stdio.h>
#include <stdlib.h>

static float x[6] = {1, 2, 3, 4, 5, 6};
static float y[6] = {10, 20, 30, 40, 50, 60};

/* One checked call; prints its status and message or results. */
static void call(const char *what, const graphopt_batch_in0 *in0,
                 const graphopt_batch_in1 *in1) {
  graphopt_batch_results res;
  char msg[512];
  int status = graphopt_batch_run(&res, in0, in1, msg, sizeof(msg));
  printf("%s: ", what);
  if (status != GRAPHOPT_AOT_OK) {
    printf("status %d: %s\n", status, msg);
    return;
  }
  printf("rows %lld:", (long long)res.r0.sizes[0]);
  for (int64_t i = 0; i < res.r0.sizes[0] * res.r0.sizes[1]; ++i)
    printf(" %g", res.r0.aligned[res.r0.offset + i]);
  printf(" | sums");
  for (int64_t i = 0; i < res.r1.sizes[0]; ++i)
    printf(" %g", res.r1.aligned[res.r1.offset + i]);
  printf("\n");
  free(res.r0.allocated);
  free(res.r1.allocated);
}

int main(void) {
  graphopt_batch_in0 in0 = {x, x, 0, {2, 3}, {3, 1}};
  graphopt_batch_in1 in1 = {y, y, 0, {2, 3}, {3, 1}};
  call("two rows", &in0, &in1);

  in0.sizes[0] = in1.sizes[0] = 1;
  call("one row", &in0, &in1);

  in0.sizes[0] = in1.sizes[0] = 0;
  call("no rows", &in0, &in1);

  graphopt_batch_in1 short_y = {y, y, 0, {1, 3}, {3, 1}};
  in0.sizes[0] = 2;
  call("rows differ", &in0, &short_y);

  graphopt_batch_in0 wide = {x, x, 0, {1, 6}, {6, 1}};
  call("static dim", &wide, &in1);

  graphopt_batch_in0 strided = {x, x, 0, {2, 3}, {4, 1}};
  call("strides", &strided, &in1);

  graphopt_batch_in0 shifted = {x, x, 1, {2, 3}, {3, 1}};
  call("offset", &shifted, &in1);

  graphopt_batch_in0 null = {NULL, NULL, 0, {2, 3}, {3, 1}};
  call("no buffer", &null, &in1);

  graphopt_batch_in0 negative = {x, x, 0, {-2, 3}, {3, 1}};
  call("negative", &negative, &in1);

  /* Sizes whose product does not fit an int64_t (and no buffer behind). */
  graphopt_batch_in0 huge = {NULL, NULL, 0, {INT64_MAX / 2, 3}, {3, 1}};
  call("huge", &huge, &in1);

  call("null input", &in0, NULL);
  return 0;
}
