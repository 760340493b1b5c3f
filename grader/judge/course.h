/* A course: where its speed tests count. One file (course.conf at the kit's root, or --course FILE) names the
   device profile that grades speed; that profile's scored labs give the points. Every student of the course has
   the same maximum on every machine: off the course's device the points are pending, never guessed. */
#ifndef CLKIT_GRADER_COURSE_H
#define CLKIT_GRADER_COURSE_H

#include "judge/profile.h"

#include <limits.h>

/* The file a kit's course is read from when --course is not given. */
#define COURSE_FILE "course.conf"

/* The class contest's tiers: within ratio times the class's fastest correct kernel, points extra. */
#define COURSE_MAX_TIERS 4
struct course_tier {
    double ratio, points;
};

struct course {
    char path[PATH_MAX];    /* the course file read, "" for none (speed informational everywhere) */
    char name[160];         /* what the report calls the course, "" when unnamed */
    int scores_speed;       /* a profile grades speed */
    char profile_path[PATH_MAX];
    struct profile profile; /* the grading device's profile (its device names the device) */
    int contest;            /* contest = on: extra points within the tiers of the class's fastest (off by default) */
    struct course_tier tiers[COURSE_MAX_TIERS]; /* by ratio, closest first */
    int tier_count;
};

/* Parses a course file's text: name = ..., speed.profile = FILE (beside the course file, in its folder base_dir, or
   absolute; else a file of profiles_dir), or speed = informational; contest = on | off, contest.tiers = RATIO:POINTS,
   ... (default 1.05:2, 1.20:1 when on); returns 0, or -1 with "line N: why" in error. */
int course_parse(const char *text, const char *base_dir, const char *profiles_dir, struct course *course,
                 char *error, size_t error_size);

/* Loads the course file at path (NULL: none, speed informational); returns 0, or -1 with the file in error. */
int course_load(const char *path, const char *profiles_dir, struct course *course, char *error, size_t error_size);

/* The points the course gives lab's speed test: its profile's points where that lab is scored, else 0. */
double course_speed_points(const struct course *course, const struct grade_lab_spec *lab);

/* Whether speed is graded on the device called device_name (the course profile's device, exactly). */
int course_grades_on(const struct course *course, const char *device_name);

#endif
