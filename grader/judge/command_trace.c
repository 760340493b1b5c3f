#include "judge/command_trace.h"

#include "ledger.h"
#include "ledgertag.h"
#include "text.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NODES (CLK_LEDGER_COMMANDS + 256) /* the ledger's commands, and user events */
#define WORDS ((MAX_NODES + 63) / 64)
#define MAX_QUEUES 256
#define MAX_BUFFERS 4096
#define MAX_ACCESS 17
#define MAX_WAITS 64
#define MAX_STEPS 16384

enum node_type { N_WRITE, N_READ, N_KERNEL, N_COPY, N_FILL, N_MAP, N_UNMAP, N_MARKER, N_BARRIER, N_USER, N_TYPES };

static const char *const type_names[N_TYPES] = {
    [N_WRITE] = "write", [N_READ] = "read",     [N_KERNEL] = "kernel",   [N_COPY] = "copy",  [N_FILL] = "fill",
    [N_MAP] = "map",     [N_UNMAP] = "unmap",   [N_MARKER] = "marker",   [N_BARRIER] = "barrier", [N_USER] = "user",
};

/* How the report names a command of each type. */
static const char *const type_calls[N_TYPES] = {
    [N_WRITE] = "clEnqueueWriteBuffer",          [N_READ] = "clEnqueueReadBuffer",
    [N_KERNEL] = "kernel launch",                [N_COPY] = "clEnqueueCopyBuffer",
    [N_FILL] = "clEnqueueFillBuffer",            [N_MAP] = "clEnqueueMapBuffer",
    [N_UNMAP] = "clEnqueueUnmapMemObject",       [N_MARKER] = "marker",
    [N_BARRIER] = "barrier",                     [N_USER] = "user event",
};

/* A range of a buffer (by its root: a sub-buffer's parent) that a command reads or writes. */
struct access {
    long root;
    size_t lo, hi;
    int write;
};

struct node {
    enum node_type type;
    long queue, event;
    int blocking, offset_launch, ordinal, pass, step, known_step, has_times;
    struct access access[MAX_ACCESS];
    int access_count;
    long waits[MAX_WAITS];
    int wait_count;
    const char *known_by; /* the host's wait that first covered it */
    unsigned long long start, end;
};

/* One thing the host did, in order: enqueue a command, or wait ('f' clFinish, 'w' an event, 'u' set a user
   event, 'b' after a blocking command). */
struct step {
    char kind;
    long id; /* the node ('c', 'u', 'b'), the queue ('f') or the event ('w') */
    const char *how;
};

struct queue {
    long id;
    int out_of_order;
};

struct buffer {
    long id, parent;
    size_t size, origin;
    int read_only;
};

struct trace {
    struct node nodes[MAX_NODES];
    int count, overflow, unknown_wait;
    struct step steps[MAX_STEPS];
    int step_count;
    struct queue queues[MAX_QUEUES];
    int queue_count;
    struct buffer buffers[MAX_BUFFERS];
    int buffer_count;
    uint64_t closure[MAX_NODES][WORDS]; /* the commands that end before each starts */
    uint64_t known[WORDS];              /* the commands the host has seen end */
    int ordinals[N_TYPES];
};

static int has(const uint64_t *set, int i)
{
    return (set[i / 64] >> (i % 64)) & 1;
}

static void add(uint64_t *set, int i)
{
    set[i / 64] |= (uint64_t)1 << (i % 64);
}

/* set |= closure of n and n itself. */
static void add_with_closure(const struct trace *t, uint64_t *set, int n)
{
    for (int w = 0; w < WORDS; w++)
        set[w] |= t->closure[n][w];
    add(set, n);
}

int trace_unseal(char *text, const uint64_t key[2], long *bad_line)
{
    char *out = text, *line = text;
    unsigned long seq = 0;
    *bad_line = 0;
    while (*line) {
        char *end = strchr(line, '\n'), *body;
        unsigned long got;
        unsigned long long tag;
        int used = 0;
        if (!end)
            end = line + strlen(line); /* a last line cut short: its seal fails below */
        *bad_line = (long)seq + 1;
        if (sscanf(line, "%lu %16llx %n", &got, &tag, &used) != 2 || used == 0 || got != seq)
            return -1;
        body = line + used;
        if (*end == '\0' || (size_t)(end - body) > CLK_LEDGER_LINE_MAX)
            return -1;
        *end = '\0';
        if (clk_ledger_tag(key, seq, body) != tag)
            return -1;
        memmove(out, body, (size_t)(end - body));
        out += end - body;
        *out++ = '\n';
        line = end + 1;
        seq++;
    }
    *out = '\0';
    *bad_line = 0;
    return 0;
}

