#!/bin/sh
# The application's own check of steps.cu's program, standing in for one whose
# result is wrong with bias_relu's variant: it fails where that variant ran.
# Each call appends the KOPT_VARIANTS it saw to $CHECK_CALLS.
own=$(mktemp)
KOPT_VARIANTS_LOG=$own "$@" > /dev/null
status=$?
if [ -n "$KOPT_VARIANTS_LOG" ]; then cat "$own" >> "$KOPT_VARIANTS_LOG"; fi
echo "KOPT_VARIANTS=${KOPT_VARIANTS-unset}" >> "$CHECK_CALLS"
if grep -q "^bias_relu variant$" "$own"; then
  rm -f "$own"
  echo "check: FAIL"
  exit 1
fi
rm -f "$own"
echo "check: PASS"
exit $status
