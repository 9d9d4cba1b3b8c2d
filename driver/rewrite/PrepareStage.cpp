#include "driver/rewrite/RewriteStages.h"

#include "driver/config/CacheConfig.h"
#include "driver/nvcc/NvccDeviceFlags.h"
#include "driver/optimize/FrontendSetup.h"
#include "driver/optimize/ResultCacheSetup.h"
#include "memory/cache/OnceWarnings.h"

#include <llvm/Support/MemoryBuffer.h>

#include <cstdlib>

namespace kopt::driver {

namespace {
std::optional<std::string> environmentValue(const char *Name) {
  const char *Value = std::getenv(Name);
  return Value && *Value ? std::optional<std::string>(Value) : std::nullopt;
}

// The passes each variant may go into: the compile's (kcc), or one pass of the
// parse's own architecture ("sm_90" built from "compute_90"), all device code.
void choosePasses(RewriteContext &C) {
  std::string Arch = C.Tu.Arch;
  std::string Virtual =
      llvm::StringRef(Arch).starts_with("sm_") ? "compute" + Arch.substr(2) : Arch;
  C.Passes = {{Virtual, {Arch}, false}};
  if (!C.Options.DevicePassesOfFlags)
    return;
  llvm::Expected<NvccCommandLine> Cmd = parseExpandedNvccFlags(C.Request.NvccFlags);
  llvm::Expected<std::vector<NvccDevicePass>> Found =
      Cmd ? nvccDevicePasses(*Cmd) : Cmd.takeError();
  if (Found) {
    C.Passes = std::move(*Found);
  } else {
    C.Log->note(C.Request.Source +
                ": kernels compiled as written: " + llvm::toString(Found.takeError()));
    C.Passes.clear();
  }
  C.Tu.SeveralArchs = realArchitectures(C.Passes).size() > 1;
}

// The result cache, which optimizes on a miss where it may. Without HOME or a
// cache_dir there is none, said only under --kopt-verbose.
llvm::Error openCache(RewriteContext &C) {
  if (!C.Options.ResultCache || C.Tu.Options.get("mode").Value == "off")
    return llvm::Error::success();
  // kcc drops a malformed remote_cache with its warning; kopt run alone says it here.
  std::string RemoteProblem;
  llvm::Expected<memory::ResultCache> Cache =
      openResultCache(C.Tu.Options, environmentValue, &RemoteProblem);
  if (!Cache) {
    C.Log->voice().verboseNote("no result cache: " + llvm::toString(Cache.takeError()));
    return llvm::Error::success();
  }
  if (!RemoteProblem.empty()) {
    if (C.Tu.Options.strict())
      return llvm::createStringError(RemoteProblem + " (--kopt-strict)");
    std::string Warning = RemoteProblem + RemotesDropped.str();
    if (memory::firstInBuild(Cache->config().UserDir, Warning))
      C.Log->warning(Warning);
  }
  Cache->setBuildStart(memory::buildStart(Cache->config().UserDir));
  C.Cached = std::make_unique<CacheVariantProvider>(std::move(*Cache), *C.Log);
  return llvm::Error::success();
}
} // namespace

std::vector<VariantProvider *> RewriteContext::providers() const {
  std::vector<VariantProvider *> Out = {Files.get()};
  if (Cached)
    Out.push_back(Cached.get());
  return Out;
}

llvm::Expected<std::unique_ptr<RewriteContext>> prepareRewrite(RewriteRequest Request,
                                                               RewriteOptions Options) {
  auto C = std::make_unique<RewriteContext>();
  C->Request = std::move(Request);
  C->Options = std::move(Options);
  const RewriteRequest &R = C->Request;
  C->Tu.SourcePath = R.Source;
  C->Tu.NvccFlags = R.NvccFlags;
  if (llvm::Error E = applyEnvironmentAndFlags(C->Tu.Options, environmentValue, R.Kopt))
    return E;
  C->Log = std::make_unique<FrontEndLog>(Reporter(C->Options.Voice, C->Tu.Options.verbose()));

  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Source =
      llvm::MemoryBuffer::getFile(R.Source, /*IsText=*/true);
  if (!Source)
    return llvm::createStringError(Source.getError(), "cannot read %s: %s", R.Source.c_str(),
                                   Source.getError().message().c_str());
  C->Text = (*Source)->getBuffer().str();
  std::string ArchNote;
  llvm::Expected<frontend::CudaParseSetup> Setup = frontendSetupFor(R.NvccFlags, &ArchNote);
  if (!Setup)
    return Setup.takeError();
  if (!ArchNote.empty())
    C->Log->note(R.Source + ": " + ArchNote);
  C->Tu.ClangArgs = Setup->clangArgs();
  C->Tu.Arch = Setup->GpuArch;
  choosePasses(*C);

  llvm::Expected<std::unique_ptr<FileVariantProvider>> Files =
      FileVariantProvider::load(R.VariantFiles);
  if (!Files)
    return Files.takeError();
  C->Files = std::move(*Files);
  if (llvm::Error E = openCache(*C))
    return E;
  return C;
}

} // namespace kopt::driver
