#include "agents/LlmReply.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/Regex.h>
#include <nlohmann/json.hpp>

#include <optional>

namespace kopt::agents {

using Json = nlohmann::json;

namespace {
struct Fence {
  std::string Language; // Lower case; "" when unlabelled.
  std::string Text;
  bool Closed = false;
};

// Markdown code blocks: a line starting with ``` opens one (its info string is
// the language), the next such line closes it.
std::vector<Fence> fences(llvm::StringRef Reply) {
  std::vector<Fence> Out;
  Fence *Open = nullptr;
  llvm::SmallVector<llvm::StringRef> Lines;
  Reply.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    llvm::StringRef Trimmed = Line.trim();
    if (Trimmed.starts_with("```")) {
      if (Open) {
        Open->Closed = true;
        Open = nullptr;
      } else {
        Out.push_back({Trimmed.drop_front(3).trim().lower(), "", false});
        Open = &Out.back();
      }
      continue;
    }
    if (Open)
      Open->Text += Line.rtrim('\r').str() + "\n";
  }
  return Out;
}

// Position of `__global__ ... Name(` in Text: the start of its line and the
// definition's open parenthesis.
std::optional<std::pair<size_t, size_t>> findDefinition(llvm::StringRef Text,
                                                        llvm::StringRef Name) {
  llvm::Regex Def("__global__[^;{}]*[^A-Za-z0-9_]" + Name.str() + "[ \t\r\n]*\\(");
  llvm::SmallVector<llvm::StringRef, 1> Match;
  if (!Def.match(Text, &Match))
    return std::nullopt;
  size_t Start = Match[0].data() - Text.data();
  size_t LineStart = Text.rfind('\n', Start);
  return std::make_pair(LineStart == llvm::StringRef::npos ? 0 : LineStart + 1,
                        Start + Match[0].size() - 1);
}

// Index one past the brace that closes the body following From, or none when
// the text ends first. Skips comments, strings and character literals.
std::optional<size_t> endOfBody(llvm::StringRef Text, size_t From) {
  int Depth = 0;
  bool Entered = false;
  for (size_t I = From; I < Text.size(); ++I) {
    char C = Text[I];
    if (Text.substr(I).starts_with("//")) {
      I = std::min(Text.find('\n', I), Text.size());
      continue;
    }
    if (Text.substr(I).starts_with("/*")) {
      size_t End = Text.find("*/", I + 2);
      if (End == llvm::StringRef::npos)
        return std::nullopt;
      I = End + 1;
      continue;
    }
    if (C == '"' || C == '\'') {
      for (++I; I < Text.size() && Text[I] != C; ++I)
        if (Text[I] == '\\')
          ++I;
      continue;
    }
    if (C == '{') {
      ++Depth;
      Entered = true;
    } else if (C == '}' && --Depth == 0 && Entered) {
      return I + 1;
    }
  }
  return std::nullopt;
}

bool isCodeLanguage(llvm::StringRef Language) {
  return llvm::is_contained({"cuda", "cu", "cpp", "c++", "cxx", "cc", "c", "hip"}, Language);
}

llvm::Error truncated(llvm::StringRef Name) {
  return llvm::createStringError("the reply is cut off inside the definition of kernel '%s' "
                                 "(no closing brace or fence); it was probably truncated",
                                 Name.str().c_str());
}

// A line that can precede a kernel in a unit: blank, preprocessor, comment,
// declaration keywords, or a statement or brace; prose ends in words or '.'/':'.
bool looksLikeCode(llvm::StringRef Line) {
  llvm::StringRef T = Line.trim();
  if (T.empty() || T.ends_with(";") || T.ends_with("{") || T.ends_with("}") || T.ends_with(","))
    return true;
  for (llvm::StringRef Start :
       {"#", "//", "/*", "*", "template", "__device__", "__host__", "__global__", "__forceinline__",
        "static", "inline", "constexpr", "struct", "typedef", "using", "namespace", "extern", "}"})
    if (T.starts_with(Start))
      return true;
  // A signature whose brace is on the next line: a few words, then '(' ... ')'.
  return llvm::Regex(
             "^[A-Za-z_][A-Za-z0-9_:<>*&]*( +[A-Za-z_*&][A-Za-z0-9_:<>*&]*){0,2} *\\(.*\\)$")
      .match(T);
}

// Code outside any fence: from the first line that starts code before the
// kernel (includes, templates, helpers, comments) to the end of its body.
llvm::Expected<std::string> unfencedCode(llvm::StringRef Reply, llvm::StringRef Name) {
  std::optional<std::pair<size_t, size_t>> Def = findDefinition(Reply, Name);
  if (!Def)
    return llvm::createStringError("the reply has no definition of kernel '%s' "
                                   "(expected `__global__ void %s(...)` in a ```cuda block)",
                                   Name.str().c_str(), Name.str().c_str());
  std::optional<size_t> End = endOfBody(Reply, Def->second);
  if (!End)
    return truncated(Name);
  // Walk back over lines that look like code; prose stops the walk.
  size_t Begin = Def->first;
  while (Begin > 0) {
    size_t PrevStart = Reply.rfind('\n', Begin - 1); // The newline before Begin - 1.
    PrevStart = PrevStart == llvm::StringRef::npos ? 0 : PrevStart + 1;
    if (!looksLikeCode(Reply.slice(PrevStart, Begin - 1)))
      break;
    Begin = PrevStart;
  }
  return llvm::StringRef(Reply.slice(Begin, *End)).trim().str() + "\n";
}
} // namespace

