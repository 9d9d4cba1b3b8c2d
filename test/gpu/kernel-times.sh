#!/usr/bin/env bash
# bench/suite.py's kernel-times library (bench/tools/KernelTimes.cpp) on the GPU: a program
# that runs spin<0> three times for 2 ms inside cudaProfilerStart/Stop and spin<1> twice
# outside. The JSON must hold spin<0> with 3 launches and 5.5 to 8 ms, nothing of spin<1>,
# 1.5 to 3 ms outside the bracket, and a bracket at least as long as its kernels.
# Exit 77 (ctest: skipped) where no GPU is usable.
# Usage: kernel-times.sh KOPT LIBRARY SOURCE [WORK_DIR] [ARCH]   (ARCH default: sm_90)
set -u
kopt=$1 library=$2 src=$3 work=${4:-$(mktemp -d)} arch=${5:-sm_90}
[ -f "$library" ] || { echo "kernel-times: no library at $library" >&2; exit 1; }
if ! "$kopt" device > /dev/null 2>&1; then
  echo "kernel-times: no usable GPU ($("$kopt" device 2>&1 | head -1)): skipped"
  exit 77
fi
fail() { echo "kernel-times: FAILED: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
"$nvcc" -O3 -arch="$arch" -o "$work/app" "$src" || fail "nvcc could not build the program"
CUDA_INJECTION64_PATH=$library KOPT_KERNEL_TIMES=$work/times.json "$work/app" > "$work/out.txt" 2>&1 ||
  { cat "$work/out.txt"; fail "the program failed under the library"; }
grep -q 'kernel_times: done' "$work/out.txt" || fail "the program printed nothing"
[ -f "$work/times.json" ] || { cat "$work/out.txt"; fail "no $work/times.json"; }
cat "$work/times.json"
python3 - "$work/times.json" <<'PY' || fail "the times are wrong"
import json, sys
t = json.load(open(sys.argv[1]))
kernels = {k["name"]: k for k in t["kernels"]}
assert t["ranges"] == 1, t
assert set(kernels) == {"spin<0>"}, kernels
assert kernels["spin<0>"]["launches"] == 3, kernels
assert 5.5 <= kernels["spin<0>"]["ms"] <= 8.0, kernels
assert t["range_ms"] >= kernels["spin<0>"]["ms"], t
assert 1.5 <= t["outside_ms"] <= 3.0, t
PY
echo "kernel-times: ok"
