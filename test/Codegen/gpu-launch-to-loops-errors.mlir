// RUN: graph-opt %s --graph-gpu-launch-to-loops --verify-diagnostics

// Threads that communicate cannot be emulated by loops: an error.
func.func @barrier(%x: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{cannot emulate a kernel whose threads communicate}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.barrier
    gpu.terminator
  }
  return
}
