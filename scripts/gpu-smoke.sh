#!/usr/bin/env bash
# Unpacks the kopt bundle on the GPU machine and checks it there: kcc --version,
# the device query, the GPU test label, a clang parse against that machine's
# CUDA headers, a passthrough compile and an annotated (rewrite-path) compile
# that run correctly.
# Usage (from the repository root): scripts/gpu-smoke.sh BUNDLE.tar.xz [OUT_DIR]
set -euo pipefail
bundle=$1
out=${2:-/tmp/kopt-smoke}
mkdir -p "$out" /tmp/kopt-bundle
tar -C /tmp/kopt-bundle -xJf "$bundle"
prefix=$(ls -d /tmp/kopt-bundle/kopt-*)
export PATH="$prefix/bin:$PATH"

echo "== ldd kopt"; ldd "$prefix/bin/kopt"
echo "== kcc --version"; kcc --version
echo "== kopt device"; kopt device
kopt device --json > "$out/device.json"
echo "== ctest -L gpu (installed tests)"
(cd "$prefix/libexec/kopt/tests" && ctest -L gpu --output-on-failure -V) | tee "$out/ctest-gpu.log"
grep -q "100% tests passed" "$out/ctest-gpu.log"
if grep -q "\*\*\*Skipped\|Not Run" "$out/ctest-gpu.log"; then echo "GPU tests were skipped on the GPU machine" >&2; exit 1; fi
echo "== kopt inspect (clang 19 on this machine's CUDA headers)"
kopt inspect test/lit/Inputs/saxpy.cu | tee "$out/inspect.json" | grep '"name": "blas::saxpy"'
echo "== kcc passthrough compile, then run"
kcc -c test/lit/Inputs/saxpy.cu -o /tmp/saxpy.o
kcc /tmp/saxpy.o -o /tmp/saxpy
/tmp/saxpy | tee "$out/saxpy.out"
grep -qx "y\[0\] = 5" "$out/saxpy.out"
echo "== kcc rewrite path (annotated example, host warnings as errors), then run"
kcc -O3 -arch=sm_90 -Xcompiler=-Wall,-Werror=unknown-pragmas examples/saxpy/saxpy.cu -o /tmp/example
/tmp/example | tee "$out/example.out"
grep -q "saxpy: 0 of [0-9]* elements wrong" "$out/example.out"
echo "== kopt eval: the example's kernel measured, then verified and timed against itself"
kopt eval examples/saxpy/saxpy.cu -- -O3 -arch=sm_90 | tee "$out/eval.txt"
kopt inspect examples/saxpy/saxpy.cu --unit saxpy > /tmp/saxpy-unit.cu
kopt eval examples/saxpy/saxpy.cu --variant /tmp/saxpy-unit.cu --json -- -O3 -arch=sm_90 \
  > "$out/eval-self.json"
grep -q '"verdict": "not_faster"' "$out/eval-self.json"
echo "gpu-smoke: all checks passed"
