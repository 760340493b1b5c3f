#include "judge/course.h"

#include "files.h"
#include "settings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Loads the grading profile that value names: beside the course file (or absolute), else a file of
   profiles_dir. */
static int load_profile(struct course *course, const char *value, const char *base_dir, const char *profiles_dir,
                        char *error, size_t error_size)
{
    char why[512];
    if (value[0] == '/' || !base_dir)
        snprintf(course->profile_path, sizeof course->profile_path, "%s", value);
    else
        snprintf(course->profile_path, sizeof course->profile_path, "%s/%s", base_dir, value);
    if (!clk_file_exists(course->profile_path) && value[0] != '/' && profiles_dir)
        snprintf(course->profile_path, sizeof course->profile_path, "%s/%s", profiles_dir, value);
    if (!clk_file_exists(course->profile_path)) {
        snprintf(error, error_size, "speed.profile: no profile %.300s beside the course file or in %.300s", value,
                 profiles_dir ? profiles_dir : "grader/profiles");
        return -1;
    }
    /* Sizes as the profile's type gives them: read as a GPU's, and again as a CPU's where it says so. */
    if (profile_load_file(course->profile_path, 1, &course->profile, why, sizeof why) != 0 ||
        (strcmp(course->profile.type, "cpu") == 0 &&
         profile_load_file(course->profile_path, 0, &course->profile, why, sizeof why) != 0)) {
        snprintf(error, error_size, "speed.profile: %.700s", why);
        return -1;
    }
    if (!course->profile.device[0]) {
        snprintf(error, error_size, "speed.profile: %.600s names no device (its 'device = ...' line): a course grades "
                 "speed on one device", course->profile_path);
        return -1;
    }
    course->scores_speed = 1;
    return 0;
}

/* Parses "1.05:2, 1.20:1": ratios of at least 1, rising, with points; returns 0, or -1. */
static int parse_tiers(struct course *course, const char *value)
{
    const char *p = value;
    int count = 0;
    while (*p) {
        double ratio, points;
        int used = 0;
        if (count == COURSE_MAX_TIERS || sscanf(p, " %lf : %lf %n", &ratio, &points, &used) != 2 || ratio < 1.0 ||
            points < 0 || (count && ratio <= course->tiers[count - 1].ratio))
            return -1;
        course->tiers[count++] = (struct course_tier){.ratio = ratio, .points = points};
        p += used;
        if (*p == ',')
            p++;
        else if (*p)
            return -1;
    }
    course->tier_count = count;
    return count ? 0 : -1;
}

static int set_contest(struct course *course, const char *key, const char *value)
{
    if (strcmp(key, "contest") == 0 && (strcmp(value, "on") == 0 || strcmp(value, "off") == 0)) {
        course->contest = strcmp(value, "on") == 0;
        return 0;
    }
    if (strcmp(key, "contest.tiers") == 0)
        return parse_tiers(course, value);
    return -1;
}

static int set_key(struct course *course, const char *key, const char *value, const char *base_dir,
                   const char *profiles_dir, char *error, size_t error_size)
{
    if (strncmp(key, "contest", 7) == 0 && set_contest(course, key, value) == 0)
        return 0;
    if (strcmp(key, "name") == 0) {
        snprintf(course->name, sizeof course->name, "%s", value);
        return 0;
    }
    if (strcmp(key, "speed") == 0 && strcmp(value, "informational") == 0) {
        course->scores_speed = 0;
        return 0;
    }
    if (strcmp(key, "speed.profile") == 0)
        return load_profile(course, value, base_dir, profiles_dir, error, error_size);
    snprintf(error, error_size, "unknown key or bad value for '%.100s' (expected name, speed.profile, "
             "speed = informational, contest = on|off or contest.tiers = 1.05:2, 1.20:1)", key);
    return -1;
}

/* Where course_parse's settings go, and where a course file's relative paths start. */
struct course_parsing {
    struct course *course;
    const char *base_dir, *profiles_dir;
};

static int take_setting(void *context, const char *key, const char *value, char *why, size_t why_size)
{
    const struct course_parsing *p = context;
    return set_key(p->course, key, value, p->base_dir, p->profiles_dir, why, why_size);
}

int course_parse(const char *text, const char *base_dir, const char *profiles_dir, struct course *course,
                 char *error, size_t error_size)
{
    struct course_parsing parsing = {.course = course, .base_dir = base_dir, .profiles_dir = profiles_dir};
    return clk_settings_parse(text, take_setting, &parsing, error, error_size);
}

int course_load(const char *path, const char *profiles_dir, struct course *course, char *error, size_t error_size)
{
    char *text, base[PATH_MAX], why[1024];
    const char *slash;
    int rc;
    memset(course, 0, sizeof *course);
    if (!path)
        return 0;
    if (!clk_file_exists(path) || !(text = clk_read_text(path, NULL))) {
        snprintf(error, error_size, "cannot read the course file %s", path);
        return -1;
    }
    course->tiers[0] = (struct course_tier){.ratio = 1.05, .points = 2}; /* Aalto PPC's contest bands */
    course->tiers[1] = (struct course_tier){.ratio = 1.20, .points = 1};
    course->tier_count = 2;
    slash = strrchr(path, '/');
    snprintf(base, sizeof base, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    snprintf(course->path, sizeof course->path, "%s", path);
    rc = course_parse(text, base, profiles_dir, course, why, sizeof why);
    if (rc != 0)
        snprintf(error, error_size, "%s: %s", path, why);
    free(text);
    return rc;
}

double course_speed_points(const struct course *course, const struct grade_lab_spec *lab)
{
    const struct perf_rule *rule;
    if (!course || !course->scores_speed || !lab || !labs_test_name(lab, GRADE_TEST_SPEED))
        return 0.0;
    rule = &course->profile.labs[registry_index(lab)];
    return rule->informational ? 0.0 : rule->points;
}

int course_grades_on(const struct course *course, const char *device_name)
{
    return course && course->scores_speed && device_name && strcmp(course->profile.device, device_name) == 0;
}
