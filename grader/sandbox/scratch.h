/* Scratch space: the copy of the kit that confined code may see, and a fresh folder for each confined run. */
#ifndef CLKIT_GRADER_SCRATCH_H
#define CLKIT_GRADER_SCRATCH_H

#include <stddef.h>

#define SCRATCH_FILES_LIMIT 64
#define SCRATCH_BYTES_LIMIT ((size_t)4 << 20)

/* Copies the runner, the Oclgrind plugin, kernels/ and the headers and library host programs build with from the
   kit at root into scratch/kit (readable by everyone, writable by no runner); returns 0, or -1 with why. */
int scratch_stage_kit(const char *root, const char *scratch, char *why, size_t size);

/* Opens the folder run-NAME for a confined run: made the first time, owned by the user confined code runs as,
   with the trusted PoCL cache of runs named name (the kit's own kernels only) linked in, and where solutions is
   set (the run executes the kit's solutions, no one else's code) the programs of the solutions' earlier runs too;
   reused by the later runs of the same lab of the same submission. Fills run (its path); returns 0, or -1 with
   why. */
int scratch_open_run(const char *root, const char *scratch, const char *name, int solutions, char *run,
                     size_t run_size, char *why, size_t size);

/* Links into run's PoCL cache the programs kept for this very kernel source in runs named name
   (scratch_keep_builds): its build is then PoCL's cache's, half a second of CPU less a run. */
void scratch_link_builds(const char *root, const char *name, const char *run, const char *source, size_t length);

/* Keeps the programs run's PoCL cache holds that the kit's trusted cache did not give it, by source (the kernel
   they were built from), for later runs named name of the same source, whoever submits it. Call it only where the
   run's confined code has built source and run nothing yet: a program so built is the compiler's alone. A source
   that may read a file (#include, #import) is never kept; an entry, once kept, only gains the programs it lacked. */
void scratch_keep_builds(const char *root, const char *name, const char *run, const char *source, size_t length);

/* Removes the run folder of name. In a run of the kit's own solutions (submitted_kernel: the lab's kernel name,
   else NULL), first keeps the cached programs of the kit's own kernels (none holding submitted_kernel) as the
   trusted cache, every cached program as the solutions' own cache, and, where the run did all of its lab's work
   (whole: its timed run too, the largest), its peak memory as the runs' measured need. */
void scratch_close_run(const char *root, const char *scratch, const char *name, const char *submitted_kernel,
                       int whole);

/* The memory cap of runs named name: twice the kit's solution's measured peak (at least SANDBOX_MEMORY_FLOOR), or
   SANDBOX_MEMORY_DEFAULT where it was never measured. */
size_t scratch_memory_limit(const char *root, const char *name);

/* Copies the submitted folder src into dst: regular files only, at most SCRATCH_FILES_LIMIT files and
   SCRATCH_BYTES_LIMIT bytes; a symbolic link or any other special file is refused, naming it. Returns 0, or -1
   with why. */
int scratch_copy_submission(const char *src, const char *dst, char *why, size_t size);

/* Copies the kit's file src to dst with mode, handed to the user confined code runs as; returns 0, or -1 with why. */
int scratch_copy_file(const char *src, const char *dst, int mode, char *why, size_t size);

/* Reads a file that confined code wrote, without following a link and refusing anything but a regular file of at
   most max_bytes; returns the bytes (NUL-terminated, caller frees) and their number in *length, or NULL. */
char *scratch_read_untrusted(const char *path, size_t max_bytes, size_t *length);

/* Removes a folder and everything in it, without following links; returns 0, or -1. */
int scratch_remove(const char *path);

#endif
