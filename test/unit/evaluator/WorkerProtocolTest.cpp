// The evaluator's messages to and from its worker (evaluator/worker/WorkerProtocol.h):
// every request and answer survives the trip, and a message that lacks a
// field is refused with the field's name instead of read as a default.
#include "evaluator/worker/WorkerProtocol.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include <string>
#include <vector>

using namespace kopt::evaluator;
using nlohmann::json;

namespace {
OriginalRequest originalRequest() {
  OriginalRequest R;
  R.Source = {"__global__ void k(float *p) { p[0] = 1; }", "k", "_Z1kPf", {"-DN=4"}};
  R.Work.Args = {{"p", BufferArg{ScalarType::F32, 64, Direction::Out}}};
  R.Work.Args[0].Value = [] {
    BufferArg B{ScalarType::F32, 64, Direction::Out, Tolerance{1e-4, 1e-6}};
    B.Range = ValueRange{0, 8};
    return B;
  }();
  R.Work.Launch.Grid = {2, 1, 1};
  R.Work.Launch.Block = {32, 1, 1};
  R.Work.RecordingFile = "/tmp/app.kopt-rec";
  RecordedLaunch Launch;
  Launch.Id = 7;
  Launch.Count = 100;
  Launch.Weight = 60;
  Launch.Launch = R.Work.Launch;
  Launch.Args = R.Work.Args;
  R.Work.Recorded.push_back(Launch);
  R.Seeds = {1, 2, 3};
  R.WatchdogSeconds = 12;
  R.SlowdownCap = 8;
  R.Timing.MaxSamples = 150;
  R.Timing.ScreenSeconds = 0.5;
  R.Profile = true;
  return R;
}

VariantOutcome wrongOutcome() {
  VariantOutcome O;
  O.Result = Verdict::Wrong;
  O.Detail = "inputs #2: y[17] is 3, expected 4";
  O.Compile = {"nvrtc", "", 0.25};
  O.Resources.Registers = 32;
  O.SeedsVerified = 1;
  O.WorstToleranceRatio = 0.5;
  O.Worst = FailedElement{"y", 17, 3, 4};
  O.Stage = TimingStage::Screen;
  return O;
}

OriginalAnswer originalAnswer() {
  OriginalAnswer A;
  A.Compile = {"nvcc", "warning: unused", 1.5};
  A.Resources.Registers = 40;
  A.Timing.Samples = 30;
  A.Timing.MedianMs = 0.125;
  Profile P;
  P.Metrics = {{"dram__bytes.sum", 4096}};
  A.Counters = P;
  A.ProfileSeconds = 0.75;
  A.Weighted = {{"mean_ms", 0.1}};
  return A;
}

// Every field of Message, top level first, then one level into each object.
std::vector<std::string> fieldPaths(const json &Message) {
  std::vector<std::string> Paths;
  for (const auto &[Key, Value] : Message.items())
    Paths.push_back(Key);
  for (const auto &[Key, Value] : Message.items())
    if (Value.is_object() && Key != "weighted" && Key != "metrics")
      for (const auto &[Inner, Unused] : Value.items())
        Paths.push_back(Key + "." + Inner);
  return Paths;
}

json without(json Message, const std::string &Path) {
  size_t Dot = Path.find('.');
  if (Dot == std::string::npos)
    Message.erase(Path);
  else
    Message[Path.substr(0, Dot)].erase(Path.substr(Dot + 1));
  return Message;
}

// Each field of T's message, left out, makes decoding fail with its path.
template <typename T> void expectEveryFieldRequired(const T &Value) {
  const json Full = Value;
  ASSERT_TRUE(bool(decodeMessage<T>(Full, "the message")));
  for (const std::string &Path : fieldPaths(Full)) {
    if (Path == "peak_dram_gbs" || Path == "arch" || Path.ends_with(".peak_dram_gbs") ||
        Path.ends_with(".arch"))
      continue; // Derived on the way out, for readers of the JSON; never read back.
    auto Decoded = decodeMessage<T>(without(Full, Path), "the message");
    ASSERT_FALSE(bool(Decoded)) << "a message without '" << Path << "' was accepted";
    std::string Error = llvm::toString(Decoded.takeError());
    EXPECT_EQ(Error, "the message has no '" + Path + "'");
  }
}
} // namespace