static struct queue *find_queue(struct trace *t, long id)
{
    for (int i = 0; i < t->queue_count; i++)
        if (t->queues[i].id == id)
            return &t->queues[i];
    return NULL;
}

static const struct buffer *find_buffer(const struct trace *t, long id)
{
    for (int i = t->buffer_count; i > 0; i--)
        if (t->buffers[i - 1].id == id)
            return &t->buffers[i - 1];
    return NULL;
}

static int node_of_event(const struct trace *t, long event)
{
    for (int i = 0; event > 0 && i < t->count; i++)
        if (t->nodes[i].event == event)
            return i;
    return -1;
}

/* Adds to n the range [offset, offset + size) of buffer id (size 0: the whole buffer), by its root; a buffer the
   ledger never saw is left out (it cannot race with one it saw). */
static void add_access(const struct trace *t, struct node *n, long id, size_t offset, size_t size, int write)
{
    const struct buffer *b = find_buffer(t, id), *root = b;
    size_t origin = 0;
    int read_only = b ? b->read_only : 0;
    if (!b || n->access_count >= MAX_ACCESS)
        return;
    if (size == 0)
        size = b->size - (offset < b->size ? offset : b->size);
    for (int depth = 0; root && root->parent != 0 && depth < 64; depth++) {
        origin += root->origin;
        root = find_buffer(t, root->parent);
        if (root && read_only == 2)
            read_only = root->read_only;
    }
    if (!root)
        return;
    n->access[n->access_count++] = (struct access){.root = root->id, .lo = origin + offset,
                                                   .hi = origin + offset + size,
                                                   .write = write > 0 || (write < 0 && read_only != 1)};
}

/* The number after key= in a cmd line's words, or fallback. */
static long word_number(const char *line, const char *key, long fallback)
{
    char pattern[16];
    const char *at;
    snprintf(pattern, sizeof pattern, " %s=", key);
    at = strstr(line, pattern);
    return at ? strtol(at + strlen(pattern), NULL, 10) : fallback;
}

/* The numbers of a list (key=1,2,3) into out; an entry "?" is -1. */
static int word_list(const char *line, const char *key, long *out, int max)
{
    char pattern[16];
    const char *at;
    int count = 0;
    snprintf(pattern, sizeof pattern, " %s=", key);
    if (!(at = strstr(line, pattern)))
        return 0;
    at += strlen(pattern);
    while (count < max && *at && *at != ' ') {
        char *end;
        long value = *at == '?' ? -1 : strtol(at, &end, 10);
        out[count++] = value;
        at = *at == '?' ? at + 1 : end;
        if (*at != ',')
            break;
        at++;
    }
    return count;
}

static void add_step(struct trace *t, char kind, long id, const char *how)
{
    if (t->step_count < MAX_STEPS)
        t->steps[t->step_count++] = (struct step){.kind = kind, .id = id, .how = how};
}

