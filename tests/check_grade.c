#include "suites.h"

#include "judge/job.h"
#include "labs/registry.h"
#include "judge/compiler_recheck.h"
#include "judge/verdict.h"
#include "context.h"
#include "files.h"
#include "timing.h"

#include <cjson/cJSON.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Every wrong kernel in tests/fixtures, and what the grader must say about it. */
static const struct {
    const char *fixture;
    const char *lab;
    const char *expected;
    const char *options; /* extra options, e.g. a case that shows the pattern in full */
} fixtures[] = {
    {"lab1/no-bounds-check", "lab1", "Invalid write of size 4 on global memory in vadd at lab1/vadd.cl:5", ""},
    {"lab1/local-id", "lab1", "only the first work-group (64 elements) is right", ""},
    {"lab1/compile-error", "lab1", "lab1/vadd.cl:2:2: \"this kernel has", ""},
    {"lab1/wrong-name", "lab1", "no kernel named 'vadd' (the name the lab's contract fixes); kernels found: vector_add", ""},
    {"lab1/infinite-loop", "lab1", "\u2717 exact cases      0.0/3", "--timeout 6"}, /* 6: a busy machine still builds it in time */
    {"lab1/crash", "lab1", "crashed with SIGSEGV", ""},
    {"lab2/no-stride-loop", "lab2", "is the grid-stride loop missing?", ""},
    {"lab3/off-by-factor", "lab3", "every element is off by the same factor, 2", "--case 1 --seed 3"},
    {"lab4/no-barrier", "lab4", "\u2717 exact cases", ""},
    {"lab5/transposed-result", "lab5", "the result is the transpose of the right one", ""},
    {"lab6/no-edge-tiles", "lab6", "\u2717 exact cases", ""},
    {"lab1/plus-equals", "lab1", "or only added into it (+= on an output it never set", ""},
    {"lab3/contiguous-chunks", "lab3", "the partial sums add up to the right total, but each is wrong", ""},
    {"lab4/no-barrier", "lab4", "the grid is capped below n, so each work-item needs a grid-stride loop", "-v"},
    {"lab1/float-index", "lab1", "index 16777217: expected", ""},
    {"lab1/writes-input", "lab1", "17 of 17 cases wrote outside a buffer or changed an input", ""},
    /* Host-program mutants, each beside the solution's kernel. */
    {"host/cpu-add", "lab1", "which computes something else, it did not write that kernel's result", ""},
    {"host/no-round-up", "lab1", "hint: the global size must be a multiple of the local size", ""},
    /* Right on a CPU device, which reads past a __local array into memory it owns; Oclgrind sees it everywhere. */
    {"host/local-too-small", "lab4", "Invalid write of size 4 on local memory in dot_local", ""},
    /* The reference judge's verdicts, the same on every device. Its races fail the kernel: the uninitialised-value
       checker's run is saved, and the report does not claim it ran. */
    {"lab6/no-second-barrier", "lab6", "data race on local memory in matmul_tiled at lab6/matmul_tiled.cl:", ""},
    {"lab6/no-second-barrier", "lab6", "uninitialised values not looked for: the problems above come first", ""},
    {"lab6/global-fence", "lab6", "\u2717 memory safety    0.0/2    Oclgrind, the reference judge, found", ""},
    {"lab4/interleaved-tree", "lab4", "\u2713 exact cases      4.0/4", ""},
    {"lab4/divergent-barrier", "lab4", "Work-group divergence detected (barrier) in dot_local at lab4/reduce.cl:", ""},
    {"lab7/write-out-of-bounds", "lab7", "Invalid write of size 4 on global memory in transpose", ""},
    /* Double-buffered with one barrier: races only from the third tile or strip, which the reference judge's
       default sample reaches (its structural cases), with or without the device's luck. */
    {"lab6/double-buffer-race", "lab6", "data race on local memory in matmul_tiled at lab6/matmul_tiled.cl:", ""},
    {"lab7/double-buffer-race", "lab7", "data race on local memory in transpose at lab7/transpose.cl:", ""},
    {"lab8/double-buffer-race", "lab8", "data race on local memory in matmul_reg at lab8/matmul_reg.cl:", ""},
    /* The same race on a path taken at TILE 64 and 128 only (strips of 32 and 16): their structural cases reach a
       third strip along K, in the widest strips each tile can stage. */
    {"lab8/big-tile-race", "lab8", "data race on local memory in matmul_reg at lab8/matmul_reg.cl:", ""},
    /* Mismatch maps of matrix results: a missing edge (the last row of cells never written) and its pattern, and a
       transposed result. */
    {"lab6/skips-partial-tiles", "lab6", "only the edges are wrong, every column from 16 and every row from 16 on", ""},
    {"lab6/skips-partial-tiles", "lab6", "map |ooooooooooooooooo|", ""},
    {"lab5/transposed-result", "lab5", "map of the 16 x 16 result, a cell per 1 x 1 elements", ""},
    /* Lab 9: the halo tile read before the barrier; its load without the image's edge test. */
    {"lab9/no-barrier", "lab9", "data race on local memory in conv2d at lab9/conv2d.cl:", ""},
    /* The halo's corners never loaded: uninitialised local memory, which only the structural case with halos
       meeting between tiles reads (40 x 37, R 1, at TILE 16): the uninitialised-value run's sample keeps it. */
    {"lab9/one-output-no-corners", "lab9", "\u2717 memory safety    0.0/2    Oclgrind, the reference judge, found 1 "
     "problem:\n        Uninitialized value written to global memory in conv2d at lab9/conv2d.cl:", ""},
    {"lab9/no-zero-test", "lab9", "Invalid read of size 4 on global memory in conv2d at lab9/conv2d.cl:", ""},
    /* Lab 10 last (its own case, "lab 10"): a plain ++ on the local bins is right on a device that runs a group's
       work-items in turn; the reference judge names the race. */
    {"lab10/plain-increment", "lab10", "data race on local memory in histogram at lab10/histogram.cl:14", ""},
    {"lab10/no-merge-barrier", "lab10", "data race on local memory in histogram at lab10/histogram.cl:", ""},
    {"lab10/unbounded-bins", "lab10", "Invalid write of size 4 on local memory in histogram", ""},
};

/* Kernels whose verdict is a mark per kernel test, the same on every device: pass (1) or fail (0); -1: the lab has
   no such test. The host program is missing in each, and fails. */
