# What the suites share, after ccache's test/run: each suite runs in its own
# directory with its own user cache ($KOPT_CACHE_DIR), and its expectations are
# kopt's statistics counters (`kopt cache stats`), counted from the last
# zero_stats, and files; a log line is never an expectation.

section() {
  echo "== $*"
}

fail() {
  echo "FAILED in $CURRENT_SUITE: $*" >&2
  exit 1
}

# The counters now, one "name value" a line.
read_stats() {
  "$KOPT" cache stats | awk 'NF == 2 && $2 ~ /^[0-9]+$/ { print $1, $2 }'
}

# Counting starts again from here (the counters themselves stay).
zero_stats() {
  read_stats >"$WORK_DIR/stats.zero"
}

stat_value() {
  local now zero
  now=$(read_stats | awk -v n="$1" '$1 == n { print $2 }')
  [[ -n $now ]] || fail "no counter named $1"
  zero=$(awk -v n="$1" '$1 == n { print $2 }' "$WORK_DIR/stats.zero" 2>/dev/null || true)
  echo $((now - ${zero:-0}))
}

expect_stat() {
  local value
  value=$(stat_value "$1")
  [[ $value == "$2" ]] || fail "counter $1 is $value, expected $2 ($(read_stats | tr '\n' ' '))"
}

# Every fallback_ counter but the ones named stays at zero.
expect_no_other_fallback() {
  local name
  for name in $(read_stats | awk '$1 ~ /^fallback_/ { print $1 }'); do
    [[ " $* " == *" $name "* ]] || expect_stat "$name" 0
  done
}

expect_file() {
  [[ -f $1 ]] || fail "$1 does not exist"
}

expect_no_file() {
  [[ ! -e $1 ]] || fail "$1 exists"
}

# No temporary directory of kcc's rewrite (<output>.kopt/) below $1.
expect_no_temporaries() {
  local left
  left=$(find "$1" -name '*.kopt' 2>/dev/null || true)
  [[ -z $left ]] || fail "kcc's temporary files were left: $left"
}

# The project of examples/app (its variants verified on an H100, committed in
# its project cache) in $1.
copy_example_app() {
  mkdir -p "$1"
  cp "$SOURCE_DIR"/examples/app/{main.cu,check.cpp,check.h,.kopt.yaml} "$1"/
  cp -r "$SOURCE_DIR"/examples/app/kopt-cache "$1"/
}

CURRENT_SUITE=${suite:-?}
