#!/usr/bin/env bash
# The recorder's overhead (issue 17): `kopt record` of every launch of a
# 100-launch solver loop on a 64 MiB matrix (test/gpu/inputs/solver.cu at
# N = 4096: each launch reads and writes the whole matrix, so each is recorded
# before and after, 128 MiB a launch), against the cost of the copies it makes
# (bench/record/copy_cost.cu: device to pageable host, then a file, as the
# recorder does). Goal: the overhead is at most those copies.
#   bench/record_overhead.sh KOPT OUT_DIR [ARCH]      (from the repository root)
# Prints, and writes to OUT_DIR/record-overhead.txt, for each of RUNS rounds
# (default 3, after a warm-up run of the app): the app's seconds without and
# with the recorder, the bytes recorded, the copies' cost for those bytes, and
# overhead / cost; then the median of overhead / cost.
set -euo pipefail
kopt=$1 out=$2 arch=${3:-sm_90}
work=$(mktemp -d /tmp/kopt-record-overhead.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
"$nvcc" -O3 -arch="$arch" -DN=4096 -o "$work/app" test/gpu/inputs/solver.cu
"$nvcc" -O3 -arch="$arch" -o "$work/copy_cost" bench/record/copy_cost.cu

seconds() { # wall seconds of "$@"
  local t0 t1
  t0=$(date +%s.%N)
  "$@" > /dev/null 2>&1 || { echo "record_overhead: failed: $*" >&2; exit 1; }
  t1=$(date +%s.%N)
  python3 -c "print($t1 - $t0)"
}
record() {
  "$kopt" record --kopt-cache-dir="$work/cache" --kernel eliminate --max-bytes 16G -- "$work/app"
}
"$work/app" > /dev/null # Warm: the driver's first context, the binary in the page cache.
# RUNS rounds of app, recording and copies, interleaved, so that a slow round
# (a fresh machine's first writes of 12 GiB) weighs on both sides; the medians
# are compared.
runs=()
for round in $(seq "${RUNS:-3}"); do
  plain=$(seconds "$work/app")
  rm -rf "$work/cache"
  recorded=$(seconds record)
  summary=$("$kopt" record --show "$work"/cache/recordings/*.krec | grep 'distinct launches')
  bytes=$(sed -E 's/.* ([0-9]+) bytes of buffer contents.*/\1/' <<< "$summary")
  # The same volume as the recording: a file cache that absorbs 2 GiB may not absorb 12.
  "$work/copy_cost" 64 $(((bytes + (64 << 20) - 1) / (64 << 20))) "$work/copy.bin" > "$work/copy.txt"
  rm -f "$work/copy.bin"
  per_gib=$(sed -E 's/copy and write: ([0-9.]+) s\/GiB.*/\1/' "$work/copy.txt")
  runs+=("$plain $recorded $bytes $per_gib")
done
python3 - "$summary" "${runs[@]}" <<'PY' | tee "$out/record-overhead.txt"
import statistics, sys
print(f"recording: {sys.argv[1]}")
ratios = []
for i, run in enumerate(sys.argv[2:], 1):
    plain, recorded, nbytes, per_gib = map(float, run.split())
    cost = nbytes / 2**30 * per_gib
    over = recorded - plain
    ratios.append(over / cost)
    print(f"round {i}: app alone {plain:.3f} s, under kopt record {recorded:.3f} s: overhead {over:.3f} s; "
          f"copies {nbytes / 2**30:.2f} GiB at {per_gib:.3f} s/GiB (device to pageable host, then a file) "
          f"= {cost:.3f} s; overhead / copies {over / cost:.2f}")
print(f"overhead / copies, median of {len(ratios)}: {statistics.median(ratios):.2f} (goal <= 1)")
PY
