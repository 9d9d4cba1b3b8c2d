#!/usr/bin/env bash
# Runs one suite of test/build/suites: `run-suite.sh NAME`, with KCC, KOPT, NVCC,
# CMAKE, PYTHON, SOURCE_DIR (the repository) and WORK_DIR (emptied first) set.
# Exit 0 passed, 1 failed (the first failed expectation says why), 77 skipped.
set -euo pipefail
suite=$1
here=$(cd "$(dirname "$0")" && pwd)
for var in KCC KOPT NVCC CMAKE PYTHON SOURCE_DIR WORK_DIR; do
  [[ -n ${!var:-} ]] || { echo "run-suite.sh: $var is not set" >&2; exit 1; }
done
if [[ ! -x $NVCC ]]; then
  echo "SKIPPED: no nvcc at $NVCC"
  exit 77
fi
# The suite sees only what it sets: no inherited kopt or CUDA configuration.
for var in $(compgen -e); do
  [[ $var == KOPT_* || $var == CUDA_PATH || $var == CUDA_HOME ]] && unset "$var"
done
rm -rf "$WORK_DIR"
mkdir -p "$WORK_DIR"
cd "$WORK_DIR"
export KOPT_CACHE_DIR=$WORK_DIR/user-cache
# shellcheck source=lib.bash
source "$here/lib.bash"
# shellcheck source=/dev/null
source "$here/suites/$suite.bash"
echo "PASSED: $suite"
cd /
rm -rf "$WORK_DIR"
