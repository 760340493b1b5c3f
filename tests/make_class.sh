#!/bin/sh
# Writes a synthetic class for batch grading, DIR/sNN/labN/ for labs 1, 5, 6 and 8: students in turn right (the
# solutions), wrong (a fixture per lab: wrong work-group id, transposed result, missing edge tiles, unguarded edge
# loads), crashing (a kernel that faults, lab 1; the others the stubs) and mixed (right in labs 1 and 8, wrong in 5
# and 6). Used to measure --jobs and to test the class report.
#   tests/make_class.sh DIR [COUNT]        (default 30 students)
set -eu
cd "$(dirname "$0")/.."
dir=${1:?usage: tests/make_class.sh DIR [COUNT]}
count=${2:-30}
[ ! -e "$dir" ] || { echo "make_class: $dir exists; remove it or choose another" >&2; exit 2; }
put() { # put STUDENT LAB FROM_DIR [HOST_FROM]
  mkdir -p "$dir/$1/$2"
  cp "$3"/*.cl "$dir/$1/$2/"
  cp "${4:-solutions/$2}/host.c" "$dir/$1/$2/"
}
i=1
while [ "$i" -le "$count" ]; do
  s=$(printf 's%02d' "$i")
  case $((i % 4)) in
    1) for lab in lab1 lab5 lab6 lab8; do put "$s" "$lab" "solutions/$lab"; done ;;
    2) put "$s" lab1 tests/fixtures/lab1/local-id/lab1
       put "$s" lab5 tests/fixtures/lab5/transposed-result/lab5
       put "$s" lab6 tests/fixtures/lab6/no-edge-tiles/lab6
       put "$s" lab8 tests/fixtures/lab8/no-edge/lab8 ;;
    3) put "$s" lab1 tests/fixtures/lab1/crash/lab1 labs/lab1
       for lab in lab5 lab6 lab8; do put "$s" "$lab" "labs/$lab" "labs/$lab"; done ;;
    0) put "$s" lab1 solutions/lab1
       put "$s" lab5 tests/fixtures/lab5/transposed-result/lab5
       put "$s" lab6 tests/fixtures/lab6/skips-partial-tiles/lab6
       put "$s" lab8 solutions/lab8 ;;
  esac
  i=$((i + 1))
done
echo "make_class: wrote $count students to $dir"
