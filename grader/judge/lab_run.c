#include "judge/lab_run.h"

#include "files.h"
#include "wire/harness.h"
#include "judge/device_busy.h"
#include "judge/device_lock.h"
#include "judge/oclgrind_counts.h"
#include "judge/source_rules.h"
#include "judge/safetext.h"
#include "labs/contract.h"
#include "labs/technique.h"
#include "sandbox/scratch.h"
#include "timing.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_CASES 256
#define DETAIL_SIZE 8192
#define OUTPUT_KEPT (64u << 10)
#define GUARD_NAN 0x7fa00000u
#define CASE_BASE_S 4.0
#define AFTER_SLOW_S 3.0
/* The reference judge's sample: its structural cases each within STRUCTURE_CASE_S of Oclgrind's time (see
   simulated_seconds), then other shapes and tilings in turn within SAMPLE_FILL_S. --sanitize takes every small case
   within STRUCTURE_CASE_S (all of them but lab 9's widest halos and lab 8's largest strips, 3 to 15 s each: lab 9
   alone took 96 s, now 34 s on 2 cores). */
#define STRUCTURE_CASE_S 2.5
#define SAMPLE_FILL_S 2.0
#define STRUCTURE_TILES 3
/* judge_case's result when the device had no memory for the case's buffers: not the kernel's doing (the judge
   sizes the buffers), so the case is run again after a wait (busy_next_wait). */
#define DEVICE_MEMORY_HELD (-3)

/* The most of a kernel's source read to choose its contract: far more than a kernel's MAX_TOKENS tokens. */
#define CONTRACT_SOURCE_MAX (1 << 20)

/* The whole of path when it is a regular file (never through a link) of at most CONTRACT_SOURCE_MAX bytes, or NULL. */
static char *read_source(const char *path)
{
    struct stat st;
    char *text = NULL;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= CONTRACT_SOURCE_MAX &&
        (text = calloc(1, (size_t)st.st_size + 1)) != NULL) {
        ssize_t got = read(fd, text, (size_t)st.st_size);
        text[got > 0 ? got : 0] = '\0';
    }
    close(fd);
    return text;
}

const struct grade_lab_spec *runlab_contract(const struct grading *g, const struct grade_lab_spec *lab)
{
    char path[PATH_MAX + 128], *text;
    int k;
    if (!lab->contracts)
        return lab;
    snprintf(path, sizeof path, "%s/%s/%s", g->source_dir, lab->name, lab->kernel_file);
    text = read_source(path);
    for (k = 0; text && lab->contracts[k + 1].tilings; k++)
        if (!lab->contracts[k].uses || rules_uses_name(text, lab->contracts[k].uses))
            break;
    free(text);
    return labs_under_contract(lab, k);
}

/* Copies the lab folder into the lab's run folder (a fresh copy each run) and checks the kernel's source rules. */
static int stage(struct lab_run *r, char *why, size_t size)
{
    char work[PATH_MAX + 16], src[PATH_MAX + 32], dst[PATH_MAX + 48], kernel[PATH_MAX + 128];
    char name[64];
    struct stat st;
    snprintf(name, sizeof name, "%s%s", r->lab->name, r->mode == RUNLAB_REFERENCE ? RUNLAB_REFERENCE_RUN : "");
    snprintf(r->run_dir, sizeof r->run_dir, "%s/run-%s", r->g->scratch, name);
    /* No submitted code has run in it yet; the solutions keep every program their runs build anyway. */
    int fresh = r->mode == RUNLAB_GRADE && !r->g->config.solutions && lstat(r->run_dir, &st) != 0;
    if (scratch_open_run(r->g->root, r->g->scratch, name, r->g->config.solutions, r->run_dir, sizeof r->run_dir,
                         why, size) != 0)
        return -1;
    snprintf(work, sizeof work, "%s/work", r->run_dir);
    snprintf(src, sizeof src, "%s/%s", r->g->source_dir, r->lab->name);
    snprintf(dst, sizeof dst, "%s/%s", work, r->lab->name);
    scratch_remove(work); /* each run starts from the submission as it was handed in */
    if (mkdir(work, 0755) != 0 || sandbox_give(work) != 0)
        return snprintf(why, size, "cannot create %s", work), -1;
    if (stat(src, &st) != 0) {
        snprintf(why, size, "%s is missing: the submission has no %s folder (it holds %s and host.c)", src,
                 r->lab->name, r->lab->kernel_file);
        return 1;
    }
    if (scratch_copy_submission(src, dst, why, size) != 0)
        return 1;
    snprintf(kernel, sizeof kernel, "%s/%s", dst, r->lab->kernel_file);
    if (!clk_file_exists(kernel)) {
        snprintf(why, size, "%s is missing (each lab folder holds %s and host.c)", r->kernel_shown,
                 r->lab->kernel_file);
        return 1;
    }
    if (rules_check_file(RULES_KERNEL, kernel, r->kernel_shown, why, size) != 0)
        return 1;
    /* The same source built before, by any run: its programs, kept before any submitted code ran (runlab_open). */
    if (r->mode == RUNLAB_GRADE && (r->source = scratch_read_untrusted(kernel, SCRATCH_BYTES_LIMIT, &r->source_length)))
        scratch_link_builds(r->g->root, name, r->run_dir, r->source, r->source_length);
    if (!fresh) {
        free(r->source);
        r->source = NULL;
    }
    return 0;
}

