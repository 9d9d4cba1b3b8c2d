// '#pragma kopt optimize' through clang: the handler, macro expansion, which
// declaration a pragma applies to, diagnostics with locations, and the JSON
// that kopt inspect prints.
#include "clang-plugin/parse/KernelFinder.h"
#include "clang-plugin/pragma/PragmaJson.h"
#include "test/fuzz/PragmaMutator.h"

#include <gtest/gtest.h>

using namespace kopt::frontend;

namespace {

struct Parsed {
  std::vector<KernelSummary> Kernels; // Empty on failure.
  bool OK = false;
  std::string Diagnostics; // file:line:col: level: message lines only.
};

Parsed parse(llvm::StringRef Code) {
  Parsed P;
  std::string All;
  llvm::raw_string_ostream OS(All);
  llvm::Expected<std::vector<KernelSummary>> K =
      findKernelsInCode(Code, "/t/k.cu", kopt::fuzz::snippetClangArgs(), OS);
  if (K) {
    P.OK = true;
    P.Kernels = std::move(*K);
  } else {
    llvm::consumeError(K.takeError());
  }
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(All).split(Lines, '\n');
  for (llvm::StringRef L : Lines)
    if (L.starts_with("/t/k.cu:"))
      P.Diagnostics += L.drop_front(3).str() + "\n";
  return P;
}

const KernelSummary *kernel(const Parsed &P, llvm::StringRef Name) {
  for (const KernelSummary &K : P.Kernels)
    if (K.Name == Name)
      return &K;
  return nullptr;
}

} // namespace

TEST(PragmaFrontend, MacrosExpandAsInTheCompiler) {
  Parsed P = parse("#define N 1024\n"
                   "#define DIV_UP(a, b) (((a) + (b) - 1) / (b))\n"
                   "#define LAUNCH launch(grid: DIV_UP(n, 256); block: 256)\n"
                   "#pragma kopt optimize LAUNCH args(n = N) buffers(x[N/4] in)\n"
                   "__global__ void k(int n, const float *x) {}\n");
  ASSERT_TRUE(P.OK) << P.Diagnostics;
  ASSERT_EQ(P.Kernels.size(), 1u);
  const KernelSummary &K = P.Kernels[0];
  ASSERT_TRUE(K.Pragma);
  EXPECT_EQ(K.Pragma->Line, 4u);
  EXPECT_EQ(K.Pragma->Column, 1u);
  EXPECT_EQ(K.Pragma->Launch->Grid[0].Text, "(((n) + (256) - 1) / (256))");
  EXPECT_EQ((*K.Pragma->Args)[0].Value.Text, "1024");
  EXPECT_EQ((*K.Pragma->Buffers)[0].Size.Text, "1024/4");
  llvm::Expected<int64_t> Grid = evaluate(K.Pragma->Launch->Grid[0], {{"n", 1000}});
  ASSERT_TRUE(bool(Grid));
  EXPECT_EQ(*Grid, 4);
}

TEST(PragmaFrontend, KernelsWithoutThePragmaAreListedToo) {
  Parsed P = parse("__global__ void plain(int *p) {}\n"
                   "#pragma kopt optimize noalias\n"
                   "template <typename T> __global__ void fill(T *p, T v) {}\n"
                   "namespace ns {\n"
                   "#pragma kopt optimize engine(llm)\n"
                   "static __global__ void inner() {}\n"
                   "}\n"
                   "#pragma kopt optimize\n"
                   "extern \"C\" __global__ void c_kernel() {}\n"
                   "#pragma kopt optimize\n"
                   "[[maybe_unused]] __global__ void attributed() {}\n"
                   "template <typename T>\n"
                   "#pragma kopt optimize\n"
                   "__global__ void after_template_header(T *p) {}\n");
  ASSERT_TRUE(P.OK) << P.Diagnostics;
  ASSERT_EQ(P.Kernels.size(), 6u);
  EXPECT_FALSE(kernel(P, "plain")->Pragma);
  ASSERT_TRUE(kernel(P, "fill")->Pragma);
  EXPECT_TRUE(kernel(P, "fill")->Pragma->NoAlias);
  ASSERT_TRUE(kernel(P, "ns::inner")->Pragma);
  EXPECT_EQ(kernel(P, "ns::inner")->Pragma->Engine, EngineKind::Llm);
  EXPECT_TRUE(kernel(P, "c_kernel")->Pragma);
  EXPECT_TRUE(kernel(P, "attributed")->Pragma);
  EXPECT_TRUE(kernel(P, "after_template_header")->Pragma);
}

TEST(PragmaFrontend, ClauseErrorsPointAtTheToken) {
  Parsed P = parse("#pragma kopt optimise\n"
                   "__global__ void a() {}\n"
                   "#pragma kopt optimize lanch(grid: 1; block: 1)\n"
                   "__global__ void b() {}\n"
                   "#define BAD (1 +\n"
                   "#pragma kopt optimize launch(grid: BAD; block: 1)\n"
                   "__global__ void c() {}\n");
  EXPECT_FALSE(P.OK);
  EXPECT_EQ(P.Diagnostics,
            "k.cu:1:14: error: unknown '#pragma kopt' directive 'optimise'; did you mean "
            "'optimize'?\n"
            "k.cu:3:23: error: unknown clause 'lanch' in '#pragma kopt optimize'; did you mean "
            "'launch'?\n"
            "k.cu:6:39: error: expected an expression, found ';'\n");
}

