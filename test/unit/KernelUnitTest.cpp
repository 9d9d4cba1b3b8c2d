// Kernel units built by the front end from code in memory: what is copied, in
// which order, with which namespaces and macros; the kernel's recorded range.
#include "clang-plugin/parse/KernelFinder.h"
#include "test/fuzz/PragmaMutator.h"

#include <gtest/gtest.h>

using namespace kopt::frontend;

namespace {

// The unit of the kernel named Name in Code, or the diagnostics.
std::optional<KernelUnit> unitOf(llvm::StringRef Code, llvm::StringRef Name,
                                 std::string *Diagnostics = nullptr) {
  std::string All;
  llvm::raw_string_ostream OS(All);
  llvm::Expected<std::vector<KernelSummary>> K =
      findKernelsInCode(Code, "/t/k.cu", kopt::fuzz::snippetClangArgs(), OS);
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
