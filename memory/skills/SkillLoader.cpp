#include "memory/skills/SkillLoader.h"

#include "support/Spelling.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/Format.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Regex.h>
#include <llvm/Support/raw_ostream.h>
#include <yaml-cpp/yaml.h>

#include <cctype>

namespace kopt::memory {

namespace {
constexpr const char *IdRegex = "^[a-z][a-z0-9]*(-[a-z0-9]+)*$";
constexpr llvm::StringRef Fields[] = {
    "id",      "title",        "category",        "when",   "guidance",   "effect",
    "risks",   "transform",    "typical_speedup", "params", "likelihood", "expect",
    "enables", "guidance_only"};
constexpr llvm::StringRef Categories[] = {"memory",      "compute",        "launch",
                                          "parallelism", "control-flow",   "loops",
                                          "reduction",   "synchronization"};

std::string numberText(double V) {
  std::string Text;
  llvm::raw_string_ostream(Text) << llvm::format("%g", V);
  return Text;
}

// The 1-based line and column of byte Pos of Text.
std::pair<unsigned, unsigned> lineColumn(llvm::StringRef Text, size_t Pos) {
  Pos = std::min(Pos, Text.size());
  llvm::StringRef Before = Text.take_front(Pos);
  size_t LastNewline = Before.rfind('\n');
  unsigned Line = Before.count('\n') + 1;
  unsigned Column = LastNewline == llvm::StringRef::npos ? Pos + 1 : Pos - LastNewline;
  return {Line, Column};
}

// Where byte Offset of a scalar's value lies in the file: the value is walked
// against the raw text from the scalar's mark, whitespace runs matched loosely
// (folding and block indentation), after a quote or block indicator.
size_t sourceOffset(llvm::StringRef Raw, size_t Mark, llvm::StringRef Value, size_t Offset) {
  size_t J = Mark;
  if (J < Raw.size() && (Raw[J] == '\'' || Raw[J] == '"'))
    ++J;
  else if (J < Raw.size() && (Raw[J] == '|' || Raw[J] == '>'))
    J = std::min(Raw.size(), Raw.find('\n', J));
  auto Space = [](char C) { return std::isspace(static_cast<unsigned char>(C)) != 0; };
  for (size_t I = 0; I < Offset && I < Value.size() && J < Raw.size();) {
    if (Space(Value[I])) {
      while (I < Value.size() && Space(Value[I]))
        ++I;
      while (J < Raw.size() && Space(Raw[J]))
        ++J;
      continue;
    }
    while (J < Raw.size() && Space(Raw[J]) && Raw[J] != Value[I])
      ++J;
    ++I;
    ++J;
  }
  while (Offset < Value.size() && J < Raw.size() && Space(Raw[J]))
    ++J; // To the token, not past the end of the value.
  return J;
}

class Reader {
public:
  Reader(llvm::StringRef Source, llvm::StringRef Name) : Text(Source), File(Name) {}

  llvm::Expected<Skill> read() {
    try {
      return readOrThrow();
    } catch (const YAML::Exception &E) { // A key that is not a scalar, for one.
      return errorAt(E.mark, "", E.msg);
    }
  }

private:
  llvm::StringRef Text, File;

  llvm::Expected<Skill> readOrThrow() {
    YAML::Node Root;
    try {
      Root = YAML::Load(Text.str());
    } catch (const YAML::Exception &E) {
      return errorAt(E.mark, "", E.msg);
    }
    if (!Root.IsMap())
      return errorAt(Root.Mark(), "", "a skill file is a mapping of fields");
    Skill S;
    S.File = File.str();
    for (const auto &KV : Root) {
      std::string Key = KV.first.as<std::string>();
      if (llvm::is_contained(Fields, Key))
        continue;
      std::string Hint = didYouMean(closestSpelling(Key, Fields, 3));
      return errorAt(KV.first.Mark(), Key, "unknown field" + Hint);
    }
    if (llvm::Error E = readStrings(Root, S))
      return E;
    if (llvm::Error E = readWhen(Root, S))
      return E;
    if (llvm::Error E = readEffects(Root, S))
      return E;
    if (llvm::Error E = readParams(Root, S))
      return E;
    if (llvm::Error E =
            number(Root["typical_speedup"], "typical_speedup", 1, 100, S.TypicalSpeedup))
      return E;
    if (llvm::Error E = number(Root["likelihood"], "likelihood", 0, 1, S.Likelihood))
      return E;
    if (llvm::Error E = readExpect(Root, S))
      return E;
    if (llvm::Error E = readEnables(Root, S))
      return E;
    if (llvm::Error E = readGuidanceOnly(Root, S))
      return E;
    return S;
  }

