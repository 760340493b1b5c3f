/* grader/commands/slurm.c: the job array --slurm writes, its tasks run directly with SLURM_ARRAY_TASK_ID set (no Slurm
   here), and --merge, against the same class graded by one batch. */
#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLASS "build/check-slurm-class"
#define REAL_CLASS "build/check-slurm-real-class"
#define REAL_JOB "build/check-slurm-real"
/* Submits a script and waits (up to 2 minutes) until none of its tasks is pending or running, then prints each
   task's state and exit code; sbatch --wait polls too seldom (30 s after the last task ended, seen here). */
#define RUN_ARRAY "run_array() { j=$(sbatch --parsable \"$1\") || return 1; i=0; "                                 \
                  "while squeue -h -j \"$j\" 2>/dev/null | grep -q . && [ $i -lt 600 ]; do sleep 0.2; i=$((i+1)); done; " \
                  "scontrol -o show job \"$j\" | grep -o \"JobState=[A-Z]* .*ExitCode=[0-9:]*\" | "           \
                  "sed \"s/ .* / /\"; }; "
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
    /* No GPU asked for unless wanted (a node without a gpu GRES refuses the whole array), two CPUs by default. */
    ck_assert_msg(strstr(script, "#SBATCH --array=0-2\n") && !strstr(script, "--gres") &&
                  strstr(script, "#SBATCH --cpus-per-task=2\n") && strstr(script, " --device 'cpu'") &&
                  strstr(script, "/grade' --task '") && strstr(script, "--seed 7 ") && strstr(script, " lab1 lab5\n"),
                  "%s", script);
    ck_assert_msg(!strncmp(class, "# clkit class seed=7 job=", 25) && strstr(class, " count=3 labs=lab1,lab5\ns01\t/") &&
                  strstr(class, "\ns03\t/"), "%s", class);
    free(script);
    free(class);
}
END_TEST

/* The GPUs and CPUs asked for are the options', and the device follows them unless named: a task that asks for
   a GPU grades on it, one that asks for none grades on the CPU. */
START_TEST(the_resources_asked_for_follow_the_options)
{
    char *gpu = shell("./grade --slurm " JOB "-gpu --submission " CLASS " --slurm-gpus 1 --slurm-cpus 3 --quick lab1 "
                      ">/dev/null && cat " JOB "-gpu/grade.sbatch", 0);
    char *cpu = shell("./grade --slurm " JOB "-cpu --submission " CLASS " --quick lab1 >/dev/null && cat " JOB
                      "-cpu/grade.sbatch", 0);
    ck_assert_msg(strstr(gpu, "#SBATCH --gres=gpu:1\n") && strstr(gpu, "#SBATCH --cpus-per-task=3\n") &&
                  strstr(gpu, " --device 'gpu'"), "%s", gpu);
    ck_assert_msg(!strstr(cpu, "--gres") && strstr(cpu, " --device 'cpu'"), "%s", cpu);
    free(gpu);
    free(cpu);
    free(shell("./grade --slurm " JOB "-bad --submission " CLASS " --slurm-cpus 0 lab1", 2));
}
END_TEST

/* Every task grades for the course the job was written for, wherever it runs: the same maximum for the class. */
START_TEST(tasks_grade_for_the_same_course)
{
    char *script = shell("./grade --slurm " JOB "-course --submission " CLASS " --course grader/courses/nvidia-h100.conf "
                         "--quick lab1 >/dev/null && cat " JOB "-course/grade.sbatch", 0);
    ck_assert_msg(strstr(script, "/grader/courses/nvidia-h100.conf'") && strstr(script, " --course '/"), "%s",
                  script);
    free(script);
    free(shell("./grade --slurm " JOB "-course --submission " CLASS " --course /no/such/course.conf lab1", 2));
}
END_TEST

/* Tasks that ran but could not set up (here: a device no node has) are no grade: the merge names them and fails. */
START_TEST(a_merge_of_set_up_errors_fails)
{
    char *output = shell("./grade --slurm " JOB " --submission " CLASS " --quick --device no-such-device lab1 "
                         ">/dev/null && for i in 0 1 2; do SLURM_ARRAY_TASK_ID=$i bash " JOB "/grade.sbatch "
                         ">/dev/null 2>&1; done; ./grade --merge " JOB " 2>&1 >/dev/null", 2);
    ck_assert_msg(strstr(output, "could not set up (see logs/): s01, s02, s03"), "%s", output);
    free(output);
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
    ck_assert_msg(strstr(one, "s01,10.00,14.00,24.00,24.00,0,0,all passed") && strcmp(one, merged) == 0,
                  "batch:\n%s\nmerged:\n%s", one, merged);
    free(one);
    free(merged);
    /* The merge keeps the tasks' rows: run again, it writes the same file. */
    free(shell("./grade --merge " JOB " >/dev/null && cmp build/check-slurm-batch/scores.csv " JOB
               "/results/scores.csv", 0));
}
END_TEST

