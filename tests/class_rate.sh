#!/bin/sh
# Students per hour on one device (not part of make check): the same synthetic class (tests/make_class.sh), the
# same seed, graded one at a time (--jobs 1) and side by side (the grader's default, or --jobs $JOBS); prints both
# times, the rates, and whether scores.csv and every student's per-test scores are identical.
#   tests/class_rate.sh STUDENTS LAB...     env: DEVICE (default gpu), COURSE (a course file), JOBS, KEEP (a folder
#                                           to keep the results in)
set -u
cd "$(dirname "$0")/.." || exit 2
students=${1:?usage: tests/class_rate.sh STUDENTS LAB...}
shift
labs=${*:?usage: tests/class_rate.sh STUDENTS LAB...}
work=${KEEP:-$(mktemp -d)} || exit 2
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work" && rm -rf "$work/class" "$work/one" "$work/side"
make -s grader >/dev/null || exit 2
sh tests/make_class.sh "$work/class" "$students" >/dev/null || exit 2
course=${COURSE:+--course $COURSE}
jobs=${JOBS:+--jobs $JOBS}
now() { date +%s.%N; }
rate() { python3 -c 'import sys; t = float(sys.argv[2]) - float(sys.argv[1]); print("%.1f s, %.0f students per hour" % (t, int(sys.argv[3]) * 3600 / t))' "$@"; }
s=$(now); NO_COLOR=1 ./grade --seed 5 --device "${DEVICE:-gpu}" $course --jobs 1 --submission "$work/class" --results "$work/one" $labs >"$work/one.log" 2>&1
e=$(now); echo "one at a time: $(rate "$s" "$e" "$students")"
s=$(now); NO_COLOR=1 ./grade --seed 5 --device "${DEVICE:-gpu}" $course $jobs --submission "$work/class" --results "$work/side" $labs >"$work/side.log" 2>&1
e=$(now); echo "side by side: $(rate "$s" "$e" "$students") ($(head -2 "$work/side.log" | tail -1 | cut -d';' -f1))"
cmp -s "$work/one/scores.csv" "$work/side/scores.csv" && echo "scores.csv identical" || echo "scores.csv DIFFERS"
python3 - "$work/one" "$work/side" <<'PY'
import glob, json, os, sys
def scores(path):
    return [(t["name"], t["score"]) for t in json.load(open(path))["tests"]]
files = glob.glob(os.path.join(sys.argv[1], "*.json"))
same = all(scores(f) == scores(os.path.join(sys.argv[2], os.path.basename(f))) for f in files)
print("per-test scores identical (%d students)" % len(files) if same else "per-test scores DIFFER")
busy = [sum("busy=1" in json.dumps(json.load(open(f))) or "was busy" in open(f).read() for f in glob.glob(d + "/*.json"))
        for d in sys.argv[1:]]
print("timings taken on a busy device: %d one at a time, %d side by side" % tuple(busy))
PY
