// The llm engine's loop with a scripted chat model and a fake evaluator whose
// verdicts depend on the variant's code: repairs, dead ends, duplicates, the
// reviewer, the budgets and what each prompt carries.
#include "agents/LlmOptimizer.h"
#include "test/fuzz/PragmaMutator.h"
#include "test/unit/agents/RuleEvaluator.h"
#include "test/unit/common/SnippetKernel.h"

#include <gtest/gtest.h>

#include <deque>

using namespace kopt;
using namespace kopt::agents;
using evaluator::Verdict;

namespace {

const char *const Scale = R"(
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 1024, a = 2) buffers(x[n] in, y[n] out)
__global__ void scale(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i];
}
)";

frontend::KernelSummary kernel() { return snippets::snippetKernel(Scale); }

// The variants the scripted model writes. The unit has no float4 (the
// original does not use it), so the vector kernels bring their own.
#define FLOAT4 "struct float4 { float x, y, z, w; };\n\n"
const char *const Broken =
    FLOAT4 R"(__global__ void scale(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (4 * i + 3 < n) {
    float4 v = reinterpret_cast<const float4 *>(x)[i];
    v.x *= a; v.y *= a; v.z *= a; v.w *= a;
    y4[i] = v;
  }
})";
const char *const Vectorized =
    FLOAT4 R"(__global__ void scale(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 *y4 = reinterpret_cast<float4 *>(y);
  if (4 * i + 3 < n) {
    float4 v = reinterpret_cast<const float4 *>(x)[i];
    v.x *= a; v.y *= a; v.z *= a; v.w *= a;
    y4[i] = v;
  }
})";
const char *const Unrolled = R"(__global__ void scale(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
  for (int k = 0; k < 1; ++k)
    if (i < n)
      y[i] = a * x[i];
})";
const char *const WrongScale = R"(__global__ void scale(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a + x[i];
})";

std::string plan(const std::string &Skill) {
  return "```json\n{\"skill\": \"" + Skill +
         "\", \"changes\": [{\"lines\": \"3-5\", \"what\": \"the change\"}], \"expected\": "
         "\"dram_throughput_pct up\"}\n```";
}
std::string cuda(const std::string &Code) { return "Here it is:\n```cuda\n" + Code + "\n```\n"; }

// Replies in order; every call's messages are kept.
class ScriptedChat : public ChatModel {
public:
  std::deque<std::string> Replies;
  std::vector<std::vector<ChatMessage>> Calls;
  int64_t InputTokens = 100, OutputTokens = 50;
  bool FailWhenEmpty = true;

  llvm::Expected<ChatReply> chat(llvm::ArrayRef<ChatMessage> Messages, int) override {
    Calls.emplace_back(Messages.begin(), Messages.end());
    if (Replies.empty())
      return llvm::createStringError("HTTP 503 from http://test/chat/completions: overloaded");
    ChatReply R;
    R.Text = Replies.front();
    Replies.pop_front();
    R.Usage = {InputTokens, OutputTokens, 0.001};
    return R;
  }
  // The user message of call I (system messages are fixed text).
  std::string user(size_t I) const { return I < Calls.size() ? Calls[I].back().Text : ""; }
  std::string system(size_t I) const { return I < Calls.size() ? Calls[I].front().Text : ""; }
};

struct LoopRun {
  frontend::KernelSummary K = kernel();
  ScriptedChat Chat;
  fakes::RuleEvaluator Eval;
  LlmRequest R;
  std::vector<std::string> Notes;

  LoopRun() {
    Eval.DefaultSpeedup = 1.01;
    R.Kernel = &K;
    R.Source = {K.Unit.Text, K.Name, K.MangledName, {}};
    R.ClangArgs = fuzz::snippetClangArgs();
    R.Model = "gpt-4o";
    R.Budget.Repairs = 1;
    R.Retrieve = [](const evaluator::Baseline &) {
      LlmRetrieval M;
      M.Profile = {{"dram_throughput_pct", "61.5"}};
      M.Skills = {{"vectorize", "16-byte vectorized access", "Use float4."}};
      return M;
    };
    R.Note = [this](llvm::StringRef Line) { Notes.push_back(Line.str()); };
  }
  OptimizeResult run() {
    auto Result = optimizeWithLlm(R, Chat, Eval);
    if (!Result) {
      for (const std::string &N : Notes)
        llvm::errs() << "note: " << N << "\n";
      for (size_t I = 0; I < Chat.Calls.size(); ++I)
        llvm::errs() << "call " << I << ": " << Chat.user(I) << "\n";
      ADD_FAILURE() << llvm::toString(Result.takeError());
      return {};
    }
    return std::move(*Result);
  }
};

