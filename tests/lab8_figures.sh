#!/bin/sh
# Lab 8's figures on this machine's default device (not part of make check: they take a minute and depend on the
# device): the register-blocked solution under every tiling at each size, with CLBlast's SGEMM and lab 6's kernel
# timed in the same run. Build with make CLBLAST=1 first for the CLBlast column.
#   tests/lab8_figures.sh [SIZE...]        (default: 2048 4096)
# It appends size.matmul and lab8.tile to the device's profile for each run and puts the profile back after.
set -u
cd "$(dirname "$0")/.." || exit 2
sizes=${*:-"2048 4096"}
device=$(./grade --solutions --quick lab1 | sed -n 's/^lab1: .* (on \(.*\))$/\1/p')
conf=$(grep -lx "device = $device" grader/profiles/*.conf | head -1)
[ -n "$conf" ] || { echo "no profile in grader/profiles names the device '$device': run ./grade --calibrate" >&2; exit 2; }
saved=$(mktemp) && cp "$conf" "$saved" || exit 2
trap 'cp "$saved" "$conf"; rm -f "$saved"' EXIT INT TERM
echo "device: $device; profile: $conf; $(date -u +%Y-%m-%d)"
for n in $sizes; do
  for tile in 16 32 64 128; do
    { cat "$saved"; printf 'size.matmul = %s\nlab8.tile = %s\n' "$n" "$tile"; } > "$conf"
    NO_COLOR=1 ./grade --bench lab8 2>&1 | grep "^| lab8" | sed "s/^/TILE $tile, WPT $((tile / 16)): /"
  done
done
