// kopt report [--cache DIR]... [--project-cache DIR] [--build-log FILE]
//             (-o REPORT.html | --text) [--warn-only]
// The report of what kopt did (report/): a self-contained HTML page, or the
// overview table on stdout. Without caches or a build log, the caches kcc
// would use from here.
#include "driver/Diagnostics.h"
#include "driver/commands/SourceKernels.h"
#include "driver/commands/Subcommand.h"
#include "driver/config/CacheConfig.h"
#include "driver/optimize/KernelOptimization.h"
#include "report/HtmlPage.h"
#include "report/ReportSources.h"
#include "report/TextOverview.h"
#include "support/AtomicFile.h"

#include <llvm/Support/raw_ostream.h>

namespace kopt::driver {

namespace {
constexpr const char *Tool = "kopt report";

// Every --NAME VALUE of Args, in order.
llvm::Expected<std::vector<std::string>> takeAll(std::vector<std::string> &Args,
                                                 llvm::StringRef Name) {
  std::vector<std::string> Values;
  for (;;) {
    llvm::Expected<std::optional<std::string>> V = takeOption(Args, Name);
    if (!V)
      return V.takeError();
    if (!*V)
      return Values;
    Values.push_back(**V);
  }
}

llvm::Expected<report::ReportRequest> requestFrom(std::vector<std::string> &Args,
                                                  std::optional<std::string> &Output, bool &Text) {
  report::ReportRequest R;
  R.Date = utcNow();
  llvm::Expected<std::vector<std::string>> Caches = takeAll(Args, "cache");
  if (!Caches)
    return Caches.takeError();
  for (const std::string &Dir : *Caches)
    R.Caches.push_back({Dir, false});
  llvm::Expected<std::optional<std::string>> Project = takeOption(Args, "project-cache");
  if (!Project)
    return Project.takeError();
  if (*Project)
    R.Caches.push_back({**Project, true});
  llvm::Expected<std::optional<std::string>> Log = takeOption(Args, "build-log");
  if (!Log)
    return Log.takeError();
  R.BuildLog = *Log;
  Text = takeFlag(Args, "text");
  for (size_t I = 0; I < Args.size(); ++I)
    if (Args[I] == "-o" && I + 1 < Args.size()) {
      Output = Args[I + 1];
      Args.erase(Args.begin() + long(I), Args.begin() + long(I) + 2);
      break;
    }
  if (!Args.empty())
    return llvm::createStringError("unexpected argument '%s'", Args.front().c_str());
  if (!Output && !Text)
    return llvm::createStringError("give -o REPORT.html, --text, or both");
  // Nothing named: the caches kcc would use from here.
  if (R.Caches.empty() && !R.BuildLog) {
    std::vector<std::string> None;
    llvm::Expected<memory::CacheConfig> Config = cacheConfigFor(None);
    if (!Config)
      return Config.takeError();
    if (Config->ProjectDir)
      R.Caches.push_back({*Config->ProjectDir, true});
    R.Caches.push_back({Config->UserDir, false});
  }
  return R;
}
} // namespace

llvm::Error runReport(const std::vector<std::string> &Arguments) {
  const Reporter Voice(Tool);
  std::vector<std::string> Args = Arguments;
  // A post-build step's report must not fail the build: its errors are warnings.
  const bool WarnOnly = takeFlag(Args, "warn-only");
  auto Fail = [&](llvm::Error E) -> llvm::Error {
    if (!WarnOnly)
      return E;
    Voice.warning(llvm::toString(std::move(E)) + " (no report written)");
    return llvm::Error::success();
  };
  std::optional<std::string> Output;
  bool Text = false;
  llvm::Expected<report::ReportRequest> Request = requestFrom(Args, Output, Text);
  if (!Request)
    return Fail(Request.takeError());
  llvm::Expected<report::ReportData> Data = report::gatherReport(*Request);
  if (!Data)
    return Fail(Data.takeError());
  for (const std::string &Problem : Data->Problems)
    Voice.warning("not read: " + Problem);
  if (Text)
    llvm::outs() << report::renderText(*Data);
  if (Output) {
    if (llvm::Error E = writeFileAtomically(*Output, report::renderHtml(*Data)))
      return Fail(std::move(E));
    (Text ? llvm::errs() : llvm::outs())
        << Tool << ": wrote " << *Output << " (" << Data->Kernels.size() << " kernel"
        << (Data->Kernels.size() == 1 ? "" : "s") << ")\n";
  }
  return llvm::Error::success();
}

} // namespace kopt::driver