/* A task that never ran still gets its row, with the reason, and a results file; the others are unaffected; the
   merge names the student and fails. */
START_TEST(a_missing_task_is_named)
{
    char *csv, *json, *output;
    output = shell("for i in 0 2; do SLURM_ARRAY_TASK_ID=$i bash " JOB "/grade.sbatch >/dev/null 2>&1; done; "
                   "./grade --merge " JOB " 2>&1 >/dev/null", 2);
    ck_assert_msg(strstr(output, "no result of this job for: s02 ("), "%s", output);
    free(output);
    csv = shell("cat " JOB "/results/scores.csv", 0);
    ck_assert_msg(strstr(csv, "\ns02,0.00,0.00,0.00,,,,not graded: its Slurm task left no result") &&
                  strstr(csv, "\ns01,10.00,14.00,24.00,24.00,0,0,all passed"), "%s", csv);
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
    /* A task of another job (its grade.sbatch older than class.txt) grades nobody. */
    output = shell("sed 's/^export CLKIT_JOB=.*/export CLKIT_JOB=0123456789abcdef/' " JOB "/grade.sbatch | "
                   "SLURM_ARRAY_TASK_ID=0 bash 2>&1; test ! -e " JOB "/results/s01.record", 0);
    ck_assert_msg(strstr(output, "this task is of job 0123456789abcdef"), "%s", output);
    free(output);
    /* A class file with a line more than its count, or fewer, is refused whole. */
    output = shell("printf 'evil\\t/tmp\\t\\n' >> " JOB "/class.txt; SLURM_ARRAY_TASK_ID=0 bash " JOB
                   "/grade.sbatch 2>&1; sed -i '$d' " JOB "/class.txt; sed -i '$d' " JOB "/class.txt; "
                   "./grade --merge " JOB " 2>&1", 2);
    ck_assert_msg(strstr(output, "class.txt is damaged (line 5: more students than its first line counts)") &&
                  strstr(output, "class.txt is damaged (line 3: fewer students than its first line counts)"), "%s",
                  output);
    free(output);
}
END_TEST

/* A folder named with a line break and tabs ("s00\nfake\tsolutions\t") writes no line of its own into class.txt:
   no fake student is graded from the kit's solutions, the last real student runs, and the folder is refused. */
START_TEST(a_name_writes_no_line_of_its_own)
{
    char *output;
    free(shell("rm -rf " CLASS " " JOB " && sh tests/make_class.sh " CLASS " 2 >/dev/null && "
               "mkdir -p \"" CLASS "/$(printf 's00\\nfake\\tsolutions\\t')/lab1\" && "
               "cp tests/fixtures/lab1/local-id/lab1/vadd.cl solutions/lab1/host.c \"" CLASS
               "/$(printf 's00\\nfake\\tsolutions\\t')/lab1/\" && "
               "./grade --slurm " JOB " --submission " CLASS " --seed 7 --quick --device cpu lab1 >/dev/null", 0));
    output = shell("wc -l < " JOB "/class.txt; grep -c '^fake' " JOB "/class.txt; grep -c '^#SBATCH --array=0-2$' " JOB
                   "/grade.sbatch", 0);
    ck_assert_str_eq(output, "4\n0\n1\n");
    free(output);
    output = shell("for i in 0 1 2; do SLURM_ARRAY_TASK_ID=$i bash " JOB "/grade.sbatch >/dev/null 2>&1 || exit 1; "
                   "done; ./grade --merge " JOB " >/dev/null && cut -d, -f1,2 " JOB "/results/scores.csv", 0);
    ck_assert_msg(!strncmp(output, "student,lab1\ns00_fake_solutions_,0.00\ns01,", 41) && strstr(output, "\ns02,3.27\n") &&
                  !strstr(output, "fake,"), "%s", output);
    free(output);
    output = shell("cat " JOB "/results/s00_fake_solutions_.json", 0);
    ck_assert_msg(strstr(output, "control characters"), "%s", output);
    free(output);
}
END_TEST

