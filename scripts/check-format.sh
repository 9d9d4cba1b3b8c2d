#!/usr/bin/env bash
# Fails when a C++ file tracked in git is not clang-format clean (.clang-format).
set -euo pipefail
cd "$(dirname "$0")/.."
format=${CLANG_FORMAT:-clang-format-19}
git ls-files -z '*.cpp' '*.h' | xargs -0 "$format" --dry-run -Werror
echo "check-format: $(git ls-files '*.cpp' '*.h' | wc -l) files clean"
