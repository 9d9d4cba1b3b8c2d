#!/usr/bin/env bash
# Fails when a folder of the project's sources holds more than 40 source files
# (C++, CUDA, .def) directly: past that, a folder is split into named parts (README's
# Layout table). Benchmark data (bench/kernels, bench/textbook, bench/apps) is exempt: each
# file there is one benchmark, not a part of the tools.
set -euo pipefail
cd "$(dirname "$0")/.."
limit=40
exempt='^(bench/kernels|bench/textbook|bench/apps)$'
over=$(git ls-files '*.cpp' '*.cc' '*.c' '*.h' '*.hpp' '*.cu' '*.cuh' '*.def' |
  sed -e 's|/[^/]*$||' -e 't' -e 's|.*|.|' | sort | uniq -c |
  awk -v limit="$limit" -v exempt="$exempt" '$1 > limit && $2 !~ exempt { print $2 ": " $1 " source files" }')
if [[ -n $over ]]; then
  echo "check-layout: more than $limit source files directly in a folder; split it into parts:" >&2
  echo "$over" >&2
  exit 1
fi
echo "check-layout: every source folder holds at most $limit source files directly"
