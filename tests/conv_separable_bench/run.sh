#!/bin/sh
# The bench behind docs/results/lab9-separable-nvidia-h100.txt (not part of make check: it needs a GPU and takes
# about 5 s on an H100): an 8192 x 8192 image and a separable filter at R 2, 8 and 13; each kernel's median of 15
# launches after 3 warm-ups (profiling events), checked at 4096 outputs against a CPU reference in double.
#   tests/conv_separable_bench/run.sh [H W REPS R...]     (default 8192 8192 15 2 8 13)
set -eu
here=$(cd "$(dirname "$0")" && pwd); kit=$(cd "$here/../.." && pwd); work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$kit/kernels/conv2d_naive.cl" "$work/naive.cl"
cp "$kit/solutions/lab9/conv2d.cl" "$work/sol9.cl"
cp "$kit/tests/fixtures/lab9/one-output/lab9/conv2d.cl" "$work/one.cl"
cp "$kit/kernels/conv_separable.cl" "$work/sep.cl"
cp "$kit/kernels/copy.cl" "$work/copy.cl"
gcc -O2 -std=c11 -Wall -Wno-deprecated-declarations "$here/bench.c" -o "$work/bench" -lOpenCL -lm
cd "$work"
if [ $# -gt 0 ]; then ./bench "$@"; else ./bench 8192 8192 15 2 8 13; fi
