#include "driver/rewrite/DirectManifestRecord.h"

#include "evaluator/compile/KernelCompiler.h"
#include "memory/cache/CacheLayout.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

namespace kopt::driver {

namespace {
// The recordings a cache lookup consults (CacheVariantProvider): one made or
// extended later may hold launches a cached variant was not verified on, which
// the lookup must see. Their directory's names and each file's size and time.
void observeRecordings(const std::string &Dir, std::vector<FileObservation> &Out) {
  FileObservation Listed = observeStamp(Dir);
  if (Listed.Type == FileObservation::Kind::Directory) {
    std::vector<std::string> Names;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC)) {
      Names.push_back(llvm::sys::path::filename(It->path()).str());
      Out.push_back(observeStamp(It->path()));
    }
    Listed.Stamp.reset(); // A directory's time changes with what is written in it.
    Listed.Listing = listingDigest(std::move(Names));
  }
  Out.push_back(std::move(Listed));
}
} // namespace

void recordManifest(RewriteContext &C, llvm::StringRef Output) {
  const RewriteRequest &R = C.Request;
  const Reporter Kcc("kcc", C.Log->verbose());
  CacheVariantProvider *Cached = C.Cached.get();
  const char *WhyNot = !Cached                   ? "no result cache"
                       : !R.VariantFiles.empty() ? "variant files given"
                       : !Cached->allHit()       ? "a kernel missed the cache"
                       : C.Log->warned()         ? "a warning"
                                                 : nullptr;
  if (WhyNot)
    return Kcc.verboseNote(R.Source + ": no direct-mode manifest: " + WhyNot);
  memory::DirectManifest M;
  M.Key = R.ManifestKey;
  M.Inputs.push_back({R.Source, FileObservation::Kind::File, contentDigest(C.Text), {}, {}});
  for (FileObservation &O : C.Accesses.observations())
    if (O.Path != R.Source)
      M.Inputs.push_back(std::move(O));
  observeRecordings(memory::recordingsDir(Cached->cache().config().UserDir), M.Inputs);
  // The CUDA version in the cache keys comes from this library: too big to hash.
  if (llvm::Expected<std::string> Nvrtc = evaluator::nvrtcLibraryPath()) {
    if (FileObservation Library = observeStamp(*Nvrtc);
        Library.Type != FileObservation::Kind::Absent)
      M.Inputs.push_back(std::move(Library));
  } else {
    llvm::consumeError(Nvrtc.takeError());
  }
  M.Entries = Cached->entriesRead();
  M.Log = C.Log->lines();
  M.Output = Output.str();
  std::string Warning; // The cache's limit below the build's working set, once a build.
  llvm::Error Stored = Cached->cache().storeManifest(M, &Warning);
  if (!Warning.empty())
    Kcc.warning(Warning);
  if (Stored)
    return Kcc.verboseNote(R.Source +
                           ": no direct-mode manifest: " + llvm::toString(std::move(Stored)));
  Kcc.verboseNote(R.Source + ": recorded a direct-mode manifest (" + llvm::Twine(M.Inputs.size()) +
                  " files, " + llvm::Twine(M.Entries.size()) + " cache entries)");
}

} // namespace kopt::driver
