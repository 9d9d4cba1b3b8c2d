#!/usr/bin/env bash
# The llm engine's loop with the real evaluator: `kopt optimize --kopt-engine=llm`
# on a small kernel against recorded replies (replay_server.py, no network):
# the coder's kernel does not compile and goes to the debugger; the repaired
# one is verified on the GPU against the original and timed (faster or not:
# the test does not judge the H100's timing). Exit 77 (ctest: skipped) where
# no GPU is usable.
# Usage: llm-loop.sh KOPT INPUTS_DIR [WORK_DIR]   (default: a new temporary directory)
set -u
kopt=$1 inputs=$2 work=${3:-$(mktemp -d)}
[ -x "$kopt" ] || { echo "llm-loop: no kopt at $kopt" >&2; exit 1; }
[ -f "$inputs/replay_server.py" ] || { echo "llm-loop: no replay server in $inputs" >&2; exit 1; }
if ! "$kopt" device > /dev/null 2>&1; then
  echo "llm-loop: no usable GPU ($("$kopt" device 2>&1 | head -1)): skipped"
  exit 77
fi
python=$(command -v python3) || { echo "llm-loop: python3 is needed for the replay server" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
secret=sk-gpu-test-secret-5678
env TEST_LLM_KEY=$secret "$python" "$inputs/replay_server.py" --replies "$inputs/openai-repair" \
  --record "$work/requests.jsonl" -- \
  "$kopt" optimize "$inputs/loop/scale.cu" --kopt-engine=llm --kopt-llm-model=gpt-4o \
  --kopt-llm-api-key-env=TEST_LLM_KEY --kopt-cache-dir="$work/cache" -- -arch=sm_90 \
  > "$work/out.txt" 2>&1
status=$?
cat "$work/out.txt"
fail() { echo "llm-loop: FAILED: $*" >&2; exit 1; }
[ "$status" -eq 0 ] || fail "kopt optimize exited with $status"
expect() { grep -qE "$1" "$work/out.txt" || fail "no output line matches '$1'"; }
expect '^scale: \(engine llm\)$'
expect '^  \[ 0 +[0-9.]+s\] vectorize-16b +compile_error '
expect '^  \[ 1 +[0-9.]+s\] vectorize-16b:repair=1 +(faster|not_faster) +[0-9.]+x '
expect '^  llm gpt-4o: 3232 input \+ 703 output tokens in 3 requests, \$0\.0151$'
expect '^  -> (verified variant \(vectorize-16b:repair=1\)|no variant beat the original)'
[ "$(grep -c '"path"' "$work/requests.jsonl")" -eq 3 ] || fail "expected 3 requests"
grep -rq "$secret" "$work/out.txt" "$work/cache" && fail "the API key reached the output or the cache"
entry=$(ls "$work"/cache/entries/*/*.json) || fail "no cache entry"
grep -q '"engine": "llm"' "$entry" || fail "the entry's provenance lacks engine llm"
echo "llm-loop: passed"
