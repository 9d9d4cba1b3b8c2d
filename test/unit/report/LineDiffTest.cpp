#include "report/LineDiff.h"

#include <gtest/gtest.h>

#include <random>

using namespace kopt::report;

namespace {
// The diff as "=a", "-b", "+c" lines.
std::vector<std::string> ops(llvm::StringRef Old, llvm::StringRef New) {
  std::vector<std::string> Out;
  for (const DiffLine &L : diffLines(Old, New))
    Out.push_back((L.Op == DiffOp::Same ? "=" : L.Op == DiffOp::Added ? "+" : "-") + L.Text);
  return Out;
}

// Old and New again from the diff: every line accounted for, in order.
void expectConsistent(const std::vector<DiffLine> &Lines, const std::vector<std::string> &A,
                      const std::vector<std::string> &B) {
  std::vector<std::string> Old, New;
  for (const DiffLine &L : Lines) {
    if (L.Op != DiffOp::Added) {
      Old.push_back(L.Text);
      EXPECT_EQ(L.OldLine, Old.size());
    }
    if (L.Op != DiffOp::Removed) {
      New.push_back(L.Text);
      EXPECT_EQ(L.NewLine, New.size());
    }
  }
  EXPECT_EQ(Old, A);
  EXPECT_EQ(New, B);
}

size_t lcsLength(const std::vector<std::string> &A, const std::vector<std::string> &B) {
  std::vector<std::vector<size_t>> T(A.size() + 1, std::vector<size_t>(B.size() + 1, 0));
  for (size_t I = 1; I <= A.size(); ++I)
    for (size_t J = 1; J <= B.size(); ++J)
      T[I][J] = A[I - 1] == B[J - 1] ? T[I - 1][J - 1] + 1 : std::max(T[I - 1][J], T[I][J - 1]);
  return T[A.size()][B.size()];
}

std::string joined(const std::vector<std::string> &Lines) {
  std::string Out;
  for (const std::string &L : Lines)
    Out += L + "\n";
  return Out;
}
} // namespace

TEST(LineDiff, EqualTextsAreAllSame) {
  EXPECT_EQ(ops("a\nb\n", "a\nb\n"), (std::vector<std::string>{"=a", "=b"}));
  EXPECT_TRUE(diffLines("", "").empty());
}

TEST(LineDiff, InsertionsDeletionsAndReplacements) {
  EXPECT_EQ(ops("a\nc\n", "a\nb\nc\n"), (std::vector<std::string>{"=a", "+b", "=c"}));
  EXPECT_EQ(ops("a\nb\nc\n", "a\nc\n"), (std::vector<std::string>{"=a", "-b", "=c"}));
  EXPECT_EQ(ops("a\nb\nc\n", "a\nB\nc\n"), (std::vector<std::string>{"=a", "-b", "+B", "=c"}));
  EXPECT_EQ(ops("", "x\ny"), (std::vector<std::string>{"+x", "+y"}));
  EXPECT_EQ(ops("x\ny\n", ""), (std::vector<std::string>{"-x", "-y"}));
}

TEST(LineDiff, TrailingWhitespaceAndTheFinalNewlineAreNoChange) {
  EXPECT_EQ(ops("a  \nb", "a\nb\n"), (std::vector<std::string>{"=a", "=b"}));
}

TEST(LineDiff, ShortestEditScriptOnRandomTexts) {
  std::mt19937 Random(7);
  for (int Round = 0; Round < 300; ++Round) {
    std::vector<std::string> A, B;
    std::uniform_int_distribution<int> Length(0, 14), Word(0, 3);
    for (int I = Length(Random); I > 0; --I)
      A.push_back(std::string(1, char('a' + Word(Random))));
    for (int I = Length(Random); I > 0; --I)
      B.push_back(std::string(1, char('a' + Word(Random))));
    std::vector<DiffLine> Lines = diffLines(joined(A), joined(B));
    expectConsistent(Lines, A, B);
    size_t Same = std::count_if(Lines.begin(), Lines.end(),
                                [](const DiffLine &L) { return L.Op == DiffOp::Same; });
    EXPECT_EQ(Same, lcsLength(A, B)) << joined(A) << "--\n" << joined(B);
  }
}

TEST(LineDiff, HunksKeepContextAroundChanges) {
  std::string Old, New;
  for (int I = 1; I <= 20; ++I) {
    Old += "line " + std::to_string(I) + "\n";
    New += (I == 5    ? std::string("changed 5")
            : I == 16 ? "changed 16"
                      : "line " + std::to_string(I)) +
           "\n";
  }
  std::vector<DiffHunk> Hunks = diffHunks(diffLines(Old, New), 2);
  ASSERT_EQ(Hunks.size(), 2u);
  EXPECT_EQ(Hunks[0].Lines.front().Text, "line 3");
  EXPECT_EQ(Hunks[0].Lines.back().Text, "line 7");
  EXPECT_EQ(Hunks[0].Lines.size(), 6u); // 2 before, removed, added, 2 after.
  EXPECT_EQ(Hunks[1].Lines.front().OldLine, 14u);
  EXPECT_TRUE(diffHunks(diffLines(Old, Old), 3).empty());
}
