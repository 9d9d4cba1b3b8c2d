// kopt's subcommands: one function each, listed in one table (Subcommands.cpp).
// A subcommand returns an llvm::Error; koptMain turns it into the message and
// the exit status (Diagnostics.h: exitStatusOf).
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace kopt::driver {

struct Subcommand {
  llvm::StringRef Name;
  llvm::StringRef Usage;   // "inspect FILE [-- COMPILER FLAGS]"
  llvm::StringRef Summary; // One line for `kopt --help`.
  llvm::StringRef Options; // `kopt NAME --help`: one "  OPTION  meaning" line each.
  llvm::Error (*Run)(const std::vector<std::string> &Args); // Args after the subcommand's name.
  // Who speaks in its messages, where not "kopt <Name>": `kopt cache` says "kopt: ...".
  llvm::StringRef Voice = "";

  std::string voice() const { return Voice.empty() ? "kopt " + Name.str() : Voice.str(); }
};

llvm::ArrayRef<Subcommand> allSubcommands();
const Subcommand *findSubcommand(llvm::StringRef Name);

// True where Args (a subcommand's arguments) ask for its help: "--help" or
// "-h" before any "--" (what follows "--" belongs to a compiler or an app).
bool asksForHelp(const std::vector<std::string> &Args);

llvm::Error runVersion(const std::vector<std::string> &Args);
llvm::Error runDevice(const std::vector<std::string> &Args);
llvm::Error runInspect(const std::vector<std::string> &Args);
llvm::Error runCheck(const std::vector<std::string> &Args);
llvm::Error runEval(const std::vector<std::string> &Args);
llvm::Error runOptimize(const std::vector<std::string> &Args);
llvm::Error runCache(const std::vector<std::string> &Args);
llvm::Error runTransform(const std::vector<std::string> &Args);
llvm::Error runRewriteTu(const std::vector<std::string> &Args);
llvm::Error runApply(const std::vector<std::string> &Args);
llvm::Error runSkills(const std::vector<std::string> &Args);
llvm::Error runRecord(const std::vector<std::string> &Args);
llvm::Error runReport(const std::vector<std::string> &Args);
llvm::Error runWorker(const std::vector<std::string> &Args);
llvm::Error runWorkerJob(const std::vector<std::string> &Args);
llvm::Error runQueue(const std::vector<std::string> &Args);
llvm::Error runVerify(const std::vector<std::string> &Args);

} // namespace kopt::driver
