#!/usr/bin/env bash
# `kopt record` on a solver-like program (issue 17): 100 launches whose grid
# shrinks with k. Checks, on the GPU:
#   - the app's output is byte-identical with and without the recorder;
#   - the recording holds all 100 distinct launches, each timed, and
#     program.json the kernel's GPU time;
#   - a variant right only for the middle k (the pragma's k) is rejected on a
#     recorded launch, which the verdict names;
#   - a correct variant passes on every recorded launch;
#   - kopt optimize verifies on the recorded launches, and a variant that
#     remaps the launch (block-size, forced first by the pragma) is evaluated
#     with its launch mapped for each recorded launch, not rejected;
#   - timing is weighted by the launches' counts: kopt eval and kopt optimize
#     report the weighted speedup and the recorded launches it was timed on;
#   - a cached variant verified on a recording of k = 0..49 is re-verified by
#     kcc (mode optimize) once the app is recorded with k up to 99; one wrong
#     beyond k = 60 is rejected there, and the kernel optimized again.
# Exit 77 (ctest: skipped) where no GPU is usable.
# Usage: record-solver.sh KOPT INPUTS_DIR [WORK_DIR] [ARCH]   (ARCH default: sm_90)
set -u
kopt=$1 inputs=$2 work=${3:-$(mktemp -d)} arch=${4:-sm_90}
[ -x "$kopt" ] || { echo "record-solver: no kopt at $kopt" >&2; exit 1; }
src=$inputs/solver.cu
[ -f "$src" ] || { echo "record-solver: no solver.cu in $inputs" >&2; exit 1; }
if ! "$kopt" device > /dev/null 2>&1; then
  echo "record-solver: no usable GPU ($("$kopt" device 2>&1 | head -1)): skipped"
  exit 77
