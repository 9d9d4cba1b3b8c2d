#include "agents/LlmVariant.h"

#include "agents/OptimizeResult.h"
#include "clang-plugin/transforms/framework/TransformPipeline.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/Regex.h>

#include <cstring>
#include <optional>

namespace kopt::agents {

namespace {
// Text with its comments blanked and, with Literals, the insides of its string
// and character literals too: same length and newlines, so offsets carry over
// and braces or semicolons in comments and strings do not count.
std::string blanked(llvm::StringRef Text, bool Literals) {
  std::string Out = Text.str();
  auto Blank = [&](size_t From, size_t To) {
    for (size_t I = From; I < To && I < Out.size(); ++I)
      if (Out[I] != '\n')
        Out[I] = ' ';
  };
  for (size_t I = 0; I < Text.size();) {
    llvm::StringRef Rest = Text.substr(I);
    if (Rest.starts_with("//")) {
      size_t End = std::min(Text.find('\n', I), Text.size());
      Blank(I, End);
      I = End;
    } else if (Rest.starts_with("/*")) {
      size_t End = Text.find("*/", I + 2);
      End = End == llvm::StringRef::npos ? Text.size() : End + 2;
      Blank(I, End);
      I = End;
    } else if (Text[I] == '"' || Text[I] == '\'') {
      size_t J = I + 1;
      while (J < Text.size() && Text[J] != Text[I] && Text[J] != '\n')
        J += Text[J] == '\\' ? 2 : 1;
      if (Literals)
        Blank(I + 1, J);
      I = J + 1;
    } else {
      ++I;
    }
  }
  return Out;
}

// The bracket that closes the one at Open, in blanked text.
std::optional<size_t> closing(llvm::StringRef M, size_t Open) {
  char O = M[Open], C = O == '(' ? ')' : '}';
  int Depth = 0;
  for (size_t I = Open; I < M.size(); ++I) {
    if (M[I] == O)
      ++Depth;
    else if (M[I] == C && --Depth == 0)
      return I;
  }
  return std::nullopt;
}

bool isIdentifierChar(char C) { return llvm::isAlnum(C) || C == '_'; }

// The code without comments and without whitespace except between two
// identifier characters, to compare declarations however they are laid out.
std::string normalized(llvm::StringRef Text) {
  std::string M = blanked(Text, false), Out;
  bool Space = false;
  for (char C : M) {
    if (llvm::isSpace(C)) {
      Space = true;
      continue;
    }
    if (Space && !Out.empty() && isIdentifierChar(Out.back()) && isIdentifierChar(C))
      Out += ' ';
    Out += C;
    Space = false;
  }
  return Out;
}

struct Definition {
  size_t Begin, End; // From the start of the __global__ line to past the body's brace.
};

// The definition (not a declaration) of the kernel named Short in blanked text.
std::optional<Definition> findDefinition(llvm::StringRef M, llvm::StringRef Short) {
  llvm::Regex Head("__global__[^;{}]*[^A-Za-z0-9_]" + Short.str() + "[[:space:]]*\\(");
  for (size_t From = 0; From < M.size();) {
    llvm::SmallVector<llvm::StringRef, 1> Match;
    if (!Head.match(M.substr(From), &Match))
      return std::nullopt;
    size_t At = Match[0].data() - M.data();
    std::optional<size_t> Close = closing(M, At + Match[0].size() - 1);
    if (!Close)
      return std::nullopt;
    size_t Next = M.find_first_not_of(" \t\r\n", *Close + 1);
    if (Next != llvm::StringRef::npos && M[Next] == '{') {
      std::optional<size_t> End = closing(M, Next);
      if (!End)
        return std::nullopt;
      size_t Line = M.rfind('\n', At);
      return Definition{Line == llvm::StringRef::npos ? 0 : Line + 1, *End + 1};
    }
    From = *Close + 1;
  }
  return std::nullopt;
}

// Just after the innermost brace still open at Pos (a namespace's), or 0.
size_t scopeStart(llvm::StringRef M, size_t Pos) {
  std::vector<size_t> Open;
  for (size_t I = 0; I < Pos; ++I) {
    if (M[I] == '{')
      Open.push_back(I);
    else if (M[I] == '}' && !Open.empty())
      Open.pop_back();
  }
  return Open.empty() ? 0 : Open.back() + 1;
}

bool onlySpaceBefore(llvm::StringRef M, size_t I) {
  size_t Line = M.rfind('\n', I);
  Line = Line == llvm::StringRef::npos ? 0 : Line + 1;
  return M.slice(Line, I).trim().empty();
}

// The top-level declarations of blanked text M in [From, To): each ends at a
// semicolon or a closing brace at depth 0, or is a preprocessor line. Rest
// is set to where the text after the last one starts (a template header).
std::vector<std::pair<size_t, size_t>> topLevelItems(llvm::StringRef M, size_t From, size_t To,
                                                     size_t &Rest) {
  std::vector<std::pair<size_t, size_t>> Items;
  int Depth = 0;
  size_t Start = From;
  auto Emit = [&](size_t End) {
    Items.emplace_back(Start, End);
    Start = End;
  };
  for (size_t I = From; I < To; ++I) {
    char C = M[I];
    if (Depth == 0 && C == '#' && onlySpaceBefore(M, I)) {
      size_t End = I;
      for (;;) { // To the end of the line, with its continuations.
        size_t NewLine = M.find('\n', End);
        if (NewLine == llvm::StringRef::npos || NewLine >= To) {
          End = To;
          break;
        }
        End = NewLine + 1;
        if (NewLine == 0 || M[NewLine - 1] != '\\')
          break;
      }
      Emit(End);
      I = End - 1;
    } else if (C == '{') {
      ++Depth;
    } else if (C == '}' && Depth > 0 && --Depth == 0) {
      size_t End = I + 1, Next = M.find_first_not_of(" \t\r\n", End);
      if (Next != llvm::StringRef::npos && Next < To && M[Next] == ';')
        End = Next + 1;
      Emit(End);
      I = End - 1;
    } else if (C == ';' && Depth == 0) {
      Emit(I + 1);
    }
  }
  Rest = Start;
  return Items;
}

std::string signatureText(const frontend::KernelSummary &K) {
  std::vector<std::string> Types;
  for (const frontend::KernelParam &P : K.Params)
    Types.push_back(P.Type);
  return K.Name + "(" + llvm::join(Types, ", ") + ")";
}

// A parameter's type as far as the signature goes: restrict does not count.
std::string signatureType(llvm::StringRef Type) {
  std::string T = Type.str();
  for (size_t At; (At = T.find("__restrict")) != std::string::npos;)
    T.erase(At, strlen("__restrict"));
  return normalized(T);
}
} // namespace

llvm::Expected<UnitLayout> unitLayoutOf(const frontend::KernelSummary &K,
                                        const std::vector<std::string> &ClangArgs) {
  auto Summary = transform::summarizeUnit(K.Unit.Text, K.Name, ClangArgs, K.Pragma,
                                          transform::analysedInstantiation(K));
  if (!Summary)
    return Summary.takeError();
  return UnitLayout{K.Unit.Text, Summary->Unit.Definition.Begin, Summary->Unit.Definition.End};
}

llvm::Expected<PlacedVariant> placeModelCode(const UnitLayout &Layout, llvm::StringRef KernelName,
                                             llvm::StringRef Code) {
  llvm::StringRef Short = frontend::unqualifiedName(KernelName);
  std::string M = blanked(Code, true);
  std::optional<Definition> Def = findDefinition(M, Short);
  if (!Def)
    return llvm::createStringError("the code holds no complete definition of kernel '%s'",
                                   Short.str().c_str());
  size_t Rest = 0;
  std::vector<std::pair<size_t, size_t>> Items =
      topLevelItems(M, scopeStart(M, Def->Begin), Def->Begin, Rest);
  const std::string Known = normalized(Layout.Text);
  std::string New;
  for (const auto &[Begin, End] : Items) {
    llvm::StringRef Item = Code.slice(Begin, End);
    std::string Key = normalized(Item);
    if (Key.empty() || Known.find(Key) != std::string::npos)
      continue; // The original unit has it already.
    New += Item.trim().str() + "\n\n";
  }
  New += Code.slice(Rest, Def->End).trim().str();

  PlacedVariant P;
  P.Variant.KernelName = KernelName.str();
  P.Variant.Code = New;
  P.Unit = Layout.Text.substr(0, Layout.Begin) + New + Layout.Text.substr(Layout.End);
  return P;
}

std::string codeHash(llvm::StringRef Unit) { return variantHash(normalized(Unit), std::nullopt); }

std::string signatureChange(const frontend::KernelSummary &Original, llvm::StringRef Unit,
                            const std::vector<std::string> &ClangArgs) {
  auto Summary = transform::summarizeUnit(Unit, Original.Name, ClangArgs, Original.Pragma,
                                          transform::analysedInstantiation(Original));
  if (!Summary)
    return "The variant does not compile (clang): " + llvm::toString(Summary.takeError());
  bool Same = Summary->Params.size() == Original.Params.size();
  if (!Original.MangledName.empty()) {
    Same = Summary->MangledName == Original.MangledName;
  } else {
    for (size_t I = 0; Same && I < Original.Params.size(); ++I)
      Same = signatureType(Summary->Params[I].Type) == signatureType(Original.Params[I].Type);
  }
  if (Same)
    return "";
  return "the variant changes the kernel's signature to `" + signatureText(*Summary) +
         "`; it must stay `" + signatureText(Original) + "` (the build's launches call it)";
}

} // namespace kopt::agents