static const struct {
    const char *fixture, *lab;
    int exact, real, memory, technique;
} marked[] = {
    /* From public repositories, adapted to the labs' contracts. */
    {"realworld/ams-nostride", "lab4", 0, 0, 0, 0},        {"realworld/ams-stride", "lab4", 1, 1, 1, 1},
    {"realworld/nv-reduce0", "lab4", 1, 1, 1, 1},          {"realworld/nv-warp-unroll", "lab4", 0, 0, 0, 0},
    {"realworld/oclgrind-lsz", "lab4", 0, 0, 0, 0},        {"realworld/nv-transpose", "lab7", 1, 1, 1, 1},
    {"realworld/nv-simple-transpose", "lab7", 1, 1, 1, 0}, {"realworld/nugteren-gemm2", "lab6", 1, 1, 1, 1},
    {"realworld/tutorial-noguards", "lab6", 0, 0, 0, 0},   {"realworld/hoocl-mmul", "lab5", 1, 1, 1, 1},
    {"realworld/hoocl-vadd", "lab1", 1, 1, 1, -1},         {"realworld/gridstride", "lab2", 1, 1, 1, 1},
    /* Right but slow: a device on which a large case does not finish judges it too slow, not wrong. */
    {"lab2/group-stride", "lab2", 1, 1, 1, 0},             {"lab1/one-work-item", "lab1", 1, 1, 1, -1},
    /* Lab 8: strips loaded without edge checks; TILE and WPT fixed in the source (wrong under the largest
       tiling, which launches fewer work-groups); right, but each product read from local memory; lab 6's kernel
       walking the block one sub-block at a time. */
    {"lab8/no-edge", "lab8", 0, 0, 0, 0},                  {"lab8/fixed-tile", "lab8", 0, 0, 0, 0},
    {"lab8/no-register-blocking", "lab8", 1, 1, 1, 0},     {"lab8/lab6-kernel", "lab8", 1, 1, 1, 0},
    /* Kernels that tell the reference judge from a device (a version macro, an address's bits): refused by the
       source rules, whatever either judge would compute. */
    {"lab1/detects-oclgrind-version", "lab1", 0, 0, 0, -1}, {"lab1/detects-oclgrind-address", "lab1", 0, 0, 0, -1},
    {"lab6/detects-oclgrind-version", "lab6", 0, 0, 0, 0},  {"lab6/detects-oclgrind-address", "lab6", 0, 0, 0, 0},
    /* Undefined behaviour the device shows differently: never taken for the device's compiler's fault. */
    {"lab6/uninitialised-accumulator", "lab6", 0, 0, 0, 0}, {"lab4/return-before-barrier", "lab4", 0, 0, 0, 0},
    /* Right only while the inputs stay within +-64: the real cases reach 2^12. */
    {"lab1/clamps-inputs", "lab1", 1, 0, 0, -1},
    /* Lab 9: no halo, the halo's corners left out, no barrier after the load, no zero test at the edges; right but
       the filter in __global, or the image re-read from global per tap; right with 2-D loops and get_local_size. */
    {"lab9/no-halo", "lab9", 0, 0, 0, 0},                  {"lab9/no-corners", "lab9", 0, 0, 0, 0},
    {"lab9/no-barrier", "lab9", 0, 0, 0, 0},               {"lab9/no-zero-test", "lab9", 0, 0, 0, 0},
    {"lab9/global-filter", "lab9", 1, 1, 1, 0},            {"lab9/naive-constant", "lab9", 1, 1, 1, 0},
    {"lab9/loops-2d", "lab9", 1, 1, 1, 1},
    /* Lab 9 in the classic form, one output a work-item and no use of WPT (graded with WPT 1 only): right, with the
       halo tile; the same without the halo's corners (the reference judge's 40 x 37, R 1 case has corners between
       tiles at TILE 16). */
    {"lab9/one-output", "lab9", 1, 1, 1, 1},               {"lab9/one-output-no-corners", "lab9", 0, 0, 0, 0},
    /* Lab 9 kinds from public repositories (written for the kit): edges clamped where the lab asks for zero; a
       "valid" convolution that takes the width from the grid; right with a tile sized by get_local_size; right and
       naive, every tap from global memory with a zero test. */
    {"realworld/clamp-edges", "lab9", 0, 0, 0, 0},          {"realworld/valid-only", "lab9", 0, 0, 0, 0},
    {"realworld/local-size-tile", "lab9", 1, 1, 1, 1},      {"realworld/naive-zero-test", "lab9", 1, 1, 1, 0},
    /* Right on a device in milliseconds, but a small case does not finish under the reference judge (40 million
       steps of one work-item): the kernel hangs there, whatever a device's compiler made of it (NVIDIA's drops
       lab1/infinite-loop's endless loop): it fails, and never passes as the judge's failure. */
    {"lab9/slow-under-judge", "lab9", 0, 0, 0, 0},
    /* Lab 10 last (its own case, "lab 10"). Bins never zeroed: Oclgrind's fresh local memory holds zeros, so only
       its small cases count and they are right, but it names the uninitialised values; no barrier before the merge;
       a plain ++ on the local bins (a race); bins indexed by work-item, unbounded by nbins; every work-item merging
       every bin (each count once per work-item); right but one global atomic per element; right, work-item 0
       merging its group's bins alone. */
    {"lab10/not-zeroed", "lab10", 1, 0, 0, 0},             {"lab10/no-merge-barrier", "lab10", 0, 0, 0, 0},
    {"lab10/plain-increment", "lab10", 1, 0, 0, 0},        {"lab10/unbounded-bins", "lab10", 0, 0, 0, 0},
    {"lab10/merge-every-item", "lab10", 0, 0, 0, 0},       {"lab10/global-atomics", "lab10", 1, 1, 1, 0},
    {"lab10/merge-by-one", "lab10", 1, 1, 1, 1},
    /* Lab 10 kinds from public repositories (written for the kit): the textbook's privatised histogram, right;
       256 bins fixed in the source; one global atomic per work-item with no grid-stride loop. */
    {"realworld/book-histogram", "lab10", 1, 1, 1, 1},      {"realworld/fixed-256-bins", "lab10", 0, 0, 0, 0},
    {"realworld/one-atomic-per-item", "lab10", 0, 0, 0, 0},
};

/* Lab 11's kernels, each graded once: its marks (as in marked), and what the report must say, "" for nothing more:
   which kernel a wrong result is traced to, or what the reference judge names. */
struct scan_row {
    const char *fixture;
    int exact, real, memory, technique;
    const char *expected;
};

static const struct scan_row scans[] = {
    /* Inclusive: the block scans are wrong, the block totals right. */
    {"lab11/inclusive", 0, 0, 0, 0, "the first wrong step is scan_blocks: out after scan_blocks"},
    /* The block sums scanned but never added: the one-block cases stay right. */
    {"lab11/no-offsets", 0, 0, 0, 0, "the first wrong step is add_offsets: every intermediate buffer before it"},
    /* Each block's total one element short. */
    {"lab11/edge-off-by-one", 0, 0, 0, 0, "the first wrong step is scan_blocks: sums after scan_blocks"},
    {"lab11/no-sweep-barrier", 0, 0, 0, 0, "data race on local memory in scan_blocks at lab11/scan.cl:"},
    /* No bounds: Oclgrind reads past the buffers as zeros (so its small cases are right), and names the reads. */
    {"lab11/block-divides-n", 1, 0, 0, 0, "Invalid read of size 4 on global memory in scan_"},
    /* Right, but Hillis-Steele within each block: 9 additions per element. */
    {"lab11/hillis-steele", 1, 1, 1, 0, "9.00 additions of local values per element"},
    /* Right: adjacent pairs, no padding. */
    {"lab11/adjacent-pairs", 1, 1, 1, 1, ""},
};

/* Public kernels (tests/fixtures/realworld), adapted to the labs' signatures as little as possible, origin and licence
   in each: right ones keep every kernel test, wrong ones fail theirs (a test of their own, "real world", so that it
   can be run alone: CK_RUN_CASE="real world"). */
struct marks_row {
    const char *fixture, *lab;
    int exact, real, memory, technique;
};

static const struct marks_row public_kernels[] = {
    /* Lab 1: PyOpenCL's example without a bound check writes past c. */
    {"realworld/pyopencl-sum", "lab1", 1, 0, 0, -1},
    /* Lab 2: SkelCL's loop by the global size; the grid-stride loop of NVIDIA's blog. */
    {"realworld/skelcl-stride", "lab2", 1, 1, 1, 1},        {"realworld/harris-gridstride", "lab2", 1, 1, 1, 1},
    /* Lab 3: SkelCL's private sums. */
    {"realworld/skelcl-dot", "lab3", 1, 1, 1, -1},
    /* Lab 4: one element per work-item (no grid-stride loop), with and without a bound check, and NVIDIA's first add
       while loading; NVIDIA's reduce1 and OpenCL in Action's tree with a grid-stride load. */
    {"realworld/kravtsun-reduce-lmem", "lab4", 0, 0, 0, 0}, {"realworld/fcl-reduce0", "lab4", 0, 0, 0, 0},
    {"realworld/nv-reduce3-nostride", "lab4", 0, 0, 0, 0},  {"realworld/clfpga-reduce1", "lab4", 1, 1, 1, 1},
    {"realworld/oclinaction-reduction", "lab4", 1, 1, 1, 1},
    /* Lab 5: += into a C never set; myGEMM1 made row-major. */
    {"realworld/diper-mulmatrix", "lab5", 0, 0, 0, 0},      {"realworld/nugteren-gemm1", "lab5", 1, 1, 1, 1},
    /* Lab 6: tiles without edge checks (K / TILE tiles along K); NVIDIA's matrixMul with global fences. */
    {"realworld/diper-mulmatrixopt", "lab6", 0, 0, 0, 0},   {"realworld/hoocl-mmul-block", "lab6", 0, 0, 0, 0},
    {"realworld/gmac-matrixmul", "lab6", 0, 0, 0, 0},
    /* Lab 7: a tile that stages nothing (right values, writes down a column); a padded tile. */
    {"realworld/gpgpucourse-transpose", "lab7", 1, 1, 1, 0}, {"realworld/b1tway-transpose", "lab7", 1, 1, 1, 1},
    /* Lab 7: right, an unpadded tile transposed in place: its edge work-items copy never-written entries, which is
       no use of them (memory safety holds); the technique fails on the tile's bank conflicts. */
    {"realworld/tochilinak-transpose", "lab7", 1, 1, 1, 0},
};

/* Hidden kinds made visible (issues 24, 28, 29): public kernels of labs 2, 3, 8 and 10 adapted to the labs'
   contracts (tests/fixtures/realworld) and hand-made variants of unusual structure (tests/fixtures/labN), each with
   the marks a reading of the kernel gives. A right one that loses a mark here is a grader bug. */
