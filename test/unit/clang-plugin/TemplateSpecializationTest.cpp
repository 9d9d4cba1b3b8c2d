#include "clang-plugin/units/TemplateSpecialization.h"

#include <gtest/gtest.h>

using kopt::frontend::argsNeedNoDeclarations;
using kopt::frontend::explicitSpecialization;
using kopt::frontend::sameTemplateArgs;

TEST(TemplateSpecialization, BindsNonTypeAndTypeParameters) {
  llvm::Expected<std::string> S =
      explicitSpecialization("template <typename T, int Block = 64>\n"
                             "__global__ void __launch_bounds__(Block) tile(int n, T *x) {\n"
                             "  __shared__ T t[Block]; // Block, T\n"
                             "}\n",
                             "tile", "float, 32");
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(*S, "template <>\n"
                "__global__ void __launch_bounds__((32)) tile<float, 32>(int n, float *x) { "
                "using T = float; constexpr int Block = (32);\n"
                "  __shared__ T t[Block]; // Block, T\n"
                "}\n");
}

TEST(TemplateSpecialization, RejectsCodeThatIsNoTemplateOrHasAnotherKernel) {
  llvm::Expected<std::string> Plain =
      explicitSpecialization("__global__ void k(int *x) {}", "k", "int");
  ASSERT_FALSE(bool(Plain));
  EXPECT_NE(llvm::toString(Plain.takeError()).find("not a template definition"), std::string::npos);
  llvm::Expected<std::string> Other =
      explicitSpecialization("template <int B> __global__ void j(int *x) {}", "k", "4");
  ASSERT_FALSE(bool(Other));
  EXPECT_NE(llvm::toString(Other.takeError()).find("no declaration of the kernel"),
            std::string::npos);
  llvm::Expected<std::string> Count =
      explicitSpecialization("template <int B> __global__ void k(int *x) {}", "k", "4, 5");
  ASSERT_FALSE(bool(Count));
  llvm::consumeError(Count.takeError());
}

TEST(TemplateSpecialization, ArgsOfBuiltinTypesAndNumbersOnly) {
  EXPECT_TRUE(argsNeedNoDeclarations("float, 128"));
  EXPECT_TRUE(argsNeedNoDeclarations("unsigned int, -1, true"));
  EXPECT_FALSE(argsNeedNoDeclarations("Vec3, 16"));
  EXPECT_FALSE(argsNeedNoDeclarations("ns::Op"));
}

TEST(TemplateSpecialization, ArgumentsComparedWithoutTheirSpacing) {
  EXPECT_TRUE(sameTemplateArgs("float,128", "float, 128"));
  EXPECT_TRUE(sameTemplateArgs(" 32 ", "32"));
  EXPECT_FALSE(sameTemplateArgs("float, 128", "float, 12"));
  EXPECT_FALSE(sameTemplateArgs("16", "32"));
}
