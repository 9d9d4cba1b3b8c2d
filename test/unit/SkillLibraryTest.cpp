// Skill files: what loads, what is rejected with file:line:col and field,
// duplicate ids, toggles, ranked selection; and the shipped library itself.
#include "memory/SkillLibrary.h"
#include "clang-plugin/transforms/Transform.h"
#include "memory/SkillLoader.h"
#include "memory/SkillYield.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <gtest/gtest.h>

#include <cmath>
#include <set>

using namespace kopt::memory;

namespace {

const char *const Good = R"(id: unroll-more
title: Unroll
category: loops
when: loops > 0 and
  canonical_loops > 0
guidance: |
  Put a pragma on it.
effect:
  elapsed_ms: down
risks: Registers.
transform: unroll
params:
  factor: [2, 4]
typical_speedup: 1.5
)";

std::string errorOf(llvm::StringRef Text) {
  llvm::Expected<Skill> S = parseSkill(Text, "s.yaml");
  if (S) {
    ADD_FAILURE() << "expected an error for:\n" << Text.str();
    return "";
  }
  return llvm::toString(S.takeError());
}

std::string replace(std::string Text, llvm::StringRef From, llvm::StringRef To) {
  size_t Pos = Text.find(From.str());
  EXPECT_NE(Pos, std::string::npos) << From.str();
  return Text.replace(Pos, From.size(), To.str());
}

TEST(SkillLoader, ReadsEveryField) {
  llvm::Expected<Skill> S = parseSkill(Good, "dir/unroll-more.yaml");
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(S->Id, "unroll-more");
  EXPECT_EQ(S->Title, "Unroll");
  EXPECT_EQ(S->Category, "loops");
  EXPECT_EQ(S->Guidance, "Put a pragma on it.");
  EXPECT_EQ(S->Risks, "Registers.");
  EXPECT_EQ(S->Transform, "unroll");
  ASSERT_EQ(S->Params.size(), 1u);
  EXPECT_EQ(S->Params[0].Name, "factor");
  EXPECT_EQ(S->Params[0].Values, (std::vector<std::string>{"2", "4"}));
  ASSERT_EQ(S->Effects.size(), 1u);
  EXPECT_EQ(S->Effects[0].Metric, "elapsed_ms");
  EXPECT_FALSE(S->Effects[0].Up);
  EXPECT_EQ(S->TypicalSpeedup, 1.5);
  EXPECT_EQ(S->File, "dir/unroll-more.yaml");
  Facts F;
  F.set("loops", 1);
  F.set("canonical_loops", 1);
  EXPECT_TRUE(S->When.holds(F));
  F.set("canonical_loops", 0);
  EXPECT_FALSE(S->When.holds(F));
}

struct BadFile {
  const char *From, *To;
  const char *Error;
};
// Names the case by its edit when a test fails, not by its bytes.
void PrintTo(const BadFile &F, std::ostream *OS) {
  *OS << '"' << F.From << "\" -> \"" << F.To << '"';
}

class SkillLoaderErrors : public ::testing::TestWithParam<BadFile> {};

TEST_P(SkillLoaderErrors, NameFileLineColumnAndField) {
  const BadFile &B = GetParam();
  EXPECT_EQ(errorOf(replace(Good, B.From, B.To)), B.Error);
}

