// The experience store: the score, persistence across opens, corrupt files,
// concurrent records from several processes, and the observations the planner
// weighs by the similarity of kernels.
#include "memory/ExperienceStore.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <gtest/gtest.h>

#include <cmath>
#include <sys/wait.h>
#include <unistd.h>

using namespace kopt::memory;

namespace {

class ExperienceFile : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("kopt-experience", Dir));
    llvm::SmallString<128> P(Dir);
    llvm::sys::path::append(P, "sub", "experience.json"); // The directory is made on demand.
    Path = std::string(P);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }
  void writeRaw(llvm::StringRef Text) {
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    ASSERT_FALSE(EC);
    OS << Text;
  }
  llvm::SmallString<128> Dir;
  std::string Path;
};

TEST(ExperienceScore, PriorWinsAndFailures) {
  SkillRecord Empty;
  EXPECT_NEAR(rankingScore(Empty, 2.0), 0.5 * std::log(2.0), 1e-12);
  EXPECT_EQ(rankingScore(Empty, 0.5), 0); // A prior below 1 counts as 1: never negative.

  SkillRecord Winner;
  Winner.Counts[unsigned(Outcome::Faster)] = 3;
  Winner.SumLogSpeedup = 3 * std::log(2.0);
  EXPECT_NEAR(Winner.meanSpeedup(), 2.0, 1e-12);
  EXPECT_GT(rankingScore(Winner, 1.1), rankingScore(Empty, 1.1));

  SkillRecord Loser;
  Loser.Counts[unsigned(Outcome::NotFaster)] = 2;
  Loser.Counts[unsigned(Outcome::CompileError)] = 2;
  EXPECT_EQ(Loser.tries(), 4u);
  EXPECT_EQ(Loser.wins(), 0u);
  EXPECT_EQ(Loser.meanSpeedup(), 0);
  EXPECT_LT(rankingScore(Loser, 1.1), rankingScore(Empty, 1.1));
  EXPECT_GT(rankingScore(Loser, 1.1), 0);
}

TEST(ExperienceOutcome, NamesRoundTrip) {
  for (unsigned I = 0; I < NumOutcomes; ++I)
    EXPECT_EQ(parseOutcome(outcomeName(Outcome(I))), Outcome(I));
  EXPECT_EQ(outcomeName(Outcome::CompileError), "compile_error");
  EXPECT_FALSE(parseOutcome("fast"));
}

TEST_F(ExperienceFile, PersistsAcrossOpens) {
  ExperienceStore A = ExperienceStore::open(Path);
  EXPECT_TRUE(A.warning().empty());
  EXPECT_TRUE(A.records().empty());
  ASSERT_FALSE(bool(A.record("unroll", "matmul", "H100", Outcome::Faster, 2.0)));
  ASSERT_FALSE(bool(A.record("unroll", "matmul", "H100", Outcome::Faster, 8.0)));
  ASSERT_FALSE(bool(A.record("unroll", "stencil", "H100", Outcome::Wrong, 0)));
  ASSERT_FALSE(bool(A.record("vectorize", "elementwise", "A100", Outcome::Crashed, 0)));

  ExperienceStore B = ExperienceStore::open(Path);
  EXPECT_TRUE(B.warning().empty()) << B.warning();
  SkillRecord U = B.statsFor("unroll");
  EXPECT_EQ(U.tries(), 3u);
  EXPECT_EQ(U.wins(), 2u);
  EXPECT_NEAR(U.meanSpeedup(), 4.0, 1e-9);
  EXPECT_EQ(U.BestSpeedup, 8.0);
  EXPECT_EQ(B.statsFor("unroll", "stencil").tries(), 1u);
  EXPECT_EQ(B.statsFor("unroll", "stencil").wins(), 0u);
  EXPECT_EQ(B.statsFor("vectorize").Counts[unsigned(Outcome::Crashed)], 1u);
  EXPECT_EQ(B.records().size(), 3u);
  // The score for a kind without records falls back to all kinds.
  EXPECT_EQ(B.score("unroll", "scan", 1.1), rankingScore(U, 1.1));
  EXPECT_LT(B.score("unroll", "stencil", 1.1), B.score("unroll", "matmul", 1.1));

  // A store opened earlier sees the other's records after its own record().
  ASSERT_FALSE(bool(A.record("fast-math", "other", "H100", Outcome::NotFaster, 0)));
  ASSERT_FALSE(bool(B.record("fast-math", "other", "H100", Outcome::NotFaster, 0)));
  EXPECT_EQ(B.statsFor("fast-math").tries(), 2u);
  A.reload();
  EXPECT_EQ(A.statsFor("fast-math").tries(), 2u);
  // No temporaries left behind.
  std::error_code EC;
  unsigned Files = 0;
  for (llvm::sys::fs::directory_iterator It(llvm::sys::path::parent_path(Path), EC), End;
       It != End && !EC; It.increment(EC))
    Files += !llvm::StringRef(It->path()).ends_with(".lock");
  EXPECT_EQ(Files, 1u);
}

