// The evaluator's side of the worker protocol (evaluator/Evaluator.cpp), with
// a scripted worker process in place of the GPU's (scripted_worker.py): an
// answer that lacks a field is an error naming it, never a default.
#include "evaluator/Evaluator.h"

#include <gtest/gtest.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>

#include <cstdlib>
#include <string>

using namespace kopt::evaluator;
using nlohmann::json;

namespace {
// An evaluator whose worker answers Answers in turn.
llvm::Expected<std::unique_ptr<Evaluator>> startScripted(const json &Answers) {
  ::setenv("KOPT_SCRIPTED_ANSWERS", Answers.dump().c_str(), 1);
  EvaluatorOptions Options;
  Options.WorkerProgram = KOPT_UNIT_TEST_DIR "/evaluator/scripted_worker.py";
  return Evaluator::start(Options);
}

DeviceInfo h200() {
  DeviceInfo D;
  D.Name = "NVIDIA H200";
  D.ComputeMajor = 9;
  return D;
}

Workload oneBuffer() {
  Workload W;
  W.Args = {{"p", BufferArg{ScalarType::F32, 64, Direction::Out}}};
  return W;
}

json measured() {
  OriginalAnswer A;
  A.Timing.Samples = 10;
  A.Timing.MedianMs = 0.5;
  return okAnswer(A);
}
} // namespace

TEST(Evaluator, AHelloWithoutTheDeviceIsRefused) {
  auto E = startScripted(json::array({{{"status", "ok"}, {"message", ""}}}));
  ASSERT_FALSE(bool(E));
  EXPECT_EQ(llvm::toString(E.takeError()),
            "the evaluation worker's answer to hello has no 'device'");
}

TEST(Evaluator, AnAnswerWithoutAStatusIsRefused) {
  auto E = startScripted(json::array({{{"device", json(h200())}}}));
  ASSERT_FALSE(bool(E));
  EXPECT_EQ(llvm::toString(E.takeError()), "the evaluation worker's answer has no 'status'");
}

TEST(Evaluator, ABaselineWithoutItsTimingIsRefused) {
  json Incomplete = measured();
  Incomplete["timing"].erase("median_ms");
  auto E = startScripted(json::array({okAnswer(HelloAnswer{h200()}), Incomplete}));
  ASSERT_TRUE(bool(E)) << llvm::toString(E.takeError());
  EXPECT_EQ((*E)->device().Name, "NVIDIA H200");
  auto B = (*E)->setOriginal(KernelSource{"", "k", "", {}}, oneBuffer());
  ASSERT_FALSE(bool(B));
  EXPECT_EQ(llvm::toString(B.takeError()),
            "the evaluation worker's answer to set_original has no 'timing.median_ms'");
}

TEST(Evaluator, AnOutcomeWithoutItsSpeedupIsRefused) {
  VariantOutcome Faster;
  Faster.Result = Verdict::Faster;
  Faster.Speedup = 1.5;
  json Incomplete = okAnswer(Faster);
  Incomplete.erase("speedup");
  auto E = startScripted(
      json::array({okAnswer(HelloAnswer{h200()}), measured(), okAnswer(Faster), Incomplete}));
  ASSERT_TRUE(bool(E)) << llvm::toString(E.takeError());
  auto B = (*E)->setOriginal(KernelSource{"", "k", "", {}}, oneBuffer());
  ASSERT_TRUE(bool(B)) << llvm::toString(B.takeError());
  EXPECT_EQ(B->Timing.MedianMs, 0.5);
  auto First = (*E)->evaluate(KernelSource{"", "k", "", {}}, VariantLaunch{});
  ASSERT_TRUE(bool(First)) << llvm::toString(First.takeError());
  EXPECT_EQ(First->Result, Verdict::Faster);
  EXPECT_EQ(First->Speedup, 1.5);
  auto Second = (*E)->evaluate(KernelSource{"", "k", "", {}}, VariantLaunch{});
  ASSERT_FALSE(bool(Second));
  EXPECT_EQ(llvm::toString(Second.takeError()),
            "the evaluation worker's answer to evaluate has no 'speedup'");
}

