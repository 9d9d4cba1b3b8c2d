// Kernel units built by the front end from code in memory: what is copied, in
// which order, with which namespaces and macros; the kernel's recorded range.
#include "clang-plugin/parse/KernelFinder.h"
#include "test/fuzz/PragmaMutator.h"

#include <gtest/gtest.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

using namespace kopt::frontend;

namespace {

// The unit of the kernel named Name in Code, or the diagnostics.
std::optional<KernelUnit> unitOf(llvm::StringRef Code, llvm::StringRef Name,
                                 std::string *Diagnostics = nullptr,
                                 const std::vector<std::string> &Flags = {}) {
  std::string All;
  llvm::raw_string_ostream OS(All);
  std::vector<std::string> Args = kopt::fuzz::snippetClangArgs();
  Args.insert(Args.end(), Flags.begin(), Flags.end());
  llvm::Expected<std::vector<KernelSummary>> K = findKernelsInCode(Code, "/t/k.cu", Args, OS);
  if (Diagnostics)
    *Diagnostics = All;
  if (!K) {
    llvm::consumeError(K.takeError());
    return std::nullopt;
  }
  for (KernelSummary &S : *K)
    if (S.Name == Name)
      return std::move(S.Unit);
  return std::nullopt;
}

} // namespace

TEST(KernelUnit, CopiesWhatTheKernelUsesInSourceOrder) {
  std::string Code = "#define SCALE 2\n"
                     "#define TWICE(x) ((x) * SCALE)\n"
                     "#define UNUSED 3\n"
                     "typedef float real;\n"
                     "__device__ real unused(real x) { return x; }\n"
                     "__device__ real helper(real x) { return TWICE(x); }\n"
                     "#pragma kopt optimize\n"
                     "__global__ void k(real *x) { x[0] = helper(x[1]); }\n"
                     "__global__ void other() {}\n";
  std::string Diags;
  std::optional<KernelUnit> U = unitOf(Code, "k", &Diags);
  ASSERT_TRUE(U) << Diags;
  EXPECT_EQ(U->Text, "#define SCALE 2\n"
                     "#define TWICE(x) ((x) * SCALE)\n"
                     "\n"
                     "typedef float real;\n"
                     "\n"
                     "__device__ real helper(real x) { return TWICE(x); }\n"
                     "\n"
                     "__global__ void k(real *x) { x[0] = helper(x[1]); }\n"
                     "\n");
  EXPECT_EQ(U->Macros, (std::vector<std::string>{"SCALE", "TWICE"}));
  EXPECT_EQ(U->Decls, (std::vector<std::string>{"real", "helper", "k"}));
  EXPECT_TRUE(U->Includes.empty());
  EXPECT_EQ(U->Hash, hashUnitText(U->Text));
  llvm::StringRef Kernel = "__global__ void k(real *x) { x[0] = helper(x[1]); }";
  EXPECT_EQ(U->Definition.Begin, Code.find(Kernel));
  EXPECT_EQ(U->Definition.End, Code.find(Kernel) + Kernel.size());
  EXPECT_EQ(U->Definition.BeginLine, 8u);
  EXPECT_EQ(U->Definition.EndLine, 8u);
}

TEST(KernelUnit, NamespacesAliasesAndUsingDirectives) {
  std::string Code = "namespace a { namespace b {\n"
                     "struct S { int v; };\n"
                     "enum E { One = 1 };\n"
                     "} }\n"
                     "namespace unused_ns { __device__ int f() { return 0; } }\n"
                     "namespace ab = a::b;\n"
                     "using namespace a;\n"
                     "using namespace unused_ns;\n"
                     "namespace app {\n"
                     "__global__ void k(ab::S *s) { s->v = b::One; }\n"
                     "}\n";
  std::string Diags;
  std::optional<KernelUnit> U = unitOf(Code, "app::k", &Diags);
  ASSERT_TRUE(U) << Diags;
  EXPECT_EQ(U->Text, "namespace a {\n"
                     "namespace b {\n"
                     "struct S { int v; };\n"
                     "\n"
                     "enum E { One = 1 };\n"
                     "\n"
                     "} // namespace b\n"
                     "} // namespace a\n"
                     "namespace ab = a::b;\n"
                     "\n"
                     "using namespace a;\n"
                     "\n"
                     "namespace app {\n"
                     "__global__ void k(ab::S *s) { s->v = b::One; }\n"
                     "\n"
                     "} // namespace app\n");
}

TEST(KernelUnit, TemplatesPragmaAfterTheHeaderAndLateDefinitions) {
  std::string Code = "template <typename T> __device__ T late(T v);\n"
                     "template <typename T> struct Box { T v; };\n"
                     "template <typename T, int N>\n"
                     "#pragma kopt optimize\n"
                     "__global__ void k(Box<T> *b) { b->v = late(b->v) * N; }\n"
                     "template <typename T> __device__ T late(T v) { return v; }\n";
  std::string Diags;
  std::optional<KernelUnit> U = unitOf(Code, "k", &Diags);
  ASSERT_TRUE(U) << Diags;
  // The kernel goes last, after the definition of what it calls; the file's
  // forward declaration stays (another helper may call it before its definition).
  EXPECT_EQ(U->Text, "template <typename T> __device__ T late(T v);\n"
                     "\n"
                     "template <typename T> struct Box { T v; };\n"
                     "\n"
                     "template <typename T> __device__ T late(T v) { return v; }\n"
                     "\n"
                     "template <typename T, int N>\n"
                     "\n"
                     "__global__ void k(Box<T> *b) { b->v = late(b->v) * N; }\n"
                     "\n");
  EXPECT_EQ(U->Definition.BeginLine, 3u);
  EXPECT_EQ(U->Definition.EndLine, 5u);
}

