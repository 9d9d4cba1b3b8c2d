#!/usr/bin/env bash
# Entries for the GPU model they were made on (docs/gpus.md, "GPU models"):
# kcc in mode optimize makes an entry (the architecture's key) and hits it;
# once that entry says another model made it, kcc optimizes again for this
# GPU's model and stores under the model's key, which the next build hits,
# while a cache-only build (a machine without a GPU) still reads the
# architecture's entry. Exit 77 (ctest: skipped) where no GPU is usable.
# Usage: model-entries.sh KOPT INPUTS_DIR [WORK_DIR] [ARCH]   (kcc beside kopt; ARCH default sm_90)
set -u
kopt=$1 inputs=$2 work=${3:-$(mktemp -d)} arch=${4:-sm_90}
kcc=$(dirname "$kopt")/kcc
[ -x "$kopt" ] && [ -x "$kcc" ] || { echo "model-entries: no kopt/kcc beside $kopt" >&2; exit 1; }
if ! "$kopt" device > /dev/null 2>&1; then
  echo "model-entries: no usable GPU ($("$kopt" device 2>&1 | head -1)): skipped"
  exit 77
fi
fail() { echo "model-entries: FAILED: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
model=$("$kopt" device | sed -n 's/^device 0: \([^,]*\),.*/\1/p')
compile() { # NAME [kcc options]
  local name=$1
  shift
  CUDA_VISIBLE_DEVICES=0 "$kcc" --kopt-engine=skills --kopt-budget=8s --kopt-cache-dir="$work/cache" \
    --kopt-verbose "$@" -arch="$arch" -DITERS=4096 -c "$inputs/slow.cu" -o "$work/$name.o" \
    > "$work/$name.txt" 2>&1 || { cat "$work/$name.txt"; fail "kcc ($name) failed"; }
}
entries() { ls "$work"/cache/entries/*/*.json 2>/dev/null | wc -l; }

compile first --kopt-mode=optimize
grep -q 'optimizing for' "$work/first.txt" || { cat "$work/first.txt"; fail "the first build did not optimize"; }
[ "$(entries)" -eq 1 ] || fail "$(entries) entries after the first build"
compile again --kopt-mode=optimize
! grep -q 'optimizing for' "$work/again.txt" || { cat "$work/again.txt"; fail "the entry of this model was not used"; }

# The entry now says another model made it (its checksum made again).
entry=$(ls "$work"/cache/entries/*/*.json)
python3 - "$entry" <<'PY' || fail "could not rewrite the entry"
import hashlib, json, re, sys
# kopt's checksum is over its own dump of the payload: numbers keep kopt's text.
Mark = "@kopt-number:"
def numbers(text):
    return re.sub('"' + Mark + '([^"]*)"', r"\1", text)
path = sys.argv[1]
doc = json.load(open(path), parse_float=lambda s: Mark + s)
doc["payload"]["provenance"]["device"] = "NVIDIA Other GPU"
dump = numbers(json.dumps(doc["payload"], separators=(",", ":"), sort_keys=True, ensure_ascii=False))
doc["checksum"] = "sha256:" + hashlib.sha256(dump.encode()).hexdigest()
open(path, "w").write(numbers(json.dumps(doc, indent=1, ensure_ascii=False)))
PY
compile other --kopt-mode=optimize
cat "$work/other.txt"
grep -q "cache miss: the entry for $arch was made on NVIDIA Other GPU, this GPU is $model" "$work/other.txt" ||
  fail "no miss for the other model's entry"
grep -q 'optimizing for' "$work/other.txt" || fail "kcc did not optimize for $model"
[ "$(entries)" -eq 2 ] || fail "$(entries) entries, not 2 (the other model's and this model's)"
grep -l "\"device\": \"$model\"" "$work"/cache/entries/*/*.json > /dev/null ||
  fail "no entry made on $model"
compile model --kopt-mode=optimize
! grep -q 'optimizing for' "$work/model.txt" || { cat "$work/model.txt"; fail "the model's entry was not used"; }
compile nogpu --kopt-mode=cache-only
grep -q 'on NVIDIA Other GPU' "$work/nogpu.txt" || { cat "$work/nogpu.txt"; fail "cache-only did not read the architecture's entry"; }
echo "model-entries: passed"