TEST(PragmaFrontend, ErrorsInsideMacrosPointAtTheExpansion) {
  Parsed P = parse("#define GRID n / 2.5\n"
                   "#pragma kopt optimize launch(grid: GRID; block: 1)\n"
                   "__global__ void k(int n) {}\n");
  EXPECT_FALSE(P.OK);
  EXPECT_EQ(P.Diagnostics,
            "k.cu:2:36: error: expected an integer for a launch dimension; '2.5' is a "
            "floating-point number\n"
            "k.cu:1:18: note: expanded from macro 'GRID'\n");
}

TEST(PragmaFrontend, PlacementErrors) {
  Parsed P = parse("#pragma kopt optimize\n"
                   "__device__ void d() {}\n"
                   "#pragma kopt optimize\n"
                   "__global__ void decl(int n);\n"
                   "#pragma kopt optimize\n"
                   "int variable;\n"
                   "#pragma kopt optimize\n"
                   "void host() {\n"
                   "#pragma kopt optimize\n"
                   "  int local = 0;\n"
                   "}\n"
                   "#pragma kopt optimize\n"
                   "#pragma kopt optimize\n"
                   "__global__ void twice() {}\n"
                   "#pragma kopt optimize\n");
  EXPECT_FALSE(P.OK);
  const char *Must = "error: '#pragma kopt optimize' must be followed by a __global__ function "
                     "definition; ";
  EXPECT_EQ(P.Diagnostics,
            std::string("k.cu:13:1: error: '#pragma kopt optimize' appears twice before one "
                        "declaration\n"
                        "k.cu:12:1: note: previous '#pragma kopt optimize' is here\n") +
                "k.cu:1:1: " + Must + "'d' is a __device__ function\n" +
                "k.cu:2:17: note: the next declaration is here\n" + "k.cu:3:1: " + Must +
                "'decl' is a declaration without a body\n" +
                "k.cu:4:17: note: the next declaration is here\n" + "k.cu:5:1: " + Must +
                "'variable' is a variable\n" + "k.cu:6:5: note: the next declaration is here\n" +
                "k.cu:7:1: " + Must + "'host' is a host function\n" +
                "k.cu:8:6: note: the next declaration is here\n" + "k.cu:9:1: " + Must +
                "'local' is a variable\n" + "k.cu:10:7: note: the next declaration is here\n" +
                "k.cu:15:1: " + Must + "found the end of the file\n");
}

TEST(PragmaFrontend, ClausesAreCheckedAgainstTheKernel) {
  Parsed P = parse("#pragma kopt optimize args(m = 4) buffers(n[16] in)\n"
                   "__global__ void k(int n, float *p) {}\n");
  EXPECT_FALSE(P.OK);
  EXPECT_EQ(P.Diagnostics, "k.cu:1:28: error: kernel 'k' has no parameter named 'm'\n"
                           "k.cu:1:43: error: 'buffers' describes pointer parameters; 'n' has "
                           "type 'int'\n");
}

TEST(PragmaFrontend, WarningsDoNotFailTheParse) {
  Parsed P = parse("#pragma kopt optimize buffers(x[4] inout) launch(grid: 1; block: 4)\n"
                   "__global__ void k(const float *x) {}\n");
  EXPECT_TRUE(P.OK);
  EXPECT_EQ(P.Diagnostics, "k.cu:1:36: warning: buffer 'x' is marked 'inout' but points to const "
                           "(type 'const float *')\n");
  ASSERT_EQ(P.Kernels.size(), 1u);
  EXPECT_TRUE(P.Kernels[0].Pragma);
}

TEST(PragmaJson, ExpressionsHaveTextAndValue) {
  // B, a template parameter of a template the file does not instantiate, has no value.
  Parsed P = parse("#define N (1 << 10)\n"
                   "#pragma kopt optimize launch(grid: (n + 255) / 256, B; block: 256) "
                   "args(n = N, m = 2, a = 0.5) tol(rtol = 1e-3) budget(time = 500ms) "
                   "skills(+vectorize, -unroll) engine(auto)\n"
                   "template <int B> __global__ void k(int n, int m, float a) {}\n");
  ASSERT_TRUE(P.OK) << P.Diagnostics;
  nlohmann::ordered_json J = pragmaToJson(P.Kernels.at(0).Pragma);
  EXPECT_EQ(J.dump(),
            R"js({"line":2,"column":1,"launch":{"grid":[{"text":"(n + 255) / 256","value":4},)js"
            R"js({"text":"B","value":null}],"block":[{"text":"256","value":256}],"smem":null},)js"
            R"js("args":{"n":{"text":"(1 << 10)","value":1024},"m":{"text":"2","value":2},)js"
            R"js("a":{"text":"0.5","value":0.5}},)js"
            R"js("buffers":null,"tol":{"rtol":0.001,"atol":null},)js"
            R"js("budget":{"time_s":0.5,"evals":null,"tokens":null},)js"
            R"js("skills":{"enable":["vectorize"],"disable":["unroll"]},"noalias":false,)js"
            R"js("engine":"auto"})js");
  EXPECT_TRUE(pragmaToJson(std::optional<PragmaClauses>()).is_null());
}
