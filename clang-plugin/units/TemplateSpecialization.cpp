#include "clang-plugin/units/TemplateSpecialization.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringSet.h>

#include <vector>

namespace kopt::frontend {

namespace {

struct Token {
  size_t Begin, End;
  bool Identifier;
};

// Identifiers and single punctuation characters; comments, strings and
// characters skipped (they never hold a parameter's name to replace).
std::vector<Token> tokenize(llvm::StringRef Text) {
  std::vector<Token> Out;
  size_t I = 0;
  while (I < Text.size()) {
    char C = Text[I];
    if (llvm::isSpace(C)) {
      ++I;
    } else if (Text.substr(I).starts_with("//")) {
      I = Text.find('\n', I);
      I = I == llvm::StringRef::npos ? Text.size() : I;
    } else if (Text.substr(I).starts_with("/*")) {
      size_t End = Text.find("*/", I + 2);
      I = End == llvm::StringRef::npos ? Text.size() : End + 2;
    } else if (C == '"' || C == '\'') {
      size_t J = I + 1;
      while (J < Text.size() && Text[J] != C)
        J += Text[J] == '\\' ? 2 : 1;
      Out.push_back({I, std::min(J + 1, Text.size()), false});
      I = std::min(J + 1, Text.size());
    } else if (llvm::isAlnum(C) || C == '_') {
      size_t J = I;
      while (J < Text.size() && (llvm::isAlnum(Text[J]) || Text[J] == '_' || Text[J] == '.'))
        ++J;
      Out.push_back({I, J, !llvm::isDigit(C)});
      I = J;
    } else {
      Out.push_back({I, I + 1, false});
      ++I;
    }
  }
  return Out;
}

// Splits at top-level commas (outside (), <>, [], {}).
std::vector<std::string> splitTopLevel(llvm::StringRef Text) {
  std::vector<std::string> Parts;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    Depth += (C == '(' || C == '<' || C == '[' || C == '{');
    Depth -= (C == ')' || C == '>' || C == ']' || C == '}');
    if (C == ',' && Depth == 0) {
      Parts.push_back(Text.slice(Start, I).trim().str());
      Start = I + 1;
    }
  }
  if (!Text.substr(Start).trim().empty())
    Parts.push_back(Text.substr(Start).trim().str());
  return Parts;
}

// The index of the token closing the bracket opened at Open.
std::optional<size_t> closing(llvm::StringRef Text, const std::vector<Token> &T, size_t Open) {
  char O = Text[T[Open].Begin], C = O == '<' ? '>' : O == '(' ? ')' : '}';
  int Depth = 0;
  for (size_t I = Open; I < T.size(); ++I) {
    if (T[I].Identifier || T[I].End - T[I].Begin != 1)
      continue;
    char X = Text[T[I].Begin];
    Depth += X == O;
    Depth -= X == C;
    if (Depth == 0)
      return I;
  }
  return std::nullopt;
}

struct Param {
  std::string Name;
  std::string Binding; // "using T = float;" or "constexpr int B = (32);"
  std::string Value;   // What replaces the name in the declaration.
};

llvm::Expected<Param> bindParam(llvm::StringRef Declared, llvm::StringRef Arg) {
  llvm::StringRef Decl = Declared.split('=').first.trim(); // Without a default.
  std::vector<Token> T = tokenize(Decl);
  if (T.empty() || !T.back().Identifier)
    return llvm::createStringError("template parameter '%s' has no name", Declared.str().c_str());
  Param P;
  P.Name = Decl.slice(T.back().Begin, T.back().End).str();
  llvm::StringRef Kind = Decl.slice(T.front().Begin, T.front().End);
  if (Kind == "template")
    return llvm::createStringError("template template parameter '%s' is not supported",
                                   Declared.str().c_str());
  if (Kind == "typename" || Kind == "class") {
    P.Binding = "using " + P.Name + " = " + Arg.str() + ";";
    P.Value = Arg.str();
  } else {
    P.Value = (llvm::Twine("(") + Arg + ")").str();
    P.Binding = "constexpr " + Decl.take_front(T.back().Begin).trim().str() + " " + P.Name + " = " +
                P.Value + ";";
  }
  return P;
}

} // namespace

