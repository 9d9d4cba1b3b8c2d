#include "driver/commands/CacheCommand.h"

#include "driver/kcc/Fallback.h"
#include "memory/remote/RemoteStorage.h"

#include <llvm/Support/Format.h>
#include <llvm/Support/FormatVariadic.h>

namespace kopt::driver {

using memory::Counter;

namespace {
void line(llvm::raw_ostream &OS, llvm::StringRef Label, uint64_t N, llvm::StringRef Tail = "") {
  OS << llvm::left_justify(Label, 24) << llvm::format_decimal(N, 10) << Tail << "\n";
}

std::string percent(uint64_t Part, uint64_t Whole) {
  if (!Whole)
    return "";
  return " (" + llvm::formatv("{0:F2}", 100.0 * Part / Whole).str() + " %)";
}

std::string humanSize(uint64_t Bytes) {
  const char *Units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double Size = Bytes;
  size_t Unit = 0;
  for (; Size >= 1024 && Unit + 1 < std::size(Units); ++Unit)
    Size /= 1024;
  return llvm::formatv("{0:F1} {1}", Size, Units[Unit]).str();
}
} // namespace

void printCacheStats(const memory::ResultCache &Cache, llvm::raw_ostream &OS) {
  memory::CacheCounters C = Cache.counters();
  for (size_t I = 0; I < memory::NumCounters; ++I)
    OS << memory::counterName(static_cast<Counter>(I)) << " " << C.Values[I] << "\n";
  OS << "entries " << memory::listEntryFiles(Cache.config().UserDir).size() << "\n"
     << "manifests " << memory::listManifestFiles(Cache.config().UserDir).size() << "\n"
     << "bytes " << Cache.userBytes() << "\n"
     << "max_bytes " << Cache.config().MaxBytes << "\n";
  // Each remote this cache has talked to: "remote <url>", then its counters.
  for (const memory::RemoteCounters &R : memory::RemoteStorage::countersIn(Cache.config().UserDir))
    OS << "remote " << R.Url << "\n"
       << "remote_hits " << R.Hits << "\n"
       << "remote_misses " << R.Misses << "\n"
       << "remote_errors " << R.Errors << "\n"
       << "remote_stores " << R.Stores << "\n"
       << "remote_time_us " << R.Microseconds << "\n";
}

void printCacheSummary(const memory::ResultCache &Cache, llvm::raw_ostream &OS) {
  const memory::CacheConfig &Config = Cache.config();
  memory::CacheCounters C = Cache.counters();
  uint64_t Hits = C[Counter::ProjectHits] + C[Counter::UserHits] + C[Counter::RemoteHits];
  uint64_t Lookups = Hits + C[Counter::Misses];
  OS << "Cache directory:        " << Config.UserDir << "\n";
  if (Config.ProjectDir)
    OS << "Project cache:          " << *Config.ProjectDir << " ("
       << memory::listEntryFiles(*Config.ProjectDir).size() << " entries)\n";
  line(OS, "Lookups:", Lookups);
  line(OS, "  Hits:", Hits, percent(Hits, Lookups));
  line(OS, "    Project cache:", C[Counter::ProjectHits]);
  line(OS, "    User cache:", C[Counter::UserHits]);
  line(OS, "    Remote cache:", C[Counter::RemoteHits]);
  line(OS, "  Misses:", C[Counter::Misses], percent(C[Counter::Misses], Lookups));
  // Translation units; a direct hit looks no kernel up, so it is not among the lookups.
  uint64_t Direct = C[Counter::DirectHits] + C[Counter::DirectMisses];
  line(OS, "Direct lookups:", Direct);
  line(OS, "  Direct hits:", C[Counter::DirectHits], percent(C[Counter::DirectHits], Direct));
  line(OS, "  Direct misses:", C[Counter::DirectMisses], percent(C[Counter::DirectMisses], Direct));
  // kcc's compiles handed to the real compiler without kopt, by reason.
  uint64_t Without = 0;
  for (const FallbackInfo &F : allFallbacks())
    Without += C[F.Counter];
  line(OS, "Compiles without kopt:", Without);
  for (const FallbackInfo &F : allFallbacks())
    line(OS, ("  " + F.Summary).str(), C[F.Counter], percent(C[F.Counter], Without));
  line(OS, "Stores:", C[Counter::Stores]);
  line(OS, "Errors:", C[Counter::Errors]);
  line(OS, "Evictions:", C[Counter::Evictions]);
  line(OS, "Entries:", memory::listEntryFiles(Config.UserDir).size());
  line(OS, "Manifests:", memory::listManifestFiles(Config.UserDir).size());
  uint64_t Bytes = Cache.userBytes();
  OS << "Cache size:             " << humanSize(Bytes);
  if (Config.MaxBytes)
    OS << " of " << humanSize(Config.MaxBytes) << percent(Bytes, Config.MaxBytes);
  OS << "\n";
  for (const memory::RemoteCounters &R : memory::RemoteStorage::countersIn(Config.UserDir)) {
    uint64_t Asked = R.Hits + R.Misses + R.Errors;
    OS << "Remote cache:           " << R.Url << "\n";
    line(OS, "  Hits:", R.Hits, percent(R.Hits, Asked));
    line(OS, "  Misses:", R.Misses, percent(R.Misses, Asked));
    line(OS, "  Errors:", R.Errors, percent(R.Errors, Asked));
    line(OS, "  Stores:", R.Stores);
    OS << llvm::left_justify("  Time spent:", 24)
       << llvm::formatv("{0,10:F1} ms", R.Microseconds / 1000.0) << "\n";
  }
}

} // namespace kopt::driver
