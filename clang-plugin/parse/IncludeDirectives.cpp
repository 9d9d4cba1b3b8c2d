#include "clang-plugin/parse/IncludeDirectives.h"

#include <clang/Basic/SourceManager.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>

namespace kopt::frontend {

namespace {

using DirectiveMap =
    llvm::DenseMap<const clang::FileEntry *, std::vector<IncludeDirectiveLog::Directive>>;

class Recorder : public clang::PPCallbacks {
public:
  explicit Recorder(std::shared_ptr<DirectiveMap> Into) : Seen(std::move(Into)) {}

  // Called for every directive that finds its file, also where #pragma once or
  // an include guard then skips it.
  void InclusionDirective(clang::SourceLocation HashLoc, const clang::Token &, llvm::StringRef,
                          bool, clang::CharSourceRange FilenameRange,
                          clang::OptionalFileEntryRef File, llvm::StringRef, llvm::StringRef,
                          const clang::Module *, bool, clang::SrcMgr::CharacteristicKind) override {
    if (File)
      (*Seen)[&File->getFileEntry()].push_back(
          {HashLoc.getRawEncoding(), FilenameRange.getEnd().getRawEncoding()});
  }

private:
  std::shared_ptr<DirectiveMap> Seen;
};

} // namespace

void IncludeDirectiveLog::install(clang::Preprocessor &PP) {
  PP.addPPCallbacks(std::make_unique<Recorder>(Seen));
}

std::vector<IncludeStep> IncludeDirectiveLog::chainTo(clang::SourceLocation Loc,
                                                      const clang::SourceManager &SM) const {
  std::vector<IncludeStep> Chain;
  clang::FileID File = SM.getFileID(SM.getExpansionLoc(Loc));
  while (File.isValid() && File != SM.getMainFileID()) {
    clang::OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File);
    if (!Entry)
      return {};
    auto It = Seen->find(&Entry->getFileEntry());
    clang::SourceLocation IncludeLoc = SM.getIncludeLoc(File);
    if (It == Seen->end() || IncludeLoc.isInvalid())
      return {};
    clang::FileID Includer = SM.getFileID(IncludeLoc);
    // The directive that entered File: the last one in its includer before IncludeLoc.
    const Directive *Entered = nullptr;
    for (const Directive &D : It->second) {
      clang::SourceLocation Hash = clang::SourceLocation::getFromRawEncoding(D.HashRaw);
      if (SM.getFileID(Hash) == Includer && SM.getFileOffset(Hash) <= SM.getFileOffset(IncludeLoc))
        Entered = &D;
    }
    clang::OptionalFileEntryRef IncluderEntry = SM.getFileEntryRefForID(Includer);
    if (!Entered || !IncluderEntry)
      return {};
    clang::SourceLocation Hash = clang::SourceLocation::getFromRawEncoding(Entered->HashRaw);
    clang::SourceLocation NameEnd =
        clang::SourceLocation::getFromRawEncoding(Entered->FilenameEndRaw);
    IncludeStep Step;
    Step.Includer = IncluderEntry->getName().str();
    Step.IncluderIsMain = Includer == SM.getMainFileID();
    Step.Included = Entry->getName().str();
    Step.Begin = SM.getFileOffset(Hash);
    Step.End = SM.getFileOffset(NameEnd);
    Step.Line = SM.getLineNumber(Includer, Step.Begin);
    Step.Times = unsigned(It->second.size());
    Chain.insert(Chain.begin(), std::move(Step));
    File = Includer;
  }
  return Chain;
}

} // namespace kopt::frontend