bool contains(const std::string &Text, const std::string &Part) {
  return Text.find(Part) != std::string::npos;
}

TEST(LlmOptimizer, CompileFailureRepairedByTheDebuggerThenVerifiedFaster) {
  LoopRun T;
  T.R.Budget.Evaluations = 1;
  T.Chat.Replies = {plan("vectorize"), cuda(Broken), cuda(Vectorized)};
  T.Eval.Rules = {{"float4 *y4", Verdict::Faster, 1.8, ""}};
  OptimizeResult O = T.run();

  // The broken variant never reached the evaluator: the front end's parse
  // (clang) rejected it, and its errors went to the debugger with the unit
  // they name the lines of.
  ASSERT_EQ(O.Trajectory.size(), 2u);
  EXPECT_EQ(O.Trajectory[0].Steps, std::vector<std::string>{"vectorize"});
  EXPECT_EQ(O.Trajectory[0].Result, Verdict::CompileError);
  EXPECT_TRUE(contains(O.Trajectory[0].Detail, "y4")) << O.Trajectory[0].Detail;
  EXPECT_EQ(O.Trajectory[1].Steps, std::vector<std::string>{"vectorize:repair=1"});
  EXPECT_EQ(O.Trajectory[1].Result, Verdict::Faster);
  ASSERT_EQ(T.Eval.Evaluated.size(), 1u);
  EXPECT_TRUE(contains(T.Eval.Evaluated[0], "float4 *y4"));

  ASSERT_EQ(T.Chat.Calls.size(), 3u);
  EXPECT_TRUE(contains(T.Chat.system(2), "You are the debugger"));
  std::string Debugger = T.Chat.user(2);
  EXPECT_TRUE(contains(Debugger, "## The failing variant\n```cuda\nstruct uint3")) << Debugger;
  EXPECT_TRUE(contains(Debugger, "y4[i] = v;"));
  EXPECT_TRUE(contains(Debugger, "## What went wrong\nThe variant does not compile (clang): "));
  EXPECT_TRUE(contains(Debugger, "/kopt/unit.cu:18:5: error: use of undeclared identifier 'y4'"));

  ASSERT_TRUE(O.Best);
  EXPECT_EQ(O.Best->Code, Vectorized);
  EXPECT_EQ(O.Best->KernelName, "scale");
  EXPECT_TRUE(O.Best->VariantName.empty()); // In place: same name, same launch.
  EXPECT_FALSE(O.Best->Launch);
  EXPECT_EQ(O.BestSteps, std::vector<std::string>{"vectorize:repair=1"});
  EXPECT_DOUBLE_EQ(O.BestOutcome.Speedup, 1.8);
  EXPECT_EQ(O.StopReason, "evaluation budget spent");
  ASSERT_TRUE(O.Llm);
  EXPECT_EQ(O.Llm->Model, "gpt-4o");
  EXPECT_EQ(O.Llm->InputTokens, 300);
  EXPECT_EQ(O.Llm->OutputTokens, 150);
  EXPECT_EQ(O.Llm->Requests, 3u);
  EXPECT_TRUE(O.Llm->Priced);
}

TEST(LlmOptimizer, EvaluatorCompileErrorGoesToTheDebuggerWithItsLog) {
  LoopRun T;
  T.R.Budget.Evaluations = 2;
  // clang takes it; the evaluator's compiler does not.
  T.Chat.Replies = {plan("unroll"), cuda(Unrolled), cuda(WrongScale)};
  T.Eval.Rules = {{"#pragma unroll", Verdict::CompileError, 0,
                   "ptxas error: Entry function 'scale' uses too much shared data"}};
  OptimizeResult O = T.run();
  ASSERT_EQ(O.Trajectory.size(), 2u);
  EXPECT_EQ(O.Trajectory[0].Result, Verdict::CompileError);
  EXPECT_EQ(T.Eval.Evaluated.size(), 2u);
  EXPECT_TRUE(contains(T.Chat.user(2), "## What went wrong\nThe variant does not compile "
                                       "(nvrtc):\nptxas error: Entry function 'scale' uses"));
  EXPECT_TRUE(contains(T.Chat.user(2), "#pragma unroll")); // The failing unit.
}

