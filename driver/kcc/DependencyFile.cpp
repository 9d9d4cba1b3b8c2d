#include "driver/kcc/DependencyFile.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

namespace kopt::driver {

namespace {
std::string escapeForMake(llvm::StringRef Path) {
  std::string Out;
  for (char C : Path) {
    if (C == ' ' || C == '#')
      Out += '\\';
    Out += C;
  }
  return Out;
}

bool isBoundary(char C) { return C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == ':'; }
} // namespace

std::string retargetDependencies(llvm::StringRef Text, llvm::StringRef From, llvm::StringRef To,
                                 llvm::ArrayRef<std::string> Also) {
  std::string Needle = escapeForMake(From), Replacement = escapeForMake(To);
  for (const std::string &Path : Also) {
    Replacement += ' ';
    Replacement += escapeForMake(Path);
  }
  std::string Out;
  size_t Pos = 0;
  while (true) {
    size_t Hit = Text.find(Needle, Pos);
    if (Hit == llvm::StringRef::npos)
      break;
    size_t End = Hit + Needle.size();
    bool Whole = (Hit == 0 || isBoundary(Text[Hit - 1])) &&
                 (End == Text.size() || isBoundary(Text[End]) || Text[End] == '\\');
    Out += Text.slice(Pos, Hit);
    Out += Whole ? Replacement : Needle;
    Pos = End;
  }
  Out += Text.drop_front(Pos);
  return Out;
}

llvm::Error retargetDependencyFile(const std::string &DepFile, llvm::StringRef From,
                                   llvm::StringRef To, llvm::ArrayRef<std::string> Also) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer = llvm::MemoryBuffer::getFile(DepFile);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "cannot read dependency file %s: %s",
                                   DepFile.c_str(), Buffer.getError().message().c_str());
  std::string Text = retargetDependencies((*Buffer)->getBuffer(), From, To, Also);
  std::error_code EC;
  llvm::raw_fd_ostream OS(DepFile, EC);
  if (EC)
    return llvm::createStringError(EC, "cannot write dependency file %s: %s", DepFile.c_str(),
                                   EC.message().c_str());
  OS << Text;
  return llvm::Error::success();
}

} // namespace kopt::driver
