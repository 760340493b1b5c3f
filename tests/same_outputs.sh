#!/bin/sh
# tests/same_outputs.sh BEFORE AFTER [WORK]: grades the same fixtures and the same small class with two kits (two
# built kit roots, e.g. main before a change and a branch after it) and compares what they print and write, timings
# and paths masked: the fixture verdicts (tests/fixture_verdicts.sh), a class graded in a batch (each STUDENT.json
# and STUDENT.txt, scores.csv, the class's HTML report), and two students graded alone with --json, --junit,
# --classroom (decoded), --csv and --html. Prints the differences and exits 1 when there is one.
#   FIXTURES="lab1/crash ..." the fixtures (default: every one); CLASS=N students (default 4, one of each kind
#   tests/make_class.sh writes); LABS (default "lab1 lab5": their wrong kernels read no uninitialised memory, so
#   that every text is the same from run to run; lab 6's and lab 8's print what they read there, different each
#   time); GRADE_OPTIONS (e.g. "--device nvidia"); SKIP_FIXTURES=1, SKIP_CLASS=1 leave a part out; SIDE_BY_SIDE=1
#   grades with both kits at once (on a GPU machine, to save time). WORK (default a
#   new /tmp folder) keeps every file for a look. A file only one side writes (a new output) is named, not failed.
set -u
[ $# -ge 2 ] || { echo "usage: tests/same_outputs.sh BEFORE_KIT AFTER_KIT [WORK]" >&2; exit 2; }
before=$(cd "$1" && pwd) && after=$(cd "$2" && pwd) || exit 2
work=${3:-$(mktemp -d /tmp/same-outputs.XXXXXX)}
labs=${LABS:-lab1 lab5}
options=${GRADE_OPTIONS:-}
mkdir -p "$work" || exit 2
rm -rf "$work/class" "$work/before" "$work/after"
[ -n "${SKIP_CLASS:-}" ] || (cd "$after" && sh tests/make_class.sh "$work/class" "${CLASS:-4}" >/dev/null) || exit 2

# Timings, scratch folders, the runner's user and the two kits' own paths are all that may differ.
mask() {
    find "$1" -type f | while read -r file; do
        sed -i -E -e "s#$before#KIT#g; s#$after#KIT#g; s#$1#OUT#g; s#$work#WORK#g" \
            -e 's#/tmp/clkit[A-Za-z0-9._-]*#/tmp/SCRATCH#g; s/clkit-runner(-[0-9]+)?/clkit-runner-N/g' \
            -e 's/[0-9]+(\.[0-9]+)? ?(s|ms|seconds|second)\b/T \2/g' \
            -e 's/(time|timestamp)="[^"]*"/\1="T"/g; s/"execution_time":[[:space:]]*[0-9.]+/"execution_time": T/g' \
            -e 's/in [0-9]+ min [0-9]+ s/in T/g; s/[0-9]{4}-[0-9]{2}-[0-9]{2}[ T][0-9:]{8}/DATE/g' "$file"
    done
}

grade_side() {
    side=$1
    eval kit=\$$side
    out=$work/$side
    mkdir -p "$out/one"
    if [ -z "${SKIP_FIXTURES:-}" ]; then
        # shellcheck disable=SC2086
        (cd "$kit" && sh "$after/tests/fixture_verdicts.sh" $options > "$out/fixtures.txt")
    fi
    if [ -z "${SKIP_CLASS:-}" ]; then
        # shellcheck disable=SC2086
        (cd "$kit" && NO_COLOR=1 ./grade --quick --seed 1 $options --submission "$work/class" --results "$out/results" \
            --html "$out/html" $labs > "$out/batch.txt" 2>&1)
        for s in s01 s02; do
            # shellcheck disable=SC2086
            (cd "$kit" && NO_COLOR=1 ./grade --quick --seed 1 $options --submission "$work/class/$s" \
                --json "$out/one/$s.json" --junit "$out/one/$s.xml" --classroom "$out/one/$s.classroom" \
                --csv "$out/one/$s.csv" --html "$out/one/$s-html" $labs > "$out/one/$s.txt" 2>&1)
            base64 -d < "$out/one/$s.classroom" > "$out/one/$s.classroom.json" 2>/dev/null && rm "$out/one/$s.classroom"
        done
    fi
    mask "$out"
}
if [ -n "${SIDE_BY_SIDE:-}" ]; then # a GPU machine: the two kits at once (on a CPU device their timeouts would share it)
    grade_side before & grade_side after & wait
else
    grade_side before && grade_side after
fi
diff -rq "$work/before" "$work/after" | grep '^Only in' | sed 's/^/same_outputs: new or gone (not compared): /'
if diff -r "$work/before" "$work/after" | grep -v '^Only in' | grep -q .; then
    diff -r "$work/before" "$work/after" | grep -v '^Only in'
    echo "same_outputs: DIFFERENT (above; $work)"
    exit 1
else
    echo "same_outputs: the same ($(find "$work/after" -type f | wc -l) files; $work)"
fi