static const struct marks_row kinds[] = {
    /* Lab 2: quads by vload4/vstore4 (one store per quad); a contiguous chunk per work-item (right, one store per
       element; its poor coalescing is speed); the chunk not bounded by n (writes past c). */
    {"lab2/float4-stride", "lab2", 1, 1, 1, 1},             {"lab2/chunked", "lab2", 1, 1, 1, 1},
    {"realworld/chunked-no-bound", "lab2", 1, 0, 0, 0},
    /* Lab 2: a helper's int parameters named like the kernel's pointers, and MIN(x, y) as (x < y ? x : y) used on
       ints: no order of two pointers. */
    {"lab2/shadowed-names", "lab2", 1, 1, 1, 1},              {"lab2/min-macro", "lab2", 1, 1, 1, 1},
    /* Lab 3: Kahan's compensated sum; fma in double (cl_khr_fp64 by pragma); a partial left unwritten when zero. */
    {"lab3/kahan", "lab3", 1, 1, 1, -1},                     {"lab3/fma-double", "lab3", 1, 1, 1, -1},
    {"lab3/skip-zero", "lab3", 0, 0, 0, -1},
    /* Lab 8: myGEMM6 made row-major with edge tests, and as first ported (no edge test); the side read with
       get_local_size; contiguous WPT x WPT squares; helpers, reqd_work_group_size and fma; double-buffered strips
       with one barrier after the multiply (no race); B's strip staged by vload4, and by async_work_group_copy. */
    {"realworld/nugteren-gemm6", "lab8", 1, 1, 1, 1},         {"realworld/nugteren-gemm6-noedge", "lab8", 0, 0, 0, 0},
    {"lab8/runtime-side", "lab8", 1, 1, 1, 1},                {"lab8/contiguous-block", "lab8", 1, 1, 1, 1},
    {"lab8/helpers-reqd", "lab8", 1, 1, 1, 1},                {"lab8/double-buffer-ok", "lab8", 1, 1, 1, 1},
    {"lab8/vector-loads", "lab8", 1, 1, 1, 1},                {"lab8/async-strips", "lab8", 1, 1, 1, 1},
    /* Lab 10: an image kernel (one element per work-item, a return before the barriers); bins zeroed and merged by
       work-item lid alone (nbins above the work-group's size); right with contiguous chunks and runs counted in a
       register, with OpenCL 1.0's atom_ functions, with a contiguous block per work-group; privatised but merged
       with a plain += (a race between work-groups). */
    {"realworld/image-one-per-item", "lab10", 0, 0, 0, 0},   {"realworld/lid-below-nbins", "lab10", 0, 0, 0, 0},
    {"lab10/chunked-runs", "lab10", 1, 1, 1, 1},              {"lab10/atom-ext", "lab10", 1, 1, 1, 1},
    {"lab10/group-block", "lab10", 1, 1, 1, 1},               {"lab10/plain-merge", "lab10", 1, 0, 0, 0},
    /* Lab 10: a compare-and-swap loop from a guess of 0 (right), and from a plain read of the bin beside the other
       work-items' atomics (a data race the reference judge names: its small cases count, the rest does not). */
    {"lab10/cas-zero", "lab10", 1, 1, 1, 1},                  {"lab10/cas-increment", "lab10", 1, 0, 0, 0},
};

/* Lab 11's hidden kinds: GPU Gems 3's prescan with its errata's bank offsets (right) and with the macro as printed
   (two indices to one slot: a write-write race); kwohlfahrt/collision's sweeps (right); NVIDIA oclScan's
   Hillis-Steele over the pairs' sums (right values, not work-efficient); a Blelloch scan of one element per
   work-item (half of each block never scanned); right with named temporaries, helpers and a serial scan_sums; the
   warp-synchronous sweeps without barriers below 32 work-items (a race). */
static const struct scan_row scan_kinds[] = {
    {"realworld/gems3-prescan", 1, 1, 1, 1, ""},
    {"realworld/gems3-erratum", 0, 0, 0, 0, "Write-write data race on local memory in scan_blocks at lab11/scan.cl:"},
    {"realworld/collision-scan", 1, 1, 1, 1, ""},
    {"realworld/nv-oclscan", 1, 1, 1, 0, "4.00 additions of local values per element"},
    {"realworld/jocl-one-per-item", 0, 0, 0, 0, "the first wrong step is scan_blocks"},
    {"lab11/private-temps", 1, 1, 1, 1, ""},
    {"lab11/warp-sync", 0, 0, 0, 0, "data race on local memory in scan_blocks at lab11/scan.cl:"},
};

#define FIXTURE_COUNT ((int)(sizeof fixtures / sizeof fixtures[0]))
#define MARKED_COUNT ((int)(sizeof marked / sizeof marked[0]))

/* Where lab 10's kernels start in each table (they come last), so that they run as a case of their own. */
static int first_fixture_of_lab10(void)
{
    int i = 0;
    while (i < FIXTURE_COUNT && strcmp(fixtures[i].lab, "lab10") != 0)
        i++;
    return i;
}

static int first_marked_of_lab10(void)
{
    int i = 0;
    while (i < MARKED_COUNT && strcmp(marked[i].lab, "lab10") != 0)
        i++;
    return i;
}

#define KIND_COUNT ((int)(sizeof kinds / sizeof kinds[0]))

static int first_kind_of_lab10(void)
{
    int i = 0;
    while (i < KIND_COUNT && strcmp(kinds[i].lab, "lab10") != 0)
        i++;
    return i;
}

/* Host programs whose kernel is right and whose host loses its points: the lab's score, and why. */
static const struct {
    const char *fixture, *lab, *score, *reason;
} host_mistakes[] = {
    /* A queue without CL_QUEUE_PROFILING_ENABLE, named from the event's answer, never from a printed time. */
    {"host/no-profiling", "lab1", "lab1 score: 7.0 / 10", "created without CL_QUEUE_PROFILING_ENABLE"},
    {"host/no-release", "lab1", "lab1 score: 7.0 / 10",
     "never released 1 context, 1 queue, 1 program, 1 kernel, 3 buffers"},
    /* 16 times the work-groups the result needs: right values, 8 x 12 where 2 x 3 do at the lab's size. */
    {"host/grid-not-divided", "lab8", "lab8 score: 12.0 / 14", "8 x 12 work-groups of 16 x 16 work-items where 2 x 3"},
    /* Recognises the probe and writes the old probe's result (a - b) without running OpenCL. */
    {"host/probe-forger", "lab1", "lab1 score: 7.0 / 10", "it did not write that kernel's result"},
};

/* Lab 12's host programs, the solution's kernel beside each: the schedule their sealed ledger shows, judged as a
   mark for the host program and one for the technique (the schedule), and why. */
struct schedule_row {
    const char *fixture;
    int host, technique;
    const char *reason;
};

static const struct schedule_row schedules[] = {
    /* Right results, nothing overlaps: clFinish per chunk, a blocking read per chunk, one in-order queue. */
    {"lab12/finish-per-chunk", 1, 0, "serialised: before each of its 32 kernel launches the host waited"},
    {"lab12/blocking-read", 1, 0, "(a blocking clEnqueueReadBuffer, in the loop)"},
    {"lab12/one-queue", 1, 0, "because both are on one in-order queue"},
    /* Races: a kernel that does not wait for its uploads; inputs uploaded again while a kernel may read them. */
    {"lab12/missing-wait", 0, 0, "the kernel may start before its upload ends"},
    {"lab12/reused-too-early", 0, 0, "the buffer may be reused while the kernel still uses it"},
    /* Right: one out-of-order queue; two in-order queues, uploads a chunk ahead. */
    {"lab12/out-of-order-queue", 1, 1, "16 chunks in one pipeline"},
    {"lab12/two-queues-ahead", 1, 1, "16 chunks in one pipeline"},
    /* Attacks on the record: lines appended to the ledger's file; the real clFinish behind the wrapper. */
    {"lab12/ledger-forger", 0, 0, "holds a line that the grader's ledger did not write"},
    {"lab12/calls-real", 0, 0, "'__real_clFinish' is not allowed in a host program"},
};

/* Lab 12's hidden kinds: NVIDIA oclCopyComputeOverlap's two in-order queues, each chunk whole on queue i % 2 with
   its own buffers and no event (right, overlapping); the same with one set of buffers (a race between queues). */
static const struct schedule_row schedule_kinds[] = {
    {"realworld/nv-overlap-two-queues", 1, 1, "16 chunks in one pipeline"},
    {"realworld/two-queues-one-slot", 0, 0, "the later upload may overwrite the buffer before what the earlier one"},
    /* Right: the solution's dependences said by clEnqueueBarrierWithWaitList on the waiting queue; the host waiting
       in the loop for chunk i - 2's download only. One set of buffers with every wait: right, and serial. */
    {"lab12/barrier-wait-lists", 1, 1, "16 chunks in one pipeline"},
    {"lab12/wait-two-back", 1, 1, "16 chunks in one pipeline"},
    {"lab12/one-slot", 1, 0, "no overlap: the 35th clEnqueueWriteBuffer (the upload of chunk 2) cannot run while"},
};

static int grade(const char *arguments, char **output)
{
    char command[1024];
    snprintf(command, sizeof command, "NO_COLOR=1 ./grade %s 2>&1", arguments);
    return run_in_kit(command, 240, output);
}

/* Made-up case logs of lab 1 for the verdicts: the device's, the reference judge's, and the device's with the kernel
   built without optimisation. */
static struct case_log made_device, made_reference, made_unoptimised;

/* Sets the three made-up logs to count exact cases of lab 1 (16 elements, then 1000), each run and right. */
static void make_up_logs(size_t count)
{
    const struct grade_case shapes[] = {{.data = GRADE_EXACT, .dims = {16}, .local = {16, 1}},
                                        {.data = GRADE_EXACT, .dims = {1000}, .local = {64, 1}}};
    struct case_log *logs[] = {&made_device, &made_reference, &made_unoptimised};
    for (size_t l = 0; l < 3; l++) {
        memset(logs[l], 0, sizeof *logs[l]);
        logs[l]->count = count;
        logs[l]->stopped_at = logs[l]->slow_at = -1;
        for (size_t i = 0; i < count; i++) {
            logs[l]->cases[i] = shapes[i];
            logs[l]->ran[i] = logs[l]->verdicts[i].memory_ok = logs[l]->verdicts[i].values_ok = 1;
        }
    }
}