static void start_runner(struct lab_run *r, char *const wrapper[], int timeout_s, int refused)
{
    char runner[PATH_MAX + 32], work[PATH_MAX + 16], kit[PATH_MAX + 16], host[PATH_MAX + 96], *argv[24];
    struct sandbox_policy policy = {.untrusted = 1, .workdir = work, .readable = kit, .writable = r->run_dir,
                                    .timeout_s = timeout_s, .output_limit = OUTPUT_KEPT, .wire = 1};
    struct wire_job job;
    char name[64];
    int argc = 0;
    snprintf(name, sizeof name, "%s%s", r->lab->name, r->mode == RUNLAB_REFERENCE ? RUNLAB_REFERENCE_RUN : "");
    policy.memory_limit = scratch_memory_limit(r->g->root, name); /* from the kit's solution's measured peak */
    snprintf(runner, sizeof runner, "%s/kit/bin/clkit-runner", r->g->scratch);
    snprintf(work, sizeof work, "%s/work", r->run_dir);
    snprintf(kit, sizeof kit, "%s/kit", r->g->scratch);
    memcpy(policy.hidden, r->g->hidden, sizeof policy.hidden);
    for (int i = 0; wrapper && wrapper[i] && argc < 20; i++)
        argv[argc++] = wrapper[i];
    argv[argc++] = runner;
    argv[argc] = NULL;
    memset(&job, 0, sizeof job);
    snprintf(job.lab, sizeof job.lab, "%s", r->lab->name);
    snprintf(job.device, sizeof job.device, "%s",
             wrapper               ? "oclgrind"
             : r->g->config.device ? r->g->config.device
                                   : "");
    /* A refused kernel is not even compiled: the runner only says which device it has. */
    if (!refused)
        snprintf(job.kernel_path, sizeof job.kernel_path, "%s/%s", r->lab->name, r->lab->kernel_file);
    snprintf(job.include_dir, sizeof job.include_dir, "%s", r->lab->name);
    job.unoptimised = r->unoptimised;
    job.contract = labs_contract_index(r->lab);
    /* A kernel whose builds are kept, beside a host program, is built as that program builds it too (labs without
       tilings: those with pass -DTILE), so that the host program's run starts from that program (host_test.c). */
    snprintf(host, sizeof host, "%s/%s/host.c", work, r->lab->name);
    job.build_as_host = r->source && !refused && !r->lab->tilings && clk_file_exists(host);
    snprintf(job.kernels_dir, sizeof job.kernels_dir, "%.*s/kernels", (int)sizeof job.kernels_dir - 16, kit);
    session_start(&r->session, argv, &policy, &job);
}

/* The runner's first two words: the device (before any submitted code is built), then the build. */
static void hello_and_build(struct lab_run *r)
{
    struct wire_message m;
    if (session_ask(&r->session, 0, NULL, 0, WIRE_HELLO, sizeof r->hello, &m) != 0 || m.length != sizeof r->hello) {
        r->setup = strdup("the runner did not start (see the output above)");
        wire_message_free(&m);
        return;
    }
    memcpy(&r->hello, m.data, sizeof r->hello);
    r->hello.device_name[sizeof r->hello.device_name - 1] = r->hello.error[sizeof r->hello.error - 1] = '\0';
    wire_message_free(&m);
    if (!r->hello.ok) {
        r->setup = strdup(r->hello.error);
        return;
    }
    if (session_ask(&r->session, 0, NULL, 0, WIRE_BUILT, 1 << 20, &m) != 0 || m.length < sizeof(struct wire_built)) {
        r->refusal = strdup("the kernel's build did not finish (the compiler crashed or ran out of time or memory)");
        r->build_stopped = 1;
        wire_message_free(&m);
        return;
    }
    const struct wire_built *b = (const struct wire_built *)m.data;
    if (!b->ok)
        r->refusal = strdup((const char *)m.data + sizeof *b);
    r->max_local = b->max_local >= 1 && b->max_local <= 1024 ? (size_t)b->max_local : 1;
    wire_message_free(&m);
}

int runlab_open(struct lab_run *r, char *const wrapper[], int timeout_s)
{
    char why[8192];
    int staged;
    snprintf(r->kernel_shown, sizeof r->kernel_shown, "%s/%s/%s", r->g->source_dir, r->lab->name,
             r->lab->kernel_file);
    r->refusal = r->setup = NULL;
    r->build_stopped = 0;
    r->max_local = 1;
    memset(&r->hello, 0, sizeof r->hello);
    memset(&r->session, 0, sizeof r->session);
    r->session.child.pid = -1;
    staged = stage(r, why, sizeof why);
    if (staged < 0) {
        r->setup = strdup(why);
        r->session.broken = 1;
        return -1;
    }
    /* A refused submission still meets the device: its tests keep the device's points. */
    r->session.cpu_paced = wrapper != NULL; /* Oclgrind, or (below) a CPU device: a busy machine slows it */
    /* Beside other workers: the device shared while the runner makes its context and builds, and for each
       request after (session_ask), so that a timing waits for no more than a case; a runner under Oclgrind needs
       no device. */
    r->session.device_lock = wrapper ? NULL : judge_config_stage_lock(&r->g->config);
    enum device_lock_mode held = device_lock_take(r->session.device_lock, DEVICE_LOCK_SHARED);
    start_runner(r, wrapper, timeout_s, staged > 0);
    hello_and_build(r);
    device_lock_restore(r->session.device_lock, held);
    if (r->source && staged == 0 && !r->setup && !r->refusal) /* built, and nothing run yet */
        scratch_keep_builds(r->g->root, r->lab->name, r->run_dir, r->source, r->source_length);
    free(r->source);
    r->source = NULL;
    r->session.cpu_paced |= r->hello.ok && !r->hello.is_gpu;
    if (staged > 0) {
        free(r->refusal);
        r->refusal = strdup(why);
    }
    return 0;
}

