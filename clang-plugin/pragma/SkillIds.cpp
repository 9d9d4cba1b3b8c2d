#include "clang-plugin/pragma/SkillIds.h"

#include "support/InstallLayout.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

#include <algorithm>

namespace kopt::frontend {

namespace {
// The value of the top-level 'id:' line: a plain scalar (the loader requires
// lower-case-with-dashes).
std::optional<std::string> idLine(llvm::StringRef Text) {
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    if (!Line.consume_front("id:"))
      continue;
    Line = Line.split('#').first.trim().trim("\"'");
    if (!Line.empty())
      return Line.str();
  }
  return std::nullopt;
}
} // namespace

std::optional<std::vector<std::string>> skillIdsIn(const std::string &Dir) {
  std::vector<std::string> Ids;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC)) {
    if (llvm::sys::path::extension(It->path()) != ".yaml")
      continue;
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> File =
        llvm::MemoryBuffer::getFile(It->path());
    if (!File)
      continue;
    if (std::optional<std::string> Id = idLine((*File)->getBuffer()))
      Ids.push_back(std::move(*Id));
  }
  if (EC || Ids.empty())
    return std::nullopt;
  std::sort(Ids.begin(), Ids.end());
  return Ids;
}

const std::optional<std::vector<std::string>> &installedSkillIds() {
  static const std::optional<std::vector<std::string>> Ids =
      skillIdsIn(InstallLayout::forThisCode().skillsDir());
  return Ids;
}

} // namespace kopt::frontend
