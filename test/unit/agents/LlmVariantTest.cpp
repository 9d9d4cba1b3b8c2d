// Placing a model's kernel into the original unit: what repeats the unit is
// dropped, new helpers are kept, namespaces and template headers hold.
#include "agents/LlmVariant.h"

#include <gtest/gtest.h>

using namespace kopt::agents;

namespace {

UnitLayout layout(const std::string &Text, const std::string &Definition) {
  size_t At = Text.find(Definition);
  EXPECT_NE(At, std::string::npos);
  return {Text, At, At + Definition.size()};
}

std::string placedCode(const UnitLayout &L, llvm::StringRef Name, llvm::StringRef Code,
                       std::string *Unit = nullptr) {
  llvm::Expected<PlacedVariant> P = placeModelCode(L, Name, Code);
  if (!P)
    return "error: " + llvm::toString(P.takeError());
  if (Unit)
    *Unit = P->Unit;
  EXPECT_EQ(P->Variant.KernelName, Name.str());
  EXPECT_TRUE(P->Variant.VariantName.empty());
  return P->Variant.Code;
}

const std::string Helper = "__device__ float sq(float v) { return v * v; }";
const std::string Kernel = "__global__ void k(int n, float *y) { if (n) y[0] = sq(y[0]); }";
const std::string Unit = "#include <cstdint>\n#define N 4\n\n" + Helper + "\n\n" + Kernel + "\n\n";

TEST(LlmVariant, KernelAloneReplacesTheDefinition) {
  std::string NewKernel =
      "__global__ void k(int n, float *y) {\n  if (n > 0)\n    y[0] = sq(y[0]);\n}";
  std::string Out;
  EXPECT_EQ(placedCode(layout(Unit, Kernel), "k", "// fast\n" + NewKernel + "\n", &Out),
            "// fast\n" + NewKernel);
  EXPECT_EQ(Out,
            "#include <cstdint>\n#define N 4\n\n" + Helper + "\n\n// fast\n" + NewKernel + "\n\n");
}

TEST(LlmVariant, RepeatedUnitIsDroppedAndNewHelpersKept) {
  std::string Reply = "#include <cstdint>\n"
                      "#define N 4\n"
                      "/* the same helper, laid out differently */\n"
                      "__device__ float sq(float v)\n{\n  return v*v;\n}\n"
                      "#include <cuda_fp16.h>\n"
                      "struct Pair { float a, b; };\n"
                      "__device__ float cube(float v) { return v * sq(v); }\n"
                      "__global__ void k(int n, float *y) { y[0] = cube(y[0]); }\n";
  EXPECT_EQ(placedCode(layout(Unit, Kernel), "k", Reply),
            "#include <cuda_fp16.h>\n\n"
            "struct Pair { float a, b; };\n\n"
            "__device__ float cube(float v) { return v * sq(v); }\n\n"
            "__global__ void k(int n, float *y) { y[0] = cube(y[0]); }");
}

TEST(LlmVariant, NamespacedKernelKeepsItsScope) {
  std::string Def = "__global__ void k(float *y) { y[0] = 1; }";
  std::string Text = "namespace app {\n" + Def + "\n\n} // namespace app\n";
  std::string Reply = "namespace app {\n"
                      "__device__ float one() { return 1; }\n"
                      "__global__ void k(float *y) { y[0] = one(); }\n"
                      "} // namespace app\n";
  std::string Out;
  EXPECT_EQ(placedCode(layout(Text, Def), "app::k", Reply, &Out),
            "__device__ float one() { return 1; }\n\n"
            "__global__ void k(float *y) { y[0] = one(); }");
  EXPECT_EQ(Out, "namespace app {\n"
                 "__device__ float one() { return 1; }\n\n"
                 "__global__ void k(float *y) { y[0] = one(); }\n\n} // namespace app\n");
}

TEST(LlmVariant, TemplateHeaderStaysWithTheKernel) {
  std::string Def = "template <typename T, int B>\n__global__ void k(T *y) { y[0] = B; }";
  std::string Reply = "template <typename T, int B>\n"
                      "__global__ void __launch_bounds__(B) k(T *y) { y[0] = T(B); }";
  EXPECT_EQ(placedCode(layout(Def + "\n", Def), "k", Reply), Reply);
}

TEST(LlmVariant, DeclarationsAndOtherKernelsAreNotTheDefinition) {
  std::string Reply = "__global__ void k(int n, float *y);\n"
                      "__global__ void kk(int n, float *y) { }\n"
                      "__global__ void k(int n, float *y) { /* } */ const char *s = \"}\"; }\n";
  EXPECT_EQ(placedCode(layout(Unit, Kernel), "k", Reply),
            "__global__ void k(int n, float *y);\n\n"
            "__global__ void kk(int n, float *y) { }\n\n"
            "__global__ void k(int n, float *y) { /* } */ const char *s = \"}\"; }");
  EXPECT_EQ(placedCode(layout(Unit, Kernel), "k", "__global__ void k(int n, float *y);"),
            "error: the code holds no complete definition of kernel 'k'");
}

TEST(LlmVariant, CodeHashIgnoresCommentsAndLayout) {
  EXPECT_EQ(codeHash("int  a = b+1; // x\n"), codeHash("int a=b + 1;"));
  EXPECT_NE(codeHash("int a = b + 1;"), codeHash("int a = b + 2;"));
  EXPECT_NE(codeHash("unsigned int a;"), codeHash("unsignedint a;"));
}

} // namespace
