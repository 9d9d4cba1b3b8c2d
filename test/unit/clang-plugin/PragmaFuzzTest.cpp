// The generated '#pragma kopt' fuzz corpus: every case gives clauses or a
// diagnostic, never a crash, both in the parser alone and through clang.
#include "clang-plugin/parse/KernelFinder.h"
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

// Through clang, as kopt inspect parses: the verdict matches the parser alone
// (the same lexing and checks), and a rejection always comes with an error.
TEST(PragmaFuzz, ClangAgreesWithTheParserAlone) {
  std::vector<std::string> Cases = fuzz::generatePragmaCorpus(CorpusSeed, CorpusSize);
  std::vector<std::string> Args = fuzz::snippetClangArgs();
  size_t Checked = 0;
  for (const std::string &C : Cases) {
    if (llvm::StringRef(C).contains('\\') || llvm::StringRef(C).contains("/*"))
      continue; // They would join or comment out the kernel's line.
    std::string Code =
        "#pragma kopt " + C + "\n__global__ void fuzz_kernel(" + fuzz::FuzzKernelParams + ") {}\n";
    std::string Diagnostics;
    llvm::raw_string_ostream OS(Diagnostics);
    auto Kernels = frontend::findKernelsInCode(Code, "/fuzz/case.cu", Args, OS);
    bool Accepted = Kernels && Kernels->size() == 1 && Kernels->front().Pragma;
    if (!Kernels)
      llvm::consumeError(Kernels.takeError());
    EXPECT_EQ(Accepted, fuzz::checkPragmaText(C).Accepted) << "case: " << C << "\n" << Diagnostics;
    if (!Accepted) {
      EXPECT_NE(Diagnostics.find("error: "), std::string::npos) << "case: " << C;
    }
    ++Checked;
  }
  EXPECT_GT(Checked, CorpusSize * 9 / 10);
}
