// Splicing variants: in place, and renamed with launches retargeted through
// the launch mapping, lines kept.
#include "clang-plugin/units/VariantSplice.h"
#include "clang-plugin/units/VariantSwitch.h"

#include <gtest/gtest.h>

using namespace kopt::frontend;

namespace {

const char *Source = "namespace ns {\n"                                   // 1
                     "__global__ void k(int n, float *p) { p[0] = n; }\n" // 2
                     "}\n"                                                // 3
                     "void run(float *p, int m) {\n"                      // 4
                     "  ns::k<<<m / 32, 32>>>(m + 1,\n"                   // 5
                     "                        p);\n"                      // 6
                     "  int after;\n"                                     // 7
                     "}\n";

LaunchExpr exprAt(llvm::StringRef Text, llvm::StringRef What, size_t From = 0) {
  LaunchExpr E;
  E.Text = What.str();
  E.Begin = unsigned(Text.find(What, From));
  E.End = E.Begin + unsigned(What.size());
  return E;
}

VariantSplice spliceOf(KernelVariant V) {
  llvm::StringRef Text(Source);
  VariantSplice S;
  S.Variant = std::move(V);
  S.Definition.Begin = unsigned(Text.find("__global__"));
  S.Definition.End = unsigned(Text.find("}\n}") + 1);
  S.Params = {{"n", "int", ParamCategory::Integer, false},
              {"p", "float *", ParamCategory::Pointer, false}};
  LaunchSite Site;
  Site.Begin = unsigned(Text.find("ns::k<<<"));
  Site.End = unsigned(Text.find("p);") + 2);
  Site.Grid = exprAt(Text, "m / 32");
  Site.Block = exprAt(Text, "32", Text.find("m / 32") + 6);
  Site.Args = {exprAt(Text, "m + 1"), exprAt(Text, "p", Text.find("m + 1"))};
  S.Launches = {Site};
  return S;
}

std::string splice(const VariantSplice &S) {
  llvm::Expected<std::string> Out = spliceVariants(Source, "k.cu", {S});
  if (!Out)
    return "error: " + llvm::toString(Out.takeError());
  return *Out;
}

} // namespace

TEST(VariantSplice, InPlaceReplacesTheDefinitionOnly) {
  std::string Out = splice(spliceOf({"ns::k", "__global__ void k(int n, float *p) {}", "", {}}));
  EXPECT_EQ(Out, "namespace ns {\n"
                 "#line 1 \"k.cu (kopt variant of ns::k)\"\n"
                 "__global__ void k(int n, float *p) {}\n"
                 "#line 2 \"k.cu\"\n"
                 "\n"
                 "}\n"
                 "void run(float *p, int m) {\n"
                 "  ns::k<<<m / 32, 32>>>(m + 1,\n"
                 "                        p);\n"
                 "  int after;\n"
                 "}\n");
}

TEST(VariantSplice, RenamedKeepsTheOriginalAndRetargetsLaunches) {
  LaunchMapping M;
  M.Grid[0] = "(n + 63) / 64";
  M.Block[0] = "64";
  std::string Out =
      splice(spliceOf({"ns::k", "__global__ void k64(int n, float *p) {}", "k64", M}));
  llvm::StringRef O(Out);
  EXPECT_TRUE(O.starts_with("namespace ns {\n"
                            "__global__ void k(int n, float *p) { p[0] = n; }\n"
                            "#line 1 \"k.cu (kopt variant of ns::k)\"\n"
                            "__global__ void k64(int n, float *p) {}\n"
                            "#line 2 \"k.cu\"\n"
                            "\n"
                            "}\n"
                            "void run(float *p, int m) {\n"))
      << Out;
  EXPECT_TRUE(O.contains("auto &&kopt_arg0_ = (m + 1); auto &&kopt_arg1_ = (p);")) << Out;
  EXPECT_TRUE(O.contains("ns::k64<<<dim3((unsigned)((((long long)kopt_arg0_) + 63) / 64)")) << Out;
  EXPECT_TRUE(O.contains(">>>(kopt_arg0_, kopt_arg1_); }())\n;\n  int after;\n}\n")) << Out;
  // Four lines more (the variant's two #line, its code, and the end of line 2
  // on a line of its own); the launch's two lines stay two.
  EXPECT_EQ(O.count('\n'), llvm::StringRef(Source).count('\n') + 4);
}

