#include "driver/rewrite/RewriteStages.h"

#include "clang-plugin/units/InstantiationChoice.h"
#include "clang-plugin/units/TemplateSpecialization.h"

#include <llvm/Support/MemoryBuffer.h>

#include <map>

namespace kopt::driver {

namespace {

using MaybeSplice = llvm::Expected<std::optional<frontend::VariantSplice>>;

// The compile's lookups, appended to the build log that --kopt-report names
// (report/BuildLog.h). A log that cannot be written costs a warning, never the
// compile.
void appendToBuildLog(const RewriteContext &C) {
  const std::string &Path = C.Tu.Options.get("report").Value;
  if (Path.empty() || !C.Cached)
    return;
  std::vector<report::BuildRecord> Records = C.Cached->lookups();
  const memory::CacheConfig &Config = C.Cached->cache().config();
  for (report::BuildRecord &Rec : Records) {
    Rec.Source = C.Request.Source;
    Rec.UserCache = Config.UserDir;
    Rec.ProjectCache = Config.ProjectDir.value_or("");
  }
  if (llvm::Error E = report::appendBuildRecords(Path, Records))
    C.Log->warning("the build log " + Path + " misses " + C.Request.Source +
                   "'s kernels: " + llvm::toString(std::move(E)));
}

// A warning that keeps K's original, or an error under --kopt-strict.
MaybeSplice keepOriginal(const std::string &Where, const std::string &Why, const TuContext &Tu,
                         FrontEndLog &Log) {
  if (Tu.Options.strict())
    return llvm::createStringError("%s%s (--kopt-strict)", Where.c_str(), Why.c_str());
  Log.warning(Where + Why + "; keeping the original kernel");
  return std::nullopt;
}

// The first provider's variant for K, checked by splicing it alone into Text
// (the file that defines K: the TU's or a header's); a failing provider or
// variant gives a warning and leaves K as it is (an error under --kopt-strict).
MaybeSplice variantFor(const frontend::KernelSummary &K, llvm::StringRef Text,
                       llvm::StringRef TextPath, const TuContext &Tu,
                       llvm::ArrayRef<VariantProvider *> Providers, FrontEndLog &Log) {
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

// A compile of several passes takes a variant under its pass's guard, where
// that can work; else says why the pass keeps the original (verbose).
bool fitsPass(frontend::VariantSplice &S, const NvccDevicePass &P,
              const std::vector<NvccDevicePass> &Passes, const std::string &Where,
              FrontEndLog &Log) {
  if (Passes.size() == 1)
    return true;
  bool SameNumber =
      llvm::count_if(Passes, [&](const NvccDevicePass &Q) { return Q.number() == P.number(); }) > 1;
  if (!S.Instantiation.empty()) {
    Log.verboseNote(Where + P.matchingReal() +
                    ": a kernel template's variant is spliced only in a compile of one "
                    "device pass: the original");
    return false;
  }
  if (SameNumber && !S.Variant.VariantName.empty()) {
    Log.verboseNote(Where + P.matchingReal() +
                    ": the variant remaps the launch, and another device pass of this "
                    "compile has the same architecture number: the original");
    return false;
  }
  S.Arch = frontend::ArchGuard{P.guard(), P.number(), P.number()};
  return true;
}

// Each real architecture's variant for K, spliced where the compile's device
// passes allow (NvccDevicePasses.h): in a compile of one pass, into all device
// code; else each into the pass that builds its architecture alone, under
// that pass's guard. A variant that no pass can take is said why (verbose).
llvm::Expected<std::vector<frontend::VariantSplice>> splicesFor(const frontend::KernelSummary &K,
                                                                llvm::StringRef Text,
                                                                llvm::StringRef TextPath,
                                                                const RewriteContext &C) {
  std::map<std::string, frontend::VariantSplice> ByArch;
  for (const std::string &Arch : realArchitectures(C.Passes)) {
    TuContext ForArch = C.Tu;
    ForArch.Arch = Arch;
    MaybeSplice S = variantFor(K, Text, TextPath, ForArch, C.providers(), *C.Log);
    if (!S)
      return S.takeError();
    if (*S)
      ByArch.emplace(Arch, std::move(**S));
  }
  std::vector<frontend::VariantSplice> Out;
  for (const NvccDevicePass &P : C.Passes) {
    auto It = ByArch.find(P.matchingReal());
    if (It == ByArch.end() || !P.buildsOnlyItsOwn())
      continue;
    frontend::VariantSplice S = It->second;
    ByArch.erase(It);
    if (fitsPass(S, P, C.Passes, C.Tu.where(K), *C.Log))
      Out.push_back(std::move(S));
  }
  for (const auto &[Arch, S] : ByArch)
    C.Log->verboseNote(C.Tu.where(K) + Arch +
                       ": its variant is not used: no device pass of this "
                       "compile builds " +
                       Arch + " alone from its own architecture");
  return Out;
}

llvm::Expected<std::string> readTextFile(const std::string &Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "cannot read %s: %s", Path.c_str(),
                                   Buffer.getError().message().c_str());
  return (*Buffer)->getBuffer().str();
}

// K's splices, where K is defined in a header: they go into the header's copy
// inlined in place of its #include (HeaderInline.h); the header on disk stays,
// and the TU's text keeps only the launches they retarget. False where the
// header cannot be inlined: K keeps its original.
llvm::Expected<bool> inlineIntoHeader(const frontend::KernelSummary &K,
                                      std::vector<frontend::VariantSplice> &S, KernelSplices &Out,
                                      RewriteContext &C) {
  llvm::Error Added = llvm::Error::success();
  for (const frontend::VariantSplice &One : S)
    if (!Added)
      Added = Out.Headers.add(K.IncludedFrom, One);
  if (Added) {
    MaybeSplice Kept = keepOriginal(C.Tu.where(K), llvm::toString(std::move(Added)), C.Tu, *C.Log);
    if (!Kept)
      return Kept.takeError();
    return false;
  }
  for (frontend::VariantSplice &One : S)
    One.DefinedHere = false;
  return true;
}

// Whether K's definition can take a variant: in the TU's text, or in a header
// its text #includes (not one a -include brings in).
bool spliceable(const frontend::KernelSummary &K) {
  return K.HeaderFile.empty() || !K.IncludedFrom.empty();
}

} // namespace

llvm::Expected<KernelSplices> lookUpVariants(RewriteContext &C,
                                             const std::vector<frontend::KernelSummary> &Kernels) {
  KernelSplices Out{{}, frontend::HeaderInliner(readTextFile)};
  if (C.Cached) {
    std::vector<const frontend::KernelSummary *> Annotated;
    for (const frontend::KernelSummary &K : Kernels)
      if (K.Pragma && spliceable(K))
        Annotated.push_back(&K);
    C.Cached->beginUnit(std::move(Annotated));
  }
  for (const frontend::KernelSummary &K : Kernels) {
    if ((!K.Pragma && C.Options.AnnotatedOnly) || !spliceable(K))
      continue;
    std::string DefiningPath = C.Request.Source;
    llvm::StringRef Defining = C.Text;
    std::string HeaderText;
    if (!K.HeaderFile.empty()) {
      DefiningPath = K.IncludedFrom.back().Included;
      llvm::Expected<std::string> Read = readTextFile(DefiningPath);
      if (!Read)
        return Read.takeError();
      HeaderText = std::move(*Read);
      Defining = HeaderText;
    }
    llvm::Expected<std::vector<frontend::VariantSplice>> S =
        splicesFor(K, Defining, DefiningPath, C);
    if (!S)
      return S.takeError();
    if (!K.HeaderFile.empty() && !S->empty()) {
      llvm::Expected<bool> Inlined = inlineIntoHeader(K, *S, Out, C);
      if (!Inlined)
        return Inlined.takeError();
      if (!*Inlined)
        continue;
    }
    for (frontend::VariantSplice &One : *S)
      Out.InText.push_back(std::move(One));
  }
  if (C.Cached) {
    C.Cached->finish(C.Request.Source);
    appendToBuildLog(C);
  }
  for (const std::string &Name : C.Files->unusedKernels())
    C.Log->warning(llvm::Twine("no ") + (C.Options.AnnotatedOnly ? "annotated " : "") + "kernel '" +
                   Name + "' in " + C.Request.Source + " for its variant");
  return Out;
}

} // namespace kopt::driver
