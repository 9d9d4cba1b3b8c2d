#!/usr/bin/env bash
# `kopt record` on a solver-like program (issue 17): 100 launches whose grid
# shrinks with k. Checks, on the GPU:
#   - the app's output is byte-identical with and without the recorder;
#   - the recording holds all 100 distinct launches;
#   - a variant right only for the middle k (the pragma's k) is rejected on a
#     recorded launch, which the verdict names;
#   - a correct variant passes on every recorded launch;
#   - kopt optimize verifies on the recorded launches, and a variant that
#     remaps the launch (block-size, forced first by the pragma) is evaluated
#     with its launch mapped for each recorded launch, not rejected.
# Exit 77 (ctest: skipped) where no GPU is usable.
# Usage: record-solver.sh KOPT INPUTS_DIR [WORK_DIR] [ARCH]   (ARCH default: sm_90)
set -u
kopt=$1 inputs=$2 work=${3:-$(mktemp -d)} arch=${4:-sm_90}
[ -x "$kopt" ] || { echo "record-solver: no kopt at $kopt" >&2; exit 1; }
src=$inputs/solver.cu
[ -f "$src" ] || { echo "record-solver: no solver.cu in $inputs" >&2; exit 1; }
if ! "$kopt" device > /dev/null 2>&1; then
  echo "record-solver: no usable GPU ($("$kopt" device 2>&1 | head -1)): skipped"
  exit 77
fi
fail() { echo "record-solver: FAILED: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
cache="--kopt-cache-dir=$work/cache"
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
"$nvcc" -O3 -arch="$arch" -o "$work/app" "$src" || fail "nvcc could not build the app"

"$work/app" > "$work/plain.txt" || fail "the app failed without the recorder"
"$kopt" record "$cache" --kernel eliminate -- "$work/app" > "$work/recorded.txt" 2> "$work/record.log" ||
  { cat "$work/record.log"; fail "kopt record failed"; }
cat "$work/record.log"
grep -q '^eliminate: ' "$work/recorded.txt" || { cat "$work/recorded.txt"; fail "the app printed nothing under the recorder"; }
cmp -s <(grep '^eliminate: ' "$work/plain.txt") <(grep '^eliminate: ' "$work/recorded.txt") ||
  fail "the app's output differs under the recorder: $(cat "$work/plain.txt") vs $(grep '^eliminate: ' "$work/recorded.txt")"
rec=$(ls "$work"/cache/recordings/*.krec 2>/dev/null | head -1)
[ -n "$rec" ] || fail "no recording in $work/cache/recordings"
"$kopt" record --show "$rec" | tee "$work/show.txt" | head -3
grep -q ': 100 distinct launches, 100 launches' "$work/show.txt" || fail "the recording does not hold 100 distinct launches"

# Wrong except near the middle k, which the pragma's workload uses.
sed 's|A\[i \* n + j\] -= f \* A\[k \* n + j\];|A[i * n + j] -= (k < 40 \|\| k > 60 ? -f : f) * A[k * n + j];|' \
  "$src" > "$work/wrong.cu"
grep -q 'k > 60' "$work/wrong.cu" || fail "could not make the wrong variant"
"$kopt" eval "$src" "$cache" --variant "$work/wrong.cu" --no-profile -- -arch="$arch" > "$work/wrong.txt" 2>&1
cat "$work/wrong.txt"
grep -q '^  recorded: ' "$work/wrong.txt" || fail "kopt eval did not use the recording"
grep -q '^  variant:  wrong' "$work/wrong.txt" || fail "the variant wrong at most k was not rejected"
grep -q 'recorded launch #' "$work/wrong.txt" || fail "the rejection does not name the recorded launch"

sed 's|__global__ void eliminate(float \*A|__global__ void eliminate(float *__restrict__ A|' "$src" > "$work/right.cu"
"$kopt" eval "$src" "$cache" --variant "$work/right.cu" --no-profile -- -arch="$arch" > "$work/right.txt" 2>&1
cat "$work/right.txt"
grep -qE '^  variant:  (faster|not_faster)' "$work/right.txt" || fail "a correct variant did not pass"

"$kopt" optimize "$src" "$cache" --kopt-engine=skills --kopt-budget=45s -- -arch="$arch" > "$work/optimize.txt" 2>&1
status=$?
cat "$work/optimize.txt"
[ "$status" -eq 0 ] || fail "kopt optimize exited with $status"
grep -q 'verifying on 16 launches recorded' "$work/optimize.txt" || fail "kopt optimize did not verify on the recorded launches"
grep -q 'launches for the recorded launches are missing' "$work/optimize.txt" "$work"/cache/entries/*/*.json 2>/dev/null &&
  fail "a variant that remaps the launch was rejected for want of its recorded launches"
grep -E '\] block-size' "$work/optimize.txt" | grep -qE ' (faster|not_faster|promising) ' ||
  fail "no block-size variant was verified on the recorded launches"
echo "record-solver: passed"