/* A cmd line: a command node, its accesses and waits, and its step (and the host's wait after a blocking one). */
static void parse_command(struct trace *t, const char *line)
{
    char type[16] = "";
    struct node *n;
    long bufs[MAX_ACCESS];
    int count;
    if (sscanf(line, "cmd %15s", type) != 1 || t->count >= MAX_NODES) {
        t->overflow = 1;
        return;
    }
    n = &t->nodes[t->count];
    memset(n, 0, sizeof *n);
    for (int k = 0; k < N_TYPES; k++)
        if (strcmp(type, type_names[k]) == 0)
            n->type = (enum node_type)k;
    n->queue = word_number(line, "q", 0), n->event = word_number(line, "ev", 0);
    n->blocking = (int)word_number(line, "blk", 0), n->offset_launch = (int)word_number(line, "goff", 0);
    n->wait_count = word_list(line, "wait", n->waits, MAX_WAITS);
    n->ordinal = ++t->ordinals[n->type];
    switch (n->type) {
    case N_KERNEL:
        count = word_list(line, "bufs", bufs, MAX_ACCESS);
        for (int i = 0; i < count; i++)
            add_access(t, n, bufs[i], 0, 0, -1);
        break;
    case N_COPY:
        add_access(t, n, word_number(line, "src", 0), (size_t)word_number(line, "soff", 0),
                   (size_t)word_number(line, "size", 0), 0);
        add_access(t, n, word_number(line, "b", 0), (size_t)word_number(line, "off", 0),
                   (size_t)word_number(line, "size", 0), 1);
        break;
    case N_WRITE:
    case N_FILL:
    case N_READ:
    case N_MAP:
    case N_UNMAP:
        add_access(t, n, word_number(line, "b", 0), (size_t)word_number(line, "off", 0),
                   (size_t)word_number(line, "size", 0), n->type != N_READ);
        break;
    default:
        break;
    }
    n->step = t->step_count;
    add_step(t, 'c', t->count, NULL);
    if (n->blocking)
        add_step(t, 'b', t->count, n->type == N_READ ? "a blocking clEnqueueReadBuffer"
                                   : n->type == N_WRITE ? "a blocking clEnqueueWriteBuffer" : "a blocking map");
    t->count++;
}

/* Reads the unsealed ledger's lines the graph needs. */
static void parse(struct trace *t, const char *text)
{
    const char *next = text;
    char line[CLK_LEDGER_LINE_MAX + 2];
    while (next && *next) {
        long id = 0, parent = 0;
        size_t size = 0, origin = 0;
        int flag = 0;
        unsigned long long start, end;
        size_t length = strcspn(next, "\n");
        /* One line at a time: a key missing from it must not be found on a later line. */
        snprintf(line, sizeof line, "%.*s", (int)(length < sizeof line - 1 ? length : sizeof line - 1), next);
        if (strncmp(line, "cmd ", 4) == 0)
            parse_command(t, line);
        else if (strcmp(line, "cmd-overflow") == 0 || strcmp(line, "wait-overflow") == 0 ||
                 strcmp(line, "object-overflow") == 0)
            t->overflow = 1;
        else if (sscanf(line, "qid %ld %d", &id, &flag) == 2 && t->queue_count < MAX_QUEUES)
            t->queues[t->queue_count++] = (struct queue){.id = id, .out_of_order = flag};
        else if (sscanf(line, "buffer %ld %zu %d %ld %zu", &id, &size, &flag, &parent, &origin) == 5 &&
                 t->buffer_count < MAX_BUFFERS)
            t->buffers[t->buffer_count++] = (struct buffer){.id = id, .parent = parent, .size = size,
                                                            .origin = origin, .read_only = flag};
        else if (sscanf(line, "finish %ld", &id) == 1)
            add_step(t, 'f', id, "clFinish");
        else if (strncmp(line, "waitfor", 7) == 0) {
            long events[MAX_WAITS];
            int count = word_list(line, "wait", events, MAX_WAITS);
            for (int i = 0; i < count; i++)
                add_step(t, 'w', events[i], "clWaitForEvents");
        } else if (sscanf(line, "poll %ld", &id) == 1)
            add_step(t, 'w', id, "clGetEventInfo polled until complete");
        else if (sscanf(line, "uevent %ld", &id) == 1 && t->count < MAX_NODES) {
            t->nodes[t->count] = (struct node){.type = N_USER, .event = id, .ordinal = ++t->ordinals[N_USER]};
            t->count++;
        } else if (sscanf(line, "ustatus %ld", &id) == 1)
            add_step(t, 'u', node_of_event(t, id), NULL);
        else if (sscanf(line, "times %ld %llu %llu", &id, &start, &end) == 3 && node_of_event(t, id) >= 0) {
            struct node *n = &t->nodes[node_of_event(t, id)];
            n->start = start, n->end = end, n->has_times = 1;
        }
        next = strchr(next, '\n');
        next = next ? next + 1 : NULL;
    }
}

