#include "driver/kcc/SourceRewrite.h"

#include "clang-plugin/pragma/PragmaText.h"
#include "support/LineDirective.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <unistd.h>

namespace kopt::driver {

std::string rewriteTranslationUnit(llvm::StringRef OriginalText, llvm::StringRef PathAsWritten) {
  return lineDirective(PathAsWritten) + frontend::blankKoptPragmas(OriginalText);
}

llvm::Expected<std::string> createRewriteFile(const std::optional<std::string> &Output,
                                              llvm::StringRef Source, TemporaryFiles &Temps) {
  llvm::StringRef Name = llvm::sys::path::filename(Source);
  llvm::SmallString<256> Dir(Output ? llvm::StringRef(*Output) : Name);
  Dir += ".kopt";
  Temps.add(std::string(Dir));
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
    return llvm::createStringError(EC, "cannot create '%s': %s", Dir.c_str(), EC.message().c_str());
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, Name);
  Temps.add(std::string(Path));
  int FD = -1;
  if (std::error_code EC = llvm::sys::fs::openFileForWrite(Path, FD))
    return llvm::createStringError(EC, "cannot create '%s': %s", Path.c_str(),
                                   EC.message().c_str());
  ::close(FD);
  return std::string(Path);
}

} // namespace kopt::driver