INSTANTIATE_TEST_SUITE_P(
    SkillLoader, SkillLoaderErrors,
    ::testing::Values(
        // The predicate's error points into the file, also on a continuation line.
        BadFile{"loops > 0", "loop > 0",
                "s.yaml:4:7: field 'when': unknown fact 'loop'; did you mean 'loops'?"},
        BadFile{"canonical_loops > 0", "canonical_loops > 0 or",
                "s.yaml:5:25: field 'when': expected a fact, a number or '(' at the end"},
        BadFile{"when: loops > 0 and\n  canonical_loops > 0", "when: 'loops > 0 and maybe'",
                "s.yaml:4:22: field 'when': unknown fact 'maybe'"},
        BadFile{"title: Unroll", "titel: Unroll",
                "s.yaml:2:1: field 'titel': unknown field; did you mean 'title'?"},
        BadFile{"id: unroll-more", "id: Unroll_More",
                "s.yaml:1:5: field 'id': 'Unroll_More' is not lower-case-with-dashes"},
        BadFile{"category: loops", "category: speed",
                "s.yaml:3:11: field 'category': 'speed' is not one of memory, compute, launch, "
                "parallelism, control-flow, loops, reduction, synchronization"},
        BadFile{"elapsed_ms: down", "elapsed_ms: sideways",
                "s.yaml:9:15: field 'effect': expected 'up' or 'down' for elapsed_ms"},
        BadFile{"elapsed_ms: down", "loops: down",
                "s.yaml:9:3: field 'effect': 'loops' is not a measured metric"},
        BadFile{"risks: Registers.\n", "", "s.yaml:1:1: field 'risks': missing"},
        BadFile{"factor: [2, 4]", "factor: []",
                "s.yaml:13:11: field 'params': expected a list of values for factor"},
        BadFile{"transform: unroll\n", "",
                "s.yaml:12:3: field 'params': only a skill with a transform has parameters"},
        BadFile{"typical_speedup: 1.5", "typical_speedup: 0.5",
                "s.yaml:14:18: field 'typical_speedup': expected a number from 1 to 100"},
        BadFile{"title: Unroll", "title: [Unroll", "s.yaml:3:9: end of sequence flow not found"},
        // The yield model.
        BadFile{"typical_speedup: 1.5", "typical_speedup: 1.5\nlikelihood: 2",
                "s.yaml:15:13: field 'likelihood': expected a number from 0 to 1"},
        BadFile{"typical_speedup: 1.5",
                "typical_speedup: 1.5\nexpect:\n  - when: loops > 0 and dram > 5\n"
                "    speedup: 2\n    likelihood: 0.5",
                "s.yaml:16:25: field 'expect': unknown fact 'dram'"},
        BadFile{"typical_speedup: 1.5",
                "typical_speedup: 1.5\nexpect:\n  - when: loops > 0\n    speedup: 2",
                "s.yaml:16:5: field 'expect': a case without 'likelihood'"},
        BadFile{"typical_speedup: 1.5",
                "typical_speedup: 1.5\nexpect:\n  - when: loops > 0\n    speedup: 0.5\n"
                "    likelihood: 0.5",
                "s.yaml:17:14: field 'expect': expected a number from 1 to 100"},
        BadFile{"typical_speedup: 1.5",
                "typical_speedup: 1.5\nexpect:\n  - when: loops > 0\n    gain: 2\n"
                "    likelihood: 0.5",
                "s.yaml:17:5: field 'expect': unknown key 'gain' (a case has when, speedup, "
                "likelihood)"},
        BadFile{"typical_speedup: 1.5", "typical_speedup: 1.5\nenables: [Smem]",
                "s.yaml:15:11: field 'enables': expected a skill id"},
        // A transform, or the reason there is none; never both, never neither.
        BadFile{"typical_speedup: 1.5", "typical_speedup: 1.5\nguidance_only: too hard",
                "s.yaml:15:16: field 'guidance_only': a skill with a transform ('unroll') is not "
                "guidance only"},
        BadFile{"transform: unroll\nparams:\n  factor: [2, 4]\n", "",
                "s.yaml:1:1: field 'guidance_only': missing: a skill without a transform says why "
                "it stays guidance for the llm engine"},
        BadFile{"transform: unroll\nparams:\n  factor: [2, 4]\n", "guidance_only: ''\n",
                "s.yaml:11:16: field 'guidance_only': expected a non-empty string"}));

TEST(SkillLoader, NotAMapping) {
  EXPECT_EQ(errorOf("- a\n- b\n"), "s.yaml:1:1: a skill file is a mapping of fields");
  EXPECT_EQ(loadSkillFile("/nonexistent/x.yaml").takeError() ? "failed" : "", "failed");
}

// A temporary directory of skill files, removed at the end.
class SkillDir : public ::testing::Test {
protected:
  void SetUp() override { ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("kopt-skills", Dir)); }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }
  void write(llvm::StringRef Name, llvm::StringRef Text) {
    llvm::SmallString<128> Path(Dir);
    llvm::sys::path::append(Path, Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    ASSERT_FALSE(EC);
    OS << Text;
  }
  std::string skill(llvm::StringRef Id, llvm::StringRef When, double Typical = 1.1) {
    return "id: " + Id.str() + "\ntitle: T\ncategory: memory\nwhen: " + When.str() +
           "\nguidance: G\neffect: {elapsed_ms: down}\nrisks: R\ntypical_speedup: " +
           std::to_string(Typical) + "\nguidance_only: a test skill\n";
  }
  llvm::SmallString<128> Dir;
};

TEST_F(SkillDir, DuplicateIdsAndEveryBadFileAreReported) {
  write("a.yaml", skill("alpha", "true"));
  write("b.yaml", skill("alpha", "loops > 0"));
  write("c.yaml", skill("gamma", "loops >"));
  write("notes.txt", "not a skill");
  llvm::Expected<SkillLibrary> L = SkillLibrary::loadDirectory(std::string(Dir));
  ASSERT_FALSE(L);
  std::string E = llvm::toString(L.takeError());
  EXPECT_NE(E.find("c.yaml:4:14: field 'when':"), std::string::npos) << E;
  EXPECT_NE(E.find("b.yaml: duplicate skill id 'alpha' (also in "), std::string::npos) << E;
}

