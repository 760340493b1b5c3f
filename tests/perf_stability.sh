#!/usr/bin/env bash
# Stability and discrimination of the scored performance tests on this machine (not part of make check:
# it takes minutes and its figures depend on the device).
#   [LABS="lab8 ..."] [COURSE=grader/courses/nvidia-h100.conf] tests/perf_stability.sh [RUNS] [--device SPEC]
# With COURSE, the course's scored speed tests are read by their marks (scored 2/2 or 0/2; pending off the
# course's device); without, the profile's "met" or "not met".
# Stability: ./grade --solutions passes every scored perf test RUNS times out of RUNS, with another
# process loading one core during half of the runs. Discrimination: the naive fixtures, which hold the
# baseline algorithm under the optimised lab's name, fail the same tests RUNS times out of RUNS.
set -u
cd "$(dirname "$0")/.."
runs=${1:-20}
shift || true
device=("$@")
[ -n "${COURSE:-}" ] && device+=(--course "$COURSE")
labs=${LABS:-"lab4 lab5 lab6 lab7 lab8"}
declare -A fixtures=([lab4]=tests/fixtures/lab4/serial-group [lab5]=tests/fixtures/lab5/swapped-mapping
                     [lab6]=tests/fixtures/lab6/naive-in-tiled [lab7]=tests/fixtures/lab7/naive-in-tiled
                     [lab8]=tests/fixtures/lab8/lab6-kernel [lab9]=tests/fixtures/lab9/naive-constant
                     [lab10]=tests/fixtures/lab10/global-atomics)
make -s grader solutions >/dev/null || exit 2
export NO_COLOR=1

# Prints "labN passed|failed|informational" for each speed line of a grade report. A scored speed test's mark
# decides (a tick or a cross; a pending one, off the course's device, counts as informational); a reported one's
# verdict is whether the profile's threshold was "met" (close to it included) or "not met".
verdicts() {
  awk '/^lab[0-9]+: / { lab = $1; sub(":", "", lab) }
       /^  [^ ]+ speed / { v = "informational";
                          if ($0 ~ /^  \xe2\x9c\x93 /) v = "passed";
                          else if ($0 ~ /^  \xe2\x9c\x97 /) v = "failed";
                          else if ($0 ~ /\(pending\)$/) v = "informational";
                          else if ($0 ~ /: not met/) v = "failed"; else if ($0 ~ /: met/) v = "passed";
                          print lab, v }'
}

declare -A pass fail info fx_fail
for ((i = 1; i <= runs; i++)); do
  load_pid=
  if ((i % 2 == 0)); then yes >/dev/null & load_pid=$!; fi
  while read -r lab v; do
    case $v in passed) pass[$lab]=$((${pass[$lab]:-0} + 1)) ;; failed) fail[$lab]=$((${fail[$lab]:-0} + 1)) ;;
               *) info[$lab]=1 ;; esac
  done < <(./grade --solutions "${device[@]}" $labs | verdicts)
  [ -n "$load_pid" ] && kill "$load_pid"
  for lab in $labs; do
    [ -n "${info[$lab]:-}" ] && continue
    [ -n "${fixtures[$lab]:-}" ] || continue # lab 11: its Hillis-Steele fixture scans in local memory, fast
    fixture_verdict=$(./grade --submission "${fixtures[$lab]}" "${device[@]}" "$lab" | verdicts | awk '{print $2}')
    [ "$fixture_verdict" = failed ] && fx_fail[$lab]=$((${fx_fail[$lab]:-0} + 1))
  done
  echo "run $i of $runs done${load_pid:+ (with a core loaded)}" >&2
done

device_name=$(./grade --solutions "${device[@]}" --quick lab1 | sed -n 's/^lab1: .* (on \(.*\))$/\1/p')
echo "device: $device_name; $runs runs, a second process loading one core in $((runs / 2)) of them"
for lab in $labs; do
  if [ -n "${info[$lab]:-}" ]; then
    echo "$lab speed: informational on this device (not scored)"
  else
    echo "$lab speed: solution passed ${pass[$lab]:-0}/$runs; naive fixture failed ${fx_fail[$lab]:-0}/$runs"
  fi
done
