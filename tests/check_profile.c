#include "suites.h"

#include "labs/registry.h"
#include "judge/course.h"
#include "judge/profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static void write_profile(const char *name, const char *text)
{
    char path[128];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static void setup(void)
{
    strcpy(dir, "/tmp/clkit-profiles-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
    char command[128];
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(command), 0);
}

START_TEST(parses_every_key)
{
    struct profile p;
    char error[128] = "";
    profile_defaults(0, &p);
    ck_assert_int_eq(profile_parse("# a comment\n\ndevice = NVIDIA H200\nname = H200\ntype = gpu\n"
                                   "size.vector = 67108864\nsize.matmul = 2048\nsize.transpose = 8192\nsize.tile = 32\n"
                                   "lab6.min_speedup = 1.12\nlab6.points = 2\nlab6.mode = scored\n"
                                   "lab5.mode = informational\nlab5.note = on CPUs, coalescing makes little difference\n"
                                   "lab1.min_peak_fraction = 0.8\n",
                                   &p, error, sizeof error),
                     0);
    ck_assert_str_eq(p.device, "NVIDIA H200");
    ck_assert_str_eq(p.type, "gpu");
    ck_assert_uint_eq(p.vector_n, 67108864);
    ck_assert_uint_eq(p.transpose_n, 8192);
    ck_assert_int_eq(p.tile, 32);
    ck_assert_double_eq(p.labs[LAB(6)].min_speedup, 1.12);
    ck_assert_int_eq(p.labs[LAB(6)].informational, 0);
    ck_assert_int_eq(p.labs[LAB(5)].informational, 1);
    ck_assert_str_eq(p.labs[LAB(5)].note, "on CPUs, coalescing makes little difference");
    ck_assert_double_eq(p.labs[LAB(1)].min_peak_fraction, 0.8);
}
END_TEST

START_TEST(errors_name_the_line)
{
    struct profile p;
    char error[128] = "";
    profile_defaults(0, &p);
    ck_assert_int_eq(profile_parse("type = cpu\nlab6.min_speedup = fast\n", &p, error, sizeof error), -1);
    ck_assert_ptr_nonnull(strstr(error, "line 2"));
    ck_assert_int_eq(profile_parse("no equals sign here\n", &p, error, sizeof error), -1);
    ck_assert_ptr_nonnull(strstr(error, "line 1"));
    ck_assert_int_eq(profile_parse("lab99.points = 2\n", &p, error, sizeof error), -1);
    ck_assert_int_eq(profile_parse("lab6.mode = sometimes\n", &p, error, sizeof error), -1);
    ck_assert_int_eq(profile_parse("size.matmul = 0\n", &p, error, sizeof error), -1);
    ck_assert_int_eq(profile_parse("size.tile = 12\n", &p, error, sizeof error), -1);
}
END_TEST

/* A tiled lab is timed under the tiling its profile names (lab8.tile), else the lab's own, else size.tile; a tile
   the lab does not build is refused. */
START_TEST(timing_case_follows_the_tiling_key)
{
    struct profile p;
    struct grade_case c;
    char error[128] = "";
    const struct grade_lab_spec *lab8 = registry_find("lab8"), *lab6 = registry_find("lab6");
    profile_defaults(1, &p);
    profile_timing_case(lab8, &p, &c);
    ck_assert_int_eq(c.tile, lab8->perf.tiling.tile);
    ck_assert_int_eq(c.wpt, lab8->perf.tiling.wpt);
    profile_timing_case(lab6, &p, &c);
    ck_assert_int_eq(c.tile, 16);
    ck_assert_int_eq(c.wpt, 0);
    ck_assert_int_eq(profile_parse("lab8.tile = 128\nlab6.tile = 32\n", &p, error, sizeof error), 0);
    profile_timing_case(lab8, &p, &c);
    ck_assert_int_eq(c.tile, 128);
    ck_assert_int_eq(c.wpt, 8);
    ck_assert_uint_eq(c.local[0], 16);
    profile_timing_case(lab6, &p, &c);
    ck_assert_int_eq(c.tile, 32);
    ck_assert_uint_eq(c.local[0], 32);
    ck_assert_int_eq(profile_parse("lab8.tile = 48\n", &p, error, sizeof error), -1);
    ck_assert_ptr_nonnull(strstr(error, "line 1"));
    ck_assert_int_eq(profile_parse("lab1.tile = 16\n", &p, error, sizeof error), -1);
    ck_assert_int_eq(profile_parse("lab8.tile = 64.5\n", &p, error, sizeof error), -1);
}
END_TEST

START_TEST(defaults_follow_the_size_rule)
{
    struct profile cpu, gpu;
    profile_defaults(0, &cpu);
    profile_defaults(1, &gpu);
    ck_assert_uint_ge(gpu.vector_n, (size_t)1 << 26);
    ck_assert_uint_ge(gpu.matmul_n, 2048);
    ck_assert_uint_ge(gpu.transpose_n, 8192);
    ck_assert_uint_lt(cpu.matmul_n, gpu.matmul_n);
    ck_assert_int_eq(cpu.labs[LAB(6)].informational, 1); /* no thresholds without calibration */
}
END_TEST

START_TEST(exact_device_name_wins)
{
    struct profile p;
    char error[256];
    write_profile("gpu.conf", "type = gpu\nname = gpu fallback\n");
    write_profile("h200.conf", "device = NVIDIA H200\nname = NVIDIA H200\nlab6.min_speedup = 1.1\n");
    write_profile("h100.conf", "device = NVIDIA H100 80GB HBM3\nname = NVIDIA H100\n");
    ck_assert_int_eq(profile_load(dir, "NVIDIA H200", 1, &p, error, sizeof error), 0);
    ck_assert_str_eq(p.name, "NVIDIA H200");
    ck_assert_double_eq(p.labs[LAB(6)].min_speedup, 1.1);
    /* A near miss is not the device: it falls back to the type. */
    ck_assert_int_eq(profile_load(dir, "NVIDIA H200 NVL", 1, &p, error, sizeof error), 0);
    ck_assert_str_eq(p.name, "gpu fallback");
}
END_TEST

START_TEST(falls_back_to_type_then_default_then_built_in)
{
    struct profile p;
    char error[256];
    ck_assert_int_eq(profile_load(dir, "Some CPU", 0, &p, error, sizeof error), 0);
    ck_assert_ptr_nonnull(strstr(p.name, "built-in cpu"));
    write_profile("default.conf", "name = default\n");
    ck_assert_int_eq(profile_load(dir, "Some CPU", 0, &p, error, sizeof error), 0);
    ck_assert_str_eq(p.name, "default");
    write_profile("cpu.conf", "name = cpu fallback\ntype = cpu\n");
    ck_assert_int_eq(profile_load(dir, "Some CPU", 0, &p, error, sizeof error), 0);
    ck_assert_str_eq(p.name, "cpu fallback");
    ck_assert_int_eq(profile_load(dir, "Some GPU", 1, &p, error, sizeof error), 0);
    ck_assert_str_eq(p.name, "default");
}
END_TEST

START_TEST(broken_profile_is_an_error)
{
    struct profile p;
    char error[256] = "";
    write_profile("cpu.conf", "type = cpu\nsize.vector = lots\n");
    ck_assert_int_eq(profile_load(dir, "Some CPU", 0, &p, error, sizeof error), -1);
    ck_assert_ptr_nonnull(strstr(error, "cpu.conf: line 2"));
}
END_TEST

START_TEST(committed_profiles_parse)
{
    /* Every profile the kit ships must load: a typo there would break grading on that device. */
    struct profile p;
    char error[256] = "";
    ck_assert_msg(profile_load("grader/profiles", "no such device", 0, &p, error, sizeof error) == 0, "%s", error);
    ck_assert_msg(profile_load("grader/profiles", "no such device", 1, &p, error, sizeof error) == 0, "%s", error);
    /* Calibration's records in the shipped GPU profiles: each scored threshold under the solution's lowest. */
    ck_assert_int_eq(profile_load("grader/profiles", "NVIDIA H100 80GB HBM3", 1, &p, error, sizeof error), 0);
    for (size_t i = 0; i < registry_count(); i++)
        if (!p.labs[i].informational && p.labs[i].min_speedup > 0)
            ck_assert_msg(p.labs[i].solution_low > p.labs[i].min_speedup, "%s", registry_lab(i)->name);
}
END_TEST

/* Every course the kit ships loads, with the profile it names (a course file beside a profile of its own name once
   loaded itself as that profile). */
START_TEST(committed_courses_load)
{
    static const char *const courses[] = {"informational.conf", "nvidia-h100.conf", "nvidia-h200.conf"};
    for (size_t i = 0; i < sizeof courses / sizeof courses[0]; i++) {
        struct course c;
        char path[128], error[1024] = "";
        snprintf(path, sizeof path, "grader/courses/%s", courses[i]);
        ck_assert_msg(course_load(path, "grader/profiles", &c, error, sizeof error) == 0, "%s: %s", path, error);
        ck_assert_msg(!c.scores_speed || c.profile.device[0], "%s names no device", path);
    }
}
END_TEST


/* A profile's keys do what they say: points on an informational lab, or a scored lab without points or threshold,
   would be ignored, so the profile is refused with the lab named. */
START_TEST(keys_that_would_be_ignored_are_refused)
{
    struct profile p;
    char error[256] = "";
    profile_defaults(1, &p);
    ck_assert_int_eq(profile_parse("lab4.points = 2\nlab4.mode = informational\n", &p, error, sizeof error), -1);
    ck_assert_ptr_nonnull(strstr(error, "lab4"));
    profile_defaults(1, &p);
    ck_assert_int_eq(profile_parse("lab6.min_speedup = 1.1\nlab6.mode = scored\n", &p, error, sizeof error), -1);
    profile_defaults(1, &p);
    ck_assert_int_eq(profile_parse("lab6.points = 2\nlab6.mode = scored\n", &p, error, sizeof error), -1);
    profile_defaults(1, &p);
    ck_assert_int_eq(profile_parse("lab6.points = 2\nlab6.min_speedup = 1.1\nlab6.mode = scored\n", &p, error,
                                   sizeof error),
                     0);
}
END_TEST

/* A course names its grading profile; the points are that profile's scored labs', whatever device is in use. */
START_TEST(course_takes_points_from_its_profile)
{
    struct course c;
    char path[128], error[512] = "";
    write_profile("h100.conf", "device = NVIDIA H100 80GB HBM3\nname = H100\ntype = gpu\n"
                               "lab6.min_speedup = 1.08\nlab6.points = 3\nlab6.mode = scored\n"
                               "lab4.mode = informational\n");
    write_profile("course.conf", "# where speed counts\nname = GPU course\nspeed.profile = h100.conf\n");
    snprintf(path, sizeof path, "%s/course.conf", dir);
    ck_assert_msg(course_load(path, "grader/profiles", &c, error, sizeof error) == 0, "%s", error);
    ck_assert_str_eq(c.name, "GPU course");
    ck_assert_int_eq(c.scores_speed, 1);
    ck_assert_double_eq(course_speed_points(&c, registry_find("lab6")), 3.0);
    ck_assert_double_eq(course_speed_points(&c, registry_find("lab4")), 0.0);
    ck_assert_int_eq(course_grades_on(&c, "NVIDIA H100 80GB HBM3"), 1);
    ck_assert_int_eq(course_grades_on(&c, "pthread-skylake-avx512-AMD EPYC"), 0);
    /* No course: speed is reported only, on every device. */
    ck_assert_int_eq(course_load(NULL, "grader/profiles", &c, error, sizeof error), 0);
    ck_assert_double_eq(course_speed_points(&c, registry_find("lab6")), 0.0);
    ck_assert_int_eq(course_grades_on(&c, "NVIDIA H100 80GB HBM3"), 0);
}
END_TEST

START_TEST(course_errors_name_the_line)
{
    struct course c;
    char path[128], error[512] = "";
    snprintf(path, sizeof path, "%s/course.conf", dir);
    write_profile("course.conf", "name = x\nspeed.profile = missing.conf\n");
    ck_assert_int_eq(course_load(path, "grader/profiles", &c, error, sizeof error), -1);
    ck_assert_ptr_nonnull(strstr(error, "line 2"));
    write_profile("course.conf", "speed.points = 2\n");
    ck_assert_int_eq(course_load(path, "grader/profiles", &c, error, sizeof error), -1);
    ck_assert_ptr_nonnull(strstr(error, "line 1"));
    /* A fallback profile names no device: a course cannot grade on "any GPU". */
    write_profile("course.conf", "speed.profile = gpu.conf\n");
    ck_assert_int_eq(course_load(path, "grader/profiles", &c, error, sizeof error), -1);
    ck_assert_ptr_nonnull(strstr(error, "names no device"));
    ck_assert_int_eq(course_load("/nonexistent/course.conf", "grader/profiles", &c, error, sizeof error), -1);
    write_profile("course.conf", "contest = on\ncontest.tiers = 1.20:1, 1.05:2\n"); /* tiers must rise */
    ck_assert_int_eq(course_load(path, "grader/profiles", &c, error, sizeof error), -1);
    ck_assert_ptr_nonnull(strstr(error, "line 2"));
}
END_TEST

/* The class contest is off unless the course turns it on; its tiers default to within 1.05x (2) and 1.20x (1). */
START_TEST(course_contest_is_opt_in)
{
    struct course c;
    char path[128], error[512] = "";
    snprintf(path, sizeof path, "%s/course.conf", dir);
    write_profile("course.conf", "name = x\n");
    ck_assert_int_eq(course_load(path, "grader/profiles", &c, error, sizeof error), 0);
    ck_assert_int_eq(c.contest, 0);
    write_profile("course.conf", "contest = on\n");
    ck_assert_int_eq(course_load(path, "grader/profiles", &c, error, sizeof error), 0);
    ck_assert_int_eq(c.contest, 1);
    ck_assert_int_eq(c.tier_count, 2);
    ck_assert_double_eq(c.tiers[0].ratio, 1.05);
    write_profile("course.conf", "contest = on\ncontest.tiers = 1.1:3, 1.5:1, 2:0.5\n");
    ck_assert_msg(course_load(path, "grader/profiles", &c, error, sizeof error) == 0, "%s", error);
    ck_assert_int_eq(c.tier_count, 3);
    ck_assert_double_eq(c.tiers[2].points, 0.5);
}
END_TEST

/* The shipped GPU profiles score speed where their calibration separates solution and baseline; the CPU fallback
   keeps it informational. */
START_TEST(shipped_gpu_profiles_score_speed)
{
    const char *gpus[] = {"nvidia-h100-80gb-hbm3.conf", "nvidia-h200.conf"};
    struct course c;
    char path[128], text[128], error[512] = "";
    double points = 0.0;
    snprintf(path, sizeof path, "%s/course.conf", dir);
    for (int i = 0; i < 2; i++) {
        snprintf(text, sizeof text, "speed.profile = %s\n", gpus[i]);
        write_profile("course.conf", text);
        ck_assert_msg(course_load(path, "grader/profiles", &c, error, sizeof error) == 0, "%s", error);
        points = 0.0;
        for (size_t l = 0; l < registry_count(); l++)
            points += course_speed_points(&c, registry_lab(l));
        ck_assert_double_ge(points, 8.0); /* labs 5 to 8 at least */
        ck_assert_double_gt(course_speed_points(&c, registry_find("lab7")), 0.0);
    }
}
END_TEST

START_TEST(file_names_are_safe)
{
    char name[64];
    profile_file_name("NVIDIA H200", name, sizeof name);
    ck_assert_str_eq(name, "nvidia-h200.conf");
    profile_file_name("pthread-skylake-avx512-AMD EPYC 7B13 (64 cores)", name, sizeof name);
    ck_assert_str_eq(name, "pthread-skylake-avx512-amd-epyc-7b13-64-cores.conf");
    profile_file_name("../..", name, sizeof name);
    ck_assert_str_eq(name, "device.conf");
}
END_TEST

Suite *profile_suite(void)
{
    Suite *s = suite_create("profile");
    TCase *tc = tcase_create("parse and fall back");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, parses_every_key);
    tcase_add_test(tc, file_names_are_safe);
    tcase_add_test(tc, errors_name_the_line);
    tcase_add_test(tc, defaults_follow_the_size_rule);
    tcase_add_test(tc, timing_case_follows_the_tiling_key);
    tcase_add_test(tc, exact_device_name_wins);
    tcase_add_test(tc, falls_back_to_type_then_default_then_built_in);
    tcase_add_test(tc, broken_profile_is_an_error);
    tcase_add_test(tc, committed_profiles_parse);
    tcase_add_test(tc, committed_courses_load);
    tcase_add_test(tc, keys_that_would_be_ignored_are_refused);
    tcase_add_test(tc, course_takes_points_from_its_profile);
    tcase_add_test(tc, course_errors_name_the_line);
    tcase_add_test(tc, shipped_gpu_profiles_score_speed);
    tcase_add_test(tc, course_contest_is_opt_in);
    suite_add_tcase(s, tc);
    return s;
}