/* Lab 1's exact-cases test as the verdicts make it from the made-up logs: its score, and its cause into cause. */
static double exact_score_of_made_up_logs(char *cause, size_t size)
{
    static struct reference ref = {.ran = 1, .log = &made_reference};
    static struct grading g = {.config.only_case = -1, .source_dir = "/nonexistent"};
    struct grade_lab_result result;
    double score = -1.0;
    memset(&result, 0, sizeof result);
    verdict_cases(&g, registry_find("lab1"), 1, &made_device, &ref, &made_unoptimised, &result);
    for (int t = 0; t < result.test_count; t++)
        if (!strcmp(result.tests[t].name, "exact cases")) {
            score = result.tests[t].score;
            snprintf(cause, size, "%s", result.tests[t].cause);
        }
    result_free(&result);
    return score;
}

/* The verdict on one exact case of lab 1 that the device computed wrong and the reference judge right, with the
   device's verdict once the kernel is built without optimisation: right (its compiler shown at fault: the points
   stay) or wrong (the kernel is wrong on the device: they go). */
static double exact_score_when_judges_disagree(int right_unoptimised, char *cause, size_t size)
{
    make_up_logs(1);
    made_device.verdicts[0].values_ok = 0;
    snprintf(made_device.verdicts[0].values, sizeof made_device.verdicts[0].values, "1 of 16 elements wrong");
    made_unoptimised.verdicts[0].values_ok = right_unoptimised;
    return exact_score_of_made_up_logs(cause, size);
}

START_TEST(both_judges_must_agree)
{
    char cause[64];
    const struct grade_lab_spec *lab = registry_find("lab1");
    ck_assert_double_eq(exact_score_when_judges_disagree(1, cause, sizeof cause), lab->points.exact);
    ck_assert_str_eq(cause, VERDICT_CAUSE_MISCOMPILED);
    ck_assert_double_eq(exact_score_when_judges_disagree(0, cause, sizeof cause), 0.0);
    ck_assert_str_eq(cause, VERDICT_CAUSE_DISAGREES);
}
END_TEST

/* A case that counts from the reference judge alone (the kernel races there) replays there: its replay line names
   --device oclgrind in place of the grading's device, never both. */
START_TEST(a_case_of_the_reference_judge_replays_there)
{
    static struct reference ref = {.ran = 1, .log = &made_reference, .findings = 1};
    static struct grading g = {.config.only_case = -1, .config.device = "cpu", .source_dir = "/nonexistent"};
    struct grade_lab_result result;
    const char *reason = NULL;
    make_up_logs(1);
    made_reference.verdicts[0].values_ok = made_reference.verdicts[0].memory_ok = 0;
    snprintf(made_reference.verdicts[0].values, sizeof made_reference.verdicts[0].values, "1 of 16 elements wrong");
    snprintf(made_reference.verdicts[0].memory, sizeof made_reference.verdicts[0].memory, "a data race");
    snprintf(g.replay, sizeof g.replay, "./grade lab1 --device cpu");
    memset(&result, 0, sizeof result);
    verdict_cases(&g, registry_find("lab1"), 1, &made_device, &ref, &made_unoptimised, &result);
    for (int t = 0; t < result.test_count; t++)
        if (!strcmp(result.tests[t].name, "exact cases"))
            reason = result.tests[t].reason;
    ck_assert_msg(reason && strstr(reason, "replay: ./grade lab1 --device oclgrind --case 0 --seed 1"), "%s",
                  reason ? reason : "no exact cases test");
    result_free(&result);
}
END_TEST

/* The exact cases of lab 1 when the device's runner crashed in the second case (SIGABRT, as PoCL's own assertions
   end) after a right first one, the reference judge finding both right: built without optimisation the device
   runs the second right (the crash is its compiler's: the points stay) or crashes again (the crash stands). */
static double exact_score_when_device_crashes(int right_unoptimised, char *cause, size_t size)
{
    struct reference ref = {.ran = 1, .log = &made_reference};
    make_up_logs(2);
    made_device.ran[1] = made_device.verdicts[1].values_ok = 0;
    made_device.stopped_at = 1;
    snprintf(made_device.how, sizeof made_device.how, "crashed with SIGABRT");
    made_unoptimised.ran[0] = 0;
    if (!right_unoptimised) { /* it crashed again: the runner stopped in the same case */
        made_unoptimised.ran[1] = 0;
        made_unoptimised.stopped_at = 1;
    }
    ck_assert(recheck_crash_needed(&made_device, &ref));
    return exact_score_of_made_up_logs(cause, size);
}

START_TEST(a_device_crash_on_a_right_kernel_is_shown_before_it_counts)
{
    char cause[64];
    const struct grade_lab_spec *lab = registry_find("lab1");
    ck_assert_double_eq(exact_score_when_device_crashes(1, cause, sizeof cause), lab->points.exact);
    ck_assert_str_eq(cause, VERDICT_CAUSE_MISCOMPILED);
    ck_assert_double_eq(exact_score_when_device_crashes(0, cause, sizeof cause), 0.0);
    ck_assert_str_eq(cause, VERDICT_CAUSE_DISAGREES); /* the crash stands, flagged for review */
}
END_TEST

/* A crash at an assertion of the OpenCL implementation's own (PoCL 5.0 built with assertions stops so on a right
   lab 7 kernel that copies with async_work_group_copy), again without optimisation, on a kernel the reference judge
   finds right: the lab is not graded on that device (a set-up error, no score); without the assertion the crash is
   the kernel's, and a recheck that runs the case right clears it. */
START_TEST(an_implementation_that_gives_up_leaves_the_lab_ungraded)
{
    struct reference ref = {.ran = 1, .log = &made_reference};
    const struct grade_lab_spec *lab = registry_find("lab1");
    char *why;
    make_up_logs(2);
    made_device.ran[1] = made_device.verdicts[1].values_ok = 0;
    made_device.stopped_at = 1;
    snprintf(made_device.how, sizeof made_device.how, "crashed with SIGABRT");
    made_unoptimised.ran[0] = made_unoptimised.ran[1] = 0;
    made_unoptimised.stopped_at = 1;
    ck_assert_ptr_null(recheck_device_gave_up(lab, &made_device, &ref, &made_unoptimised));
    snprintf(made_device.assertion, sizeof made_device.assertion,
             "pocl/lib/CL/devices/workgroup.c:100: f: Assertion `x' failed.");
    why = recheck_device_gave_up(lab, &made_device, &ref, &made_unoptimised);
    ck_assert_ptr_nonnull(why);
    ck_assert_ptr_nonnull(strstr(why, "Assertion `x' failed"));
    free(why);
    made_unoptimised.ran[1] = 1; /* built without optimisation, the case ran right: the compiler's, cleared */
    made_unoptimised.stopped_at = -1;
    ck_assert_ptr_null(recheck_device_gave_up(lab, &made_device, &ref, &made_unoptimised));
}
END_TEST

/* The cause the report names, read from the JSON record (extra_data.cause of a test), not from its wording. */
static const struct {
    const char *fixture, *lab, *test, *cause;
    int passed; /* the test passes (a miscompile shown keeps its points) */
} causes[] = {
    /* NVIDIA's reduce0 with a grid-stride load: PoCL 3.1 miscompiles it when optimising, and computes it right
       with -cl-opt-disable. */
    {"realworld/nv-reduce0", "lab4", "exact cases", "miscompiled", 1},
    {"lab6/uninitialised-accumulator", "lab6", "exact cases", "uninitialised-private", 0},
    {"lab4/return-before-barrier", "lab4", "exact cases", "return-before-barrier", 0},
    {"lab6/global-fence", "lab6", "memory safety", "wrong-fence", 0},
    {"lab6/reads-past-inputs", "lab6", "exact cases", "out-of-bounds-read", 0},
};

START_TEST(failure_names_its_cause)
{
    char file[512], *output, *json, command[1024];
    ck_assert_int_eq(grade_fixture(causes[_i].fixture, causes[_i].lab, "", &output, file, sizeof file), 1);
    snprintf(command, sizeof command, "/usr/bin/python3 -c 'import json, sys; t = [t for t in json.load(open("
             "sys.argv[1]))[\"tests\"] if t[\"name\"] == \"%s: %s\"][0]; "
             "print(t.get(\"extra_data\", {}).get(\"cause\"), t[\"status\"])' %s", causes[_i].lab, causes[_i].test,
             file);
    ck_assert_int_eq(run_in_kit(command, 30, &json), 0);
    char expected[128];
    snprintf(expected, sizeof expected, "%s %s\n", causes[_i].cause, causes[_i].passed ? "passed" : "failed");
    ck_assert_msg(!strcmp(json, expected), "%s: expected '%s', got '%s'\n%s", causes[_i].fixture, expected, json,
                  output);
    free(json);
    free(output);
}
END_TEST

