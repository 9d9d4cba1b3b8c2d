// The when: language: what parses, what is rejected (with the column), and
// three-valued evaluation over absent metrics.
#include "memory/skills/SkillPredicate.h"

#include <gtest/gtest.h>

using namespace kopt::memory;

namespace {

Facts sampleFacts() {
  Facts F;
  F.set("loops", 2);
  F.set("strided_accesses", 0);
  F.setBool("matmul_like", true);
  F.setBool("uses_atomics", false);
  F.set("registers", 80); // A measured one; others are absent.
  return F;
}

bool eval(llvm::StringRef Text) {
  llvm::Expected<Predicate> P = Predicate::parse(Text);
  if (!P) {
    ADD_FAILURE() << Text.str() << ": " << llvm::toString(P.takeError());
    return false;
  }
  return P->holds(sampleFacts());
}

struct Case {
  const char *Text;
  bool Holds;
};
// Names the case by its predicate when a test fails, not by its bytes.
void PrintTo(const Case &C, std::ostream *OS) { *OS << '"' << C.Text << '"'; }

class PredicateEval : public ::testing::TestWithParam<Case> {};

TEST_P(PredicateEval, Holds) {
  EXPECT_EQ(eval(GetParam().Text), GetParam().Holds) << GetParam().Text;
}

INSTANTIATE_TEST_SUITE_P(
    SkillPredicate, PredicateEval,
    ::testing::Values(
        Case{"matmul_like", true}, Case{"not matmul_like", false}, Case{"loops > 1", true},
        Case{"loops >= 3", false}, Case{"loops == 2 and strided_accesses == 0", true},
        Case{"loops != 2 or uses_atomics", false},
        Case{"not (loops < 2 or uses_atomics) and matmul_like", true},
        Case{"uses_atomics == false", true}, Case{"true", true}, Case{"false or 1.5 < 2", true},
        Case{"registers > 64", true}, Case{"not not matmul_like", true},
        // and binds tighter than or.
        Case{"true or false and false", true}, Case{"(true or false) and false", false},
        // Absent metrics: unknown, never an error.
        Case{"achieved_occupancy_pct < 50", false},
        Case{"not (achieved_occupancy_pct < 50)", false},
        Case{"achieved_occupancy_pct < 50 or matmul_like", true},
        Case{"achieved_occupancy_pct < 50 and matmul_like", false},
        Case{"achieved_occupancy_pct < 50 and uses_atomics", false},
        Case{"not (achieved_occupancy_pct < 50 and uses_atomics)", true},
        Case{"elapsed_ms == elapsed_ms", false}));

struct BadCase {
  const char *Text;
  size_t Column; // 1-based.
  const char *Message;
};
void PrintTo(const BadCase &C, std::ostream *OS) { *OS << '"' << C.Text << '"'; }

class PredicateErrors : public ::testing::TestWithParam<BadCase> {};

TEST_P(PredicateErrors, NameTheColumn) {
  const BadCase &C = GetParam();
  llvm::Expected<Predicate> P = Predicate::parse(C.Text);
  ASSERT_FALSE(P) << C.Text;
  size_t Column = 0;
  std::string Message;
  llvm::handleAllErrors(P.takeError(), [&](const PredicateError &E) {
    Column = E.Offset + 1;
    Message = E.Message;
  });
  EXPECT_EQ(Column, C.Column) << C.Text << ": " << Message;
  EXPECT_NE(Message.find(C.Message), std::string::npos) << C.Text << ": " << Message;
}

INSTANTIATE_TEST_SUITE_P(
    SkillPredicate, PredicateErrors,
    ::testing::Values(
        BadCase{"loop > 1", 1, "unknown fact 'loop'; did you mean 'loops'?"},
        BadCase{"matmul_like and frobnicate", 17, "unknown fact 'frobnicate'"},
        BadCase{"loops", 1, "the predicate is a number"},
        BadCase{"loops and matmul_like", 7, "'and' needs boolean operands"},
        BadCase{"not loops", 1, "'not' needs a boolean operand"},
        BadCase{"matmul_like > 0", 13, "compares numbers, not booleans"},
        BadCase{"loops == true", 7, "compares a number with a boolean"},
        BadCase{"(loops > 1", 11, "expected ')'"}, BadCase{"loops > 1)", 10, "unexpected ')'"},
        BadCase{"loops > ", 9, "at the end"}, BadCase{"loops + 1 > 2", 7, "unexpected '+'"},
        BadCase{"loops > 1x", 9, "invalid number '1x'"},
        BadCase{"loops > 1 && true", 11, "unexpected '&'"}, BadCase{"", 1, "at the end"},
        BadCase{"and", 1, "before 'and'"}, BadCase{"loops < 2 < 3", 11, "unexpected '<'"}));

TEST(SkillPredicate, AlwaysHoldsAndKeepsItsText) {
  EXPECT_TRUE(Predicate::always().holds(Facts()));
  llvm::Expected<Predicate> P = Predicate::parse("  loops > 1 ");
  ASSERT_TRUE(bool(P));
  EXPECT_EQ(P->text(), "  loops > 1 ");
  Predicate Copy = *P; // Copies share the parsed tree.
  EXPECT_TRUE(Copy.holds(sampleFacts()));
}

} // namespace