/* The host has seen everything in set end, by how (at step s). */
static void host_knows(struct trace *t, const uint64_t *set, const char *how, int s)
{
    for (int i = 0; i < t->count; i++)
        if (has(set, i) && !has(t->known, i)) {
            add(t->known, i);
            t->nodes[i].known_by = how, t->nodes[i].known_step = s;
        }
}

/* What command n waits for: the host's knowledge, its queue's order, its wait list. */
static void order_command(struct trace *t, int n, int *last, int *barrier, uint64_t (*queued)[WORDS])
{
    struct node *node = &t->nodes[n];
    struct queue *q = find_queue(t, node->queue);
    int qi = q ? (int)(q - t->queues) : -1;
    uint64_t *c = t->closure[n];
    memcpy(c, t->known, sizeof t->known);
    for (int i = 0; i < node->wait_count; i++) {
        int e = node_of_event(t, node->waits[i]);
        if (e < 0)
            t->unknown_wait = 1;
        else
            add_with_closure(t, c, e);
    }
    if (qi < 0) {
        t->unknown_wait = 1; /* a queue it never saw made: its order cannot be followed */
        return;
    }
    if (!q->out_of_order && last[qi] >= 0)
        add_with_closure(t, c, last[qi]);
    if (q->out_of_order && barrier[qi] >= 0)
        add_with_closure(t, c, barrier[qi]);
    if (q->out_of_order && (node->type == N_MARKER || node->type == N_BARRIER) && node->wait_count == 0)
        for (int w = 0; w < WORDS; w++)
            c[w] |= queued[qi][w];
    add_with_closure(t, queued[qi], n);
    last[qi] = n;
    if (node->type == N_BARRIER)
        barrier[qi] = n;
}

/* One pass over the host's steps: each command's closure, the host's knowledge, the pipelines (passes). */
static void order_pass(struct trace *t)
{
    static uint64_t queued[MAX_QUEUES][WORDS];
    int last[MAX_QUEUES], barrier[MAX_QUEUES], pass = 0, commands = 0;
    memset(queued, 0, sizeof queued);
    memset(t->known, 0, sizeof t->known);
    for (int q = 0; q < MAX_QUEUES; q++)
        last[q] = barrier[q] = -1;
    for (int s = 0; s < t->step_count; s++) {
        const struct step *step = &t->steps[s];
        int e;
        switch (step->kind) {
        case 'c': {
            int all_known = commands > 0;
            for (int i = 0; i < step->id && all_known; i++)
                all_known = t->nodes[i].type == N_USER || has(t->known, i);
            pass += all_known;
            t->nodes[step->id].pass = pass;
            order_command(t, (int)step->id, last, barrier, queued);
            commands++;
            break;
        }
        case 'b':
        case 'w': {
            uint64_t set[WORDS] = {0};
            e = step->kind == 'b' ? (int)step->id : node_of_event(t, step->id);
            if (e >= 0)
                add_with_closure(t, set, e);
            host_knows(t, set, step->how, s);
            break;
        }
        case 'f': {
            struct queue *q = find_queue(t, step->id);
            if (q)
                host_knows(t, queued[q - t->queues], step->how, s);
            break;
        }
        case 'u':
            if (step->id >= 0) {
                uint64_t set[WORDS];
                memcpy(t->closure[step->id], t->known, sizeof t->known);
                memcpy(set, t->known, sizeof set);
                add(set, (int)step->id);
                host_knows(t, set, "a user event set", s);
            }
            break;
        }
    }
}

/* Orders the commands: passes until a user event's closure, known only when it is set, stops changing. */
static void order(struct trace *t)
{
    static uint64_t before[MAX_NODES][WORDS];
    for (int round = 0; round < 6; round++) {
        memcpy(before, t->closure, sizeof before);
        order_pass(t);
        if (memcmp(before, t->closure, sizeof before) == 0)
            return;
    }
}

static int ordered(const struct trace *t, int a, int b)
{
    return has(t->closure[b], a) || has(t->closure[a], b);
}

static int conflict(const struct node *a, const struct node *b)
{
    for (int i = 0; i < a->access_count; i++)
        for (int j = 0; j < b->access_count; j++) {
            const struct access *x = &a->access[i], *y = &b->access[j];
            if (x->root == y->root && x->lo < y->hi && y->lo < x->hi && (x->write || y->write))
                return 1;
        }
    return 0;
}

