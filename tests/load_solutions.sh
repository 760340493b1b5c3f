#!/bin/sh
# tests/load_solutions.sh [N [K [GRADE OPTIONS]]]: grades the solutions N times (default 20) with
# ./grade --solutions all while K busy loops (default 3) spin on the machine's cores, and prints each grading's
# total and how many of the N were at full marks (issue 24: a right submission never loses a point to a busy
# machine). Exits 0 only when all were. Run from the kit's root; extra options go to ./grade (e.g. --quick).
# Example: tests/load_solutions.sh 20 3    (the figure; about 20 x 3 minutes on 2 cores)
n=${1:-20}
k=${2:-3}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift
case "$n$k" in *[!0-9]*|'') echo "usage: tests/load_solutions.sh [N [K [GRADE OPTIONS]]] (N, K: counts)" >&2; exit 2;; esac
[ -x ./grade ] || { echo "tests/load_solutions.sh: run it from the kit's root (no ./grade here)" >&2; exit 2; }

. tests/busy_loops.sh
trap 'busy_stop; exit 130' INT TERM
trap busy_stop EXIT
busy_start "$k"

full=0
run=1
log=$(mktemp "${TMPDIR:-/tmp}/clkit-load.XXXXXX") || exit 2
while [ "$run" -le "$n" ]; do
    start=$(date +%s)
    NO_COLOR=1 ./grade --solutions "$@" all >"$log" 2>&1
    status=$?
    total=$(grep '^total:' "$log" | tail -1)
    # "total: 130.0 / 130 points, ...": full marks when the score equals the maximum.
    if echo "$total" | awk '{ exit !($2 == $4 && $4 > 0) }'; then
        full=$((full + 1))
        verdict="full marks"
    else
        verdict="NOT full marks"
        cp "$log" "$log.$run" # kept for reading: the lines that lost points
    fi
    echo "grading $run of $n (exit $status, $(($(date +%s) - start)) s, $k busy loops): ${total:-no total} - $verdict"
    [ "$verdict" = "full marks" ] || echo "  its output: $log.$run"
    run=$((run + 1))
done
rm -f "$log"
echo "$full of $n gradings at full marks under $k busy loops"
[ "$full" -eq "$n" ]
