#!/usr/bin/env bash
# README's test command: installs dependencies, configures, builds and runs
# every test (lit, unit, format and layout checks; GPU tests report SKIPPED
# without a GPU).
# Usage: scripts/test.sh [BUILD_DIR]   (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
scripts/install-deps.sh
cmake -S . -B "$build" -G Ninja -DKOPT_WERROR=ON
cmake --build "$build"
ctest --test-dir "$build" --output-on-failure