/* "the 3rd kernel launch" */
static const char *name_of(const struct trace *t, int n, char *text, size_t size)
{
    int k = t->nodes[n].ordinal;
    const char *suffix = k % 100 >= 11 && k % 100 <= 13 ? "th" : k % 10 == 1 ? "st" : k % 10 == 2 ? "nd"
                                                              : k % 10 == 3 ? "rd" : "th";
    snprintf(text, size, "the %d%s %s", k, suffix, type_calls[t->nodes[n].type]);
    return text;
}

/* The first race said in v->why, all counted. */
static void find_races(const struct trace *t, struct trace_verdict *v)
{
    char a_name[96], b_name[96];
    for (int b = 0; b < t->count; b++)
        for (int a = 0; a < b; a++) {
            if (!conflict(&t->nodes[a], &t->nodes[b]) || ordered(t, a, b))
                continue;
            if (v->races++ == 0)
                snprintf(v->why, sizeof v->why, "a race: %s and %s use the same buffer and nothing orders them (no "
                         "wait list, queue order or host wait puts one after the other), so %s: give the later "
                         "command the earlier one's event in its wait list", name_of(t, a, a_name, sizeof a_name),
                         name_of(t, b, b_name, sizeof b_name),
                         t->nodes[b].type == N_KERNEL && t->nodes[a].type == N_WRITE
                             ? "the kernel may start before its upload ends"
                         : t->nodes[b].type == N_READ ? "the download may read the buffer before the kernel ends"
                         : t->nodes[a].type == N_KERNEL ? "the buffer may be reused while the kernel still uses it"
                         : t->nodes[a].type == N_WRITE && t->nodes[b].type == N_WRITE
                             ? "the later upload may overwrite the buffer before what the earlier one wrote is used"
                                                        : "the buffer may be reused before the download ends");
        }
}

/* Why command first ends before command second starts, said after "because". */
static void why_ordered(const struct trace *t, int first, int second, char *text, size_t size)
{
    const struct node *f = &t->nodes[first], *s = &t->nodes[second];
    struct queue *q = find_queue((struct trace *)t, s->queue);
    if (f->known_by && f->known_step < s->step)
        snprintf(text, size, "the host waited for it (%s) before it enqueued the other: no wait of the host's in "
                 "the loop, only at the end", f->known_by);
    else if (f->queue == s->queue && q && !q->out_of_order)
        snprintf(text, size, "both are on one in-order queue, which runs one command after the other: put "
                 "transfers and kernels on queues of their own (or on an out-of-order queue)");
    else
        snprintf(text, size, "the later one waits for the earlier through its wait list, directly or through the "
                 "commands it waits for");
}

/* Links each upload to the kernel that reads it (the first kernel after it on its memory) and each download to
   the kernel whose output it reads (the last kernel before it on its memory), in link; -1 for none. */
static void link_transfers(const struct trace *t, int *link)
{
    for (int x = 0; x < t->count; x++) {
        const struct node *n = &t->nodes[x];
        link[x] = -1;
        if (n->type == N_WRITE)
            for (int k = x + 1; k < t->count && link[x] < 0; k++)
                if (t->nodes[k].type == N_KERNEL && conflict(n, &t->nodes[k]))
                    link[x] = k;
        if (n->type == N_READ)
            for (int k = x - 1; k >= 0 && link[x] < 0; k--)
                if (t->nodes[k].type == N_KERNEL && conflict(n, &t->nodes[k]))
                    link[x] = k;
    }
}

/* Whether some upload feeds a kernel of the pipeline and some download drains one. */
static int moves_chunks(const struct trace *t, const int *kernels, int count, const int *link)
{
    int uploads = 0, downloads = 0;
    for (int x = 0; x < t->count; x++)
        for (int i = 0; link[x] >= 0 && i < count; i++)
            if (link[x] == kernels[i])
                uploads += t->nodes[x].type == N_WRITE, downloads += t->nodes[x].type == N_READ;
    return uploads > 0 && downloads > 0;
}

/* Checks that each kernel of the pipeline can run while the next chunk's upload and the last chunk's download
   run: neither ordered before nor after it. Returns 0, or 1 with why. */