void runlab_idle(struct lab_run *r, int seconds)
{
    sleep((unsigned)seconds);
    r->session.child.deadline += seconds;
    r->session.started_at += seconds;
}

int runlab_open_patiently(struct lab_run *r, int timeout_s)
{
    struct busy_patience patience = BUSY_PATIENCE(r->g->config.timeout_s);
    int rc, wait_s;
    while ((rc = runlab_open(r, NULL, timeout_s)) >= 0 && r->setup && r->hello.memory_held &&
           (wait_s = busy_next_wait(&patience)) > 0) {
        runlab_close(r, NULL);
        sleep((unsigned)wait_s);
    }
    return rc;
}

void runlab_close(struct lab_run *r, struct sandbox_outcome *outcome)
{
    struct sandbox_outcome ignored;
    double waited = device_lock_waited_s();
    enum device_lock_mode held = device_lock_take(r->session.device_lock, DEVICE_LOCK_SHARED); /* its context ends */
    r->session.child.deadline += device_lock_waited_s() - waited; /* idle meanwhile: not the runner's time */
    if (r->session.child.pid > 0)
        session_end(&r->session, outcome ? outcome : &ignored);
    else if (outcome)
        memset(outcome, 0, sizeof *outcome), outcome->end = SANDBOX_FAILED;
    device_lock_restore(r->session.device_lock, held);
    if (!outcome && r->session.child.pid > 0)
        sandbox_outcome_free(&ignored);
    r->session.child.pid = -1;
    free(r->refusal);
    free(r->setup);
    r->refusal = r->setup = NULL;
}

/* A key for the inputs' digests, drawn once: the kernel never sees the judge's memory. */
static uint64_t digest_key(void)
{
    static uint64_t key;
    if (!key && getrandom(&key, sizeof key, 0) != (ssize_t)sizeof key)
        key = (uint64_t)(clk_now_s() * 1e9) ^ (uint64_t)getpid() * 0x9E3779B97F4A7C15ull;
    return key;
}

/* A guard pattern drawn afresh for each run: a quiet NaN a kernel cannot predict. */
static void draw_guards(uint32_t *bits)
{
    static uint32_t state;
    if (!state)
        state = (uint32_t)(clk_now_s() * 1e6) ^ (uint32_t)getpid() * 2654435761u;
    for (int i = 0; i < GRADE_MAX_BUFFERS; i++) {
        state = state * 1664525u + 1013904223u;
        bits[i] = GUARD_NAN | 0x1000u | (state >> 12);
    }
}

/* Checks that the runner's reply has the layout the judge expects, and points raw into the buffers it wrote. */
static int unpack_case(struct lab_run *r, const struct wire_message *m, const struct grade_launch *launch,
                       size_t guard, size_t bytes, struct harness_raw *raw, int32_t *status, const char **data)
{
    const struct wire_case_done *done = (const struct wire_case_done *)m->data;
    size_t at = 0;
    memset(raw, 0, sizeof *raw);
    if (m->length != sizeof *done)
        return -1;
    *status = done->status;
    if (done->status != CL_SUCCESS)
        return 0;
    if (done->buffer_count != launch->buffer_count || !(*data = session_map_buffers(&r->session, bytes)))
        return -1;
    for (int i = 0; i < launch->buffer_count; i++) {
        if (done->totals[i] != 2 * guard + launch->counts[i])
            return -1;
        raw->data[i] = (float *)(uintptr_t)(*data + at);
        raw->totals[i] = (size_t)done->totals[i];
        at += harness_stride(raw->totals[i]) * sizeof(float);
    }
    return 0;
}

static double round_up(size_t value, size_t step)
{
    return step ? (double)((value + step - 1) / step * step) : (double)value;
}

/* About how long Oclgrind takes over a case on the 2-core machine for a right kernel, however it computes: 13 us
   per multiply-add of the product padded to whole tiles (K to strips of 16), 15 us per element of a padded 2-D
   grid, 15 us per element and per step of a work-item's tree in 1-D (measured with the solutions; a kernel that
   reads every operand from local memory, lab8/lab6-kernel, takes this long also where WPT > 1). */
