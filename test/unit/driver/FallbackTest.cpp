// kcc's reasons to compile without kopt (driver/kcc/Fallback.h): the enum, its
// counters' names and what `kopt cache stats` and `kopt cache -s` print agree.
#include "driver/kcc/Fallback.h"
#include "driver/commands/CacheCommand.h"

#include <gtest/gtest.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <set>

using namespace kopt::driver;
using kopt::memory::Counter;
using kopt::memory::counterName;
using kopt::memory::NumCounters;

TEST(Fallback, EachReasonHasACounterOfItsOwn) {
  constexpr size_t Reasons = static_cast<size_t>(Fallback::Rewrite) + 1;
  ASSERT_EQ(allFallbacks().size(), Reasons);
  std::set<Counter> Used;
  for (size_t I = 0; I < Reasons; ++I) {
    const FallbackInfo &F = allFallbacks()[I];
    EXPECT_EQ(static_cast<size_t>(F.Reason), I) << "the table is in the enum's order";
    EXPECT_EQ(&infoOf(F.Reason), &F);
    EXPECT_TRUE(counterName(F.Counter).starts_with("fallback_")) << counterName(F.Counter).str();
    EXPECT_TRUE(Used.insert(F.Counter).second) << counterName(F.Counter).str() << " twice";
    EXPECT_TRUE(F.Summary.ends_with(":")) << F.Summary.str();
  }
  for (size_t I = 0; I < NumCounters; ++I) {
    llvm::StringRef Name = counterName(static_cast<Counter>(I));
    EXPECT_EQ(Name.starts_with("fallback_"), Used.count(static_cast<Counter>(I)) == 1)
        << Name.str() << ": a fallback_ counter is a reason's and only a reason's";
  }
}

TEST(Fallback, CountedInTheUserCacheAndShownByStatsAndSummary) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("kopt-fallback-test", Dir));
  KoptOptions Options;
  llvm::cantFail(Options.set("cache_dir", Dir, OptionSource::CommandLine, "--kopt-cache-dir"));
  GetEnvFn NoEnvironment = [](const char *) { return std::optional<std::string>(); };
  // Reason I counted I + 1 times: each count lands on its own counter.
  uint64_t Total = 0;
  for (const FallbackInfo &F : allFallbacks())
    for (size_t N = 0; N <= static_cast<size_t>(F.Reason); ++N, ++Total)
      countFallback(F.Reason, Options, NoEnvironment);

  kopt::memory::CacheConfig Config;
  Config.UserDir = std::string(Dir);
  kopt::memory::ResultCache Cache = llvm::cantFail(kopt::memory::ResultCache::open(Config));
  std::string Stats, Summary;
  llvm::raw_string_ostream StatsOS(Stats), SummaryOS(Summary);
  printCacheStats(Cache, StatsOS);
  printCacheSummary(Cache, SummaryOS);
  // The value that follows Label on its line of Text.
  auto ValueAfter = [](llvm::StringRef Text, llvm::StringRef Label) -> std::string {
    size_t At = Text.find(Label);
    if (At == llvm::StringRef::npos)
      return "(no line " + Label.str() + ")";
    return Text.drop_front(At + Label.size())
        .ltrim(" ")
        .take_until([](char C) { return C == ' ' || C == '\n'; })
        .str();
  };
  for (const FallbackInfo &F : allFallbacks()) {
    std::string Count = std::to_string(static_cast<size_t>(F.Reason) + 1);
    std::string StatsLabel = counterName(F.Counter).str();
    StatsLabel.insert(0, 1, '\n');
    EXPECT_EQ(ValueAfter(Stats, StatsLabel), Count) << Stats;
    EXPECT_EQ(ValueAfter(Summary, F.Summary), Count) << Summary;
  }
  EXPECT_EQ(ValueAfter(Summary, "Compiles without kopt:"), std::to_string(Total)) << Summary;
  llvm::sys::fs::remove_directories(Dir);
}
