// The f16 and bf16 tensor-core matmuls in SASS (ptxas for sm_90, then nvdisasm): the
// A and B tiles travel global -> shared by LDGSTS (cp.async), the copies of
// a tile issued two K steps before the HMMAs that read it, with no register
// staging (no LDG at all: the epilogue reads only shared memory). Before
// cp.async the next tile's global loads landed after the last HMMA of a
// step and were stored to shared within a few instructions, so every step
// paid the global latency (issue 16). Nothing here has run on a GPU.
// REQUIRES: nvdisasm
// RUN: graph-opt %s --graph-cuda-pipeline=lower-host=false | %python %graphopt_src/test/lib/ptxas_check.py --chip sm_90 --sass | FileCheck %s
// The same two products for sm_90a take the Hopper wgmma kernel (256
// threads, 128x128x64 blocks), its tiles copied by TMA: thread 0 (ELECT
// picks one lane of the warp that takes the branch) initializes the three
// stages' mbarriers (SYNCS.EXCH.64), then for tiles 0 and 1 arms the
// stage's barrier with its bytes (SYNCS.ARRIVE.TRANS64) and issues the
// tensor copies (UTMALDG.2D: one box of A, two of MN-major B); per K step
// every thread waits on the stage's barrier phase
// (SYNCS.PHASECHK.TRANS64.TRYWAIT, NANOSLEEP between tries), the block
// barrier frees the stage read a step before, thread 0 issues the tile two
// steps ahead, then four HGMMA.64x128x16 read both operands from shared
// memory by descriptor (gdesc; B stored [K, N] is MN-major, `.tnspB`),
// chained on the same 64 accumulator registers, and the warpgroup waits.
// No thread but one computes a copy address: no LDGSTS, no LDG, no
// fragment loads (LDSM); at most 127 registers, no spills, and no ptxas
// warning (such as wgmma serialization; test/lib/ptxas_check.py prints
// them).
// RUN: graph-opt %s --graph-cuda-pipeline="chip=sm_90a lower-host=false" | %python %graphopt_src/test/lib/ptxas_check.py --chip sm_90a --sass | FileCheck %s --check-prefix=WGMMA
// WGMMA: SASS f16_kernel
// WGMMA-NOT: {{[[:space:]]LDG|LDSM}}
// WGMMA: SYNCS.EXCH.64 URZ, [[[BAR0:UR[0-9]+]]+0x18000]
// WGMMA: SYNCS.EXCH.64 URZ, [[[BAR0]]+0x18008]
// WGMMA: SYNCS.EXCH.64 URZ, [[[BAR0]]+0x18010]
// WGMMA: SYNCS.ARRIVE.TRANS64 RZ, [[[BAR0]]+0x18000]
// WGMMA: UTMALDG.2D
// WGMMA: UTMALDG.2D
// WGMMA: UTMALDG.2D
// WGMMA: SYNCS.ARRIVE.TRANS64 RZ, [[[BAR0]]+0x18008]
// WGMMA: UTMALDG.2D
// WGMMA: UTMALDG.2D
// WGMMA: UTMALDG.2D
// WGMMA: BAR.SYNC
// WGMMA: SYNCS.PHASECHK.TRANS64.TRYWAIT
// WGMMA: BAR.SYNC
// WGMMA: SYNCS.ARRIVE.TRANS64
// WGMMA: UTMALDG.2D
// WGMMA: WARPGROUP.ARRIVE
// WGMMA: HGMMA.64x128x16.F32 [[ACC:R[0-9]+]], gdesc[{{UR[0-9]+}}].tnspB,
// WGMMA-NOT: {{[[:space:]]LDG|LDSM}}
// WGMMA: HGMMA.64x128x16.F32 [[ACC]], gdesc[{{UR[0-9]+}}].tnspB, [[ACC]]
// WGMMA-NOT: {{[[:space:]]LDG|LDSM}}
// WGMMA: HGMMA.64x128x16.F32 [[ACC]], gdesc[{{UR[0-9]+}}].tnspB, [[ACC]]
// WGMMA-NOT: {{[[:space:]]LDG|LDSM}}
// WGMMA: HGMMA.64x128x16.F32 [[ACC]], gdesc[{{UR[0-9]+}}].tnspB, [[ACC]], gsb0
// WGMMA: WARPGROUP.DEPBAR.LE gsb0, 0x0
// WGMMA-NOT: {{[[:space:]]LDG|LDSM}}
// WGMMA: NANOSLEEP.SYNCS
// WGMMA-NOT: {{[[:space:]]LDG|LDSM}}
// WGMMA-NOT: {{WARNING|Performance Loss}}
// WGMMA: KERNEL f16_kernel/f16_kernel sm_90a: {{[0-9]|[1-9][0-9]|1[01][0-9]|12[0-7]}} registers, 0 bytes spill stores, 0 bytes spill loads
// WGMMA: SASS bf16_kernel
// WGMMA-NOT: {{[[:space:]]LDG|LDSM}}
// WGMMA: UTMALDG.2D
// WGMMA: HGMMA.64x128x16.F32.BF16 {{R[0-9]+}}, gdesc[{{UR[0-9]+}}].tnspB,
// WGMMA-NOT: {{[[:space:]]LDG|LDSM}}
// WGMMA-NOT: {{WARNING|Performance Loss}}
// WGMMA: KERNEL bf16_kernel/bf16_kernel sm_90a: {{[0-9]|[1-9][0-9]|1[01][0-9]|12[0-7]}} registers, 0 bytes spill stores, 0 bytes spill loads
// With tma=false the wgmma kernel's stages are cp.async copies: LDGSTS
// stages, then per K step the wait, the proxy fence (FENCE.VIEW.ASYNC.S),
// the barrier, the copies of the tile two steps ahead, the four HGMMA.
// RUN: graph-opt %s --graph-cuda-pipeline="chip=sm_90a tma=false lower-host=false" | %python %graphopt_src/test/lib/ptxas_check.py --chip sm_90a --sass | FileCheck %s --check-prefix=CPASYNC
// CPASYNC: SASS f16_kernel
// CPASYNC-NOT: {{LDG\.E|LDSM|UTMALDG}}
// CPASYNC: LDGSTS.E.BYPASS.128
// CPASYNC: LDGDEPBAR
// CPASYNC: LDGSTS.E.BYPASS.128
// CPASYNC: LDGDEPBAR
// CPASYNC-NOT: {{LDG\.E|LDSM|UTMALDG}}
// CPASYNC: DEPBAR.LE SB0, 0x1
// CPASYNC: FENCE.VIEW.ASYNC.S
// CPASYNC: BAR.SYNC
// CPASYNC: LDGSTS.E.BYPASS.128
// CPASYNC: WARPGROUP.ARRIVE
// CPASYNC-COUNT-4: HGMMA.64x128x16.F32
// CPASYNC: WARPGROUP.DEPBAR.LE gsb0, 0x0
// CPASYNC-NOT: {{LDG\.E|LDSM|UTMALDG}}
// CPASYNC: KERNEL f16_kernel/f16_kernel sm_90a: {{[0-9]|[1-9][0-9]|1[01][0-9]|12[0-7]}} registers, 0 bytes spill stores, 0 bytes spill loads