START_TEST(fixture_gets_its_verdict)
{
    char json[512], *output;
    int status = grade_fixture(fixtures[_i].fixture, fixtures[_i].lab, fixtures[_i].options, &output, json, sizeof json);
    ck_assert_msg(status == 1, "%s: expected exit 1, got %d\n%s", fixtures[_i].fixture, status, output);
    ck_assert_msg(strstr(output, fixtures[_i].expected), "%s: no '%s' in\n%s", fixtures[_i].fixture,
                  fixtures[_i].expected, output);
    if (!strstr(fixtures[_i].fixture, "crash"))
        ck_assert_msg(!strstr(output, "crashed"), "%s crashed:\n%s", fixtures[_i].fixture, output);
    free(output);
}
END_TEST

static void assert_mark(const char *fixture, const char *output, const char *test, int expected)
{
    char line[64];
    if (expected < 0) {
        snprintf(line, sizeof line, " %s ", test);
        ck_assert_msg(!strstr(output, line), "%s: a %s test where the lab has none\n%s", fixture, test, output);
        return;
    }
    snprintf(line, sizeof line, "%s %s ", expected ? "\u2713" : "\u2717", test);
    ck_assert_msg(strstr(output, line) != NULL, "%s: expected '%s'\n%s", fixture, line, output);
}

START_TEST(host_mistake_costs_the_host_points)
{
    char json[512], *output;
    int status = grade_fixture(host_mistakes[_i].fixture, host_mistakes[_i].lab, "", &output, json, sizeof json);
    ck_assert_msg(status == 1 && strstr(output, host_mistakes[_i].score) && strstr(output, "\u2717 host program") &&
                  strstr(output, host_mistakes[_i].reason), "%s: status %d, expected %s and '%s'\n%s",
                  host_mistakes[_i].fixture, status, host_mistakes[_i].score, host_mistakes[_i].reason, output);
    free(output);
}
END_TEST

/* A right host program that asks for a launch's time before the launch has run (a user event holds it): OpenCL
   answers CL_PROFILING_INFO_NOT_AVAILABLE though its queue profiles, as a busy device does to a program that asks
   early. That is no queue without profiling: the host program keeps its points. */
START_TEST(an_early_profiling_query_costs_nothing)
{
    char json[512], *output;
    int status = grade_fixture("host/early-profiling-query", "lab1", "", &output, json, sizeof json);
    ck_assert_msg(status == 0 && strstr(output, "lab1 score: 10.0 / 10") && strstr(output, "\u2713 host program") &&
                  !strstr(output, "CL_QUEUE_PROFILING_ENABLE"), "status %d\n%s", status, output);
    free(output);
}
END_TEST

/* With Oclgrind broken (a program named oclgrind that runs the host on the ordinary device, as the real one does
   when its runtime is missing), the host program keeps its points and no check under Oclgrind is claimed. The fake
   lies outside the kit, which confined runs do not see. */
START_TEST(broken_oclgrind_is_not_claimed)
{
    char folder[] = "/var/tmp/clkit-oclgrind.XXXXXX", command[512], *output;
    ck_assert_ptr_nonnull(mkdtemp(folder));
    snprintf(command, sizeof command, "chmod 755 %s && cp tests/fixtures/broken-oclgrind/oclgrind %s/ && "
             "PATH=%s:$PATH NO_COLOR=1 ./grade --solutions --quick lab1 2>&1; rm -rf %s", folder, folder, folder,
             folder);
    run_in_kit(command, 240, &output);
    ck_assert_msg(strstr(output, "\u2713 host program     3.0/3") && strstr(output, "did not run") &&
                  !strstr(output, "under Oclgrind no bad access"), "%s", output);
    free(output);
}
END_TEST

static void assert_schedule(const struct schedule_row *row)
{
    char arguments[256], *output;
    snprintf(arguments, sizeof arguments, "--quick --submission tests/fixtures/%s lab12", row->fixture);
    int status = grade(arguments, &output);
    ck_assert_msg(status == (row->host && row->technique ? 0 : 1), "%s: exit %d\n%s", row->fixture, status, output);
    assert_mark(row->fixture, output, "host program", row->host);
    assert_mark(row->fixture, output, "technique", row->technique);
    ck_assert_msg(strstr(output, row->reason), "%s: expected '%s'\n%s", row->fixture, row->reason, output);
    free(output);
}

START_TEST(schedule_gets_its_marks)
{
    assert_schedule(&schedules[_i]);
}
END_TEST

START_TEST(schedule_kind_gets_its_marks)
{
    assert_schedule(&schedule_kinds[_i]);
}
END_TEST

/* Grades fixture (a kernel without a host program, which fails) and asserts a mark per kernel test. */
static void assert_marks(const char *fixture, const char *lab, int exact, int real, int memory, int technique)
{
    char json[512], *output;
    int status = grade_fixture(fixture, lab, "", &output, json, sizeof json);
    ck_assert_msg(status == 1, "%s: exit %d\n%s", fixture, status, output);
    assert_mark(fixture, output, "exact cases", exact);
    assert_mark(fixture, output, "real cases", real);
    assert_mark(fixture, output, "memory safety", memory);
    assert_mark(fixture, output, "technique", technique);
    free(output);
}

START_TEST(marked_kernel_gets_its_verdict)
{
    assert_marks(marked[_i].fixture, marked[_i].lab, marked[_i].exact, marked[_i].real, marked[_i].memory,
                 marked[_i].technique);
}
END_TEST

START_TEST(public_kernel_gets_its_verdict)
{
    assert_marks(public_kernels[_i].fixture, public_kernels[_i].lab, public_kernels[_i].exact, public_kernels[_i].real,
                 public_kernels[_i].memory, public_kernels[_i].technique);
}
END_TEST

START_TEST(hidden_kind_gets_its_verdict)
{
    assert_marks(kinds[_i].fixture, kinds[_i].lab, kinds[_i].exact, kinds[_i].real, kinds[_i].memory,
                 kinds[_i].technique);
}
END_TEST

static void assert_scan(const struct scan_row *row)
{
    char arguments[256], *output;
    snprintf(arguments, sizeof arguments, "--quick --submission tests/fixtures/%s lab11", row->fixture);
    int status = grade(arguments, &output);
    ck_assert_msg(status == 1, "%s: exit %d\n%s", row->fixture, status, output);
    assert_mark(row->fixture, output, "exact cases", row->exact);
    assert_mark(row->fixture, output, "real cases", row->real);
    assert_mark(row->fixture, output, "memory safety", row->memory);
    assert_mark(row->fixture, output, "technique", row->technique);
    ck_assert_msg(strstr(output, row->expected), "%s: no '%s' in\n%s", row->fixture, row->expected, output);
    free(output);
}

START_TEST(scan_kernel_gets_its_verdict)
{
    assert_scan(&scans[_i]);
}
END_TEST

START_TEST(scan_kind_gets_its_verdict)
{
    assert_scan(&scan_kinds[_i]);
}
END_TEST

/* Lab 11's host programs beside the solution's kernels: work-groups of 64 (blocks of 128) keep full marks; a host
   that never launches scan_sums loses the host program's points. */
START_TEST(scan_host_programs)
{
    char *output;
    int status = grade("--quick --submission tests/fixtures/host/lab11-local-64 lab11", &output);
    ck_assert_msg(status == 0 && strstr(output, "lab11 score: 14.0 / 14"), "status %d\n%s", status, output);
    free(output);
    status = grade("--quick --submission tests/fixtures/host/lab11-no-scan-sums lab11", &output);
    ck_assert_msg(status == 1 && strstr(output, "lab11 score: 12.0 / 14") &&
                  strstr(output, "\u2717 host program     0.0/2    at the lab's size"), "status %d\n%s", status, output);
    free(output);
}
END_TEST

/* Lab 11's timed run is the whole sequence of launches (the baseline's log2(n) + 1 of them too), and its result is
   sampled as a real case of its own: 12 real cases and the timed one. */
START_TEST(a_scan_timed_run_is_the_whole_sequence)
{
    char *output;
    int status = grade("--solutions --seed 1 --timeout 120 lab11", &output);
    ck_assert_msg(status == 0 && strstr(output, "all 13 real cases within tolerance") &&
                  strstr(output, "\u00d7 the speed of Hillis-Steele scan"), "status %d\n%s", status, output);
    free(output);
}
END_TEST

START_TEST(solutions_pass_every_lab)
{
    char *output, expected[128];
    int status = grade_once(GRADED_SOLUTIONS, 600, &output);
    kit_total(kit_points(), expected, sizeof expected);
    snprintf(expected + strlen(expected), sizeof expected - strlen(expected), ", %d of %d tests passed", kit_tests(),
             kit_tests());
    ck_assert_msg(status == 0 && strstr(output, expected), "status %d, expected %s\n%.3000s", status, expected,
                  output + (strlen(output) > 3000 ? strlen(output) - 3000 : 0));
    free(output);
}
END_TEST

/* Starts count processes that spin on a core until killed (or for at most limit_s seconds), into pids. */
static void start_busy_loops(pid_t *pids, int count, unsigned limit_s)
{
    for (int i = 0; i < count; i++)
        if ((pids[i] = fork()) == 0) {
            alarm(limit_s); /* never outlives the test, whatever happens to it */
            for (volatile unsigned long spin = 0;; spin++)
                ;
        }
}

