/* Hostile submissions against the judge and its confined runner: each attack's outcome, not its wording. */
#include "suites.h"

#include "judge/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Checksums of what no submission may change: the profiles, the grader's programs and the solutions. */
#define KIT_SUM "sha256sum grader/profiles/* build/grader/grade build/grader/clkit-runner solutions/*/* | sha256sum"

static char *shell(const char *command, int *status)
{
    char *output;
    *status = run_in_kit(command, 240, &output);
    return output;
}

static double score_of(const char *output, const char *lab)
{
    char key[64];
    const char *at;
    double score = -1.0;
    snprintf(key, sizeof key, "%s score: ", lab);
    if ((at = strstr(output, key)) != NULL)
        sscanf(at + strlen(key), "%lf", &score);
    return score;
}

/* Kernels that reach outside the OpenCL model or the lab folder are refused before they are built (not merely
   failed by the compiler), and score nothing. */
static const struct {
    const char *fixture, *refusal;
} refused[] = {
    {"asm-kernel", "inline assembly"},
    {"include-solution", "is not allowed"},
    {"include-absolute", "is not allowed"},
    {"symlink", "is a symbolic link"},
};

START_TEST(refused_kernels_score_nothing)
{
    char command[512], *output;
    int status;
    snprintf(command, sizeof command, "NO_COLOR=1 ./grade --quick --submission tests/fixtures/attacks/%s lab1 2>&1",
             refused[_i].fixture);
    output = shell(command, &status);
    ck_assert_msg(status == 1 && score_of(output, "lab1") == 0.0, "%s: status %d\n%s", refused[_i].fixture, status,
                  output);
    ck_assert_msg(strstr(output, "lab1/vadd.cl") && strstr(output, refused[_i].refusal),
                  "%s: not refused by the source rules, naming the file\n%s", refused[_i].fixture, output);
    free(output);
}
END_TEST

/* Submissions that attack from inside the rules: what each must score, and that the grader stays in bounds. */
static const struct {
    const char *fixture;
    double score; /* lab 1, out of 10 */
    const char *said; /* what the report must say, or NULL */
} contained[] = {
    {"heap-walk", 0.0, NULL},    /* looks for the expected values in the runner's memory: they are not there */
    {"host-include", 7.0, NULL}, /* builds the solution's host program: refused, the kernel keeps its points */
    {"printf-flood", 7.0, NULL}, /* floods through printf: capped and cleaned, the kernel keeps its points */
    {"resource-hog", 7.0, NULL}, /* memory, processes, /tmp and the run folder: limited, and nothing is left */
    {"memory-3g", 7.0, "stopped for using too much memory"}, /* touches 3 GiB: stopped at lab 1's cap */
};

START_TEST(contained_attacks_score_as_they_should)
{
    char command[512], *output, *left;
    int status;
    time_t start = time(NULL);
    snprintf(command, sizeof command,
             "NO_COLOR=1 ./grade --quick --timeout 20 --submission tests/fixtures/attacks/%s lab1 2>&1",
             contained[_i].fixture);
    output = shell(command, &status);
    ck_assert_msg(status == 1 && score_of(output, "lab1") == contained[_i].score, "%s: status %d\n%.3000s",
                  contained[_i].fixture, status, output);
    /* In bounds: a hang costs its stage's limit (--timeout 20, under the reference judge at least 20 s), which a
       busy machine may stretch SESSION_STRETCH times on the wall clock (heap-walk took 169 s at load 9 on 2 cores). */
    ck_assert_msg(time(NULL) - start < SESSION_STRETCH * (20 + 20) + 80, "%s: the grader took %ld s",
                  contained[_i].fixture, (long)(time(NULL) - start));
    ck_assert_msg(strlen(output) < 100000 && !strchr(output, '\033'), "%s: the terminal got %zu bytes",
                  contained[_i].fixture, strlen(output));
    ck_assert_msg(!contained[_i].said || strstr(output, contained[_i].said), "%s: the report does not say \"%s\"\n%.3000s",
                  contained[_i].fixture, contained[_i].said, output);
    ck_assert_msg(!strstr(output, "clkit-attack took 3072 MiB"), "%s: it held 3 GiB", contained[_i].fixture);
    left = shell("pgrep -f 'clkit-attack-[h]og'", &status);
    ck_assert_msg(status != 0, "%s: processes left behind: %s", contained[_i].fixture, left);
    free(left);
    free(output);
}
END_TEST

