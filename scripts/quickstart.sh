#!/usr/bin/env bash
# README's first command: sets up a fresh machine, builds kopt and runs its main
# job on the example: kcc compiles examples/saxpy in place of nvcc, and kopt's
# front end reports the kernels it found.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -G Ninja
cmake --build build
out=build/examples/saxpy
mkdir -p "$out"
echo "== kcc --version"
build/bin/kcc --version
echo "== kcc -O3 -arch=sm_90 examples/saxpy/saxpy.cu -o $out/saxpy"
build/bin/kcc -O3 -arch=sm_90 examples/saxpy/saxpy.cu -o "$out/saxpy"
echo "== kopt inspect examples/saxpy/saxpy.cu"
build/bin/kopt inspect examples/saxpy/saxpy.cu
if build/bin/kopt device >/dev/null 2>&1; then
  build/bin/kopt device
  "$out/saxpy"
else
  echo "(no GPU here: $out/saxpy was built; run it on a machine with one)"
fi
