#include "driver/kcc/AnnotatedIncludes.h"

#include "clang-plugin/pragma/PragmaText.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

#include <set>
#include <vector>

namespace kopt::driver {

namespace {

// Enough for any real include graph; a bound on a pathological one.
constexpr size_t MaxFiles = 2000;

struct Include {
  std::string Name;
  bool Angled;
};

std::vector<Include> includesOf(llvm::StringRef Text) {
  std::vector<Include> Out;
  llvm::SmallVector<llvm::StringRef, 128> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    Line = Line.ltrim();
    if (!Line.consume_front("#"))
      continue;
    Line = Line.ltrim();
    if (!Line.consume_front("include"))
      continue;
    Line = Line.ltrim();
    char Close = Line.starts_with("\"") ? '"' : Line.starts_with("<") ? '>' : 0;
    if (!Close)
      continue; // A macro names the file: not followed.
    size_t End = Line.find(Close, 1);
    if (End != llvm::StringRef::npos)
      Out.push_back({Line.slice(1, End).str(), Close == '>'});
  }
  return Out;
}

std::optional<std::string> existing(llvm::StringRef Dir, llvm::StringRef Name) {
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, Name);
  if (llvm::sys::fs::is_regular_file(Path))
    return std::string(Path);
  return std::nullopt;
}

} // namespace

PragmaEvidence scanForKoptPragmas(llvm::StringRef Path, llvm::StringRef Text,
                                  llvm::ArrayRef<std::string> IncludeDirs) {
  PragmaEvidence Found;
  // What one file's text says; true once a directive is found.
  auto Read = [&Found](llvm::StringRef File, llvm::StringRef Content) {
    if (frontend::containsKoptPragma(Content)) {
      Found.DirectiveIn = File.str();
      return true;
    }
    Found.PragmaOperator = Found.PragmaOperator || frontend::usesPragmaOperator(Content);
    Found.KoptWord = Found.KoptWord || frontend::mentionsKoptWord(Content);
    return false;
  };
  if (Read(Path, Text))
    return Found;
  std::set<std::string> Seen;
  std::vector<std::pair<std::string, std::string>> Work = {{Path.str(), Text.str()}};
  while (!Work.empty() && Seen.size() < MaxFiles) {
    auto [File, Content] = std::move(Work.back());
    Work.pop_back();
    for (const Include &I : includesOf(Content)) {
      std::optional<std::string> Header;
      if (!I.Angled)
        Header = existing(llvm::sys::path::parent_path(File), I.Name);
      for (size_t D = 0; !Header && D < IncludeDirs.size(); ++D)
        Header = existing(IncludeDirs[D], I.Name);
      if (!Header)
        continue;
      llvm::SmallString<256> Real;
      if (llvm::sys::fs::real_path(*Header, Real) || !Seen.insert(std::string(Real)).second)
        continue;
      llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
          llvm::MemoryBuffer::getFile(*Header, /*IsText=*/true);
      if (!Buffer)
        continue;
      if (Read(*Header, (*Buffer)->getBuffer()))
        return Found;
      Work.push_back({*Header, (*Buffer)->getBuffer().str()});
    }
  }
  return Found;
}

} // namespace kopt::driver