/* As the report's confinement line says: the kit and the solutions are out of reach where submitted code runs as
   another user, inside bubblewrap or under Landlock; as an ordinary user with none of these, it has the user's
   rights. */
static int solutions_hidden(const char *output)
{
    return strstr(output, "scratch copy; user ") != NULL || strstr(output, "bubblewrap: no network") != NULL ||
           strstr(output, "Landlock: kit hidden") != NULL;
}

static int is_protected(const char *output)
{
    return solutions_hidden(output) || strstr(output, "Landlock: ") != NULL;
}

/* Whether the grader promises, with these environment settings, to keep submitted code off the kit. */
static int protected_here(const char *environment)
{
    char command[256], *output;
    int status, promised;
    snprintf(command, sizeof command, "%s ./grade --confinement", environment);
    output = shell(command, &status);
    promised = status == 0 && is_protected(output);
    free(output);
    return promised;
}

/* A host program that attacks the kit, the grader and the results, in every confinement this machine offers. */
static void host_attack(const char *environment)
{
    char command[2048], *before, *after, *output, *json;
    int status;
    time_t start;
    if (!protected_here(environment)) {
        /* An ordinary user without bubblewrap or Landlock: the attack would change this very checkout. */
        fprintf(stderr, "runner: host attack %s skipped: no layer here keeps it off the kit\n", environment);
        return;
    }
    before = shell(KIT_SUM, &status);
    snprintf(command, sizeof command,
             "rm -rf build/attacks && mkdir -p build/attacks/sub/lab1 && cp solutions/lab1/vadd.cl build/attacks/sub/lab1/ "
             "&& sed -e \"s|@KIT@|$PWD|g\" -e \"s|@RESULTS@|$PWD/build/attacks/results.json|g\" "
             "tests/fixtures/attacks/host-attack/lab1/host.c.in > build/attacks/sub/lab1/host.c");
    free(shell(command, &status));
    ck_assert_int_eq(status, 0);
    start = time(NULL);
    snprintf(command, sizeof command,
             "%s NO_COLOR=1 ./grade --timeout 5 --quick --submission build/attacks/sub --json build/attacks/results.json "
             "--junit build/attacks/results.xml lab1 2>&1",
             environment);
    output = shell(command, &status);
    ck_assert_msg(time(NULL) - start < 60, "the grader took %ld s", (long)(time(NULL) - start));
    ck_assert_msg(status == 1 && strstr(output, "total: "), "the grader did not finish (status %d):\n%.3000s", status,
                  output);
    ck_assert_msg(!strchr(output, '\033'), "an escape sequence reached the terminal:\n%.3000s", output);
    ck_assert_msg(strlen(output) < 200000, "the flood reached the terminal (%zu bytes)", strlen(output));
    int kit_protected = is_protected(output);
    ck_assert_msg(!solutions_hidden(output) || !strstr(output, "LEAKED"), "the solutions leaked into the report");
    sleep(4); /* the daemon would rewrite the results now */
    json = shell("python3 -c 'import json; d = json.load(open(\"build/attacks/results.json\")); "
                 "assert d[\"score\"] < 1000, d' && xmllint --noout build/attacks/results.xml && "
                 "! pgrep -f 'clkit-attack-[d]aemon'",
                 &status);
    ck_assert_msg(status == 0, "results forged or a daemon left:\n%s", json);
    after = shell(KIT_SUM, &status);
    ck_assert_msg(!kit_protected || strcmp(before, after) == 0, "the kit changed");
    free(json), free(output), free(before), free(after);
}

