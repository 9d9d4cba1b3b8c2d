#!/usr/bin/env bash
# kopt verify on the GPU (issue 31): a time-stepped program with its own check,
# built with two variants spliced as kcc splices them (decay's is correct,
# offset's deliberately adds 1.001), runs with KOPT_VARIANTS=off (passes), with
# the variants (fails), and kopt verify names offset alone as guilty. Prints
# kopt verify's output. Exit 77 (ctest: skipped) where no GPU is usable.
# Usage: verify-check.sh KOPT INPUTS_DIR [WORK_DIR] [ARCH]   (ARCH default: sm_90)
set -u
kopt=$1 inputs=$2 work=${3:-$(mktemp -d)} arch=${4:-sm_90}
[ -x "$kopt" ] || { echo "verify-check: no kopt at $kopt" >&2; exit 1; }
# The installed test names kopt relative to its directory, and this script cds into WORK_DIR.
kopt=$(cd "$(dirname "$kopt")" && pwd)/$(basename "$kopt")
[ -f "$inputs/verify/steps.cu" ] || { echo "verify-check: no verify/steps.cu in $inputs" >&2; exit 1; }
if ! "$kopt" device > /dev/null 2>&1; then
  echo "verify-check: no usable GPU ($("$kopt" device 2>&1 | head -1)): skipped"
  exit 77
fi
fail() { echo "verify-check: FAILED: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work" && cp "$inputs"/verify/* "$work/" && cd "$work" || exit 1
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)

"$kopt" rewrite-tu steps.cu --variant decay-inplace.json --variant offset-wrong.json \
  -o steps.kopt.cu -- -O3 -arch="$arch" || fail "kopt rewrite-tu failed"
"$nvcc" -O3 -arch="$arch" -o steps steps.kopt.cu || fail "nvcc could not build the program"
KOPT_VARIANTS=off ./steps || fail "the program's check fails with the originals"
./steps && fail "the program's check passes with offset's wrong variant"

KOPT_CACHE_DIR="$work/cache" "$kopt" verify --runs 3 -- ./steps > verify.out 2> verify.err
status=$?
cat verify.out verify.err
[ "$status" -eq 1 ] || fail "kopt verify exited with $status, not 1"
grep -q "variants (decay, offset): fails, status 1" verify.out || fail "not both variants logged"
grep -q "decay's variant alone: passes" verify.out || fail "decay not cleared"
grep -q "offset's variant alone: fails, status 1" verify.out || fail "offset not found guilty"
grep -q "(median of 3): [0-9.]*x" verify.out || fail "no program speedup"
grep -q "fails with the variant of offset;" verify.err || fail "offset not named"
echo "verify-check: passed"
