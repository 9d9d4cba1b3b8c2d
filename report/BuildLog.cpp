#include "report/BuildLog.h"

#include "memory/cache/FileLock.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <stdexcept>

namespace kopt::report {

namespace {
constexpr int RecordFormat = 1;

nlohmann::json toJson(const BuildRecord &R) {
  return {{"format", RecordFormat},
          {"source", R.Source},
          {"file", R.File},
          {"line", R.Line},
          {"kernel", R.Kernel},
          {"kind", R.Kind},
          {"arch", R.Arch},
          {"key", R.Key},
          {"outcome", R.Outcome},
          {"detail", R.Detail},
          {"reason", R.Reason},
          {"user_cache", R.UserCache},
          {"project_cache", R.ProjectCache},
          {"date", R.Date}};
}

BuildRecord fromJson(const nlohmann::json &J) {
  if (J.at("format").get<int>() != RecordFormat)
    throw std::runtime_error("format " + J.at("format").dump() + " is not " +
                             std::to_string(RecordFormat));
  BuildRecord R;
  R.Source = J.at("source").get<std::string>();
  R.File = J.at("file").get<std::string>();
  R.Line = J.at("line").get<unsigned>();
  R.Kernel = J.at("kernel").get<std::string>();
  R.Kind = J.at("kind").get<std::string>();
  R.Arch = J.at("arch").get<std::string>();
  R.Key = J.at("key").get<std::string>();
  R.Outcome = J.at("outcome").get<std::string>();
  R.Detail = J.at("detail").get<std::string>();
  R.Reason = J.at("reason").get<std::string>();
  R.UserCache = J.at("user_cache").get<std::string>();
  R.ProjectCache = J.at("project_cache").get<std::string>();
  R.Date = J.at("date").get<std::string>();
  return R;
}
} // namespace

llvm::Error appendBuildRecords(llvm::StringRef Path, llvm::ArrayRef<BuildRecord> Records) {
  if (Records.empty())
    return llvm::Error::success();
  std::string Lines;
  for (const BuildRecord &R : Records)
    Lines += toJson(R).dump() + "\n";
  llvm::StringRef Dir = llvm::sys::path::parent_path(Path);
  if (!Dir.empty())
    if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
      return llvm::createStringError(EC, "cannot create %s: %s", Dir.str().c_str(),
                                     EC.message().c_str());
  // One writer at a time, each writing whole lines.
  llvm::Expected<memory::FileLock> Lock = memory::FileLock::acquire((Path + ".lock").str());
  if (!Lock)
    return Lock.takeError();
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_Append | llvm::sys::fs::OF_Text);
  if (EC)
    return llvm::createStringError(EC, "cannot open %s: %s", Path.str().c_str(),
                                   EC.message().c_str());
  OS << Lines;
  OS.close();
  if (OS.has_error())
    return llvm::createStringError(OS.error(), "cannot write %s: %s", Path.str().c_str(),
                                   OS.error().message().c_str());
  return llvm::Error::success();
}

llvm::Expected<BuildLog> readBuildLog(llvm::StringRef Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Text)
    return llvm::createStringError(Text.getError(), "cannot read the build log %s: %s",
                                   Path.str().c_str(), Text.getError().message().c_str());
  BuildLog Log;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  (*Text)->getBuffer().split(Lines, '\n');
  for (size_t I = 0; I < Lines.size(); ++I) {
    llvm::StringRef Line = Lines[I].rtrim("\r");
    if (Line.trim().empty())
      continue;
    std::string Where = (Path + ":" + llvm::Twine(I + 1)).str();
    try {
      Log.Records.push_back(fromJson(nlohmann::json::parse(Line.begin(), Line.end())));
    } catch (const nlohmann::json::parse_error &E) {
      // byte: 1-based position just past the character that failed.
      Log.Problems.push_back(Where + ":" + std::to_string(std::max<size_t>(E.byte, 1)) +
                             ": not a build record: " + E.what());
    } catch (const std::exception &E) {
      Log.Problems.push_back(Where + ":1: not a build record: " + E.what());
    }
  }
  return Log;
}

} // namespace kopt::report