TEST_F(ExperienceFile, CorruptFileIsReportedReadAsEmptyAndMovedAside) {
  for (const char *Bad :
       {"{ not json", "[1, 2]", "{\"version\": 99, \"records\": []}",
        "{\"version\": 1, \"records\": [{\"kind\": \"x\"}]}",
        "{\"version\": 1, \"records\": [{\"skill\": \"a\", \"faster\": -1}]}", "\x01\x02\xff"}) {
    writeRaw(Bad);
    ExperienceStore S = ExperienceStore::open(Path);
    EXPECT_NE(S.warning().find("corrupt experience file"), std::string::npos) << Bad;
    EXPECT_TRUE(S.records().empty()) << Bad;
    EXPECT_EQ(S.score("a", "", 2.0), rankingScore(SkillRecord(), 2.0));
  }
  ExperienceStore S = ExperienceStore::open(Path);
  ASSERT_FALSE(bool(S.record("unroll", "matmul", "H100", Outcome::Faster, 1.5)));
  EXPECT_TRUE(llvm::sys::fs::exists(Path + ".corrupt"));
  ExperienceStore Fresh = ExperienceStore::open(Path);
  EXPECT_TRUE(Fresh.warning().empty()) << Fresh.warning();
  EXPECT_EQ(Fresh.statsFor("unroll").wins(), 1u);
}

// Two kinds of kernel as fact vectors: a stream and a matrix product.
FactVector factsOf(bool Matmul, double LoopAccesses, double DramPct) {
  Facts F;
  F.setBool("kind_elementwise", !Matmul);
  F.setBool("matmul_like", Matmul);
  F.set("accesses_in_loops", LoopAccesses);
  F.set("dram_throughput_pct", DramPct);
  return factVector(F);
}
FactVector streamFacts() { return factsOf(false, 0, 85); }
FactVector matmulFacts() { return factsOf(true, 2, 10); }

Observation tried(const std::string &Skill, const std::string &Params, FactVector F,
                  Outcome O = Outcome::NotFaster, double Gain = 1, std::string Device = "H100") {
  return {Skill, Params, "elementwise", std::move(Device), std::move(F), O, Gain};
}

TEST_F(ExperienceFile, ObservationsPersistAndWeighBySimilarity) {
  ExperienceStore A = ExperienceStore::open(Path);
  ASSERT_FALSE(bool(A.recordAll({
      tried("unroll", "factor=8", streamFacts(), Outcome::Faster, 1.5),
      tried("unroll", "factor=4", streamFacts()),
      tried("unroll", "factor=8", matmulFacts(), Outcome::Wrong, 0),
      // Verified faster than the original but not than its parent: no win.
      tried("vectorize", "width=4", streamFacts(), Outcome::Faster, 1.01),
  })));
  ExperienceStore B = ExperienceStore::open(Path);
  ASSERT_TRUE(B.warning().empty()) << B.warning();
  ASSERT_EQ(B.observations().size(), 4u);
  EXPECT_EQ(B.observations()[0].Params, "factor=8");
  EXPECT_EQ(B.observations()[0].Facts, streamFacts());
  // The counts per skill, kind and device follow the observations.
  EXPECT_EQ(B.statsFor("unroll").tries(), 3u);
  EXPECT_EQ(B.statsFor("unroll").wins(), 1u);
  EXPECT_EQ(B.statsFor("vectorize").wins(), 0u);

  // On a stream: the stream's tries count fully, the matmul's hardly at all.
  Evidence E = B.evidenceFor("unroll", std::nullopt, streamFacts(), "H100");
  EXPECT_NEAR(E.Tries, 2, 1e-3);
  EXPECT_NEAR(E.Wins, 1, 1e-6);
  EXPECT_NEAR(E.SumLogGain, std::log(1.5), 1e-6);
  // One parameter point only.
  Evidence Eight = B.evidenceFor("unroll", std::string("factor=8"), streamFacts(), "H100");
  EXPECT_NEAR(Eight.Tries, 1, 1e-3);
  EXPECT_NEAR(Eight.Wins, 1, 1e-6);
  // On a matmul the failure weighs.
  Evidence M = B.evidenceFor("unroll", std::string("factor=8"), matmulFacts(), "H100");
  EXPECT_NEAR(M.Tries, 1, 1e-3);
  EXPECT_NEAR(M.Wins, 0, 1e-3);
  // Another device counts half.
  EXPECT_NEAR(B.evidenceFor("unroll", std::string("factor=8"), streamFacts(), "A100").Wins, 0.5,
              1e-6);
  EXPECT_EQ(B.evidenceFor("tiling", std::nullopt, streamFacts(), "H100").Tries, 0);
}

