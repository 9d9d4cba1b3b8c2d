// kopt-llm-check CONTEXT.json UNIT.cu --out DIR [--nvcc NVCC --arch sm_XX] [--backoff S]
//                [--kopt-llm-...=VALUE]
// Runs one planner -> coder -> debugger exchange of the llm engine against the
// endpoint its options name (lit tests point it at replay_server.py): the plan
// is parsed, the coder's kernel written to DIR/coder.cu and compiled with
// `NVCC -cubin`; if that fails the debugger gets the compile log and its kernel
// goes to DIR/debugger.cu. Prints one line per step and the token account.
// CONTEXT.json: {"kernel": NAME, "profile": {metric: value}, "skills": [{"id",
// "title", "guidance"}], "trajectory": [{"variant", "skill", "outcome", "time_ms"}]}.
#include "agents/LlmChatModel.h"
#include "agents/LlmConfig.h"
#include "agents/LlmPricing.h"
#include "agents/LlmPrompts.h"
#include "agents/LlmReply.h"
#include "driver/config/KoptOptions.h"
#include "test/tools/ToolFiles.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Format.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/raw_ostream.h>
#include <nlohmann/json.hpp>

#include <cstdlib>

namespace kopt::testtools {
[[noreturn]] void die(const llvm::Twine &Message) {
  llvm::outs().flush(); // Steps done so far come before the error.
  llvm::errs() << "kopt-llm-check: error: " << Message << "\n";
  std::exit(1);
}
} // namespace kopt::testtools
using kopt::testtools::die;
using kopt::testtools::readFile;
using kopt::testtools::writeFile;

using namespace kopt::agents;

namespace {
struct Args {
  std::string ContextFile, UnitFile, OutDir, Nvcc, Arch = "sm_90";
  double Backoff = 1;
  kopt::driver::SplitCommandLine Split;
};

Args parseArgs(int Argc, char **Argv) {
  std::vector<std::string> All(Argv + 1, Argv + Argc);
  llvm::Expected<kopt::driver::SplitCommandLine> Split = kopt::driver::splitKoptFlags(All);
  if (!Split)
    die(llvm::toString(Split.takeError()));
  Args A;
  std::vector<std::string> Positional;
  const std::vector<std::string> &Rest = Split->CompilerArgs;
  for (size_t I = 0; I < Rest.size(); ++I) {
    auto Value = [&]() -> std::string {
      if (I + 1 >= Rest.size())
        die(Rest[I] + " needs a value");
      return Rest[++I];
    };
    if (Rest[I] == "--out")
      A.OutDir = Value();
    else if (Rest[I] == "--nvcc")
      A.Nvcc = Value();
    else if (Rest[I] == "--arch")
      A.Arch = Value();
    else if (Rest[I] == "--backoff")
      A.Backoff = std::stod(Value());
    else
      Positional.push_back(Rest[I]);
  }
  if (Positional.size() != 2 || A.OutDir.empty())
    die("usage: kopt-llm-check CONTEXT.json UNIT.cu --out DIR [--nvcc NVCC] [--arch sm_XX] "
        "[--backoff SECONDS] [--kopt-llm-...=VALUE]");
  A.ContextFile = Positional[0];
  A.UnitFile = Positional[1];
  A.Split = std::move(*Split);
  return A;
}

PromptContext loadContext(const Args &A) {
  nlohmann::json J = nlohmann::json::parse(readFile(A.ContextFile));
  PromptContext C;
  C.KernelName = J.at("kernel").get<std::string>();
  C.KernelUnit = readFile(A.UnitFile);
  nlohmann::json Profile = J.value("profile", nlohmann::json::object());
  for (const auto &[Name, Value] : Profile.items())
    C.Profile.emplace_back(Name, Value.is_string() ? Value.get<std::string>() : Value.dump());
  for (const nlohmann::json &S : J.value("skills", nlohmann::json::array()))
    C.Skills.push_back({S.at("id"), S.at("title"), S.at("guidance")});
  for (const nlohmann::json &T : J.value("trajectory", nlohmann::json::array())) {
    TrajectoryStep Step{T.at("variant"), T.at("skill"), T.at("outcome"), std::nullopt};
    if (T.contains("time_ms"))
      Step.TimeMs = T["time_ms"].get<double>();
    C.Trajectory.push_back(Step);
  }
  return C;
}

// Compiles Source to a cubin; false with the compiler's output in Log on failure.
bool compiles(const Args &A, const std::string &Source, std::string &Log) {
  std::string LogFile = Source + ".log";
  std::vector<std::string> Storage = {A.Nvcc, "-cubin",          "-arch=" + A.Arch,
                                      "-o",   Source + ".cubin", Source};
  std::vector<llvm::StringRef> Argv(Storage.begin(), Storage.end());
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, LogFile, LogFile};
  int Status = llvm::sys::ExecuteAndWait(A.Nvcc, Argv, std::nullopt, Redirects);
  Log = readFile(LogFile);
  return Status == 0;
}

