#!/usr/bin/env bash
# The parallelism transforms (and restrict-readonly on 2-D array parameters)
# on the GPU: each case rewrites a kernel of
# parallel-kernels.cu (kopt transform), then `kopt eval` verifies the variant
# against the original on fresh random inputs and times both. Fails where a
# variant does not verify; prints each speedup (the test does not judge them).
# Exit 77 (ctest: skipped) where no GPU is usable.
# Usage: parallel-transforms.sh KOPT KERNELS.cu [WORK_DIR]
set -u
kopt=$1 kernels=$2 work=${3:-$(mktemp -d)}
[ -x "$kopt" ] || { echo "parallel-transforms: no kopt at $kopt" >&2; exit 1; }
if ! "$kopt" device > /dev/null 2>&1; then
  echo "parallel-transforms: no usable GPU ($("$kopt" device 2>&1 | head -1)): skipped"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work"
failed=0
# kernel | transform | the variant's launch (GRID:BLOCK, from the transform's
# `// launch:` line at the pragma's sizes)
while IFS='|' read -r kernel spec launch; do
  [ -z "$kernel" ] && continue
  name=$kernel.$(echo "$spec" | tr ':=,' '___')
  if ! "$kopt" transform "$kernels" --kernel "$kernel" --apply "$spec" -- -arch=sm_90 \
      > "$work/$name.cu" 2> "$work/$name.err"; then
    echo "FAIL $kernel $spec: $(tail -1 "$work/$name.err")"; failed=1; continue
  fi
  "$kopt" eval "$kernels" --kernel "$kernel" --variant "$work/$name.cu" --launch "$launch" --no-profile \
    -- -arch=sm_90 > "$work/$name.out" 2>&1
  status=$?
  line=$(grep -E '^  variant:' "$work/$name.out" | head -1)
  if [ "$status" -ne 0 ]; then
    echo "FAIL $kernel $spec ($launch): ${line:-$(tail -2 "$work/$name.out")}"; failed=1
  else
    echo "ok   $kernel $spec ($launch): ${line#  variant:  }"
  fi
done <<'CASES'
covar|loop-to-grid:loop=0,ythreads=1024|32,128:32,8
covar|loop-to-grid:loop=0,ythreads=256|32,32:32,8
covar|inner-loop-parallel:lanes=4,order=1|16:256
covar|inner-loop-parallel:lanes=32,order=0|128:256
col_mean|inner-loop-parallel:lanes=8,order=1|128:256
col_mean|inner-loop-parallel:lanes=32,order=0|512:256
matvec_t|inner-loop-parallel:lanes=16,order=1|256:256
matvec_t|inner-loop-parallel:lanes=4,order=1|64:256
atax_rows|inner-loop-parallel:lanes=32,order=0|512:256
atax_rows|inner-loop-parallel:lanes=256,order=0|4096:256
atax_rows|coalescing-repair:block=128|32:128
atax_rows|row-cooperative:block=256|4096:256
skinny|split-k:blocks=8,threads=256|64,8:256
skinny|split-k:blocks=4,threads=512|32,8:512
skinny|inner-loop-parallel:lanes=1024,order=0|8,8:1024
syrk_2d|restrict-readonly:ldg=1|32,128:32,8
syrk_2d|restrict-readonly:ldg=0|32,128:32,8
syrk_2d|block-shape-2d:BX=64,BY=4|16,256:64,4
CASES
[ "$failed" -eq 0 ] && echo "parallel-transforms: passed" || { echo "parallel-transforms: FAILED"; exit 1; }
