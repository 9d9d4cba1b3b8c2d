#!/usr/bin/env bash
# One measurement pass on the GPU machine, from the repository root:
#   bench/gpu-pass.sh BUNDLE.tar.xz OUT_DIR [KERNELS] [BUDGET]
# 1. the installed GPU tests and the evaluator's throughput (kopt-eval-rate);
# 2. `kopt optimize` on examples/app (APP_BUDGET a kernel), whose cache becomes the
# example's committed project cache (app-cache.tgz), and the app built from it and
# with nvcc alone, both run; 3. PyTorch eager times and
# the naive suite built with nvcc and with kcc (which optimizes on each cache
# miss, BUDGET per kernel). Everything it measures lands in OUT_DIR.
# STEPS (default tests,rate,app,eager,suite; also overhead, record, textbook and apps) picks the parts, so
# that a long pass can be split over several device calls; SUITE_TIMEOUT bounds the suite
# (seconds). textbook: bench/textbook's files TEXTBOOK_ONLY (default all) through kcc at
# TEXTBOOK_BUDGET a kernel (default 60s), within TEXTBOOK_TIMEOUT seconds (default 560).
# apps: bench/apps' programs APPS_ONLY (default all) through kcc at APPS_BUDGET a kernel
# (default 15s), each build run 3 times and the naive one once more under the kernel-times
# library, within APPS_TIMEOUT seconds (default 560); split a full pass with APPS_ONLY and
# join the JSON reports with bench/merge_suite.py.
set -uo pipefail
steps=${STEPS:-tests,rate,app,eager,suite}
suite_timeout=${SUITE_TIMEOUT:-330}
want() { [[ ",$steps," == *",$1,"* ]]; }
bundle=$1
out=$2
only=${3:-matmul_square,matmul_rect,matmul_transposed_a,matmul_3d,gemm_bias_relu,conv2d,layer_norm,new_gelu,cross_entropy,conv2d_relu_maxpool}
budget=${4:-20s}
work=/tmp/kopt-pass
rm -rf "$work" && mkdir -p "$work/bundle" "$out"
tar -C "$work/bundle" -xJf "$bundle"
prefix=$(ls -d "$work"/bundle/kopt-*)
export PATH="$prefix/bin:$PATH"
date -u +%FT%TZ > "$out/pass.txt"
git rev-parse --short HEAD >> "$out/pass.txt" 2>/dev/null || true
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> "$out/pass.txt"

if want tests; then
  echo "== GPU tests" >> "$out/pass.txt"
  (cd "$prefix/libexec/kopt/tests" && ctest -L gpu --output-on-failure -V) > "$out/gpu-tests.log" 2>&1
  tail -3 "$out/gpu-tests.log" >> "$out/pass.txt"
fi

if want rate; then
  echo "== evaluator throughput" >> "$out/pass.txt"
  timeout 300 "$prefix/libexec/kopt/bench/kopt-eval-rate" --variants ${RATE_VARIANTS:-20} > "$out/eval-rate.txt" 2>&1
  cat "$out/eval-rate.txt" >> "$out/pass.txt"
fi

