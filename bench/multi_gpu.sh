#!/usr/bin/env bash
# One GPU against two (issue 33): `kopt optimize` of bench/textbook files with
# KOPT_DEVICES=0, then KOPT_DEVICES=0,1, each into a fresh cache; prints both
# wall times, their ratio (goal: two GPUs take <= 0.55x of one), and, kernel by
# kernel, whether both runs chose the same steps and how far their speedups
# are apart. From the repository root, on a host with 2 GPUs:
#   bench/multi_gpu.sh KOPT OUT_DIR [FILES] [BUDGET]
# FILES: textbook file names without .cu, separated by commas (default below);
# BUDGET: --kopt-budget a kernel (default 30s). RUNS=1 or RUNS=2 runs one side
# only (a device call has 10 minutes), the other side's output kept in OUT_DIR.
set -uo pipefail
kopt=$1 out=$2
files=${3:-atax,bicg,gesummv,mvt,jacobi2d,conv2d_3x3,heat3d,gemm}
budget=${4:-30s}
runs=${RUNS:-1,2}
mkdir -p "$out"
paths=()
for f in ${files//,/ }; do
  [ -f "bench/textbook/$f.cu" ] || { echo "multi_gpu: no bench/textbook/$f.cu" >&2; exit 1; }
  paths+=("bench/textbook/$f.cu")
done
gpus=$("$kopt" device 2>/dev/null | grep -c '^device ')
echo "$(date -u +%FT%TZ) $(git rev-parse --short HEAD 2>/dev/null) $gpus GPUs:" \
  "$("$kopt" device 2>/dev/null | sed -n 's/^device 0: \([^,]*\),.*/\1/p')"
run() { # SIDE DEVICES
  rm -rf "$out/cache-$1"
  local start end
  start=$(date +%s.%N)
  KOPT_DEVICES=$2 "$kopt" optimize "${paths[@]}" --kopt-engine=skills --kopt-budget="$budget" \
    --kopt-cache-dir="$out/cache-$1" -- -O3 -arch=sm_90 > "$out/run-$1.txt" 2>&1
  echo "exit $?" >> "$out/run-$1.txt"
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f\n", b - a }' > "$out/wall-$1.txt"
  echo "KOPT_DEVICES=$2: $(cat "$out/wall-$1.txt") s ($(tail -1 "$out/run-$1.txt"))"
}
[[ ",$runs," == *",1,"* ]] && run 1 0
[[ ",$runs," == *",2,"* ]] && run 2 0,1
[ -f "$out/wall-1.txt" ] && [ -f "$out/wall-2.txt" ] || exit 0
one=$(cat "$out/wall-1.txt") two=$(cat "$out/wall-2.txt")
awk -v a="$one" -v b="$two" 'BEGIN { printf "one GPU %.1f s, two GPUs %.1f s: %.2fx of the time on one (goal <= 0.55)\n", a, b, b / a }'
# The tables: kernel original best speedup variants evals s/eval seconds steps...
table() { sed -n '/^kernel  *original ms/,$p' "$1" | tail -n +2 | grep -v '^exit ' | grep -v '^$'; }
join -j1 <(table "$out/run-1.txt" | awk '{s = ""; for (i = 9; i <= NF; ++i) s = s (i > 9 ? "+" : "") $i; print $1, $4, s}' | sort) \
         <(table "$out/run-2.txt" | awk '{s = ""; for (i = 9; i <= NF; ++i) s = s (i > 9 ? "+" : "") $i; print $1, $4, s}' | sort) |
  awk '{ same = ($3 == $5); a = $2 + 0; b = $4 + 0; d = a > b ? a / b : b / a;
         printf "%-28s one %-8s two %-8s %s%s\n", $1, $2, $4, same ? "same steps" : "other steps", same ? sprintf(" (speedups %.0f%% apart)", 100 * (d - 1)) : ": " $3 " | " $5;
         n++; agree += same }
       END { printf "%d of %d kernels chose the same steps on one GPU and on two\n", agree, n }'
