#!/bin/sh
# tests/load_make_check.sh [COMMIT [K]]: runs make check in a fresh clone of this checkout at COMMIT (default HEAD)
# while K busy loops (default 3) spin on the machine's cores, and prints the tests' summary and the wall time
# (issue 24: make check passes on a busy machine; docs/results/load-make-check-pocl-cpu.txt). Exits with make
# check's status. The clone is removed afterwards; its log is kept and named. Run from the kit's root.
commit=${1:-HEAD}
k=${2:-3}
case "$k" in *[!0-9]*|'') echo "usage: tests/load_make_check.sh [COMMIT [K]] (K: a count)" >&2; exit 2;; esac
root=$(pwd)
. "$root/tests/busy_loops.sh" || exit 2
work=$(mktemp -d "${TMPDIR:-/tmp}/clkit-load-check.XXXXXX") || exit 2
log="$work.log"
stop() {
    busy_stop
    rm -rf "$work"
}
trap 'stop; exit 130' INT TERM
trap stop EXIT
git clone -q "$root" "$work/kit" && cd "$work/kit" && git checkout -q "$commit" || exit 2
busy_start "$k"
start=$(date +%s)
make check >"$log" 2>&1
status=$?
echo "$(git rev-parse --short HEAD) under $k busy loops: $(grep '^check: [0-9]* tests' "$log" | tail -1) ($(($(date +%s) - start)) s in all; exit $status; log $log)"
exit $status
