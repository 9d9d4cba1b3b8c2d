#include "agents/LlmReply.h"

#include <gtest/gtest.h>

using namespace kopt::agents;

namespace {
std::string errorOf(llvm::Error E) { return E ? llvm::toString(std::move(E)) : "success"; }

template <typename T> std::string errorOf(llvm::Expected<T> V) {
  return V ? "success" : llvm::toString(V.takeError());
}

const char *Kernel = "__global__ void axpy(int n, float a, const float *x, float *y) {\n"
                     "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "  if (i < n) { y[i] += a * x[i]; }\n"
                     "}\n";
} // namespace

TEST(ParsePlan, ReadsAJsonFenceInsideProse) {
  llvm::Expected<Plan> P = parsePlan(
      "Memory bound, so:\n```json\n{\"skill\": \"vectorize-16b\", \"changes\": [{\"lines\": "
      "\"12-15\", \"what\": \"float4 loads\"}, {\"lines\": 20, \"what\": \"tail\"}], "
      "\"expected\": \"dram_throughput up\"}\n```\nThat should help.");
  ASSERT_TRUE(bool(P)) << errorOf(P.takeError());
  EXPECT_EQ(P->Skill, "vectorize-16b");
  ASSERT_EQ(P->Changes.size(), 2u);
  EXPECT_EQ(P->Changes[0].Lines, "12-15");
  EXPECT_EQ(P->Changes[0].What, "float4 loads");
  EXPECT_EQ(P->Changes[1].Lines, "20");
  EXPECT_EQ(P->Expected, "dram_throughput up");
}

TEST(ParsePlan, ReadsBareJsonAfterBracesInProse) {
  // A stray "{...}" that is not JSON comes first; the plan object is found after it.
  llvm::Expected<Plan> P =
      parsePlan("Replace {x[i]} by a register. {\"skill\": \"scalar-replacement\", \"changes\": "
                "[{\"lines\": \" 3 - 4 \", \"what\": \"keep y[i] in a register {acc}\"}], "
                "\"expected\": \"dram bytes down\"}");
  ASSERT_TRUE(bool(P)) << errorOf(P.takeError());
  EXPECT_EQ(P->Skill, "scalar-replacement");
  EXPECT_EQ(P->Changes[0].Lines, "3-4");
  EXPECT_EQ(P->Changes[0].What, "keep y[i] in a register {acc}");
}

TEST(ParsePlan, PrefersTheJsonFenceOverEarlierObjects) {
  llvm::Expected<Plan> P = parsePlan(
      "Example: {\"skill\": \"a\", \"changes\": [{\"lines\": \"1\", \"what\": \"w\"}], "
      "\"expected\": \"e\"}\n```json\n{\"skill\": \"b\", \"changes\": [{\"lines\": \"2\", "
      "\"what\": \"w\"}], \"expected\": \"e\"}\n```\n");
  ASSERT_TRUE(bool(P)) << errorOf(P.takeError());
  EXPECT_EQ(P->Skill, "b");
}

TEST(ParsePlan, MalformedPlansSayWhatIsWrong) {
  EXPECT_EQ(errorOf(parsePlan("I would unroll the loop.")),
            "malformed plan: the reply holds no JSON object");
  EXPECT_EQ(errorOf(parsePlan("```json\n{\"skill\": \"x\", \"changes\": [\n```")),
            "malformed plan: the reply holds no JSON object");
  EXPECT_EQ(errorOf(parsePlan("{\"changes\": [], \"expected\": \"e\"}")),
            "malformed plan: \"skill\" must be a skill id (a non-empty string)");
  EXPECT_EQ(errorOf(parsePlan("{\"skill\": \"s\", \"expected\": \"e\"}")),
            "malformed plan: \"changes\" must be a non-empty list of {\"lines\", \"what\"}");
  EXPECT_EQ(errorOf(parsePlan("{\"skill\": \"s\", \"changes\": [{\"lines\": \"1\"}], "
                              "\"expected\": \"e\"}")),
            "malformed plan: changes[0] needs \"lines\" and \"what\"");
  EXPECT_EQ(errorOf(parsePlan("{\"skill\": \"s\", \"changes\": [{\"lines\": \"a few\", "
                              "\"what\": \"w\"}], \"expected\": \"e\"}")),
            "malformed plan: changes[0].lines must be a line or a range such as \"12-15\"");
  EXPECT_EQ(errorOf(parsePlan("{\"skill\": \"s\", \"changes\": [{\"lines\": \"9-3\", "
                              "\"what\": \"w\"}], \"expected\": \"e\"}")),
            "malformed plan: changes[0].lines '9-3' is not an increasing range");
  EXPECT_EQ(errorOf(parsePlan("{\"skill\": \"s\", \"changes\": [{\"lines\": \"1\", "
                              "\"what\": \"w\"}]}")),
            "malformed plan: \"expected\" must say which metric moves and how");
}

