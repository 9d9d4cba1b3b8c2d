// Splicing kernel variants into a TU's text by offset, and kernel unit hashing.
#include "clang-plugin/units/KernelRewrite.h"
#include "clang-plugin/model/KernelUnit.h"

#include <gtest/gtest.h>

using namespace kopt::frontend;

namespace {

// The replacement of the text from Begin through End (both included) in Text.
KernelReplacement replace(llvm::StringRef Text, llvm::StringRef Begin, llvm::StringRef End,
                          std::string Name, std::string Variant) {
  KernelReplacement R;
  R.Begin = Text.find(Begin);
  R.End = Text.find(End, R.Begin) + End.size();
  R.KernelName = std::move(Name);
  R.Text = std::move(Variant);
  return R;
}

std::string rewrite(llvm::StringRef Text, llvm::ArrayRef<KernelReplacement> Rs) {
  llvm::Expected<std::string> Out = replaceKernelDefinitions(Text, "dir/k.cu", Rs);
  if (!Out)
    return "error: " + llvm::toString(Out.takeError());
  return *Out;
}

} // namespace

TEST(KernelRewrite, VariantGetsItsOwnFileAndTheRestKeepsItsLines) {
  std::string Text = "#define N 4\n"
                     "__global__ void k(float *x) {\n"
                     "  x[0] = N;\n"
                     "}\n"
                     "int after;\n";
  EXPECT_EQ(
      rewrite(Text, {replace(Text, "__global__", "}", "k", "__global__ void k(float *x) {}")}),
      "#define N 4\n"
      "#line 1 \"dir/k.cu (kopt variant of k)\"\n"
      "__global__ void k(float *x) {}\n"
      "#line 4 \"dir/k.cu\"\n"
      "\n"
      "int after;\n");
}

TEST(KernelRewrite, CodeOnTheKernelsLastLineKeepsItsColumn) {
  std::string Text = "__global__ void k() {} int x;\n";
  EXPECT_EQ(rewrite(Text, {replace(Text, "__global__", "}", "k", "V\n")}),
            "#line 1 \"dir/k.cu (kopt variant of k)\"\n"
            "V\n"
            "#line 1 \"dir/k.cu\"\n"
            "                       int x;\n");
}

TEST(KernelRewrite, KernelStartingMidLineStartsOnANewLine) {
  std::string Text = "int a; __global__ void k() {}\nint b;\n";
  EXPECT_EQ(rewrite(Text, {replace(Text, "__global__", "}", "ns::k", "V")}),
            "int a; \n"
            "#line 1 \"dir/k.cu (kopt variant of ns::k)\"\n"
            "V\n"
            "#line 1 \"dir/k.cu\"\n"
            "\n"
            "int b;\n");
}

TEST(KernelRewrite, SeveralKernelsInAnyOrder) {
  std::string Text = "template <int B>\n"
                     "__global__ void a() {\n"
                     "}\n"
                     "\n"
                     "__global__ void b() {\n"
                     "}\n";
  KernelReplacement A = replace(Text, "template", "}", "a", "A\n");
  KernelReplacement B = replace(Text, "__global__ void b", "}", "b", "B\n");
  EXPECT_EQ(rewrite(Text, {B, A}), "#line 1 \"dir/k.cu (kopt variant of a)\"\n"
                                   "A\n"
                                   "#line 3 \"dir/k.cu\"\n"
                                   "\n"
                                   "\n"
                                   "#line 1 \"dir/k.cu (kopt variant of b)\"\n"
                                   "B\n"
                                   "#line 6 \"dir/k.cu\"\n"
                                   "\n");
}

TEST(KernelRewrite, PragmasAndPathsAreLeftForTheCaller) {
  std::string Text = "#pragma kopt optimize\n__global__ void k() {}\n";
  llvm::Expected<std::string> Out =
      replaceKernelDefinitions(Text, "a \"q\"\\b.cu", {replace(Text, "__global__", "}", "k", "V")});
  ASSERT_TRUE(bool(Out));
  EXPECT_EQ(*Out, "#pragma kopt optimize\n"
                  "#line 1 \"a \\\"q\\\"\\\\b.cu (kopt variant of k)\"\n"
                  "V\n"
                  "#line 2 \"a \\\"q\\\"\\\\b.cu\"\n"
                  "\n");
}

TEST(KernelRewrite, NoReplacementsKeepTheText) { EXPECT_EQ(rewrite("int x;\n", {}), "int x;\n"); }

TEST(KernelRewrite, OverlapAndOutOfRangeAreErrors) {
  std::string Text = "__global__ void k() {}\n";
  KernelReplacement A{0, 10, "a", "A"}, B{5, 15, "b", "B"}, Far{3, 99, "far", "F"},
      Backwards{8, 4, "back", "X"};
  EXPECT_EQ(rewrite(Text, {A, B}), "error: replacements of a and b overlap");
  EXPECT_EQ(rewrite(Text, {Far}),
            "error: replacement of far: range [3, 99) is outside the text (23 bytes)");
  EXPECT_EQ(rewrite(Text, {Backwards}),
            "error: replacement of back: range [8, 4) is outside the text (23 bytes)");
  KernelReplacement Adjacent{10, 12, "c", "C"};
  EXPECT_TRUE(bool(replaceKernelDefinitions(Text, "k.cu", {A, Adjacent})));
}

TEST(KernelUnitHash, IgnoresTrailingSpaceAndBlankLines) {
  EXPECT_EQ(normalizeUnitText("a  \n\n\t\nb\t\r\nc"), "a\nb\nc\n");
  EXPECT_EQ(hashUnitText("a\nb\n"), hashUnitText("a   \n\n\nb"));
  EXPECT_NE(hashUnitText("a\nb\n"), hashUnitText("a\n b\n"));
  EXPECT_EQ(hashUnitText(""),
            "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}
