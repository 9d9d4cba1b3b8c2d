#include "driver/kcc/DependencyFile.h"

#include "support/LineDirective.h"
#include "support/TextFile.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringSet.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>

namespace kopt::driver {

namespace {

struct Rule {
  std::string Targets; // Up to and with the ':', as written.
  std::vector<std::string> Prerequisites;
};

// nvcc escapes spaces and nothing else ("d#x/a#b.cu" stays as it is).
std::string escapeAsNvcc(llvm::StringRef Path) {
  std::string Out;
  for (char C : Path) {
    if (C == ' ')
      Out += '\\';
    Out += C;
  }
  return Out;
}

// Logical lines: a backslash before a newline continues the line.
std::vector<std::string> logicalLines(llvm::StringRef Text) {
  std::vector<std::string> Lines(1);
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] == '\\' && I + 1 < Text.size() && Text[I + 1] == '\n') {
      Lines.back() += ' ';
      ++I;
    } else if (Text[I] == '\n') {
      Lines.emplace_back();
    } else {
      Lines.back() += Text[I];
    }
  }
  return Lines;
}

// Paths separated by unescaped blanks, "\ " read as a space.
std::vector<std::string> paths(llvm::StringRef Text) {
  std::vector<std::string> Out;
  std::string Current;
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] == '\\' && I + 1 < Text.size() && Text[I + 1] == ' ') {
      Current += ' ';
      ++I;
    } else if (Text[I] == ' ' || Text[I] == '\t' || Text[I] == '\r') {
      if (!Current.empty())
        Out.push_back(std::move(Current));
      Current.clear();
    } else {
      Current += Text[I];
    }
  }
  if (!Current.empty())
    Out.push_back(std::move(Current));
  return Out;
}

std::vector<Rule> parseRules(llvm::StringRef Text) {
  std::vector<Rule> Rules;
  for (llvm::StringRef Line : logicalLines(Text)) {
    if (Line.trim().empty())
      continue;
    // The colon that ends the targets stands before a blank or the line's end.
    size_t Colon = 0;
    while ((Colon = Line.find(':', Colon)) != llvm::StringRef::npos && Colon + 1 < Line.size() &&
           Line[Colon + 1] != ' ' && Line[Colon + 1] != '\t')
      ++Colon;
    if (Colon == llvm::StringRef::npos) { // Not a rule: kept as it is.
      Rules.push_back({Line.str(), {}});
      continue;
    }
    Rules.push_back({Line.take_front(Colon + 1).rtrim().str(), paths(Line.drop_front(Colon + 1))});
  }
  return Rules;
}

std::string formatRules(const std::vector<Rule> &Rules) {
  std::string Out;
  for (const Rule &R : Rules) {
    if (!Out.empty())
      Out += '\n';
    Out += R.Targets;
    for (size_t I = 0; I < R.Prerequisites.size(); ++I)
      Out += (I == 0 ? " " : " \\\n    ") + escapeAsNvcc(R.Prerequisites[I]);
    Out += '\n';
  }
  return Out;
}

} // namespace

std::vector<std::string> unrealLineNames(llvm::StringRef Source, llvm::StringRef Original,
                                         llvm::StringRef Rewritten) {
  std::vector<std::string> Theirs = lineDirectiveNames(Original);
  std::vector<std::string> Unreal;
  for (std::string &Name : lineDirectiveNames(Rewritten))
    if (Name != Source && llvm::find(Theirs, Name) == Theirs.end() && !llvm::sys::fs::exists(Name))
      Unreal.push_back(std::move(Name));
  return Unreal;
}

std::string editDependencies(llvm::StringRef Text, llvm::ArrayRef<DependencyEdit> Edits) {
  std::vector<Rule> Rules = parseRules(Text);
  llvm::StringSet<> Unreal, Sources;
  for (const DependencyEdit &E : Edits) {
    Unreal.insert(E.Unreal.begin(), E.Unreal.end());
    Sources.insert(E.Original);
  }
  // -MP's empty rules: none for a name that is no file, nor for the source
  // (nvcc makes none for its input; the rewrite's #line named it like a header).
  llvm::erase_if(Rules, [&](const Rule &R) {
    llvm::StringRef Target = llvm::StringRef(R.Targets).drop_back().rtrim();
    if (!R.Prerequisites.empty() || !llvm::StringRef(R.Targets).ends_with(":") ||
        paths(Target).size() != 1)
      return false;
    return Unreal.contains(paths(Target).front()) || Sources.contains(paths(Target).front());
  });
  for (Rule &R : Rules) {
    std::vector<std::string> Out;
    llvm::StringSet<> Seen;
    auto Add = [&](const std::string &Path) {
      if (!Unreal.contains(Path) && Seen.insert(Path).second)
        Out.push_back(Path);
    };
    for (const std::string &P : R.Prerequisites) {
      auto Edit = llvm::find_if(Edits, [&](const DependencyEdit &E) { return E.Temporary == P; });
      if (Edit == Edits.end()) {
        Add(P);
        continue;
      }
      Add(Edit->Original);
      for (const std::string &Header : Edit->Inlined)
        Add(Header);
    }
    R.Prerequisites = std::move(Out);
  }
  return formatRules(Rules);
}

llvm::Error editDependencyFile(const std::string &DepFile, llvm::ArrayRef<DependencyEdit> Edits) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer = llvm::MemoryBuffer::getFile(DepFile);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "cannot read dependency file %s: %s",
                                   DepFile.c_str(), Buffer.getError().message().c_str());
  // In place, as nvcc wrote it (its permissions stay).
  return writeTextFile(DepFile, editDependencies((*Buffer)->getBuffer(), Edits));
}

} // namespace kopt::driver