llvm::Expected<std::string> explicitSpecialization(llvm::StringRef Code, llvm::StringRef Name,
                                                   llvm::StringRef Args) {
  std::vector<Token> T = tokenize(Code);
  auto Spelled = [&](size_t I) { return Code.slice(T[I].Begin, T[I].End); };
  auto Fail = [&](const char *Why) {
    return llvm::createStringError("variant of %s: %s", Name.str().c_str(), Why);
  };
  if (T.size() < 2 || Spelled(0) != "template" || Spelled(1) != "<")
    return Fail("its code is not a template definition ('template <...>' first)");
  std::optional<size_t> HeaderEnd = closing(Code, T, 1);
  if (!HeaderEnd)
    return Fail("unbalanced 'template <...>'");
  std::vector<std::string> Declared = splitTopLevel(Code.slice(T[1].End, T[*HeaderEnd].Begin));
  std::vector<std::string> Given = splitTopLevel(Args);
  if (Declared.size() != Given.size())
    return Fail("the instantiation's arguments do not match the template's parameters");
  std::vector<Param> Params;
  for (size_t I = 0; I < Declared.size(); ++I) {
    llvm::Expected<Param> P = bindParam(Declared[I], Given[I]);
    if (!P)
      return P.takeError();
    Params.push_back(std::move(*P));
  }
  // The declarator's name: Name followed by '('; then the body's '{'.
  size_t NameAt = 0;
  for (size_t I = *HeaderEnd + 1; I + 1 < T.size() && !NameAt; ++I)
    if (Spelled(I) == Name && Spelled(I + 1) == "(")
      NameAt = I;
  if (!NameAt)
    return Fail("no declaration of the kernel in its code");
  std::optional<size_t> ParamsEnd = closing(Code, T, NameAt + 1);
  size_t BodyAt = ParamsEnd ? *ParamsEnd + 1 : T.size();
  while (BodyAt < T.size() && Spelled(BodyAt) != "{")
    ++BodyAt;
  if (BodyAt == T.size())
    return Fail("no body in its code");

  std::string Out = Code.take_front(T[0].Begin).str() + "template <>";
  size_t Copied = T[*HeaderEnd].End;
  for (size_t I = *HeaderEnd + 1; I <= BodyAt; ++I) {
    std::string Replacement;
    if (I == NameAt)
      Replacement = Name.str() + "<" + Args.str() + ">";
    else if (T[I].Identifier)
      for (const Param &P : Params)
        if (Spelled(I) == P.Name)
          Replacement = P.Value;
    if (Replacement.empty())
      continue;
    Out += Code.slice(Copied, T[I].Begin);
    Out += Replacement;
    Copied = T[I].End;
  }
  Out += Code.slice(Copied, T[BodyAt].End);
  for (const Param &P : Params)
    Out += " " + P.Binding;
  Out += Code.substr(T[BodyAt].End);
  return Out;
}

bool argsNeedNoDeclarations(llvm::StringRef Args) {
  static const llvm::StringSet<> Words = {"void", "bool",  "char",   "short",  "int",
                                          "long", "float", "double", "signed", "unsigned",
                                          "true", "false", "const",  "size_t"};
  for (const Token &T : tokenize(Args)) {
    llvm::StringRef S = Args.slice(T.Begin, T.End);
    if (T.Identifier ? !Words.contains(S)
                     : !(llvm::isDigit(S[0]) || S == "," || S == "*" || S == "-"))
      return false;
  }
  return true;
}

bool sameTemplateArgs(llvm::StringRef A, llvm::StringRef B) {
  auto Spaceless = [](llvm::StringRef Args) {
    std::string Out;
    for (char C : Args)
      if (!llvm::isSpace(C))
        Out.push_back(C);
    return Out;
  };
  return Spaceless(A) == Spaceless(B);
}

} // namespace kopt::frontend
