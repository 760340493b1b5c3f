#include "judge/profile.h"

#include "files.h"
#include "settings.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void profile_defaults(int is_gpu, struct profile *profile)
{
    memset(profile, 0, sizeof *profile);
    snprintf(profile->name, sizeof profile->name, "built-in %s defaults", is_gpu ? "gpu" : "cpu");
    snprintf(profile->type, sizeof profile->type, "%s", is_gpu ? "gpu" : "cpu");
    /* The one rule for sizes: big enough on a GPU that a kernel runs for milliseconds,
       small enough on a 2-core CPU that a lab's timing fits in a few seconds. */
    profile->vector_n = is_gpu ? (size_t)1 << 26 : (size_t)1 << 22;
    profile->matmul_n = is_gpu ? 2048 : 256;
    profile->transpose_n = is_gpu ? 8192 : 2048;
    profile->tile = 16;
    for (size_t lab = 0; lab < registry_count(); lab++) {
        profile->labs[lab].informational = 1;
        snprintf(profile->labs[lab].note, sizeof profile->labs[lab].note,
                 "no calibrated threshold for this device (an instructor runs ./grade --calibrate)");
    }
}

static int parse_double(const char *text, double *value)
{
    char *end = NULL;
    *value = strtod(text, &end);
    return end != text && *end == '\0' && *value >= 0 ? 0 : -1;
}

/* Sets one "labN.field = value"; returns 0, or -1 when the field or value is unknown. */
static int set_lab_field(const struct grade_lab_spec *lab, struct perf_rule *rule, const char *field,
                         const char *value)
{
    if (strcmp(field, "tile") == 0) {
        double tile;
        if (parse_double(value, &tile) != 0 || tile != (int)tile || !labs_find_tiling(lab, (int)tile))
            return -1;
        rule->tile = (int)tile;
        return 0;
    }
    if (strcmp(field, "min_speedup") == 0)
        return parse_double(value, &rule->min_speedup);
    if (strcmp(field, "solution_low") == 0)
        return parse_double(value, &rule->solution_low);
    if (strcmp(field, "slow_high") == 0)
        return parse_double(value, &rule->slow_high);
    if (strcmp(field, "min_peak_fraction") == 0)
        return parse_double(value, &rule->min_peak_fraction);
    if (strcmp(field, "points") == 0)
        return parse_double(value, &rule->points);
    if (strcmp(field, "note") == 0) {
        snprintf(rule->note, sizeof rule->note, "%s", value);
        return 0;
    }
    if (strcmp(field, "mode") == 0) {
        if (strcmp(value, "scored") && strcmp(value, "informational"))
            return -1;
        rule->informational = strcmp(value, "informational") == 0;
        return 0;
    }
    return -1;
}

static int parse_size(const char *value, size_t *size)
{
    double number;
    if (parse_double(value, &number) != 0 || number < 1 || number > 1e12)
        return -1;
    *size = (size_t)number;
    return 0;
}

/* Sets "LAB.field = value" for a lab of the registry; returns 0, or -1 when the lab or field is unknown. */
static int set_lab_key(struct profile *profile, const char *key, const char *value)
{
    char name[32];
    const char *dot = strchr(key, '.');
    const struct grade_lab_spec *lab;
    if (!dot || (size_t)(dot - key) >= sizeof name)
        return -1;
    snprintf(name, sizeof name, "%.*s", (int)(dot - key), key);
    if (!(lab = registry_find(name)))
        return -1;
    return set_lab_field(lab, &profile->labs[registry_index(lab)], dot + 1, value);
}

static int set_field(struct profile *profile, const char *key, const char *value)
{
    if (strcmp(key, "device") == 0)
        return snprintf(profile->device, sizeof profile->device, "%s", value) < 0 ? -1 : 0;
    if (strcmp(key, "name") == 0)
        return snprintf(profile->name, sizeof profile->name, "%s", value) < 0 ? -1 : 0;
    if (strcmp(key, "type") == 0) {
        if (strcmp(value, "cpu") && strcmp(value, "gpu"))
            return -1;
        return snprintf(profile->type, sizeof profile->type, "%s", value) < 0 ? -1 : 0;
    }
    if (strcmp(key, "size.vector") == 0)
        return parse_size(value, &profile->vector_n);
    if (strcmp(key, "size.matmul") == 0)
        return parse_size(value, &profile->matmul_n);
    if (strcmp(key, "size.transpose") == 0)
        return parse_size(value, &profile->transpose_n);
    if (strcmp(key, "size.tile") == 0) {
        size_t tile;
        if (parse_size(value, &tile) != 0 || (tile != 8 && tile != 16 && tile != 32))
            return -1;
        profile->tile = (int)tile;
        return 0;
    }
    return set_lab_key(profile, key, value);
}

double profile_margin(const struct perf_rule *rule)
{
    double slow = rule->slow_high > 0 ? rule->slow_high : 1.0, above, below;
    if (rule->min_speedup <= 0)
        return 0.0;
    above = rule->solution_low > 0 ? rule->solution_low / rule->min_speedup : 1e9;
    below = rule->min_speedup / slow;
    return above < below ? above : below;
}

/* Every lab's keys must do what they say: points belong to a scored lab, and a scored lab needs a threshold and
   points; returns 0, or -1 with the lab and why in error. */
