/*===- graphopt-c/GraphOpt.h - C API of libGraphOpt.so ------------*- C -*-===*\
|*                                                                            *|
|* A small, stable C interface over the compiler and the CPU runtime, for     *|
|* language bindings (the `graphopt` Python package calls it with ctypes).    *|
|* Debian's MLIR ships no Python bindings; this is all the package needs.     *|
|*                                                                            *|
|* Ownership: every pointer returned by a graphopt_* function is released    *|
|* with the matching graphopt_*_destroy / graphopt_string_free. Errors are    *|
|* returned as malloc'ed strings through `char **error` (never NULL on        *|
|* failure); they carry the MLIR diagnostics, with locations.                 *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef GRAPHOPT_C_GRAPHOPT_H
#define GRAPHOPT_C_GRAPHOPT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Element types. I1 is one byte per element (0 or 1), like NumPy's bool. */
enum graphopt_dtype {
  GRAPHOPT_F32 = 0,
  GRAPHOPT_F16 = 1,
  GRAPHOPT_BF16 = 2,
  GRAPHOPT_I1 = 3,
  GRAPHOPT_I32 = 4,
  GRAPHOPT_I64 = 5,
  GRAPHOPT_F64 = 6,
  GRAPHOPT_I8 = 7,
  GRAPHOPT_I16 = 8,
  GRAPHOPT_U8 = 9,
  GRAPHOPT_U16 = 10,
  GRAPHOPT_U32 = 11,
  GRAPHOPT_U64 = 12,
  /* The 8-bit floats (storage types: one byte per element, the value's
     bits; see docs/Dialects/Graph.md). */
  GRAPHOPT_F8E4M3FN = 13,
  GRAPHOPT_F8E5M2 = 14,
  GRAPHOPT_F8E4M3FNUZ = 15,
  GRAPHOPT_F8E5M2FNUZ = 16,
};

/* A dense, contiguous, row-major tensor. */
typedef struct graphopt_tensor {
  int32_t dtype;
  int32_t rank;
  const int64_t *shape; /* `rank` entries; -1 marks a dynamic dim in signatures */
  void *data;
} graphopt_tensor;

typedef struct graphopt_program graphopt_program;
typedef struct graphopt_results graphopt_results;
typedef struct graphopt_call graphopt_call;

/* "0.1.0" */
const char *graphopt_version(void);

/* The compile pipeline's options with their defaults, "{name=value ...}"
 * (static storage). */
const char *graphopt_pipeline_options(void);

void graphopt_string_free(char *s);

/* The 128-bit xxh3 hash of `size` bytes at `data`, in out[0] (low half)
 * and out[1] (high half): what the compile cache hashes constants with,
 * ~10 GB/s. */
void graphopt_hash128(const void *data, size_t size, uint64_t out[2]);

/* The compile cache's directory as the environment sets it
 * (docs/CompileCache.md): GRAPHOPT_CACHE_DIR, else $XDG_CACHE_HOME/graphopt,
 * else ~/.cache/graphopt; NULL when the cache is off. Free with
 * graphopt_string_free. */
char *graphopt_cache_directory(void);

/* Frees the buffers the runtime keeps for reuse between calls (blocks of
 * 64 KiB or more freed by compiled code); returns the bytes released. */
size_t graphopt_release_cached_memory(void);

/* Parses and verifies `mlir_text`, runs the textual pass pipeline
 * `pipeline` (graph-opt syntax, e.g. "builtin.module(graph-optimize)"; empty:
 * none) and returns the printed module, or NULL and sets *error. With
 * `debug_locations` nonzero the output keeps its locations. */
char *graphopt_transform(const char *mlir_text, const char *pipeline,
                         int debug_locations, char **error);

/* Compiles function `entry` of `mlir_text` for the host CPU or a GPU.
 * `options` is a space-separated list of key=value pairs. The runner's:
 *   compile-only=0|1 compile without preparing to run (no GPU needed for
 *                    target=cuda); running the program is then an error
 *   cuda-emulate=0|1 with target=cuda, a testing aid: run the CUDA
 *                    pipeline's generic kernels as loops on the CPU
 *   opt-level=0..3   LLVM optimization level;  timing=0|1
 *   object-file=F.o  also write an AOT object;  dump-llvm-ir=F.ll
 *   header-file=F.h  with object-file: its C header (checked call)
 *   weights-file=F   with object-file (CPU): the weights go to this file
 *   compile-threads=N  CPU JIT: threads for LLVM code generation (0: cores)
 *   shared-libs=A.so,B.so  libraries providing fusion.custom_call kernels
 *   specialize=SHAPES  fixes the argument shapes before compiling, SHAPES
 *                      being one entry per argument separated by ';', each
 *                      dims joined by 'x' ("1x3x224x224;7"); "" for rank 0.
 * Every other key is an option of the compile pipeline, by its name
 * (graphopt_pipeline_options lists them): target=cpu|cuda, optimize,
 * fuse-elementwise, flash-attention, vectorize, vector-width, chip
 * (default: the GPU's own), fusion-report=FILE, ...; an unknown name is an
 * error.
 * Returns NULL and sets *error on failure. */
