// The generated '#pragma kopt' fuzz corpus: every case gives clauses or a
// diagnostic, never a crash, both in the parser alone and through clang, and
// kopt check and kopt inspect agree on it.
#include "clang-plugin/pragma/ClauseParser.h"
#include "test/fuzz/FrontEndAgreement.h"
#include "test/fuzz/PragmaInvariants.h"
#include "test/fuzz/PragmaMutator.h"

#include <gtest/gtest.h>

#include <set>

using namespace kopt;

namespace {
constexpr uint64_t CorpusSeed = 1;
constexpr size_t CorpusSize = 3000;
} // namespace

TEST(PragmaFuzz, SeedsAreAccepted) {
  for (const std::string &Seed : fuzz::seedPragmas()) {
    fuzz::CaseOutcome O = fuzz::checkPragmaText(Seed);
    EXPECT_TRUE(O.Accepted) << Seed << ": " << O.FirstProblem;
    EXPECT_EQ(O.Violation, "") << Seed;
  }
}

TEST(PragmaFuzz, GenerationIsDeterministic) {
  std::vector<std::string> A = fuzz::generatePragmaCorpus(CorpusSeed, 200);
  EXPECT_EQ(A, fuzz::generatePragmaCorpus(CorpusSeed, 200));
  EXPECT_NE(A, fuzz::generatePragmaCorpus(CorpusSeed + 1, 200));
}

TEST(PragmaFuzz, EveryCaseParsesOrIsDiagnosed) {
  std::vector<std::string> Cases = fuzz::generatePragmaCorpus(CorpusSeed, CorpusSize);
  ASSERT_EQ(Cases.size(), CorpusSize);
  size_t Accepted = 0;
  std::set<std::string> Distinct(Cases.begin(), Cases.end());
  std::set<int> FirstKinds;
  for (const std::string &C : Cases) {
    fuzz::CaseOutcome O = fuzz::checkPragmaText(C);
    EXPECT_EQ(O.Violation, "") << "case: " << C;
    Accepted += O.Accepted;
    if (O.FirstKind)
      FirstKinds.insert(int(*O.FirstKind));
  }
  // The corpus is varied: mostly distinct, mostly rejected, some mutations harmless,
  // and many different first diagnostics.
  EXPECT_GT(Distinct.size(), CorpusSize * 8 / 10);
  EXPECT_GT(Accepted, CorpusSize / 50);
  EXPECT_LT(Accepted, CorpusSize / 2);
  EXPECT_GE(FirstKinds.size(), 20u);
}

// Through clang, as kopt check and kopt inspect parse: the verdict matches the
// parser alone (the same lexing and checks), a rejection always comes with an
// error, and what check accepts, inspect builds a workload from.
TEST(PragmaFuzz, CheckAndInspectAgreeWithTheParserAlone) {
  std::vector<std::string> Cases = fuzz::generatePragmaCorpus(CorpusSeed, CorpusSize);
  size_t Checked = 0;
  for (const std::string &C : Cases) {
    if (llvm::StringRef(C).contains('\\') || llvm::StringRef(C).contains("/*"))
      continue; // They would join or comment out the kernel's line.
    fuzz::FrontEndOutcome O = fuzz::checkThroughFrontEnd(C);
    EXPECT_EQ(O.Violation, "") << "case: " << C << "\n" << O.Diagnostics;
    ++Checked;
  }
  EXPECT_GT(Checked, CorpusSize * 9 / 10);
}

// The limits of issue 32, refused where the pragma is checked, each with its
// reason at a token of the pragma (so clang shows a caret): a buffer larger
// than any GPU's memory, instantiation(...) on a kernel that is no template,
// and a long flat sum, which is long, not nested.
TEST(PragmaFuzz, AbsurdPragmasAreRefusedAtCheckTime) {
  auto FirstProblem = [](const std::string &Text) {
    fuzz::CaseOutcome O = fuzz::checkPragmaText(Text);
    EXPECT_FALSE(O.Accepted) << Text;
    EXPECT_EQ(O.Violation, "") << Text;
    return O.FirstProblem;
  };
  std::string Workload = "optimize launch(grid: 1; block: 32) args(n = 1, m = 1, a = 1) ";
  EXPECT_EQ(FirstProblem(Workload + "buffers(x[1ULL << 62] in, y[n] out)"),
            "buffer 'x' is 4611686018427387904 elements of float (4 bytes): more than 2^40 "
            "bytes (1 TiB), more memory than any GPU has");
  EXPECT_EQ(FirstProblem(Workload + "buffers(x[n] in, y[(1ULL << 38) + 1] out)"),
            "buffer 'y' is 274877906945 elements of float (4 bytes): more than 2^40 bytes (1 "
            "TiB), more memory than any GPU has");
  EXPECT_TRUE(fuzz::checkPragmaText(Workload + "buffers(x[n] in, y[1ULL << 38] out)").Accepted);
  EXPECT_EQ(FirstProblem(Workload + "buffers(x[n] in, y[n] out) instantiation(float, 128)"),
            "instantiation(float, 128) names template arguments, but kernel 'fuzz_kernel' is not "
            "a template");

  std::string Sum = "1";
  for (int I = 0; I < 300; ++I) // 601 numbers and operators in a chain 300 deep.
    Sum += " + 1";
  fuzz::CaseOutcome Flat = fuzz::checkPragmaText("optimize launch(grid: " + Sum +
                                                 "; block: 32) args(n = 1, m = 1, a = 1) "
                                                 "buffers(x[n] in, y[n] out)");
  EXPECT_TRUE(Flat.Accepted) << Flat.FirstProblem;
  std::string Long = "1";
  for (unsigned I = 0; I < frontend::MaxExprNodes; ++I)
    Long += "+1";
  EXPECT_EQ(FirstProblem("optimize launch(grid: " + Long + "; block: 32)"),
            "expression is too long: clause expressions take at most 1024 numbers, names and "
            "operators");
  std::string Deep = std::string(300, '(') + "1" + std::string(300, ')');
  EXPECT_EQ(FirstProblem("optimize launch(grid: " + Deep + "; block: 32)"),
            "expression is nested too deeply (parentheses, unary operators, casts, calls and ?: "
            "at most 256 deep)");
}
