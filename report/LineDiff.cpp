#include "report/LineDiff.h"

#include <llvm/ADT/SmallVector.h>

#include <algorithm>

namespace kopt::report {

namespace {
std::vector<std::string> splitLines(llvm::StringRef Text) {
  std::vector<std::string> Lines;
  if (Text.empty())
    return Lines;
  llvm::SmallVector<llvm::StringRef, 64> Parts;
  Text.split(Parts, '\n');
  if (!Parts.empty() && Parts.back().empty())
    Parts.pop_back(); // The final newline.
  for (llvm::StringRef P : Parts)
    Lines.push_back(P.rtrim(" \t\r").str());
  return Lines;
}
} // namespace

std::vector<DiffLine> diffLines(llvm::StringRef OldText, llvm::StringRef NewText) {
  const std::vector<std::string> A = splitLines(OldText), B = splitLines(NewText);
  const int N = static_cast<int>(A.size()), M = static_cast<int>(B.size());
  // V[k]: the furthest x on diagonal k = x - y after d edits; Trace[d] keeps
  // V for diagonals -d..d after step d, to walk the path back.
  std::vector<std::vector<int>> Trace;
  std::vector<int> V(2 * (N + M) + 3, 0);
  const int Offset = N + M + 1;
  int Found = -1;
  for (int D = 0; D <= N + M && Found < 0; ++D) {
    for (int K = -D; K <= D; K += 2) {
      int X = (K == -D || (K != D && V[Offset + K - 1] < V[Offset + K + 1]))
                  ? V[Offset + K + 1]      // Down: a line of B added.
                  : V[Offset + K - 1] + 1; // Right: a line of A removed.
      int Y = X - K;
      while (X < N && Y < M && A[X] == B[Y]) {
        ++X;
        ++Y;
      }
      V[Offset + K] = X;
      if (X >= N && Y >= M)
        Found = D;
    }
    Trace.emplace_back(V.begin() + Offset - D, V.begin() + Offset + D + 1);
  }
  std::vector<DiffLine> Out;
  int X = N, Y = M;
  for (int D = Found; D > 0; --D) {
    const std::vector<int> &Prev = Trace[D - 1]; // Diagonals -(D-1)..D-1.
    auto At = [&](int K) { return Prev[K + D - 1]; };
    const int K = X - Y;
    const int PrevK = (K == -D || (K != D && At(K - 1) < At(K + 1))) ? K + 1 : K - 1;
    const int PrevX = At(PrevK), PrevY = PrevX - PrevK;
    for (; X > PrevX && Y > PrevY; --X, --Y)
      Out.push_back({DiffOp::Same, A[X - 1], unsigned(X), unsigned(Y)});
    if (X == PrevX) {
      Out.push_back({DiffOp::Added, B[Y - 1], 0, unsigned(Y)});
      --Y;
    } else {
      Out.push_back({DiffOp::Removed, A[X - 1], unsigned(X), 0});
      --X;
    }
  }
  for (; X > 0 && Y > 0; --X, --Y)
    Out.push_back({DiffOp::Same, A[X - 1], unsigned(X), unsigned(Y)});
  std::reverse(Out.begin(), Out.end());
  return Out;
}

std::vector<DiffHunk> diffHunks(const std::vector<DiffLine> &Lines, unsigned Context) {
  // Which lines are shown: each change and Context lines either side.
  std::vector<bool> Shown(Lines.size(), false);
  for (size_t I = 0; I < Lines.size(); ++I) {
    if (Lines[I].Op == DiffOp::Same)
      continue;
    size_t From = I >= Context ? I - Context : 0;
    size_t To = std::min(Lines.size(), I + Context + 1);
    for (size_t J = From; J < To; ++J)
      Shown[J] = true;
  }
  std::vector<DiffHunk> Hunks;
  for (size_t I = 0; I < Lines.size(); ++I) {
    if (!Shown[I])
      continue;
    if (I == 0 || !Shown[I - 1])
      Hunks.emplace_back();
    Hunks.back().Lines.push_back(Lines[I]);
  }
  return Hunks;
}

} // namespace kopt::report
