#!/usr/bin/env bash
# What application code writes, evaluated on the GPU (issue 35 item 1): kopt eval
# runs template kernels under their launched instantiation (box<2>, tileSum<16, 8>),
# enum parameters given enumerators, a template-typed scalar (IdxT) and sizes from
# <cmath> calls; then kopt optimize finds and verifies a variant of a template
# kernel, spliced as that instantiation's explicit specialization. Exit 77 (ctest:
# skipped) where no GPU is usable.
# Usage: app-kernels.sh KOPT TEMPLATES.cu PARAMS.cu [WORK_DIR] [ARCH]   (ARCH default: sm_90)
set -u
kopt=$1 templates=$2 params=$3 work=${4:-$(mktemp -d)} arch=${5:-sm_90}
[ -x "$kopt" ] || { echo "app-kernels: no kopt at $kopt" >&2; exit 1; }
for f in "$templates" "$params"; do
  [ -f "$f" ] || { echo "app-kernels: no input $f" >&2; exit 1; }
done
if ! "$kopt" device > /dev/null 2>&1; then
  echo "app-kernels: no usable GPU ($("$kopt" device 2>&1 | head -1)): skipped"
  exit 77
fi
fail() { echo "app-kernels: FAILED: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"

# Every annotated kernel evaluates: one "original:" line each, no error.
evaluate() { # FILE KERNEL...
  local file=$1; shift
  for kernel in "$@"; do
    "$kopt" eval "$file" --kernel "$kernel" --no-profile -- -arch="$arch" > "$work/$kernel.txt" 2>&1 ||
      { cat "$work/$kernel.txt"; fail "kopt eval of $kernel failed"; }
    grep -q '^ *original: [0-9.]* ms median' "$work/$kernel.txt" ||
      { cat "$work/$kernel.txt"; fail "no timing for $kernel"; }
    echo "app-kernels: $kernel: $(grep -m1 'original:' "$work/$kernel.txt" | sed 's/^ *//')"
  done
}
evaluate "$templates" box tileSum
evaluate "$params" by_mode activate softmax_rows romberg

# A variant of a template kernel is verified and taken under its instantiation.
"$kopt" optimize "$templates" --kopt-engine=skills --kopt-budget=30s \
  --kopt-cache-dir="$work/cache" -- -arch="$arch" > "$work/optimize.txt" 2>&1 ||
  { cat "$work/optimize.txt"; fail "kopt optimize exited with $?"; }
cat "$work/optimize.txt"
for kernel in box tileSum; do
  grep -qE "^$kernel " "$work/optimize.txt" || fail "no summary row for $kernel"
done
grep -qi 'wrong\|mismatch' "$work/optimize.txt" && fail "a variant gave wrong results"
echo "app-kernels: ok"