if want app; then
  echo "== kopt optimize examples/app" >> "$out/pass.txt"
  timeout 200 kopt optimize examples/app/main.cu --kopt-cache-dir="$work/app-cache" \
    --kopt-budget=${APP_BUDGET:-60s} -- -O3 -arch=sm_90 > "$out/optimize-app.txt" 2>&1
  echo "exit $?" >> "$out/pass.txt"
  tail -4 "$out/optimize-app.txt" >> "$out/pass.txt"
  # The app built from the new entries as a project cache (what a machine without a
  # GPU gets) and with nvcc alone, each run three times.
  kopt cache export "$work/app-src/kopt-cache" --kopt-cache-dir="$work/app-cache" >> "$out/pass.txt" 2>&1
  cp examples/app/CMakeLists.txt examples/app/.kopt.yaml examples/app/*.cu examples/app/*.cpp \
    examples/app/*.h "$work/app-src/"
  tar -C "$work/app-src" -czf "$out/app-cache.tgz" kopt-cache
  (cmake -S "$work/app-src" -B "$work/app-kcc" -DCMAKE_PREFIX_PATH="$prefix" &&
    cmake --build "$work/app-kcc") > "$out/app-build.txt" 2>&1
  grep "kcc: note" "$out/app-build.txt" >> "$out/pass.txt"
  nvcc -O3 -arch=sm_90 examples/app/main.cu examples/app/check.cpp -o "$work/app-nvcc" >> "$out/app-build.txt" 2>&1
  for i in 1 2 3; do "$work/app-nvcc" | sed 's/^/nvcc build: /'; "$work/app-kcc/app" | sed 's/^/kcc build: /'; done >> "$out/pass.txt" 2>&1
fi

if want eager; then
  echo "== PyTorch eager ($only)" >> "$out/pass.txt"
  timeout 300 python3 bench/torch_eager.py --only "$only" --out "$out/eager.json" > "$out/eager.log" 2>&1
  echo "torch exit $?" >> "$out/pass.txt"
fi

if want overhead; then
  # kcc against nvcc with a warm cache in direct mode (the script warms its own user
  # cache, checks that kcc takes a direct hit, and fails otherwise); goal <= 1.10.
  echo "== compile overhead, examples/app/main.cu (committed cache)" >> "$out/pass.txt"
  python3 bench/compile_overhead.py --kcc "$prefix/bin/kcc" --runs 15 --self-runs 0 \
    examples/app/main.cu -- -O3 -arch=sm_90 > "$out/overhead.txt" 2>&1
  tail -6 "$out/overhead.txt" >> "$out/pass.txt"
  # Where the rest goes: nvcc alone on the TU kcc writes (the variants beside the
  # originals) against nvcc on the source, 7 runs each, interleaved.
  keep="$work/overhead-keep"
  rm -rf "$keep" && mkdir -p "$keep"
  (cd "$keep" && kcc --kopt-keep -O3 -arch=sm_90 -c "$OLDPWD/examples/app/main.cu" -o k.o) > /dev/null 2>&1
  cp "$keep"/k.o.kopt/main.cu examples/app/kopt-rewritten.cu 2> /dev/null &&
    for i in 1 2 3 4 5 6 7; do
      TIMEFORMAT="nvcc-source %R"
      { time nvcc -O3 -arch=sm_90 -c examples/app/main.cu -o "$keep/a.o"; } 2>> "$out/overhead-tu.txt"
      TIMEFORMAT="nvcc-rewritten %R"
      { time nvcc -O3 -arch=sm_90 -c examples/app/kopt-rewritten.cu -o "$keep/b.o"; } 2>> "$out/overhead-tu.txt"
    done
  rm -f examples/app/kopt-rewritten.cu
  sort "$out/overhead-tu.txt" 2> /dev/null | awk '{a[$1] = a[$1] " " $2} END {for (k in a) print k ":" a[k]}' >> "$out/pass.txt"
fi

if want record; then
  echo "== recording overhead (bench/record_overhead.sh)" >> "$out/pass.txt"
  bench/record_overhead.sh "$prefix/bin/kopt" "$out" >> "$out/pass.txt" 2>&1 ||
    echo "record_overhead.sh failed" >> "$out/pass.txt"
fi

# One of bench/'s other suites through kcc: suite_pass SUITE ONLY BUDGET TIMEOUT TITLE.
suite_pass() {
  echo "== $5 (${2:-all}, budget $3)" >> "$out/pass.txt"
  timeout "$4" python3 bench/suite.py --suite "$1" --kcc "$prefix/bin/kcc" \
    ${2:+--only "$2"} --jobs 8 --build-dir "$work/$1" \
    --out-md "$out/$1.md" --out-json "$out/$1.json" \
    --kopt-budget="$3" --kopt-cache-dir="$work/$1-cache" \
    --kopt-verbose > "$out/$1.log" 2>&1
  echo "$1 exit $?" >> "$out/pass.txt"
  grep -i "geomean\|geometric\|slower" "$out/$1.md" >> "$out/pass.txt" 2>/dev/null
}
want textbook && suite_pass textbook "${TEXTBOOK_ONLY:-}" "${TEXTBOOK_BUDGET:-60s}" \
  "${TEXTBOOK_TIMEOUT:-560}" "textbook suite"
want apps && suite_pass apps "${APPS_ONLY:-}" "${APPS_BUDGET:-15s}" "${APPS_TIMEOUT:-560}" \
  "application suite"

want suite || { cat "$out/pass.txt"; exit 0; }
echo "== bench suite ($only, budget $budget)" >> "$out/pass.txt"
eager_json=${EAGER_JSON:-$out/eager.json}
timeout "$suite_timeout" python3 bench/suite.py --kcc "$prefix/bin/kcc" --only "$only" --jobs 8 \
  --build-dir "$work/suite" --torch-json "$eager_json" --out-md "$out/suite.md" \
  --out-json "$out/suite.json" --kopt-budget="$budget" --kopt-cache-dir="$work/suite-cache" \
  --kopt-verbose > "$out/suite.log" 2>&1
echo "suite exit $?" >> "$out/pass.txt"
tar -C "$work" -czf "$out/caches.tgz" app-cache suite-cache 2>/dev/null
cat "$out/pass.txt"