static double simulated_seconds(const struct lab_run *r, const struct grade_case *c)
{
    size_t side = c->tile ? (size_t)c->tile : c->local[0], local = c->local[0] ? c->local[0] : 1;
    double items, steps = 1.0;
    if (r->lab->family->simulated_steps)
        return 0.05 + r->lab->family->simulated_steps(c) * 13e-6;
    if (c->dims[2])
        return 0.05 + round_up(c->dims[0], side) * round_up(c->dims[1], side) * round_up(c->dims[2], 16) * 13e-6;
    if (c->dims[1])
        return 0.05 + round_up(c->dims[0], side) * round_up(c->dims[1], side) * 15e-6;
    items = c->groups ? (double)(c->groups * local) : round_up(c->dims[0], local);
    for (size_t l = local; l > 1; l /= 2)
        steps++;
    return 0.02 + ((double)c->dims[0] + items * steps) * 15e-6;
}

/* What the sample expects a case to cost: with register blocking a WPT-th of the above plus a tenth, each value
   read from local memory feeding WPT products (5x7x131 at TILE 64, WPT 4 takes 1.5 s of CPU time with the
   solution, 5x7x67 at TILE 128, WPT 8 2.0 s). Limits stay with simulated_seconds, for kernels that do not block. */
static double expected_seconds(const struct lab_run *r, const struct grade_case *c)
{
    return simulated_seconds(r, c) * (c->dims[2] && c->wpt > 1 ? 1.1 / c->wpt : 1.0);
}

/* A case's budget of simulated instructions a launch under the reference judge: REFERENCE_BUDGET_MARGIN times what
   its work needs at Oclgrind's pace, at least REFERENCE_FLOOR_INSTRUCTIONS. */
static uint64_t reference_budget(const struct lab_run *r, const struct grade_case *c)
{
    return (uint64_t)fmax(REFERENCE_FLOOR_INSTRUCTIONS,
                          REFERENCE_BUDGET_MARGIN * REFERENCE_INSTRUCTIONS_PER_S * simulated_seconds(r, c));
}

double runlab_case_limit(const struct lab_run *r, const struct grade_case *c)
{
    double limit;
    /* Under the simulator the budget ends a hang; the clock is only a backstop past it (not --timeout, a device's
       limit): a hang that loops through barriers runs its whole launch budget, at Oclgrind's slowest pace. */
    if (r->mode == RUNLAB_REFERENCE)
        return fmax(REFERENCE_FLOOR_S, CASE_BASE_S + reference_budget(r, c) / REFERENCE_SLOWEST_PACE);
    limit = CASE_BASE_S + r->lab->family->work(c) * 1e-8; /* 100 MB/s: a slow CPU, a kernel doing more work */
    if (r->slow_seen && limit > AFTER_SLOW_S) /* one slow case already cost its limit: a hang costs about 10 s */
        limit = AFTER_SLOW_S;
    return limit < r->g->config.timeout_s ? limit : r->g->config.timeout_s;
}

/* Runs case c in the runner and judges it; returns 0, -1 when the runner is gone, -2 when the judge is out of
   memory. */
static int judge_case(struct lab_run *r, const struct grade_case *c, uint64_t seed, int counted,
                      struct case_verdict *verdict)
{
    struct grade_launch launch;
    struct grade_case judged = *c;
    int judged_here = r->mode == RUNLAB_REFERENCE;
    struct wire_case request = {.c = *c, .seed = seed, .instruction_budget = judged_here ? reference_budget(r, c) : 0,
                                .item_budget = judged_here ? REFERENCE_ITEM_INSTRUCTIONS : 0,
                                .counted = (uint32_t)(judged_here && counted)};
    struct wire_message m;
    struct harness_raw raw;
    size_t bytes = 0;
    const char *data = NULL;
    int32_t status = CL_SUCCESS;
    int rc = 0;
    memset(&launch, 0, sizeof launch);
    memset(verdict, 0, sizeof *verdict);
    r->budget = request.instruction_budget;
    judged.no_reference = 0;
    if (r->lab->family->prepare(&judged, seed, &launch) != 0)
        return labs_launch_free(&launch), -2;
    labs_drop_inputs(&launch, digest_key()); /* the reference is made; the inputs' digests check them */
    for (int i = 0; r->mode == RUNLAB_GRADE && i < launch.buffer_count; i++) {
        size_t guard = harness_guard_elements(&launch, launch.counts[i], r->hello.align_bytes);
        request.guard = guard > request.guard ? guard : request.guard;
    }
    draw_guards(request.guard_bits);
    bytes = harness_area_floats(&launch, request.guard) * sizeof(float);
    if (session_size_buffers(&r->session, bytes) != 0) { /* the runner sealed the file against growing */
        r->session.broken = 1;
        return labs_launch_free(&launch), -1;
    }
    r->session.ask_limit_s = runlab_case_limit(r, c);
    /* Each case is bounded by its own limit (a hang costs that); the run's deadline never cuts one short of it, for
       the cases asked for may add up past any fixed span (every small one under --sanitize, on a busy machine). */
    double case_end = clk_now_s() + SESSION_STRETCH * r->session.ask_limit_s + 1.0;
    if (r->session.child.deadline < case_end)
        r->session.child.deadline = case_end;
    if (session_ask(&r->session, WIRE_CASE, &request, sizeof request, WIRE_CASE_DONE,
                    sizeof(struct wire_case_done), &m) != 0 ||
        unpack_case(r, &m, &launch, request.guard, bytes, &raw, &status, &data) != 0) {
        r->session.broken = 1;
        rc = -1;
    } else if (status == CL_MEM_OBJECT_ALLOCATION_FAILURE && r->mode == RUNLAB_GRADE) {
        rc = DEVICE_MEMORY_HELD;
    } else if (status != CL_SUCCESS) {
        verdict->memory_ok = 1;
        const char *hint = clk_error_hint(status);
        snprintf(verdict->values, sizeof verdict->values, "the launch failed with %s%s%s", clk_error_name(status),
                 hint[0] ? ": " : "", hint);
    } else if (guard_check(r->lab->family, &launch, request.guard, request.guard_bits, &raw, verdict) != 0) {
        rc = -1;
    }
    session_unmap_buffers(data, bytes);
    wire_message_free(&m);
    labs_launch_free(&launch);
    return rc;
}


