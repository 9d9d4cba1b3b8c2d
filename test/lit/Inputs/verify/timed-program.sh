#!/bin/sh
# Stands in for a program kcc built with the variants of matmul and bias_relu
# (examples/app's kernel names): it honours KOPT_VARIANTS (on, off, off:K1,K2)
# and logs the variants that ran to KOPT_VARIANTS_LOG as the spliced dispatch
# does. Its check always passes. Its time: 0.4 s with the originals; matmul's
# variant saves 0.2 s; bias_relu's variant costs 0.6 s (a variant faster in the
# evaluator and slower in the program), which it also prints as its own
# "solver time: N ms"; with CRASH_WITH=K, K's variant crashes it. Each call appends KOPT_VARIANTS to
# $CHECK_CALLS.
variant_on() {
  case "${KOPT_VARIANTS-on}" in
  off) return 1 ;;
  off:*) case ",${KOPT_VARIANTS#off:}," in *",$1,"*) return 1 ;; esac ;;
  esac
  return 0
}
echo "KOPT_VARIANTS=${KOPT_VARIANTS-unset}" >> "$CHECK_CALLS"
time_ms=400
for kernel in matmul bias_relu; do
  variant_on "$kernel" || continue
  if [ -n "$KOPT_VARIANTS_LOG" ]; then echo "$kernel variant" >> "$KOPT_VARIANTS_LOG"; fi
  # CRASH_WITH=K: K's variant ends the program before it prints a time.
  if [ "$kernel" = "${CRASH_WITH-}" ]; then echo "$kernel: illegal memory access" >&2; exit 3; fi
  case $kernel in
  matmul) time_ms=$((time_ms - 200)) ;;
  bias_relu) time_ms=$((time_ms + 600)) ;;
  esac
done
sleep "$(printf '%d.%03d' $((time_ms / 1000)) $((time_ms % 1000)))"
echo "solver time: $time_ms ms"
echo "check: PASS"
