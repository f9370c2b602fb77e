// RUN: graph-opt %s --split-input-file --graph-gpu-launch-to-loops --verify-diagnostics

// What the emulation cannot run is an error naming the reason.

// A barrier under a branch (threads could disagree on reaching it).
func.func @barrier_in_branch(%x: memref<64xf32>, %p: i1) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{cannot emulate this kernel: a barrier, mma.sync, ldmatrix or shuffle is inside a branch or a loop other than scf.for}}
    scf.if %p {
      gpu.barrier
    }
    gpu.terminator
  }
  return
}

// -----

// Collective reductions are not emulated.
func.func @all_reduce(%x: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  // expected-error @+1 {{cannot emulate this kernel: it has collective reductions besides barriers}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<64xf32>
    %s = gpu.all_reduce add %v uniform {} : (f32) -> f32
    gpu.barrier
    memref.store %s, %x[%tx] : memref<64xf32>
    gpu.terminator
  }
  return
}

// -----

// The threads of a block are loops: blockDim must be constant.
func.func @dynamic_block(%x: memref<64xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{cannot emulate this kernel: its block size is not constant}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
    gpu.barrier
    gpu.terminator
  }
  return
}

// -----

// A memref value made per thread (not recomputable) cannot cross a barrier.
func.func @memref_across_barrier(%x: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c0 = arith.constant 0 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{a value of this type cannot be kept per thread across a barrier}}
    %a = memref.alloca() : memref<4xf32>
    gpu.barrier
    %v = memref.load %a[%c0] : memref<4xf32>
    memref.store %v, %x[%tx] : memref<64xf32>
    gpu.terminator
  }
  return
}

// -----

// ldmatrix's registers must be read by vector.extract at constant
// positions (the emulation keeps each per thread).
func.func @ldmatrix_whole(%x: memref<32x16xbf16>, %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %s = memref.alloca() : memref<32x16xbf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{cannot emulate this ldmatrix: a result is used other than by vector.extract of a register or an element at a constant position}}
    %m = nvgpu.ldmatrix %s[%tx, %c0] {numTiles = 4 : i32, transpose = false} : memref<32x16xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
    %v = vector.extract %m[%i] : vector<2xbf16> from vector<4x2xbf16>
    vector.store %v, %x[%tx, %c0] : memref<32x16xbf16>, vector<2xbf16>
    gpu.terminator
  }
  return
}
