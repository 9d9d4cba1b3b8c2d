#include "driver/Diagnostics.h"

#include "support/WriteAll.h"

#include <llvm/Support/raw_ostream.h>

#include <unistd.h>

namespace kopt::driver {

char CommandFailure::ID = 0;

void writeToStderr(llvm::StringRef Text) {
  // What was printed to stdout before the message comes before it where both
  // reach one terminal or file (kopt verify's results, then its warning).
  llvm::outs().flush();
  writeAll(STDERR_FILENO, Text);
}

std::string Reporter::line(Severity S, const llvm::Twine &Message) const {
  const char *Label = S == Severity::Note      ? ": note: "
                      : S == Severity::Warning ? ": warning: "
                                               : ": error: ";
  return (Name + Label + Message + "\n").str();
}

int exitStatusOf(const Reporter &Voice, llvm::Error E) {
  int Status = 0;
  llvm::handleAllErrors(
      std::move(E),
      [&](const CommandFailure &F) {
        if (!F.text().empty())
          Voice.error(F.text());
        Status = F.status();
      },
      [&](const llvm::ErrorInfoBase &Other) {
        Voice.error(Other.message());
        Status = 1;
      });
  return Status;
}

} // namespace kopt::driver
