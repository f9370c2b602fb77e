/* Runs a model compiled ahead of time, in C, through the context API of its
 * generated header (docs/AOT.md): no compiler, LLVM or Python at run time.
 *
 *   graph-run model.mlir --compile-only --emit-object=model.o \
 *       --emit-header=model.h --emit-weights=model.weights
 *   cc -O2 -I. -I<graphopt>/examples/deploy -DMODEL_HEADER='"model.h"' \
 *       run_model.c model.o -lm -o run_model
 *   ./run_model --weights model.weights --out y.npy x.npy
 *
 * The model's entry must be called `main` (graph-run's default). Inputs and
 * outputs are .npy files; --repeat N times N calls and prints ms per call.
 * A bad input (wrong count, type, rank or dim) prints the context's error
 * and exits 1. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include MODEL_HEADER
#include "npy.h"

#include <time.h>

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  const char *weights = NULL;
  const char *outs[GRAPHOPT_MAIN_NUM_OUTPUTS + 1] = {0};
  npy_array ins[GRAPHOPT_MAIN_NUM_INPUTS + 1];
  /* (outputs past --out's count are computed, not written) */
  graphopt_aot_tensor in_tensors[GRAPHOPT_MAIN_NUM_INPUTS + 1];
  graphopt_aot_tensor out_tensors[GRAPHOPT_MAIN_NUM_OUTPUTS + 1];
  size_t num_in = 0, num_out = 0, k;
  int repeat = 0, i, status, exit_code = 0;
  char msg[512];
  graphopt_main_context *ctx = NULL;
  for (i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--weights") && i + 1 < argc)
      weights = argv[++i];
    else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
      repeat = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
      if (num_out == GRAPHOPT_MAIN_NUM_OUTPUTS) {
        fprintf(stderr, "the model has %d outputs\n",
                GRAPHOPT_MAIN_NUM_OUTPUTS);
        return 2;
      }
      outs[num_out++] = argv[++i];
    } else {
      /* One more than the model takes is allowed, to show the error. */
      if (num_in > GRAPHOPT_MAIN_NUM_INPUTS || npy_read(argv[i], &ins[num_in]))
        return 2;
      in_tensors[num_in] = ins[num_in].tensor;
      ++num_in;
    }
  }
  status = graphopt_main_context_create(&ctx, weights, msg, sizeof msg);
  if (status != GRAPHOPT_AOT_OK) {
    fprintf(stderr, "error: %s\n", msg);
    exit_code = 1;
    goto done;
  }
  status = graphopt_main_context_run(ctx, in_tensors, num_in, out_tensors,
                                     GRAPHOPT_MAIN_NUM_OUTPUTS);
  if (status != GRAPHOPT_AOT_OK) {
    fprintf(stderr, "error: %s\n", graphopt_main_context_error(ctx));
    exit_code = 1;
    goto done;
  }
  for (k = 0; k < num_out; ++k)
    if (npy_write(outs[k], &out_tensors[k])) {
      exit_code = 1;
      goto done;
    }
  if (repeat > 0) {
    double start = now_ms();
    for (i = 0; i < repeat; ++i)
      graphopt_main_context_run(ctx, in_tensors, num_in, out_tensors,
                                GRAPHOPT_MAIN_NUM_OUTPUTS);
    printf("%.3f ms per call (%d calls)\n", (now_ms() - start) / repeat,
           repeat);
  }
done:
  graphopt_main_context_destroy(ctx);
  for (k = 0; k < num_in; ++k)
    free(ins[k].data);
  return exit_code;
}
