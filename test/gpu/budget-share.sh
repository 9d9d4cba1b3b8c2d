#!/usr/bin/env bash
# The build budget shared by the program's GPU time (issue 31): a program
# whose `heavy` kernel takes nearly all its GPU time and `light` almost none
# is recorded with `kopt record`, then built by kcc (mode optimize) with a
# 30 s build budget. Fails unless kopt record printed each kernel's share,
# heavy's progress line gives it over 90% of the budget and light's under
# 10%, and the build spent no more than the budget allows (with the 4
# evaluations every kernel gets); then, without a build budget, unless heavy
# gets nearly the 16 s that --kopt-budget=8s gives the two kernels together;
# then, without a recording, unless kcc timed one launch of each and gave
# heavy over 80% of what the two kernels share.
# Prints kcc's notes. Exit 77 (ctest:
# skipped) where no GPU is usable.
# Usage: budget-share.sh KOPT INPUTS_DIR [WORK_DIR] [ARCH]   (ARCH default: sm_90)
set -u
kopt=$1 inputs=$2 work=${3:-$(mktemp -d)} arch=${4:-sm_90}
[ -x "$kopt" ] || { echo "budget-share: no kopt at $kopt" >&2; exit 1; }
kopt=$(cd "$(dirname "$kopt")" && pwd)/$(basename "$kopt")
kcc=$(dirname "$kopt")/kcc
[ -x "$kcc" ] || { echo "budget-share: no kcc next to $kopt" >&2; exit 1; }
src=$inputs/share/two-kernels.cu
[ -f "$src" ] || { echo "budget-share: no share/two-kernels.cu in $inputs" >&2; exit 1; }
if ! "$kopt" device > /dev/null 2>&1; then
  echo "budget-share: no usable GPU ($("$kopt" device 2>&1 | head -1)): skipped"
  exit 77
fi
fail() { echo "budget-share: FAILED: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
export KOPT_CACHE_DIR="$work/cache"

"$nvcc" -O3 -arch="$arch" -o "$work/app" "$src" || fail "nvcc could not build the program"
"$kopt" record --kernel heavy --kernel light -- "$work/app" > "$work/record.txt" 2>&1 ||
  { cat "$work/record.txt"; fail "kopt record failed"; }
cat "$work/record.txt"
grep -qE 'on the GPU in the recorded kernels: .*heavy.* (9[0-9]|100)%' "$work/record.txt" ||
  fail "kopt record did not give heavy over 90% of the GPU time"

start=$(date +%s)
KOPT_BUILD_ID=budget-share "$kcc" --kopt-mode=optimize --kopt-engine=skills --kopt-build-budget=30s \
  -O3 -arch="$arch" -o "$work/app2" "$src" 2> "$work/build.err"
status=$?
end=$(date +%s)
cat "$work/build.err"
[ "$status" -eq 0 ] || fail "kcc exited with $status"
grep -E 'heavy: optimizing .*budget [0-9]+s \((9[0-9]|100)% of the build budget 30s, by the program.s recorded GPU time\)' \
  "$work/build.err" > /dev/null || fail "heavy was not given over 90% of the build budget"
grep -E 'light: optimizing .*budget [0-9.]+s \([0-9]% of the build budget 30s, by the program.s recorded GPU time\)' \
  "$work/build.err" > /dev/null || fail "light was not given under 10% of the build budget"
"$work/app2" | grep -q '^two-kernels: ' || fail "the program built by kcc does not run"
echo "budget-share: the build took $((end - start)) s of a 30 s budget"
[ $((end - start)) -le 75 ] || fail "the build took $((end - start)) s"

# Without a build budget the kernels share what they would have had each
# (--kopt-budget=8s: 16 s for the two), moved to where the program's time is.
mkdir -p "$work/cache2" && cp -r "$work/cache/recordings" "$work/cache2/"
KOPT_CACHE_DIR="$work/cache2" "$kcc" --kopt-mode=optimize --kopt-engine=skills --kopt-budget=8s \
  -O3 -arch="$arch" -o "$work/app3" "$src" 2> "$work/build2.err" || { cat "$work/build2.err"; fail "kcc failed"; }
cat "$work/build2.err"
grep -E 'heavy: optimizing .*budget 1[56]s \((9[0-9]|100)% of 16s \(8s for each of 2 recorded kernels\), by the program.s recorded GPU time\)' \
  "$work/build2.err" > /dev/null || fail "heavy was not given nearly both kernels' 8 s"

# Without a recording the compile's two kernels share their 16 s by one
# launch of each, as their pragmas describe it.
KOPT_CACHE_DIR="$work/cache3" "$kcc" --kopt-mode=optimize --kopt-engine=skills --kopt-budget=8s \
  -O3 -arch="$arch" -o "$work/app4" "$src" 2> "$work/build3.err" || { cat "$work/build3.err"; fail "kcc failed"; }
cat "$work/build3.err"
grep -q 'timing one launch of each of the 2 kernels that miss the cache' "$work/build3.err" ||
  fail "kcc did not time the two kernels before their searches"
grep -E "heavy: optimizing .*budget 1[0-9]s \((8[0-9]|9[0-9]|100)% of the 1[0-9]s left to this compile's 2 kernels that miss the cache, by one launch of each\)" \
  "$work/build3.err" > /dev/null || fail "heavy was not given over 80% of the two kernels' time"
"$work/app4" | grep -q '^two-kernels: ' || fail "the program built by kcc does not run"
echo "budget-share: passed"
