#include "sandbox/scratch.h"

#include "sandbox/sandbox.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CACHE_FILES_LIMIT 100000
#define CACHE_BYTES_LIMIT ((size_t)256 << 20)

/* Limits and rules of one tree copy. */
struct copy_rules {
    int refuse_links; /* a submission: a link or special file is an error; else they are skipped */
    int give;         /* hand each copy to the user confined code runs as */
    int merge;        /* a file that is already there stays (a cache) */
    int link;         /* hard-link files instead of copying them (they stay the judge's, read-only to the runner) */
    mode_t file_mode;
    size_t files_left, bytes_left;
    const char *shown; /* the source root as the user knows it, for messages */
};

/* Copies src to dst. Merging into a cache that other gradings may read meanwhile, the copy is written aside and
   linked into place whole: a reader never links in half a program (PoCL would take it for a build). */
static int copy_file(const char *src, const char *dst, const struct stat *st, struct copy_rules *r, char *why,
                     size_t size)
{
    char buffer[65536], part[4200];
    const char *target = dst;
    struct stat there;
    ssize_t got;
    int in, out, linked = 0;
    if (r->link && link(src, dst) == 0)
        return 0;
    if (r->merge && lstat(dst, &there) == 0)
        return 0; /* a file that is already there stays */
    if (r->merge) {
        snprintf(part, sizeof part, "%s.part-%ld", dst, (long)getpid());
        target = part;
    }
    in = open(src, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (in < 0) {
        snprintf(why, size, "cannot read %s: %s", src, strerror(errno));
        return -1;
    }
    out = open(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, r->file_mode | (st->st_mode & 0100));
    if (out < 0) {
        snprintf(why, size, "cannot write %s: %s", dst, strerror(errno));
        close(in);
        return -1;
    }
    while ((got = read(in, buffer, sizeof buffer)) > 0 && write(out, buffer, (size_t)got) == got)
        ;
    close(in);
    if (r->give)
        sandbox_give(target);
    int closed = close(out);
    if (target != dst) {
        linked = closed == 0 && got == 0 && (link(target, dst) == 0 || errno == EEXIST);
        unlink(target);
    }
    if (closed != 0 || got != 0 || (target != dst && !linked)) {
        snprintf(why, size, "cannot copy %s", src);
        return -1;
    }
    return 0;
}

static int copy_tree(const char *src, const char *dst, struct copy_rules *r, char *why, size_t size);

static int copy_entry(const char *src, const char *dst, struct copy_rules *r, char *why, size_t size)
{
    struct stat st;
    if (lstat(src, &st) != 0) {
        snprintf(why, size, "cannot read %s: %s", src, strerror(errno));
        return -1;
    }
    if (S_ISDIR(st.st_mode))
        return copy_tree(src, dst, r, why, size);
    if (!S_ISREG(st.st_mode)) {
        if (!r->refuse_links)
            return 0;
        snprintf(why, size, "%s is %s: a submission holds regular files only (copy the file itself)", src,
                 S_ISLNK(st.st_mode) ? "a symbolic link" : "a special file");
        return -1;
    }
    if (r->files_left == 0 || (size_t)st.st_size > r->bytes_left) {
        snprintf(why, size, "%s holds more than %d files or %zu MiB: a submission holds its lab's sources only",
                 r->shown, SCRATCH_FILES_LIMIT, SCRATCH_BYTES_LIMIT >> 20);
        return -1;
    }
    r->files_left--;
    r->bytes_left -= (size_t)st.st_size;
    return copy_file(src, dst, &st, r, why, size);
}

static int copy_tree(const char *src, const char *dst, struct copy_rules *r, char *why, size_t size)
{
    DIR *d;
    struct dirent *e;
    int rc = 0;
    struct stat st;
    if ((mkdir(dst, 0755) != 0 && errno != EEXIST) || lstat(dst, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(why, size, "cannot create the folder %s", dst); /* a link there is never followed */
        return -1;
    }
    if (r->give)
        sandbox_give(dst);
    if (!(d = opendir(src))) {
        snprintf(why, size, "cannot read the folder %s: %s", src, strerror(errno));
        return -1;
    }
    while (rc == 0 && (e = readdir(d)) != NULL) {
        char from[4096], to[4096];
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (snprintf(from, sizeof from, "%s/%s", src, e->d_name) >= (int)sizeof from ||
            snprintf(to, sizeof to, "%s/%s", dst, e->d_name) >= (int)sizeof to) {
            snprintf(why, size, "a path in %s is too long", r->shown);
            rc = -1;
        } else {
            rc = copy_entry(from, to, r, why, size);
        }
    }
    closedir(d);
    return rc;
}

int scratch_copy_submission(const char *src, const char *dst, char *why, size_t size)
{
    struct copy_rules r = {.refuse_links = 1, .give = 1, .file_mode = 0644, .files_left = SCRATCH_FILES_LIMIT,
                           .bytes_left = SCRATCH_BYTES_LIMIT, .shown = src};
    struct stat st;
    if (lstat(src, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(why, size, "%s is %s", src, lstat(src, &st) == 0 ? "not a plain folder (a link?)" : "missing");
        return -1;
    }
    return copy_tree(src, dst, &r, why, size);
}

static int copy_kit_part(const char *root, const char *part, const char *dst, char *why, size_t size)
{
    char from[4096];
    struct copy_rules r = {.file_mode = 0644, .files_left = 4096, .bytes_left = (size_t)1 << 30, .shown = part};
    snprintf(from, sizeof from, "%s/%s", root, part);
    return copy_tree(from, dst, &r, why, size);
}

/* A single file of the kit, copied with mode (0755 for programs). */
static int copy_kit_file(const char *root, const char *part, const char *dst, mode_t mode, char *why, size_t size)
{
    char from[4096];
    struct stat st;
    struct copy_rules r = {.file_mode = mode, .files_left = 1, .bytes_left = (size_t)1 << 30, .shown = part};
    snprintf(from, sizeof from, "%s/%s", root, part);
    if (stat(from, &st) != 0) {
        snprintf(why, size, "%s is missing: run make in the kit", from);
        return -1;
    }
    return copy_file(from, dst, &st, &r, why, size);
}

int scratch_stage_kit(const char *root, const char *scratch, char *why, size_t size)
{
    char kit[4096], path[4200], plugin[4096];
    const char *folders[] = {"bin", "kernels", "include", "lib", NULL};
    struct stat st;
    snprintf(kit, sizeof kit, "%s/kit", scratch);
    chmod(scratch, 0711);
    if (mkdir(kit, 0755) != 0)
        return snprintf(why, size, "cannot create %s: %s", kit, strerror(errno)), -1;
    for (int i = 0; folders[i]; i++) {
        snprintf(path, sizeof path, "%s/%s", kit, folders[i]);
        if (mkdir(path, 0755) != 0)
            return snprintf(why, size, "cannot create %s", path), -1;
    }
    snprintf(plugin, sizeof plugin, "%s/build/grader/oclgrind/libclkit-coalesce.so", root);
    snprintf(path, sizeof path, "%s/bin/libclkit-coalesce.so", kit);
    if (stat(plugin, &st) == 0 &&
        copy_kit_file(root, "build/grader/oclgrind/libclkit-coalesce.so", path, 0755, why, size) != 0)
        return -1;
    snprintf(path, sizeof path, "%s/bin/clkit-runner", kit);
    if (copy_kit_file(root, "build/grader/clkit-runner", path, 0755, why, size) != 0)
        return -1;
    snprintf(path, sizeof path, "%s/lib/libclkit.a", kit);
    if (copy_kit_file(root, "build/libclkit.a", path, 0644, why, size) != 0)
        return -1;
    snprintf(path, sizeof path, "%s/kernels", kit);
    if (copy_kit_part(root, "kernels", path, why, size) != 0)
        return -1;
    snprintf(path, sizeof path, "%s/include", kit);
    return copy_kit_part(root, "common", path, why, size);
}

/* The kernel caches a run keeps in its folder (sandbox.c points PoCL's there) and the judge's trusted copies,
   shared with later runs by hard links. Every run gets the programs of the kit's own kernels (baselines, peaks):
   never a solution's, which a student's run could read. Only runs of the solutions themselves, which execute the
   kit's code alone, also get every program the solutions' earlier runs built (SOLUTIONS_CACHE): regrading them
   skips PoCL's builds, a second or more a lab. NVIDIA's cache, an index rewritten in place that cannot be sorted
   by program, is never kept. */
#define TRUSTED_CACHES "build/kit-kernel-cache" /* a new name: caches kept by earlier graders held solutions */
#define POCL_CACHE "pocl-cache"
#define SOLUTIONS_CACHE "solutions-pocl-cache"
#define PEAK_FILE ".clkit-peak" /* what sandbox.c notes in the run folder */
/* The kept peak of a whole run (its timed run too): a new name, since graders before kept --quick runs' peaks too */
#define KEPT_PEAK "whole-run-peak"

static void trusted_path(const char *root, const char *name, const char *part, char *path, size_t size)
{
    snprintf(path, size, "%s/" TRUSTED_CACHES "/%s/%s", root, name, part);
}

/* Links the trusted cache part of runs named name into the run's PoCL cache, beside what is there. */
static void link_cache(const char *root, const char *name, const char *part, const char *run)
{
    char cache[4200], trusted[4200], why[256];
    struct stat st;
    struct copy_rules r = {.give = 1, .merge = 1, .link = sandbox_drops_privileges(), .file_mode = 0644,
                           .files_left = CACHE_FILES_LIMIT, .bytes_left = CACHE_BYTES_LIMIT, .shown = POCL_CACHE};
    trusted_path(root, name, part, trusted, sizeof trusted);
    snprintf(cache, sizeof cache, "%s/" POCL_CACHE, run);
    if (stat(trusted, &st) == 0 && copy_tree(trusted, cache, &r, why, sizeof why) != 0)
        scratch_remove(cache); /* a cold cache is slower, not wrong */
}

int scratch_open_run(const char *root, const char *scratch, const char *name, int solutions, char *run,
                     size_t run_size, char *why, size_t size)
{
    struct stat st;
    snprintf(run, run_size, "%s/run-%s", scratch, name);
    if (lstat(run, &st) == 0 && S_ISDIR(st.st_mode))
        return 0;
    if (mkdir(run, 0700) != 0 || sandbox_give(run) != 0) {
        snprintf(why, size, "cannot create %s: %s", run, strerror(errno));
        return -1;
    }
    link_cache(root, name, POCL_CACHE, run);
    if (solutions)
        link_cache(root, name, SOLUTIONS_CACHE, run);
    return 0;
}

/* Copies the programs (bucket/program folders) of the PoCL cache at cache that wanted accepts into dst, merging
   into what is there where merge is set; a program copied in part is removed. Returns how many were copied. */
static int copy_programs(const char *cache, const char *dst, int merge,
                         int (*wanted)(const char *bucket, const char *program, const char *path, const void *ctx),
                         const void *ctx)
{
    DIR *buckets = opendir(cache);
    struct dirent *b, *e;
    int copied = 0;
    while (buckets && (b = readdir(buckets)) != NULL) {
        char bucket[4600];
        DIR *programs;
        snprintf(bucket, sizeof bucket, "%s/%s", cache, b->d_name);
        if (b->d_name[0] == '.' || !(programs = opendir(bucket)))
            continue;
        while ((e = readdir(programs)) != NULL) {
            char program[4900], copy[5200], why[256];
            struct copy_rules r = {.merge = merge, .file_mode = 0644, .files_left = CACHE_FILES_LIMIT,
                                   .bytes_left = CACHE_BYTES_LIMIT, .shown = POCL_CACHE};
            if (e->d_name[0] == '.' ||
                snprintf(program, sizeof program, "%s/%s", bucket, e->d_name) >= (int)sizeof program ||
                !wanted(b->d_name, e->d_name, program, ctx) ||
                snprintf(copy, sizeof copy, "%s/%s", dst, b->d_name) >= (int)sizeof copy)
                continue;
            mkdir(dst, 0755);
            mkdir(copy, 0755);
            if (snprintf(copy, sizeof copy, "%s/%s/%s", dst, b->d_name, e->d_name) >= (int)sizeof copy)
                continue;
            if (copy_tree(program, copy, &r, why, sizeof why) == 0)
                copied++;
            else
                scratch_remove(copy); /* half a program is no cache */
        }
        closedir(programs);
    }
    if (buckets)
        closedir(buckets);
    return copied;
}

/* Programs built from a submitted kernel, kept by the source they were built from (scratch_keep_builds). */
#define BUILDS_KEPT "submitted-builds"
#define SOURCE_KEPT "source"

/* FNV-1a: only names an entry; the entry's copy of the source, compared whole, decides. */
static unsigned long long source_hash(const char *source, size_t length)
{
    unsigned long long h = 1469598103934665603ull;
    for (size_t i = 0; i < length; i++)
        h = (h ^ (unsigned char)source[i]) * 1099511628211ull;
    return h;
}

/* The entry kept for source in runs named name (its path in entry); 1 when it holds that very source. A source that
   may read another file (#include, clang's #import: a file of the lab folder may change its program) is never
   kept. */
static int kept_entry(const char *root, const char *name, const char *source, size_t length, char *entry,
                      size_t size)
{
    char path[4400], *kept;
    size_t kept_length = 0;
    int same;
    trusted_path(root, name, BUILDS_KEPT, path, sizeof path);
    if (snprintf(entry, size, "%s/%016llx", path, source_hash(source, length)) >= (int)size)
        return -1;
    if (strstr(source, "include") || strstr(source, "import")) /* source ends in a NUL, as the compiler reads it */
        return -1;
    snprintf(path, sizeof path, "%s/" SOURCE_KEPT, entry);
    kept = scratch_read_untrusted(path, length + 1, &kept_length);
    same = kept && kept_length == length && memcmp(kept, source, length) == 0;
    free(kept);
    return same;
}

void scratch_link_builds(const char *root, const char *name, const char *run, const char *source, size_t length)
{
    char entry[4400], programs[4500], cache[4200], why[256];
    struct copy_rules r = {.give = 1, .merge = 1, .link = sandbox_drops_privileges(), .file_mode = 0644,
                           .files_left = CACHE_FILES_LIMIT, .bytes_left = CACHE_BYTES_LIMIT, .shown = POCL_CACHE};
    if (kept_entry(root, name, source, length, entry, sizeof entry) != 1)
        return;
    snprintf(programs, sizeof programs, "%s/programs", entry);
    snprintf(cache, sizeof cache, "%s/" POCL_CACHE, run);
    if (copy_tree(programs, cache, &r, why, sizeof why) != 0)
        scratch_remove(cache); /* a cold cache is slower, not wrong */
}

/* Whether the program bucket/program of a run's cache came from the trusted cache of runs named name. */
static int trusted_program(const char *root, const char *name, const char *bucket, const char *program)
{
    char path[4600];
    struct stat st;
    trusted_path(root, name, POCL_CACHE, path, sizeof path);
    return snprintf(path + strlen(path), sizeof path - strlen(path), "/%s/%s", bucket, program) > 0 &&
           lstat(path, &st) == 0;
}

/* copy_programs' filter for scratch_keep_builds: a program the kit's trusted cache of runs named ctx[1] (root
   ctx[0]) did not give the run. */
static int not_trusted(const char *bucket, const char *program, const char *path, const void *ctx)
{
    const char *const *where = ctx;
    (void)path;
    return !trusted_program(where[0], where[1], bucket, program);
}

/* copy_programs' filter for an entry kept already (ctx: root, name, entry): a program the run built that neither the
   kit's trusted cache nor the entry holds. */
static int new_to_entry(const char *bucket, const char *program, const char *path, const void *ctx)
{
    const char *const *where = ctx;
    char kept[4800];
    struct stat st;
    (void)path;
    if (snprintf(kept, sizeof kept, "%s/programs/%s/%s", where[2], bucket, program) >= (int)sizeof kept)
        return 0;
    return !trusted_program(where[0], where[1], bucket, program) && lstat(kept, &st) != 0;
}

/* Renames each program of part (bucket/program) into programs, whole; one already there stays. */
static void move_programs(const char *part, const char *programs)
{
    DIR *buckets = opendir(part);
    struct dirent *b, *e;
    while (buckets && (b = readdir(buckets)) != NULL) {
        char from[4800], to[4800];
        DIR *each;
        if (b->d_name[0] == '.' || snprintf(from, sizeof from, "%s/%s", part, b->d_name) >= (int)sizeof from ||
            snprintf(to, sizeof to, "%s/%s", programs, b->d_name) >= (int)sizeof to || !(each = opendir(from)))
            continue;
        mkdir(to, 0755);
        while ((e = readdir(each)) != NULL) {
            char program[5100], into[5100];
            if (e->d_name[0] != '.' &&
                snprintf(program, sizeof program, "%s/%s", from, e->d_name) < (int)sizeof program &&
                snprintf(into, sizeof into, "%s/%s", to, e->d_name) < (int)sizeof into)
                (void)rename(program, into); /* fails where another grading added it first: that one stays */
        }
        closedir(each);
    }
    if (buckets)
        closedir(buckets);
}

/* Adds to an entry kept already the programs this run built that it lacks (the build as its host program makes
   it, where the first run of this source had no host program), each copied aside and renamed into place whole. */
static void add_to_entry(const char *root, const char *name, const char *run, const char *entry)
{
    char part[4500], cache[4200], programs[4500];
    const char *where[] = {root, name, entry};
    snprintf(part, sizeof part, "%s.add-%ld", entry, (long)getpid());
    snprintf(cache, sizeof cache, "%s/" POCL_CACHE, run);
    snprintf(programs, sizeof programs, "%s/programs", entry);
    scratch_remove(part);
    if (copy_programs(cache, part, 0, new_to_entry, where) > 0)
        move_programs(part, programs);
    scratch_remove(part);
}

void scratch_keep_builds(const char *root, const char *name, const char *run, const char *source, size_t length)
{
    char entry[4400], part[4500], path[4600];
    struct stat st;
    int fd;
    int kept = kept_entry(root, name, source, length, entry, sizeof entry);
    if (kept == 1)
        add_to_entry(root, name, run, entry);
    if (kept != 0 || lstat(entry, &st) == 0)
        return; /* kept already, never kept (#include), or a source of the same hash (the first stays) */
    const char *parts[] = {"build", TRUSTED_CACHES, NULL};
    for (int i = 0; parts[i]; i++) {
        snprintf(path, sizeof path, "%s/%s", root, parts[i]);
        mkdir(path, 0755);
    }
    trusted_path(root, name, "", path, sizeof path);
    mkdir(path, 0755);
    trusted_path(root, name, BUILDS_KEPT, path, sizeof path);
    mkdir(path, 0755);
    /* Made aside and renamed into place whole: a grading beside never links half an entry in. */
    snprintf(part, sizeof part, "%s.part-%ld", entry, (long)getpid());
    const char *where[] = {root, name};
    char cache[4200];
    snprintf(cache, sizeof cache, "%s/" POCL_CACHE, run);
    snprintf(path, sizeof path, "%s/programs", part);
    if (mkdir(part, 0755) != 0 || copy_programs(cache, path, 0, not_trusted, where) == 0) {
        scratch_remove(part);
        return;
    }
    snprintf(path, sizeof path, "%s/" SOURCE_KEPT, part);
    fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0 || write(fd, source, length) != (ssize_t)length || close(fd) != 0 || rename(part, entry) != 0)
        scratch_remove(part);
}

/* 1 when the cached program at path holds only kernels other than submitted (one at least): the kit's own. A
   program built but never launched, which has no kernel folder yet, is not known to be the kit's. */
static int kit_program(const char *path, const char *submitted)
{
    DIR *d = opendir(path);
    struct dirent *e;
    int kernels = 0, theirs = 0;
    while (d && (e = readdir(d)) != NULL) {
        char child[5200];
        struct stat st;
        snprintf(child, sizeof child, "%s/%s", path, e->d_name);
        if (e->d_name[0] == '.' || lstat(child, &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        kernels++;
        theirs |= strcmp(e->d_name, submitted) == 0;
    }
    if (d)
        closedir(d);
    return kernels > 0 && !theirs;
}

/* copy_programs' filter for the trusted copies: the kit's own programs (none holding the kernel ctx), or every one
   where ctx is NULL. */
static int kit_or_any(const char *bucket, const char *program, const char *path, const void *ctx)
{
    (void)bucket, (void)program;
    return !ctx || kit_program(path, ctx);
}

/* Keeps the run's noted peak as the measured need of runs named name, where it is the largest seen. */
static void keep_peak(const char *run, const char *trusted_peak)
{
    char path[4300];
    size_t length = 0;
    char *noted, *kept;
    FILE *f;
    snprintf(path, sizeof path, "%s/" PEAK_FILE, run);
    if (!(noted = scratch_read_untrusted(path, 64, &length)))
        return;
    kept = scratch_read_untrusted(trusted_peak, 64, &length);
    if ((!kept || strtoull(noted, NULL, 10) > strtoull(kept, NULL, 10)) && (f = fopen(trusted_peak, "w")) != NULL) {
        fprintf(f, "%llu\n", strtoull(noted, NULL, 10));
        fclose(f);
    }
    free(noted);
    free(kept);
}

void scratch_close_run(const char *root, const char *scratch, const char *name, const char *submitted_kernel,
                       int whole)
{
    char run[4200], cache[4300], trusted[4200];
    snprintf(run, sizeof run, "%s/run-%s", scratch, name);
    if (submitted_kernel) {
        snprintf(trusted, sizeof trusted, "%s/build", root);
        mkdir(trusted, 0755);
        snprintf(trusted, sizeof trusted, "%s/" TRUSTED_CACHES, root);
        mkdir(trusted, 0755);
        snprintf(trusted, sizeof trusted, "%s/" TRUSTED_CACHES "/%s", root, name);
        mkdir(trusted, 0755);
        trusted_path(root, name, KEPT_PEAK, trusted, sizeof trusted);
        if (whole) /* a --quick run's peak, without the timed run's buffers, would cap a timed run below its need */
            keep_peak(run, trusted);
        trusted_path(root, name, POCL_CACHE, trusted, sizeof trusted);
        snprintf(cache, sizeof cache, "%s/" POCL_CACHE, run);
        copy_programs(cache, trusted, 1, kit_or_any, submitted_kernel);
        trusted_path(root, name, SOLUTIONS_CACHE, trusted, sizeof trusted);
        copy_programs(cache, trusted, 1, kit_or_any, NULL);
    }
    scratch_remove(run);
}

size_t scratch_memory_limit(const char *root, const char *name)
{
    char path[4200];
    size_t length = 0, need;
    char *peak;
    trusted_path(root, name, KEPT_PEAK, path, sizeof path);
    if (!(peak = scratch_read_untrusted(path, 64, &length)))
        return SANDBOX_MEMORY_DEFAULT;
    need = (size_t)strtoull(peak, NULL, 10) * 2;
    free(peak);
    return need > SANDBOX_MEMORY_FLOOR ? need : SANDBOX_MEMORY_FLOOR;
}

int scratch_copy_file(const char *src, const char *dst, int mode, char *why, size_t size)
{
    struct stat st;
    struct copy_rules r = {.give = 1, .file_mode = (mode_t)mode, .files_left = 1, .bytes_left = (size_t)1 << 30,
                           .shown = src};
    if (stat(src, &st) != 0) {
        snprintf(why, size, "%s is missing", src);
        return -1;
    }
    return copy_file(src, dst, &st, &r, why, size);
}

char *scratch_read_untrusted(const char *path, size_t max_bytes, size_t *length)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    char *data = NULL;
    ssize_t got = 0;
    if (fd < 0)
        return NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size <= max_bytes &&
        (data = malloc((size_t)st.st_size + 1)) != NULL) {
        size_t have = 0;
        while (have < (size_t)st.st_size && (got = read(fd, data + have, (size_t)st.st_size - have)) > 0)
            have += (size_t)got;
        data[have] = '\0';
        *length = have;
    }
    close(fd);
    return data;
}

/* Removes name in the folder parent (a descriptor, or AT_FDCWD): a link is removed, never followed, even one
   swapped in while the removal runs. */
static int remove_at(int parent, const char *name)
{
    int fd, rc;
    DIR *d;
    struct dirent *e;
    if (unlinkat(parent, name, 0) == 0 || errno == ENOENT)
        return 0;
    fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return unlinkat(parent, name, 0);
    fchmod(fd, 0700); /* a folder left unreadable must still go */
    if ((d = fdopendir(fd)) == NULL) {
        close(fd);
        return -1;
    }
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            remove_at(dirfd(d), e->d_name);
    closedir(d);
    rc = unlinkat(parent, name, AT_REMOVEDIR);
    return rc == 0 || errno == ENOENT ? 0 : -1;
}

int scratch_remove(const char *path)
{
    return remove_at(AT_FDCWD, path);
}