static void stop_busy_loops(const pid_t *pids, int count)
{
    for (int i = 0; i < count; i++)
        if (pids[i] > 0) {
            kill(pids[i], SIGKILL);
            waitpid(pids[i], NULL, 0);
        }
}

/* A right submission never loses a point to a busy machine (a Gradescope worker, a batch, CI): the solutions,
   graded under --sanitize (the reference judge's limits are those that load once broke) on a loaded machine, get
   full marks. make check runs this test first, beside as many units as the machine has cores (CHECK_UNITS_BESIDE);
   alone, it brings a busy loop per core. This grading is GRADED_SOLUTIONS, which the tests that share it then read,
   so that the solutions are graded once for all. */
START_TEST(solutions_keep_full_marks_under_load)
{
    enum { MAX_LOOPS = 64 };
    pid_t pids[MAX_LOOPS];
    const char *units = getenv(CHECK_UNITS_BESIDE);
    long cores = sysconf(_SC_NPROCESSORS_ONLN), beside = units ? atol(units) : 0;
    int loops = beside >= cores ? 0 : (int)(cores - beside > MAX_LOOPS ? MAX_LOOPS : cores - beside);
    char *output, expected[128];
    start_busy_loops(pids, loops, 900);
    int status = grade_and_share(GRADED_SOLUTIONS, 800, &output);
    stop_busy_loops(pids, loops);
    kit_total(kit_points(), expected, sizeof expected);
    snprintf(expected + strlen(expected), sizeof expected - strlen(expected), ", %d of %d tests passed", kit_tests(),
             kit_tests());
    ck_assert_msg(status == 0 && strstr(output, expected),
                  "beside %ld units and %d busy loops: status %d, expected %s\n%.3000s", beside, loops, status,
                  expected, output + (strlen(output) > 3000 ? strlen(output) - 3000 : 0));
    free(output);
}
END_TEST

/* Separate ./grade runs side by side in one kit (three students graded by three processes, a CI machine running
   several) each confine code as a user of its own, and a right submission keeps full marks in every one. */
START_TEST(gradings_side_by_side_keep_full_marks)
{
    enum { GRADINGS = 3 };
    char *output;
    const char *at;
    int full = 0;
    run_in_kit("d=$(mktemp -d) && for i in 1 2 3; do (NO_COLOR=1 ./grade --solutions --quick lab1 > $d/$i 2>&1; "
               "echo \"exit $?\" >> $d/$i) & done; wait; cat $d/*; rm -rf $d", 600, &output);
    for (at = output; (at = strstr(at, "total: 10.0 / 10 points")) != NULL; at++)
        full++;
    ck_assert_msg(full == GRADINGS, "%d of %d gradings side by side at full marks\n%.4000s", full, GRADINGS,
                  output + (strlen(output) > 4000 ? strlen(output) - 4000 : 0));
    free(output);
}
END_TEST

/* Where two reports first differ: the line of each (cut), for a message that fits. */
static void first_difference(const char *a, const char *b, char *text, size_t size)
{
    size_t at = 0, line = 0;
    while (a[at] && a[at] == b[at])
        at++;
    while (at > 0 && a[at - 1] != '\n')
        at--;
    for (size_t i = 0; i < at; i++)
        line += a[i] == '\n';
    snprintf(text, size, "line %zu:\n< %.300s\n> %.300s", line + 1, a + at, b + at);
}

/* A submission's labs graded side by side (CLKIT_LABS_AT_ONCE, as on a GPU with cores to spare) give the report
   of the labs graded one after another, byte for byte (--quick: no timing in it): the same tests, scores, reasons
   and order, a failing lab and a passing one. Compared: the report (stdout) from its first lab on, since the header
   names the runner user claimed and stderr any wait for one, which depend on the other gradings on the machine. */
START_TEST(labs_side_by_side_report_as_in_order)
{
    char *in_order, *side_by_side, *output, command[256], difference[800];
    const char *labs = "--quick --seed 5 -v --submission build/check-side lab1 lab3";
    int status = run_in_kit("rm -rf build/check-side && mkdir -p build/check-side && "
                            "cp -r tests/fixtures/lab1/local-id/lab1 solutions/lab3 build/check-side/",
                            30, &output);
    free(output);
    ck_assert_int_eq(status, 0);
    snprintf(command, sizeof command, "CLKIT_LABS_AT_ONCE=1 NO_COLOR=1 ./grade %s 2>/dev/null", labs);
    int in_order_status = run_in_kit(command, 240, &in_order);
    snprintf(command, sizeof command, "CLKIT_LABS_AT_ONCE=2 NO_COLOR=1 ./grade %s 2>/dev/null", labs);
    status = run_in_kit(command, 240, &side_by_side);
    ck_assert_msg(in_order_status == 1 && !strstr(in_order, "lab1 score: 10.0") && strstr(in_order, "lab3 score: 10.0"),
                  "status %d\n%.3000s", in_order_status, in_order);
    const char *labs_in_order = strstr(in_order, "\n\n"), *labs_side_by_side = strstr(side_by_side, "\n\n");
    ck_assert_msg(labs_in_order && labs_side_by_side, "no labs in\n%.3000s", side_by_side);
    first_difference(labs_in_order, labs_side_by_side, difference, sizeof difference);
    ck_assert_msg(status == in_order_status && strcmp(labs_in_order, labs_side_by_side) == 0,
                  "status %d then %d; from the first lab, %s", in_order_status, status, difference);
    free(in_order);
    free(side_by_side);
}
END_TEST

START_TEST(submission_of_one_lab_folder)
{
    char *output, expected[128];
    int status = run_in_kit("rm -rf build/check-sub && mkdir -p build/check-sub/lab4 && "
                            "cp solutions/lab4/reduce.cl solutions/lab4/host.c build/check-sub/lab4/",
                            30, &output);
    free(output);
    ck_assert_int_eq(status, 0);
    status = grade("--quick --submission build/check-sub lab4", &output);
    ck_assert_msg(status == 0 && strstr(output, "\u2713 host program"), "status %d\n%s", status, output);
    free(output);
    /* The labs it lacks fail with their full points: the maximum is the whole kit's. */
    status = grade("--quick --submission build/check-sub all", &output);
    kit_total(14.0, expected, sizeof expected); /* lab 4's full points */
    ck_assert_msg(status == 1 && strstr(output, expected) && strstr(output, "lab2 is missing"), "status %d\n%s",
                  status, output);
    free(output);
}
END_TEST

/* A hang costs seconds: the case's own limit stops it on the device; under the reference judge, its budget of
   simulated instructions (a work-item that runs on without end, whether the device hangs too or the kernel spins only
   where it is simulated). The verdict names the barrier, or the budget. */
static const struct {
    const char *arguments, *named;
} hangs[] = {
    {"--quick --submission tests/fixtures/lab4/divergent-barrier lab4", "lab4/reduce.cl:"},
    {"--quick --submission tests/fixtures/lab9/slow-under-judge lab9", "million simulated instructions"},
};

static double cpu_seconds(const struct rusage *use)
{
    return (double)use->ru_utime.tv_sec + use->ru_utime.tv_usec * 1e-6 + (double)use->ru_stime.tv_sec +
           use->ru_stime.tv_usec * 1e-6;
}

START_TEST(a_hang_costs_seconds)
{
    char *output;
    struct rusage before, after;
    double started = clk_now_s();
    getrusage(RUSAGE_CHILDREN, &before);
    int status = grade(hangs[_i].arguments, &output);
    getrusage(RUSAGE_CHILDREN, &after);
    double seconds = clk_now_s() - started, cpu = cpu_seconds(&after) - cpu_seconds(&before);
    ck_assert_msg(status == 1 && strstr(output, "score: 0.0 / ") && strstr(output, "did not finish") &&
                      strstr(output, hangs[_i].named),
                  "status %d\n%s", status, output);
    /* CPU time, which a busy machine does not stretch (the wall clock may wait up to SESSION_STRETCH times). */
    ck_assert_msg(cpu < 15.0 && seconds < 120.0, "the hang cost %.1f s of CPU time, %.1f s in all", cpu, seconds);
    free(output);
}
END_TEST

/* Kernels right on every correctness case that skip their work at larger sizes: the timed run's result, sampled
   after it, fails the real cases, and no speed is reported. */
static const char *const skips_large[][2] = {{"lab5/skips-large", "lab5"}, {"lab7/skips-large", "lab7"}};

START_TEST(a_kernel_right_only_when_small_fails_its_timed_run)
{
    char arguments[256], *output;
    snprintf(arguments, sizeof arguments, "--submission tests/fixtures/%s %s", skips_large[_i][0], skips_large[_i][1]);
    int status = grade(arguments, &output);
    ck_assert_msg(status == 1 && strstr(output, "\u2717 real cases") && strstr(output, "\u2713 exact cases") &&
                  strstr(output, "results sampled after the timed run") && !strstr(output, "\u00d7 the speed of"),
                  "status %d\n%s", status, output);
    free(output);
}
END_TEST

/* Lab 10's kernel adds into its bins: each timed launch starts them from the poison again, so the result sampled
   after the timed runs is one launch's, the real cases stay right and the speed stands beside them. */