TEST(ExtractKernelCode, TakesTheFencedBlockThatDefinesTheKernel) {
  std::string Reply = std::string("Here it is:\n```cuda\n") + Kernel + "```\nDone.";
  llvm::Expected<std::string> Code = extractKernelCode(Reply, "axpy");
  ASSERT_TRUE(bool(Code)) << errorOf(Code.takeError());
  EXPECT_EQ(*Code, Kernel);
}

TEST(ExtractKernelCode, PrefersCudaFencesAndTheLastDefinition) {
  std::string Old = "__global__ void axpy(int n) { /* old */ }\n";
  std::string Helper = "__device__ float twice(float v) { return 2 * v; }\n";
  std::string Reply = "Original:\n```\n" + Old + "```\nA host test:\n```python\n" +
                      "__global__ void axpy(  # not this\n```\nFirst try:\n```cpp\n" + Old +
                      "```\nFinal:\n```cuda\n" + Helper + Kernel + "```\n" +
                      "And a launch:\n```cuda\naxpy<<<g, b>>>(n, a, x, y);\n```\n";
  llvm::Expected<std::string> Code = extractKernelCode(Reply, "axpy");
  ASSERT_TRUE(bool(Code)) << errorOf(Code.takeError());
  EXPECT_EQ(*Code, Helper + Kernel);
}

TEST(ExtractKernelCode, FindsTheKernelAmongOtherKernelsAndAttributes) {
  std::string Reply = "```cuda\n__global__ void axpy_helper(int n) {}\n"
                      "template <int B>\n__global__ void __launch_bounds__(256)\naxpy (int n) {\n"
                      "  // a comment with a brace }\n  const char *s = \"}\";\n}\n```\n";
  llvm::Expected<std::string> Code = extractKernelCode(Reply, "axpy");
  ASSERT_TRUE(bool(Code)) << errorOf(Code.takeError());
  EXPECT_NE(Code->find("__launch_bounds__(256)"), std::string::npos);
  EXPECT_EQ(errorOf(extractKernelCode(Reply, "axp")),
            "no code block in the reply defines kernel 'axp' (expected `__global__ void "
            "axp(...)` in a ```cuda block)");
}

TEST(ExtractKernelCode, CodeWithoutFences) {
  std::string Reply = std::string("Sure. The new kernel follows.\n#include <cuda_fp16.h>\n") +
                      Kernel + "This keeps the semantics.\n";
  llvm::Expected<std::string> Code = extractKernelCode(Reply, "axpy");
  ASSERT_TRUE(bool(Code)) << errorOf(Code.takeError());
  EXPECT_EQ(*Code, std::string("#include <cuda_fp16.h>\n") + Kernel);
}

TEST(ExtractKernelCode, CodeWithoutFencesKeepsHelpersAndDropsProse) {
  std::string Code =
      std::string("__device__ float twice(float v)\n{\n  return 2 * v;\n}\n\n") + Kernel;
  llvm::Expected<std::string> Got =
      extractKernelCode("Here is the faster kernel (vectorized)\n" + Code, "axpy");
  ASSERT_TRUE(bool(Got)) << errorOf(Got.takeError());
  EXPECT_EQ(*Got, Code);
  // The code starts the reply, after an empty first line.
  Got = extractKernelCode("\n" + Code, "axpy");
  ASSERT_TRUE(bool(Got)) << errorOf(Got.takeError());
  EXPECT_EQ(*Got, Code);
}

TEST(ExtractKernelCode, TruncatedRepliesAreErrors) {
  std::string Cut = std::string(Kernel).substr(0, 80);
  const char *Message = "the reply is cut off inside the definition of kernel 'axpy' (no "
                        "closing brace or fence); it was probably truncated";
  EXPECT_EQ(errorOf(extractKernelCode("```cuda\n" + Cut, "axpy")), Message);
  EXPECT_EQ(errorOf(extractKernelCode("Here:\n" + Cut, "axpy")), Message);
  // A closed fence whose kernel body never closes is as truncated.
  EXPECT_EQ(errorOf(extractKernelCode("```cuda\n" + Cut + "\n```\n", "axpy")), Message);
  // An earlier complete block still wins over a cut-off later one.
  llvm::Expected<std::string> Code = extractKernelCode(
      std::string("```cuda\n") + Kernel + "```\nBetter:\n```cuda\n" + Cut, "axpy");
  ASSERT_TRUE(bool(Code)) << errorOf(Code.takeError());
  EXPECT_EQ(*Code, Kernel);
}

TEST(ExtractKernelCode, NoKernelAtAll) {
  EXPECT_EQ(errorOf(extractKernelCode("I cannot help with that.", "axpy")),
            "the reply has no definition of kernel 'axpy' (expected `__global__ void "
            "axpy(...)` in a ```cuda block)");
}