TEST(VariantSplice, WithAPreludeInPlaceKeepsTheOriginalAndLaunchesSwitch) {
  std::string Prelude;
  llvm::Expected<std::string> Out = spliceVariants(
      Source, "k.cu", {spliceOf({"ns::k", "__global__ void k(int n, float *p) {}", "", {}})},
      &Prelude);
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  llvm::StringRef O(*Out);
  EXPECT_TRUE(O.contains("__global__ void k(int n, float *p) {}\n")) << *Out;
  EXPECT_TRUE(O.contains("__global__ void k__kopt_original(int n, float *p) { p[0] = n; }"))
      << *Out;
  EXPECT_TRUE(O.contains("static const bool kopt_on_ = kopt_variants_enabled(\"ns::k\"); if "
                         "(kopt_on_) { ns::k<<<"))
      << *Out;
  EXPECT_TRUE(O.contains("} else { ns::k__kopt_original<<<kopt_grid_, kopt_block_, "
                         "kopt_smem_>>>(kopt_arg0_, kopt_arg1_); } }())\n;\n  int after;"))
      << *Out;
  EXPECT_TRUE(llvm::StringRef(Prelude).contains("kopt_variants_enabled(const char *kopt_kernel)"));
}

TEST(VariantSplice, WithAPreludeRenamedLaunchesSwitchToTheOriginal) {
  std::string Prelude;
  llvm::Expected<std::string> Out = spliceVariants(
      Source, "k.cu",
      {spliceOf({"ns::k", "__global__ void k64(int n, float *p) {}", "k64", LaunchMapping{}})},
      &Prelude);
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  llvm::StringRef O(*Out);
  EXPECT_FALSE(O.contains("__kopt_original")) << *Out;
  EXPECT_TRUE(O.contains("if (kopt_on_) { ns::k64<<<")) << *Out;
  EXPECT_TRUE(O.contains("} else { ns::k<<<kopt_grid_, kopt_block_, kopt_smem_>>>")) << *Out;
}

TEST(VariantSwitch, RenamesTheKernelNotItsNamesakes) {
  EXPECT_EQ(originalKernelName("ns::scale"), "scale__kopt_original");
  llvm::Expected<std::string> Out = renamedDefinition(
      "template <int scale_n>\n__global__ void __launch_bounds__(256) scale (int scale, float "
      "*x) { scale_helper(x); }",
      "blas::scale", "scale__kopt_original");
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  EXPECT_EQ(*Out, "template <int scale_n>\n__global__ void __launch_bounds__(256) "
                  "scale__kopt_original (int scale, float *x) { scale_helper(x); }");
  llvm::Expected<std::string> None =
      renamedDefinition("__global__ void other(int n) {}", "scale", "scale__kopt_original");
  ASSERT_FALSE(bool(None));
  EXPECT_NE(llvm::toString(None.takeError()).find("does not name it"), std::string::npos);
}