llvm::Expected<std::string> extractKernelCode(llvm::StringRef Reply, llvm::StringRef KernelName) {
  std::vector<Fence> Blocks = fences(Reply);
  if (Blocks.empty())
    return unfencedCode(Reply, KernelName);

  const Fence *Best = nullptr;
  auto Rank = [](const Fence &F) {
    return (isCodeLanguage(F.Language) ? 2 : 0) + F.Language.empty();
  };
  bool SawTruncated = false;
  for (const Fence &F : Blocks) {
    std::optional<std::pair<size_t, size_t>> Def = findDefinition(F.Text, KernelName);
    if (!Def)
      continue;
    if (!F.Closed || !endOfBody(F.Text, Def->second)) {
      SawTruncated = true;
      continue;
    }
    if (!Best || Rank(F) >= Rank(*Best))
      Best = &F;
  }
  if (Best)
    return Best->Text;
  if (SawTruncated)
    return truncated(KernelName);
  // Fences that hold something else (a plan, a log): the code may stand outside them.
  llvm::Expected<std::string> Outside = unfencedCode(Reply, KernelName);
  if (Outside)
    return Outside;
  llvm::consumeError(Outside.takeError());
  return llvm::createStringError("no code block in the reply defines kernel '%s' "
                                 "(expected `__global__ void %s(...)` in a ```cuda block)",
                                 KernelName.str().c_str(), KernelName.str().c_str());
}

namespace {
// The first complete JSON object in Text, trying each '{' in turn.
std::optional<Json> firstJsonObject(llvm::StringRef Text) {
  for (size_t At = Text.find('{'); At != llvm::StringRef::npos; At = Text.find('{', At + 1)) {
    std::optional<size_t> End = endOfBody(Text, At);
    if (!End)
      continue;
    llvm::StringRef Candidate = Text.slice(At, *End);
    Json J = Json::parse(Candidate.begin(), Candidate.end(), nullptr, false);
    if (!J.is_discarded() && J.is_object())
      return J;
  }
  return std::nullopt;
}

llvm::Error planError(const std::string &Message) {
  return llvm::createStringError("malformed plan: " + Message);
}

llvm::Expected<std::string> lineRange(const Json &Lines, size_t Index) {
  std::string Text;
  if (Lines.is_number_unsigned())
    Text = std::to_string(Lines.get<uint64_t>());
  else if (Lines.is_string())
    Text = Lines.get<std::string>();
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  if (!llvm::Regex("^ *([0-9]+) *(- *([0-9]+))? *$").match(Text, &Parts))
    return planError("changes[" + std::to_string(Index) + "].lines must be a line or a range " +
                     "such as \"12-15\"");
  unsigned First = 0, Last = 0;
  llvm::to_integer(Parts[1], First);
  if (Parts[3].empty())
    return std::to_string(First);
  llvm::to_integer(Parts[3], Last);
  if (First == 0 || Last < First)
    return planError("changes[" + std::to_string(Index) + "].lines '" + Text +
                     "' is not an increasing range");
  return std::to_string(First) + "-" + std::to_string(Last);
}
} // namespace

llvm::Expected<Plan> parsePlan(llvm::StringRef Reply) {
  std::optional<Json> J;
  for (const Fence &F : fences(Reply))
    if (F.Language == "json" && (J = firstJsonObject(F.Text)))
      break;
  if (!J)
    J = firstJsonObject(Reply);
  if (!J)
    return planError("the reply holds no JSON object");

  auto Text = [&](const char *Field) -> std::optional<std::string> {
    auto It = J->find(Field);
    if (It == J->end() || !It->is_string() ||
        llvm::StringRef(It->get<std::string>()).trim().empty())
      return std::nullopt;
    return It->get<std::string>();
  };
  Plan P;
  std::optional<std::string> Skill = Text("skill");
  if (!Skill)
    return planError("\"skill\" must be a skill id (a non-empty string)");
  P.Skill = *Skill;
  std::optional<std::string> Expected = Text("expected");
  if (!Expected)
    return planError("\"expected\" must say which metric moves and how");
  P.Expected = *Expected;

  auto Changes = J->find("changes");
  if (Changes == J->end() || !Changes->is_array() || Changes->empty())
    return planError("\"changes\" must be a non-empty list of {\"lines\", \"what\"}");
  for (size_t I = 0; I < Changes->size(); ++I) {
    const Json &C = (*Changes)[I];
    if (!C.is_object() || !C.contains("lines") || !C.contains("what") || !C["what"].is_string())
      return planError("changes[" + std::to_string(I) + "] needs \"lines\" and \"what\"");
    llvm::Expected<std::string> Lines = lineRange(C["lines"], I);
    if (!Lines)
      return Lines.takeError();
    P.Changes.push_back({*Lines, C["what"].get<std::string>()});
  }
  return P;
}

} // namespace kopt::agents