graphopt_program *graphopt_compile(const char *mlir_text, const char *entry,
                                   const char *options, char **error);

/* The data of a `dense_resource<name>` constant of the module, given out of
 * band: `size` bytes of raw little-endian elements (the tensor's size
 * exactly; i1: one byte per element). */
typedef struct graphopt_constant_data {
  const char *name;
  const void *data;
  int64_t size;
} graphopt_constant_data;

/* graphopt_compile, with the data of the module's `dense_resource<NAME>`
 * constants given by NAME instead of printed into the text (large weights:
 * no hex text to print and parse). The data is read during this call only
 * (copied into the compiled program). A dense_resource constant that
 * neither these nor the text's `dialect_resources` section give data for is
 * an error naming it. */
graphopt_program *graphopt_compile_with_constants(
    const char *mlir_text, const char *entry, const char *options,
    const graphopt_constant_data *constants, int num_constants, char **error);
void graphopt_program_destroy(graphopt_program *program);

int graphopt_program_num_inputs(const graphopt_program *program);
int graphopt_program_num_outputs(const graphopt_program *program);
/* Signature of input/output `i` (data is NULL; the shape stays owned by the
 * program). */
graphopt_tensor graphopt_program_input(const graphopt_program *program, int i);
graphopt_tensor graphopt_program_output(const graphopt_program *program, int i);
/* Seconds spent lowering (MLIR pipeline) and in LLVM code generation. */
double graphopt_program_lower_seconds(const graphopt_program *program);
double graphopt_program_codegen_seconds(const graphopt_program *program);
/* What the compile cache did for this program: 0 off (or not applicable:
 * CUDA, ahead-of-time output), 1 hit (codegen seconds are the load), 2
 * stored, 3 compiled but not stored. */
int graphopt_program_cache_status(const graphopt_program *program);

/* Runs the program. Inputs are only read. Returns NULL and sets *error when
 * the inputs do not match the signature (the message names the input and
 * the dim) or the run fails. */
graphopt_results *graphopt_program_run(graphopt_program *program,
                                       int num_inputs,
                                       const graphopt_tensor *inputs,
                                       char **error);
/* Runs the program and copies its results into `outputs` (caller-owned
 * buffers, one per result, whose dtype, rank and shape must be the
 * results'). Saves allocating a results object when the result shapes are
 * known in advance (static signatures). Returns 1 on success; 0 with
 * *error set when the inputs do not match or the run fails; -1 with *error
 * set when an output buffer does not match its result (nothing is written
 * then; use graphopt_program_run). */
int graphopt_program_run_into(graphopt_program *program, int num_inputs,
                              const graphopt_tensor *inputs, int num_outputs,
                              const graphopt_tensor *outputs, char **error);

/* Runs a CUDA program on device memory, with no copy through the host:
 * inputs[i].data and outputs[i].data are device pointers (a CUdeviceptr,
 * e.g. torch.Tensor.data_ptr() of a contiguous CUDA tensor) of
 * contiguous, 16-byte aligned buffers on the program's device; the
 * outputs are shaped as the results, which must have static shapes. The
 * work goes to `stream` (a CUstream of that device, e.g. PyTorch's
 * current stream, or CU_STREAM_LEGACY for the legacy default stream;
 * NULL: the runtime's own stream, which does not wait for other streams),
 * after what was queued there, and is complete on return. Returns 1 on success; 0 with *error
 * set when the inputs do not match, the run fails or the program is for
 * the CPU; -1 with *error set when an output does not match its result
 * (nothing is run then). */
int graphopt_program_run_device(graphopt_program *program, int num_inputs,
                                const graphopt_tensor *inputs, int num_outputs,
                                const graphopt_tensor *outputs, void *stream,
                                char **error);

/* A call prepared once for inputs of fixed shapes, then run with only the
 * data pointers (the cheapest way to call a program many times: no
 * checks, descriptors or allocations per call beyond the program's own).
 * For CPU programs whose results have static shapes. `inputs` and
 * `outputs` give the dtypes and shapes (their data is not read), checked as
 * graphopt_program_run checks them; NULL with *error set on a mismatch.
 * The call refers to the program: destroy it first. */
graphopt_call *
graphopt_program_prepare_call(graphopt_program *program, int num_inputs,
                              const graphopt_tensor *inputs, int num_outputs,
                              const graphopt_tensor *outputs, char **error);
/* Runs a prepared call. `data` holds the inputs' data pointers, then the
 * outputs': contiguous buffers shaped as prepared. Returns 1 on success,
 * 0 with *error set when the run fails. Calls of one program may not run
 * concurrently. */
int graphopt_call_run(graphopt_call *call, void *const *data, char **error);
void graphopt_call_destroy(graphopt_call *call);

int graphopt_results_count(const graphopt_results *results);
/* Result `i`; its data and shape stay valid until graphopt_results_destroy. */
graphopt_tensor graphopt_results_get(const graphopt_results *results, int i);
void graphopt_results_destroy(graphopt_results *results);

#ifdef __cplusplus
}
#endif

#endif /* GRAPHOPT_C_GRAPHOPT_H */
