// `kopt rewrite-tu` (kcc's front end) and `kopt apply` (the same for a user who
// wants to look at a spliced file). Exit status: 0 the output is written; 1 a
// mistake in a `#pragma kopt` (clang-style diagnostics on stderr); 2 anything
// else, with one line "kopt rewrite-tu: error: ..." last on stderr, on which
// kcc compiles without kopt.
#include "clang-plugin/parse/FileAccessLog.h"
#include "clang-plugin/parse/KernelFinder.h"
#include "clang-plugin/pragma/PragmaText.h"
#include "clang-plugin/units/HeaderInline.h"
#include "clang-plugin/units/TemplateSpecialization.h"
#include "clang-plugin/units/VariantSplice.h"
#include "driver/commands/FrontendSetup.h"
#include "driver/commands/ResultCacheSetup.h"
#include "driver/commands/Subcommand.h"
#include "driver/config/CacheConfig.h"
#include "driver/nvcc/NvccDeviceFlags.h"
#include "driver/nvcc/NvccDevicePasses.h"
#include "driver/optimize/CacheVariantProvider.h"
#include "driver/optimize/FrontEndLog.h"
#include "driver/optimize/InstantiationChoice.h"
#include "driver/optimize/VariantProvider.h"
#include "evaluator/KernelCompiler.h"
#include "memory/cache/CacheLayout.h"
#include "support/LineDirective.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdlib>
#include <map>