START_TEST(host_attack_with_every_layer)
{
    host_attack("");
}
END_TEST

START_TEST(host_attack_without_bubblewrap)
{
    host_attack("CLKIT_BUBBLEWRAP=0");
}
END_TEST

/* After the solutions are graded (full marks), no file a student's run can reach holds the solution's compiled
   kernel or its source: the kernel caches kept for speed hold the kit's own kernels only. */
START_TEST(no_solution_artefact_reaches_a_student)
{
    int status;
    char *output = shell("NO_COLOR=1 ./grade --quick --solutions lab1 2>&1", &status);
    ck_assert_msg(score_of(output, "lab1") == 10.0,
                  "the solutions: status %d\n%s", status, output);
    free(output);
    if (geteuid() != 0) {
        fprintf(stderr, "runner: cache attack skipped: as an ordinary user the caches are copies, not links\n");
        return;
    }
    output = shell("NO_COLOR=1 ./grade --quick --submission tests/fixtures/attacks/cache-reader lab1 2>&1", &status);
    ck_assert_msg(status == 1 && strstr(output, "clkit-attack searched"), "the search did not run: status %d\n%s",
                  status, output);
    ck_assert_msg(!strstr(output, "clkit-attack FOUND"), "a solution artefact reached the student:\n%s", output);
    free(output);
}
END_TEST

/* A folder name with a space, quotes and a make function grades like any other, and runs nothing. */
START_TEST(any_folder_name_grades)
{
    int status;
    char *output = shell("rm -rf build/names && mkdir -p 'build/names/we ird\"$(shell touch build/names/X)' && "
                         "cp -r solutions/lab1 'build/names/we ird\"$(shell touch build/names/X)/' && "
                         "NO_COLOR=1 ./grade --quick --submission 'build/names/we ird\"$(shell touch build/names/X)' lab1 "
                         "2>&1; test ! -e build/names/X",
                         &status);
    ck_assert_msg(status == 0 && score_of(output, "lab1") == 10.0, "status %d\n%s", status, output);
    free(output);
}
END_TEST

/* The files cache-writer's host program found in its cache, from its line in output (0 when none). */
static int attacked_files(const char *text)
{
    int files = 0;
    for (size_t i = 0; text[i]; i++)
        if (!strncmp(text + i, "clkit-attack: ", 14))
            return sscanf(text + i + 14, "%d", &files) == 1 ? files : 0;
    return 0;
}

/* A host program that rewrites its PoCL cache, where the grader gave it the program the runner built from its
   kernel text (kept by that text), changes nothing of the kept program: a classmate who hands in the same text gets
   it as the runner built it, and full marks. */
START_TEST(a_host_program_cannot_change_a_kept_program)
{
    int status, files;
    char *output = shell(
        "set -e; rm -rf build/check-keep && mkdir -p build/check-keep/good/lab1 && "
        "cp tests/fixtures/attacks/cache-writer/lab1/vadd.cl solutions/lab1/host.c build/check-keep/good/lab1/ && "
        "NO_COLOR=1 ./grade --quick --seed 2 --submission build/check-keep/good lab1 >/dev/null 2>&1 || true; "
        "entry=$(dirname $(grep -l \"cache-writer's kernel\" build/kit-kernel-cache/lab1/submitted-builds/*/source)); "
        "find $entry -type f | sort | xargs sha256sum > build/check-keep.sum; "
        "NO_COLOR=1 ./grade --quick --seed 2 --submission tests/fixtures/attacks/cache-writer lab1 2>&1 | "
        "grep -o 'clkit-attack: [0-9]* files'; sha256sum --quiet -c build/check-keep.sum; "
        "NO_COLOR=1 ./grade --quick --seed 2 --submission build/check-keep/good lab1 2>&1",
        &status);
    files = attacked_files(output);
    ck_assert_msg(status == 0 && files > 0,
                  "the attack did not run, or the kept program changed: status %d\n%s", status, output);
    ck_assert_msg(score_of(output, "lab1") == 10.0, "the classmate after it:\n%s", output);
    free(output);
}
END_TEST

