// A line diff (Myers' O(ND) algorithm: the shortest edit script) for the
// report's view of a variant against the original kernel, grouped into hunks
// with context lines around each change.
#pragma once

#include <llvm/ADT/StringRef.h>

#include <string>
#include <vector>

namespace kopt::report {

enum class DiffOp { Same, Removed, Added };

struct DiffLine {
  DiffOp Op = DiffOp::Same;
  std::string Text;
  unsigned OldLine = 0, NewLine = 0; // 1-based; 0 on the side a line is not on.
};

// Every line of Old and New, in order: the lines both keep, and the fewest
// removals and additions that turn Old into New. Trailing whitespace does not
// count as a change; a final newline does not make an empty last line.
std::vector<DiffLine> diffLines(llvm::StringRef Old, llvm::StringRef New);

struct DiffHunk {
  std::vector<DiffLine> Lines;
};

// The changes with Context unchanged lines on each side; runs of unchanged
// lines beyond that are left out between hunks.
std::vector<DiffHunk> diffHunks(const std::vector<DiffLine> &Lines, unsigned Context);

} // namespace kopt::report
