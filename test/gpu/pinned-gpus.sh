#!/usr/bin/env bash
# GPUs named by what they are (issue 33): two kcc processes pinned to
# different GPUs with CUDA_VISIBLE_DEVICES (each sees its GPU as device 0)
# optimize at once and never wait for each other; their locks are named by the
# two GPUs' UUIDs. The control: two processes pinned to the same GPU, where
# one must wait (so the test can fail). Exit 77 (ctest: skipped) with fewer
# than 2 GPUs.
# Usage: pinned-gpus.sh KOPT INPUTS_DIR [WORK_DIR] [ARCH]   (kcc beside kopt; ARCH default sm_90)
set -u
kopt=$1 inputs=$2 work=${3:-$(mktemp -d)} arch=${4:-sm_90}
kcc=$(dirname "$kopt")/kcc
[ -x "$kopt" ] && [ -x "$kcc" ] || { echo "pinned-gpus: no kopt/kcc beside $kopt" >&2; exit 1; }
fail() { echo "pinned-gpus: FAILED: $*" >&2; exit 1; }
gpus=$("$kopt" device 2>/dev/null | grep -c '^device ')
if [ "${gpus:-0}" -lt 2 ]; then
  echo "pinned-gpus: $gpus GPU(s) here, the test needs 2: skipped"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work/locks"
uuid_of() { "$kopt" device | sed -n "s/^device $1: .*, \(GPU-[0-9a-f-]*\)\$/\1/p"; }
uuid0=$(uuid_of 0) uuid1=$(uuid_of 1)
[ -n "$uuid0" ] && [ -n "$uuid1" ] && [ "$uuid0" != "$uuid1" ] ||
  fail "kopt device names no two UUIDs ('$uuid0', '$uuid1')"

# One kcc compile that misses (its own cache) and optimizes for BUDGET.
compile() { # NAME CUDA_VISIBLE_DEVICES
  env CUDA_VISIBLE_DEVICES="$2" KOPT_GPU_LOCK_DIR="$work/locks" "$kcc" --kopt-mode=optimize \
    --kopt-engine=skills --kopt-budget=15s --kopt-cache-dir="$work/$1-cache" -arch="$arch" \
    -DITERS=4096 -c "$inputs/slow.cu" -o "$work/$1.o" > "$work/$1.txt" 2>&1
}

# Pinned to different GPUs: both optimize at once, neither waits.
compile zero 0 & a=$!
compile one 1 & b=$!
wait $a || { cat "$work/zero.txt"; fail "kcc on GPU 0 failed"; }
wait $b || { cat "$work/one.txt"; fail "kcc on GPU 1 failed"; }
cat "$work/zero.txt" "$work/one.txt"
for side in zero one; do
  grep -q 'optimizing for' "$work/$side.txt" || fail "kcc ($side) did not optimize"
  ! grep -q 'waiting for' "$work/$side.txt" || fail "kcc ($side) waited for a GPU of its own"
done
[ -e "$work/locks/kopt-gpu-$uuid0.lock" ] || fail "no lock named by GPU 0's UUID ($uuid0)"
[ -e "$work/locks/kopt-gpu-$uuid1.lock" ] || fail "no lock named by GPU 1's UUID ($uuid1)"
ls "$work/locks"

# The control: pinned to the same GPU, one waits for the other.
compile same-a 1 & a=$!
sleep 1
compile same-b 1 & b=$!
wait $a && wait $b || { cat "$work"/same-*.txt; fail "kcc on one GPU failed"; }
waits=$(cat "$work"/same-*.txt | grep -c 'waiting for the GPU')
[ "$waits" -eq 1 ] || { cat "$work"/same-*.txt; fail "two processes on one GPU: $waits waited, not 1"; }
echo "pinned-gpus: passed"
