#!/usr/bin/env bash
# Runs clang-tidy (.clang-tidy's checks) on the C++ sources a commit changed:
# those of HEAD against its first parent, or against BASE where given.
# Fails on any warning. Needs the build's compile_commands.json.
# Usage: scripts/check-tidy.sh BUILD_DIR [BASE]     (CLANG_TIDY: the binary)
set -euo pipefail
cd "$(dirname "$0")/.."
build=$1
base=${2:-HEAD~1}
tidy=${CLANG_TIDY:-clang-tidy-19}
if ! git rev-parse --verify -q "$base" > /dev/null; then
  echo "check-tidy: no commit $base (a clone without history): nothing to compare"
  exit 0
fi
mapfile -t files < <(git diff --name-only --diff-filter=AM "$base" HEAD -- '*.cpp' |
  while read -r f; do
    # Only sources the build compiles (a benchmark's or a test input's .cpp is not).
    grep -q "\"file\": \"[^\"]*/$f\"" "$build/compile_commands.json" && echo "$f"
  done || true)
if [ "${#files[@]}" -eq 0 ]; then
  echo "check-tidy: no compiled C++ source changed since $base"
  exit 0
fi
echo "check-tidy: ${#files[@]} changed sources since $base"
failed=0
for f in "${files[@]}"; do
  # libstdc++ 12's std::stable_sort calls its own get_temporary_buffer, which it
  # marks deprecated in C++20: clang reports that inside the system header.
  if ! out=$("$tidy" -p "$build" --quiet --extra-arg=-Wno-deprecated-declarations "$f" 2>&1); then
    echo "$out"
    failed=1
  fi
done
exit $failed
