#!/usr/bin/env python3
"""docs/outputs.py [--write [--all] | --fresh GRADER_OUTPUT | --stale GRADER_OUTPUT] FILE...: the expected output
each lab section shows.

A lab section holds its output between markers,

    <!--output lab3-->
    ```text
    $ ./build/labs/lab3/host --size 1000003
    ...
    ```
    <!--/output-->

filled from docs/results/outputs/labN.txt. With --write the stale transcripts are first made again from a real run:
the solution's host program at the size the lab's commands use, then ./grade on the solution with seed 1, shown as
the student will see them once the lab passes (labs/ for solutions/). A transcript is stale when it is missing, its
host command is not the lab's, or a line of its report other than the timed test's (whose figures change from run
to run) differs from what ./grade --solutions all --quick --seed 1 prints today; --all makes every one again. An
unchanged lab keeps its transcript, and so its timings. --stale names the labs --write would make again, given
GRADER_OUTPUT as today's, and writes nothing. Without options it checks that every block is its
transcript (make check). With --fresh it also checks each transcript's test lines (mark, test, points) against
GRADER_OUTPUT, what ./grade --solutions all --quick --seed 1 prints today, so that a renamed test or a changed
maximum cannot leave the handout behind.
"""
import os
import re
import subprocess
import sys

KIT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUTS = os.path.join(KIT, "docs", "results", "outputs")
HOST_ARGUMENTS = {
    "lab1": "--size 1000",
    "lab2": "--size 1000003",
    "lab3": "--size 1000003",
    "lab4": "--size 1000003",
    "lab5": "--size 517x259x383",
    "lab6": "--size 517x259x383",
    "lab7": "--size 2048",
    "lab8": "--size 517x259x383",
    "lab9": "--size 1024x1024x2",
    "lab10": "--size 1000003",
    "lab11": "--size 1000003",
    "lab12": "--size 1000000",
}
BLOCK = re.compile(r"<!--output (lab\d+)-->\n(.*?)<!--/output-->", re.S)
TEST_LINE = re.compile(r"^  ([✓✗·]) (\S.*?) +(\d+\.\d)/(\d+) ", re.M)


def run(command):
    """What a command prints, stdout and stderr together, as the student's terminal shows it."""
    done = subprocess.run(command, shell=True, cwd=KIT, capture_output=True, text=True)
    return done.stdout + done.stderr


def as_student(text):
    """A run of the solutions, worded as the student's own run of a lab that passes."""
    return text.replace("solutions/", "labs/").replace("grading solutions", "grading labs")


def make_transcript(lab):
    """The lab's transcript, made from a real run of its solution."""
    host = "./build/solutions/%s/host %s" % (lab, HOST_ARGUMENTS[lab])
    grade = "./grade --solutions %s --seed 1" % lab
    return as_student("$ %s\n%s$ ./grade %s --seed 1\n%s" % (host, run(host), lab, run(grade)))


def transcript(lab):
    """The committed transcript of a lab."""
    with open(os.path.join(OUTPUTS, lab + ".txt"), encoding="utf-8") as text:
        return text.read()


def block(lab):
    """The handout's block for a lab: its transcript as a fenced text block."""
    return "<!--output %s-->\n```text\n%s```\n<!--/output-->" % (lab, transcript(lab))


def report_lines(text, lab):
    """The lines of a grader output that do not depend on timing: the confinement line and the lab's section, less
    the timed test (speed or bandwidth) and its continuation lines, which --quick leaves out and every run
    changes."""
    section = re.search(r"^%s: .*?^  %s score.*?$" % (lab, lab), text, re.S | re.M)
    # The confinement line of the grading that printed the section; the runner user a grading holds is whichever
    # was free (clkit-runner, clkit-runner-1, ...).
    before = text[:section.start()] if section else text
    lines = [re.sub(r"clkit-runner(-\d+)?\b", "clkit-runner-N", line) for line in before.splitlines()
             if line.startswith("confinement: ")][-1:]
    timed = False
    for line in section.group(0).splitlines() if section else []:
        if re.match(r"^  [✓✗·] (speed|bandwidth) ", line):
            timed = True
        elif timed and not re.match(r"^  ([✓✗·] |%s score)" % lab, line):
            continue
        else:
            timed = False
            lines.append(line)
    return lines


