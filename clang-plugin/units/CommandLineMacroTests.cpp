#include "clang-plugin/units/CommandLineMacroTests.h"

#include <clang/Lex/MacroInfo.h>
#include <clang/Lex/Preprocessor.h>

#include <algorithm>

namespace kopt::frontend {

void CommandLineMacroTests::saw(const clang::Token &Name) {
  const clang::IdentifierInfo *II = Name.getIdentifierInfo();
  if (!II || !II->hadMacroDefinition())
    return;
  // The latest #define or #undef of the name, as it stands here.
  const clang::MacroDirective *Latest = PP.getLocalMacroDirectiveHistory(II);
  const clang::SourceManager &SM = PP.getSourceManager();
  if (!Latest || !SM.isWrittenInCommandLineFile(Latest->getLocation()))
    return;
  clang::FileID File = SM.getFileID(SM.getExpansionLoc(Name.getLocation()));
  llvm::SmallVector<clang::FileID, 4> &Seen = Files[II];
  if (std::find(Seen.begin(), Seen.end(), File) == Seen.end())
    Seen.push_back(File);
}

void CommandLineMacroTests::forEach(
    llvm::function_ref<void(const clang::IdentifierInfo &, llvm::ArrayRef<clang::FileID>)> Visit)
    const {
  for (const auto &[Name, Where] : Files)
    Visit(*Name, Where);
}

} // namespace kopt::frontend
