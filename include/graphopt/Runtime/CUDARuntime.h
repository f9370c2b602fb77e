/*===- CUDARuntime.h - graphopt's CUDA runtime library -----------*- C -*-===*\
|*                                                                            *|
|* libGraphOptCUDARuntime.so: the small library that code compiled for the   *|
|* CUDA target calls, over the CUDA driver API. It is built only when the    *|
|* CUDA toolkit is found, and opens the driver (libcuda.so.1) at run time:   *|
|* loading it never fails on a machine without a GPU, the first call reports *|
|* that instead.                                                              *|
|*                                                                            *|
|* Two interfaces:                                                            *|
|*  - the `mgpu*` functions that MLIR's gpu-to-llvm lowering and the         *|
|*    gpu.binary embedding call (module load, kernel launch, streams,        *|
|*    device memory, copies); their signatures are fixed by MLIR;            *|
|*  - the `graphoptCuda*` functions below, for hosts (graph-run, AOT         *|
|*    programs): device buffers, copies, events, and the error state.        *|
|*                                                                            *|
|* Errors: the `mgpu*` ABI has no error returns. The first failing driver    *|
|* call records a sticky error (the CUDA error name, its description, the    *|
|* driver call and the last kernel launched) and prints it to stderr; from   *|
|* then on launches and copies are skipped, so a failure never turns into    *|
|* a crash or silently wrong output. Hosts check graphoptCudaGetError()      *|
|* after each call of compiled code.                                          *|
|*                                                                            *|
|* All work goes to one stream per process (mgpuStreamCreate returns it and  *|
|* mgpuStreamDestroy keeps it), so events recorded around a call of compiled *|
|* code time exactly its kernels and copies. A host thread may put its calls *|
|* on a stream of its own instead (graphoptCudaSetStream): then they are     *|
|* ordered after the work it queued there (inputs a framework wrote on it).  *|
\*===----------------------------------------------------------------------===*/

#ifndef GRAPHOPT_RUNTIME_CUDARUNTIME_H
#define GRAPHOPT_RUNTIME_CUDARUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Opens the driver and makes device `device`'s primary context current
 * (`device` < 0: GRAPHOPT_CUDA_DEVICE from the environment, else 0).
 * Returns 0 on success; otherwise nonzero with the error available from
 * graphoptCudaGetError(). Every other function calls it on first use with
 * -1. The runtime uses one device per process: once started, later calls
 * keep the first device (hosts compare graphoptCudaGetDevice()). */
int graphoptCudaInit(int device);

/* The ordinal of the device the runtime started on, or -1 before it has
 * started. */
int graphoptCudaGetDevice(void);

/* Chooses the driver library the runtime opens when it starts: `path` (the
 * emulated driver, libGraphOptCUDAEmulator.so, for --cuda-emulate), or
 * libcuda.so.1 for NULL or "". Overrides GRAPHOPT_CUDA_DRIVER. Call it
 * before anything else starts the runtime; returns 0, or 1 when the runtime
 * has already started with another driver (one driver per process). */
int graphoptCudaUseDriver(const char *path);

/* The driver library this process uses ("libcuda.so.1", the library
 * graphoptCudaUseDriver chose, or the one GRAPHOPT_CUDA_DRIVER names), or
 * NULL before the runtime has started. */
const char *graphoptCudaDriverPath(void);

/* The sticky error ("CUDA_ERROR_NO_DEVICE (no CUDA-capable device is
 * detected) in cuInit"), or NULL when none occurred. */
const char *graphoptCudaGetError(void);
/* Forgets the sticky error (the device may still be unusable). */
void graphoptCudaClearError(void);
/* Whether errors are also printed to stderr when they occur (default 1;
 * hosts that report graphoptCudaGetError() themselves turn it off). */
void graphoptCudaSetErrorPrinting(int enabled);

/* Device name and compute capability (major*10+minor, e.g. 90), or 0. */
int graphoptCudaGetDeviceName(char *buffer, size_t size);
int graphoptCudaGetComputeCapability(void);

/* Device memory on the calling thread's stream; NULL on failure (error
 * set). */
void *graphoptCudaMalloc(size_t bytes);
void graphoptCudaFree(void *ptr);
/* Synchronous copies (the stream is drained first). Return 0 on success. */
int graphoptCudaCopyToDevice(void *dst, const void *src, size_t bytes);
int graphoptCudaCopyToHost(void *dst, const void *src, size_t bytes);
/* A copy between two device buffers, on the calling thread's stream,
 * complete on return. Returns 0 on success. */
int graphoptCudaCopyOnDevice(void *dst, const void *src, size_t bytes);
/* Waits for all work on the calling thread's stream. Returns 0 on
 * success. */
int graphoptCudaSynchronize(void);

/* The stream (a CUstream) the calling thread's later work goes to: compiled
 * code (its kernels, allocations, copies and the constants it uploads), the
 * copies, allocations and events of this API. NULL: the runtime's own
 * stream (the default). Compiled code runs in order on the stream, after
 * what the caller queued there before, and waits for it before returning;
 * the stream must belong to the runtime's device and context and outlive
 * the calls made on it. Per thread. */
void graphoptCudaSetStream(void *stream);
/* The stream the calling thread's work goes to (the runtime's own unless
 * graphoptCudaSetStream chose one); NULL before the runtime has started. */
void *graphoptCudaGetStream(void);

/* Constants of compiled code are uploaded to the device on first use and
 * cached by host address. Constants up to 64 KiB are checked against a copy
 * of their bytes on each use, so a reused address never serves another
 * program's data; a host that frees the memory of a larger constant calls
 * graphoptCudaForgetConstant first. graphoptCudaClearConstants frees every
 * cached copy (only when no compiled code runs). */
void graphoptCudaForgetConstant(const void *host);
void graphoptCudaClearConstants(void);

/* Events on the calling thread's stream, for timing. */
void *graphoptCudaEventCreate(void);
void graphoptCudaEventDestroy(void *event);
void graphoptCudaEventRecord(void *event);
/* Milliseconds between two recorded events (waits for `stop`); < 0 on
 * error. */
float graphoptCudaEventElapsedMs(void *start, void *stop);

#ifdef __cplusplus
}
#endif

#endif /* GRAPHOPT_RUNTIME_CUDARUNTIME_H */
