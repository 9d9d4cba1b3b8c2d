// IndexPolynomial: the algebra of index polynomials, and the builder that
// turns a kernel's index expressions into them over the thread's positions,
// its parameters and the loop variables a caller enumerates.
#include "clang-plugin/analysis/IndexPolynomial.h"
#include "test/unit/common/SnippetAst.h"

#include <clang/AST/Expr.h>

#include <gtest/gtest.h>

#include <limits>

using namespace kopt;
using namespace kopt::frontend;

namespace {

TEST(IndexPolynomial, ArithmeticKeepsACanonicalForm) {
  IndexPoly A = IndexPoly::atom(0), B = IndexPoly::atom(1), One = IndexPoly::constant(1);
  EXPECT_EQ((A + One) * (A - One), A * A - One);
  EXPECT_EQ(A * B, B * A);
  EXPECT_TRUE((A - A).isZero());
  EXPECT_EQ((A.scaled(3) - A - A - A), IndexPoly());
  EXPECT_EQ(IndexPoly::constant(7).asConstant(), 7);
  EXPECT_FALSE((A + One).asConstant());
  EXPECT_EQ(IndexPoly::term({0, 0, 1}, 2), (A * A * B).scaled(2));
}

TEST(IndexPolynomial, DegreeCoefficientAndSubstitution) {
  IndexPoly N = IndexPoly::atom(0), G = IndexPoly::atom(1), K = IndexPoly::atom(2);
  IndexPoly P = N * G + K - N; // n*g + k - n: a row's element.
  EXPECT_EQ(P.degreeIn(1), 1u);
  EXPECT_EQ((G * G).degreeIn(1), 2u);
  EXPECT_EQ(P.degreeIn(3), 0u);
  IndexPoly Rest;
  EXPECT_EQ(P.coefficientOf(1, &Rest), N);
  EXPECT_EQ(Rest, K - N);
  EXPECT_EQ(P.substitute(2, IndexPoly::constant(4)), N * G + IndexPoly::constant(4) - N);
  EXPECT_TRUE(P.mentions([](unsigned A) { return A == 2; }));
  EXPECT_FALSE(P.mentions([](unsigned A) { return A == 3; }));
}

TEST(IndexPolynomial, OverflowIsKeptAndNeverEqual) {
  IndexPoly Big = IndexPoly::constant(std::numeric_limits<int64_t>::max());
  IndexPoly Twice = Big * IndexPoly::constant(2);
  EXPECT_TRUE(Twice.overflowed());
  EXPECT_FALSE(Twice == Twice);
  EXPECT_FALSE(Big.overflowed());
}

// The builder's polynomial for the index of each subscript of Code's kernel,
// in source order, as text: "n*g_y + g_x - n" (or "error: ...").
std::vector<std::string> indices(const std::string &Code) {
  std::vector<std::string> Out;
  snippets::withUnitAst(Code, [&](transform::UnitAST &U, const KernelSummary &) {
    IndexPolyBuilder B(U.Ctx, U.Kernel);
    for (const clang::ForStmt *For : snippets::allUnder<clang::ForStmt>(U.Kernel.getBody()))
      if (const auto *Decl = llvm::dyn_cast_or_null<clang::DeclStmt>(For->getInit()))
        B.addLoopVar(llvm::cast<clang::VarDecl>(Decl->getSingleDecl()));
    for (const clang::ArraySubscriptExpr *S :
         snippets::allUnder<clang::ArraySubscriptExpr>(U.Kernel.getBody())) {
      llvm::Expected<IndexPoly> P = B.build(S->getIdx());
      if (!P) {
        Out.push_back("error: " + llvm::toString(P.takeError()));
        continue;
      }
      std::string Text;
      for (const auto &[M, C] : P->terms()) {
        std::string Term = C == 1 && !M.empty() ? "" : std::to_string(C);
        for (unsigned A : M) {
          const PolyAtom &Atom = B.atom(A);
          std::string Name = Atom.Kind == AtomKind::Position ? std::string("g_") + Atom.Dim
                             : Atom.Decl                     ? Atom.Decl->getNameAsString()
                                                             : "?";
          Term += (Term.empty() ? "" : "*") + Name;
        }
        Text += (Text.empty() ? "" : " + ") + Term;
      }
      Out.push_back(Text.empty() ? "0" : Text);
    }
  });
  return Out;
}

TEST(IndexPolynomial, PositionsThroughLocalsAndParameters) {
  std::vector<std::string> Got = indices(R"(
__global__ void shift(int n, const float *in, float *out) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = threadIdx.x + blockDim.x * blockIdx.x;
  out[i * n + j] = in[(i - 1) * n + j + 2];
}
)");
  // Terms in the order of their monomials (atoms by first use; the constant
  // term first).
  ASSERT_EQ(Got.size(), 2u);
  EXPECT_NE(Got[0].find("g_y*n"), std::string::npos) << Got[0];
  EXPECT_NE(Got[0].find("g_x"), std::string::npos) << Got[0];
  EXPECT_EQ(Got[0].find("-"), std::string::npos) << Got[0];
  EXPECT_NE(Got[1].find("-1*n"), std::string::npos) << Got[1];
  EXPECT_NE(Got[1].find("2"), std::string::npos) << Got[1];
}