fi
fail() { echo "record-solver: FAILED: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
cache="--kopt-cache-dir=$work/cache"
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
"$nvcc" -O3 -arch="$arch" -o "$work/app" "$src" || fail "nvcc could not build the app"

"$work/app" > "$work/plain.txt" || fail "the app failed without the recorder"
"$kopt" record "$cache" --kernel eliminate -- "$work/app" > "$work/recorded.txt" 2> "$work/record.log" ||
  { cat "$work/record.log"; fail "kopt record failed"; }
cat "$work/record.log"
grep -q '^eliminate: ' "$work/recorded.txt" || { cat "$work/recorded.txt"; fail "the app printed nothing under the recorder"; }
cmp -s <(grep '^eliminate: ' "$work/plain.txt") <(grep '^eliminate: ' "$work/recorded.txt") ||
  fail "the app's output differs under the recorder: $(cat "$work/plain.txt") vs $(grep '^eliminate: ' "$work/recorded.txt")"
rec=$(ls "$work"/cache/recordings/*.krec 2>/dev/null | head -1)
[ -n "$rec" ] || fail "no recording in $work/cache/recordings"
"$kopt" record --show "$rec" | tee "$work/show.txt" | head -3
grep -q ': 100 distinct launches, 100 launches' "$work/show.txt" || fail "the recording does not hold 100 distinct launches"
# Each distinct launch is timed; the program's GPU time by kernel is left for kcc's build budget.
grep -qE ': 100 distinct launches, 100 launches, [0-9]+ bytes of buffer contents, [0-9.]+ m?s on the GPU' "$work/show.txt" ||
  fail "the recording does not say the kernel's GPU time"
python3 - "$work/cache/recordings/program.json" <<'PY' || fail "kopt record left no usable program.json"
import json, sys
p = json.load(open(sys.argv[1]))
(k,) = p["kernels"]
assert k["launches"] == 100 and 0 < k["gpu_seconds"] < 10, k
print("program.json:", k["symbol"], k["launches"], "launches,", round(k["gpu_seconds"] * 1e3, 3), "ms on the GPU")
PY

# Wrong except near the middle k, which the pragma's workload uses.
sed 's|A\[i \* n + j\] -= f \* A\[k \* n + j\];|A[i * n + j] -= (k < 40 \|\| k > 60 ? -f : f) * A[k * n + j];|' \
  "$src" > "$work/wrong.cu"
grep -q 'k > 60' "$work/wrong.cu" || fail "could not make the wrong variant"
"$kopt" eval "$src" "$cache" --variant "$work/wrong.cu" --no-profile -- -arch="$arch" > "$work/wrong.txt" 2>&1
cat "$work/wrong.txt"
grep -q '^  recorded: ' "$work/wrong.txt" || fail "kopt eval did not use the recording"
grep -q '^  variant:  wrong' "$work/wrong.txt" || fail "the variant wrong at most k was not rejected"
grep -q 'recorded launch #' "$work/wrong.txt" || fail "the rejection does not name the recorded launch"

sed 's|__global__ void eliminate(float \*A|__global__ void eliminate(float *__restrict__ A|' "$src" > "$work/right.cu"
"$kopt" eval "$src" "$cache" --variant "$work/right.cu" --no-profile -- -arch="$arch" > "$work/right.txt" 2>&1
cat "$work/right.txt"
grep -qE '^  variant:  (faster|not_faster)' "$work/right.txt" || fail "a correct variant did not pass"

"$kopt" optimize "$src" "$cache" --kopt-engine=skills --kopt-budget=45s -- -arch="$arch" > "$work/optimize.txt" 2>&1
status=$?
cat "$work/optimize.txt"
[ "$status" -eq 0 ] || fail "kopt optimize exited with $status"
grep -q 'verifying on 16 launches recorded' "$work/optimize.txt" || fail "kopt optimize did not verify on the recorded launches"
grep -q 'launches for the recorded launches are missing' "$work/optimize.txt" "$work"/cache/entries/*/*.json 2>/dev/null &&
  fail "a variant that remaps the launch was rejected for want of its recorded launches"
grep -E '\] block-size' "$work/optimize.txt" | grep -qE ' (faster|not_faster|promising) ' ||
  fail "no block-size variant was verified on the recorded launches"
grep -q 'timing weighted by launch counts: .* recorded launch.* timed' "$work/optimize.txt" ||
  fail "kopt optimize did not weigh the timing by the recorded launch counts"
grep -qE '^  weighted: [0-9.]+x of the application.s time, [0-9]+ recorded launch(es)? timed \(#[0-9]+ [0-9]+% [0-9.]+x' "$work/right.txt" ||
  fail "kopt eval did not report the weighted speedup and its launches"
"$kopt" eval "$src" "$cache" --variant "$work/right.cu" --no-profile --json -- -arch="$arch" > "$work/right.json" 2>&1
python3 - "$work/right.json" <<'PY' || fail "the weighted timing in kopt eval --json is inconsistent"
import json, sys
out = json.load(open(sys.argv[1]))
w = out["variant"]["weighted"]
launches = w["launches"]
assert 1 <= len(launches) <= 3, launches
assert abs(sum(l["share"] for l in launches) - 1) < 1e-9, launches
assert w["application_launches"] == 100, w
# The verdict's speedup is the weighted one, and agrees with the per-launch medians.
assert w["speedup"] == out["variant"]["speedup"], (w, out["variant"]["speedup"])
assert abs(w["speedup"] / w["speedup_of_medians"] - 1) < 0.1, w
print("weighted:", w["speedup"], [(l["id"], round(l["share"], 3), round(l["speedup"], 3)) for l in launches])
PY

# Re-verification: the app with 50 steps is recorded and optimized (its
# entry records k = 0..49), then the entry's variant is replaced by one that
# is wrong beyond k = 60 (as if it had been verified on those launches only).
half="$work/half"
mkdir -p "$half"
sed 's/#define STEPS 100/#define STEPS 50/' "$src" > "$half/solver.cu"
"$nvcc" -O3 -arch="$arch" -o "$half/app" "$half/solver.cu" || fail "nvcc could not build the 50-step app"
"$kopt" record --kopt-cache-dir="$half/cache" --kernel eliminate -- "$half/app" > /dev/null 2>&1 ||
  fail "kopt record failed on the 50-step app"
"$kopt" optimize "$half/solver.cu" --kopt-cache-dir="$half/cache" --kopt-engine=skills --kopt-budget=20s \
  -- -arch="$arch" > "$half/optimize.txt" 2>&1 || { cat "$half/optimize.txt"; fail "kopt optimize failed on the 50-step app"; }
entry=$(ls "$half"/cache/entries/*/*.json | head -1)
python3 - "$entry" <<'PY' || fail "could not rewrite the entry"
import hashlib, json, re, sys
# kopt's checksum is over its own dump of the payload; Python would print some
# of its floats differently (nlohmann's shortest form is not always Python's),
# so the numbers read keep the text kopt wrote.
Mark = "@kopt-number:"
def numbers(text):
    return re.sub('"' + Mark + '([^"]*)"', r"\1", text)
def value(v):
    return float(v[len(Mark):]) if isinstance(v, str) and v.startswith(Mark) else v
path = sys.argv[1]
doc = json.load(open(path), parse_float=lambda s: Mark + s)
p = doc["payload"]
w = p["workloads"]
k = [s for s in w["scalars"] if s["name"] == "k"][0]
assert (value(k["min"]), value(k["max"])) == (0, 49), k
p["variant"] = {"kernel": "eliminate", "variant_name": "", "launch": None, "code":
    "__global__ void eliminate(float *A, int n, int k)\n{\n"
    "    int i = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) {\n        float f = A[i * n + k] / A[k * n + k];\n"
    "        for (int j = k; j < n; j++)\n"
    "            A[i * n + j] -= (k > 60 ? -f : f) * A[k * n + j];\n    }\n}"}
p["speedup"] = 1.25
p["provenance"]["skills"] = ["wrong-beyond-60"]
dump = numbers(json.dumps(p, separators=(",", ":"), sort_keys=True, ensure_ascii=False))
doc["checksum"] = "sha256:" + hashlib.sha256(dump.encode()).hexdigest()
open(path, "w").write(numbers(json.dumps(doc, indent=1, ensure_ascii=False)))
PY
kcc=$(dirname "$kopt")/kcc
export KOPT_NVCC="$nvcc"
"$kcc" --kopt-mode=cache-only --kopt-cache-dir="$half/cache" -arch="$arch" -c "$half/solver.cu" -o "$half/hit.o" \
  > "$half/hit.txt" 2>&1 || { cat "$half/hit.txt"; fail "kcc failed on the cached entry"; }
grep -q 'not verified on the new recording' "$half/hit.txt" && fail "the recording verified on was called new"
grep -q 'wrong-beyond-60' "$half/hit.txt" || { cat "$half/hit.txt"; fail "kcc did not use the rewritten entry (its checksum?)"; }
# The 100-step app recorded into the same cache: k = 50..99 are new.
rm -f "$half"/cache/recordings/*.krec
"$kopt" record --kopt-cache-dir="$half/cache" --kernel eliminate -- "$work/app" > /dev/null 2>&1 ||
  fail "kopt record failed on the 100-step app"
"$kcc" --kopt-mode=cache-only --kopt-cache-dir="$half/cache" -arch="$arch" -c "$half/solver.cu" -o "$half/note.o" \
  > "$half/note.txt" 2>&1 || { cat "$half/note.txt"; fail "kcc failed in cache-only mode"; }
cat "$half/note.txt"
grep -q 'cached variant used, not verified on the new recording (recorded launch #[0-9]* (n = 512; k = [0-9]*;.*k = [0-9]* is outside the verified 0..49): mode cache-only' \
  "$half/note.txt" || fail "cache-only kcc did not note the new recording"
"$kcc" --kopt-mode=optimize --kopt-budget=20s --kopt-engine=skills --kopt-cache-dir="$half/cache" -arch="$arch" \
  -c "$half/solver.cu" -o "$half/optimize.o" > "$half/reverify.txt" 2>&1 ||
  { cat "$half/reverify.txt"; fail "kcc failed in mode optimize"; }
cat "$half/reverify.txt"
grep -q 're-verifying the cached variant on the new recording (50 launches beyond those verified' "$half/reverify.txt" ||
  fail "kcc did not re-verify the cached variant on the new recording"
grep -q 'cached variant rejected on the new recording (wrong: recorded launch #[0-9]* (n = 512; k = \(6[1-9]\|[7-9][0-9]\)' \
  "$half/reverify.txt" || fail "the variant wrong beyond k = 60 was not rejected on a launch beyond k = 60"
grep -q 'wrong-beyond-60' "$half"/cache/entries/*/*.json && fail "the rejected variant is still cached"
echo "record-solver: passed"
