#!/usr/bin/env bash
# All GPUs of a host (issue 33): `kopt optimize` of several kernels with
# --kopt-devices=0,1 spreads them over both GPUs: lines of both ("[gpu0 ...]",
# "[gpu1 ...]"), every kernel in the table in file order, an entry each, and a
# wall time below the sum of the kernels' own times. Exit 77 (ctest: skipped)
# with fewer than 2 GPUs.
# Usage: multi-gpu-optimize.sh KOPT KERNELS.cu [WORK_DIR] [ARCH]   (ARCH default sm_90)
set -u
kopt=$1 kernels=$2 work=${3:-$(mktemp -d)} arch=${4:-sm_90}
[ -x "$kopt" ] || { echo "multi-gpu-optimize: no kopt at $kopt" >&2; exit 1; }
fail() { echo "multi-gpu-optimize: FAILED: $*" >&2; exit 1; }
gpus=$("$kopt" device 2>/dev/null | grep -c '^device ')
if [ "${gpus:-0}" -lt 2 ]; then
  echo "multi-gpu-optimize: $gpus GPU(s) here, the test needs 2: skipped"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work"
start=$(date +%s.%N)
"$kopt" optimize "$kernels" --kopt-devices=0,1 --kopt-engine=skills --kopt-budget=10s \
  --kopt-cache-dir="$work/cache" -- -arch="$arch" > "$work/out.txt" 2>&1
status=$?
end=$(date +%s.%N)
cat "$work/out.txt"
[ "$status" -eq 0 ] || fail "kopt optimize exited with $status"
grep -q '^kopt optimize: .* on 2 GPUs (gpu0 .*, gpu1 .*)$' "$work/out.txt" ||
  fail "the header does not name both GPUs"
for gpu in gpu0 gpu1; do
  grep -q "^\[$gpu [^]]*\] " "$work/out.txt" || fail "no kernel ran on $gpu"
done
expected=$(grep -c '^#pragma kopt optimize' "$kernels")
names=$(awk '/^#pragma kopt optimize/ { want = 1 }
  want && /^__global__ void / { sub(/^__global__ void /, ""); sub(/\(.*/, ""); print; want = 0 }' "$kernels")
rows=$(sed -n '/^kernel  *original ms/,$p' "$work/out.txt" | tail -n +2 | awk '{print $1}')
[ "$(echo "$rows" | wc -l)" -eq "$expected" ] || fail "the table has not $expected rows"
[ "$rows" = "$names" ] || fail "the table is not in file order: $(echo $rows) vs $(echo $names)"
entries=$(ls "$work"/cache/entries/*/*.json | wc -l)
[ "$entries" -eq "$expected" ] || fail "$entries cache entries for $expected kernels"
sum=$(sed -n '/^kernel  *original ms/,$p' "$work/out.txt" | tail -n +2 | awk '{s += $8} END {print s}')
wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
echo "multi-gpu-optimize: $expected kernels, loops $sum s in all, wall $wall s"
awk -v w="$wall" -v s="$sum" 'BEGIN { exit !(w < 0.8 * s) }' ||
  fail "wall time $wall s is not below the kernels' $sum s: they did not run at once"
echo "multi-gpu-optimize: passed"