  // A number from Low to High where N is given; Into keeps its default where not.
  llvm::Error number(const YAML::Node &N, llvm::StringRef Field, double Low, double High,
                     double &Into) {
    if (!N)
      return llvm::Error::success();
    double V = 0;
    if (!N.IsScalar() || llvm::StringRef(N.Scalar()).getAsDouble(V) || V < Low || V > High)
      return errorAt(N.Mark(), Field,
                     "expected a number from " + numberText(Low) + " to " + numberText(High));
    Into = V;
    return llvm::Error::success();
  }

  // The yield model's cases: a list of {when, speedup, likelihood}.
  llvm::Error readExpect(const YAML::Node &Root, Skill &S) {
    YAML::Node E = Root["expect"];
    if (!E)
      return llvm::Error::success();
    if (!E.IsSequence() || E.size() == 0)
      return errorAt(E.Mark(), "expect", "expected a list of cases {when, speedup, likelihood}");
    for (const YAML::Node &Case : E) {
      if (!Case.IsMap())
        return errorAt(Case.Mark(), "expect", "a case is a mapping {when, speedup, likelihood}");
      for (const auto &KV : Case) {
        std::string Key = KV.first.as<std::string>();
        if (Key != "when" && Key != "speedup" && Key != "likelihood")
          return errorAt(KV.first.Mark(), "expect",
                         "unknown key '" + Key + "' (a case has when, speedup, likelihood)");
      }
      for (const char *Needed : {"when", "speedup", "likelihood"})
        if (!Case[Needed])
          return errorAt(Case.Mark(), "expect", std::string("a case without '") + Needed + "'");
      SkillExpectation X;
      if (llvm::Error Err = readPredicate(Case["when"], "expect", X.When))
        return Err;
      if (llvm::Error Err = number(Case["speedup"], "expect", 1, 100, X.Speedup))
        return Err;
      if (llvm::Error Err = number(Case["likelihood"], "expect", 0, 1, X.Likelihood))
        return Err;
      S.Expect.push_back(std::move(X));
    }
    return llvm::Error::success();
  }

  llvm::Error readEnables(const YAML::Node &Root, Skill &S) {
    YAML::Node E = Root["enables"];
    if (!E)
      return llvm::Error::success();
    if (!S.Transform)
      return errorAt(E.Mark(), "enables", "only a skill with a transform enables others");
    if (!E.IsSequence() || E.size() == 0)
      return errorAt(E.Mark(), "enables", "expected a list of skill ids");
    for (const YAML::Node &Id : E) {
      if (!Id.IsScalar() || !isId(Id.Scalar()))
        return errorAt(Id.Mark(), "enables", "expected a skill id");
      S.Enables.push_back(Id.Scalar());
      S.EnablesAt.push_back(where(Id.Mark()));
    }
    return llvm::Error::success();
  }

  // A skill has its transform or says why it has none; not both.
  llvm::Error readGuidanceOnly(const YAML::Node &Root, Skill &S) {
    YAML::Node G = Root["guidance_only"];
    if (G && S.Transform)
      return errorAt(G.Mark(), "guidance_only",
                     "a skill with a transform ('" + *S.Transform + "') is not guidance only");
    if (!G && !S.Transform)
      return errorAt(Root.Mark(), "guidance_only",
                     "missing: a skill without a transform says why it stays guidance for the "
                     "llm engine");
    if (!G)
      return llvm::Error::success();
    llvm::Expected<std::string> V = scalar(Root, "guidance_only");
    if (!V)
      return V.takeError();
    S.GuidanceOnly = *V;
    return llvm::Error::success();
  }

  static bool isId(llvm::StringRef Text) { return llvm::Regex(IdRegex).match(Text); }

  std::string where(const YAML::Mark &M) const {
    std::string Where = File.str();
    if (M.line >= 0)
      Where += (":" + llvm::Twine(M.line + 1) + ":" + llvm::Twine(M.column + 1)).str();
    return Where;
  }

  llvm::Error errorAt(const YAML::Mark &M, llvm::StringRef Field, const std::string &Message) {
    std::string Where = where(M);
    std::string What;
    if (!Field.empty())
      What = ("field '" + Field + "': ").str();
    return llvm::createStringError(Where + ": " + What + Message);
  }
  llvm::Error errorAtByte(size_t Pos, llvm::StringRef Field, const std::string &Message) {
    auto [Line, Column] = lineColumn(Text, Pos);
    YAML::Mark M;
    M.line = Line - 1;
    M.column = Column - 1;
    return errorAt(M, Field, Message);
  }

  // A non-empty string scalar.
  llvm::Expected<std::string> scalar(const YAML::Node &Root, llvm::StringRef Field) {
    YAML::Node N = Root[Field.str()];
    if (!N.IsScalar() || llvm::StringRef(N.Scalar()).trim().empty())
      return errorAt(N.Mark(), Field, "expected a non-empty string");
    return llvm::StringRef(N.Scalar()).trim().str();
  }