TEST(WorkerProtocol, WorkloadRoundTrip) {
  Workload W;
  W.Args = {{"n", ScalarArg{ScalarType::I32, 1024}},
            {"x", BufferArg{ScalarType::F16, 1024, Direction::In}},
            {"y", BufferArg{ScalarType::F64, 1024, Direction::Out}}};
  W.Launch.Grid = {4, 2, 1};
  W.Launch.Block = {256, 1, 1};
  W.Launch.SharedBytes = 1024;
  W.Tol = Tolerance{1e-3, 1e-6};
  nlohmann::json J = W;
  Workload Back = J.get<Workload>();
  EXPECT_EQ(nlohmann::json(Back), J);
  EXPECT_EQ(Back.Args[1].buffer()->Element, ScalarType::F16);
  EXPECT_EQ(Back.Launch, W.Launch);
  EXPECT_EQ(Back.bufferBytes(), 1024u * 2 + 1024u * 8);
}

TEST(WorkerProtocol, RequestsRoundTrip) {
  OriginalRequest R = originalRequest();
  json Sent = requestJson(R);
  auto Op = requestOp(Sent);
  ASSERT_TRUE(bool(Op)) << llvm::toString(Op.takeError());
  EXPECT_EQ(*Op, RequestOp::SetOriginal);
  auto Back = decodeMessage<OriginalRequest>(Sent, "the request");
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(json(*Back), json(R));
  EXPECT_EQ(Back->Work.Recorded[0].Weight, 60u);
  EXPECT_EQ(Back->Work.Args[0].buffer()->Range->Hi, 8);
  EXPECT_EQ(Back->Timing.ScreenSeconds, 0.5);

  VariantRequest V;
  V.Source = R.Source;
  V.Launch = R.Work.Launch;
  V.Stage = TimingStage::Confirm;
  for (bool Remapped : {false, true}) {
    if (Remapped)
      V.RecordedLaunches = std::vector<LaunchGeometry>{V.Launch};
    auto Decoded = decodeMessage<VariantRequest>(requestJson(V), "the request");
    ASSERT_TRUE(bool(Decoded)) << llvm::toString(Decoded.takeError());
    EXPECT_EQ(Decoded->Stage, TimingStage::Confirm);
    EXPECT_EQ(Decoded->RecordedLaunches.has_value(), Remapped);
  }
  EXPECT_EQ(*requestOp(helloRequest()), RequestOp::Hello);
}

TEST(WorkerProtocol, AnswersRoundTrip) {
  json Original = okAnswer(originalAnswer());
  auto Head = answerHead(Original);
  ASSERT_TRUE(bool(Head)) << llvm::toString(Head.takeError());
  EXPECT_EQ(Head->Status, AnswerStatus::Ok);
  auto Measured = decodeMessage<OriginalAnswer>(Original, "the answer");
  ASSERT_TRUE(bool(Measured)) << llvm::toString(Measured.takeError());
  EXPECT_EQ(json(*Measured), json(originalAnswer()));
  ASSERT_TRUE(Measured->Counters);
  EXPECT_EQ(Measured->Counters->Metrics.at("dram__bytes.sum"), 4096);

  OriginalAnswer Unprofiled = originalAnswer();
  Unprofiled.Counters.reset();
  auto NoProfile = decodeMessage<OriginalAnswer>(okAnswer(Unprofiled), "the answer");
  ASSERT_TRUE(bool(NoProfile));
  EXPECT_FALSE(NoProfile->Counters);

  auto Outcome = decodeMessage<VariantOutcome>(okAnswer(wrongOutcome()), "the answer");
  ASSERT_TRUE(bool(Outcome)) << llvm::toString(Outcome.takeError());
  EXPECT_EQ(Outcome->Result, Verdict::Wrong);
  EXPECT_EQ(Outcome->Stage, TimingStage::Screen);
  ASSERT_TRUE(Outcome->Worst);
  EXPECT_EQ(Outcome->Worst->Index, 17u);
  EXPECT_FALSE(Outcome->First);
  EXPECT_EQ(json(*Outcome), json(wrongOutcome()));

  DeviceInfo D;
  D.Name = "NVIDIA H200";
  D.ComputeMajor = 9;
  auto Hello = decodeMessage<HelloAnswer>(okAnswer(HelloAnswer{D}), "the answer");
  ASSERT_TRUE(bool(Hello));
  EXPECT_EQ(Hello->Device.Name, "NVIDIA H200");
  EXPECT_EQ(Hello->Device.smArch(), "sm_90");
}