TEST(VariantSplice, RetargetedLaunchKeepsTheStreamAndEvaluatesOnce) {
  llvm::StringRef Text = "k<<<g, b, bytes, s>>>(n, p)";
  LaunchSite Site;
  Site.Begin = 0;
  Site.End = unsigned(Text.size());
  Site.Grid = exprAt(Text, "g");
  Site.Block = exprAt(Text, "b,");
  Site.Block.Text = "b";
  Site.SharedMem = exprAt(Text, "bytes");
  Site.Stream = exprAt(Text, "s>");
  Site.Stream->Text = "s";
  Site.Args = {exprAt(Text, "n"), exprAt(Text, "p)")};
  Site.Args[1].Text = "p";
  std::vector<KernelParam> Params = {{"n", "int", ParamCategory::Integer, false},
                                     {"p", "float *", ParamCategory::Pointer, false}};
  LaunchMapping M;
  M.SharedMem = "smem * 2";
  llvm::Expected<std::string> Out = retargetLaunch(Text, Site, "k2", M, Params);
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  EXPECT_EQ(*Out, "([&] { const dim3 kopt_grid_ = dim3(g); const dim3 kopt_block_ = dim3(b); "
                  "const size_t kopt_smem_ = (bytes); const cudaStream_t kopt_stream_ = (s); "
                  "auto &&kopt_arg0_ = (n); auto &&kopt_arg1_ = (p); (void)kopt_grid_; "
                  "(void)kopt_block_; (void)kopt_smem_; "
                  "k2<<<dim3((unsigned)(((long long)kopt_grid_.x)), (unsigned)(((long "
                  "long)kopt_grid_.y)), (unsigned)(((long long)kopt_grid_.z))), "
                  "dim3((unsigned)(((long long)kopt_block_.x)), (unsigned)(((long "
                  "long)kopt_block_.y)), (unsigned)(((long long)kopt_block_.z))), "
                  "(size_t)(((long long)kopt_smem_) * 2), kopt_stream_>>>(kopt_arg0_, "
                  "kopt_arg1_); }())");

  M.SharedMem = "p";
  llvm::Expected<std::string> Pointer = retargetLaunch(Text, Site, "k2", M, Params);
  ASSERT_FALSE(bool(Pointer));
  EXPECT_EQ(llvm::toString(Pointer.takeError()),
            "the launch mapping names 'p', which has type 'float *'; only integer parameters "
            "may be used");
}

TEST(VariantSplice, LaunchesFromMacrosStayOnTheOriginal) {
  VariantSplice S = spliceOf({"ns::k", "__global__ void k2(int n, float *p) {}", "k2", {}});
  S.Launches[0].Begin = 0; // Not a <<< call's text: as a macro expansion's range.
  S.Launches[0].End = 5;
  std::string Out = splice(S);
  EXPECT_TRUE(llvm::StringRef(Out).contains("  ns::k<<<m / 32, 32>>>(m + 1,\n")) << Out;
}

TEST(VariantSplice, DefinedInAHeaderOnlyTheLaunchesChange) {
  LaunchMapping M;
  M.Block[0] = "64";
  VariantSplice S = spliceOf({"ns::k", "__global__ void k64(int n, float *p) {}", "k64", M});
  S.DefinedHere = false; // HeaderInline splices the definition into the header's copy.
  std::string Out = splice(S);
  EXPECT_EQ(Out.find("k64(int n"), std::string::npos) << Out;
  EXPECT_NE(Out.find("__global__ void k(int n, float *p) { p[0] = n; }"), std::string::npos);
  EXPECT_NE(Out.find("ns::k64<<<"), std::string::npos) << Out;
}

TEST(VariantSplice, ATemplateVariantLaunchesOnlyForItsInstantiation) {
  LaunchMapping M;
  VariantSplice S = spliceOf({"ns::k", "__global__ void k64(int n, float *p) {}", "k64", M});
  S.Launches.front().TemplateArgs = "float, 32";
  S.Instantiation = "float,32"; // Spacing as another printer may give it.
  EXPECT_NE(splice(S).find("ns::k64<float, 32><<<"), std::string::npos);
  S.Instantiation = "float, 16";
  std::string Other = splice(S);
  EXPECT_EQ(Other.find("k64<float"), std::string::npos) << Other;
  EXPECT_NE(Other.find("  ns::k<<<m / 32, 32>>>(m + 1,"), std::string::npos) << Other;
  // Guarded per device pass, a template's variant is refused, not half spliced.
  S.Arch = ArchGuard{"defined(__CUDA_ARCH__)", 90, 90};
  EXPECT_NE(splice(S).find("error: ns::k: a kernel template's variants for several device "
                           "passes are not spliced"),
            std::string::npos);
}
