# Killing kcc as a build tool kills a compiler (TERM from make or a CI runner,
# INT, HUP): kcc sends the signal on to nvcc, waits for it, removes its
# temporary files and the compile's output and ends by the same signal (as
# ccache does), so that nothing is written after it has gone and no object is
# left: what nvcc killed by TERM or HUP does. (A SIGINT sent to nvcc alone is
# ignored while one of its tools runs, as system() ignores it, and nvcc
# finishes the object; from a terminal, SIGINT reaches the tools too.) A
# closed stderr (a `| head -1` that has gone) fails nothing and leaves nothing.
copy_example_app src
compile() { # OUTPUT [COMPILER]: examples/app's main.cu, rewritten by kcc with both variants.
  echo "${2:-$KCC}" -O3 -arch=sm_90 -c src/main.cu -o "$1"
}

for sig in TERM HUP; do
  section "nvcc killed by SIG$sig while cicc runs: the reference"
  # shellcheck disable=SC2046
  "$PYTHON" "$SOURCE_DIR/test/build/kill-at.py" "$sig" cicc -- $(compile "nvcc-$sig.o" "$NVCC") >nvcc.out
  grep -qx "status 0" nvcc.out && fail "nvcc killed by SIG$sig succeeded: $(cat nvcc.out)"
  grep -qx "descendants left 0" nvcc.out || fail "nvcc: $(cat nvcc.out)"
  expect_no_file "nvcc-$sig.o"
done

for sig in TERM INT HUP; do
  number=$(kill -l "$sig")
  section "kcc killed by SIG$sig while its nvcc runs cicc"
  # shellcheck disable=SC2046
  "$PYTHON" "$SOURCE_DIR/test/build/kill-at.py" "$sig" cicc -- $(compile "kcc-$sig.o") >kcc.out
  grep -qx "status $((128 + number))" kcc.out || fail "kcc: $(cat kcc.out)"
  grep -qx "descendants left 0" kcc.out || fail "kcc left its compiler running: $(cat kcc.out)"
  expect_no_file "kcc-$sig.o"
  expect_no_temporaries .
done

section "kcc killed by SIGTERM while its front end parses"
# shellcheck disable=SC2046
"$PYTHON" "$SOURCE_DIR/test/build/kill-at.py" TERM kopt -- \
  $(compile frontend.o) --kopt-direct=false >kcc.out
grep -qx "status 143" kcc.out || fail "kcc: $(cat kcc.out)"
grep -qx "descendants left 0" kcc.out || fail "kcc left its front end running: $(cat kcc.out)"
expect_no_file frontend.o
expect_no_temporaries .

section "a closed stderr: the compile succeeds and leaves nothing"
zero_stats
# shellcheck disable=SC2046
"$PYTHON" "$SOURCE_DIR/test/build/closed-stderr.py" $(compile piped.o) --kopt-verbose \
  --kopt-direct=false >pipe.out
grep -qx "status 0" pipe.out || fail "kcc with a closed stderr: $(cat pipe.out)"
expect_file piped.o
expect_no_temporaries .
expect_stat hits_project 2
expect_no_other_fallback
