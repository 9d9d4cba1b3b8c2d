// `kopt rewrite-tu` (kcc's front end) and `kopt apply` (the same for a user who
// wants to look at a spliced file). Exit status: 0 the output is written; 1 a
// mistake in a `#pragma kopt` (clang-style diagnostics on stderr); 2 anything
// else, with one line "kopt rewrite-tu: error: ..." last on stderr, on which
// kcc compiles without kopt.
#include "clang-plugin/KernelFinder.h"
#include "clang-plugin/PragmaText.h"
#include "clang-plugin/VariantSplice.h"
#include "driver/CacheConfig.h"
#include "driver/CacheVariantProvider.h"
#include "driver/FrontendSetup.h"
#include "driver/Subcommand.h"
#include "driver/VariantProvider.h"
#include "support/LineDirective.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdlib>

namespace kopt::driver {

namespace {

struct RewriteRequest {
  std::string Source, Output;
  std::vector<std::string> VariantFiles;
  SplitCommandLine Kopt; // --kopt- flags.
  std::vector<std::string> NvccFlags;
};

// How one run reports: kcc's voice for rewrite-tu (its notes are the build's).
struct Voice {
  std::string Tool;       // "kopt rewrite-tu"
  std::string NotePrefix; // "kcc: note: "
  std::string WarnPrefix; // "kcc: warning: "
  bool AllKernels;        // apply: kernels without a pragma take variants too.
};

// The first error among clang's diagnostics, for a one-line reason.
std::string firstError(llvm::StringRef Diagnostics) {
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  Diagnostics.split(Lines, '\n');
  for (llvm::StringRef L : Lines)
    if (L.contains(": error: ") || L.contains(": fatal error: "))
      return L.trim().str();
  return "no error message";
}

// Exit 2 with its one line.
int fail(const Voice &V, const llvm::Twine &Why) {
  llvm::errs() << V.Tool << ": error: " << Why << "\n";
  return 2;
}

llvm::Expected<RewriteRequest> parseRequest(const std::vector<std::string> &Args) {
  RewriteRequest R;
  std::vector<std::string> Own;
  for (size_t I = 0; I < Args.size(); ++I) {
    if (Args[I] == "--") {
      R.NvccFlags.assign(Args.begin() + I + 1, Args.end());
      break;
    }
    Own.push_back(Args[I]);
  }
  llvm::Expected<SplitCommandLine> Split = splitKoptFlags(Own);
  if (!Split)
    return Split.takeError();
  R.Kopt = std::move(*Split);
  const std::vector<std::string> &Rest = R.Kopt.CompilerArgs;
  for (size_t I = 0; I < Rest.size(); ++I) {
    llvm::StringRef A = Rest[I];
    bool TakesValue = A == "-o" || A == "--variant";
    if (TakesValue && I + 1 == Rest.size())
      return llvm::createStringError("option '%s' needs a value", A.str().c_str());
    if (A == "-o")
      R.Output = Rest[++I];
    else if (A == "--variant")
      R.VariantFiles.push_back(Rest[++I]);
    else if (A.starts_with("--variant="))
      R.VariantFiles.push_back(A.drop_front(strlen("--variant=")).str());
    else if (A.starts_with("-") && A != "-")
      return llvm::createStringError("unknown option '%s'", A.str().c_str());
    else if (!R.Source.empty())
      return llvm::createStringError("more than one source: %s and %s", R.Source.c_str(),
                                     A.str().c_str());
    else
      R.Source = A.str();
  }
  if (R.Source.empty() || R.Output.empty())
    return llvm::createStringError("needs a source and -o OUT");
  R.Kopt.CompilerArgs.clear();
  return R;
}

// The first provider's variant for K, checked by splicing it alone; a failing
// provider or variant gives a warning and leaves K as it is (an error under
// --kopt-strict).
llvm::Expected<std::optional<frontend::VariantSplice>>
variantFor(const frontend::KernelSummary &K, llvm::StringRef Text, const TuContext &Tu,
           llvm::ArrayRef<VariantProvider *> Providers, const Voice &V) {
  std::string Where = Tu.SourcePath + ":" + std::to_string(K.Line) + ": " + K.Name + ": ";
  for (VariantProvider *P : Providers) {
    llvm::Expected<std::optional<ProvidedVariant>> Found = P->variantFor(K, Tu);
    std::string Why;
    if (!Found)
      Why = llvm::toString(Found.takeError());
    else if (!*Found)
      continue;
    frontend::VariantSplice S;
    if (Why.empty()) {
      S = {(*Found)->Variant, K.Unit.Definition, K.Params, K.LaunchSites};
      llvm::Expected<std::string> Alone = frontend::spliceVariants(Text, Tu.SourcePath, {S});
      if (!Alone)
        Why = llvm::toString(Alone.takeError());
    }
    if (!Why.empty()) {
      if (Tu.Options.strict())
        return llvm::createStringError("%s%s (--kopt-strict)", Where.c_str(), Why.c_str());
      llvm::errs() << V.WarnPrefix << Where << Why << "; keeping the original kernel\n";
      return std::nullopt;
    }
    llvm::errs() << V.NotePrefix << Where << (*Found)->Note << "\n";
    return S;
  }
  return std::nullopt;
}

int rewrite(const std::vector<std::string> &Args, const Voice &V) {
  llvm::Expected<RewriteRequest> R = parseRequest(Args);
  if (!R)
    return fail(V, llvm::toString(R.takeError()) + " (usage: kopt " +
                       V.Tool.substr(strlen("kopt ")) +
                       " SOURCE -o OUT [--variant FILE.json]... [--kopt-OPTION]... [-- FLAGS])");
  TuContext Tu;
  Tu.SourcePath = R->Source;
  Tu.NvccFlags = R->NvccFlags;
  GetEnvFn GetEnv = [](const char *Name) -> std::optional<std::string> {
    const char *Value = std::getenv(Name);
    return Value && *Value ? std::optional<std::string>(Value) : std::nullopt;
  };
  if (llvm::Error E = applyEnvironmentAndFlags(Tu.Options, GetEnv, R->Kopt))
    return fail(V, llvm::toString(std::move(E)));

  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Source =
      llvm::MemoryBuffer::getFile(R->Source, /*IsText=*/true);
  if (!Source)
    return fail(V, "cannot read " + R->Source + ": " + Source.getError().message());
  llvm::StringRef Text = (*Source)->getBuffer();
  llvm::Expected<frontend::CudaParseSetup> Setup = frontendSetupFor(R->NvccFlags);
  if (!Setup)
    return fail(V, llvm::toString(Setup.takeError()));
  Tu.ClangArgs = Setup->clangArgs();
  Tu.Arch = Setup->GpuArch;

  llvm::Expected<std::unique_ptr<FileVariantProvider>> Files =
      FileVariantProvider::load(R->VariantFiles);
  if (!Files)
    return fail(V, llvm::toString(Files.takeError()));
  std::vector<VariantProvider *> Providers = {Files->get()};
  // Then the result cache (which optimizes on a miss where it may); kopt apply
  // splices only the given files.
  std::unique_ptr<CacheVariantProvider> Cached;
  if (!V.AllKernels && Tu.Options.get("mode").Value != "off") {
    auto Config = cacheConfigFrom(Tu.Options, GetEnv);
    auto Cache = Config ? memory::ResultCache::open(*Config) : Config.takeError();
    if (Cache) {
      Cached = std::make_unique<CacheVariantProvider>(std::move(*Cache), V.NotePrefix);
      Providers.push_back(Cached.get());
    } else if (Tu.Options.verbose()) { // Without HOME or a cache_dir: no cache, quietly.
      llvm::errs() << V.NotePrefix << "no result cache: " << llvm::toString(Cache.takeError())
                   << "\n";
    } else {
      llvm::consumeError(Cache.takeError());
    }
  }

  // clang's own warnings would repeat nvcc's: shown only for a pragma's error
  // or with --kopt-verbose.
  std::string Diagnostics;
  llvm::raw_string_ostream DiagOS(Diagnostics);
  llvm::Expected<std::vector<frontend::KernelSummary>> Kernels =
      frontend::findKernelsInCode(Text, R->Source, Tu.ClangArgs, DiagOS);
  bool UserError = !Kernels && Kernels.errorIsA<frontend::PragmaErrors>();
  if (UserError || Tu.Options.verbose())
    llvm::errs() << Diagnostics;
  if (!Kernels) {
    llvm::consumeError(Kernels.takeError());
    return UserError ? 1
                     : fail(V, "kopt's clang front end cannot parse this file: " +
                                   firstError(Diagnostics));
  }

  std::vector<frontend::VariantSplice> Splices;
  for (const frontend::KernelSummary &K : *Kernels) {
    if (!K.Pragma && !V.AllKernels)
      continue;
    llvm::Expected<std::optional<frontend::VariantSplice>> S =
        variantFor(K, Text, Tu, Providers, V);
    if (!S)
      return fail(V, llvm::toString(S.takeError()));
    if (*S)
      Splices.push_back(std::move(**S));
  }
  for (const std::string &Name : (*Files)->unusedKernels())
    llvm::errs() << V.WarnPrefix << "no " << (V.AllKernels ? "" : "annotated ") << "kernel '"
                 << Name << "' in " << R->Source << " for its variant\n";

  llvm::Expected<std::string> Spliced = frontend::spliceVariants(Text, R->Source, Splices);
  if (!Spliced)
    return fail(V, llvm::toString(Spliced.takeError()));
  std::error_code EC;
  llvm::raw_fd_ostream Out(R->Output, EC);
  if (EC)
    return fail(V, "cannot write " + R->Output + ": " + EC.message());
  Out << lineDirective(R->Source) << frontend::blankKoptPragmas(*Spliced);
  Out.close();
  if (Out.has_error())
    return fail(V, "cannot write " + R->Output + ": " + Out.error().message());
  return 0;
}

} // namespace

int runRewriteTu(const std::vector<std::string> &Args) {
  return rewrite(Args, {"kopt rewrite-tu", "kcc: note: ", "kcc: warning: ", false});
}

int runApply(const std::vector<std::string> &Args) {
  int Status = rewrite(Args, {"kopt apply", "kopt: note: ", "kopt: warning: ", true});
  return Status == 2 ? 1 : Status;
}

} // namespace kopt::driver
