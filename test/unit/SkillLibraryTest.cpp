// Skill files: what loads, what is rejected with file:line:col and field,
// duplicate ids, toggles, ranked selection; and the shipped library itself.
#include "memory/SkillLibrary.h"
#include "memory/SkillLoader.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <gtest/gtest.h>

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
        BadFile{"title: Unroll", "title: [Unroll", "s.yaml:3:9: end of sequence flow not found"}));

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
           std::to_string(Typical) + "\n";
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
    Categories.insert(S.Category);
    EXPECT_GT(S.Guidance.size(), 200u) << S.Id << ": guidance too thin";
    EXPECT_EQ(llvm::sys::path::stem(S.File), S.Id) << "one file a skill, named by its id";
  }
  EXPECT_GE(Categories.size(), 6u);
}

} // namespace
