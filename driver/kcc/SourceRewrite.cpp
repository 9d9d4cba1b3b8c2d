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

llvm::Expected<std::string> createRewriteFile(llvm::StringRef Dir, llvm::StringRef Source) {
  llvm::SmallString<256> Model(Dir.empty() ? "." : Dir);
  llvm::sys::path::append(Model, llvm::sys::path::stem(Source) + ".kopt-%%%%%%.cu");
  int FD = -1;
  llvm::SmallString<256> Path;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Model, FD, Path))
    return llvm::createStringError(EC, "cannot create a file in '%s': %s",
                                   Dir.empty() ? "." : Dir.str().c_str(), EC.message().c_str());
  ::close(FD);
  return std::string(Path);
}

} // namespace kopt::driver
