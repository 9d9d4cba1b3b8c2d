// KernelVariant to and from JSON: the --variant files and the cache's form.
#include "clang-plugin/units/KernelVariantJson.h"

#include <gtest/gtest.h>

using namespace kopt::frontend;

namespace {
std::string errorOf(llvm::StringRef Json) {
  llvm::Expected<KernelVariant> V = kernelVariantFromJson(Json);
  if (V)
    return "no error";
  return llvm::toString(V.takeError());
}
} // namespace

TEST(KernelVariantJson, RoundTripsBothKinds) {
  KernelVariant InPlace{"ns::k", "__global__ void k() {}\n", "", std::nullopt};
  KernelVariant Renamed{"k", "__global__ void k2(int n) {}\n", "k2", LaunchMapping{}};
  Renamed.Launch->Block = {"128", "1", "1"};
  Renamed.Launch->Grid[0] = "(n + 127) / 128";
  for (const KernelVariant &V : {InPlace, Renamed}) {
    std::string Json = kernelVariantToJson(V);
    llvm::Expected<KernelVariant> Back = kernelVariantFromJson(Json);
    ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError()) << "\n" << Json;
    EXPECT_EQ(Back->KernelName, V.KernelName);
    EXPECT_EQ(Back->Code, V.Code);
    EXPECT_EQ(Back->VariantName, V.VariantName);
    ASSERT_EQ(Back->Launch.has_value(), V.Launch.has_value());
    if (V.Launch) {
      EXPECT_EQ(Back->Launch->Grid, V.Launch->Grid);
      EXPECT_EQ(Back->Launch->Block, V.Launch->Block);
      EXPECT_EQ(Back->Launch->SharedMem, V.Launch->SharedMem);
    }
  }
  EXPECT_NE(kernelVariantToJson(InPlace).find("\"format\": \"kopt-variant-1\""), std::string::npos);
}

TEST(KernelVariantJson, MissingDimensionsKeepTheOriginalsAndIntegersAreExpressions) {
  llvm::Expected<KernelVariant> V = kernelVariantFromJson(
      R"({"kernel": "k", "code": "x", "variant_name": "k2", "launch": {"block": [128]}})");
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  EXPECT_EQ(V->Launch->Block, (std::array<std::string, 3>{"128", "block_y", "block_z"}));
  EXPECT_EQ(V->Launch->Grid[0], "grid_x");
  EXPECT_EQ(V->Launch->SharedMem, "smem");
}

TEST(KernelVariantJson, ArraysHoldSeveralVariants) {
  llvm::Expected<std::vector<KernelVariant>> Vs =
      kernelVariantsFromJson(R"([{"kernel": "a", "code": "x"}, {"kernel": "b", "code": "y"}])");
  ASSERT_TRUE(bool(Vs)) << llvm::toString(Vs.takeError());
  ASSERT_EQ(Vs->size(), 2u);
  EXPECT_EQ((*Vs)[1].KernelName, "b");
  llvm::Expected<std::vector<KernelVariant>> Bad =
      kernelVariantsFromJson(R"([{"kernel": "a", "code": "x"}, {"kernel": "b"}])");
  ASSERT_FALSE(bool(Bad));
  EXPECT_EQ(llvm::toString(Bad.takeError()),
            "variant 1: a variant needs 'code', a non-empty string");
}

TEST(KernelVariantJson, SaysWhatIsWrong) {
  EXPECT_EQ(errorOf(R"({"code": "x"})"), "a variant needs 'kernel', a non-empty string");
  EXPECT_EQ(errorOf(R"({"kernel": "k", "code": "x", "launch": {}})"),
            "'launch' needs 'variant_name': a variant that keeps the kernel's name keeps its "
            "launch");
  EXPECT_EQ(errorOf(R"({"kernel": "k", "code": "x", "colour": 1})"),
            "unknown key 'colour' in a variant");
  EXPECT_EQ(errorOf(R"({"kernel": "k", "code": "x", "format": "v9"})"),
            "unknown variant format \"v9\"; expected \"kopt-variant-1\"");
  EXPECT_EQ(errorOf(R"({"kernel": "k", "code": "x", "variant_name": "k2",
                        "launch": {"grid": [1, 2, 3, 4]}})"),
            "'launch.grid' must be an array of 1 to 3 expressions");
  EXPECT_NE(errorOf("{\"kernel\": \n ]").find("line 2"), std::string::npos);
}