TEST(KernelUnit, MacroRedefinedLaterKeepsTheOneTheKernelSaw) {
  std::string Code = "#define W 8\n"
                     "__global__ void k(int *x) { x[0] = W; }\n"
                     "#undef W\n"
                     "#define W 16\n";
  std::optional<KernelUnit> U = unitOf(Code, "k");
  ASSERT_TRUE(U);
  EXPECT_EQ(U->Text, "#define W 8\n"
                     "\n"
                     "__global__ void k(int *x) { x[0] = W; }\n"
                     "\n");
}

TEST(KernelUnit, DeviceVariablesAndExternC) {
  std::string Code = "__attribute__((constant)) float table[4];\n"
                     "__attribute__((device)) int counter;\n"
                     "extern \"C\" {\n"
                     "__global__ void k(float *x) { x[counter] = table[0]; }\n"
                     "}\n";
  std::string Diags;
  std::optional<KernelUnit> U = unitOf(Code, "k", &Diags);
  ASSERT_TRUE(U) << Diags;
  EXPECT_EQ(U->Text, "__attribute__((constant)) float table[4];\n"
                     "\n"
                     "__attribute__((device)) int counter;\n"
                     "\n"
                     "extern \"C\" {\n"
                     "__global__ void k(float *x) { x[counter] = table[0]; }\n"
                     "\n"
                     "} // extern \"C\"\n");
}

// The environment: what the unit means beyond its text. The snippet parse
// defines __global__ and __device__ on the command line, so they are in it.
namespace {
std::vector<std::string> environmentOf(llvm::StringRef Code,
                                       const std::vector<std::string> &Flags) {
  std::string Diags;
  std::optional<KernelUnit> U = unitOf(Code, "k", &Diags, Flags);
  EXPECT_TRUE(U) << Diags;
  std::vector<std::string> Env;
  if (U)
    for (const std::string &E : U->Environment)
      if (!llvm::StringRef(E).starts_with("__global__") &&
          !llvm::StringRef(E).starts_with("__device__"))
        Env.push_back(E);
  return Env;
}
} // namespace

TEST(KernelUnitEnvironment, HoldsCommandLineMacrosTheTextUsesAndNoOthers) {
  std::string Code = "#define LOCAL (WIDTH * 2)\n"
                     "__global__ void k(float *x) { x[0] = LOCAL + HEIGHT; }\n";
  EXPECT_EQ(environmentOf(Code, {"-DWIDTH=4", "-DHEIGHT=(1 + 2)", "-DNDEBUG", "-DUNUSED=7"}),
            (std::vector<std::string>{"HEIGHT=(1 + 2)", "WIDTH=4"}));
  // A macro the kernel tests is used; one undefined again is as if never given.
  std::string Tested = "__global__ void k(float *x) {\n#ifdef FAST\n x[0] = 1;\n#endif\n}\n";
  EXPECT_EQ(environmentOf(Tested, {"-DFAST"}), (std::vector<std::string>{"FAST=1"}));
  EXPECT_EQ(environmentOf(Tested, {"-DFAST", "-UFAST"}), std::vector<std::string>{});
  EXPECT_EQ(environmentOf(Tested, {}), std::vector<std::string>{});
}

TEST(KernelUnitEnvironment, HoldsFunctionMacrosFromSystemHeadersAndWhatTheirHeadersTest) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("kopt-env", Dir));
  auto Write = [&](llvm::StringRef Name, llvm::StringRef Text) {
    std::error_code EC;
    llvm::raw_fd_ostream OS((Dir + "/" + Name).str(), EC);
    OS << Text;
  };
  Write("check.h", "#ifdef QUIET\n#define CHECK(e) ((void)0)\n#else\n"
                   "#define CHECK(e, ...) ((e) ? (void)0 : __builtin_trap())\n#endif\n");
  Write("tuned.h", "#ifdef TUNED_WIDE\n__device__ inline int width() { return 8; }\n#else\n"
                   "__device__ inline int width() { return 4; }\n#endif\n");
  Write("other.h", "#ifdef OTHER\n#endif\n__device__ inline int other() { return 1; }\n");
  std::string Code = "#include <check.h>\n#include <tuned.h>\n#include <other.h>\n"
                     "__global__ void k(int *x) { CHECK(x[0] > 0); x[1] = width(); }\n";
  std::vector<std::string> Flags = {"-isystem", std::string(Dir)};
  EXPECT_EQ(environmentOf(Code, Flags),
            (std::vector<std::string>{"CHECK(e,...)=((e) ? (void)0 : __builtin_trap())"}));
  Flags.insert(Flags.end(), {"-DQUIET", "-DTUNED_WIDE=1", "-DOTHER"});
  // QUIET and TUNED_WIDE reach the unit through the headers it includes;
  // OTHER is tested only by a header whose declarations the kernel does not use.
  EXPECT_EQ(environmentOf(Code, Flags),
            (std::vector<std::string>{"CHECK(e)=((void)0)", "QUIET=1", "TUNED_WIDE=1"}));
  llvm::sys::fs::remove_directories(Dir);
}