/* --slurm again into an old job's folder keeps none of its results; a result planted back from the old job is not
   this job's: the merge refuses it (a row that says so, its results file replaced), names the student and fails. */
START_TEST(an_old_jobs_results_are_refused)
{
    char *output;
    free(shell("SLURM_ARRAY_TASK_ID=0 bash " JOB "/grade.sbatch >/dev/null 2>&1 && rm -rf build/check-slurm-old && "
               "cp -r " JOB "/results build/check-slurm-old && ./grade --slurm " JOB " --submission " CLASS
               " --seed 7 --quick --device cpu lab1 lab5 >/dev/null && test ! -e " JOB "/results/s01.record && "
               "test ! -e " JOB "/results/s01.json && cp build/check-slurm-old/s01.* " JOB "/results/ && "
               "for i in 1 2; do SLURM_ARRAY_TASK_ID=$i bash " JOB "/grade.sbatch >/dev/null 2>&1; done", 0));
    output = shell("./grade --merge " JOB " 2>&1 >/dev/null", 2);
    ck_assert_msg(strstr(output, "no result of this job for: s01 ("), "%s", output);
    free(output);
    output = shell("grep '^s01,' " JOB "/results/scores.csv; grep -c 'not of this job' " JOB "/results/s01.json", 0);
    ck_assert_msg(!strncmp(output, "s01,0.00,0.00,0.00,,,,\"not graded: the result in results/ is not of this job", 76) &&
                  strstr(output, "\n1\n"), "%s", output);
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

/* Whether this machine can start a real Slurm: root, with Debian's slurm-wlm and munge. */
static int can_start_slurm(void)
{
    char *output;
    int status = run_in_kit("test \"$(id -u)\" -eq 0 && command -v munged slurmctld slurmd sbatch >/dev/null", 10,
                            &output);
    free(output);
    return status == 0;
}

/* On a real single-node Slurm (tests/slurm_cluster.sh starts munged, slurmctld and slurmd here and stops them), the
   job array --slurm writes, as written and with its defaults, runs on a node without GPUs: sbatch takes it, each task
   grades its student, --merge writes their marks; more CPUs or GPUs than the node has are refused before any is
   written. --slurm again into the folder reports none of the old job's
   results, and the old script's tasks, run late, grade nobody. */
START_TEST(a_real_cluster_runs_the_job_array)
{
    static const char refused[] = "--slurm-cpus 4096: 2\n--slurm-gpus 1: 2\nfirst:\n";
    char *output, *csv;
    if (!can_start_slurm()) {
        ck_assert_msg(getenv("CLKIT_CHECK_NO_SLURM") != NULL,
                      "the real Slurm test needs root and Debian's slurm-wlm and munge (apt-get install slurm-wlm munge; "
                      ".ci/run installs them); on a machine without them, set CLKIT_CHECK_NO_SLURM=1 to skip it");
        fputs("slurm: the real cluster test skipped (CLKIT_CHECK_NO_SLURM is set)\n", stderr);
        return;
    }
    output = shell("rm -rf " REAL_CLASS " " REAL_JOB " " REAL_JOB "-big && sh tests/make_class.sh " REAL_CLASS " 2 "
                   ">/dev/null && tests/slurm_cluster.sh sh -c '" RUN_ARRAY
                   "for more in \"--slurm-cpus 4096\" \"--slurm-gpus 1\"; do ./grade --slurm " REAL_JOB "-big "
                   "--submission " REAL_CLASS " $more lab1 2>/dev/null; echo \"$more: $?\"; done; ls " REAL_JOB
                   "-big/grade.sbatch 2>/dev/null; ./grade --slurm " REAL_JOB " --submission " REAL_CLASS " --seed 7 --quick lab1 >/dev/null && "
                   "cp " REAL_JOB "/grade.sbatch " REAL_JOB "-old.sbatch && echo first: && run_array " REAL_JOB
                   "/grade.sbatch && ./grade --merge " REAL_JOB " >/dev/null && cp " REAL_JOB "/results/scores.csv "
                   REAL_JOB "-first.csv && ./grade --slurm " REAL_JOB " --submission " REAL_CLASS " --seed 8 --quick "
                   "lab1 >/dev/null && echo old: && run_array " REAL_JOB "-old.sbatch && ./grade --merge " REAL_JOB
                   " 2>&1 >/dev/null; echo merge: $?' 2>&1",
                   0);
    /* No array is written that no node could run; both tasks ran and ended well; the old script's tasks ran and
       refused the new class. */
    ck_assert_msg(!strncmp(output, refused, strlen(refused)) && strstr(output, "first:\nJobState=COMPLETED ExitCode=0:0\nJobState=COMPLETED ExitCode=0:0\nold:\n"
                                 "JobState=FAILED ExitCode=2:0\nJobState=FAILED ExitCode=2:0\n") &&
                  strstr(output, "no result of this job for: s01, s02 (") && strstr(output, "\nmerge: 2\n"),
                  "%s", output);
    free(output);
    csv = shell("cat " REAL_JOB "-first.csv; grep -c ',not graded: its Slurm task left no result' " REAL_JOB
                "/results/scores.csv", 0);
    ck_assert_str_eq(csv, "student,lab1,total,max,predicted,within,status\ns01,10.00,10.00,10.00,0,0,all passed\n"
                          "s02,3.27,3.27,10.00,0,0,some failed\n2\n");
    free(csv);
}
END_TEST

/* On a real cluster whose node declares a gpu GRES as the README says (GresTypes, Gres=gpu:1, gres.conf), the array
   --slurm-gpus 1 writes is taken and its tasks grade on 'gpu'. This machine has no OpenCL GPU: each task then ends
   in a set-up error, and the merge names them and fails, not a class of zeros that exits 0; with a GPU, every
   student is graded. */
START_TEST(a_gpu_cluster_runs_the_gpu_array)
{
    char *output;
    int gpu;
    if (!can_start_slurm()) {
        ck_assert_msg(getenv("CLKIT_CHECK_NO_SLURM") != NULL, "the real Slurm test needs root, slurm-wlm and munge");
        return;
    }
    output = shell("./grade --list-devices", 0);
    gpu = strstr(output, "[gpu]") != NULL;
    free(output);
    output = shell("rm -rf " REAL_CLASS " " REAL_JOB "-gpu && sh tests/make_class.sh " REAL_CLASS " 2 >/dev/null && "
                   "CLKIT_SLURM_GPUS=1 tests/slurm_cluster.sh sh -c '" RUN_ARRAY "./grade --slurm " REAL_JOB "-gpu "
                   "--submission " REAL_CLASS " --slurm-gpus 1 --quick lab1 >/dev/null && grep -c gres=gpu:1 "
                   REAL_JOB "-gpu/grade.sbatch && run_array " REAL_JOB "-gpu/grade.sbatch && cat " REAL_JOB
                   "-gpu/logs/task-0.log " REAL_JOB "-gpu/results/s01.txt && ./grade --merge " REAL_JOB "-gpu 2>&1 >/dev/null; echo merge: $?' 2>&1",
                   0);
    ck_assert_msg(!strncmp(output, "1\nJobState=COMPLETED ExitCode=0:0\nJobState=COMPLETED ExitCode=0:0\n", 66),
                  "%s", output);
    if (gpu)
        ck_assert_msg(strstr(output, "\nmerge: 0\n"), "%s", output);
    else
        ck_assert_msg(strstr(output, "set-up error: not graded (see its .txt)") &&
                      strstr(output, "no OpenCL device matches --device 'gpu'") &&
                      strstr(output, "these tasks could not set up (see logs/): s01, s02\n") &&
                      strstr(output, "\nmerge: 2\n"), "%s", output);
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
    tcase_add_test(tc, the_resources_asked_for_follow_the_options);
    tcase_add_test(tc, tasks_grade_for_the_same_course);
    tcase_add_test(tc, a_merge_of_set_up_errors_fails);
    tcase_add_test(tc, tasks_and_merge_grade_as_a_batch_does);
    tcase_add_test(tc, a_missing_task_is_named);
    tcase_add_test(tc, a_task_without_its_index_is_refused);
    tcase_add_test(tc, a_task_sees_no_classmate);
    tcase_add_test(tc, a_name_writes_no_line_of_its_own);
    tcase_add_test(tc, an_old_jobs_results_are_refused);
    suite_add_tcase(s, tc);
    tc = tcase_create("real cluster");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, a_real_cluster_runs_the_job_array);
    tcase_add_test(tc, a_gpu_cluster_runs_the_gpu_array);
    suite_add_tcase(s, tc);
    return s;
}