/* Under a simulator only small exact cases run: a simulated work-item is thousands of times slower. */
static int small_exact(const struct grade_case *c)
{
    size_t d1 = c->dims[1] ? c->dims[1] : 1, d2 = c->dims[2] ? c->dims[2] : 1;
    return c->data == GRADE_EXACT && c->dims[0] * d1 <= 5000 && c->dims[0] * d1 * d2 <= 200000;
}

static int same_shape(const struct grade_case *a, const struct grade_case *b)
{
    return a->data == b->data && !memcmp(a->dims, b->dims, sizeof a->dims);
}

/* The widest strip along K that a kernel of this tile can stage (a strip of A and one of B, TILE x strip floats
   each, in the reference judge's local memory), a power of two no wider than the tile: TILE 128 cannot hold strips
   of 128, so three strips along K there are three of 32 (K > 64), not of 128 (K > 256, beyond Oclgrind's time). */
static size_t widest_strip(size_t tile)
{
    size_t fits = (size_t)RUNLAB_JUDGE_LOCAL_BYTES / (2 * tile * sizeof(float)), strip = 1;
    while (strip * 2 <= fits && strip * 2 <= tile)
        strip *= 2;
    return strip;
}

/* The structure a race or an edge bug may need, as bits: bit d when case c has at least three tiles along its tiled
   dimension d (the rows, columns and K strips of a matrix, K in the widest strips the tile allows; a vector's
   work-groups, then its grid-stride passes), the last one partial. */
static unsigned structure_of(const struct lab_run *r, const struct grade_case *c)
{
    size_t side = c->tile ? (size_t)c->tile : c->local[0], global;
    struct grade_launch launch;
    unsigned bits = 0;
    if (c->dims[1]) {
        for (int d = 0; d < 3 && c->dims[d] && side; d++) {
            size_t along = d == 2 ? widest_strip(side) : side;
            bits |= (c->dims[d] + along - 1) / along >= STRUCTURE_TILES && c->dims[d] % along ? 1u << d : 0u;
        }
        return bits;
    }
    memset(&launch, 0, sizeof launch);
    if (r->lab->family->prepare(c, 0, &launch) == 0 && launch.local[0] && (global = launch.global[0]) > 0) {
        bits |= global / launch.local[0] >= STRUCTURE_TILES && c->dims[0] % launch.local[0] ? 1u : 0u;
        bits |= (c->dims[0] + global - 1) / global >= STRUCTURE_TILES && c->dims[0] % global ? 2u : 0u;
    }
    labs_launch_free(&launch);
    return bits;
}

/* Whether two cases are built and launched alike: the same tiling and work-group (one of a lab's variants). */
static int same_variant(const struct grade_case *a, const struct grade_case *b)
{
    return a->tile == b->tile && a->wpt == b->wpt && a->local[0] == b->local[0] && a->local[1] == b->local[1];
}

/* The variant's case that adds the most structure to covered within STRUCTURE_CASE_S, the cheapest of those; with
   cheapest set, its cheapest case whatever it adds. Returns -1 when there is none. */
static long next_structural(const struct lab_run *r, const struct case_log *log, size_t first, const int *selected,
                            unsigned covered, int cheapest)
{
    long best = -1;
    int best_fresh = 0;
    double best_cost = 0.0;
    for (size_t i = 0; i < log->count; i++) {
        const struct grade_case *c = &log->cases[i];
        if (selected[i] || !small_exact(c) || !same_variant(&log->cases[first], c))
            continue;
        double cost = expected_seconds(r, c);
        int fresh = cheapest ? 0 : __builtin_popcount(structure_of(r, c) & ~covered);
        if (!cheapest && (fresh == 0 || cost > STRUCTURE_CASE_S))
            continue;
        if (best < 0 || fresh > best_fresh || (fresh == best_fresh && cost < best_cost))
            best = (long)i, best_fresh = fresh, best_cost = cost;
    }
    return best;
}

/* Marks, for the variant of case first (a tiling or work-group size), the small exact cases that together have
   every structure its cases have within STRUCTURE_CASE_S, or else its cheapest case. */
static void select_structure(const struct lab_run *r, const struct case_log *log, size_t first, int *selected)
{
    unsigned covered = 0;
    int chosen = 0;
    for (long i; (i = next_structural(r, log, first, selected, covered, 0)) >= 0; chosen++) {
        selected[i] = 1;
        covered |= structure_of(r, &log->cases[i]);
    }
    long cheapest = chosen ? -1 : next_structural(r, log, first, selected, covered, 1);
    if (cheapest >= 0)
        selected[cheapest] = 1;
}