  llvm::Error readStrings(const YAML::Node &Root, Skill &S) {
    for (llvm::StringRef Required : {"id", "title", "category", "guidance", "risks"})
      if (!Root[Required.str()])
        return errorAt(Root.Mark(), Required, "missing");
    struct {
      llvm::StringRef Field;
      std::string *Into;
    } Strings[] = {{"id", &S.Id},
                   {"title", &S.Title},
                   {"category", &S.Category},
                   {"guidance", &S.Guidance},
                   {"risks", &S.Risks}};
    for (auto &[Field, Into] : Strings) {
      llvm::Expected<std::string> V = scalar(Root, Field);
      if (!V)
        return V.takeError();
      *Into = *V;
    }
    if (!isId(S.Id))
      return errorAt(Root["id"].Mark(), "id", "'" + S.Id + "' is not lower-case-with-dashes");
    if (!llvm::is_contained(Categories, S.Category))
      return errorAt(Root["category"].Mark(), "category",
                     "'" + S.Category + "' is not one of " +
                         llvm::join(llvm::ArrayRef(Categories), ", "));
    if (YAML::Node T = Root["transform"]) {
      llvm::Expected<std::string> V = scalar(Root, "transform");
      if (!V)
        return V.takeError();
      if (!isId(*V))
        return errorAt(T.Mark(), "transform", "'" + *V + "' is not a transform id");
      S.Transform = *V;
    }
    return llvm::Error::success();
  }

  llvm::Error readWhen(const YAML::Node &Root, Skill &S) {
    YAML::Node W = Root["when"];
    if (!W)
      return llvm::Error::success();
    return readPredicate(W, "when", S.When);
  }

  // A predicate string; its errors point into the file.
  llvm::Error readPredicate(const YAML::Node &W, llvm::StringRef Field, Predicate &Into) {
    if (!W.IsScalar())
      return errorAt(W.Mark(), Field, "expected a predicate string");
    llvm::Expected<Predicate> P = Predicate::parse(W.Scalar());
    if (P) {
      Into = std::move(*P);
      return llvm::Error::success();
    }
    std::string Message;
    size_t Offset = 0;
    llvm::handleAllErrors(P.takeError(), [&](const PredicateError &E) {
      Message = E.Message;
      Offset = E.Offset;
    });
    return errorAtByte(sourceOffset(Text, W.Mark().pos, W.Scalar(), Offset), Field, Message);
  }

  llvm::Error readEffects(const YAML::Node &Root, Skill &S) {
    YAML::Node E = Root["effect"];
    if (!E || !E.IsMap() || E.size() == 0)
      return errorAt(E ? E.Mark() : Root.Mark(), "effect",
                     "expected a mapping of metrics to 'up' or 'down'");
    for (const auto &KV : E) {
      std::string Metric = KV.first.as<std::string>();
      const FactInfo *Info = findFact(Metric);
      if (!Info || !Info->Metric)
        return errorAt(KV.first.Mark(), "effect", "'" + Metric + "' is not a measured metric");
      std::string Dir = KV.second.IsScalar() ? KV.second.Scalar() : "";
      if (Dir != "up" && Dir != "down")
        return errorAt(KV.second.Mark(), "effect", "expected 'up' or 'down' for " + Metric);
      S.Effects.push_back({Metric, Dir == "up"});
    }
    return llvm::Error::success();
  }

  llvm::Error readParams(const YAML::Node &Root, Skill &S) {
    YAML::Node P = Root["params"];
    if (!P)
      return llvm::Error::success();
    if (!S.Transform)
      return errorAt(P.Mark(), "params", "only a skill with a transform has parameters");
    if (!P.IsMap())
      return errorAt(P.Mark(), "params", "expected a mapping of names to lists of values");
    for (const auto &KV : P) {
      SkillParam Param{KV.first.as<std::string>(), {}};
      if (!KV.second.IsSequence() || KV.second.size() == 0)
        return errorAt(KV.second.Mark(), "params", "expected a list of values for " + Param.Name);
      for (const YAML::Node &V : KV.second) {
        if (!V.IsScalar())
          return errorAt(V.Mark(), "params", "a value of " + Param.Name + " is not a scalar");
        Param.Values.push_back(V.Scalar());
      }
      S.Params.push_back(std::move(Param));
    }
    return llvm::Error::success();
  }
};
} // namespace

llvm::Expected<Skill> parseSkill(llvm::StringRef Text, llvm::StringRef File) {
  return Reader(Text, File).read();
}

llvm::Expected<Skill> loadSkillFile(llvm::StringRef File) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer = llvm::MemoryBuffer::getFile(File);
  if (!Buffer)
    return llvm::createStringError(File.str() + ": cannot read: " + Buffer.getError().message());
  return parseSkill((*Buffer)->getBuffer(), File);
}

} // namespace kopt::memory