// A wrong variant's element is often NaN (the poison it left) or infinite,
// which JSON cannot hold as a number: the answer still decodes, sign included
// (a GPU test's 6 GB variant was "malformed" when it came as null).
TEST(WorkerProtocol, NonFiniteElementsRoundTrip) {
  VariantOutcome O = wrongOutcome();
  O.Worst = FailedElement{"y", 17, -std::numeric_limits<double>::quiet_NaN(),
                          std::numeric_limits<double>::infinity()};
  O.WorstToleranceRatio = std::numeric_limits<double>::infinity();
  auto Back = decodeMessage<VariantOutcome>(json::parse(okAnswer(O).dump()), "the answer");
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  ASSERT_TRUE(Back->Worst);
  EXPECT_TRUE(std::isnan(Back->Worst->Got));
  EXPECT_TRUE(std::signbit(Back->Worst->Got));
  EXPECT_EQ(Back->Worst->Expected, std::numeric_limits<double>::infinity());
  EXPECT_EQ(Back->WorstToleranceRatio, std::numeric_limits<double>::infinity());
  json Bad = okAnswer(wrongOutcome());
  Bad["worst"]["got"] = "many";
  auto Refused = decodeMessage<VariantOutcome>(Bad, "the answer");
  ASSERT_FALSE(bool(Refused));
  EXPECT_NE(llvm::toString(Refused.takeError()).find("'got' is 'many', not a number"),
            std::string::npos);
}

TEST(WorkerProtocol, AMissingFieldIsAnErrorNamingIt) {
  expectEveryFieldRequired(originalAnswer());
  expectEveryFieldRequired(wrongOutcome());
  expectEveryFieldRequired(HelloAnswer{});
  expectEveryFieldRequired(originalRequest());
  VariantRequest V;
  expectEveryFieldRequired(V);
}

TEST(WorkerProtocol, AMissingFieldInsideAListNamesTheList) {
  json Request = originalRequest();
  Request["workload"]["args"][0].erase("count");
  auto Decoded = decodeMessage<OriginalRequest>(Request, "the request set_original");
  ASSERT_FALSE(bool(Decoded));
  EXPECT_EQ(llvm::toString(Decoded.takeError()),
            "the request set_original has no 'workload.args.count'");
}

TEST(WorkerProtocol, AnAnswerWithoutAStatusIsRefused) {
  json Answer = okAnswer(HelloAnswer{});
  Answer.erase("status");
  auto Head = answerHead(Answer);
  ASSERT_FALSE(bool(Head));
  EXPECT_EQ(llvm::toString(Head.takeError()), "the evaluation worker's answer has no 'status'");
  Answer = okAnswer(HelloAnswer{});
  Answer.erase("message");
  Head = answerHead(Answer);
  ASSERT_FALSE(bool(Head));
  EXPECT_EQ(llvm::toString(Head.takeError()), "the evaluation worker's answer has no 'message'");
  Answer["status"] = "fine";
  Answer["message"] = "";
  Head = answerHead(Answer);
  ASSERT_FALSE(bool(Head));
  EXPECT_EQ(llvm::toString(Head.takeError()),
            "the evaluation worker's answer has an unknown status 'fine'");
}

TEST(WorkerProtocol, FailuresCarryTheirStatusAndMessage) {
  for (AnswerStatus S : {AnswerStatus::Error, AnswerStatus::LaunchRejected, AnswerStatus::Crashed,
                         AnswerStatus::TimedOut}) {
    auto Head = answerHead(failureAnswer({S, "why"}));
    ASSERT_TRUE(bool(Head)) << llvm::toString(Head.takeError());
    EXPECT_EQ(Head->Status, S);
    EXPECT_EQ(Head->Message, "why");
  }
}

TEST(WorkerProtocol, UnknownVerdictsAndStagesAreRefused) {
  json Answer = okAnswer(wrongOutcome());
  Answer["verdict"] = "fastest";
  auto Decoded = decodeMessage<VariantOutcome>(Answer, "the answer to evaluate");
  ASSERT_FALSE(bool(Decoded));
  EXPECT_NE(llvm::toString(Decoded.takeError()).find("unknown verdict 'fastest'"),
            std::string::npos);
  Answer = okAnswer(wrongOutcome());
  Answer["stage"] = "sprint";
  Decoded = decodeMessage<VariantOutcome>(Answer, "the answer to evaluate");
  ASSERT_FALSE(bool(Decoded));
  EXPECT_NE(llvm::toString(Decoded.takeError()).find("unknown timing stage 'sprint'"),
            std::string::npos);
  for (Verdict V :
       {Verdict::Faster, Verdict::NotFaster, Verdict::Wrong, Verdict::CompileError,
        Verdict::LaunchRejected, Verdict::Crashed, Verdict::TimedOut, Verdict::Promising})
    EXPECT_EQ(parseVerdict(spelling(V)), V);
}

TEST(WorkerProtocol, UnknownRequestsAreRefused) {
  auto Op = requestOp({{"op", "reboot"}});
  ASSERT_FALSE(bool(Op));
  EXPECT_EQ(llvm::toString(Op.takeError()), "unknown request 'reboot'");
  Op = requestOp(json::object());
  ASSERT_FALSE(bool(Op));
  EXPECT_EQ(llvm::toString(Op.takeError()), "the request has no 'op'");
}
