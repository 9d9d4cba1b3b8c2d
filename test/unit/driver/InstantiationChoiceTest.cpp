#include "clang-plugin/units/InstantiationChoice.h"

#include "clang-plugin/pragma/ClauseParser.h"

#include <gtest/gtest.h>

using kopt::frontend::chosenInstantiation;
using kopt::frontend::KernelInstantiation;
using kopt::frontend::KernelSummary;
using kopt::frontend::LaunchSite;

namespace {
// matrixMul<16> and matrixMul<32>, the way issue 16 met them: <16> comes first.
KernelSummary matrixMul() {
  KernelSummary K;
  K.Name = "matrixMul";
  K.IsTemplate = true;
  K.Instantiations = {{"16", "_Z9matrixMulILi16EEvPfS0_S0_ii"},
                      {"32", "_Z9matrixMulILi32EEvPfS0_S0_ii"}};
  K.Pragma.emplace();
  return K;
}

LaunchSite launchOf(std::string Args, std::string Caller = "main") {
  LaunchSite S;
  S.Caller = std::move(Caller);
  S.TemplateArgs = std::move(Args);
  return S;
}

std::string chosen(const KernelSummary &K) {
  auto C = chosenInstantiation(K);
  if (!C)
    return "error: " + llvm::toString(C.takeError());
  return *C ? (*C)->TemplateArgs : "none";
}
} // namespace

TEST(InstantiationChoice, NotATemplateHasNone) {
  KernelSummary K;
  K.Name = "saxpy";
  EXPECT_EQ(chosen(K), "none");
}

TEST(InstantiationChoice, TheOneTheFileLaunches) {
  KernelSummary K = matrixMul();
  K.LaunchSites = {launchOf("32")};
  EXPECT_EQ(chosen(K), "32");
}

TEST(InstantiationChoice, DependentLaunchesAreSkipped) {
  KernelSummary K = matrixMul();
  K.LaunchSites = {launchOf("BLOCK", "matrixMul"), launchOf("32")};
  EXPECT_EQ(chosen(K), "32");
}

TEST(InstantiationChoice, ThePragmasClauseWinsOverTheLaunch) {
  KernelSummary K = matrixMul();
  K.LaunchSites = {launchOf("32")};
  K.Pragma->Instantiation = "16";
  EXPECT_EQ(chosen(K), "16");
  K.Pragma->Instantiation = " 16 ";
  EXPECT_EQ(chosen(K), "16");
}

TEST(InstantiationChoice, AClauseNamingNoUsedInstantiationFails) {
  KernelSummary K = matrixMul();
  K.Pragma->Instantiation = "64";
  EXPECT_EQ(chosen(K), "error: matrixMul: instantiation(64) names no instantiation this file "
                       "uses (it uses: <16>, <32>)");
}

TEST(InstantiationChoice, TheOnlyInstantiationWithoutALaunch) {
  KernelSummary K = matrixMul();
  K.Instantiations.pop_back();
  EXPECT_EQ(chosen(K), "16");
}

TEST(InstantiationChoice, SeveralAndNoLaunchAsksForTheClause) {
  EXPECT_NE(chosen(matrixMul())
                .find("name the instantiation to optimize with the pragma's "
                      "instantiation(...) clause (this file uses: <16>, <32>)"),
            std::string::npos);
}

TEST(InstantiationChoice, TheClauseParsesTemplateArguments) {
  kopt::frontend::PragmaParseResult R =
      kopt::frontend::parsePragmaText("optimize instantiation(float, 128)");
  ASSERT_TRUE(R.Clauses);
  ASSERT_TRUE(R.Clauses->Instantiation);
  EXPECT_EQ(*R.Clauses->Instantiation, "float, 128");
  EXPECT_FALSE(kopt::frontend::parsePragmaText("optimize instantiation()").Clauses);
  EXPECT_FALSE(kopt::frontend::parsePragmaText("optimize instantiation(32").Clauses);
}