static int check_neighbours(const struct trace *t, const int *kernels, int count, struct trace_verdict *v)
{
    char x_name[96], k_name[96], because[320];
    int *link = calloc((size_t)t->count + 1, sizeof *link);
    if (!link)
        return 0; /* no memory to judge the overlap: not held against the program */
    link_transfers(t, link);
    if (!moves_chunks(t, kernels, count, link)) {
        snprintf(v->why, sizeof v->why, "its %d kernel launches read no chunk uploaded with clEnqueueWriteBuffer, or "
                 "write none downloaded with clEnqueueReadBuffer: the lab moves each chunk with those, so that the "
                 "transfers can overlap the kernels", count);
        free(link);
        return 1;
    }
    for (int i = 0; i < count; i++)
        for (int x = 0; x < t->count; x++) {
            int next_upload = i + 1 < count && t->nodes[x].type == N_WRITE && link[x] == kernels[i + 1];
            int last_download = i > 0 && t->nodes[x].type == N_READ && link[x] == kernels[i - 1];
            int first, second;
            if (!(next_upload || last_download) || !ordered(t, x, kernels[i]))
                continue;
            first = has(t->closure[kernels[i]], x) ? x : kernels[i];
            second = first == x ? kernels[i] : x;
            why_ordered(t, first, second, because, sizeof because);
            snprintf(v->why, sizeof v->why, "no overlap: %s (%s of chunk %d) cannot run while %s (chunk %d) runs, "
                     "because %s", name_of(t, x, x_name, sizeof x_name), next_upload ? "the upload" : "the download",
                     next_upload ? i + 2 : i, name_of(t, kernels[i], k_name, sizeof k_name), i + 1, because);
            free(link);
            return 1;
        }
    free(link);
    return 0;
}

/* The longest pipeline's kernels into kernels (at most MAX_NODES); returns their count. */
static int longest_pipeline(const struct trace *t, int *kernels, int *passes)
{
    int best = 0, best_count = 0;
    *passes = 0;
    for (int i = 0; i < t->count; i++)
        if (t->nodes[i].pass > *passes)
            *passes = t->nodes[i].pass;
    for (int p = 0; p <= *passes; p++) {
        int count = 0;
        for (int i = 0; i < t->count; i++)
            count += t->nodes[i].type == N_KERNEL && t->nodes[i].pass == p;
        if (count > best_count)
            best = p, best_count = count;
    }
    best_count = 0;
    for (int i = 0; i < t->count; i++)
        if (t->nodes[i].type == N_KERNEL && t->nodes[i].pass == best)
            kernels[best_count++] = i;
    return best_count;
}

/* Why the kernels never ran in a pipeline of enough chunks, in v->why. */
static void too_few_chunks(const struct trace *t, int count, struct trace_verdict *v)
{
    int total = t->ordinals[N_KERNEL], waited = -1;
    /* The last kernel the host waited before: the wait named is the one the program ends with. */
    for (int i = 0; i < t->count; i++)
        if (t->nodes[i].type == N_KERNEL && t->nodes[i].pass > 0 && t->nodes[i].ordinal > 1)
            waited = i;
    if (count <= 1 && total > 1 && waited >= 0) {
        const char *how = "a wait";
        int latest = -1;
        for (int i = 0; i < waited; i++)
            if (t->nodes[i].known_by && t->nodes[i].known_step < t->nodes[waited].step &&
                t->nodes[i].known_step > latest)
                how = t->nodes[i].known_by, latest = t->nodes[i].known_step;
        snprintf(v->why, sizeof v->why, "serialised: before each of its %d kernel launches the host waited for "
                 "everything it had enqueued (%s, in the loop), so no transfer can overlap a kernel: enqueue every "
                 "chunk's commands with events and wait lists, and wait once, at the end", total, how);
    } else
        snprintf(v->why, sizeof v->why, "it ran %d kernel launch%s in one pipeline at most (%d in all): the lab's "
                 "size asks for at least %d chunks, each uploaded, computed and downloaded in one pipeline the "
                 "host does not wait in", count, count == 1 ? "" : "es", total, TRACE_MIN_CHUNKS);
}