TEST(LlmOptimizer, WrongResultGoesToTheDebuggerWithTheVerificationFailure) {
  LoopRun T;
  T.R.Budget.Evaluations = 2;
  T.Chat.Replies = {plan("fast-math"), cuda(WrongScale), cuda(Unrolled)};
  T.Eval.Rules = {{"a + x[i]", Verdict::Wrong, 0, "y[3] = 2.5, expected 1 (seed 1)"}};
  OptimizeResult O = T.run();
  ASSERT_EQ(O.Trajectory.size(), 2u);
  EXPECT_EQ(O.Trajectory[0].Result, Verdict::Wrong);
  EXPECT_EQ(O.Trajectory[1].Result, Verdict::NotFaster);
  EXPECT_TRUE(contains(T.Chat.user(2), "results differ from the original kernel's: y[3] = 2.5"));
  EXPECT_FALSE(O.Best);
}

TEST(LlmOptimizer, WrongVariantIsRecordedAndNeverEvaluatedAgain) {
  LoopRun T;
  T.R.Budget.Repairs = 0;
  T.R.Budget.IdleRounds = 1;
  // Round 2 proposes the same code again: skipped, so the round is idle.
  T.Chat.Replies = {plan("fast-math"), cuda(WrongScale), plan("fast-math"), cuda(WrongScale)};
  T.Eval.Rules = {{"a + x[i]", Verdict::Wrong, 0, "y[3] = 2.5, expected 1"}};
  OptimizeResult O = T.run();
  EXPECT_EQ(T.Eval.Evaluated.size(), 1u);
  ASSERT_EQ(O.Trajectory.size(), 1u);
  EXPECT_EQ(O.Trajectory[0].Result, Verdict::Wrong);
  // The second planner saw the failure; the duplicate is noted, not evaluated.
  EXPECT_TRUE(contains(T.Chat.user(2), "- " + O.Trajectory[0].Hash +
                                           ": skill fast-math, wrong: y[3] = 2.5, expected 1"));
  EXPECT_NE(std::find(T.Notes.begin(), T.Notes.end(),
                      "fast-math: identical to variant " + O.Trajectory[0].Hash +
                          ": not evaluated again"),
            T.Notes.end());
  EXPECT_EQ(O.StopReason, "nothing new to evaluate in 1 round");
}

TEST(LlmOptimizer, IdenticalCodeIsSkipped) {
  LoopRun T;
  T.R.Budget.IdleRounds = 2;
  std::string Original = R"(__global__ void scale(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i];
})";
  // Layout and comments do not make code new.
  std::string Relaid = R"(__global__ void scale(int n, float a, const float *x, float *y)
{
  // One element a thread.
  int i = blockIdx.x*blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
})";
  T.Chat.Replies = {plan("unroll"), cuda(Original), plan("unroll"), cuda(Relaid)};
  OptimizeResult O = T.run();
  EXPECT_TRUE(T.Eval.Evaluated.empty());
  EXPECT_TRUE(O.Trajectory.empty());
  EXPECT_TRUE(contains(T.Chat.user(2), "identical to the original kernel: not evaluated again"));
  EXPECT_EQ(T.Notes.back(), "stopped: nothing new to evaluate in 2 rounds");
  EXPECT_EQ(O.StopReason, "nothing new to evaluate in 2 rounds");
}

TEST(LlmOptimizer, TokenBudgetStopsTheLoop) {
  LoopRun T;
  T.R.Budget.Tokens = 250; // 150 a call: the planner and the coder, then no more.
  T.Chat.Replies = {plan("vectorize"), cuda(Vectorized), plan("unroll"), cuda(Unrolled)};
  T.Eval.Rules = {{"float4 *y4", Verdict::Faster, 1.5, ""}};
  OptimizeResult O = T.run();
  EXPECT_EQ(T.Chat.Calls.size(), 2u);
  EXPECT_EQ(T.Eval.Evaluated.size(), 1u);
  EXPECT_EQ(O.StopReason, "token budget spent (300 of 250)");
  EXPECT_TRUE(O.Best);
}