/* Whether case i is the first of its variant in the log. */
static int first_of_variant(const struct case_log *log, size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (same_variant(&log->cases[i], &log->cases[j]))
            return 0;
    return 1;
}

/* Whether a case of case first's variant is selected. */
static int variant_selected(const struct case_log *log, size_t first, const int *selected)
{
    for (size_t i = 0; i < log->count; i++)
        if (selected[i] && same_variant(&log->cases[first], &log->cases[i]))
            return 1;
    return 0;
}

/* Marks the reference judge's cases (--sanitize: every small exact case within STRUCTURE_CASE_S, and for a variant with
   none, its cheapest: never less than the sample). The sample is drawn from structure, not from case numbers: for each
   tiling or work-group size, small cases with three tiles or more along each tiled dimension (K included) and a partial
   last one, wherever one is within reach, and the variant's cheapest case otherwise; then each small shape under one of
   the variants in turn, within SAMPLE_FILL_S. The short sample (short_sample, --sanitize or not) is the structure
   alone: no fill, nor every small case. */
static void select_reference(const struct lab_run *r, const struct case_log *log, int *selected)
{
    double spent = 0.0;
    size_t shape = 0;
    int every = r->g->config.sanitize && !r->short_sample;
    for (size_t i = 0; i < log->count; i++)
        selected[i] = every && small_exact(&log->cases[i]) && expected_seconds(r, &log->cases[i]) <= STRUCTURE_CASE_S;
    for (size_t i = 0; i < log->count; i++) {
        if (!first_of_variant(log, i))
            continue;
        if (!every)
            select_structure(r, log, i, selected);
        else if (!variant_selected(log, i, selected)) { /* never less than the sample: its cheapest case at least */
            long cheapest = next_structural(r, log, i, selected, 0, 1);
            if (cheapest >= 0)
                selected[cheapest] = 1;
        }
    }
    if (every || r->short_sample)
        return;
    for (size_t first = 0, end; first < log->count; first = end, shape++) {
        for (end = first + 1; end < log->count && same_shape(&log->cases[first], &log->cases[end]); end++)
            ;
        size_t i = first + shape % (end - first);
        double work = simulated_seconds(r, &log->cases[i]);
        if (small_exact(&log->cases[i]) && !selected[i] && spent + work <= SAMPLE_FILL_S) {
            selected[i] = 1;
            spent += work;
        }
    }
}

static void show_progress(const struct lab_run *r, size_t i, size_t count)
{
    if (!r->g->style.colour)
        return;
    if (i < count)
        fprintf(r->g->style.out, "\r  \u2026 %s%s: case %zu of %zu\033[K", r->lab->name,
                r->mode == RUNLAB_REFERENCE ? " under Oclgrind" : "", i + 1, count);
    else
        fprintf(r->g->style.out, "\r\033[K");
    fflush(r->g->style.out);
}

/* The lines by which an OpenCL implementation says it gave up, most telling first: glibc's failed assertion
   ("file:line: function: Assertion `expr' failed."), and PoCL failing to load the kernel binary it built itself
   (dlopen's "undefined symbol: ...", then PoCL's note; PoCL 5.0 on lab 7's async_work_group_copy). */
static const struct {
    const char *mark, *then; /* a line holding mark, and then after it when set */
} give_ups[] = {
    {.mark = "Assertion `", .then = "' failed"},
    {.mark = "undefined symbol: "},
    {.mark = "missing symbols in the kernel binary"},
};

void runlab_find_give_up(const char *output, char *text, size_t size)
{
    const char *found = NULL;
    text[0] = '\0';
    for (size_t g = 0; g < sizeof give_ups / sizeof give_ups[0] && !found; g++)
        for (const char *at = output; at && (at = strstr(at, give_ups[g].mark)) != NULL;) {
            const char *end = strchr(at, '\n'), *then = give_ups[g].then ? strstr(at, give_ups[g].then) : at;
            if (then && (!end || then < end))
                found = at;
            at = end;
        }
    if (!found)
        return;
    while (found > output && found[-1] != '\n')
        found--;
    char *clean = safetext_clean(found, 200);
    snprintf(text, size, "%.*s", clean ? (int)strcspn(clean, "\n") : 0, clean ? clean : "");
    free(clean);
}

/* Copies into line the last non-empty line of output, cleaned for the report ("" when there is none). */
static void last_line(const char *output, char *line, size_t size)
{
    const char *end = output + strlen(output), *start;
    while (end > output && (end[-1] == '\n' || end[-1] == ' '))
        end--;
    for (start = end; start > output && start[-1] != '\n'; start--)
        ;
    char *clean = end > start ? safetext_clean(start, (size_t)(end - start) < 200 ? (size_t)(end - start) : 200)
                              : NULL;
    snprintf(line, size, "%.*s", clean ? (int)strcspn(clean, "\n") : 0, clean ? clean : "");
    free(clean);
}

/* Which budget the kit's Oclgrind plugin ended the runner for, from its line in the run's counts file (which a
   simulated kernel cannot write) and its exit status: 0 none, 1 the launch's instructions, 2 one work-item's in a
   row. */
