#!/usr/bin/env bash
# A program dominated by one kernel of about a second (issue 31's goal: at 15 s
# a kernel such as this gets >= 10x where 60 s gets 30x). Calibrates
# bench/long_kernel/feature_stats.cu's SAMPLES so that the naive kernel takes
# about 1 s on this GPU (kopt eval, no profile), builds it with nvcc and with
# kcc at --kopt-budget=15s and =60s (a cache each, skills engine), runs each
# program (its own check and timing) and prints a table: kernel ms, speedup,
# check, and kcc's note on the kernel.
# Usage: bench/long_kernel.sh PREFIX OUT [ARCH]   (PREFIX: an installed kopt; ARCH default sm_90)
set -u
prefix=$1 out=$2 arch=${3:-sm_90}
kopt=$prefix/bin/kopt kcc=$prefix/bin/kcc
src=$(cd "$(dirname "$0")" && pwd)/long_kernel/feature_stats.cu
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
mkdir -p "$out"
fail() { echo "long_kernel: $*" >&2; exit 1; }

# 64 features: one block of threads, each walking a row of SAMPLES (as a
# per-channel statistic over a long recording is written).
features=64 probe=262144
"$kopt" eval "$src" --no-profile -- -arch="$arch" -DFEATURES=$features -DSAMPLES=$probe > "$out/probe.txt" 2>&1 ||
  { cat "$out/probe.txt"; fail "kopt eval of the probe failed"; }
probe_ms=$(sed -n 's/^ *original: \([0-9.]*\) ms median.*/\1/p' "$out/probe.txt" | head -1)
[ -n "$probe_ms" ] || { cat "$out/probe.txt"; fail "no median in kopt eval's output"; }
samples=$(awk -v p=$probe -v ms="$probe_ms" 'BEGIN { s = int(p * 1000 / ms / 1024) * 1024;
  if (s < 1024) s = 1024; if (s > 16777216) s = 16777216; print s }')
echo "long_kernel: $probe samples take $probe_ms ms; using $samples"

"$nvcc" -O3 -arch="$arch" -DFEATURES=$features -DSAMPLES=$samples -o "$out/naive" "$src" 2> /dev/null || fail "nvcc failed"
"$out/naive" > "$out/naive.txt"; echo "naive: $(cat "$out/naive.txt")"
naive_ms=$(sed -n 's/.* ms=\([0-9.]*\) .*/\1/p' "$out/naive.txt")
printf '| budget | kcc build s | kernel ms | speedup | check | kcc note |\n| --- | ---: | ---: | ---: | --- | --- |\n' > "$out/table.md"
printf '| nvcc | | %s | 1.00x | %s | |\n' "$naive_ms" "$(sed -n 's/.*check=\([a-zA-Z]*\).*/\1/p' "$out/naive.txt")" >> "$out/table.md"
for budget in 15s 60s; do
  start=$(date +%s)
  KOPT_CACHE_DIR="$out/cache-$budget" "$kcc" --kopt-mode=optimize --kopt-engine=skills \
    --kopt-budget=$budget -O3 -arch="$arch" -DFEATURES=$features -DSAMPLES=$samples -o "$out/kcc-$budget" "$src" \
    2> "$out/kcc-$budget.log" || { cat "$out/kcc-$budget.log"; fail "kcc failed at $budget"; }
  took=$(($(date +%s) - start))
  "$out/kcc-$budget" > "$out/run-$budget.txt"
  echo "kcc $budget ($took s): $(cat "$out/run-$budget.txt")"
  ms=$(sed -n 's/.* ms=\([0-9.]*\) .*/\1/p' "$out/run-$budget.txt")
  grep 'feature_stats: ' "$out/kcc-$budget.log"
  note=$(grep 'feature_stats: ' "$out/kcc-$budget.log" | tail -1 | sed 's/.*feature_stats: //; s/|/\\|/g')
  printf '| %s | %s | %s | %s | %s | %s |\n' "$budget" "$took" "$ms" \
    "$(awk -v a="$naive_ms" -v b="$ms" 'BEGIN { printf "%.2fx", a / b }')" \
    "$(sed -n 's/.*check=\([a-zA-Z]*\).*/\1/p' "$out/run-$budget.txt")" "$note" >> "$out/table.md"
done
cat "$out/table.md"
