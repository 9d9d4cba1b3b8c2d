#!/usr/bin/env bash
# Verification over chains of launches (issue 31): logistic.cu's kernel steps
# a chaotic map in place, and a variant that divides with __fdividef (2 ulps
# off) passes `kopt eval` on one launch (repeat(1)) but fails the default
# chain of 20 launches of a kernel with an inout buffer, where the error has
# grown past the tolerance (a CPU model of it: worst element at 0.01 of the
# tolerance after 1 launch, 7000 times it after 20). The original as its own
# variant passes the chain. A recorded launch the application made 30 times is
# verified over a chain of 30 (the variant passes the pragma's repeat(2) and
# fails there). Exit 77 (ctest: skipped) where no GPU is usable.
# Usage: chain-verify.sh KOPT INPUTS_DIR [WORK_DIR] [ARCH]   (ARCH default: sm_90)
set -u
kopt=$1 inputs=$2 work=${3:-$(mktemp -d)} arch=${4:-sm_90}
[ -x "$kopt" ] || { echo "chain-verify: no kopt at $kopt" >&2; exit 1; }
# The installed test names kopt relative to its directory, and this script cds into WORK_DIR.
kopt=$(cd "$(dirname "$kopt")" && pwd)/$(basename "$kopt")
[ -f "$inputs/chain/logistic.cu" ] || { echo "chain-verify: no chain/logistic.cu in $inputs" >&2; exit 1; }
if ! "$kopt" device > /dev/null 2>&1; then
  echo "chain-verify: no usable GPU ($("$kopt" device 2>&1 | head -1)): skipped"
  exit 77
fi
fail() { echo "chain-verify: FAILED: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work" && cp "$inputs"/chain/* "$work/" && cd "$work" || exit 1

# NAME, then kopt eval's arguments after the kernel file; prints its output, its status in $status.
run() {
  local name=$1; shift
  "$kopt" eval logistic.cu --kernel logistic_step --no-profile "$@" > "$name.out" 2>&1
  status=$?
  echo "--- $name (exit $status)"; grep -E '^  (variant|original):|chain|warning' "$name.out"
}

run one-launch --variant logistic-fdividef.cu -- -arch="$arch" -DONE_LAUNCH
[ "$status" -eq 0 ] || fail "the __fdividef variant did not verify on one launch (exit $status)"
grep -q 'verified on 3 input sets, worst' one-launch.out || fail "one launch: not verified on 3 input sets"
grep -q 'launch chains' one-launch.out && fail "repeat(1) still chained launches"

run chain --variant logistic-fdividef.cu -- -arch="$arch"
[ "$status" -eq 3 ] || fail "the __fdividef variant was not refused on the chain (exit $status)"
grep -q '^  variant:  wrong' chain.out || fail "the chain's verdict is not 'wrong'"
grep -q 'inputs #1 after a chain of 20 launches: ' chain.out || fail "the failure does not name the 20-launch chain"

run same --variant logistic.cu -- -arch="$arch"
[ "$status" -eq 0 ] || fail "the original did not verify against itself on the chain (exit $status)"
grep -q 'verified on 3 input sets, 20-launch chains' same.out || fail "the original's chain is not 20 launches"
# Recorded launches chain too: the application makes its one distinct launch
# 30 times, so with a recording the variant that passes the pragma's 2-launch
# chain is verified over 30 from the recorded inputs, and refused there.
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
"$nvcc" -O3 -arch="$arch" -o app logistic-app.cu 2> /dev/null || fail "nvcc could not build logistic-app.cu"
export KOPT_CACHE_DIR="$work/cache"
"$kopt" record --kernel logistic_step -- ./app > record.out 2>&1 || { cat record.out; fail "kopt record failed"; }
grep -q ': 1 distinct launches, 30 launches' record.out || { cat record.out; fail "not one distinct launch made 30 times"; }

run two-launches --variant logistic-fdividef.cu -- -arch="$arch" -DTWO_LAUNCHES
[ "$status" -eq 3 ] || fail "the __fdividef variant was not refused on the recorded chain (exit $status)"
grep -q 'recorded launch #0 .* after a chain of 30 launches: ' two-launches.out ||
  fail "the failure does not name the recorded launch's 30-launch chain"

run recorded-same --variant logistic.cu -- -arch="$arch" -DTWO_LAUNCHES
[ "$status" -eq 0 ] || fail "the original did not verify against itself on the recorded chain (exit $status)"
echo "chain-verify: passed"
