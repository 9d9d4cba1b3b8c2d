#include "clang-plugin/pragma/PragmaText.h"

#include <cctype>

namespace kopt::frontend {

namespace {
// Whether Line (one physical line) starts a `#pragma kopt` directive.
bool startsKoptDirective(llvm::StringRef Line) {
  llvm::StringRef Rest = Line.ltrim(" \t");
  if (!Rest.consume_front("#"))
    return false;
  Rest = Rest.ltrim(" \t");
  if (!Rest.consume_front("pragma"))
    return false;
  if (Rest.empty() || (Rest.front() != ' ' && Rest.front() != '\t'))
    return false;
  Rest = Rest.ltrim(" \t");
  if (!Rest.consume_front("kopt"))
    return false;
  return Rest.empty() ||
         !(std::isalnum(static_cast<unsigned char>(Rest.front())) || Rest.front() == '_');
}

bool continues(llvm::StringRef Line) { return Line.rtrim(" \t\r").ends_with("\\"); }
} // namespace

bool containsKoptPragma(llvm::StringRef Text) {
  if (Text.contains("_Pragma(\"kopt"))
    return true;
  size_t Pos = 0;
  while (Pos <= Text.size()) {
    size_t Hash = Text.find('#', Pos);
    if (Hash == llvm::StringRef::npos)
      return false;
    size_t LineStart = Text.rfind('\n', Hash);
    LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
    size_t LineEnd = Text.find('\n', Hash);
    if (startsKoptDirective(Text.slice(LineStart, LineEnd)))
      return true;
    if (LineEnd == llvm::StringRef::npos)
      return false;
    Pos = LineEnd + 1;
  }
  return false;
}

bool usesPragmaOperator(llvm::StringRef Text) { return Text.contains("_Pragma"); }

bool mentionsKoptWord(llvm::StringRef Text) {
  auto IsWordChar = [](char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; };
  for (size_t At = Text.find("kopt"); At != llvm::StringRef::npos; At = Text.find("kopt", At + 1))
    if ((At == 0 || !IsWordChar(Text[At - 1])) &&
        (At + 4 == Text.size() || !IsWordChar(Text[At + 4])))
      return true;
  return false;
}

std::string blankKoptPragmas(llvm::StringRef Text) {
  std::string Out;
  Out.reserve(Text.size());
  bool InDirective = false;
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    bool HadNewline = Line.size() < Text.size();
    if (!InDirective && startsKoptDirective(Line))
      InDirective = true;
    if (InDirective) {
      InDirective = continues(Line);
    } else {
      Out += Line;
    }
    if (HadNewline)
      Out += '\n';
    Text = Rest;
  }
  return Out;
}

} // namespace kopt::frontend