/* The pipeline's profiled timeline, said in v->measured. */
static void measure(const struct trace *t, const int *kernels, int count, struct trace_verdict *v)
{
    unsigned long long first = 0, last = 0, transfers = 0, compute = 0;
    int pass = count > 0 ? t->nodes[kernels[0]].pass : -1, timed = 0;
    for (int i = 0; i < t->count; i++) {
        const struct node *n = &t->nodes[i];
        if (n->pass != pass || !n->has_times || n->end < n->start ||
            (n->type != N_WRITE && n->type != N_READ && n->type != N_KERNEL))
            continue;
        first = timed == 0 || n->start < first ? n->start : first;
        last = n->end > last ? n->end : last;
        *(n->type == N_KERNEL ? &compute : &transfers) += n->end - n->start;
        timed++;
    }
    if (timed == 0 || last <= first)
        return;
    snprintf(v->measured, sizeof v->measured, "profiled: %d chunks in %.3f ms; transfers %.3f ms and kernels %.3f "
             "ms in all: %.2fx the larger (1.00: the smaller hidden behind it; below 1.00, uploads and downloads also "
             "ran side by side), %.2fx their sum (1.00: no overlap)", count,
             (double)(last - first) * 1e-6, (double)transfers * 1e-6, (double)compute * 1e-6,
             (double)(last - first) / (double)(transfers > compute ? transfers : compute),
             (double)(last - first) / (double)(transfers + compute));
}

/* Faults of the contract beyond races: a launch with an offset, a download never waited for. */
static int contract_faults(const struct trace *t, struct trace_verdict *v)
{
    char name[96];
    for (int i = 0; i < t->count; i++)
        if (t->nodes[i].type == N_KERNEL && t->nodes[i].offset_launch) {
            snprintf(v->why, sizeof v->why, "%s has a global work offset: the lab runs each chunk's kernel from "
                     "offset 0 on buffers (or sub-buffers) of the chunk's own", name_of(t, i, name, sizeof name));
            return 1;
        }
    for (int i = 0; i < t->count; i++)
        if (t->nodes[i].type == N_READ && !has(t->known, i)) {
            snprintf(v->why, sizeof v->why, "%s is never waited for (clFinish, clWaitForEvents or a blocking "
                     "call after it), so the host may use the result before it arrives",
                     name_of(t, i, name, sizeof name));
            return 1;
        }
    return 0;
}

int trace_check(const char *text, int want_overlap, struct trace_verdict *v)
{
    struct trace *t = calloc(1, sizeof *t);
    int *kernels = calloc(MAX_NODES, sizeof *kernels), count, passes, rc = 0;
    memset(v, 0, sizeof *v);
    if (!t || !kernels) {
        snprintf(v->why, sizeof v->why, "the grader ran out of memory reading the commands");
        free(t), free(kernels);
        return -1;
    }
    parse(t, text);
    order(t);
    count = longest_pipeline(t, kernels, &passes);
    v->kernels = count;
    measure(t, kernels, count, v);
    if (t->overflow)
        snprintf(v->why, sizeof v->why, "it enqueued more commands (or waited more often) than the grader follows: "
                 "the ledger keeps %d commands, %d waits and %d queues, buffers and user events", CLK_LEDGER_COMMANDS,
                 CLK_LEDGER_WAITS, CLK_LEDGER_OBJECT_LINES);
    else if (t->unknown_wait)
        snprintf(v->why, sizeof v->why, "a wait list names an event, or a command a queue, that the grader cannot "
                 "follow (from a call the lab does not use, or past %d queues): schedule with clEnqueueWriteBuffer, "
                 "clEnqueueNDRangeKernel, clEnqueueReadBuffer, markers, barriers and user events", MAX_QUEUES);
    rc = t->overflow || t->unknown_wait ? -1 : 0;
    if (rc == 0)
        find_races(t, v);
    if (rc == 0 && (v->races > 0 || contract_faults(t, v)))
        rc = 1, v->unsafe = 1;
    if (rc == 0 && want_overlap) {
        if (count < TRACE_MIN_CHUNKS)
            too_few_chunks(t, count, v);
        else
            v->overlapped = !check_neighbours(t, kernels, count, v);
        rc = v->overlapped ? 0 : 1;
    }
    free(t);
    free(kernels);
    return rc;
}
