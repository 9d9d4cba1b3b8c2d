#include "support/LineDirective.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringExtras.h>

namespace kopt {

std::string lineDirective(llvm::StringRef Path, unsigned Line) {
  std::string Out = "#line " + std::to_string(Line) + " \"";
  for (char C : Path) {
    if (C == '\\' || C == '"')
      Out += '\\';
    Out += C;
  }
  return Out + "\"\n";
}

std::vector<std::string> lineDirectiveNames(llvm::StringRef Text) {
  std::vector<std::string> Names;
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    Line = Line.ltrim();
    if (!Line.consume_front("#"))
      continue;
    Line = Line.ltrim();
    if (Line.consume_front("line") && (Line.empty() || !llvm::isSpace(Line.front())))
      continue;
    Line = Line.ltrim();
    if (Line.empty() || !llvm::isDigit(Line.front()))
      continue;
    Line = Line.drop_while(llvm::isDigit).ltrim();
    if (!Line.consume_front("\""))
      continue;
    std::string Name;
    bool Closed = false;
    for (size_t I = 0; I < Line.size() && !Closed; ++I) {
      if (Line[I] == '\\' && I + 1 < Line.size())
        Name += Line[++I];
      else if (Line[I] == '"')
        Closed = true;
      else
        Name += Line[I];
    }
    if (Closed && llvm::find(Names, Name) == Names.end())
      Names.push_back(std::move(Name));
  }
  return Names;
}

} // namespace kopt
