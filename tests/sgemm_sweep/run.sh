#!/bin/sh
# The SGEMM sweep behind docs/results/sgemm-going-further-nvidia-h100.txt (not part of make check: it needs a GPU
# and takes about 20 s on an H100). Each variant is checked against a double-precision product at 256^3 in full and
# at 32 random entries of 4096^3, then timed at 4096^3: the median of 9 runs after 2 warm-ups (profiling events).
#   tests/sgemm_sweep/run.sh [1|2]     (1: the first sweep, 35 variants; 2: the ladder; default 2)
set -eu
here=$(cd "$(dirname "$0")" && pwd); kit=$(cd "$here/../.." && pwd); work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here/bench.c" "$here/sgemm.cl" "$here/variants.sh" "$here/variants2.txt" "$work/"
cp "$kit/solutions/lab8/matmul_reg.cl" "$work/lab8.cl"
cp "$kit/kernels/matmul_warptile.cl" "$work/wt2.cl"
git -C "$kit" show 3a8143f:kernels/matmul_warptile.cl > "$work/wt.cl" # the first version: 128 x 128 blocks
cd "$work" && gcc -O2 -std=c11 -Wno-deprecated-declarations bench.c -o bench -lOpenCL -lm
if [ "${1:-2}" = 1 ]; then bash variants.sh "-cl-nv-verbose" > list.txt; else cp variants2.txt list.txt; fi
PLATFORM=${PLATFORM:-NVIDIA} ./bench list.txt "${SIZE:-4096}" 256 9