ChatReply ask(ChatModel &Model, UsageLedger &Ledger, const PromptContext &C, llvm::StringRef Role,
              const std::vector<ChatMessage> &Messages, int MaxTokens) {
  llvm::Expected<ChatReply> Reply = Model.chat(Messages, MaxTokens);
  if (!Reply)
    die(Role + ": " + llvm::toString(Reply.takeError()));
  Ledger.record(C.KernelName, Reply->Usage);
  llvm::outs() << Role << ": attempts=" << Reply->Attempts << " tokens=" << Reply->Usage.InputTokens
               << "/" << Reply->Usage.OutputTokens << (Reply->Truncated ? " truncated" : "");
  if (Reply->Attempts > 1)
    llvm::outs() << " waited=" << llvm::format("%.2f", Reply->WaitedSeconds) << "s";
  llvm::outs() << "\n";
  return std::move(*Reply);
}

std::string kernelOf(const ChatReply &Reply, const PromptContext &C, llvm::StringRef Role) {
  llvm::Expected<std::string> Code = extractKernelCode(Reply.Text, C.KernelName);
  if (!Code)
    die(Role + ": " + llvm::toString(Code.takeError()));
  return *Code;
}
} // namespace

int main(int Argc, char **Argv) {
  Args A = parseArgs(Argc, Argv);
  kopt::driver::KoptOptions Options;
  auto GetEnv = [](const char *Name) -> std::optional<std::string> {
    if (const char *V = std::getenv(Name))
      return std::string(V);
    return std::nullopt;
  };
  if (llvm::Error E = kopt::driver::applyEnvironmentAndFlags(Options, GetEnv, A.Split))
    die(llvm::toString(std::move(E)));
  llvm::Expected<LlmConfig> Config =
      llmConfigFrom([&](llvm::StringRef Key) { return Options.get(Key).Value; }, GetEnv);
  if (!Config)
    die(llvm::toString(Config.takeError()));
  Config->BackoffSeconds = A.Backoff;
  llvm::Expected<std::unique_ptr<ChatModel>> Model = createChatModel(*Config);
  if (!Model)
    die(llvm::toString(Model.takeError()));
  if (std::error_code EC = llvm::sys::fs::create_directories(A.OutDir))
    die("cannot create " + A.OutDir + ": " + EC.message());

  PromptContext C = loadContext(A);
  UsageLedger Ledger;
  ChatReply PlanReply = ask(**Model, Ledger, C, "planner", plannerPrompt(C), 1024);
  llvm::Expected<Plan> P = parsePlan(PlanReply.Text);
  if (!P)
    die("planner: " + llvm::toString(P.takeError()));
  llvm::outs() << "plan: skill=" << P->Skill << " changes=" << P->Changes.size()
               << " first=" << P->Changes.front().Lines << " expected=" << P->Expected << "\n";

  std::string Code =
      kernelOf(ask(**Model, Ledger, C, "coder", coderPrompt(C, *P), 4096), C, "coder");
  std::string CoderFile = (A.OutDir + "/coder.cu");
  writeFile(CoderFile, Code);
  std::string Log;
  if (!A.Nvcc.empty() && !compiles(A, CoderFile, Log)) {
    llvm::outs() << "coder: compile failed\n";
    C.Failure = Log;
    std::string Fixed =
        kernelOf(ask(**Model, Ledger, C, "debugger", debuggerPrompt(C, Code), 4096), C, "debugger");
    std::string DebuggerFile = A.OutDir + "/debugger.cu";
    writeFile(DebuggerFile, Fixed);
    if (!compiles(A, DebuggerFile, Log))
      die("debugger: the repaired kernel does not compile either:\n" + Log);
    llvm::outs() << "debugger: compiles\n";
  } else if (!A.Nvcc.empty()) {
    llvm::outs() << "coder: compiles\n";
  }

  ChatUsage Used = Ledger.forKernel(C.KernelName);
  llvm::outs() << "usage: kernel=" << C.KernelName << " input_tokens=" << Used.InputTokens
               << " output_tokens=" << Used.OutputTokens;
  if (priceOf(Config->Model))
    llvm::outs() << " cost_usd=" << llvm::format("%.6f", Used.CostUsd) << "\n";
  else
    llvm::outs() << " cost_usd=unknown\n";
  return 0;
}