/* A student who attacks classmates in batch grading changes nothing of theirs, and every entry gets a result. */
START_TEST(classmates_are_unharmed)
{
    int status;
    char command[2048], *output;
    if (!protected_here(_i ? "CLKIT_BUBBLEWRAP=0" : "")) {
        fprintf(stderr, "runner: classmate attack skipped: no layer here keeps it off the kit\n");
        return;
    }
    snprintf(command, sizeof command, "rm -rf build/class build/class-results && mkdir -p build/class/alice build/class/bob/lab1 "
                         "build/class/mallory/lab1 build/class/.hidden build/class/empty && "
                         "cp -r solutions/lab1 build/class/alice/ && cp solutions/lab1/* build/class/bob/lab1/ && "
                         "cp tests/fixtures/attacks/classmate/lab1/vadd.cl build/class/mallory/lab1/ && "
                         "sed \"s|@CLASS@|$PWD/build/class|g\" tests/fixtures/attacks/classmate/lab1/host.c.in "
                         "> build/class/mallory/lab1/host.c && ln -s / build/class/root && "
                         "sha256sum build/class/alice/lab1/* > build/alice.sum && "
                         "%s NO_COLOR=1 ./grade --quick --seed 3 --submission build/class --results build/class-results "
                         "lab1 >/dev/null 2>&1; sha256sum -c build/alice.sum && ! pgrep -f 'clkit-attack-[d]aemon' && "
                         "cat build/class-results/scores.csv && ls build/class-results",
                         _i ? "CLKIT_BUBBLEWRAP=0" : "");
    output = shell(command, &status);
    ck_assert_msg(status == 0, "a classmate's files changed, or a daemon outlived the batch:\n%s", output);
    ck_assert_msg(strstr(output, "\nalice,10.00,10.00,10.00,0,0,all passed\n"), "%s", output);
    ck_assert_msg(strstr(output, "\nbob,10.00,10.00,10.00,0,0,all passed\n"), "%s", output);
    ck_assert_msg(!strstr(output, "forged"), "the scores were rewritten:\n%s", output);
    ck_assert_msg(strstr(output, "\nempty,0.00,0.00,10.00,0,0,some failed\n"), "%s", output);
    ck_assert_msg(strstr(output, "\n_hidden,") && strstr(output, "\nroot,") && strstr(output, "\nmallory,"), "%s",
                  output);
    ck_assert_msg(strstr(output, "_hidden.json") && strstr(output, "root.json") && strstr(output, "mallory.json"),
                  "an entry has no results file:\n%s", output);
    free(output);
}
END_TEST

Suite *runner_suite(void)
{
    Suite *s = suite_create("runner");
    TCase *tc = tcase_create("attacks");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, refused_kernels_score_nothing, 0, (int)(sizeof refused / sizeof refused[0]));
    tcase_add_loop_test(tc, contained_attacks_score_as_they_should, 0, (int)(sizeof contained / sizeof contained[0]));
    tcase_add_test(tc, host_attack_with_every_layer);
    tcase_add_test(tc, host_attack_without_bubblewrap);
    tcase_add_test(tc, any_folder_name_grades);
    tcase_add_test(tc, no_solution_artefact_reaches_a_student);
    tcase_add_loop_test(tc, classmates_are_unharmed, 0, 2); /* with bubblewrap, then without */
    tcase_add_test(tc, a_host_program_cannot_change_a_kept_program);
    suite_add_tcase(s, tc);
    return s;
}
