#!/usr/bin/env bash
# README's first command: sets up a fresh machine, builds kopt and runs its main
# job: examples/app, a CMake project whose kernels kopt optimized on an H100,
# builds through kopt_optimize_target() from its committed cache (no GPU needed:
# kcc says, for each kernel, which verified variant it used and its speedup);
# then kcc compiles examples/saxpy in place of nvcc. Ends with a short summary.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -G Ninja
cmake --build build
echo "== examples/app: cmake with find_package(KOpt) and kopt_optimize_target(app MODE cache-only)"
cmake --install build --prefix build/install > /dev/null
cmake -S examples/app -B build/examples/app -G Ninja -DCMAKE_PREFIX_PATH="$PWD/build/install" \
  -DCMAKE_CUDA_COMPILER="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)" > /dev/null
app_log=build/examples/app.log
cmake --build build/examples/app --clean-first 2>&1 | tee "$app_log"
out=build/examples/saxpy
mkdir -p "$out"
echo "== kcc -O3 -arch=sm_90 examples/saxpy/saxpy.cu -o $out/saxpy"
build/install/bin/kcc -O3 -arch=sm_90 examples/saxpy/saxpy.cu -o "$out/saxpy"
saxpy_kernels=$(build/install/bin/kopt inspect examples/saxpy/saxpy.cu |
  python3 -c 'import json, sys; print(", ".join(k["name"] for k in json.load(sys.stdin)["kernels"]))')

echo
echo "== Summary"
echo "kopt $(build/install/bin/kopt --version | head -1 | awk '{print $NF}'): build/install/bin/kcc and kopt"
echo "  use it: export PATH=\"$PWD/build/install/bin:\$PATH\"; CMake: -DCMAKE_PREFIX_PATH=$PWD/build/install"
echo "examples/app -> build/examples/app/app, each kernel's variant (from examples/app/kopt-cache):"
sed -n 's/^kcc: note: .*main\.cu:[0-9]*: /  /p' "$app_log"
echo "examples/saxpy -> $out/saxpy, kernels kopt's front end found: $saxpy_kernels"
if build/install/bin/kopt device >/dev/null 2>&1; then
  build/install/bin/kopt device
  build/examples/app/app
  "$out/saxpy"
else
  echo "no GPU here: run build/examples/app/app and $out/saxpy on a machine with one"
fi
