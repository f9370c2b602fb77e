// The host-side passes of the CUDA pipeline, one at a time.
// RUN: graph-opt %s --split-input-file --graph-gpu-copies-to-linalg | FileCheck %s --check-prefix=COPY
// RUN: graph-opt %s --split-input-file --graph-gpu-tile-parallel-loops --graph-gpu-simplify-tile-bounds | FileCheck %s --check-prefix=TILE
// RUN: graph-opt %s --split-input-file --graph-gpu-serial-kernels | FileCheck %s --check-prefix=SERIAL
// RUN: graph-opt %s --split-input-file --graph-gpu-launch-to-loops | FileCheck %s --check-prefix=EMU

// A copy out of a strided view becomes a kernel (linalg.copy); a copy of a
// whole contiguous buffer stays a memref.copy (gpu.memcpy later).
// COPY-LABEL: func.func @copies
// COPY: linalg.copy ins(%{{.*}} : memref<2x2xf32, strided<[4, 1]>>) outs(%{{.*}} : memref<2x2xf32>)
// COPY: memref.copy %{{.*}}, %{{.*}} : memref<4x4xf32> to memref<4x4xf32>
func.func @copies(%x: memref<4x4xf32>, %y: memref<2x2xf32>, %z: memref<4x4xf32>) {
  %s = memref.subview %x[0, 0] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1]>>
  memref.copy %s, %y : memref<2x2xf32, strided<[4, 1]>> to memref<2x2xf32>
  memref.copy %x, %z : memref<4x4xf32> to memref<4x4xf32>
  return
}

// -----

// 1-D: blocks of 256 threads, the last block guarded. 2-D 100x37: 8 x 32
// threads (x = the innermost dim), 13 x 2 blocks in a 1-D grid of 26,
// delinearized; the guard covers both dims.
// TILE-LABEL: func.func @tile
// TILE-DAG: %[[C256:.+]] = arith.constant 256 : index
// TILE-DAG: %[[C26:.+]] = arith.constant 26 : index
// TILE-DAG: %[[C2:.+]] = arith.constant 2 : index
// TILE-DAG: %[[C8:.+]] = arith.constant 8 : index
// TILE-DAG: %[[C32:.+]] = arith.constant 32 : index
// TILE-DAG: %[[C1000:.+]] = arith.constant 1000 : index
// TILE: scf.parallel (%[[B:.+]]) = (%{{.*}}) to (%[[C1000]]) step (%[[C256]])
// TILE-NEXT: scf.parallel (%[[T:.+]]) = (%{{.*}}) to (%[[C256]])
// TILE: %[[I:.+]] = arith.addi %[[T]], %[[B]]
// TILE: arith.cmpi ult, %{{.*}}, %[[C1000]]
// TILE: scf.parallel (%[[G:.+]]) = (%{{.*}}) to (%[[C26]])
// TILE-NEXT: arith.remsi %[[G]], %[[C2]]
// TILE-NEXT: arith.divsi %[[G]], %[[C2]]
// TILE: scf.parallel (%{{.*}}, %{{.*}}) = (%{{.*}}, %{{.*}}) to (%[[C8]], %[[C32]])
// TILE: arith.andi
// TILE: scf.if
func.func @tile(%x: memref<1000xf32>, %y: memref<100x37xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1000 = arith.constant 1000 : index
  %c100 = arith.constant 100 : index
  %c37 = arith.constant 37 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c1000) step (%c1) {
    memref.store %f, %x[%i] : memref<1000xf32>
    scf.reduce
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c100, %c37) step (%c1, %c1) {
    memref.store %f, %y[%i, %j] : memref<100x37xf32>
    scf.reduce
  }
  return
}

// -----

// Sequential work on tensor data (a 0-d computation, a host loop) runs as
// one one-thread kernel; index arithmetic the host needs (and what it is
// computed from) stays outside.
// SERIAL-LABEL: func.func @serial
// SERIAL: %[[N:.+]] = arith.addi
// SERIAL: %[[ONE:.+]] = arith.constant 1 : index
// SERIAL-NEXT: gpu.launch blocks({{.*}}) in ({{.*}} = %[[ONE]], {{.*}} = %[[ONE]], {{.*}} = %[[ONE]]) threads({{.*}}) in ({{.*}} = %[[ONE]], {{.*}} = %[[ONE]], {{.*}} = %[[ONE]])
// SERIAL: memref.load
// SERIAL: arith.mulf
// SERIAL: memref.store
// SERIAL: scf.for
// SERIAL: gpu.terminator
// SERIAL-NEXT: }
// SERIAL-NEXT: memref.dim %{{.*}}, %[[N]]
func.func @serial(%a: memref<f32>, %b: memref<f32>, %v: memref<8xf32>, %w: memref<?x?xf32>) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %n = arith.addi %c0, %c1 : index
  %x = memref.load %a[] : memref<f32>
  %y = arith.mulf %x, %x : f32
  memref.store %y, %b[] : memref<f32>
  scf.for %i = %c1 to %c8 step %c1 {
    %p = arith.subi %i, %c1 : index
    %e = memref.load %v[%p] : memref<8xf32>
    %f = memref.load %v[%i] : memref<8xf32>
    %s = arith.addf %e, %f : f32
    memref.store %s, %v[%i] : memref<8xf32>
  }
  %d = memref.dim %w, %n : memref<?x?xf32>
  return %d : index
}

