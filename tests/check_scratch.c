#include "suites.h"

#include "sandbox/sandbox.h"
#include "sandbox/scratch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char folder[] = "/tmp/clkit-scratch-XXXXXX";

static void make_submission(void)
{
    char path[256];
    FILE *f;
    ck_assert_ptr_nonnull(mkdtemp(folder));
    snprintf(path, sizeof path, "%s/in", folder);
    ck_assert_int_eq(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/in/vadd.cl", folder);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("__kernel void vadd() {}\n", f);
    fclose(f);
}

static int copy_in(char *why, size_t size)
{
    char src[256], dst[256];
    snprintf(src, sizeof src, "%s/in", folder);
    snprintf(dst, sizeof dst, "%s/out", folder);
    return scratch_copy_submission(src, dst, why, size);
}

START_TEST(plain_files_are_copied)
{
    char why[512] = "", path[256];
    struct stat st;
    make_submission();
    ck_assert_msg(copy_in(why, sizeof why) == 0, "%s", why);
    snprintf(path, sizeof path, "%s/out/vadd.cl", folder);
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(scratch_remove(folder), 0);
}
END_TEST

/* A link or a special file in a submission is refused by name, wherever it points. */
START_TEST(links_and_special_files_are_refused)
{
    const char *kinds[] = {"link", "fifo"};
    for (int k = 0; k < 2; k++) {
        char why[512] = "", path[256];
        strcpy(folder, "/tmp/clkit-scratch-XXXXXX");
        make_submission();
        snprintf(path, sizeof path, "%s/in/host.c", folder);
        ck_assert_int_eq(k == 0 ? symlink("/etc/hostname", path) : mkfifo(path, 0644), 0);
        ck_assert_int_ne(copy_in(why, sizeof why), 0);
        ck_assert_msg(strstr(why, "host.c"), "%s: %s", kinds[k], why);
        ck_assert_int_eq(scratch_remove(folder), 0);
    }
}
END_TEST

START_TEST(too_many_files_are_refused)
{
    char why[512] = "", path[256];
    make_submission();
    for (int i = 0; i < SCRATCH_FILES_LIMIT + 1; i++) {
        FILE *f;
        snprintf(path, sizeof path, "%s/in/f%d", folder, i);
        f = fopen(path, "w");
        ck_assert_ptr_nonnull(f);
        fclose(f);
    }
    ck_assert_int_ne(copy_in(why, sizeof why), 0);
    ck_assert_int_eq(scratch_remove(folder), 0);
}
END_TEST

/* What confined code wrote is read only when it is a plain file within the size asked for. */
START_TEST(untrusted_files_are_read_with_care)
{
    char path[256], link[256];
    size_t length = 0;
    char *data;
    FILE *f;
    make_submission();
    snprintf(path, sizeof path, "%s/out.bin", folder);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("12345678", f);
    fclose(f);
    data = scratch_read_untrusted(path, 8, &length);
    ck_assert_ptr_nonnull(data);
    ck_assert_uint_eq(length, 8);
    free(data);
    ck_assert_ptr_null(scratch_read_untrusted(path, 7, &length));
    snprintf(link, sizeof link, "%s/link.bin", folder);
    ck_assert_int_eq(symlink(path, link), 0);
    ck_assert_ptr_null(scratch_read_untrusted(link, 100, &length));
    ck_assert_int_eq(scratch_remove(folder), 0);
}
END_TEST

/* Removing a run folder, or copying into one, never follows a link a runner left in it. */
START_TEST(links_in_run_folders_are_not_followed)
{
    char outside[] = "/tmp/clkit-outside-XXXXXX", path[256], link[256], why[512];
    struct stat st;
    FILE *f;
    ck_assert_ptr_nonnull(mkdtemp(outside));
    snprintf(path, sizeof path, "%s/keep", outside);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    make_submission();
    snprintf(link, sizeof link, "%s/out", folder); /* where copy_in copies to */
    ck_assert_int_eq(symlink(outside, link), 0);
    ck_assert_int_ne(copy_in(why, sizeof why), 0);
    snprintf(path, sizeof path, "%s/vadd.cl", outside);
    ck_assert_int_ne(stat(path, &st), 0);
    ck_assert_int_eq(scratch_remove(folder), 0);
    snprintf(path, sizeof path, "%s/keep", outside);
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(scratch_remove(outside), 0);
}
END_TEST

/* Writes text to the file at folder/relative, making its folders. */
static void plant(const char *folder_path, const char *relative, const char *text)
{
    char path[1024], command[1200];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", folder_path, relative);
    snprintf(command, sizeof command, "mkdir -p \"$(dirname '%s')\"", path);
    ck_assert_int_eq(system(command), 0);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static int exists(const char *folder_path, const char *relative)
{
    char path[1024];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", folder_path, relative);
    return stat(path, &st) == 0;
}

/* A solutions run keeps, for the next runs, the cached programs of the kit's own kernels and its measured peak;
   never a program holding the solution's kernel, nor one whose kernels it cannot see (built, never launched). */
START_TEST(kept_caches_hold_the_kit_kernels_only)
{
    char root[] = "/tmp/clkit-root-XXXXXX", run[256], why[256];
    ck_assert_ptr_nonnull(mkdtemp(root));
    ck_assert_int_eq(scratch_memory_limit(root, "lab1"), SANDBOX_MEMORY_DEFAULT); /* never measured */
    ck_assert_int_eq(scratch_open_run(root, root, "lab1", 0, run, sizeof run, why, sizeof why), 0);
    plant(run, "pocl-cache/AB/SOLUTION/vadd/64-1-1/vadd.so", "the solution's kernel");
    plant(run, "pocl-cache/AB/SOLUTION/program.bc", "the solution's program");
    plant(run, "pocl-cache/CD/UNLAUNCHED/program.bc", "a program never launched");
    plant(run, "pocl-cache/EF/BASELINE/copy_float4/256-1-1/copy_float4.so", "the kit's kernel");
    plant(run, "pocl-cache/EF/BASELINE/program.bc", "the kit's program");
    plant(run, ".clkit-peak", "734003200\n"); /* 700 MiB */
    scratch_close_run(root, root, "lab1", "vadd", 1);
    ck_assert_int_eq(scratch_memory_limit(root, "lab1"), (size_t)1400 << 20);
    ck_assert_int_eq(scratch_open_run(root, root, "lab1", 0, run, sizeof run, why, sizeof why), 0);
    ck_assert_msg(exists(run, "pocl-cache/EF/BASELINE/copy_float4/256-1-1/copy_float4.so"), "the kit's cache was lost");
    ck_assert_msg(!exists(run, "pocl-cache/AB/SOLUTION") && !exists(run, "pocl-cache/CD/UNLAUNCHED"),
                  "a program that is not the kit's reached the next run");
    scratch_close_run(root, root, "lab1", NULL, 1); /* a student's run: nothing kept */
    ck_assert_int_eq(scratch_remove(root), 0);
}
END_TEST

/* Every program a solutions run built is kept for the next runs of the solutions, which then skip PoCL's builds;
   a student's run never gets one (not even the solution's, which a copy of it would read), nor keeps any. */
START_TEST(the_solutions_programs_reach_the_solutions_runs_only)
{
    char root[] = "/tmp/clkit-root-XXXXXX", run[256], why[256];
    ck_assert_ptr_nonnull(mkdtemp(root));
    ck_assert_int_eq(scratch_open_run(root, root, "lab4", 1, run, sizeof run, why, sizeof why), 0);
    plant(run, "pocl-cache/AB/SOLUTION/dot_local/64-1-1/dot_local.so", "the solution's kernel");
    plant(run, "pocl-cache/CD/UNLAUNCHED/program.bc", "a program never launched");
    scratch_close_run(root, root, "lab4", "dot_local", 1);
    ck_assert_int_eq(scratch_open_run(root, root, "lab4", 0, run, sizeof run, why, sizeof why), 0);
    ck_assert_msg(!exists(run, "pocl-cache/AB/SOLUTION") && !exists(run, "pocl-cache/CD/UNLAUNCHED"),
                  "a solution's program reached a student's run");
    plant(run, "pocl-cache/EF/STUDENT/dot_local/64-1-1/dot_local.so", "a student's kernel");
    scratch_close_run(root, root, "lab4", NULL, 1);
    ck_assert_int_eq(scratch_open_run(root, root, "lab4", 1, run, sizeof run, why, sizeof why), 0);
    ck_assert_msg(exists(run, "pocl-cache/AB/SOLUTION/dot_local/64-1-1/dot_local.so") &&
                  exists(run, "pocl-cache/CD/UNLAUNCHED/program.bc"), "the solutions' programs were not kept");
    ck_assert_msg(!exists(run, "pocl-cache/EF/STUDENT"), "a student's program reached the solutions' runs");
    scratch_close_run(root, root, "lab4", NULL, 1);
    ck_assert_int_eq(scratch_remove(root), 0);
}
END_TEST

/* The programs a run built from a submitted source, before it ran anything, reach a later run of that very source
   only: another source and a source that may read a file (#import) get none, the kit's trusted programs are not
   kept with them, and an entry once kept only gains what a later run of the source built that it lacks (a build as
   the host program makes it), never a change to a program it holds. */
START_TEST(a_sources_builds_reach_the_same_source_only)
{
    char root[] = "/tmp/clkit-root-XXXXXX", run[256], why[256], command[512];
    const char *source = "__kernel void vadd() {}\n", *other = "__kernel void vadd() { }\n";
    const char *including = "#import \"helper.h\"\n__kernel void vadd() {}\n";
    ck_assert_ptr_nonnull(mkdtemp(root));
    ck_assert_int_eq(scratch_open_run(root, root, "lab1", 1, run, sizeof run, why, sizeof why), 0);
    plant(run, "pocl-cache/KT/KIT/program.bc", "the kit's baseline");
    plant(run, "pocl-cache/KT/KIT/vadd_base/64-1-1/vadd_base.so", "the kit's baseline, launched");
    scratch_close_run(root, root, "lab1", "vadd", 1);
    ck_assert_int_eq(scratch_open_run(root, root, "lab1", 0, run, sizeof run, why, sizeof why), 0);
    ck_assert_msg(exists(run, "pocl-cache/KT/KIT/program.bc"), "the kit's program was not given");
    plant(run, "pocl-cache/AB/BUILT/program.bc", "the submitted kernel, built");
    scratch_keep_builds(root, "lab1", run, source, strlen(source));
    scratch_keep_builds(root, "lab1", run, including, strlen(including));
    scratch_remove(run);
    ck_assert_int_eq(scratch_open_run(root, root, "lab1", 0, run, sizeof run, why, sizeof why), 0);
    scratch_link_builds(root, "lab1", run, source, strlen(source));
    plant(run, "pocl-cache/AB/BUILT/vadd/64-1-1/vadd.so", "a later run's addition to a kept program");
    plant(run, "pocl-cache/CD/ASHOST/program.bc", "built by a later run as the host program builds it");
    scratch_keep_builds(root, "lab1", run, source, strlen(source));
    scratch_remove(run);
    snprintf(command, sizeof command, "cd %s/build/kit-kernel-cache/lab1/submitted-builds && "
             "test -z \"$(find . -path '*/KT*')\" && test $(ls | wc -l) = 1", root);
    ck_assert_msg(system(command) == 0, "the kit's program was kept with the source's, or the including source kept");
    ck_assert_int_eq(scratch_open_run(root, root, "lab1", 0, run, sizeof run, why, sizeof why), 0);
    scratch_link_builds(root, "lab1", run, other, strlen(other));
    scratch_link_builds(root, "lab1", run, including, strlen(including));
    ck_assert_msg(!exists(run, "pocl-cache/AB/BUILT"), "another source got the programs");
    scratch_link_builds(root, "lab1", run, source, strlen(source));
    ck_assert_msg(exists(run, "pocl-cache/AB/BUILT/program.bc"), "the same source did not get its program");
    ck_assert_msg(exists(run, "pocl-cache/CD/ASHOST/program.bc"), "the program a later run built was not added");
    ck_assert_msg(!exists(run, "pocl-cache/AB/BUILT/vadd"), "a program the entry held changed");
    scratch_remove(run);
    ck_assert_int_eq(scratch_remove(root), 0);
}
END_TEST

/* A solutions run that did not time its kernel (--quick) keeps no peak: its need, without the timed run's buffers,
   would cap a later timed run below what it needs (lab 7's timed run was stopped at 1 GiB after a --quick run had
   kept 254 MiB). A whole run's peak is kept, and a smaller one after it changes nothing. */
START_TEST(a_quick_runs_peak_is_not_the_need)
{
    char root[] = "/tmp/clkit-root-XXXXXX", run[256], why[256];
    ck_assert_ptr_nonnull(mkdtemp(root));
    ck_assert_int_eq(scratch_open_run(root, root, "lab7", 1, run, sizeof run, why, sizeof why), 0);
    plant(run, ".clkit-peak", "266207232\n");
    scratch_close_run(root, root, "lab7", "transpose", 0);
    ck_assert_int_eq(scratch_memory_limit(root, "lab7"), SANDBOX_MEMORY_DEFAULT);
    ck_assert_int_eq(scratch_open_run(root, root, "lab7", 1, run, sizeof run, why, sizeof why), 0);
    plant(run, ".clkit-peak", "734003200\n");
    scratch_close_run(root, root, "lab7", "transpose", 1);
    ck_assert_int_eq(scratch_open_run(root, root, "lab7", 1, run, sizeof run, why, sizeof why), 0);
    plant(run, ".clkit-peak", "266207232\n");
    scratch_close_run(root, root, "lab7", "transpose", 1);
    ck_assert_int_eq(scratch_memory_limit(root, "lab7"), (size_t)1400 << 20);
    ck_assert_int_eq(scratch_remove(root), 0);
}
END_TEST

Suite *scratch_suite(void)
{
    Suite *s = suite_create("scratch");
    TCase *tc = tcase_create("copies");
    tcase_add_test(tc, plain_files_are_copied);
    tcase_add_test(tc, a_quick_runs_peak_is_not_the_need);
    tcase_add_test(tc, links_and_special_files_are_refused);
    tcase_add_test(tc, too_many_files_are_refused);
    tcase_add_test(tc, untrusted_files_are_read_with_care);
    tcase_add_test(tc, links_in_run_folders_are_not_followed);
    tcase_add_test(tc, kept_caches_hold_the_kit_kernels_only);
    tcase_add_test(tc, the_solutions_programs_reach_the_solutions_runs_only);
    tcase_add_test(tc, a_sources_builds_reach_the_same_source_only);
    suite_add_tcase(s, tc);
    return s;
}
