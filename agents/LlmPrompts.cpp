#include "agents/LlmPrompts.h"

#include <llvm/Support/Format.h>
#include <llvm/Support/raw_ostream.h>

namespace kopt::agents {

namespace {
using Role = ChatMessage::Role;

// What every role must respect: the contract that lets kopt splice the variant
// into the user's build and verify it against the original.
const char *Rules =
    "Rules for every variant:\n"
    "- Keep the kernel's name, parameter list and meaning; the launch (grid, block, "
    "dynamic shared memory) stays as it is.\n"
    "- The result must equal the original kernel's for every input (floating point within "
    "a small tolerance); it is verified on the GPU against the original.\n"
    "- Do not use streams, graphs, host memory, dynamic allocation, printf, or globals that "
    "keep state between launches; no atomics that race with the kernel's own outputs.\n"
    "- Write self-contained CUDA C++ (the unit compiles alone with nvcc).";

std::string section(llvm::StringRef Title, llvm::StringRef Body) {
  return "## " + Title.str() + "\n" + Body.rtrim("\n").str() + "\n\n";
}

std::string cudaBlock(llvm::StringRef Code) {
  return "```cuda\n" + Code.str() + (Code.ends_with("\n") ? "" : "\n") + "```\n";
}

std::string kernelSection(const PromptContext &C) {
  return section("Kernel `" + C.KernelName + "` (numbered lines)",
                 "```cuda\n" + numberedLines(C.KernelUnit) + "```");
}

std::string profileSection(const PromptContext &C) {
  std::string Lines;
  for (const auto &[Name, Value] : C.Profile)
    Lines += Name + "=" + Value + "\n";
  return section("Profile of the original kernel", Lines.empty() ? "(not measured)" : Lines);
}

std::string skillsSection(const PromptContext &C) {
  std::string Text;
  for (const PromptSkill &S : C.Skills)
    Text += "### " + S.Id + ": " + S.Title + "\n" + S.Guidance + "\n\n";
  return section("Optimization skills that apply to this kernel", Text.empty() ? "(none)" : Text);
}

std::string trajectorySection(const PromptContext &C) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  for (const TrajectoryStep &T : C.Trajectory) {
    OS << "- " << T.Variant << ": skill " << T.Skill << ", " << T.Outcome;
    if (T.TimeMs)
      OS << ", " << llvm::format("%.4g", *T.TimeMs) << " ms";
    OS << "\n";
  }
  return section("Variants tried so far (do not repeat these)", Text.empty() ? "(none yet)" : Text);
}

std::string bestSection(const PromptContext &C) {
  if (C.BestUnit.empty())
    return "";
  return section("The fastest verified variant so far (build on it)", cudaBlock(C.BestUnit));
}
} // namespace

std::string numberedLines(llvm::StringRef Text) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  llvm::SmallVector<llvm::StringRef> Lines;
  Text.rtrim('\n').split(Lines, '\n');
  for (size_t I = 0; I < Lines.size(); ++I)
    OS << llvm::format("%4zu| ", I + 1) << Lines[I] << "\n";
  return Out;
}

std::vector<ChatMessage> plannerPrompt(const PromptContext &C) {
  std::string System =
      "You are the planner of kopt, a CUDA kernel optimizer. You choose ONE optimization "
      "skill from the list given and plan how to apply it to the kernel, grounded in the "
      "kernel's code and its profile.\n\n" +
      std::string(Rules) +
      "\n\nAnswer with one JSON object and nothing else:\n"
      "{\"skill\": \"<skill id from the list>\", \"changes\": [{\"lines\": \"12-15\", "
      "\"what\": \"<the change to those lines>\"}], \"expected\": \"<which profile metric "
      "moves and how, e.g. dram_throughput up, registers down>\"}\n"
      "\"lines\" are the numbered lines of the kernel shown. Do not plan a skill that "
      "already failed on this kernel.";
  std::string User = kernelSection(C) + profileSection(C) + skillsSection(C) +
                     trajectorySection(C) + bestSection(C) + "Plan the next variant of `" +
                     C.KernelName + "`.";
  return {{Role::System, System}, {Role::User, User}};
}

std::vector<ChatMessage> coderPrompt(const PromptContext &C, const Plan &Chosen) {
  std::string System = "You are the coder of kopt, a CUDA kernel optimizer. You write the "
                       "variant of a kernel that carries out a given plan.\n\n" +
                       std::string(Rules) +
                       "\n\nAnswer with the complete new kernel unit (the kernel and any device "
                       "code it needs) in ONE ```cuda block, no other code blocks.";
  std::string PlanText = "skill: " + Chosen.Skill + "\n";
  for (const PlanChange &Change : Chosen.Changes)
    PlanText += "- lines " + Change.Lines + ": " + Change.What + "\n";
  PlanText += "expected: " + Chosen.Expected + "\n";
  std::string Guidance;
  for (const PromptSkill &S : C.Skills)
    if (S.Id == Chosen.Skill)
      Guidance = section("How to apply " + S.Id, S.Guidance);
  std::string User = kernelSection(C) + bestSection(C) + section("The plan", PlanText) + Guidance +
                     "Write the variant of `" + C.KernelName + "`.";
  return {{Role::System, System}, {Role::User, User}};
}

std::vector<ChatMessage> debuggerPrompt(const PromptContext &C, llvm::StringRef FailedCode) {
  std::string System = "You are the debugger of kopt, a CUDA kernel optimizer. A variant of a "
                       "kernel failed to compile or gave wrong results; you repair it with the "
                       "smallest change that keeps its optimization.\n\n" +
                       std::string(Rules) +
                       "\n\nAnswer with the complete repaired kernel unit in ONE ```cuda block.";
  std::string User = kernelSection(C) + section("The failing variant", cudaBlock(FailedCode)) +
                     section("What went wrong", C.Failure.empty() ? "(no log)" : C.Failure) +
                     "Repair the variant of `" + C.KernelName + "`.";
  return {{Role::System, System}, {Role::User, User}};
}

} // namespace kopt::agents
