#include "driver/commands/KoptMain.h"

#include "driver/Diagnostics.h"
#include "driver/commands/Subcommand.h"
#include "kopt/Version.h"
#include "support/Spelling.h"

#include <llvm/Support/Format.h>
#include <llvm/Support/raw_ostream.h>

namespace kopt::driver {

namespace {
void printHelp(llvm::raw_ostream &OS) {
  OS << "kopt " << Version
     << ": optimizes CUDA kernels marked #pragma kopt inside ordinary builds\n\n"
     << "usage: kopt <subcommand> [args]\n"
     << "       kcc <nvcc arguments>        (compile: a drop-in replacement for nvcc)\n\n"
     << "subcommands:\n";
  // A usage longer than the column gets its summary on the next line, as git and clang do.
  constexpr size_t Column = 36;
  auto Row = [&](llvm::StringRef Usage, llvm::StringRef Summary) {
    if (Usage.size() < Column)
      OS << "  " << llvm::left_justify(Usage, Column) << Summary << "\n";
    else
      OS << "  " << Usage << "\n  " << std::string(Column, ' ') << Summary << "\n";
  };
  for (const Subcommand &S : allSubcommands())
    Row(S.Usage, S.Summary);
  Row("help [SUBCOMMAND]", "print this help, or a subcommand's (also kopt SUBCOMMAND --help)");
}

void printSubcommandHelp(const Subcommand &S, llvm::raw_ostream &OS) {
  OS << "usage: kopt " << S.Usage << "\n\n" << S.Summary << "\n";
  if (!S.Options.empty())
    OS << "\n" << S.Options;
}

std::optional<std::string> nearest(llvm::StringRef Name) {
  std::vector<llvm::StringRef> Names;
  for (const Subcommand &S : allSubcommands())
    Names.push_back(S.Name);
  return closestSpelling(Name, Names, /*MaxDistance=*/2);
}
} // namespace

int koptMain(const std::vector<std::string> &Args) {
  if (Args.empty()) {
    printHelp(llvm::errs());
    return 1;
  }
  llvm::StringRef Name = Args.front();
  if (Name == "help" || Name == "--help" || Name == "-h") {
    if (Args.size() > 1)
      if (const Subcommand *Command = findSubcommand(Args[1])) {
        printSubcommandHelp(*Command, llvm::outs());
        return 0;
      }
    printHelp(llvm::outs());
    return 0;
  }
  if (Name == "--version")
    Name = "version";
  const Subcommand *Command = findSubcommand(Name);
  if (!Command) {
    std::string Message = "unknown subcommand '" + Name.str() + "'";
    Message += didYouMean(nearest(Name));
    Reporter("kopt").error(Message + " (see kopt --help)");
    return 1;
  }
  std::vector<std::string> Rest(Args.begin() + 1, Args.end());
  if (asksForHelp(Rest)) {
    printSubcommandHelp(*Command, llvm::outs());
    return 0;
  }
  return exitStatusOf(Reporter(Command->voice()), Command->Run(Rest));
}

} // namespace kopt::driver
