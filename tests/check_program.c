#include "suites.h"

#include "context.h"
#include "program.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct clk_env env;
static char path[64];

static void write_kernel(const char *source)
{
    FILE *f = fopen(path, "w");
    fputs(source, f);
    fclose(f);
}

static void setup(void)
{
    int fd;
    strcpy(path, "/tmp/clkit-program-XXXXXX");
    fd = mkstemp(path);
    close(fd);
    ck_assert_int_eq(clk_env_create(NULL, &env), 0);
}

static void teardown(void)
{
    clk_env_release(&env);
    unlink(path);
}

START_TEST(builds_and_names_kernels)
{
    cl_program program;
    char *names;
    write_kernel("__kernel void first(__global float *x) { x[0] = 1.0f; }\n"
                 "__kernel void second(__global float *x) { x[0] = 2.0f; }\n");
    program = clk_build_program(env.context, env.info.device, path, "", NULL);
    ck_assert_ptr_nonnull(program);
    names = clk_kernel_names(program);
    ck_assert_ptr_nonnull(strstr(names, "first"));
    ck_assert_ptr_nonnull(strstr(names, "second"));
    free(names);
    clReleaseProgram(program);
}
END_TEST

START_TEST(failed_build_names_the_file_and_line)
{
    char *log = NULL, where[128];
    write_kernel("__kernel void broken(__global float *x)\n{\n    x[0] = undeclared_name;\n}\n");
    ck_assert_ptr_null(clk_build_program(env.context, env.info.device, path, "", &log));
    ck_assert_ptr_nonnull(log);
    ck_assert_ptr_nonnull(strstr(log, "CL_BUILD_PROGRAM_FAILURE"));
    snprintf(where, sizeof where, "%s:3:", path);
    ck_assert_msg(strstr(log, where) != NULL, "the log does not name %s:\n%s", where, log);
    free(log);
}
END_TEST

START_TEST(build_options_reach_the_compiler)
{
    char *log = NULL;
    write_kernel("#if TILE != 8\n#error TILE must be 8\n#endif\n__kernel void k(void) {}\n");
    cl_program program = clk_build_program(env.context, env.info.device, path, "-DTILE=8", NULL);
    ck_assert_ptr_nonnull(program);
    clReleaseProgram(program);
    ck_assert_ptr_null(clk_build_program(env.context, env.info.device, path, "-DTILE=16", &log));
    free(log);
}
END_TEST

START_TEST(missing_file)
{
    char *log = NULL;
    ck_assert_ptr_null(clk_build_program(env.context, env.info.device, "/nonexistent/k.cl", "", &log));
    ck_assert_ptr_nonnull(strstr(log, "/nonexistent/k.cl"));
    free(log);
}
END_TEST

Suite *program_suite(void)
{
    Suite *s = suite_create("program");
    TCase *tc = tcase_create("build");
    tcase_set_timeout(tc, 60);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, builds_and_names_kernels);
    tcase_add_test(tc, failed_build_names_the_file_and_line);
    tcase_add_test(tc, build_options_reach_the_compiler);
    tcase_add_test(tc, missing_file);
    suite_add_tcase(s, tc);
    return s;
}
