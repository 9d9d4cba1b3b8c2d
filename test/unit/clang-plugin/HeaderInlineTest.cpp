// A header kernel's variant spliced into a TU: the #include replaced by the
// header's rewritten text between #line directives, the header read, never written.
#include "clang-plugin/units/HeaderInline.h"

#include <gtest/gtest.h>

#include <map>

using namespace kopt::frontend;

namespace {

const std::map<std::string, std::string> Files = {{"h/k.cuh",
                                                   "#pragma once\n"                          // 1
                                                   "#pragma kopt optimize launch(grid: 1)\n" // 2
                                                   "__global__ void k(float *p) {}\n"        // 3
                                                   "int after_k;\n"}};                       // 4
const char *Main = "#include \"h/k.cuh\" // the kernel\n"
                   "int main_line2;\n";

HeaderInliner inliner() {
  return HeaderInliner([](const std::string &Path) -> llvm::Expected<std::string> {
    auto It = Files.find(Path);
    if (It == Files.end())
      return llvm::createStringError("no file %s", Path.c_str());
    return It->second;
  });
}

IncludeStep stepToHeader(unsigned Times) {
  IncludeStep Step;
  Step.Includer = "main.cu";
  Step.IncluderIsMain = true;
  Step.Included = "h/k.cuh";
  Step.Begin = 0;
  Step.End = unsigned(llvm::StringRef(Main).find(" //"));
  Step.Line = 1;
  Step.Times = Times;
  return Step;
}

VariantSplice variantOfK() {
  VariantSplice S;
  S.Variant = {"k", "__global__ void k(float *p) { /* variant */ }\n", "", {}};
  llvm::StringRef Header = Files.at("h/k.cuh");
  S.Definition.Begin = unsigned(Header.find("__global__"));
  S.Definition.End = unsigned(Header.find("{}") + 2);
  S.Definition.BeginLine = 3;
  return S;
}

} // namespace

TEST(HeaderInline, ReplacesTheIncludeByTheSplicedHeaderBetweenLineDirectives) {
  HeaderInliner Headers = inliner();
  ASSERT_FALSE(bool(Headers.add({stepToHeader(1)}, variantOfK())));
  llvm::Expected<std::vector<KernelReplacement>> Edits = Headers.mainFileEdits(Main);
  ASSERT_TRUE(bool(Edits)) << llvm::toString(Edits.takeError());
  llvm::Expected<std::string> Out = spliceVariants(Main, "main.cu", {}, nullptr, *Edits);
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  EXPECT_EQ(*Out, "#line 1 \"main.cu (kopt variant of #include h/k.cuh)\"\n"
                  "/* kopt: spliced header \"h/k.cuh\" */\n"
                  "#line 1 \"h/k.cuh\"\n"
                  "\n"
                  "\n"
                  "#line 1 \"h/k.cuh (kopt variant of k)\"\n"
                  "__global__ void k(float *p) { /* variant */ }\n"
                  "#line 3 \"h/k.cuh\"\n"
                  // The original beside it, under its own name, for KOPT_VARIANTS=off.
                  "#line 1 \"h/k.cuh (kopt variant of k)\"\n"
                  "\n"
                  "#line 3 \"h/k.cuh\"\n"
                  "__global__ void k__kopt_original(float *p) {}\n"
                  "#line 3 \"h/k.cuh\"\n"
                  "\n"
                  "int after_k;\n"
                  "#line 1 \"main.cu\"\n"
                  "\n"
                  "int main_line2;\n");
  EXPECT_EQ(splicedHeaders(*Out), std::vector<std::string>{"h/k.cuh"});
}

TEST(HeaderInline, RefusesAHeaderIncludedTwice) {
  HeaderInliner Headers = inliner();
  llvm::Error E = Headers.add({stepToHeader(2)}, variantOfK());
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(llvm::toString(std::move(E)),
            "h/k.cuh is included 2 times in this file (once is spliced)");
  llvm::Expected<std::vector<KernelReplacement>> Edits = Headers.mainFileEdits(Main);
  ASSERT_TRUE(bool(Edits));
  EXPECT_TRUE(Edits->empty());
}
