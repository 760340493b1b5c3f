#!/bin/sh
# --jobs 2 against one at a time on a machine with two GPUs (not part of make check): the same synthetic class, the
# same seed, timed; prints both times and whether scores.csv and every student's per-test scores are identical.
#   tests/jobs_speedup.sh [STUDENTS] [LAB...]        (default: 10 students, labs 1, 5, 6 and 8)
set -u
cd "$(dirname "$0")/.." || exit 2
students=${1:-10}
shift 2>/dev/null || true
labs=${*:-"lab1 lab5 lab6 lab8"}
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
make -s grader >/dev/null || exit 2
sh tests/make_class.sh "$work/class" "$students" >/dev/null || exit 2
elapsed() { python3 -c 'import sys; print("%.1f" % (float(sys.argv[2]) - float(sys.argv[1])))' "$1" "$2"; }
s=$(date +%s.%N); NO_COLOR=1 ./grade --seed 5 --device gpu --submission "$work/class" --results "$work/one" $labs >/dev/null 2>&1
e=$(date +%s.%N); echo "one at a time: $(elapsed "$s" "$e") s"
s=$(date +%s.%N); NO_COLOR=1 ./grade --seed 5 --jobs 2 --submission "$work/class" --results "$work/two" $labs >/dev/null 2>&1
e=$(date +%s.%N); echo "--jobs 2: $(elapsed "$s" "$e") s"
cmp -s "$work/one/scores.csv" "$work/two/scores.csv" && echo "scores.csv identical" || echo "scores.csv DIFFERS"
python3 - "$work/one" "$work/two" <<'PY'
import glob, json, os, sys
same = all([t["score"] for t in json.load(open(f))["tests"]] ==
           [t["score"] for t in json.load(open(os.path.join(sys.argv[2], os.path.basename(f))))["tests"]]
           for f in glob.glob(os.path.join(sys.argv[1], "*.json")))
print("per-test scores identical" if same else "per-test scores DIFFER")
PY
cat "$work/two/scores.csv"
