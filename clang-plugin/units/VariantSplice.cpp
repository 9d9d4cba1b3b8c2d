#include "clang-plugin/units/VariantSplice.h"

#include "clang-plugin/model/KernelSummary.h"
#include "clang-plugin/pragma/ClauseParser.h"
#include "clang-plugin/units/KernelRewrite.h"
#include "clang-plugin/units/LaunchMappingEval.h"
#include "clang-plugin/units/TemplateSpecialization.h"
#include "clang-plugin/units/VariantSwitch.h"
#include "support/LineDirective.h"

#include <llvm/ADT/StringExtras.h>

#include <llvm/ADT/STLExtras.h>

#include <algorithm>

namespace kopt::frontend {

namespace {

// The names of the variables that hold the launch's values inside the lambda,
// as the mapping's expressions see them (64-bit, as the evaluator computes).
std::optional<std::string> launchValue(llvm::StringRef Name) {
  static const std::pair<llvm::StringRef, llvm::StringRef> Values[] = {
      {"grid_x", "kopt_grid_.x"},   {"grid_y", "kopt_grid_.y"},   {"grid_z", "kopt_grid_.z"},
      {"block_x", "kopt_block_.x"}, {"block_y", "kopt_block_.y"}, {"block_z", "kopt_block_.z"},
      {"smem", "kopt_smem_"}};
  for (const auto &[Key, Value] : Values)
    if (Key == Name)
      return "((long long)" + Value.str() + ")";
  return std::nullopt;
}

// A written expression on one line (newlines would move the lines after it).
std::string oneLine(llvm::StringRef Text) {
  std::string Out = Text.str();
  std::replace(Out.begin(), Out.end(), '\n', ' ');
  return Out;
}

// The index of the integer parameter Name, checked against the call's arguments.
llvm::Expected<size_t> integerParam(llvm::StringRef Name, llvm::ArrayRef<KernelParam> Params,
                                    size_t ArgCount) {
  const auto *It = llvm::find_if(Params, [&](const KernelParam &P) { return P.Name == Name; });
  if (It == Params.end())
    return llvm::createStringError("the launch mapping names '%s', which is neither a launch "
                                   "value (grid_x .. block_z, smem) nor a parameter of the kernel",
                                   Name.str().c_str());
  if (It->Category != ParamCategory::Integer)
    return llvm::createStringError("the launch mapping names '%s', which has type '%s'; only "
                                   "integer parameters may be used",
                                   Name.str().c_str(), It->Type.c_str());
  size_t Index = size_t(It - Params.begin());
  if (Index >= ArgCount)
    return llvm::createStringError("the launch mapping names '%s', which this launch does not "
                                   "pass",
                                   Name.str().c_str());
  return Index;
}

// The variant's name as seen from anywhere in the TU: the original kernel's
// enclosing namespaces and classes, then VariantName.
std::string qualifiedVariantName(llvm::StringRef KernelName, llvm::StringRef VariantName) {
  if (VariantName.contains("::"))
    return VariantName.str();
  std::string Out;
  llvm::StringRef Scope = KernelName.rsplit("::").first;
  if (Scope == KernelName)
    return VariantName.str();
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Scope.split(Parts, "::");
  for (llvm::StringRef P : Parts)
    if (!P.starts_with("(")) // "(anonymous namespace)" cannot be written.
      Out += P.str() + "::";
  return Out + VariantName.str();
}

// Whether Site launches the instantiation S's variant is for (any, for a non-template).
bool forInstantiation(const LaunchSite &Site, const VariantSplice &S) {
  return S.Instantiation.empty() || sameTemplateArgs(Site.TemplateArgs, S.Instantiation);
}

struct Edit {
  unsigned Begin, End;
  std::string Text;
};

// A launch's call text is usable when it lies in the file as a <<< call with
// its parts inside it (not when it comes from a macro's expansion).
bool isRewritable(llvm::StringRef Text, const LaunchSite &Site) {
  if (Site.Begin >= Site.End || Site.End > Text.size())
    return false;
  if (!Text.slice(Site.Begin, Site.End).contains("<<<"))
    return false;
  auto Inside = [&](const LaunchExpr &E) {
    return Site.Begin <= E.Begin && E.Begin <= E.End && E.End <= Site.End;
  };
  if (!Inside(Site.Grid) || !Inside(Site.Block))
    return false;
  if ((Site.SharedMem && !Inside(*Site.SharedMem)) || (Site.Stream && !Inside(*Site.Stream)))
    return false;
  return llvm::all_of(Site.Args, Inside);
}

// Offset O of the original text in the text with Edits applied (sorted, disjoint).
llvm::Expected<unsigned> shifted(unsigned O, llvm::ArrayRef<Edit> Edits) {
  long Delta = 0;
  for (const Edit &E : Edits) {
    if (E.Begin < O && O < E.End)
      return llvm::createStringError("a kernel definition's boundary lies inside a launch");
    if (E.End <= O)
      Delta += long(E.Text.size()) - long(E.End - E.Begin);
  }
  return unsigned(long(O) + Delta);
}

} // namespace

namespace {
// One way a launch may go: a variant kernel with its launch mapping, where
// the device runs the code of Guard's pass (null: always).
struct LaunchChoice {
  std::string Callee;
  const LaunchMapping *Mapping;
  const ArchGuard *Guard;
};

// The launch of Site through Choices (see retargetLaunch); with guards, the
// first choice whose pass the device runs, else Original with the launch as
// written. With a Switch (the kernel's name), Original also wherever
// kopt_variants_enabled(Switch) says no (VariantSwitch.h).
llvm::Expected<std::string> launchText(llvm::StringRef Text, const LaunchSite &Site,
                                       llvm::ArrayRef<LaunchChoice> Choices,
                                       llvm::StringRef Original, llvm::ArrayRef<KernelParam> Params,
                                       llvm::StringRef Switch = "") {
  // Check every name first, so that a bad mapping fails before any text is made.
  for (const LaunchChoice &C : Choices) {
    const LaunchMapping &Mapping = *C.Mapping;
    const std::string *Exprs[] = {&Mapping.Grid[0],  &Mapping.Grid[1],  &Mapping.Grid[2],
                                  &Mapping.Block[0], &Mapping.Block[1], &Mapping.Block[2],
                                  &Mapping.SharedMem};
    for (const std::string *E : Exprs) {
      llvm::Expected<ClauseExpr> Parsed = parseExprText(*E);
      if (!Parsed)
        return llvm::createStringError("launch mapping: %s",
                                       llvm::toString(Parsed.takeError()).c_str());
      std::vector<const ExprNode *> Names;
      collectNames(*Parsed->Root, Names);
      for (const ExprNode *N : Names)
        if (!isLaunchMappingName(N->Spelling))
          if (llvm::Expected<size_t> I = integerParam(N->Spelling, Params, Site.Args.size()); !I)
            return I.takeError();
    }
  }
  auto Value = [&](llvm::StringRef Name) -> std::optional<std::string> {
    if (std::optional<std::string> V = launchValue(Name))
      return V;
    const auto *It = llvm::find_if(Params, [&](const KernelParam &P) { return P.Name == Name; });
    return "((long long)kopt_arg" + std::to_string(It - Params.begin()) + "_)";
  };
  auto Mapped = [&](const std::string &E) { return substituteNames(E, Value); };

  std::string Out = "([&] { const dim3 kopt_grid_ = dim3(" + oneLine(Site.Grid.Text) +
                    "); const dim3 kopt_block_ = dim3(" + oneLine(Site.Block.Text) +
                    "); const size_t kopt_smem_ = (" +
                    (Site.SharedMem ? oneLine(Site.SharedMem->Text) : std::string("0")) + "); ";
  if (Site.Stream)
    Out += "const cudaStream_t kopt_stream_ = (" + oneLine(Site.Stream->Text) + "); ";
  std::string Args;
  for (size_t I = 0; I < Site.Args.size(); ++I) {
    Out += "auto &&kopt_arg" + std::to_string(I) + "_ = (" + oneLine(Site.Args[I].Text) + "); ";
    Args += (I ? ", kopt_arg" : "kopt_arg") + std::to_string(I) + "_";
  }
  auto Dim3 = [&](const std::array<std::string, 3> &D) {
    return "dim3((unsigned)(" + Mapped(D[0]) + "), (unsigned)(" + Mapped(D[1]) + "), (unsigned)(" +
           Mapped(D[2]) + "))";
  };
  auto Call = [&](const LaunchChoice &C) {
    return C.Callee + "<<<" + Dim3(C.Mapping->Grid) + ", " + Dim3(C.Mapping->Block) +
           ", (size_t)(" + Mapped(C.Mapping->SharedMem) + ")" +
           (Site.Stream ? ", kopt_stream_" : "") + ">>>(" + Args + ");";
  };
  Out += "(void)kopt_grid_; (void)kopt_block_; (void)kopt_smem_; ";
  auto OriginalCall = [&] {
    return Original.str() + "<<<kopt_grid_, kopt_block_, kopt_smem_" +
           (Site.Stream ? ", kopt_stream_" : "") + ">>>(" + Args + ");";
  };
  // Asked once a launch site: the launch itself costs a test of a bool.
  if (!Switch.empty())
    Out += "static const bool kopt_on_ = kopt_variants_enabled(\"" + Switch.str() + "\"); ";
  if (Choices.size() == 1 && !Choices.front().Guard) {
    if (Switch.empty())
      Out += Call(Choices.front());
    else
      Out += "if (kopt_on_) { " + Call(Choices.front()) + " } else { " + OriginalCall() + " }";
  } else {
    std::string Fns, Ptx, Bin, Cases;
    for (size_t I = 0; I < Choices.size(); ++I) {
      const char *Sep = I ? ", " : "";
      Fns += Sep + ("(const void *)" + Choices[I].Callee);
      Ptx += Sep + std::to_string(Choices[I].Guard->PtxVersion);
      Bin += Sep + std::to_string(Choices[I].Guard->BinaryVersion);
      Cases += "case " + std::to_string(I + 1) + ": " + Call(Choices[I]) + " break; ";
    }
    Out += "static int kopt_pick_[64]; const void *const kopt_fns_[] = {" + Fns +
           "}; const int kopt_ptx_[] = {" + Ptx + "}; const int kopt_bin_[] = {" + Bin +
           "}; switch (" + (Switch.empty() ? "" : "!kopt_on_ ? 0 : ") +
           "kopt_pick_variant_(kopt_pick_, " + std::to_string(Choices.size()) +
           ", kopt_fns_, kopt_ptx_, kopt_bin_)) { " + Cases + "default: " + OriginalCall() + " }";
  }
  Out += " }())";
  Out.append(Text.slice(Site.Begin, Site.End).count('\n'), '\n');
  return Out;
}

// The callee at Site for kernel Name (with the site's template arguments).
std::string calleeAt(const LaunchSite &Site, const std::string &Name) {
  return Site.TemplateArgs.empty() ? Name : Name + "<" + Site.TemplateArgs + ">";
}

// The kernel's own name as seen from anywhere in the TU.
std::string originalName(llvm::StringRef KernelName) {
  llvm::StringRef Short = KernelName.rsplit("::").second;
  return qualifiedVariantName(KernelName, Short.empty() ? KernelName : Short);
}

// The splices of one kernel's variants for several passes: its guarded
// definition, the renamed variants' definitions and the dispatching launches.
llvm::Error spliceGuarded(llvm::StringRef OriginalText, llvm::StringRef Path,
                          llvm::ArrayRef<const VariantSplice *> Group,
                          std::vector<KernelReplacement> &Definitions, std::vector<Edit> &Launches,
                          bool &Dispatches) {
  const VariantSplice &First = *Group.front();
  const std::string &Kernel = First.Variant.KernelName;
  if (!First.Instantiation.empty())
    return llvm::createStringError("%s: a kernel template's variants for several device passes "
                                   "are not spliced (one architecture per compile is)",
                                   Kernel.c_str());
  std::vector<GuardedCode> InPlace;
  std::vector<std::pair<std::string, std::vector<GuardedCode>>> Renamed;
  std::vector<const VariantSplice *> RenamedSplices;
  for (const VariantSplice *S : Group) {
    GuardedCode G{&*S->Arch, &S->Variant.Code};
    if (S->Variant.VariantName.empty()) {
      InPlace.push_back(G);
      continue;
    }
    RenamedSplices.push_back(S);
    auto It =
        llvm::find_if(Renamed, [&](const auto &R) { return R.first == S->Variant.VariantName; });
    if (It == Renamed.end())
      Renamed.push_back({S->Variant.VariantName, {G}});
    else
      It->second.push_back(G);
  }
  if (!InPlace.empty() && First.DefinedHere)
    Definitions.push_back(
        {First.Definition.Begin, First.Definition.End, Kernel,
         guardedDefinition(InPlace,
                           OriginalText.slice(First.Definition.Begin, First.Definition.End), Path,
                           First.Definition.BeginLine)});
  if (Renamed.empty())
    return llvm::Error::success();
  std::string Added;
  for (const auto &[Name, Codes] : Renamed) {
    llvm::Expected<std::string> Text = guardedRenamedDefinition(Codes);
    if (!Text)
      return llvm::createStringError("variant %s of %s: %s", Name.c_str(), Kernel.c_str(),
                                     llvm::toString(Text.takeError()).c_str());
    Added += *Text;
  }
  if (First.DefinedHere)
    Definitions.push_back({First.Definition.End, First.Definition.End, Kernel, Added});
  for (const LaunchSite &Site : First.Launches) {
    if (!isRewritable(OriginalText, Site))
      continue;
    std::vector<LaunchChoice> Choices;
    for (const VariantSplice *S : RenamedSplices)
      Choices.push_back({calleeAt(Site, qualifiedVariantName(Kernel, S->Variant.VariantName)),
                         &*S->Variant.Launch, &*S->Arch});
    llvm::Expected<std::string> Call = launchText(
        OriginalText, Site, Choices, calleeAt(Site, originalName(Kernel)), First.Params, Kernel);
    if (!Call)
      return llvm::createStringError("variant of %s: %s", Kernel.c_str(),
                                     llvm::toString(Call.takeError()).c_str());
    Launches.push_back({Site.Begin, Site.End, std::move(*Call)});
  }
  Dispatches = true;
  return llvm::Error::success();
}
} // namespace

namespace {
// An in-place variant made switchable: the original kept as
// originalKernelName() after the definition, and each launch of the kernel in
// this text (after the definition, where it is here: the original is not
// declared before) launching one or the other.
llvm::Error switchInPlace(llvm::StringRef OriginalText, llvm::StringRef Path,
                          const VariantSplice &S, std::vector<KernelReplacement> &Definitions,
                          std::vector<Edit> &Launches) {
  const std::string &Kernel = S.Variant.KernelName;
  std::string Renamed = originalKernelName(Kernel);
  if (S.DefinedHere) {
    llvm::Expected<std::string> Original = renamedDefinition(
        OriginalText.slice(S.Definition.Begin, S.Definition.End), Kernel, Renamed);
    if (!Original)
      return llvm::createStringError("%s: its original cannot be kept beside the variant: %s",
                                     Kernel.c_str(), llvm::toString(Original.takeError()).c_str());
    // Its diagnostics point at the user's lines, as the kernel's did.
    Definitions.push_back({S.Definition.End, S.Definition.End, Kernel,
                           "\n" + lineDirective(Path, S.Definition.BeginLine) + *Original});
  }
  const LaunchMapping Same;
  for (const LaunchSite &Site : S.Launches) {
    if (!isRewritable(OriginalText, Site) || (S.DefinedHere && Site.Begin < S.Definition.End))
      continue;
    llvm::Expected<std::string> Call =
        launchText(OriginalText, Site, {{calleeAt(Site, originalName(Kernel)), &Same, nullptr}},
                   calleeAt(Site, qualifiedVariantName(Kernel, Renamed)), S.Params, Kernel);
    if (!Call)
      return llvm::createStringError("variant of %s: %s", Kernel.c_str(),
                                     llvm::toString(Call.takeError()).c_str());
    Launches.push_back({Site.Begin, Site.End, std::move(*Call)});
  }
  return llvm::Error::success();
}
} // namespace

llvm::Expected<std::string> retargetLaunch(llvm::StringRef Text, const LaunchSite &Site,
                                           llvm::StringRef Callee, const LaunchMapping &Mapping,
                                           llvm::ArrayRef<KernelParam> Params) {
  return launchText(Text, Site, {{Callee.str(), &Mapping, nullptr}}, "", Params);
}

llvm::Expected<std::string> spliceVariants(llvm::StringRef OriginalText,
                                           llvm::StringRef PathAsWritten,
                                           llvm::ArrayRef<VariantSplice> Splices,
                                           std::string *Prelude,
                                           llvm::ArrayRef<KernelReplacement> Others) {
  std::vector<KernelReplacement> Definitions(Others.begin(), Others.end());
  std::vector<Edit> Launches;
  std::vector<std::vector<const VariantSplice *>> Guarded; // By kernel, in order.
  // Where the caller takes a prelude (kcc), launches switch at run time (VariantSwitch.h).
  const bool Switchable = Prelude != nullptr;
  for (const VariantSplice &S : Splices) {
    if (S.Arch) {
      auto It = llvm::find_if(Guarded, [&](const auto &G) {
        return G.front()->Definition.Begin == S.Definition.Begin;
      });
      if (It == Guarded.end())
        Guarded.push_back({&S});
      else
        It->push_back(&S);
      continue;
    }
    const KernelVariant &V = S.Variant;
    if (V.VariantName.empty() && !S.Instantiation.empty()) {
      llvm::Expected<std::string> Specialization =
          explicitSpecialization(V.Code, unqualifiedName(V.KernelName), S.Instantiation);
      if (!Specialization)
        return Specialization.takeError();
      if (S.DefinedHere)
        Definitions.push_back(
            {S.Definition.End, S.Definition.End, V.KernelName, std::move(*Specialization)});
      continue;
    }
    if (V.VariantName.empty()) {
      if (S.DefinedHere)
        Definitions.push_back({S.Definition.Begin, S.Definition.End, V.KernelName, V.Code});
      if (Switchable)
        if (llvm::Error E = switchInPlace(OriginalText, PathAsWritten, S, Definitions, Launches))
          return E;
      continue;
    }
    if (S.DefinedHere)
      Definitions.push_back({S.Definition.End, S.Definition.End, V.KernelName, V.Code});
    std::string Name = qualifiedVariantName(V.KernelName, V.VariantName);
    const LaunchMapping Mapping = V.Launch.value_or(LaunchMapping{});
    for (const LaunchSite &Site : S.Launches) {
      if (!isRewritable(OriginalText, Site))
        continue;
      if (!forInstantiation(Site, S))
        continue; // Another instantiation's launch: the variant was not verified for it.
      llvm::Expected<std::string> Call =
          launchText(OriginalText, Site, {{calleeAt(Site, Name), &Mapping, nullptr}},
                     calleeAt(Site, originalName(V.KernelName)), S.Params,
                     Switchable ? llvm::StringRef(V.KernelName) : "");
      if (!Call)
        return llvm::createStringError("variant of %s: %s", V.KernelName.c_str(),
                                       llvm::toString(Call.takeError()).c_str());
      Launches.push_back({Site.Begin, Site.End, std::move(*Call)});
    }
  }
  bool Dispatches = false;
  for (const std::vector<const VariantSplice *> &Group : Guarded)
    if (llvm::Error E =
            spliceGuarded(OriginalText, PathAsWritten, Group, Definitions, Launches, Dispatches))
      return E;
  if (Dispatches && !Prelude)
    return llvm::createStringError("variants for several architectures remap launches, and the "
                                   "caller has no place for the dispatching helper");
  if (Prelude && !Splices.empty())
    *Prelude = variantSwitchPrelude() + (Dispatches ? dispatchPrelude() : "");
  llvm::sort(Launches, [](const Edit &A, const Edit &B) { return A.Begin < B.Begin; });
  std::string Text;
  unsigned Copied = 0;
  for (const Edit &E : Launches) {
    if (E.Begin < Copied)
      return llvm::createStringError("two retargeted launches overlap at offset %u", E.Begin);
    Text += OriginalText.slice(Copied, E.Begin);
    Text += E.Text;
    Copied = E.End;
  }
  Text += OriginalText.substr(Copied);
  for (KernelReplacement &R : Definitions) {
    llvm::Expected<unsigned> Begin = shifted(R.Begin, Launches);
    if (!Begin)
      return Begin.takeError();
    llvm::Expected<unsigned> End = shifted(R.End, Launches);
    if (!End)
      return End.takeError();
    R.Begin = *Begin;
    R.End = *End;
  }
  return replaceKernelDefinitions(Text, PathAsWritten, Definitions);
}

} // namespace kopt::frontend
