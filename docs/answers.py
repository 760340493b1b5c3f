#!/usr/bin/env python3
"""Each lab's answers file, labs/labN/answers.md: the lab's questions as HANDOUT.md words them, each with a
predict: line (labelled with the figure the grader measures for it, from grader/judge/prediction_test.c's table) and an
answer: line for the student. Without --write, checks that the committed files are what it would write (make check
runs that), so that the files stay in step with the handout and the grader; --write rewrites them (make docs)."""
import os
import re
import sys

KIT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

HEAD = """# Lab {n}: predictions and answers

Predict before you measure. For each question, write your prediction on its `predict` line (a number where the
label names a figure), then run the question's Measure command and write what you saw, and why, on its `answer`
line. `./grade lab{n}` shows each prediction beside the figure the grader measured on this device and says which
are within the stated margin; no points depend on this file unless your course says so. Keep the `## Question`
headings and the `predict`/`answer` labels; the handout's own answers are under each lab's questions in
HANDOUT.md.
"""


def figures():
    """{(lab, question): label} from the grader's table of measured figures."""
    text = open(os.path.join(KIT, "grader/judge/prediction_test.c")).read()
    rows = re.findall(r'\{\.lab = "(lab\d+)", \.number = (\d+),[^}]*?\.what = "([^"]*)"\}', text, re.S)
    if not rows:
        sys.exit("answers.py: no figures found in grader/judge/prediction_test.c")
    return {(lab, int(q)): what for lab, q, what in rows}


def questions(handout):
    """{lab number: [(question number, text)]} from each lab section's numbered Questions list."""
    found = {}
    for section in re.split(r"^## ", handout, flags=re.M):
        lab = re.match(r"Lab (\d+):", section)
        part = re.search(r"\*\*Questions\.\*\*[^\n]*\n(.*?)\n<details>", section, re.S)
        if not lab or not part:
            continue
        items = re.split(r"^(\d+)\. ", part.group(1), flags=re.M)
        found[int(lab.group(1))] = [(int(items[i]), re.sub(r"^   ", "", items[i + 1].strip(), flags=re.M))
                                    for i in range(1, len(items) - 1, 2)]
    return found


def render(n, items, labels):
    out = [HEAD.format(n=n)]
    for number, text in items:
        label = labels.get(("lab%d" % n, number))
        out.append("## Question %d\n\n%s\n\npredict%s: \nanswer: \n" %
                   (number, text, " (%s)" % label if label else " (in words; the grader measures no figure for it)"))
    return "\n".join(out)


def main():
    write = "--write" in sys.argv
    handout = open(os.path.join(KIT, "HANDOUT.md")).read()
    labels, stale = figures(), []
    found = questions(handout)
    for lab, number in labels:
        if int(lab[3:]) not in found or number not in [q for q, _ in found[int(lab[3:])]]:
            stale.append("grader/judge/prediction_test.c measures %s question %d, which HANDOUT.md does not ask" % (lab, number))
    for n, items in sorted(found.items()):
        path = os.path.join(KIT, "labs", "lab%d" % n, "answers.md")
        text = render(n, items, labels)
        old = open(path).read() if os.path.exists(path) else None
        if write and old != text:
            with open(path, "w") as f:
                f.write(text)
        elif not write and old != text:
            stale.append("%s differs from the questions in HANDOUT.md (make docs rewrites it)" %
                         os.path.relpath(path, KIT))
    for line in stale:
        print(line)
    sys.exit(1 if stale and not write else 0)


if __name__ == "__main__":
    main()