TEST(LlmOptimizer, TrajectoryAndBestReachTheNextPrompts) {
  LoopRun T;
  T.R.Budget.Evaluations = 2;
  T.Chat.Replies = {plan("vectorize"), cuda(Vectorized), plan("unroll"), cuda(Unrolled)};
  T.Eval.Rules = {{"float4 *y4", Verdict::Faster, 1.5, ""}};
  OptimizeResult O = T.run();
  ASSERT_EQ(O.Trajectory.size(), 2u);
  // The first planner call: the kernel, the profile and the retrieved skills.
  EXPECT_TRUE(contains(T.Chat.user(0), "dram_throughput_pct=61.5"));
  EXPECT_TRUE(contains(T.Chat.user(0), "### vectorize: 16-byte vectorized access\nUse float4."));
  EXPECT_TRUE(contains(T.Chat.user(0), "(none yet)"));
  // The second: the first variant's outcome and time, and its code to build on.
  std::string Second = T.Chat.user(2);
  EXPECT_TRUE(contains(Second, "- " + O.Trajectory[0].Hash +
                                   ": skill vectorize, faster 1.50x, "
                                   "0.6667 ms"))
      << Second;
  EXPECT_TRUE(contains(Second, "The fastest verified variant so far"));
  EXPECT_TRUE(contains(Second, "float4 *y4 = reinterpret_cast<float4 *>(y);"));
  EXPECT_TRUE(contains(T.Chat.user(3), "float4 *y4 = reinterpret_cast<float4 *>(y);"));
  EXPECT_EQ(O.BestSteps, std::vector<std::string>{"vectorize"});
}

TEST(LlmOptimizer, ReviewerRejectsCheatsBeforeEvaluation) {
  LoopRun T;
  T.R.Budget.IdleRounds = 1;
  std::string Cheat = R"(__device__ float saved[1024];
__global__ void scale(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = saved[i % 1024] = a * x[i];
})";
  T.Chat.Replies = {plan("caching"), cuda(Cheat)};
  OptimizeResult O = T.run();
  EXPECT_TRUE(T.Eval.Evaluated.empty());
  ASSERT_EQ(O.Trajectory.size(), 1u);
  EXPECT_EQ(O.Trajectory[0].Result, Verdict::Wrong);
  EXPECT_EQ(O.Trajectory[0].Detail, "rejected by the reviewer: the variant uses a __device__ "
                                    "variable that persists across calls, which the original "
                                    "does not");
  EXPECT_EQ(T.Chat.Calls.size(), 2u); // No debugger for a cheat.
}

TEST(LlmOptimizer, ChangedSignatureIsRepairedNotEvaluated) {
  LoopRun T;
  T.R.Budget.Evaluations = 1;
  std::string Double = R"(__global__ void scale(int n, double a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i];
})";
  std::string Restrict = R"(__global__ void scale(int n, float a, const float *__restrict__ x,
                      float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i];
})";
  T.Chat.Replies = {plan("precision"), cuda(Double), cuda(Restrict)};
  OptimizeResult O = T.run();
  ASSERT_EQ(O.Trajectory.size(), 2u);
  EXPECT_EQ(O.Trajectory[0].Result, Verdict::CompileError);
  EXPECT_TRUE(contains(O.Trajectory[0].Detail, "changes the kernel's signature"));
  EXPECT_TRUE(contains(T.Chat.user(2), "it must stay `scale(int, float, const float *, float *)`"));
  // __restrict__ does not change the signature the build's launches call.
  EXPECT_EQ(O.Trajectory[1].Result, Verdict::NotFaster);
  EXPECT_EQ(T.Eval.Evaluated.size(), 1u);
}

TEST(LlmOptimizer, MalformedPlanEntersTheTrajectory) {
  LoopRun T;
  T.R.Budget.Evaluations = 1;
  T.Chat.Replies = {"I would vectorize it.", plan("unroll"), cuda(Unrolled)};
  OptimizeResult O = T.run();
  EXPECT_EQ(O.Trajectory.size(), 1u);
  EXPECT_TRUE(contains(T.Chat.user(1), "malformed plan: the reply holds no JSON object"));
  EXPECT_EQ(T.Notes.front(), "planner: 100+50 tokens");
  EXPECT_EQ(T.Notes[1], "planner: malformed plan: the reply holds no JSON object");
}

TEST(LlmOptimizer, ApiFailureBeforeAnyGainIsAnError) {
  LoopRun T;
  T.Chat.Replies = {plan("vectorize")};
  auto O = optimizeWithLlm(T.R, T.Chat, T.Eval);
  ASSERT_FALSE(O);
  EXPECT_EQ(llvm::toString(O.takeError()),
            "coder: HTTP 503 from http://test/chat/completions: overloaded");
}

TEST(LlmOptimizer, ApiFailureAfterAGainKeepsTheResult) {
  LoopRun T;
  T.Chat.Replies = {plan("vectorize"), cuda(Vectorized)};
  T.Eval.Rules = {{"float4 *y4", Verdict::Faster, 1.5, ""}};
  OptimizeResult O = T.run();
  EXPECT_TRUE(O.Best);
  EXPECT_EQ(O.StopReason, "the model's API failed: planner: HTTP 503 from "
                          "http://test/chat/completions: overloaded");
}

} // namespace