static int budget_spent(const struct lab_run *r, const struct sandbox_outcome *outcome)
{
    char path[PATH_MAX + 96], *counts;
    const char *line;
    size_t length = 0;
    unsigned long long instructions = 0, run = 0;
    if (r->mode != RUNLAB_REFERENCE || outcome->end != SANDBOX_EXITED || outcome->code != CLKIT_BUDGET_EXIT)
        return 0;
    snprintf(path, sizeof path, "%s/run-%s%s/work/clkit-counts.txt", r->g->scratch, r->lab->name,
             RUNLAB_REFERENCE_RUN);
    counts = scratch_read_untrusted(path, 1u << 20, &length);
    line = !counts ? NULL : !strncmp(counts, "clkit-budget ", 13) ? counts : strstr(counts, "\nclkit-budget ");
    int found = line && sscanf(line + (*line == '\n'), "clkit-budget launch=%*u instructions=%llu item_run=%llu",
                               &instructions, &run) == 2;
    free(counts);
    return !found ? 0 : run > REFERENCE_ITEM_INSTRUCTIONS ? 2 : 1;
}

/* How a runner that stopped in a case stopped, in log: past a budget or its time (the reference judge), or as the
   sandbox saw it. */
static void describe_stop(const struct lab_run *r, const struct sandbox_outcome *outcome, int late, double limit,
                          struct case_log *log)
{
    int spent = budget_spent(r, outcome);
    log->over_budget = spent != 0;
    log->out_of_time = r->mode == RUNLAB_REFERENCE && !spent && (late || outcome->end == SANDBOX_TIMED_OUT);
    if (spent == 2)
        snprintf(log->how, sizeof log->how, "did not finish: one work-item ran past %.0f million simulated "
                 "instructions without reaching a barrier or its end, far more than a right kernel needs there (an "
                 "endless loop?)", REFERENCE_ITEM_INSTRUCTIONS / 1e6);
    else if (spent == 1)
        snprintf(log->how, sizeof log->how, "did not finish: a launch ran past %.0f million simulated instructions, "
                 "far more than a right kernel needs there (an endless loop, or a barrier that not every work-item "
                 "reaches?)", (double)r->budget / 1e6);
    else if (late && r->mode == RUNLAB_REFERENCE)
        snprintf(log->how, sizeof log->how, "took longer than %.0f s, within its budget of instructions (a busy "
                 "machine?)", limit);
    else if (late)
        snprintf(log->how, sizeof log->how, "did not finish within %.0f s (an endless loop, or a barrier that not "
                 "every work-item reaches?)", limit);
    else
        sandbox_describe(outcome, r->g->config.timeout_s, log->how, sizeof log->how);
}

/* Closes a runner that stopped in case index and says how in log. */
static void record_stop(struct lab_run *r, size_t index, struct case_log *log)
{
    struct sandbox_outcome outcome;
    double limit = r->session.ask_limit_s;
    int late = r->session.late;
    log->stopped_at = (long)index;
    runlab_close(r, &outcome);
    describe_stop(r, &outcome, late, limit, log);
    /* An implementation that gives up ends in SIGABRT; a message that only looks like it (a kernel's printf)
       before another signal is not the implementation's */
    runlab_find_give_up(outcome.end == SANDBOX_SIGNALED && outcome.code == SIGABRT && outcome.output ? outcome.output
                                                                                                     : "",
                        log->assertion, sizeof log->assertion);
    last_line(outcome.end == SANDBOX_SIGNALED && outcome.output ? outcome.output : "", log->last_words,
              sizeof log->last_words);
    sandbox_outcome_free(&outcome);
}

/* The reference judge's first run: the lab's technique case, whose counts the plugin writes and which are kept at
   once, so that a sample case that Oclgrind cannot finish later leaves the technique measured. */
static void run_technique_case(struct lab_run *r, struct case_log *log)
{
    struct grade_case c;
    struct case_verdict verdict;
    char path[PATH_MAX + 96], *counts;
    size_t length = 0;
    if (!r->lab->technique || r->lab->technique->host_schedule || log->stopped_at >= 0)
        return;
    c = r->lab->technique->shape;
    c.data = GRADE_EXACT;
    if (judge_case(r, &c, r->seed, 1, &verdict) != 0) {
        record_stop(r, RUNLAB_MAX_CASES, log);
        return;
    }
    log->technique_ran = 1;
    snprintf(path, sizeof path, "%s/run-%s%s/work/clkit-counts.txt", r->g->scratch, r->lab->name,
             RUNLAB_REFERENCE_RUN);
    counts = scratch_read_untrusted(path, 1u << 20, &length);
    snprintf(log->technique_counts, sizeof log->technique_counts, "%s",
             counts ? counts_line_of(counts, r->lab->technique->kernel) : "");
    free(counts);
}

/* A large case that did not finish may be only slow (the same kernel may finish on a faster device): that is for
   the reference judge to say on the small cases. So the first one restarts the runner and leaves out the cases as
   large, rather than stopping the cases; returns 1 when the cases go on. */
