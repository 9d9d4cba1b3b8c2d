#include "report/ReportSources.h"

#include "memory/cache/CacheLayout.h"
#include "memory/cache/ResultCache.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/Support/FileSystem.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace kopt::report {

namespace {
std::string labelOf(const CacheDir &C) { return (C.Project ? "project cache " : "cache ") + C.Dir; }

// Every readable entry of the caches by key (project caches first: the
// first entry of a key wins, as kcc's lookup order).
struct EntryIndex {
  std::map<std::string, std::pair<memory::StoredEntry, std::string>> ByKey;
  std::vector<std::string> Order; // Keys, in the order found.
};

EntryIndex readEntries(std::vector<CacheDir> Caches, std::vector<std::string> &Problems) {
  std::stable_sort(Caches.begin(), Caches.end(),
                   [](const CacheDir &A, const CacheDir &B) { return A.Project && !B.Project; });
  EntryIndex Index;
  for (const CacheDir &C : Caches) {
    std::vector<memory::EntryFile> Files = memory::listEntryFiles(C.Dir);
    std::sort(
        Files.begin(), Files.end(),
        [](const memory::EntryFile &A, const memory::EntryFile &B) { return A.Path < B.Path; });
    for (const memory::EntryFile &F : Files) {
      llvm::Expected<std::optional<memory::StoredEntry>> Read = memory::readEntryFile(F.Path);
      if (!Read) {
        Problems.push_back(F.Path + ": " + llvm::toString(Read.takeError()));
        continue;
      }
      if (!*Read || Index.ByKey.count((*Read)->Key.Digest))
        continue;
      std::string Key = (*Read)->Key.Digest;
      Index.Order.push_back(Key);
      Index.ByKey.emplace(Key, std::make_pair(std::move(**Read), labelOf(C)));
    }
  }
  return Index;
}

void addCache(std::vector<CacheDir> &Caches, const std::string &Dir, bool Project) {
  if (Dir.empty())
    return;
  if (llvm::none_of(Caches, [&](const CacheDir &C) { return C.Dir == Dir; }))
    Caches.push_back({Dir, Project});
}

// The build's kernels: its last record of each kernel (by where it is
// defined, its name and architecture), the kernel's name taken from its entry
// where the record has none (a direct-mode hit).
std::vector<KernelReport> buildKernels(const BuildLog &Log, const EntryIndex &Index) {
  std::vector<KernelReport> Out;
  std::map<std::string, size_t> Slot;
  for (const BuildRecord &Rec : Log.Records) {
    auto Found = Index.ByKey.find(Rec.Key);
    KernelReport K = Found == Index.ByKey.end()
                         ? kernelReportOf(Rec)
                         : kernelReportOf(Found->second.first, Found->second.second);
    K.Build = Rec;
    if (!Rec.Arch.empty())
      K.Arch = Rec.Arch;
    // A direct-mode hit knows its source, not its kernel's line: the kernel
    // and architecture come from its entry, the line from an earlier record.
    if (Rec.Line) // This build's place for it, over where it was optimized.
      K.Location = Rec.File + ":" + std::to_string(Rec.Line);
    std::string Id = (Rec.Line ? Rec.File : Rec.Source) + "\n" + K.Kernel + "\n" + K.Arch;
    if (auto It = Slot.find(Id); It != Slot.end()) {
      if (!Rec.Line)
        K.Location = Out[It->second].Location;
      Out[It->second] = std::move(K);
    } else {
      if (!Rec.Line && K.Location.empty())
        K.Location = Rec.Source;
      Slot.emplace(Id, Out.size());
      Out.push_back(std::move(K));
    }
  }
  return Out;
}
} // namespace

llvm::Expected<ReportData> gatherReport(const ReportRequest &Request) {
  ReportData R;
  R.Date = Request.Date;
  std::vector<CacheDir> Caches = Request.Caches;
  std::optional<BuildLog> Log;
  if (Request.BuildLog && !llvm::sys::fs::exists(*Request.BuildLog)) {
    // A build none of whose compiles looked a kernel up: an empty report, said.
    Log.emplace();
    Log->Problems.push_back(*Request.BuildLog + ": no such build log yet: no compile appended "
                                                "to it (no annotated kernel compiled, or kcc "
                                                "ran without --kopt-report)");
  } else if (Request.BuildLog) {
    llvm::Expected<BuildLog> Read = readBuildLog(*Request.BuildLog);
    if (!Read)
      return Read.takeError();
    Log = std::move(*Read);
  }
  if (Log) {
    R.FromBuild = true;
    R.Problems = Log->Problems;
    for (const BuildRecord &Rec : Log->Records) {
      addCache(Caches, Rec.ProjectCache, /*Project=*/true);
      addCache(Caches, Rec.UserCache, /*Project=*/false);
    }
    R.Sources.push_back("build log " + *Request.BuildLog);
  }
  for (const CacheDir &C : Caches)
    R.Sources.push_back(labelOf(C));
  EntryIndex Index = readEntries(Caches, R.Problems);
  if (Log) {
    R.Kernels = buildKernels(*Log, Index);
    return R;
  }
  for (const std::string &Key : Index.Order) {
    const auto &[Stored, Label] = Index.ByKey.at(Key);
    R.Kernels.push_back(kernelReportOf(Stored, Label));
  }
  std::stable_sort(R.Kernels.begin(), R.Kernels.end(),
                   [](const KernelReport &A, const KernelReport &B) {
                     return std::tie(A.Kernel, A.Location) < std::tie(B.Kernel, B.Location);
                   });
  return R;
}

} // namespace kopt::report