TEST_F(SkillDir, EnablesNamesSkillsOfTheLibrary) {
  write("a.yaml", "id: alpha\ntitle: T\ncategory: loops\nguidance: G\neffect: {elapsed_ms: "
                  "down}\nrisks: R\ntransform: alpha\nenables: [beta, gamma]\n");
  write("b.yaml", skill("beta", "true"));
  llvm::Expected<SkillLibrary> L = SkillLibrary::loadDirectory(std::string(Dir));
  ASSERT_FALSE(L);
  std::string E = llvm::toString(L.takeError());
  EXPECT_NE(E.find("a.yaml:8:17: field 'enables': unknown skill 'gamma'"), std::string::npos) << E;
  EXPECT_EQ(E.find("'beta'"), std::string::npos) << E;
}

TEST(SkillYield, ExpectCasesOverFactsAndExperience) {
  llvm::Expected<Skill> S = parseSkill(R"(id: restrict
title: T
category: memory
when: read_only_params > 0
guidance: G
effect: {elapsed_ms: down}
risks: R
transform: restrict
typical_speedup: 1.2
likelihood: 0.5
expect:
  - when: repeated_writes > 0
    speedup: 3
    likelihood: 0.9
  - when: dram_throughput_pct > 50
    speedup: 1.5
    likelihood: 0.6
)",
                                       "r.yaml");
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  Facts F;
  F.set("read_only_params", 2);
  F.set("repeated_writes", 0);
  // No case holds (no profile): the skill's own prior.
  Yield Y = priorYield(*S, F);
  EXPECT_DOUBLE_EQ(Y.Likelihood, 0.5);
  EXPECT_DOUBLE_EQ(Y.Speedup, 1.2);
  // The first case that holds.
  F.set("dram_throughput_pct", 80);
  EXPECT_DOUBLE_EQ(priorYield(*S, F).Speedup, 1.5);
  F.set("repeated_writes", 1);
  Y = priorYield(*S, F);
  EXPECT_DOUBLE_EQ(Y.Likelihood, 0.9);
  EXPECT_DOUBLE_EQ(Y.Speedup, 3);
  EXPECT_NEAR(Y.value(), 0.9 * std::log(3.0), 1e-12);
  // Where `when` does not hold, a tenth of the likelihood is left.
  F.set("read_only_params", 0);
  EXPECT_DOUBLE_EQ(priorYield(*S, F).Likelihood, 0.9 / 10);
  // Evidence: two failures lower the likelihood, a big win raises the gain.
  Evidence E;
  E.add(1, false, 0);
  E.add(1, false, 0);
  EXPECT_NEAR(posteriorYield(Y, E).Likelihood, 2 * 0.9 / 4, 1e-12);
  E.add(1, true, 9);
  Yield After = posteriorYield(Y, E);
  EXPECT_NEAR(After.Likelihood, (1 + 1.8) / 5, 1e-12);
  EXPECT_NEAR(After.Speedup, std::exp((std::log(9.0) + std::log(3.0)) / 2), 1e-9);
  // With a prior of one half it is the experience store's ranking score.
  SkillRecord R;
  R.Counts[unsigned(Outcome::Faster)] = 2;
  R.Counts[unsigned(Outcome::Wrong)] = 1;
  R.SumLogSpeedup = std::log(2.0) + std::log(4.0);
  EXPECT_NEAR(rankingScore(R, 1.5), posteriorYield({0.5, 1.5}, evidenceOf(R)).value(), 1e-12);
}

TEST_F(SkillDir, EmptyDirectoryIsAnError) {
  llvm::Expected<SkillLibrary> L = SkillLibrary::loadDirectory(std::string(Dir));
  ASSERT_FALSE(L);
  EXPECT_NE(llvm::toString(L.takeError()).find("no skills"), std::string::npos);
}