static int check_rules(const struct profile *profile, char *error, size_t error_size)
{
    for (size_t i = 0; i < registry_count(); i++) {
        const struct perf_rule *rule = &profile->labs[i];
        const char *name = registry_lab(i)->name, *why = NULL;
        if (rule->informational && rule->points > 0)
            why = "points on an informational lab would be ignored: remove %s.points or set %s.mode = scored";
        else if (!rule->informational && rule->points <= 0)
            why = "a scored lab needs points: set %s.points, or %s.mode = informational";
        else if (!rule->informational && rule->min_speedup <= 0 && rule->min_peak_fraction <= 0)
            why = "a scored lab needs a threshold: set %s.min_speedup (or min_peak_fraction), or %s.mode = "
                  "informational";
        else if (!rule->informational && rule->min_speedup > 0 && (rule->solution_low > 0 || rule->slow_high > 0) &&
                 profile_margin(rule) < PROFILE_MIN_MARGIN)
            why = "the threshold does not separate the solution from the known-slow submissions calibration "
                  "recorded (%s.solution_low, %s.slow_high): calibrate again";
        if (why) {
            char text[256];
            snprintf(text, sizeof text, why, name, name);
            snprintf(error, error_size, "%s: %s", name, text);
            return -1;
        }
    }
    return 0;
}

static int take_setting(void *profile, const char *key, const char *value, char *why, size_t why_size)
{
    if (set_field(profile, key, value) == 0)
        return 0;
    snprintf(why, why_size, "unknown key or bad value for '%.100s'", key);
    return -1;
}

int profile_parse(const char *text, struct profile *profile, char *error, size_t error_size)
{
    int rc = clk_settings_parse(text, take_setting, profile, error, error_size);
    return rc == 0 ? check_rules(profile, error, error_size) : rc;
}

int profile_load_file(const char *path, int is_gpu, struct profile *profile, char *error, size_t error_size)
{
    char *text = clk_read_text(path, NULL), why[256];
    int rc;
    if (!text) {
        snprintf(error, error_size, "cannot read %s", path);
        return -1;
    }
    profile_defaults(is_gpu, profile);
    snprintf(profile->name, sizeof profile->name, "%s", path);
    rc = profile_parse(text, profile, why, sizeof why);
    if (rc != 0)
        snprintf(error, error_size, "%s: %s", path, why);
    free(text);
    return rc;
}

static int has_conf_suffix(const char *name)
{
    size_t length = strlen(name);
    return length > 5 && strcmp(name + length - 5, ".conf") == 0;
}

/* Looks through dir for the profile calibrated on exactly this device; returns 1 when found. */
static int find_exact(const char *dir, const char *device_name, int is_gpu, struct profile *profile, char *error,
                      size_t error_size, int *failed)
{
    DIR *d = opendir(dir);
    struct dirent *entry;
    int found = 0;
    if (!d)
        return 0;
    while (!found && !*failed && (entry = readdir(d)) != NULL) {
        char path[1024];
        if (!has_conf_suffix(entry->d_name))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
        if (profile_load_file(path, is_gpu, profile, error, error_size) != 0)
            *failed = 1;
        else
            found = profile->device[0] && strcmp(profile->device, device_name) == 0;
    }
    closedir(d);
    return found;
}

void profile_file_name(const char *device_name, char *name, size_t size)
{
    size_t used = 0;
    int dash = 0;
    for (const char *p = device_name; *p && used + 6 < size; p++) {
        if (isalnum((unsigned char)*p)) {
            if (dash && used > 0)
                name[used++] = '-';
            name[used++] = (char)tolower((unsigned char)*p);
            dash = 0;
        } else {
            dash = 1;
        }
    }
    snprintf(name + used, size - used, "%s", used ? ".conf" : "device.conf");
}

int profile_load(const char *dir, const char *device_name, int is_gpu, struct profile *profile, char *error,
                 size_t error_size)
{
    const char *fallbacks[] = {is_gpu ? "gpu.conf" : "cpu.conf", "default.conf"};
    int failed = 0;
    if (find_exact(dir, device_name, is_gpu, profile, error, error_size, &failed))
        return 0;
    if (failed)
        return -1;
    for (int i = 0; i < 2; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, fallbacks[i]);
        if (clk_file_exists(path))
            return profile_load_file(path, is_gpu, profile, error, error_size);
    }
    profile_defaults(is_gpu, profile);
    return 0;
}

void profile_timing_case(const struct grade_lab_spec *lab, const struct profile *profile, struct grade_case *c)
{
    memset(c, 0, sizeof *c);
    c->data = GRADE_REAL;
    c->no_reference = 1;
    c->local[0] = c->local[1] = lab->perf.local;
    c->groups = lab->perf.groups;
    switch (lab->perf.size) {
    case GRADE_SIZE_VECTOR:
        c->dims[0] = profile->vector_n;
        break;
    case GRADE_SIZE_MATMUL:
        c->dims[0] = c->dims[1] = c->dims[2] = profile->matmul_n;
        break;
    case GRADE_SIZE_TRANSPOSE:
        c->dims[0] = c->dims[1] = profile->transpose_n;
        break;
    case GRADE_SIZE_IMAGE:
        c->dims[0] = c->dims[1] = profile->transpose_n;
        c->dims[2] = lab->perf.radius;
        break;
    }
    if (lab->tilings) {
        const struct grade_tiling *t = labs_find_tiling(lab, profile->labs[registry_index(lab)].tile);
        if (!t)
            t = labs_find_tiling(lab, lab->perf.tiling.tile ? lab->perf.tiling.tile : profile->tile);
        if (!t)
            t = lab->tilings;
        c->tile = t->tile;
        c->wpt = t->wpt;
        c->local[0] = c->local[1] = labs_tiling_side(t->tile, t->wpt);
    }
}
