#!/usr/bin/env bash
# Fails when a folder of the project's sources holds more than 40 source files
# (C++, CUDA, .def) directly: past that, a folder is split into named parts
# (docs/architecture.md#folders). Benchmark data (bench/kernels, bench/textbook, bench/apps) is exempt: each
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

# The front end's parts include only the parts below them (clang-plugin/CMakeLists.txt):
# model < pragma < analysis < units < parse < transforms < plugin. units/ and memory/
# read what the parse found through model/, never the parser itself.
order=(model pragma analysis units parse transforms plugin)
rank() { local i; for i in "${!order[@]}"; do [[ ${order[$i]} == "$1" ]] && echo "$i" && return; done; echo -1; }
upward=$(git ls-files 'clang-plugin/*.cpp' 'clang-plugin/*.h' | while read -r f; do
  from=$(echo "$f" | cut -d/ -f2)
  from_rank=$(rank "$from")
  [[ $from_rank -ge 0 ]] || continue
  { grep -o '#include "clang-plugin/[a-z-]*/' "$f" || true; } | cut -d/ -f2 | sort -u | while read -r to; do
    to_rank=$(rank "$to")
    if [[ $to_rank -gt $from_rank ]]; then echo "$f includes clang-plugin/$to/ (above $from/)"; fi
  done
done)
parse_users=$(git grep -l '#include "clang-plugin/parse/' -- 'clang-plugin/units' 'memory' || true)
if [[ -n $upward || -n $parse_users ]]; then
  echo "check-layout: includes that run upward between the front end's parts:" >&2
  [[ -z $upward ]] || echo "$upward" >&2
  [[ -z $parse_users ]] || echo "$parse_users" | sed 's/$/ includes clang-plugin\/parse\/ (read model\/ instead)/' >&2
  exit 1
fi
echo "check-layout: the front end's parts include only the parts below them"