START_TEST(a_histogram_timed_run_counts_once)
{
    char *output;
    int status = grade("--solutions --seed 1 lab10", &output);
    ck_assert_msg(status == 0 && strstr(output, "\u2713 real cases") &&
                  !strstr(output, "results sampled after the timed run") && strstr(output, "\u00d7 the speed of"),
                  "status %d\n%s", status, output);
    free(output);
}
END_TEST

/* A racy kernel whose device cases look right is timed on the device, but no speed stands beside the reference
   judge's failure. */
START_TEST(no_speed_beside_a_failed_correctness_test)
{
    char *output;
    int status = grade("--submission tests/fixtures/lab6/no-second-barrier lab6", &output);
    ck_assert_msg(status == 1 && strstr(output, "\u2717 memory safety") && strstr(output, "speed            0.0/0    not ") &&
                  !strstr(output, "\u00d7 the speed of"), "status %d\n%s", status, output);
    free(output);
}
END_TEST

START_TEST(replays_one_case)
{
    char *output;
    int status = grade("--solutions --seed 5 --case 3 lab1", &output);
    /* The tests --case leaves out fail with their points: the maximum is the same with every flag. */
    ck_assert_msg(status == 1 && strstr(output, "all 1 exact cases right") && strstr(output, "seed 5") &&
                  strstr(output, "lab1 score: 5.0 / 10") && strstr(output, "not run: --case runs one case only"),
                  "%s", output);
    free(output);
}
END_TEST

START_TEST(setup_errors_exit_2)
{
    char *output;
    ck_assert_int_eq(grade("lab99", &output), 2);
    ck_assert_ptr_nonnull(strstr(output, "unknown lab"));
    free(output);
    ck_assert_int_eq(grade("--device no-such-device --quick --solutions lab1", &output), 2);
    ck_assert_ptr_nonnull(strstr(output, "no OpenCL device matches"));
    /* The device is missing, not the kernel's build: no test blames the kernel. */
    ck_assert_msg(!strstr(output, "does not build") && strstr(output, "not graded on this device"), "%s", output);
    free(output);
}
END_TEST

/* The three runs the CI issue names: a pass, a fail, and a build failure whose log holds quotes and newlines. */
static const struct {
    const char *arguments;
    int status;
    const char *in_json;
} exported[] = {
    {"--solutions lab1", 0, "\"status\":\t\"passed\""},
    {"--submission tests/fixtures/lab1/local-id lab1", 1, "only the first work-group"},
    {"--submission tests/fixtures/lab1/compile-error lab1", 1, "in its build log\\\"\\nDevice"},
};

START_TEST(json_and_junit_files)
{
    char arguments[512], *output, *json;
    int status;
    snprintf(arguments, sizeof arguments,
             "--quick %s --json build/check-results.json --junit build/check-results.xml", exported[_i].arguments);
    status = grade(arguments, &output);
    ck_assert_msg(status == exported[_i].status, "status %d\n%s", status, output);
    free(output);
    status = run_in_kit("/usr/bin/python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); "
                        "assert {\"score\", \"execution_time\", \"output\", \"tests\"} <= set(d) and \"max_score\" not in d; "
                        "assert all({\"name\", \"score\", \"max_score\", \"status\", \"output\", \"visibility\"} <= set(t) "
                        "for t in d[\"tests\"])' build/check-results.json && cat build/check-results.json",
                        30, &json);
    ck_assert_msg(status == 0, "%s", json);
    ck_assert_msg(strstr(json, exported[_i].in_json), "no '%s' in\n%s", exported[_i].in_json, json);
    free(json);
    /* Jenkins' rules, the kernel named for annotations, and each case's measured time: within its suite's, and not
       all 0 (grading a lab takes more than a millisecond). */
    status = run_in_kit("xmllint --noout --schema tests/junit-jenkins.xsd build/check-results.xml && "
                        "grep -c 'file=\"[^\"]*lab1/vadd.cl\"' build/check-results.xml && "
                        "/usr/bin/python3 -c 'import xml.etree.ElementTree as E\n"
                        "for s in E.parse(\"build/check-results.xml\").getroot():\n"
                        "    t = [float(c.get(\"time\")) for c in s]\n"
                        "    assert min(t) >= 0 and 0 < sum(t) <= float(s.get(\"time\")) + 0.01, (t, s.get(\"time\"))'",
                        30, &output);
    ck_assert_msg(status == 0, "%s", output);
    free(output);
}
END_TEST

/* GitHub Classroom: the runner result through the reporter's arithmetic (points: the sum of the listed tests'
   scores; maximum: max_score), for a full, a partial and a broken submission of every lab. */
static const struct {
    const char *arguments; /* NULL: the solutions, graded once for several tests (GRADED_SOLUTIONS) */
    double points;         /* < 0: the kit's maximum */
    const char *status;
} classroom[] = {
    {NULL, -1, "pass"},
    {"--submission tests/fixtures/realworld/gridstride all", 10, "fail"}, /* lab 2's kernel only */
    {"--submission tests/fixtures/lab1/compile-error all", 0, "fail"},
};

START_TEST(classroom_totals)
{
    char arguments[512], expected[64], command[1024], *output;
    const char *file = classroom[_i].arguments ? "build/check-classroom.b64" : GRADED_SOLUTIONS_CLASSROOM;
    int status;
    if (classroom[_i].arguments)
        snprintf(arguments, sizeof arguments, "--quick %s --classroom %s", classroom[_i].arguments, file);
    snprintf(expected, sizeof expected, "%g/%g %s", classroom[_i].points < 0 ? kit_points() : classroom[_i].points,
             kit_points(), classroom[_i].status);
    status = classroom[_i].arguments ? grade(arguments, &output) : grade_once(GRADED_SOLUTIONS, 600, &output);
    free(output);
    ck_assert_msg(status <= 1, "status %d", status);
    snprintf(command, sizeof command, "/usr/bin/python3 -c 'import base64, json, sys\n"
             "d = json.loads(base64.b64decode(open(sys.argv[1]).read()))\n"
             "assert d[\"tests\"] and all(t[\"max_score\"] > 0 for t in d[\"tests\"])\n"
             "assert all(isinstance(t[\"line_no\"], int) for t in d[\"tests\"])\n"
             "print(\"%%g/%%g %%s\" %% (sum(t[\"score\"] for t in d[\"tests\"]), d[\"max_score\"], d[\"status\"]))' %s",
             file);
    status = run_in_kit(command, 30, &output);
    ck_assert_msg(status == 0 && strncmp(output, expected, strlen(expected)) == 0, "%s: expected %s, got %s",
                  classroom[_i].arguments ? classroom[_i].arguments : GRADED_SOLUTIONS, expected, output);
    free(output);
}
END_TEST

/* The suite's cases: make check runs each in a process of its own, side by side (the marked kernels in two halves,
   the second with the causes and host mistakes). */
enum {
    GRADE_FIXTURES, GRADE_MARKED, GRADE_MARKED_2, GRADE_LAB10, GRADE_LAB11, GRADE_LAB12, GRADE_REAL_WORLD,
    GRADE_KINDS, GRADE_KINDS_2,
    GRADE_SOLUTIONS, GRADE_END_TO_END, GRADE_COURSE, GRADE_LOAD, GRADE_VERDICTS
};
const char *const grade_cases[] = {
    [GRADE_FIXTURES] = "fixtures",   [GRADE_MARKED] = "marked",         [GRADE_MARKED_2] = "marked, second half",
    [GRADE_LAB10] = "lab 10",        [GRADE_LAB11] = "lab 11",          [GRADE_LAB12] = "lab 12",
    [GRADE_REAL_WORLD] = "real world", [GRADE_KINDS] = "hidden kinds", [GRADE_KINDS_2] = "hidden kinds 2",
    [GRADE_SOLUTIONS] = "solutions", [GRADE_END_TO_END] = "end to end",
    [GRADE_COURSE] = "course",       [GRADE_LOAD] = "under load",       [GRADE_VERDICTS] = "verdicts",
    NULL,
};

static TCase *grade_case(Suite *s, int which, int timeout_s)
{
    TCase *tc = tcase_create(grade_cases[which]);
    tcase_set_timeout(tc, timeout_s);
    suite_add_tcase(s, tc);
    return tc;
}


/* A course that scores lab 7's speed on this machine's PoCL, its threshold (0.5x the naive baseline) far from the
   solution (about 1.5x to 3x here) and from a known-slow fixture (about 0.1x): run after run the same verdicts,
   busy machine or not, and the same maximum as a course graded on an H100 that is not here. */
static char course_dir[64];

static void course_file(const char *name, const char *text)
{
    char path[160];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", course_dir, name);
    ck_assert_ptr_nonnull(f = fopen(path, "w"));
    fputs(text, f);
    fclose(f);
}

