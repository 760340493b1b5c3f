#!/bin/sh
# The bench behind docs/results/lab10-uniform-nvidia-h100.txt (not part of make check: it needs a GPU for figures
# that mean anything; a few seconds on an H100): lab 10's solution, the global-atomics baseline and the replicated
# bins over uniform, skewed and one-value data against a float4 copy of the same bytes.
#   tests/hist_bench/run.sh [N REPS]     (default 16777216 15; the grader times 16777216 values)
set -eu
here=$(cd "$(dirname "$0")" && pwd); kit=$(cd "$here/../.." && pwd); work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$kit/solutions/lab10/histogram.cl" "$work/sol10.cl"
cp "$kit/kernels/histogram_global.cl" "$work/global.cl"
cp "$kit/kernels/histogram_replicated.cl" "$work/replicated.cl"
cp "$kit/kernels/copy.cl" "$work/copy.cl"
gcc -O2 -std=c11 -Wall -Wno-deprecated-declarations "$here/bench.c" -o "$work/bench" -lOpenCL
cd "$work"
./bench "${1:-16777216}" "${2:-15}"