// -----

// A host load whose value the host needs cannot move ahead of the stores
// before it: nothing is wrapped (the device-buffer pass then reports it).
// SERIAL-LABEL: func.func @host_needs_load
// SERIAL-NOT: gpu.launch
// SERIAL: return %{{.*}} : f32
func.func @host_needs_load(%a: memref<f32>) -> f32 {
  %one = arith.constant 1.0 : f32
  memref.store %one, %a[] : memref<f32>
  %x = memref.load %a[] : memref<f32>
  return %x : f32
}

// -----

// Emulation: six loops (grid z, y, x, block z, y, x) around the body, the
// ids mapped to their induction variables.
// EMU-LABEL: func.func @emulate
// EMU: scf.for %[[BZ:.+]] = %{{.*}} to %{{.*}}
// EMU: scf.for %[[BY:.+]] = %{{.*}} to %{{.*}}
// EMU: scf.for %[[BX:.+]] = %{{.*}} to %[[GX:.+]] step
// EMU: scf.for %[[TZ:.+]] = %{{.*}} to %{{.*}}
// EMU: scf.for %[[TY:.+]] = %{{.*}} to %{{.*}}
// EMU: scf.for %[[TX:.+]] = %{{.*}} to %[[SX:.+]] step
// EMU: %[[R:.+]] = arith.muli %[[BX]], %[[SX]]
// EMU: %[[I:.+]] = arith.addi %[[R]], %[[TX]]
// EMU: memref.store %{{.*}}, %{{.*}}[%[[I]]]
// EMU-NOT: gpu.
func.func @emulate(%x: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %f = arith.constant 2.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %r = arith.muli %bx, %sx : index
    %i = arith.addi %r, %tx : index
    memref.store %f, %x[%i] : memref<64xf32>
    gpu.terminator
  }
  return
}


// -----

// Ids and sizes read through gpu ops are mapped as well.
// EMU-LABEL: func.func @emulate_id_ops
// EMU: scf.for
// EMU: scf.for
// EMU: scf.for %[[BX:.+]] = %{{.*}} to %[[GX:.+]] step
// EMU: scf.for
// EMU: scf.for
// EMU: scf.for %[[TX:.+]] = %{{.*}} to %[[SX:.+]] step
// EMU: %[[R:.+]] = arith.muli %[[BX]], %[[SX]]
// EMU: %[[I:.+]] = arith.addi %[[R]], %[[TX]]
// EMU: memref.store %{{.*}}, %{{.*}}[%[[I]]]
// EMU-NOT: gpu.
func.func @emulate_id_ops(%x: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %f = arith.constant 2.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %b = gpu.block_id x
    %d = gpu.block_dim x
    %t = gpu.thread_id x
    %r = arith.muli %b, %d : index
    %i = arith.addi %r, %t : index
    memref.store %f, %x[%i] : memref<64xf32>
    gpu.terminator
  }
  return
}

// -----

// A reduction over the outer axis (column sums): the loops are interchanged
// so that the parallel dim is outermost (one kernel, each thread reducing
// its column) instead of a host loop of kernel launches.
// RUN: graph-opt %s --split-input-file --graph-gpu-parallel-dims-first | FileCheck %s --check-prefix=ORDER
// ORDER: #[[IN:.+]] = affine_map<(d0, d1) -> (d1, d0)>
// ORDER: #[[OUT:.+]] = affine_map<(d0, d1) -> (d0)>
// ORDER-LABEL: func.func @column_sums
// ORDER: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "reduction"]}
// ORDER-LABEL: func.func @row_sums
// ORDER: iterator_types = ["parallel", "reduction"]
func.func @column_sums(%x: memref<64x512xf32>, %y: memref<512xf32>) {
  linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (c)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<64x512xf32>) outs(%y : memref<512xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}
func.func @row_sums(%x: memref<64x512xf32>, %y: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>, affine_map<(r, c) -> (r)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x512xf32>) outs(%y : memref<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}
