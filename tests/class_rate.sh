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
mkdir -p "$work" && rm -rf "$work/class" "$work/one" "$work/side" "$work/lock.log"
make -s grader >/dev/null || exit 2
sh tests/make_class.sh "$work/class" "$students" >/dev/null || exit 2
course=${COURSE:+--course $COURSE}
jobs=${JOBS:+--jobs $JOBS}
now() { date +%s.%N; }
rate() { python3 -c 'import sys; t = float(sys.argv[2]) - float(sys.argv[1]); print("%.1f s, %.0f students per hour" % (t, int(sys.argv[3]) * 3600 / t))' "$@"; }
s=$(now); NO_COLOR=1 ./grade --seed 5 --device "${DEVICE:-gpu}" $course --jobs 1 --submission "$work/class" --results "$work/one" $labs >"$work/one.log" 2>&1
e=$(now); echo "one at a time: $(rate "$s" "$e" "$students"); CPU so far (user, sys of the runs): $(times | tail -1)"
s=$(now); CLKIT_DEVICE_LOCK_LOG=$work/lock.log NO_COLOR=1 ./grade --seed 5 --device "${DEVICE:-gpu}" $course $jobs --submission "$work/class" --results "$work/side" $labs >"$work/side.log" 2>&1
e=$(now); echo "side by side: $(rate "$s" "$e" "$students") ($(head -2 "$work/side.log" | tail -1 | cut -d';' -f1)); CPU so far: $(times | tail -1)"
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
[ -s "$work/lock.log" ] && python3 - "$work/lock.log" <<'PY'
# Where the side-by-side run's device time went, from the lock's log ("time pid from to waited"; 1 shared, 2 alone).
import sys
events, held, since = [], {}, {}
for line in open(sys.argv[1]):
    t, pid, old, new, waited = line.split()
    t, old, new, waited = float(t), int(old), int(new), float(waited)
    if old:
        events.append((since[pid], t - waited, old))
    since[pid] = t
    if new:
        held[pid] = new
start = min(e[0] for e in events) if events else 0
end = max(e[1] for e in events) if events else 0
points = sorted({p for e in events for p in e[:2]})
alone = shared = idle = 0.0
for a, b in zip(points, points[1:]):
    kinds = {m for s, e, m in events if s <= a and e >= b}
    alone += (b - a) * (2 in kinds)
    shared += (b - a) * (2 not in kinds and 1 in kinds)
    idle += (b - a) * (not kinds)
waits = [float(l.split()[4]) for l in open(sys.argv[1])]
print("device, side by side: %.1f s from the first hold to the last: %.1f s timing alone, %.1f s shared work, "
      "%.1f s held by nobody; %.1f s waited in all" % (end - start, alone, shared, idle, sum(waits)))
PY
