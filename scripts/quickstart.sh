#!/usr/bin/env bash
# README's first command: sets up a fresh machine, builds kopt and runs its main
# job: examples/app, a CMake project whose kernels kopt optimized on an H100,
# builds through kopt_optimize_target() from its committed cache (no GPU needed:
# kcc says, for each kernel, which verified variant it used and its speedup);
# then kcc compiles examples/saxpy in place of nvcc and kopt's front end reports
# the kernels it found.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -G Ninja
cmake --build build
echo "== examples/app: cmake with find_package(KOpt) and kopt_optimize_target(app MODE cache-only)"
cmake --install build --prefix build/install > /dev/null
cmake -S examples/app -B build/examples/app -G Ninja -DCMAKE_PREFIX_PATH="$PWD/build/install" \
  -DCMAKE_CUDA_COMPILER="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)" > /dev/null
cmake --build build/examples/app --clean-first
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
  build/examples/app/app
  "$out/saxpy"
else
  echo "(no GPU here: build/examples/app/app and $out/saxpy were built; run them on a machine with one)"
fi