namespace kopt::driver {

namespace {

struct RewriteRequest {
  std::string Source, Output;
  std::vector<std::string> VariantFiles;
  std::string ManifestKey; // kcc's direct mode: record a manifest under this key.
  SplitCommandLine Kopt;   // --kopt- flags.
  std::vector<std::string> NvccFlags;
};

// How one run reports: kcc's voice for rewrite-tu (its notes are the build's).
struct Voice {
  std::string Tool;       // "kopt rewrite-tu"
  std::string NotePrefix; // "kcc: note: "
  std::string WarnPrefix; // "kcc: warning: "
  bool AllKernels;        // apply: kernels without a pragma take variants too.
};

// The first error among clang's diagnostics, for a one-line reason (clang's
// driver says "error: ..." without a file).
std::string firstError(llvm::StringRef Diagnostics) {
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  Diagnostics.split(Lines, '\n');
  for (llvm::StringRef L : Lines)
    if (L.contains("error: "))
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
    bool TakesValue = A == "-o" || A == "--variant" || A == "--manifest";
    if (TakesValue && I + 1 == Rest.size())
      return llvm::createStringError("option '%s' needs a value", A.str().c_str());
    if (A == "-o")
      R.Output = Rest[++I];
    else if (A == "--variant")
      R.VariantFiles.push_back(Rest[++I]);
    else if (A == "--manifest")
      R.ManifestKey = Rest[++I];
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

// A warning that keeps K's original, or an error under --kopt-strict.
llvm::Expected<std::optional<frontend::VariantSplice>> keepOriginal(const std::string &Where,
                                                                    const std::string &Why,
                                                                    const TuContext &Tu,
                                                                    FrontEndLog &Log) {
  if (Tu.Options.strict())
    return llvm::createStringError("%s%s (--kopt-strict)", Where.c_str(), Why.c_str());
  Log.warning(Where + Why + "; keeping the original kernel");
  return std::nullopt;
}

// The first provider's variant for K, checked by splicing it alone into Text
// (the file that defines K: the TU's or a header's); a failing provider or
// variant gives a warning and leaves K as it is (an error under --kopt-strict).
llvm::Expected<std::optional<frontend::VariantSplice>>
variantFor(const frontend::KernelSummary &K, llvm::StringRef Text, llvm::StringRef TextPath,
           const TuContext &Tu, llvm::ArrayRef<VariantProvider *> Providers, FrontEndLog &Log) {
  std::string Where = Tu.where(K);
  // A template used with several arguments: the variant is for one of them
  // (VariantSplice::Instantiation), the others keep the original.
  std::string Instantiation;
  if (K.IsTemplate && K.Instantiations.size() > 1) {
    llvm::Expected<std::optional<frontend::KernelInstantiation>> Chosen = chosenInstantiation(K);
    if (!Chosen)
      return keepOriginal(Where, llvm::toString(Chosen.takeError()), Tu, Log);
    Instantiation = (*Chosen)->TemplateArgs;
  }
  for (VariantProvider *P : Providers) {
    llvm::Expected<std::optional<ProvidedVariant>> Found = P->variantFor(K, Tu);
    std::string Why;
    if (!Found)
      Why = llvm::toString(Found.takeError());
    else if (!*Found)
      continue;
    frontend::VariantSplice S;
    if (Why.empty() && !Instantiation.empty() && (*Found)->Variant.VariantName.empty() &&
        !frontend::argsNeedNoDeclarations(Instantiation))
      Why = "the explicit specialization for <" + Instantiation +
            "> would come before a declaration it names (give the variant a new name)";
    if (Why.empty()) {
      S.Variant = (*Found)->Variant;
      S.Definition = K.Unit.Definition;
      S.Params = K.Params;
      S.Launches = K.LaunchSites;
      S.Instantiation = Instantiation;
      frontend::VariantSplice Check = S;
      if (!K.HeaderFile.empty())
        Check.Launches.clear(); // They are in the TU's text, not the header's.
      llvm::Expected<std::string> Alone = frontend::spliceVariants(Text, TextPath, {Check});
      if (!Alone)
        Why = llvm::toString(Alone.takeError());
    }
    if (!Why.empty())
      return keepOriginal(Where, Why, Tu, Log);
    Log.note(Where + (*Found)->Note);
    return S;
  }
  return std::nullopt;
}

llvm::Expected<std::string> readTextFile(const std::string &Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "cannot read %s: %s", Path.c_str(),
                                   Buffer.getError().message().c_str());
  return (*Buffer)->getBuffer().str();
}

// Each real architecture's variant for K, spliced where the compile's device
// passes allow (NvccDevicePasses.h): in a compile of one pass, into all device
// code; else each into the pass that builds its architecture alone, under
// that pass's guard. A variant that no pass can take is said why (verbose).
llvm::Expected<std::vector<frontend::VariantSplice>>
splicesFor(const frontend::KernelSummary &K, llvm::StringRef Text, llvm::StringRef TextPath,
           const TuContext &Tu, const std::vector<NvccDevicePass> &Passes,
           llvm::ArrayRef<VariantProvider *> Providers, FrontEndLog &Log) {
  std::map<std::string, frontend::VariantSplice> ByArch;
  for (const std::string &Arch : realArchitectures(Passes)) {
    TuContext ForArch = Tu;
    ForArch.Arch = Arch;
    llvm::Expected<std::optional<frontend::VariantSplice>> S =
        variantFor(K, Text, TextPath, ForArch, Providers, Log);
    if (!S)
      return S.takeError();
    if (*S)
      ByArch.emplace(Arch, std::move(**S));
  }
  std::vector<frontend::VariantSplice> Out;
  for (const NvccDevicePass &P : Passes) {
    auto It = ByArch.find(P.matchingReal());
    if (It == ByArch.end() || !P.buildsOnlyItsOwn())
      continue;
    frontend::VariantSplice S = It->second;
    ByArch.erase(It);
    if (Passes.size() > 1) {
      bool SameNumber = llvm::count_if(Passes, [&](const NvccDevicePass &Q) {
                          return Q.number() == P.number();
                        }) > 1;
      if (!S.Instantiation.empty()) {
        Log.verboseNote(Tu.where(K) + P.matchingReal() +
                        ": a kernel template's variant is spliced only in a compile of one "
                        "device pass: the original");
        continue;
      }
      if (SameNumber && !S.Variant.VariantName.empty()) {
        Log.verboseNote(Tu.where(K) + P.matchingReal() +
                        ": the variant remaps the launch, and another device pass of this "
                        "compile has the same architecture number: the original");
        continue;
      }
      S.Arch = frontend::ArchGuard{P.guard(), P.number(), P.number()};
    }
    Out.push_back(std::move(S));
  }
  for (const auto &[Arch, S] : ByArch)
    Log.verboseNote(Tu.where(K) + Arch +
                    ": its variant is not used: no device pass of this "
                    "compile builds " +
                    Arch + " alone from its own architecture");
  return Out;
}

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

// kcc's direct mode: where every annotated kernel hit the cache and nothing
// warned, a manifest of what this run read and wrote, so that kcc can skip the
// parse next time (memory/cache/DirectManifest.h). Says why not under --kopt-verbose.
void recordManifest(const RewriteRequest &R, llvm::StringRef Text, llvm::StringRef Output,
                    const frontend::FileAccessLog &Accesses, CacheVariantProvider *Cached,
                    const FrontEndLog &Log) {
  auto Note = [&Log](const llvm::Twine &Message) {
    if (Log.verbose())
      llvm::errs() << "kcc: note: " << Message << "\n";
  };
  const char *WhyNot = !Cached                   ? "no result cache"
                       : !R.VariantFiles.empty() ? "variant files given"
                       : !Cached->allHit()       ? "a kernel missed the cache"
                       : Log.warned()            ? "a warning"
                                                 : nullptr;
  if (WhyNot)
    return Note(R.Source + ": no direct-mode manifest: " + WhyNot);
  memory::DirectManifest M;
  M.Key = R.ManifestKey;
  M.Inputs.push_back({R.Source, FileObservation::Kind::File, contentDigest(Text), {}, {}});
  for (FileObservation &O : Accesses.observations())
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
  M.Log = Log.lines();
  M.Output = Output.str();
  if (llvm::Error E = Cached->cache().storeManifest(M))
    return Note(R.Source + ": no direct-mode manifest: " + llvm::toString(std::move(E)));
  Note(R.Source + ": recorded a direct-mode manifest (" + llvm::Twine(M.Inputs.size()) +
       " files, " + llvm::Twine(M.Entries.size()) + " cache entries)");
}

// The compile's lookups, appended to the build log that --kopt-report names
// (report/BuildLog.h). A log that cannot be written costs a warning, never the
// compile.
void appendToBuildLog(const std::string &Source, const TuContext &Tu,
                      const CacheVariantProvider &Cached, FrontEndLog &Log) {
  const std::string &Path = Tu.Options.get("report").Value;
  if (Path.empty())
    return;
  std::vector<report::BuildRecord> Records = Cached.lookups();
  const memory::CacheConfig &Config = Cached.cache().config();
  for (report::BuildRecord &Rec : Records) {
    Rec.Source = Source;
    Rec.UserCache = Config.UserDir;
    Rec.ProjectCache = Config.ProjectDir.value_or("");
  }
  if (llvm::Error E = report::appendBuildRecords(Path, Records))
    Log.warning("the build log " + Path + " misses " + Source +
                "'s kernels: " + llvm::toString(std::move(E)));
}

int rewrite(const std::vector<std::string> &Args, const Voice &V) {
  llvm::Expected<RewriteRequest> R = parseRequest(Args);
  if (!R)
    return fail(V,
                llvm::toString(R.takeError()) + " (usage: kopt " + V.Tool.substr(strlen("kopt ")) +
                    " SOURCE -o OUT [--variant FILE.json]... [--manifest KEY] [--kopt-OPTION]... "
                    "[-- FLAGS])");
  TuContext Tu;
  Tu.SourcePath = R->Source;
  Tu.NvccFlags = R->NvccFlags;
  GetEnvFn GetEnv = [](const char *Name) -> std::optional<std::string> {
    const char *Value = std::getenv(Name);
    return Value && *Value ? std::optional<std::string>(Value) : std::nullopt;
  };
  if (llvm::Error E = applyEnvironmentAndFlags(Tu.Options, GetEnv, R->Kopt))
    return fail(V, llvm::toString(std::move(E)));
  FrontEndLog Log(V.NotePrefix, V.WarnPrefix, Tu.Options.verbose());

  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Source =
      llvm::MemoryBuffer::getFile(R->Source, /*IsText=*/true);
  if (!Source)
    return fail(V, "cannot read " + R->Source + ": " + Source.getError().message());
  llvm::StringRef Text = (*Source)->getBuffer();
  std::string ArchNote;
  llvm::Expected<frontend::CudaParseSetup> Setup = frontendSetupFor(R->NvccFlags, &ArchNote);
  if (!Setup)
    return fail(V, llvm::toString(Setup.takeError()));
  if (!ArchNote.empty())
    Log.note(R->Source + ": " + ArchNote);
  Tu.ClangArgs = Setup->clangArgs();
  Tu.Arch = Setup->GpuArch;
  // kopt apply splices the given variants into all device code.
  // (One pass of the target's own architecture: "sm_90" is built from "compute_90".)
  std::string Virtual =
      llvm::StringRef(Tu.Arch).starts_with("sm_") ? "compute" + Tu.Arch.substr(2) : Tu.Arch;
  std::vector<NvccDevicePass> Passes = {{Virtual, {Tu.Arch}, false}};
  if (!V.AllKernels) {
    llvm::Expected<NvccCommandLine> Cmd = parseExpandedNvccFlags(R->NvccFlags);
    llvm::Expected<std::vector<NvccDevicePass>> Found =
        Cmd ? nvccDevicePasses(*Cmd) : Cmd.takeError();
    if (Found) {
      Passes = std::move(*Found);
    } else {
      Log.note(R->Source + ": kernels compiled as written: " + llvm::toString(Found.takeError()));
      Passes.clear();
    }
    Tu.SeveralArchs = realArchitectures(Passes).size() > 1;
  }

  llvm::Expected<std::unique_ptr<FileVariantProvider>> Files =
      FileVariantProvider::load(R->VariantFiles);
  if (!Files)
    return fail(V, llvm::toString(Files.takeError()));
  std::vector<VariantProvider *> Providers = {Files->get()};
  // Then the result cache (which optimizes on a miss where it may); kopt apply
  // splices only the given files.
  std::unique_ptr<CacheVariantProvider> Cached;
  if (!V.AllKernels && Tu.Options.get("mode").Value != "off") {
    auto Cache = openResultCache(Tu.Options, GetEnv);
    if (Cache) {
      Cached = std::make_unique<CacheVariantProvider>(std::move(*Cache), Log);
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
  frontend::FileAccessLog Accesses;
  llvm::Expected<std::vector<frontend::KernelSummary>> Kernels = frontend::findKernelsInCode(
      Text, R->Source, Tu.ClangArgs, DiagOS, R->ManifestKey.empty() ? nullptr : &Accesses);
  bool UserError = !Kernels && Kernels.errorIsA<frontend::PragmaErrors>();
  if (UserError)
    llvm::errs() << Diagnostics;
  else
    Log.verboseText(Diagnostics);
  if (!Kernels) {
    llvm::consumeError(Kernels.takeError());
    return UserError ? 1
                     : fail(V, "kopt's clang front end cannot parse this file: " +
                                   firstError(Diagnostics));
  }

  std::vector<frontend::VariantSplice> Splices;
  // Kernels of the user's headers: spliced into copies of the headers inlined
  // in place of their #include (HeaderInline.h); the header on disk stays.
  frontend::HeaderInliner Headers(readTextFile);
  for (const frontend::KernelSummary &K : *Kernels) {
    if (!K.Pragma && !V.AllKernels)
      continue;
    std::string DefiningPath = R->Source;
    llvm::StringRef Defining = Text;
    std::string HeaderText;
    if (!K.HeaderFile.empty()) {
      if (K.IncludedFrom.empty())
        continue; // Not reached through an #include of the TU's text (a -include).
      DefiningPath = K.IncludedFrom.back().Included;
      llvm::Expected<std::string> Read = readTextFile(DefiningPath);
      if (!Read)
        return fail(V, llvm::toString(Read.takeError()));
      HeaderText = std::move(*Read);
      Defining = HeaderText;
    }
    llvm::Expected<std::vector<frontend::VariantSplice>> S =
        splicesFor(K, Defining, DefiningPath, Tu, Passes, Providers, Log);
    if (!S)
      return fail(V, llvm::toString(S.takeError()));
    if (!K.HeaderFile.empty() && !S->empty()) {
      llvm::Error Added = llvm::Error::success();
      for (const frontend::VariantSplice &One : *S)
        if (!Added)
          Added = Headers.add(K.IncludedFrom, One);
      if (Added) {
        llvm::Expected<std::optional<frontend::VariantSplice>> Kept =
            keepOriginal(Tu.where(K), llvm::toString(std::move(Added)), Tu, Log);
        if (!Kept)
          return fail(V, llvm::toString(Kept.takeError()));
        continue;
      }
      for (frontend::VariantSplice &One : *S)
        One.DefinedHere = false; // This text keeps only its retargeted launches.
    }
    for (frontend::VariantSplice &One : *S)
      Splices.push_back(std::move(One));
  }
  if (Cached) {
    Cached->finish(R->Source);
    appendToBuildLog(R->Source, Tu, *Cached, Log);
  }
  for (const std::string &Name : (*Files)->unusedKernels())
    Log.warning(llvm::Twine("no ") + (V.AllKernels ? "" : "annotated ") + "kernel '" + Name +
                "' in " + R->Source + " for its variant");

  llvm::Expected<std::vector<frontend::KernelReplacement>> Inlined = Headers.mainFileEdits(Text);
  if (!Inlined)
    return fail(V, llvm::toString(Inlined.takeError()));
  std::string Prelude;
  llvm::Expected<std::string> Spliced =
      frontend::spliceVariants(Text, R->Source, Splices, &Prelude, *Inlined);
  if (!Spliced)
    return fail(V, llvm::toString(Spliced.takeError()));
  std::string Rewritten = Prelude + lineDirective(R->Source) + frontend::blankKoptPragmas(*Spliced);
  std::error_code EC;
  llvm::raw_fd_ostream Out(R->Output, EC);
  if (EC)
    return fail(V, "cannot write " + R->Output + ": " + EC.message());
  Out << Rewritten;
  Out.close();
  if (Out.has_error())
    return fail(V, "cannot write " + R->Output + ": " + Out.error().message());
  if (!R->ManifestKey.empty())
    recordManifest(*R, Text, Rewritten, Accesses, Cached.get(), Log);
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
