// CarriedStores: which stores a loop reads back in its next iteration
// (clang-plugin/analysis/CarriedStores.h), as the fact carried_stores and
// carried-scalar-replacement read them. A read the analysis wrongly calls
// carried becomes a register holding another element: each refusal here is a
// case where that would change results.
#include "clang-plugin/analysis/CarriedStores.h"
#include "test/unit/common/SnippetAst.h"

#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>

#include <gtest/gtest.h>

using namespace kopt;

namespace {

// "array:reads" for each carried store of Code's kernel, in order; the reads as
// written ("cp[i - 1]").
std::string carriedIn(const std::string &Code) {
  std::string Out;
  snippets::withUnitAst(Code, [&](transform::UnitAST &U, const frontend::KernelSummary &) {
    for (const frontend::CarriedStore &S : frontend::findCarriedStores(U.Kernel, U.Ctx)) {
      if (!Out.empty())
        Out += ' ';
      Out += S.Array->getName().str();
      Out += ':';
      for (size_t I = 0; I < S.Reads.size(); ++I) {
        if (I)
          Out += ',';
        Out += U.text(S.Reads[I]->getSourceRange());
      }
    }
  });
  return Out;
}

TEST(CarriedStores, ThomasSweepsForwardAndBack) {
  EXPECT_EQ(carriedIn(R"(
__global__ void k(const float *d, float *x, float *cp, float *dp, int n) {
  long row = (long)(blockIdx.x * blockDim.x + threadIdx.x) * n;
  for (int i = 1; i < n; i++) {
    float m = 2.0f - cp[row + i - 1];
    cp[row + i] = 1.0f / m;
    dp[row + i] = (d[row + i] - dp[row + i - 1]) / m;
  }
  for (int i = n - 2; i >= 0; --i)
    x[row + i] = dp[row + i] - cp[row + i] * x[row + i + 1];
}
)"),
            "cp:cp[row + i - 1] dp:dp[row + i - 1] x:x[row + i + 1]");
}

TEST(CarriedStores, AnIndexThroughALocalAndAnOuterCounter) {
  // id = j * n + c read at id - n in a loop over j; the outer loop's counter t
  // is the same in both.
  EXPECT_EQ(carriedIn(R"(
__global__ void k(float *y, const float *x, int n, int m, int steps) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  for (int t = 0; t < steps; t++)
    for (int j = 1; j < m; j += 1) {
      int id = t * n * m + j * n + c;
      y[id] = x[id] + 0.5f * y[id - n];
    }
}
)"),
            "y:y[id - n]");
}

TEST(CarriedStores, AStepOfTwoReadsTwoBack) {
  EXPECT_EQ(carriedIn(R"(
__global__ void k(double *s, const double *f, int n) {
  for (int k = 2; k < n; k += 2)
    s[k] = s[k - 2] + f[k];
  for (int k = 2; k < n; k++)
    s[k] = s[k - 2] + f[k];
}
)"),
            "s:s[k - 2]");
}

TEST(CarriedStores, NotWhereTheStoreMayBeSkippedOrTheElementWrittenAgain) {
  // A conditional store; a continue before the store; a second write to the
  // array; the read after the store (it reads this iteration's element where
  // the index's coefficient is zero); the read as an lvalue.
  EXPECT_EQ(carriedIn(R"(
__global__ void k(float *a, float *b, float *c, float *e, float *g, const float *x, int n) {
  for (int i = 1; i < n; i++)
    if (x[i] > 0.0f)
      a[i] = a[i - 1] + x[i];
  for (int i = 1; i < n; i++) {
    if (x[i] < 0.0f)
      continue;
    b[i] = b[i - 1] + x[i];
  }
  for (int i = 1; i < n; i++) {
    c[i] = c[i - 1] + x[i];
    c[0] = x[i];
  }
  for (int i = 1; i < n; i++) {
    e[i] = x[i];
    g[i] = e[i - 1];
  }
  for (int i = 1; i < n; i++) {
    float *p = &g[i - 1];
    g[i] = *p + 1.0f;
  }
}
)"),
            "");
}

TEST(CarriedStores, NotWhereTheCounterOrTheArrayChangesInTheBody) {
  EXPECT_EQ(carriedIn(R"(
__global__ void k(float *a, const float *x, int n) {
  for (int i = 1; i < n; i++) {
    a[i] = a[i - 1] + x[i];
    i += x[i] > 0.0f;
  }
  float *q = a;
  for (int i = 1; i < n; i++) {
    q[i] = q[i - 1] + x[i];
    q += n;
  }
  for (int i = 1; i < n; i++)
    a[i / 2] = a[(i - 1) / 2] + x[i];
}
)"),
            "");
}

TEST(CarriedStores, TheFactCountsThem) {
  EXPECT_EQ(snippets::snippetKernel(R"(
__global__ void k(float *y, const float *x, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 1; i < n; ++i)
    y[r * n + i] = 0.8f * y[r * n + i - 1] + x[r * n + i];
  for (int i = n - 2; i >= 0; i--)
    y[r * n + i] = 0.8f * y[r * n + i + 1] + y[r * n + i];
}
)")
                .Features.CarriedStores,
            2u);
}

} // namespace
