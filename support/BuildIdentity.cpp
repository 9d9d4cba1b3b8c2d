#include "support/BuildIdentity.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/MemoryBuffer.h>

#include <unistd.h>

namespace kopt {

namespace {
struct ProcessInfo {
  std::string Name;
  long Parent = 0;
  std::string StartTime;
};

// /proc/PID/stat: "pid (comm) state ppid ... starttime(22nd field) ...".
std::optional<ProcessInfo> readProcess(long Pid) {
  auto Stat = llvm::MemoryBuffer::getFileAsStream("/proc/" + std::to_string(Pid) + "/stat");
  if (!Stat)
    return std::nullopt;
  llvm::StringRef Text = (*Stat)->getBuffer();
  size_t Open = Text.find('('), Close = Text.rfind(')');
  if (Open == llvm::StringRef::npos || Close == llvm::StringRef::npos || Close < Open)
    return std::nullopt;
  ProcessInfo P;
  P.Name = Text.slice(Open + 1, Close).str();
  llvm::SmallVector<llvm::StringRef, 64> Fields; // From the state, the 3rd field.
  Text.drop_front(Close + 1).trim().split(Fields, ' ', -1, false);
  if (Fields.size() < 20 || !llvm::to_integer(Fields[1], P.Parent))
    return std::nullopt;
  P.StartTime = Fields[19].str();
  return P;
}

bool isBuildTool(llvm::StringRef Name) {
  static constexpr llvm::StringLiteral Tools[] = {"ninja", "samu",  "make",  "gmake", "cmake",
                                                  "ctest", "scons", "meson", "bazel", "buck2"};
  for (llvm::StringRef T : Tools)
    if (Name == T)
      return true;
  return false;
}
} // namespace

std::optional<std::string> buildIdentity(const char *Explicit) {
  if (Explicit && *Explicit)
    return std::string(Explicit);
  long Parent = ::getppid();
  std::optional<ProcessInfo> First = readProcess(Parent);
  if (!First)
    return std::nullopt;
  long Pid = Parent;
  ProcessInfo P = *First;
  for (int Depth = 0; Depth < 16 && Pid > 1; ++Depth) {
    if (isBuildTool(P.Name))
      return P.Name + "-" + std::to_string(Pid) + "-" + P.StartTime;
    Pid = P.Parent;
    std::optional<ProcessInfo> Next = readProcess(Pid);
    if (!Next)
      break;
    P = *Next;
  }
  return First->Name + "-" + std::to_string(Parent) + "-" + First->StartTime;
}

} // namespace kopt
