// FlagStores: which flags a kernel raises in a loop (one value stored to one
// location, never read), as the fact flag_stores and deferred-flag-store read
// them. A store the analysis wrongly calls a flag is moved to the thread's
// exit: each refusal here is a case where that would change results.
#include "clang-plugin/analysis/FlagStores.h"
#include "test/unit/common/SnippetAst.h"

#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>

#include <gtest/gtest.h>

using namespace kopt;

namespace {

// "flag:stores" for each flag of Code's kernel, in order; the stores as written.
std::string flagsIn(const std::string &Code) {
  std::string Out;
  snippets::withUnitAst(Code, [&](transform::UnitAST &U, const frontend::KernelSummary &) {
    for (const frontend::FlagStore &F : frontend::findFlagStores(U.Kernel, U.Ctx)) {
      if (!Out.empty())
        Out += ' ';
      Out += F.Flag->getName().str();
      Out += ':';
      for (size_t I = 0; I < F.Stores.size(); ++I) {
        if (I)
          Out += ',';
        Out += U.text(F.Stores[I]->getSourceRange());
      }
    }
  });
  return Out;
}

TEST(FlagStores, ABfsLevelsChangedFlag) {
  EXPECT_EQ(flagsIn(R"(
__global__ void k(const int *row, const int *col, int *level, int *changed, int n, int d) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || level[v] != d)
    return;
  for (int e = row[v]; e < row[v + 1]; e++)
    if (level[col[e]] < 0) {
      level[col[e]] = d + 1;
      *changed = 1;
    }
}
)"),
            "changed:*changed = 1");
}

TEST(FlagStores, TwoFlagsAndASlotTheHostChooses) {
  // Every store of a flag has the same address and value; the slot and the
  // value are scalar parameters the kernel does not change.
  EXPECT_EQ(flagsIn(R"(
__global__ void k(const float *x, float *y, bool *moved, int *flags, int n, int slot, int code) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 8; k++) {
    if (x[i * 8 + k] > 1.0f) { y[i] = 1.0f; moved[0] = false; flags[slot + 1] = code; }
    if (x[i * 8 + k] < -1.0f) { y[i] = -1.0f; moved[0] = false; flags[slot + 1] = code; }
  }
}
)"),
            "moved:moved[0] = false,moved[0] = false flags:flags[slot + 1] = code,flags[slot + 1] "
            "= code");
}

TEST(FlagStores, NotAFlagWhereItIsRead) {
  EXPECT_EQ(flagsIn(R"(
__global__ void k(const float *x, int *changed, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 4; k++)
    if (x[i] > k && *changed == 0)
      *changed = 1;
}
)"),
            "");
}

TEST(FlagStores, NotAFlagWhereWritersDiffer) {
  // Two values, two addresses, a value each thread computes, a slot that
  // varies by thread, a parameter the kernel changes: the last writer decides.
  EXPECT_EQ(flagsIn(R"(
__global__ void k(const float *x, int *a, int *b, int *c, int *d, int *e, int n, int s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 4; k++) {
    if (x[i] > k) { *a = 1; b[0] = 1; *c = i; d[threadIdx.x & 1] = 1; e[s] = 1; }
    if (x[i] < k) { *a = 2; b[1] = 1; s++; }
  }
}
)"),
            "");
}

TEST(FlagStores, NotAFlagOutsideALoopOrThroughAnotherUse) {
  // Set once a thread: nothing to save. Passed to a call, or compared: the
  // kernel uses the pointer otherwise. An increment reads the flag.
  EXPECT_EQ(flagsIn(R"(
__device__ void mark(int *p) { *p = 1; }
__global__ void k(const float *x, int *once, int *passed, int *counted, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (x[i] > 0.0f)
    *once = 1;
  for (int k = 0; k < 4; k++) {
    if (x[i] > k) { *passed = 1; mark(passed); }
    if (x[i] < k) (*counted)++;
  }
}
)"),
            "");
}

} // namespace