def stale_reason(lab, today):
    """Why the lab's committed transcript no longer shows what the grader prints today, or None."""
    try:
        then = transcript(lab)
    except OSError:
        return "no transcript"
    if not then.startswith("$ ./build/labs/%s/host %s\n" % (lab, HOST_ARGUMENTS[lab])):
        return "its host command is not ./build/labs/%s/host %s" % (lab, HOST_ARGUMENTS[lab])
    old, new = report_lines(as_student(then), lab), report_lines(as_student(today), lab)
    if not new:
        return "today's grading printed no section for it"
    for before, now in zip(old + [""] * len(new), new + [""] * len(old)):
        if before != now:
            at = next((i for i, (x, y) in enumerate(zip(before, now)) if x != y), min(len(before), len(now)))
            return "its report says %r, today's %r" % (before[max(0, at - 30):at + 50], now[max(0, at - 30):at + 50])
    return None


def tests_of(text):
    """The (mark, test, points, maximum) of every test line of a grader's output."""
    return [m.groups() for m in TEST_LINE.finditer(text)]


def shown(tests):
    """Test lines as the report writes them, briefly: "✓ exact cases 4.0/4, ..."."""
    return ", ".join("%s %s %s/%s" % test for test in tests) or "none"


def check_fresh(today, problems):
    """Notes each lab whose transcript's tests differ from those in today's grader output, and each lab graded today
    that has no transcript."""
    for lab in sorted(set(re.findall(r"^(lab\d+): ", today, re.M)) - set(HOST_ARGUMENTS)):
        problems.append("%s has no expected output: add its host size to HOST_ARGUMENTS in docs/outputs.py" % lab)
    for lab in HOST_ARGUMENTS:
        section = re.search(r"^%s: .*?^  %s score" % (lab, lab), today, re.S | re.M)
        now = tests_of(section.group(0)) if section else []
        then = tests_of(transcript(lab))
        # --quick leaves the speed test's figures out, so the informational lines are compared by name only.
        if [t[:2] for t in then] != [t[:2] for t in now] or [t for t in then if t[0] != "·"] != \
                [t for t in now if t[0] != "·"]:
            problems.append("docs/results/outputs/%s.txt: its tests are %s; the grader's today %s (make docs)"
                            % (lab, shown(then), shown(now)))


def main(argv):
    write, fresh = "--write" in argv, None
    if "--fresh" in argv:
        fresh = argv.pop(argv.index("--fresh") + 1)
    if "--stale" in argv:
        with open(argv[argv.index("--stale") + 1], encoding="utf-8") as output:
            today = output.read()
        for lab in HOST_ARGUMENTS:
            if stale_reason(lab, today):
                print("%s: %s" % (lab, stale_reason(lab, today)))
        sys.exit(0)
    files = [a for a in argv if not a.startswith("--")]
    if not files:
        sys.exit("usage: docs/outputs.py [--write [--all] | --fresh GRADER_OUTPUT | --stale GRADER_OUTPUT] FILE...")
    problems = []
    if write:
        subprocess.run("make -s solutions", shell=True, cwd=KIT, check=True)
        os.makedirs(OUTPUTS, exist_ok=True)
        today = "" if "--all" in argv else run("./grade --solutions all --quick --seed 1")
        for lab in HOST_ARGUMENTS:
            why = "--all" if "--all" in argv else stale_reason(lab, today)
            if not why:
                continue
            print("docs/outputs.py: %s made again (%s)" % (lab, why))
            with open(os.path.join(OUTPUTS, lab + ".txt"), "w", encoding="utf-8") as target:
                target.write(make_transcript(lab))
    for path in files:
        with open(path, encoding="utf-8") as source:
            text = source.read()
        filled = BLOCK.sub(lambda m: block(m.group(1)), text)
        if filled != text and write:
            with open(path, "w", encoding="utf-8") as target:
                target.write(filled)
        elif filled != text:
            for match in BLOCK.finditer(text):
                if match.group(0) != block(match.group(1)):
                    problems.append("%s: the expected output of %s differs from docs/results/outputs/%s.txt "
                                    "(make docs)" % (path, match.group(1), match.group(1)))
    if fresh:
        with open(fresh, encoding="utf-8") as output:
            check_fresh(output.read(), problems)
    for line in problems:
        print(line, file=sys.stderr)
    sys.exit(1 if problems else 0)


main(sys.argv[1:])