/* The speed test of lab7 in a results file: its score, maximum and whether it is pending; the file's maximum. */
static void speed_of(const char *file, double *score, double *max, int *pending, double *total_max)
{
    char path[200], *text;
    const cJSON *test;
    cJSON *root;
    snprintf(path, sizeof path, "%s/%s", course_dir, file);
    ck_assert_msg((text = clk_read_text(path, NULL)) != NULL, "no %s", path);
    ck_assert_ptr_nonnull(root = cJSON_Parse(text));
    *score = *max = -1.0;
    *pending = 0;
    *total_max = 0.0;
    cJSON_ArrayForEach(test, cJSON_GetObjectItem(root, "tests")) {
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(test, "name"));
        *total_max += cJSON_GetNumberValue(cJSON_GetObjectItem(test, "max_score"));
        if (name && strncmp(name, "lab7: speed", 11) == 0) {
            *score = cJSON_GetNumberValue(cJSON_GetObjectItem(test, "score"));
            *max = cJSON_GetNumberValue(cJSON_GetObjectItem(test, "max_score"));
            *pending = cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(test, "extra_data"), "pending"));
        }
    }
    cJSON_Delete(root);
    free(text);
}

static void make_course_class(void)
{
    struct clk_env env;
    char text[1024], command[1024], *output;
    strcpy(course_dir, "/tmp/clkit-course-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(course_dir));
    ck_assert_int_eq(clk_env_create("cpu", &env), 0);
    snprintf(text, sizeof text, "device = %s\nname = wide-margin course profile\ntype = cpu\nsize.vector = 1048576\n"
             "size.matmul = 256\nsize.transpose = 1024\nlab7.min_speedup = 0.50\nlab7.points = 2\n"
             "lab7.mode = scored\n", env.info.device_name);
    clk_env_release(&env);
    course_file("pocl.conf", text);
    course_file("course.conf", "name = a course graded on this machine's PoCL\nspeed.profile = pocl.conf\n");
    course_file("h100.conf", "name = a course graded on an H100\nspeed.profile = nvidia-h100-80gb-hbm3.conf\n");
    snprintf(command, sizeof command, "for s in right1 right2; do mkdir -p %s/class/$s && cp -r solutions/lab7 "
             "%s/class/$s/; done; for s in slow1 slow2; do mkdir -p %s/class/$s && cp -r "
             "tests/fixtures/lab7/repeated-reads/lab7 %s/class/$s/; done", course_dir, course_dir, course_dir,
             course_dir);
    ck_assert_int_eq(run_in_kit(command, 30, &output), 0);
    free(output);
}

START_TEST(a_course_scores_speed_the_same_every_run)
{
    const char *students[] = {"right1", "right2", "slow1", "slow2"};
    char command[1024], file[64], *output;
    double score, max, total_max[4], h100_max;
    int pending, status;
    make_course_class();
    snprintf(command, sizeof command, "NO_COLOR=1 ./grade --device cpu --course %s/course.conf --submission %s/class "
             "--results %s/results lab7 2>&1", course_dir, course_dir, course_dir);
    status = run_in_kit(command, 280, &output);
    ck_assert_msg(status == 0 || status == 1, "status %d\n%s", status, output);
    free(output);
    for (int i = 0; i < 4; i++) {
        snprintf(file, sizeof file, "results/%s.json", students[i]);
        speed_of(file, &score, &max, &pending, &total_max[i]);
        ck_assert_double_eq(max, 2.0);
        ck_assert_msg(!pending, "%s: the course's device is here, yet its speed is pending", students[i]);
        ck_assert_msg(score == (i < 2 ? 2.0 : 0.0), "%s: speed %g of 2", students[i], score);
        ck_assert_double_eq(total_max[i], total_max[0]);
    }
    /* The course graded on an H100: here the speed is pending, and the maximum is the same. */
    snprintf(command, sizeof command, "NO_COLOR=1 ./grade --device cpu --quick --course %s/h100.conf --submission "
             "%s/class/right1 --json %s/h100.json lab7 2>&1", course_dir, course_dir, course_dir);
    status = run_in_kit(command, 200, &output);
    ck_assert_msg(status == 0, "status %d (pending is not a failure)\n%s", status, output);
    ck_assert_msg(strstr(output, "graded on NVIDIA H100 80GB HBM3") || strstr(output, "pending"), "%s", output);
    free(output);
    speed_of("h100.json", &score, &max, &pending, &h100_max);
    ck_assert_int_eq(pending, 1);
    ck_assert_double_eq(score, 0.0);
    ck_assert_double_eq(h100_max, total_max[0]);
    snprintf(command, sizeof command, "rm -rf '%s'", course_dir);
    ck_assert_int_eq(system(command), 0);
}
END_TEST

Suite *grade_suite(void)
{
    Suite *s = suite_create("grade");
    int marked_half = first_marked_of_lab10() / 2;
    TCase *tc = grade_case(s, GRADE_FIXTURES, 300);
    tcase_add_loop_test(tc, fixture_gets_its_verdict, 0, first_fixture_of_lab10());
    tc = grade_case(s, GRADE_MARKED, 300);
    tcase_add_loop_test(tc, marked_kernel_gets_its_verdict, 0, marked_half);
    tc = grade_case(s, GRADE_MARKED_2, 300);
    tcase_add_loop_test(tc, marked_kernel_gets_its_verdict, marked_half, first_marked_of_lab10());
    tcase_add_loop_test(tc, failure_names_its_cause, 0, (int)(sizeof causes / sizeof causes[0]));
    tcase_add_loop_test(tc, host_mistake_costs_the_host_points, 0,
                        (int)(sizeof host_mistakes / sizeof host_mistakes[0]));
    tcase_add_test(tc, an_early_profiling_query_costs_nothing);
    tc = grade_case(s, GRADE_LAB10, 300);
    tcase_add_loop_test(tc, fixture_gets_its_verdict, first_fixture_of_lab10(), FIXTURE_COUNT);
    tcase_add_loop_test(tc, marked_kernel_gets_its_verdict, first_marked_of_lab10(), MARKED_COUNT);
    tcase_add_test(tc, a_histogram_timed_run_counts_once);
    tc = grade_case(s, GRADE_VERDICTS, 30); /* the verdicts on case logs made up here: nothing graded */
    tcase_add_test(tc, both_judges_must_agree);
    tcase_add_test(tc, a_device_crash_on_a_right_kernel_is_shown_before_it_counts);
    tcase_add_test(tc, an_implementation_that_gives_up_leaves_the_lab_ungraded);
    tcase_add_test(tc, a_case_of_the_reference_judge_replays_there);
    tc = grade_case(s, GRADE_SOLUTIONS, 900); /* three gradings of every lab, side by side with other units */
    tcase_add_test(tc, broken_oclgrind_is_not_claimed);
    tcase_add_test(tc, solutions_pass_every_lab);
    tcase_add_test(tc, replays_one_case);
    tcase_add_test(tc, setup_errors_exit_2);
    tcase_add_loop_test(tc, json_and_junit_files, 0, 3);
    tcase_add_loop_test(tc, classroom_totals, 0, 3);
    tc = grade_case(s, GRADE_END_TO_END, 300);
    tcase_add_test(tc, labs_side_by_side_report_as_in_order);
    tcase_add_test(tc, submission_of_one_lab_folder);
    tcase_add_loop_test(tc, a_hang_costs_seconds, 0, GRADE_COUNT(hangs));
    tcase_add_loop_test(tc, a_kernel_right_only_when_small_fails_its_timed_run, 0, 2);
    tcase_add_test(tc, no_speed_beside_a_failed_correctness_test);
    tc = grade_case(s, GRADE_LAB11, 300);
    tcase_add_loop_test(tc, scan_kernel_gets_its_verdict, 0, (int)(sizeof scans / sizeof scans[0]));
    tcase_add_test(tc, scan_host_programs);
    tcase_add_test(tc, a_scan_timed_run_is_the_whole_sequence);
    tc = grade_case(s, GRADE_LAB12, 300);
    tcase_add_loop_test(tc, schedule_gets_its_marks, 0, (int)(sizeof schedules / sizeof schedules[0]));
    tc = grade_case(s, GRADE_REAL_WORLD, 300);
    tcase_add_loop_test(tc, public_kernel_gets_its_verdict, 0, (int)(sizeof public_kernels / sizeof public_kernels[0]));
    /* Two cases, run side by side: the kinds of labs 2 to 8, then those of labs 10 to 12. */
    tc = grade_case(s, GRADE_KINDS, 300);
    tcase_add_loop_test(tc, hidden_kind_gets_its_verdict, 0, first_kind_of_lab10());
    tc = grade_case(s, GRADE_KINDS_2, 300);
    tcase_add_loop_test(tc, hidden_kind_gets_its_verdict, first_kind_of_lab10(), KIND_COUNT);
    tcase_add_loop_test(tc, scan_kind_gets_its_verdict, 0, (int)(sizeof scan_kinds / sizeof scan_kinds[0]));
    tcase_add_loop_test(tc, schedule_kind_gets_its_marks, 0, (int)(sizeof schedule_kinds / sizeof schedule_kinds[0]));
    tc = grade_case(s, GRADE_COURSE, 600);
    tcase_add_test(tc, a_course_scores_speed_the_same_every_run);
    /* Under load every stage takes longer: its own, longer deadline. */
    tc = grade_case(s, GRADE_LOAD, 900);
    tcase_add_test(tc, solutions_keep_full_marks_under_load);
    tcase_add_test(tc, gradings_side_by_side_keep_full_marks);
    return s;
}