TEST_F(SkillDir, SelectionFollowsPredicatesTogglesAndExperience) {
  write("a.yaml", skill("tiling", "matmul_like", 3.0));
  write("b.yaml", skill("unroll", "loops > 0", 1.2));
  write("c.yaml", skill("atomics", "uses_atomics", 2.0));
  write("d.yaml", skill("occupancy", "achieved_occupancy_pct < 40", 1.5));
  llvm::Expected<SkillLibrary> L = SkillLibrary::loadDirectory(std::string(Dir));
  ASSERT_TRUE(bool(L)) << llvm::toString(L.takeError());
  ASSERT_EQ(L->skills().size(), 4u);
  ASSERT_NE(L->find("unroll"), nullptr);
  EXPECT_EQ(L->find("nope"), nullptr);

  Facts F;
  F.set("loops", 1);
  F.setBool("matmul_like", true);
  F.setBool("uses_atomics", false);
  ExperienceStore None = ExperienceStore::inMemory();
  auto Ids = [&](const std::vector<SkillToggle> &T, const ExperienceStore &E) {
    llvm::Expected<std::vector<SelectedSkill>> Sel = L->select(F, T, E, "matmul");
    std::vector<std::string> Out;
    if (!Sel) {
      Out.push_back(llvm::toString(Sel.takeError()));
      return Out;
    }
    for (const SelectedSkill &S : *Sel)
      Out.push_back(S.S->Id + (S.Forced ? "+" : ""));
    return Out;
  };
  using V = std::vector<std::string>;
  // Without experience the typical speedup orders them; no profile: occupancy is out.
  EXPECT_EQ(Ids({}, None), (V{"tiling", "unroll"}));
  EXPECT_EQ(Ids({{"tiling", false}}, None), (V{"unroll"}));
  EXPECT_EQ(Ids({{"atomics", true}}, None), (V{"atomics+", "tiling", "unroll"}));
  EXPECT_EQ(Ids({{"unroll", false}, {"unroll", true}}, None), (V{"unroll+", "tiling"}));
  EXPECT_EQ(Ids({{"tilng", true}}, None), (V{"unknown skill 'tilng'; did you mean 'tiling'?"}));
  EXPECT_EQ(Ids({{"zzzzzzzz", false}}, None), (V{"unknown skill 'zzzzzzzz'"}));

  // Experience on matmul kernels: tiling keeps failing, unroll wins big.
  ExperienceStore E = ExperienceStore::inMemory();
  for (int I = 0; I < 4; ++I) {
    ASSERT_FALSE(bool(E.record("tiling", "matmul", "H100", Outcome::Wrong, 0)));
    ASSERT_FALSE(bool(E.record("unroll", "matmul", "H100", Outcome::Faster, 2.5)));
  }
  EXPECT_EQ(Ids({}, E), (V{"unroll", "tiling"}));
  // Records of another kind do not count where the kind has its own.
  ASSERT_FALSE(bool(E.record("tiling", "stencil", "H100", Outcome::Faster, 50)));
  EXPECT_EQ(Ids({}, E), (V{"unroll", "tiling"}));

  F.set("achieved_occupancy_pct", 20);
  EXPECT_EQ(Ids({}, None), (V{"tiling", "occupancy", "unroll"}));
}

#ifndef KOPT_SKILLS_DIR
#error "the build defines KOPT_SKILLS_DIR (the source tree's skills/)"
#endif

TEST(ShippedSkills, EveryRegisteredTransformHasItsSkill) {
  llvm::Expected<SkillLibrary> L = SkillLibrary::loadDirectory(KOPT_SKILLS_DIR);
  ASSERT_TRUE(bool(L)) << llvm::toString(L.takeError());
  for (const auto &T : kopt::transform::allTransforms()) {
    const Skill *S = L->find(T->id());
    ASSERT_NE(S, nullptr) << T->id().str() << ": a transform without skills/<id>.yaml";
    EXPECT_EQ(S->Transform, T->id().str());
  }
}

TEST(ShippedSkills, LoadAndCoverTheMechanicalTransforms) {
  llvm::Expected<SkillLibrary> L = SkillLibrary::loadDirectory(KOPT_SKILLS_DIR);
  ASSERT_TRUE(bool(L)) << llvm::toString(L.takeError());
  EXPECT_GE(L->skills().size(), 26u);
  for (const char *Id :
       {"launch-bounds", "unroll", "restrict-readonly", "scalar-replacement", "fast-math",
        "block-size", "thread-coarsening", "vectorize", "thread-mapping-swap", "smem-tiling",
        "register-blocking", "row-cooperative", "inner-loop-parallel", "loop-to-grid", "split-k",
        "coalescing-repair"}) {
    const Skill *S = L->find(Id);
    ASSERT_NE(S, nullptr) << Id;
    EXPECT_EQ(S->Transform, Id);
  }
  std::set<std::string> Categories;
  for (const Skill &S : L->skills()) {
    // Every skill has its transform, registered under the skill's id, or says
    // why it stays guidance for the llm engine (the loader insists; so does this).
    EXPECT_NE(bool(S.Transform), !S.GuidanceOnly.empty()) << S.Id;
    if (S.Transform) {
      EXPECT_EQ(*S.Transform, S.Id);
      EXPECT_NE(kopt::transform::findTransform(*S.Transform), nullptr)
          << S.Id << ": no transform registered as '" << *S.Transform << "'";
    } else {
      EXPECT_GT(S.GuidanceOnly.size(), 80u) << S.Id << ": say why, concretely";
    }
    Categories.insert(S.Category);
    EXPECT_GT(S.Guidance.size(), 200u) << S.Id << ": guidance too thin";
    EXPECT_EQ(llvm::sys::path::stem(S.File), S.Id) << "one file a skill, named by its id";
  }
  EXPECT_GE(Categories.size(), 6u);
}

} // namespace