TEST_F(ExperienceFile, ObservationsKeepTheLatestAndVersionOneFilesStillRead) {
  writeRaw("{\"version\": 1, \"records\": [{\"skill\": \"unroll\", \"kind\": \"matmul\", "
           "\"device\": \"H100\", \"faster\": 2, \"not_faster\": 0, \"wrong\": 0, "
           "\"compile_error\": 0, \"crashed\": 0, \"sum_log_speedup\": 1.0, "
           "\"best_speedup\": 2.0}]}");
  ExperienceStore S = ExperienceStore::open(Path);
  ASSERT_TRUE(S.warning().empty()) << S.warning();
  EXPECT_EQ(S.statsFor("unroll").wins(), 2u);
  EXPECT_TRUE(S.observations().empty());
  std::vector<Observation> Many;
  for (size_t I = 0; I < ExperienceStore::MaxObservations + 10; ++I)
    Many.push_back(tried("unroll", "factor=" + std::to_string(I), streamFacts()));
  ASSERT_FALSE(bool(S.recordAll(Many)));
  ExperienceStore Again = ExperienceStore::open(Path);
  ASSERT_EQ(Again.observations().size(), ExperienceStore::MaxObservations);
  EXPECT_EQ(Again.observations().front().Params, "factor=10"); // The oldest dropped out.
  EXPECT_EQ(Again.statsFor("unroll").tries(), 2u + ExperienceStore::MaxObservations + 10);
  // A bad observation makes the file corrupt, as a bad record does.
  writeRaw("{\"version\": 2, \"records\": [], \"observations\": [{\"skill\": \"a\", "
           "\"outcome\": \"faster\", \"facts\": {\"x\": \"y\"}}]}");
  EXPECT_NE(ExperienceStore::open(Path).warning().find("bad fact 'x'"), std::string::npos);
}

TEST_F(ExperienceFile, UnwritableDirectoryIsAnErrorNotACrash) {
  writeRaw("");
  ExperienceStore S = ExperienceStore::open(Path + "/below-a-file/experience.json");
  EXPECT_TRUE(bool(llvm::errorToBool(S.record("unroll", "k", "d", Outcome::Wrong, 0))));
}

TEST_F(ExperienceFile, ConcurrentRecordsFromSeveralProcessesAreAllKept) {
  constexpr int Processes = 6, RecordsEach = 25;
  std::vector<pid_t> Children;
  for (int P = 0; P < Processes; ++P) {
    pid_t Pid = fork();
    ASSERT_GE(Pid, 0);
    if (Pid == 0) {
      ExperienceStore S = ExperienceStore::open(Path);
      int Failures = 0;
      for (int I = 0; I < RecordsEach; ++I)
        Failures +=
            llvm::errorToBool(S.record(P % 2 ? "unroll" : "vectorize", I % 3 ? "matmul" : "stencil",
                                       "H100", I % 2 ? Outcome::Faster : Outcome::NotFaster, 1.5));
      _exit(Failures == 0 ? 0 : 1);
    }
    Children.push_back(Pid);
  }
  for (pid_t Pid : Children) {
    int Status = 0;
    ASSERT_EQ(waitpid(Pid, &Status, 0), Pid);
    EXPECT_TRUE(WIFEXITED(Status) && WEXITSTATUS(Status) == 0);
  }
  ExperienceStore S = ExperienceStore::open(Path);
  EXPECT_TRUE(S.warning().empty()) << S.warning();
  unsigned Total = S.statsFor("unroll").tries() + S.statsFor("vectorize").tries();
  EXPECT_EQ(Total, unsigned(Processes * RecordsEach));
  EXPECT_EQ(S.statsFor("unroll").tries(), unsigned(Processes / 2 * RecordsEach));
  EXPECT_EQ(S.statsFor("unroll").wins(), unsigned(Processes / 2 * (RecordsEach / 2)));
}

} // namespace
