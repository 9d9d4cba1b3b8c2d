// kopt's subcommands: one function each, listed in one table (Subcommands.cpp).
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <string>
#include <vector>

namespace kopt::driver {

struct Subcommand {
  llvm::StringRef Name;
  llvm::StringRef Usage;   // "inspect FILE [-- COMPILER FLAGS]"
  llvm::StringRef Summary; // One line for `kopt --help`.
  llvm::StringRef Options; // `kopt NAME --help`: one "  OPTION  meaning" line each.
  int (*Run)(const std::vector<std::string> &Args); // Args after the subcommand's name.
};

llvm::ArrayRef<Subcommand> allSubcommands();
const Subcommand *findSubcommand(llvm::StringRef Name);

// True where Args (a subcommand's arguments) ask for its help: "--help" or
// "-h" before any "--" (what follows "--" belongs to a compiler or an app).
bool asksForHelp(const std::vector<std::string> &Args);

int runVersion(const std::vector<std::string> &Args);
int runDevice(const std::vector<std::string> &Args);
int runInspect(const std::vector<std::string> &Args);
int runCheck(const std::vector<std::string> &Args);
int runEval(const std::vector<std::string> &Args);
int runOptimize(const std::vector<std::string> &Args);
int runCache(const std::vector<std::string> &Args);
int runTransform(const std::vector<std::string> &Args);
int runRewriteTu(const std::vector<std::string> &Args);
int runApply(const std::vector<std::string> &Args);
int runSkills(const std::vector<std::string> &Args);
int runRecord(const std::vector<std::string> &Args);
int runReport(const std::vector<std::string> &Args);

} // namespace kopt::driver
