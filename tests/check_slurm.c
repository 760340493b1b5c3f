/* grader/cli/slurm.c: the job array --slurm writes, its tasks run directly with SLURM_ARRAY_TASK_ID set (no Slurm
   here), and --merge, against the same class graded by one batch. */
#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLASS "build/check-slurm-class"
#define JOB "build/check-slurm"

static char *shell(const char *command, int expected_status)
{
    char *output;
    int status = run_in_kit(command, 300, &output);
    ck_assert_msg(status == expected_status, "%s: status %d\n%s", command, status, output);
    return output;
}

/* A class of three (right, wrong, crashing) and its job array, seed 7, on the CPU device. */
static void setup(void)
{
    free(shell("rm -rf " CLASS " " JOB " build/check-slurm-batch && sh tests/make_class.sh " CLASS " 3 >/dev/null && "
               "./grade --slurm " JOB " --submission " CLASS " --seed 7 --quick --device cpu lab1 lab5",
               0));
}

START_TEST(writes_one_task_per_student)
{
    char *script = shell("cat " JOB "/grade.sbatch", 0), *class = shell("cat " JOB "/class.txt", 0);
    ck_assert_msg(strstr(script, "#SBATCH --array=0-2\n") && strstr(script, "#SBATCH --gres=gpu:1\n") &&
                  strstr(script, "/grade' --task '") && strstr(script, "--seed 7 ") && strstr(script, " lab1 lab5\n"),
                  "%s", script);
    ck_assert_msg(strstr(class, "# clkit class seed=7 labs=lab1,lab5\ns01\t/") && strstr(class, "\ns03\t/"), "%s",
                  class);
    free(script);
    free(class);
}
END_TEST

/* Every task run as Slurm would run it, then the merge: the same CSV as one batch with the same seed. */
START_TEST(tasks_and_merge_grade_as_a_batch_does)
{
    char *one, *merged;
    free(shell("for i in 0 1 2; do SLURM_ARRAY_TASK_ID=$i bash " JOB "/grade.sbatch > " JOB "/logs/task-$i.log 2>&1 "
               "|| exit 1; done && ./grade --merge " JOB " && test -s " JOB "/results/s03.json && "
               "NO_COLOR=1 ./grade --quick --seed 7 --device cpu --submission " CLASS
               " --results build/check-slurm-batch lab1 lab5 >/dev/null",
               0));
    one = shell("cat build/check-slurm-batch/scores.csv", 0);
    merged = shell("cat " JOB "/results/scores.csv", 0);
    ck_assert_msg(strstr(one, "s01,10.00,14.00,24.00,24.00,all passed") && strcmp(one, merged) == 0,
                  "batch:\n%s\nmerged:\n%s", one, merged);
    free(one);
    free(merged);
    /* The merge keeps the tasks' rows: run again, it writes the same file. */
    free(shell("./grade --merge " JOB " >/dev/null && cmp build/check-slurm-batch/scores.csv " JOB
               "/results/scores.csv", 0));
}
END_TEST

/* A task that never ran still gets its row, with the reason, and a results file; the others are unaffected. */
START_TEST(a_missing_task_is_named)
{
    char *csv, *json;
    free(shell("for i in 0 2; do SLURM_ARRAY_TASK_ID=$i bash " JOB "/grade.sbatch >/dev/null 2>&1; done; "
               "./grade --merge " JOB, 0));
    csv = shell("cat " JOB "/results/scores.csv", 0);
    ck_assert_msg(strstr(csv, "\ns02,0.00,0.00,0.00,,not graded: its Slurm task left no result") &&
                  strstr(csv, "\ns01,10.00,14.00,24.00,24.00,all passed"), "%s", csv);
    json = shell("cat " JOB "/results/s02.json", 0);
    ck_assert_ptr_nonnull(strstr(json, "its Slurm task left no result"));
    free(csv);
    free(json);
}
END_TEST

START_TEST(a_task_without_its_index_is_refused)
{
    char *output = shell("env -u SLURM_ARRAY_TASK_ID bash " JOB "/grade.sbatch 2>&1", 2);
    ck_assert_msg(strstr(output, "SLURM_ARRAY_TASK_ID from 0 to 2 (it is unset)"), "%s", output);
    free(output);
    output = shell("SLURM_ARRAY_TASK_ID=3 bash " JOB "/grade.sbatch 2>&1", 2);
    ck_assert_msg(strstr(output, "(it is 3)"), "%s", output);
    free(output);
    output = shell("./grade --merge build 2>&1", 2);
    ck_assert_msg(strstr(output, "build/class.txt is not a class that ./grade --slurm wrote"), "%s", output);
    free(output);
}
END_TEST

/* A task's runs see no classmate, as a batch's do: a host program that reads another student's kernel finds nothing
   there (where bubblewrap hides folders; the file is readable to everyone otherwise). The class is outside the kit,
   which is hidden in any case, and outside /tmp, which is private. */
START_TEST(a_task_sees_no_classmate)
{
    char *output = shell("./grade --confinement", 0);
    int hidden = strstr(output, "bubblewrap") != NULL;
    free(output);
    if (!hidden)
        return;
    free(shell("rm -rf /var/tmp/clkit-check-peek build/check-slurm-peek-job && mkdir -p /var/tmp/clkit-check-peek/alice "
               "/var/tmp/clkit-check-peek/mallory/lab1 && cp -r solutions/lab1 /var/tmp/clkit-check-peek/alice/ && "
               "cp solutions/lab1/vadd.cl /var/tmp/clkit-check-peek/mallory/lab1/ && "
               "sed \"s|@CLASS@|/var/tmp/clkit-check-peek|g\" tests/fixtures/attacks/classmate-reader/lab1/host.c.in "
               "> /var/tmp/clkit-check-peek/mallory/lab1/host.c && ./grade --slurm build/check-slurm-peek-job "
               "--submission /var/tmp/clkit-check-peek --quick --device cpu lab1 >/dev/null && "
               "SLURM_ARRAY_TASK_ID=1 bash build/check-slurm-peek-job/grade.sbatch >/dev/null 2>&1",
               0));
    output = shell("cat build/check-slurm-peek-job/results/mallory.txt", 0);
    ck_assert_msg(strstr(output, "no classmate in sight") && !strstr(output, "READ A CLASSMATE"), "%s", output);
    free(output);
}
END_TEST

Suite *slurm_suite(void)
{
    Suite *s = suite_create("slurm");
    TCase *tc = tcase_create("job array");
    tcase_set_timeout(tc, 300);
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, writes_one_task_per_student);
    tcase_add_test(tc, tasks_and_merge_grade_as_a_batch_does);
    tcase_add_test(tc, a_missing_task_is_named);
    tcase_add_test(tc, a_task_without_its_index_is_refused);
    tcase_add_test(tc, a_task_sees_no_classmate);
    suite_add_tcase(s, tc);
    return s;
}
