#!/bin/sh
# tests/fixture_verdicts.sh [GRADE OPTIONS]: grades every fixture under tests/fixtures with --quick and prints one
# line per fixture: the fixture, its lab, and each test as name=score/max, so that the verdicts of two devices
# can be compared with diff (the reference judge must make them the same). Run from the kit's root. FIXTURES, when
# set, names the fixtures to grade instead of every one (e.g. FIXTURES="lab1/crash lab5/transposed-result").
if [ -n "${FIXTURES:-}" ]; then
    dirs=$(for f in $FIXTURES; do echo "tests/fixtures/$f"; done)
else
    dirs=$(echo tests/fixtures/*/*/) # each fixture folder once (adding */* graded every one twice)
fi
for dir in $dirs; do
    dir=${dir%/}
    for lab in "$dir"/lab[0-9]*; do
        [ -d "$lab" ] || continue
        lab=${lab##*/}
        line=$(NO_COLOR=1 ./grade --quick --seed 1 --submission "$dir" "$@" "$lab" 2>&1 |
            awk '/^  [\342]/ { name = $2; for (i = 3; i < NF && $i !~ /\//; i++) name = name "_" $i;
                               printf " %s=%s", name, $i }')
        echo "${dir#tests/fixtures/} $lab:$line"
    done
done | sort -u