// CHECK: SASS f16_kernel
// CHECK-NOT: LDG.E
// Tiles 0 and 1 in flight before the loop, one group each.
// CHECK: LDGSTS.E.BYPASS.128
// CHECK: LDGDEPBAR
// CHECK: LDGSTS.E.BYPASS.128
// CHECK: LDGDEPBAR
// CHECK-NOT: LDG.E
// A step: wait until one group is pending, barrier, copies of the tile two
// steps ahead, interleaved with the math on the current one.
// CHECK: DEPBAR.LE SB0, 0x1
// CHECK-NOT: LDG.E
// CHECK: BAR.SYNC
// CHECK-NOT: LDG.E
// CHECK: LDGSTS.E.BYPASS.128
// CHECK-NOT: LDG.E
// ptxas gives the WMMA fragment loads ldmatrix (LDSM; transposed, MT88,
// for B's k-major tile).
// CHECK: LDSM.16.M88.4
// CHECK: LDSM.16.MT88.4
// CHECK-NOT: LDG.E
// CHECK: HMMA.16816.F32
// CHECK-NOT: LDG.E
// CHECK: LDGDEPBAR
// CHECK-NOT: LDG.E
// CHECK: HMMA.16816.F32
// CHECK-NOT: LDG.E
// CHECK: KERNEL f16_kernel/f16_kernel sm_90: {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads
func.func @f16(%x: tensor<256x256xf16>, %w: tensor<256x256xf16>) -> tensor<256x256xf16> {
  %m = graph.matmul %x, %w : tensor<256x256xf16>, tensor<256x256xf16> -> tensor<256x256xf16>
  return %m : tensor<256x256xf16>
}

// bf16 (mma.sync) the same way: LDGSTS stages issued two K steps ahead,
// fragments by LDSM (A's plain, k-major B's transposed) straight into the
// HMMAs (ptxas hoists the first K step's LDSMs above the loop's wait and
// barrier); no global load into registers and no shared store at all (the
// register-staged kernel before it stored B transposed, 16 STS.U16 per
// step, and read fragments by 32-bit LDS). The epilogue stores from
// registers.
// CHECK: SASS bf16_kernel
// CHECK-NOT: {{LDG\.E|[[:space:]]STS}}
// CHECK: LDGSTS.E.BYPASS.128
// CHECK-NOT: {{LDG\.E|[[:space:]]STS}}
// CHECK: LDGDEPBAR
// CHECK-NOT: {{LDG\.E|[[:space:]]STS}}
// CHECK: LDGSTS.E.BYPASS.128
// CHECK-NOT: {{LDG\.E|[[:space:]]STS}}
// CHECK: LDGDEPBAR
// CHECK-NOT: {{LDG\.E|[[:space:]]STS}}
// CHECK: LDSM.16.M88.4
// CHECK-NOT: {{LDG\.E|[[:space:]]STS}}
// CHECK: LDSM.16.MT88.4
// CHECK-NOT: {{LDG\.E|[[:space:]]STS}}
// CHECK: HMMA.16816.F32.BF16
// CHECK-NOT: {{LDG\.E|[[:space:]]STS}}
// CHECK: DEPBAR.LE SB0, 0x1
// CHECK-NOT: {{LDG\.E|[[:space:]]STS}}
// CHECK: BAR.SYNC
// CHECK-NOT: {{LDG\.E|[[:space:]]STS}}
// CHECK: LDGSTS.E.BYPASS.128
// CHECK-NOT: {{LDG\.E|[[:space:]]STS}}
// CHECK: HMMA.16816.F32.BF16
// CHECK-NOT: {{LDG\.E|[[:space:]]STS}}
// CHECK: KERNEL bf16_kernel/bf16_kernel sm_90: {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads
func.func @bf16(%x: tensor<256x256xbf16>, %w: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
  %m = graph.matmul %x, %w : tensor<256x256xbf16>, tensor<256x256xbf16> -> tensor<256x256xbf16>
  return %m : tensor<256x256xbf16>
}