TEST(Evaluator, AFailureIsTheWorkersMessage) {
  auto E = startScripted(json::array(
      {okAnswer(HelloAnswer{h200()}), failureAnswer({AnswerStatus::Error, "no such kernel"})}));
  ASSERT_TRUE(bool(E)) << llvm::toString(E.takeError());
  auto B = (*E)->setOriginal(KernelSource{"", "k", "", {}}, oneBuffer());
  ASSERT_FALSE(bool(B));
  EXPECT_EQ(llvm::toString(B.takeError()), "no such kernel");
}

TEST(Evaluator, TheWorkerWorksOnTheDeviceOfItsOptions) {
  llvm::SmallString<128> Log;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("kopt-scripted", "log", Log));
  ::setenv("KOPT_SCRIPTED_REQUESTS", Log.c_str(), 1);
  ::setenv("KOPT_SCRIPTED_ANSWERS", json::array({okAnswer(HelloAnswer{h200()})}).dump().c_str(), 1);
  EvaluatorOptions Options;
  Options.WorkerProgram = KOPT_UNIT_TEST_DIR "/evaluator/scripted_worker.py";
  Options.Device = 1;
  auto E = Evaluator::start(Options);
  ::unsetenv("KOPT_SCRIPTED_REQUESTS");
  ASSERT_TRUE(bool(E)) << llvm::toString(E.takeError());
  auto Text = llvm::MemoryBuffer::getFile(Log);
  ASSERT_TRUE(bool(Text));
  json Request = json::parse((*Text)->getBuffer());
  EXPECT_EQ(Request["argv"], json({"--kopt-evaluation-worker", "3", "4", "1"}));
  EXPECT_EQ(Request["request"]["op"], "hello");
  EXPECT_FALSE(llvm::sys::fs::remove(Log));
}

TEST(Evaluator, TimeOnceAsksForOneLaunchAndKeepsNoOriginal) {
  llvm::SmallString<128> Log;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("kopt-scripted", "log", Log));
  ::setenv("KOPT_SCRIPTED_REQUESTS", Log.c_str(), 1);
  auto E = startScripted(json::array({okAnswer(HelloAnswer{h200()}), measured()}));
  ASSERT_TRUE(bool(E)) << llvm::toString(E.takeError());
  Workload W = oneBuffer();
  W.Chain = 20; // An inout kernel's chain: one launch is enough to weigh it.
  auto Ms = (*E)->timeOnce(KernelSource{"", "k", "", {}}, W);
  ::unsetenv("KOPT_SCRIPTED_REQUESTS");
  ASSERT_TRUE(bool(Ms)) << llvm::toString(Ms.takeError());
  EXPECT_EQ(*Ms, 0.5);
  // Nothing to verify a variant against until the next setOriginal.
  auto V = (*E)->evaluate(KernelSource{"", "k", "", {}}, VariantLaunch{});
  ASSERT_FALSE(bool(V));
  EXPECT_EQ(llvm::toString(V.takeError()), "a variant before setOriginal()");
  auto Text = llvm::MemoryBuffer::getFile(Log);
  ASSERT_TRUE(bool(Text));
  llvm::SmallVector<llvm::StringRef> Lines;
  (*Text)->getBuffer().trim().split(Lines, '\n');
  ASSERT_EQ(Lines.size(), 2u);
  json Request = json::parse(Lines[1].str())["request"];
  EXPECT_EQ(Request["op"], "set_original");
  EXPECT_EQ(Request["time_once"], true);
  EXPECT_EQ(Request["profile"], false);
  EXPECT_EQ(Request["seeds"], json({1}));
  EXPECT_EQ(Request["workload"]["chain"], 1);
  EXPECT_FALSE(llvm::sys::fs::remove(Log));
}