TEST(IndexPolynomial, LoopVariablesAreAtomsOfTheirOwn) {
  std::vector<std::string> Got = indices(R"(
__global__ void rows(int n, const float *in, float *out) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = -1; k <= 1; ++k)
    s += in[j + k];
  out[j] = s;
}
)");
  ASSERT_EQ(Got.size(), 2u);
  EXPECT_NE(Got[0].find("k"), std::string::npos) << Got[0];
  EXPECT_NE(Got[0].find("g_x"), std::string::npos) << Got[0];
  EXPECT_EQ(Got[1], "g_x");
}

TEST(IndexPolynomial, RefusesWhatItCannotFollowWithTheLine) {
  std::vector<std::string> Got = indices(R"(
__global__ void gather(int n, const int *idx, float *out) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  out[idx[j]] = 0;
  out[blockIdx.x] = 1;
  out[j * gridDim.x] = 2;
}
)");
  ASSERT_EQ(Got.size(), 4u);
  EXPECT_EQ(Got[0].rfind("error: line 11:", 0), 0u) << Got[0];
  EXPECT_NE(Got[0].find("reads memory"), std::string::npos) << Got[0];
  EXPECT_EQ(Got[1], "g_x"); // idx[j] on its own.
  EXPECT_NE(Got[2].find("on its own, not only in blockIdx * blockDim + threadIdx"),
            std::string::npos)
      << Got[2];
  EXPECT_NE(Got[3].find("reads gridDim.x"), std::string::npos) << Got[3];
}

TEST(IndexPolynomial, UniformAndPositionDimensions) {
  snippets::withUnitAst(R"(
__global__ void plane(int n, float *out) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  out[i * n + j] = out[n / 2];
}
)",
                        [](transform::UnitAST &U, const KernelSummary &) {
                          EXPECT_EQ(threadDimsRead(U.Kernel), 3u);
                          IndexPolyBuilder B(U.Ctx, U.Kernel);
                          std::vector<const clang::ArraySubscriptExpr *> S =
                              snippets::allUnder<clang::ArraySubscriptExpr>(U.Kernel.getBody());
                          ASSERT_EQ(S.size(), 2u);
                          llvm::Expected<IndexPoly> Own = B.build(S[0]->getIdx());
                          ASSERT_TRUE(static_cast<bool>(Own)) << llvm::toString(Own.takeError());
                          llvm::Expected<IndexPoly> Half = B.build(S[1]->getIdx());
                          ASSERT_TRUE(static_cast<bool>(Half)) << llvm::toString(Half.takeError());
                          EXPECT_EQ(B.positionDims(*Own), 3u);
                          EXPECT_FALSE(B.isUniform(*Own));
                          EXPECT_TRUE(B.isUniform(*Half)); // n / 2: an opaque atom.
                          EXPECT_EQ(B.positionDims(*Half), 0u);
                        });
}

} // namespace