static int go_on_without_large(struct lab_run *r, size_t index, int late, int *selected, struct case_log *log)
{
    const struct grade_case *slow = &log->cases[index];
    double limit = r->session.ask_limit_s;
    int simulated = r->g->config.simulated;
    if (!late || r->mode != RUNLAB_GRADE || simulated || small_exact(slow) || log->slow_at >= 0)
        return 0;
    if (runlab_open(r, NULL, r->g->config.timeout_s) != 0 || r->setup || r->refusal) {
        runlab_close(r, NULL); /* the runner did not come back: the cases stop where they did */
        return 0;
    }
    log->slow_at = (long)index;
    log->stopped_at = -1;
    r->slow_seen = 1;
    snprintf(log->slow_how, sizeof log->slow_how, "did not finish within %.0f s", limit);
    for (size_t i = index + 1; i < log->count; i++)
        if (selected[i] && r->lab->family->work(&log->cases[i]) >= r->lab->family->work(slow)) {
            selected[i] = 0;
            log->slow_skipped++;
        }
    return 1;
}

/* Judges a case, waiting while the device has no memory for its buffers: another process (a student's host
   program beside this one, another grading) may hold it for as long as its own time limit, so the waits add up
   to twice the run's limit before the device is given up on. */
static int judge_case_patiently(struct lab_run *r, const struct grade_case *c, uint64_t seed,
                                struct case_verdict *verdict)
{
    struct busy_patience patience = BUSY_PATIENCE(r->g->config.timeout_s);
    int rc, wait_s;
    while ((rc = judge_case(r, c, seed, 0, verdict)) == DEVICE_MEMORY_HELD && (wait_s = busy_next_wait(&patience)) > 0)
        runlab_idle(r, wait_s);
    return rc;
}

/* The most instructions a launch simulated among the plugin's lines after the first skip bytes of its counts file. */
static double most_instructions(const struct lab_run *r, size_t *skip, double *longest_run)
{
    char path[PATH_MAX + 96], *counts;
    size_t length = 0;
    double most = 0.0, one, run;
    snprintf(path, sizeof path, "%s/run-%s%s/work/clkit-counts.txt", r->g->scratch, r->lab->name,
             RUNLAB_REFERENCE_RUN);
    counts = scratch_read_untrusted(path, 1u << 24, &length);
    for (const char *at = counts ? counts + (length >= *skip ? *skip : 0) : NULL;
         at && (at = strstr(at, " instructions=")) != NULL; at++)
        if (sscanf(at, " instructions=%lf item_run=%lf", &one, &run) == 2) {
            most = fmax(most, one);
            *longest_run = fmax(*longest_run, run);
        }
    *skip = length;
    free(counts);
    return most;
}

/* With CLKIT_STAGE_TIMES=1, how long the reference judge took over one case (NULL: the technique case), and the
   most instructions one of its launches simulated against its budget. */
static void show_case_time(const struct lab_run *r, const struct grade_case *c, double started)
{
    static size_t seen;
    char shape[128] = "the technique case";
    if (!clk_stage_times() || r->mode != RUNLAB_REFERENCE)
        return;
    if (c)
        r->lab->family->describe(c, shape, sizeof shape);
    double longest_run = 0.0, most = most_instructions(r, &seen, &longest_run);
    fprintf(stderr, "case %s under Oclgrind, %s: %.2f s, %.0f instructions of a budget of %.0f, %.0f by one "
            "work-item in a row\n", r->lab->name, shape, clk_now_s() - started, most, (double)r->budget, longest_run);
}

void runlab_run_cases(struct lab_run *r, size_t max_local, long only_case, struct case_log *log)
{
    static int selected[RUNLAB_MAX_CASES];
    log->count = labs_expand_cases(r->lab, max_local, log->cases, RUNLAB_MAX_CASES);
    log->stopped_at = log->slow_at = -1;
    log->slow_skipped = 0;
    log->how[0] = log->slow_how[0] = '\0';
    log->out_of_memory = log->device_memory_held = log->technique_ran = log->over_budget = log->out_of_time = 0;
    log->assertion[0] = log->last_words[0] = '\0';
    log->technique_counts[0] = '\0';
    memset(log->ran, 0, sizeof log->ran);
    for (size_t i = 0; i < log->count; i++)
        selected[i] = only_case == RUNLAB_ALL_CASES || (only_case >= 0 && (size_t)only_case == i);
    if (r->mode == RUNLAB_REFERENCE && only_case == RUNLAB_ALL_CASES)
        select_reference(r, log, selected);
    double started = clk_now_s();
    if (r->mode == RUNLAB_REFERENCE && only_case < 0 && !r->short_sample)
        run_technique_case(r, log);
    show_case_time(r, NULL, started);
    for (size_t i = 0; i < log->count && log->stopped_at < 0; i++) {
        if (!selected[i] || (r->mode == RUNLAB_REFERENCE && !small_exact(&log->cases[i])))
            continue;
        show_progress(r, i, log->count);
        started = clk_now_s();
        int rc = judge_case_patiently(r, &log->cases[i], r->seed + i, &log->verdicts[i]);
        show_case_time(r, &log->cases[i], started);
        log->ran[i] = rc == 0;
        if (rc == -2)
            log->out_of_memory = 1;
        if (rc == DEVICE_MEMORY_HELD) {
            log->device_memory_held = 1;
            log->stopped_at = (long)i;
            snprintf(log->how, sizeof log->how, "found no device memory for its buffers");
        } else if (rc != 0) {
            int late = r->session.late;
            record_stop(r, i, log);
            go_on_without_large(r, i, late && rc == -1, selected, log);
        }
    }
    show_progress(r, log->count, log->count);
    r->session.ask_limit_s = 0;
}
