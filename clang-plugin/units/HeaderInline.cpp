#include "clang-plugin/units/HeaderInline.h"

#include "clang-plugin/pragma/PragmaText.h"
#include "support/LineDirective.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

namespace kopt::frontend {

namespace {

constexpr llvm::StringLiteral MarkerBegin = "/* kopt: spliced header \"";
constexpr llvm::StringLiteral MarkerEnd = "\" */";
constexpr llvm::StringLiteral Placeholder = "@kopt-inlined-file-";

// From Begin (a directive's '#') to the end of its line.
unsigned lineEnd(llvm::StringRef Text, unsigned Begin) {
  size_t End = Text.find('\n', Begin);
  return End == llvm::StringRef::npos ? unsigned(Text.size()) : unsigned(End);
}

// Text's `#pragma once` lines blanked (inlined, it would apply to the TU) and its
// quoted includes that resolve in Dir made absolute.
std::string standAlone(llvm::StringRef Text, llvm::StringRef Dir) {
  std::string Out;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  Text.split(Lines, '\n');
  for (size_t I = 0; I < Lines.size(); ++I) {
    llvm::StringRef Line = Lines[I];
    llvm::StringRef Directive = Line.ltrim();
    if (Directive.consume_front("#")) {
      Directive = Directive.ltrim();
      if (Directive.starts_with("pragma") && Directive.drop_front(6).trim() == "once")
        Line = "";
      else if (Directive.consume_front("include")) {
        llvm::StringRef Name = Directive.ltrim();
        if (Name.consume_front("\"")) {
          Name = Name.take_until([](char C) { return C == '"'; });
          llvm::SmallString<256> Beside(Dir);
          llvm::sys::path::append(Beside, Name);
          if (!llvm::sys::path::is_absolute(Name) && llvm::sys::fs::exists(Beside)) {
            llvm::sys::fs::make_absolute(Beside);
            llvm::sys::path::remove_dots(Beside, /*remove_dot_dot=*/true);
            Out += "#include \"" + Beside.str().str() + "\"";
            Out += I + 1 < Lines.size() ? "\n" : "";
            continue;
          }
        }
      }
    }
    Out += Line.str();
    Out += I + 1 < Lines.size() ? "\n" : "";
  }
  return Out;
}

} // namespace

llvm::Error HeaderInliner::add(const std::vector<IncludeStep> &Chain, VariantSplice Splice) {
  if (Chain.empty() || !Chain.front().IncluderIsMain)
    return llvm::createStringError("the #include that brings its header in was not found");
  for (const IncludeStep &Step : Chain)
    if (Step.Times != 1)
      return llvm::createStringError("%s is included %u times in this file (once is spliced)",
                                     Step.Included.c_str(), Step.Times);
  for (const IncludeStep &Step : Chain)
    (Step.IncluderIsMain ? MainChildren : Children[Step.Includer])[Step.Begin] = Step.Included;
  Splice.Launches.clear();
  Splices[Chain.back().Included].push_back(std::move(Splice));
  return llvm::Error::success();
}

llvm::Expected<std::string> HeaderInliner::render(const std::string &File) const {
  llvm::Expected<std::string> Text = Read(File);
  if (!Text)
    return Text.takeError();
  // Children stand as placeholders while this file's own text is made standalone.
  std::vector<KernelReplacement> Includes;
  std::vector<std::string> Inlined;
  if (auto It = Children.find(File); It != Children.end())
    for (const auto &[Begin, Child] : It->second) {
      llvm::Expected<std::string> ChildText = render(Child);
      if (!ChildText)
        return ChildText.takeError();
      Includes.push_back({Begin, lineEnd(*Text, Begin), "#include " + Child,
                          (Placeholder + llvm::Twine(Inlined.size()) + "@\n").str()});
      Inlined.push_back(std::move(*ChildText));
    }
  std::vector<VariantSplice> Own;
  if (auto It = Splices.find(File); It != Splices.end())
    Own = It->second;
  // The dispatching helper of launches remapped between passes comes with the
  // TU's own splice, where those launches are.
  std::string LaunchesMakeThePrelude;
  llvm::Expected<std::string> Spliced =
      spliceVariants(*Text, File, Own, &LaunchesMakeThePrelude, Includes);
  if (!Spliced)
    return Spliced.takeError();
  std::string Out = standAlone(blankKoptPragmas(*Spliced), llvm::sys::path::parent_path(File));
  for (size_t I = 0; I < Inlined.size(); ++I) {
    std::string Mark = (Placeholder + llvm::Twine(I) + "@\n").str();
    Out.replace(Out.find(Mark), Mark.size(), Inlined[I]);
  }
  if (!Out.empty() && Out.back() != '\n')
    Out += '\n';
  return (MarkerBegin + File + MarkerEnd + "\n").str() + lineDirective(File) + Out;
}

llvm::Expected<std::vector<KernelReplacement>>
HeaderInliner::mainFileEdits(llvm::StringRef MainText) const {
  std::vector<KernelReplacement> Edits;
  for (const auto &[Begin, Child] : MainChildren) {
    llvm::Expected<std::string> Text = render(Child);
    if (!Text)
      return Text.takeError();
    Edits.push_back({Begin, lineEnd(MainText, Begin), "#include " + Child, std::move(*Text)});
  }
  return Edits;
}

std::vector<std::string> splicedHeaders(llvm::StringRef RewrittenText) {
  std::vector<std::string> Headers;
  for (size_t At = RewrittenText.find(MarkerBegin); At != llvm::StringRef::npos;
       At = RewrittenText.find(MarkerBegin, At + 1)) {
    llvm::StringRef Rest = RewrittenText.substr(At + MarkerBegin.size());
    size_t End = Rest.find(MarkerEnd);
    if (End != llvm::StringRef::npos && !Rest.take_front(End).contains('\n'))
      Headers.push_back(Rest.take_front(End).str());
  }
  return Headers;
}

} // namespace kopt::frontend
