// Array-of-array parameters as the evaluator's flat buffers: the front end's
// element type and extents (macros, constexpr, template arguments, 3-D, an
// open or spelled outer extent), and the buffers(...) count checked against
// them.
#include "driver/optimize/BufferShape.h"
#include "test/unit/common/SnippetKernel.h"

#include <gtest/gtest.h>

#include <tuple>

namespace kopt {
namespace {

using evaluator::ScalarType;
using frontend::KernelParam;

KernelParam paramOf(const std::string &Code, size_t Index) {
  frontend::KernelSummary K = snippets::snippetKernel(Code);
  if (K.Params.size() <= Index) {
    ADD_FAILURE() << "no parameter " << Index;
    return {};
  }
  return K.Params[Index];
}

TEST(ArrayBuffer, MacroExtentsGiveTheRowAndTheDeclaredRows) {
  KernelParam P = paramOf("#define N 64\n#define M 32\n"
                          "__global__ void k(float A[N][M]) { A[0][0] = 0; }",
                          0);
  EXPECT_EQ(P.Category, frontend::ParamCategory::Pointer);
  EXPECT_EQ(P.Type, "float (*)[32]");
  EXPECT_EQ(P.ElementType, "float");
  EXPECT_EQ(P.RowExtents, std::vector<uint64_t>{32});
  EXPECT_EQ(P.DeclaredRows, 64u);
  EXPECT_EQ(frontend::rowElements(P), 32u);
  llvm::Expected<driver::BufferElement> T = driver::bufferElementType(P);
  ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
  EXPECT_EQ(T->Scalar, ScalarType::F32);
  EXPECT_EQ(T->Lanes, 1u);
  EXPECT_FALSE(bool(driver::checkBufferCount(P, 64 * 32)));
}

TEST(ArrayBuffer, ThreeDimensionsAndConstElements) {
  KernelParam P =
      paramOf("constexpr int N = 8;\n"
              "__global__ void k(const double A[N][N][N], float *B) { B[0] = A[0][0][0]; }",
              0);
  EXPECT_EQ(P.ElementType, "const double");
  EXPECT_TRUE(P.PointeeIsConst);
  EXPECT_EQ(P.RowExtents, (std::vector<uint64_t>{8, 8}));
  EXPECT_EQ(P.DeclaredRows, 8u);
  llvm::Expected<driver::BufferElement> T = driver::bufferElementType(P);
  ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
  EXPECT_EQ(T->Scalar, ScalarType::F64);
  EXPECT_EQ(T->Lanes, 1u);
  EXPECT_FALSE(bool(driver::checkBufferCount(P, 512)));
}

TEST(ArrayBuffer, OpenAndSpelledOuterExtentsAcceptAnyWholeNumberOfRows) {
  for (const char *Code : {"__global__ void k(int A[][4]) { A[0][0] = 0; }",
                           "__global__ void k(int (*A)[4]) { A[0][0] = 0; }"}) {
    KernelParam P = paramOf(Code, 0);
    EXPECT_EQ(P.ElementType, "int") << Code;
    EXPECT_EQ(P.RowExtents, std::vector<uint64_t>{4}) << Code;
    EXPECT_FALSE(P.DeclaredRows.has_value()) << Code;
    EXPECT_FALSE(bool(driver::checkBufferCount(P, 4 * 1000))) << Code;
    llvm::Error E = driver::checkBufferCount(P, 4 * 1000 + 2);
    ASSERT_TRUE(bool(E)) << Code;
    EXPECT_EQ(llvm::toString(std::move(E)),
              "buffers(A[...]) gives 4002 elements, not a whole number of the 4-element rows of "
              "'A' (declared 'int [][4]'); the size counts int elements, not rows");
  }
}

TEST(ArrayBuffer, ACountOfRowsOrAnotherRowCountIsRefused) {
  KernelParam P = paramOf("__global__ void k(float A[16][8]) { A[0][0] = 0; }", 0);
  llvm::Error Rows = driver::checkBufferCount(P, 16); // The outer length alone.
  ASSERT_TRUE(bool(Rows));
  EXPECT_EQ(llvm::toString(std::move(Rows)),
            "buffers(A[...]) gives 16 elements (2 rows), but 'A' is declared 'float [16][8]': "
            "128 elements; the size counts float elements, not rows");
  llvm::Error Fewer = driver::checkBufferCount(P, 8 * 8);
  EXPECT_TRUE(bool(Fewer));
  llvm::consumeError(std::move(Fewer));
}

TEST(ArrayBuffer, TemplateExtentsComeFromTheInstantiation) {
  frontend::KernelSummary K =
      snippets::snippetKernel("template <int C> __global__ void k(float A[][C]) { A[0][0] = 0; }\n"
                              "template __global__ void k<16>(float (*)[16]);");
  ASSERT_EQ(K.Params.size(), 1u);
  const KernelParam &P = K.Params[0];
  EXPECT_TRUE(P.ExtentsConstant);
  EXPECT_EQ(P.RowExtents, std::vector<uint64_t>{16});
  EXPECT_EQ(P.ElementType, "float");
}

TEST(ArrayBuffer, PlainPointersKeepTheirCount) {
  KernelParam P = paramOf("__global__ void k(const unsigned short *__restrict__ x, float *y) "
                          "{ y[0] = x[0]; }",
                          0);
  EXPECT_EQ(P.ElementType, "const unsigned short");
  EXPECT_TRUE(P.RowExtents.empty());
  EXPECT_EQ(frontend::rowElements(P), 1u);
  llvm::Expected<driver::BufferElement> T = driver::bufferElementType(P);
  ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
  EXPECT_EQ(T->Scalar, ScalarType::U16);
  EXPECT_EQ(T->Lanes, 1u);
  EXPECT_FALSE(bool(driver::checkBufferCount(P, 7)));
}

TEST(ArrayBuffer, ElementsTheEvaluatorCannotGenerateAreNamed) {
  KernelParam P = paramOf("struct S { float a, b; };\n"
                          "__global__ void k(S A[][4]) { A[0][0].a = 0; }",
                          0);
  llvm::Expected<driver::BufferElement> T = driver::bufferElementType(P);
  ASSERT_FALSE(bool(T));
  EXPECT_EQ(llvm::toString(T.takeError()),
            "cannot generate elements of type 'S (*)[4]' for buffer 'A'");
}

// An n-body kernel's float4 positions (issue 35): buffers(pos[n]) counts
// float4s, each 4 F32 scalars the evaluator generates and compares.
TEST(ArrayBuffer, VectorTypesAreTheirLanes) {
  KernelParam P = paramOf("struct float4 { float x, y, z, w; };\n"
                          "__global__ void k(const float4 *__restrict__ pos, int n) {}",
                          0);
  llvm::Expected<driver::BufferElement> T = driver::bufferElementType(P);
  ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
  EXPECT_EQ(T->Scalar, ScalarType::F32);
  EXPECT_EQ(T->Lanes, 4u);
  for (auto [Type, Scalar, Lanes] :
       {std::tuple{"double2 *", ScalarType::F64, 2u},
        std::tuple{"const int3 *", ScalarType::I32, 3u}, std::tuple{"uchar4 *", ScalarType::U8, 4u},
        std::tuple{"__half2 *", ScalarType::F16, 2u},
        std::tuple{"double4_32a *", ScalarType::F64, 4u}}) {
    std::optional<evaluator::VectorType> V = evaluator::vectorTypeOfCType(Type);
    ASSERT_TRUE(V) << Type;
    EXPECT_EQ(V->Scalar, Scalar) << Type;
    EXPECT_EQ(V->Lanes, Lanes) << Type;
  }
  EXPECT_FALSE(evaluator::vectorTypeOfCType("float5 *"));
  EXPECT_FALSE(evaluator::vectorTypeOfCType("float4_16a *"));
  EXPECT_FALSE(evaluator::vectorTypeOfCType("S *"));
}

} // namespace
} // namespace kopt
