#include "clang-plugin/pragma/ClauseParser.h"

#include "support/Duration.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringMap.h>

#include <cmath>

namespace kopt::frontend {

namespace {

using TokKind = ClauseToken::Kind;
using Diag = PragmaDiagKind;

constexpr llvm::StringRef ClauseNames[] = {"launch", "args",          "buffers", "tol",
                                           "budget", "skills",        "noalias", "fastmath",
                                           "engine", "instantiation", "repeat"};

// What an expression is for, and what it may contain.
struct ExprContext {
  std::string What; // "a launch dimension", in "expected an integer for ..."
  bool IntegerOnly = false;
  bool ConstantOnly = false;
  bool Alternatives = false; // '|' may follow (args(k = 1 | 2)).
};

// C operators and punctuation that clause expressions do not take: after an
// expression, and where one begins.
constexpr llvm::StringLiteral UnsupportedAfter[] = {
    "&",  "^",  "|",  ".",  "->", "[",   "(",   "++", "--", "=", "+=",  "-=", "*=",
    "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "::", "!",  "~", "->*", ".*", "<=>"};
constexpr llvm::StringLiteral UnsupportedBefore[] = {"~", "&", "*", "++", "--", "::"};

class ClauseParser {
public:
  explicit ClauseParser(llvm::ArrayRef<ClauseToken> Tokens) : Toks(Tokens) {}

  PragmaParseResult run() {
    if (!parseVerb())
      return finish();
    while (!tok().is(TokKind::End)) {
      if (tok().isPunct(",") && Pos > 1) // Commas between clauses are optional.
        consume();
      if (!tok().is(TokKind::Identifier)) {
        diag(Diag::ExpectedClause, Pos, {describeToken(tok())});
        break;
      }
      if (!parseClause())
        break;
    }
    return finish();
  }

  // One integer expression filling the whole token list (launch mappings).
  std::pair<std::optional<ClauseExpr>, std::vector<PragmaDiagnostic>> runExpression() {
    std::optional<ClauseExpr> E = parseExpr({"an expression", true, false});
    if (E && !tok().is(TokKind::End)) {
      diag(Diag::ExpectedAfter, Pos, {"the end", "an expression", describeToken(tok())});
      E.reset();
    }
    return {std::move(E), std::move(Result.Diagnostics)};
  }

private:
  // --- Tokens -------------------------------------------------------------
  const ClauseToken &tok() const { return Toks[Pos]; }
  const ClauseToken &peek() const { return Toks[std::min(Pos + 1, Toks.size() - 1)]; }
  void consume() {
    if (!tok().is(TokKind::End))
      ++Pos;
  }
  bool consumePunct(llvm::StringRef P) {
    if (!tok().isPunct(P))
      return false;
    consume();
    return true;
  }
  // The index just past the ')' matching the '(' at Open, or the End token.
  // Brackets nest too, and either closer closes either opener, so that a
  // mistyped closer (x[n)) does not end the clause early.
  size_t skipParens(size_t Open) const {
    unsigned Depth = 0;
    for (size_t I = Open; I < Toks.size(); ++I) {
      if (Toks[I].isPunct("(") || Toks[I].isPunct("["))
        ++Depth;
      else if ((Toks[I].isPunct(")") || Toks[I].isPunct("]")) && Depth > 0 && --Depth == 0)
        return I + 1;
      if (Toks[I].is(TokKind::End))
        return I;
    }
    return Toks.size() - 1;
  }
  std::string textOf(size_t Begin, size_t End) const {
    std::string Text;
    for (size_t I = Begin; I < End; ++I) {
      if (I != Begin && Toks[I].LeadingSpace)
        Text.push_back(' ');
      Text += Toks[I].Text;
    }
    return Text;
  }

  // --- Diagnostics --------------------------------------------------------
  void diag(Diag K, size_t Token, std::vector<std::string> Args = {}, std::string FixIt = {}) {
    Result.Diagnostics.push_back({K, unsigned(Token), std::move(Args), std::move(FixIt)});
  }
  bool expectedIn(llvm::StringRef What, llvm::StringRef Clause) {
    diag(Diag::ExpectedIn, Pos, {What.str(), Clause.str(), describeToken(tok())});
    return false;
  }
  bool expectedAfter(llvm::StringRef What, llvm::StringRef After) {
    diag(Diag::ExpectedAfter, Pos, {What.str(), After.str(), describeToken(tok())});
    return false;
  }
  bool unknownKey(llvm::StringRef What, llvm::StringRef Clause,
                  llvm::ArrayRef<llvm::StringRef> Known, llvm::StringRef Expected) {
    std::string Word = tok().Text;
    if (std::optional<std::string> S = closestSpelling(Word, Known))
      diag(Diag::UnknownKeySuggest, Pos, {What.str(), Word, Clause.str(), *S}, *S);
    else
      diag(Diag::UnknownKey, Pos, {What.str(), Word, Clause.str(), Expected.str()});
    return false;
  }
  // Reports Key as repeated when Seen already holds it; else records it.
  bool checkRepeated(llvm::StringMap<size_t> &Seen, llvm::StringRef Key, llvm::StringRef Clause,
                     size_t Token) {
    auto [It, Inserted] = Seen.try_emplace(Key, Token);
    if (Inserted)
      return true;
    diag(Diag::RepeatedKey, Token, {Key.str(), Clause.str()});
    diag(Diag::NotePreviousKey, It->second, {Key.str()});
    return false;
  }
  // After an item of a list: ',' goes on (true), ')' ends it (false, consumed).
  // Anything else is an error; OK turns false.
  bool continueList(llvm::StringRef Clause, bool &OK) {
    if (consumePunct(","))
      return true;
    if (consumePunct(")"))
      return false;
    OK = expectedIn("',' or ')'", Clause);
    return false;
  }
  PragmaParseResult finish() {
    if (!hasErrors(Result.Diagnostics))
      Result.Clauses = std::move(Clauses);
    return std::move(Result);
  }

  // --- The verb and the clauses -------------------------------------------
  bool parseVerb() {
    if (tok().isIdentifier("optimize")) {
      consume();
      return true;
    }
    if (!tok().is(TokKind::Identifier))
      diag(Diag::MissingVerb, Pos, {describeToken(tok())});
    else if (std::optional<std::string> S = closestSpelling(tok().Text, {"optimize"}))
      diag(Diag::UnknownVerbSuggest, Pos, {tok().Text, *S}, *S);
    else
      diag(Diag::UnknownVerb, Pos, {tok().Text});
    return false;
  }

  // Parses one clause; false stops the pragma (the structure is lost).
  bool parseClause() {
    size_t NameTok = Pos;
    std::string Name = tok().Text;
    consume();
    if (!llvm::is_contained(ClauseNames, Name)) {
      if (std::optional<std::string> S = closestSpelling(Name, ClauseNames))
        diag(Diag::UnknownClauseSuggest, NameTok, {Name, *S}, *S);
      else
        diag(Diag::UnknownClause, NameTok, {Name});
      if (tok().isPunct("("))
        Pos = skipParens(Pos);
      return true;
    }
    // A repeated clause is parsed (for its own errors) into a scratch copy.
    PragmaClauses Scratch;
    auto [It, Inserted] = SeenClauses.try_emplace(Name, NameTok);
    if (!Inserted) {
      diag(Diag::RepeatedClause, NameTok, {Name});
      diag(Diag::NotePreviousClause, It->second, {Name});
    }
    PragmaClauses &Into = Inserted ? Clauses : Scratch;

    if (Name == "noalias" || Name == "fastmath") {
      (Name == "noalias" ? Into.NoAlias : Into.FastMath) = true;
      if (tok().isPunct("(")) {
        diag(Diag::ClauseTakesNoArguments, Pos, {Name});
        Pos = skipParens(Pos);
      }
      return true;
    }
    if (!tok().isPunct("("))
      return expectedAfter("'('", Name);
    size_t Open = Pos;
    consume();
    bool OK = false;
    if (Name == "launch") {
      OK = parseLaunch(Into.Launch.emplace());
    } else if (Name == "args") {
      Into.ArgsToken = unsigned(NameTok);
      OK = parseArgs(Into.Args.emplace());
    } else if (Name == "buffers") {
      Into.BuffersToken = unsigned(NameTok);
      OK = parseBuffers(Into.Buffers.emplace());
    } else if (Name == "tol")
      OK = parseTol(Into.Tol.emplace());
    else if (Name == "budget")
      OK = parseBudget(Into.Budget.emplace());
    else if (Name == "skills")
      OK = parseSkills(Into.Skills.emplace());
    else if (Name == "engine")
      OK = parseEngine(Into.Engine);
    else if (Name == "instantiation") {
      Into.InstantiationToken = unsigned(NameTok);
      OK = parseInstantiation(Into.Instantiation);
    } else if (Name == "repeat") {
      Into.RepeatToken = unsigned(NameTok);
      OK = parseRepeat(Into.Repeat);
    }
    if (!OK)
      Pos = skipParens(Open); // Go on after the clause.
    return true;
  }

  bool parseLaunch(LaunchClause &L) {
    static constexpr llvm::StringRef Sections[] = {"grid", "block", "smem"};
    llvm::StringMap<size_t> Seen;
    while (!(tok().isPunct(")") && !Seen.empty())) {
      if (!tok().is(TokKind::Identifier))
        return expectedIn("'grid', 'block' or 'smem'", "launch");
      std::string Section = tok().Text;
      if (!llvm::is_contained(Sections, Section))
        return unknownKey("launch section", "launch", Sections, "'grid', 'block' or 'smem'");
      if (!checkRepeated(Seen, Section, "launch", Pos))
        return false;
      (Section == "grid" ? L.GridToken : L.BlockToken) = unsigned(Pos);
      consume();
      if (!consumePunct(":"))
        return expectedAfter("':'", Section);
      if (Section == "smem") {
        std::optional<ClauseExpr> E = parseExpr({"the shared memory size", true, false});
        if (!E)
          return false;
        L.SharedMemory = std::move(*E);
      } else {
        std::vector<ClauseExpr> &Dims = Section == "grid" ? L.Grid : L.Block;
        do {
          if (Dims.size() == 3) {
            diag(Diag::TooManyDimensions, Pos, {Section});
            return false;
          }
          std::optional<ClauseExpr> E = parseExpr({"a launch dimension", true, false});
          if (!E)
            return false;
          Dims.push_back(std::move(*E));
        } while (consumePunct(","));
      }
      if (consumePunct(";"))
        continue;
      if (!tok().isPunct(")"))
        return expectedIn("';' or ')'", "launch");
    }
    for (llvm::StringRef Required : {"grid", "block"})
      if (!Seen.count(Required)) {
        diag(Diag::MissingKey, Pos, {"launch", "'" + Required.str() + ": ...'"});
        return false;
      }
    consume(); // ')'
    return true;
  }

  bool parseArgs(std::vector<ArgValue> &Args) {
    llvm::StringMap<size_t> Seen;
    bool OK = true;
    do {
      if (!tok().is(TokKind::Identifier))
        return expectedIn("a parameter name", "args");
      ArgValue A;
      A.Name = tok().Text;
      A.NameToken = unsigned(Pos);
      if (!checkRepeated(Seen, A.Name, "args", Pos))
        return false;
      consume();
      if (!consumePunct("="))
        return expectedAfter("'='", A.Name);
      ExprContext Value{"the value of '" + A.Name + "'", false, false, true};
      std::optional<ClauseExpr> E = parseExpr(Value);
      if (!E)
        return false;
      A.Value = std::move(*E);
      while (consumePunct("|")) {
        std::optional<ClauseExpr> More = parseExpr(Value);
        if (!More)
          return false;
        A.MoreValues.push_back(std::move(*More));
      }
      Args.push_back(std::move(A));
    } while (continueList("args", OK));
    return OK;
  }

  bool parseBuffers(std::vector<BufferSpec> &Buffers) {
    static constexpr llvm::StringRef Directions[] = {"in", "out", "inout", "range", "tol"};
    llvm::StringMap<size_t> Seen;
    bool OK = true;
    do {
      if (!tok().is(TokKind::Identifier))
        return expectedIn("a parameter name", "buffers");
      BufferSpec B;
      B.Name = tok().Text;
      B.NameToken = unsigned(Pos);
      if (!checkRepeated(Seen, B.Name, "buffers", Pos))
        return false;
      consume();
      if (!consumePunct("["))
        return expectedAfter("'['", B.Name);
      std::optional<ClauseExpr> E = parseExpr({"a buffer size", true, false});
      if (!E)
        return false;
      B.Size = std::move(*E);
      if (!consumePunct("]"))
        return expectedIn("']'", "buffers");
      if (tok().is(TokKind::Identifier) && !tok().isIdentifier("range") &&
          !tok().isIdentifier("tol")) {
        if (tok().Text == "in")
          B.Access = BufferAccess::In;
        else if (tok().Text == "out")
          B.Access = BufferAccess::Out;
        else if (tok().Text == "inout")
          B.Access = BufferAccess::InOut;
        else
          return unknownKey("buffer direction", "buffers", Directions,
                            "'in', 'out' or 'inout', then 'range(lo, hi)' or 'tol(...)'");
        B.AccessToken = unsigned(Pos);
        consume();
      }
      if (!parseBufferItems(B))
        return false;
      Buffers.push_back(std::move(B));
    } while (continueList("buffers", OK));
    return OK;
  }

  // range(lo, hi) and tol(...) after a buffer, in any order, each at most once.
  bool parseBufferItems(BufferSpec &B) {
    static constexpr llvm::StringRef Items[] = {"range", "tol"};
    llvm::StringMap<size_t> Seen;
    while (tok().is(TokKind::Identifier)) {
      std::string Item = tok().Text;
      if (!llvm::is_contained(Items, Item)) {
        // "x[n] in y[n]": the next buffer, a comma missing.
        if (peek().isPunct("["))
          return expectedIn("',' or ')'", "buffers");
        return unknownKey("buffer item", "buffers", Items, "'range(lo, hi)' or 'tol(...)'");
      }
      if (!checkRepeated(Seen, Item, "'" + B.Name + "' of the buffers", Pos))
        return false;
      size_t ItemTok = Pos;
      consume();
      if (!consumePunct("("))
        return expectedAfter("'('", Item);
      if (Item == "tol") {
        B.TolToken = unsigned(ItemTok);
        if (!parseTol(B.Tol.emplace()))
          return false;
        continue;
      }
      ValueRangeSpec R;
      R.Token = unsigned(ItemTok);
      std::optional<ClauseExpr> Low = parseExpr({"a range bound", false, false});
      if (!Low)
        return false;
      if (!consumePunct(","))
        return expectedIn("','", "range");
      std::optional<ClauseExpr> High = parseExpr({"a range bound", false, false});
      if (!High)
        return false;
      if (!consumePunct(")"))
        return expectedIn("')'", "range");
      R.Low = std::move(*Low);
      R.High = std::move(*High);
      B.Range = std::move(R);
    }
    return true;
  }

  bool parseTol(ToleranceClause &T) {
    static constexpr llvm::StringRef Keys[] = {"rtol", "atol"};
    llvm::StringMap<size_t> Seen;
    bool OK = true;
    do {
      if (!tok().is(TokKind::Identifier))
        return expectedIn("'rtol' or 'atol'", "tol");
      std::string Key = tok().Text;
      if (!llvm::is_contained(Keys, Key))
        return unknownKey("tolerance", "tol", Keys, "'rtol' or 'atol'");
      if (!checkRepeated(Seen, Key, "tol", Pos))
        return false;
      consume();
      if (!consumePunct("="))
        return expectedAfter("'='", Key);
      size_t Start = Pos;
      std::optional<ClauseNumber> V = parseConstant("'" + Key + "'", false);
      if (!V)
        return false;
      double Value = std::visit([](auto X) { return double(X); }, *V);
      if (!(Value >= 0) || !std::isfinite(Value)) {
        diag(Diag::ValueOutOfRange, Start, {"'" + Key + "'", "non-negative", textOf(Start, Pos)});
        return false;
      }
      (Key == "rtol" ? T.Rtol : T.Atol) = Value;
    } while (continueList("tol", OK));
    return OK;
  }

  bool parseBudget(BudgetClause &B) {
    static constexpr llvm::StringRef Keys[] = {"time", "evals", "tokens"};
    llvm::StringMap<size_t> Seen;
    bool OK = true;
    do {
      if (!tok().is(TokKind::Identifier))
        return expectedIn("'time', 'evals' or 'tokens'", "budget");
      std::string Key = tok().Text;
      if (!llvm::is_contained(Keys, Key))
        return unknownKey("budget item", "budget", Keys, "'time', 'evals' or 'tokens'");
      if (!checkRepeated(Seen, Key, "budget", Pos))
        return false;
      consume();
      if (!consumePunct("="))
        return expectedAfter("'='", Key);
      if (Key == "time") {
        if (!parseDuration(B.TimeSeconds))
          return false;
        continue;
      }
      size_t Start = Pos;
      std::optional<ClauseNumber> V = parseConstant("'" + Key + "'", true);
      if (!V)
        return false;
      int64_t Value = std::get<int64_t>(*V); // An integer expression has an integer value.
      if (Value <= 0) {
        diag(Diag::ValueOutOfRange, Start, {"'" + Key + "'", "positive", textOf(Start, Pos)});
        return false;
      }
      (Key == "evals" ? B.Evals : B.Tokens) = Value;
    } while (continueList("budget", OK));
    return OK;
  }

  // A pp-number with a unit suffix (60s, 1.5m, 500ms), or a number and a unit.
  bool parseDuration(std::optional<double> &Seconds) {
    if (!tok().is(TokKind::Number))
      return expectedAfter("a duration such as 60s", "time =");
    llvm::StringRef Text = tok().Text;
    size_t NumberEnd = 0;
    while (NumberEnd < Text.size() && (llvm::isDigit(Text[NumberEnd]) || Text[NumberEnd] == '.'))
      ++NumberEnd;
    if (NumberEnd < Text.size() && (Text[NumberEnd] == 'e' || Text[NumberEnd] == 'E')) {
      size_t Exp = NumberEnd + 1;
      if (Exp < Text.size() && (Text[Exp] == '+' || Text[Exp] == '-'))
        ++Exp;
      if (Exp < Text.size() && llvm::isDigit(Text[Exp])) {
        while (Exp < Text.size() && llvm::isDigit(Text[Exp]))
          ++Exp;
        NumberEnd = Exp;
      }
    }
    llvm::StringRef Unit = Text.substr(NumberEnd);
    size_t NumberTok = Pos;
    consume();
    if (Unit.empty()) {
      if (!(tok().is(TokKind::Identifier) && secondsPerUnit(tok().Text))) {
        diag(Diag::ExpectedTimeUnit, NumberTok, {Text.str()});
        return false;
      }
      Unit = tok().Text;
      consume();
    } else if (!secondsPerUnit(Unit)) {
      diag(Diag::UnknownTimeUnit, NumberTok, {Unit.str(), Text.str()});
      return false;
    }
    llvm::Expected<ClauseNumber> N = parseNumberLiteral(Text.substr(0, NumberEnd));
    if (!N) {
      bool TooLarge = llvm::errorToErrorCode(N.takeError()) == std::errc::result_out_of_range;
      diag(TooLarge ? Diag::NumberTooLarge : Diag::InvalidNumber, NumberTok, {Text.str()});
      return false;
    }
    double Value = std::visit([](auto V) { return double(V); }, *N);
    double Scale = *secondsPerUnit(Unit);
    if (!(Value > 0) || !std::isfinite(Value * Scale)) {
      diag(Diag::ValueOutOfRange, NumberTok, {"'time'", "positive", textOf(NumberTok, Pos)});
      return false;
    }
    Seconds = Value * Scale;
    return true;
  }

  bool parseSkills(std::vector<SkillToggle> &Skills) {
    llvm::StringMap<size_t> Seen;
    bool OK = true;
    do {
      SkillToggle S;
      if (consumePunct("-"))
        S.Enabled = false;
      else
        consumePunct("+");
      if (!tok().is(TokKind::Identifier))
        return expectedIn("a skill id", "skills");
      size_t IdTok = Pos;
      S.Token = unsigned(IdTok);
      S.Id = tok().Text;
      consume();
      // Ids may be hyphenated: vectorize-loads (no spaces around the '-').
      while (tok().isPunct("-") && !tok().LeadingSpace && !peek().LeadingSpace &&
             (peek().is(TokKind::Identifier) || peek().is(TokKind::Number))) {
        consume();
        S.Id += "-" + tok().Text;
        consume();
      }
      if (!checkRepeated(Seen, S.Id, "skills", IdTok))
        return false;
      Skills.push_back(std::move(S));
    } while (continueList("skills", OK));
    return OK;
  }

  bool parseEngine(std::optional<EngineKind> &Engine) {
    static constexpr llvm::StringRef Engines[] = {"skills", "llm", "auto"};
    if (!tok().is(TokKind::Identifier))
      return expectedIn("'skills', 'llm' or 'auto'", "engine");
    if (tok().Text == "skills")
      Engine = EngineKind::Skills;
    else if (tok().Text == "llm")
      Engine = EngineKind::Llm;
    else if (tok().Text == "auto")
      Engine = EngineKind::Auto;
    else
      return unknownKey("engine", "engine", Engines, "'skills', 'llm' or 'auto'");
    consume();
    if (!consumePunct(")"))
      return expectedIn("')'", "engine");
    return true;
  }

  // repeat(N): a constant integer, at least 1 (its upper limit is the
  // workload check's, WorkloadCheck.h).
  bool parseRepeat(std::optional<int64_t> &Launches) {
    size_t Start = Pos;
    std::optional<ClauseNumber> V = parseConstant("'repeat'", true);
    if (!V)
      return false;
    int64_t Value = std::get<int64_t>(*V); // An integer expression has an integer value.
    if (Value < 1) {
      diag(Diag::ValueOutOfRange, Start, {"'repeat'", "at least 1", textOf(Start, Pos)});
      return false;
    }
    if (!consumePunct(")"))
      return expectedIn("')'", "repeat");
    Launches = Value;
    return true;
  }

  // instantiation(ARGS): a kernel template's arguments as the code writes them
  // between '<' and '>' (macros expanded), e.g. instantiation(float, 128).
  bool parseInstantiation(std::optional<std::string> &Args) {
    size_t Close = skipParens(Pos - 1);
    if (Close == Pos || !Toks[Close - 1].isPunct(")"))
      return expectedIn("')'", "instantiation");
    if (Close - 1 == Pos)
      return expectedIn("template arguments", "instantiation");
    Args = textOf(Pos, Close - 1);
    Pos = Close;
    return true;
  }

  // --- Expressions --------------------------------------------------------
  std::optional<ClauseExpr> parseExpr(const ExprContext &Ctx) {
    size_t Start = Pos;
    ExprNodes = 0;
    std::shared_ptr<const ExprNode> Root = parseConditional(0);
    if (!Root)
      return std::nullopt;
    if (isUnsupportedAfter(tok(), Ctx)) {
      unsupported(Pos, "operator '" + tok().Text + "'");
      return std::nullopt;
    }
    if (Ctx.IntegerOnly) {
      const ExprNode *Cause = nullptr;
      // Names are checked against the kernel's parameters later (KernelBinding.h).
      NumKind Kind = staticKind(*Root, [](const ExprNode &) { return NumKind::Integer; }, &Cause);
      if (Kind != NumKind::Integer && Cause) {
        if (Cause->Kind == ExprKind::Float)
          diag(Diag::ExpectedInteger, Cause->Token, {Ctx.What, Cause->Spelling});
        else
          diag(Diag::ExpectedIntegerValue, Cause->Token, {Ctx.What, describeNode(*Cause)});
        return std::nullopt;
      }
    }
    if (Ctx.ConstantOnly) {
      std::vector<const ExprNode *> Names;
      collectNames(*Root, Names);
      if (!Names.empty()) {
        diag(Diag::ExpectedConstant, Names.front()->Token, {Ctx.What, Names.front()->Spelling});
        return std::nullopt;
      }
    }
    return ClauseExpr{std::move(Root), textOf(Start, Pos)};
  }

  static bool isUnsupportedAfter(const ClauseToken &T, const ExprContext &Ctx) {
    if (!T.is(TokKind::Punct) || (Ctx.Alternatives && T.Text == "|"))
      return false;
    return llvm::is_contained(UnsupportedAfter, T.Text);
  }

  void unsupported(size_t Token, const std::string &What) {
    diag(Diag::UnsupportedInExpression, Token, {What});
  }

  // A constant expression's value (an integer one where Integer is set).
  std::optional<ClauseNumber> parseConstant(const std::string &What, bool Integer) {
    size_t Start = Pos;
    std::optional<ClauseExpr> E = parseExpr({What, Integer, true});
    if (!E)
      return std::nullopt;
    llvm::Expected<ClauseNumber> V = evaluateNumber(*E, {});
    if (!V) {
      diag(Diag::CannotEvaluate, Start, {llvm::toString(V.takeError())});
      return std::nullopt;
    }
    return *V;
  }

  using NodePtr = std::shared_ptr<const ExprNode>;

  std::shared_ptr<ExprNode> makeNode(ExprKind K, size_t Token, NodePtr L = nullptr,
                                     NodePtr R = nullptr) {
    auto N = std::make_shared<ExprNode>();
    N->Kind = K;
    N->Token = unsigned(Token);
    N->Depth = 1 + std::max(L ? L->Depth : 0, R ? R->Depth : 0);
    N->LHS = std::move(L);
    N->RHS = std::move(R);
    if (++ExprNodes > MaxExprNodes) {
      diag(Diag::ExpressionTooLong, Token, {std::to_string(MaxExprNodes)});
      return nullptr;
    }
    return N;
  }

  // One level of left-associative binary operators over Operand.
  template <typename OperandFn>
  NodePtr parseBinary(unsigned Depth, OperandFn Operand,
                      std::initializer_list<std::pair<llvm::StringRef, ExprKind>> Ops) {
    NodePtr L = Operand(Depth);
    while (L) {
      const auto *Op = std::find_if(Ops.begin(), Ops.end(),
                                    [&](const auto &O) { return tok().isPunct(O.first); });
      if (Op == Ops.end())
        break;
      size_t OpTok = Pos;
      consume();
      NodePtr R = Operand(Depth);
      if (!R)
        return nullptr;
      L = makeNode(Op->second, OpTok, std::move(L), std::move(R));
    }
    return L;
  }

  // C's precedence: ?: (right-associative), ||, &&, equality, relational, shift.
  NodePtr parseConditional(unsigned Depth) {
    NodePtr C = parseLogicalOr(Depth);
    if (!C || !tok().isPunct("?"))
      return C;
    size_t OpTok = Pos;
    consume();
    NodePtr Then = parseConditional(Depth + 1);
    if (!Then)
      return nullptr;
    if (!consumePunct(":")) {
      expectedAfter("':'", "? " + printExpr(*Then));
      return nullptr;
    }
    NodePtr Else = parseConditional(Depth + 1);
    if (!Else)
      return nullptr;
    std::shared_ptr<ExprNode> N =
        makeNode(ExprKind::Conditional, OpTok, std::move(Then), std::move(Else));
    if (N) {
      N->Depth = std::max(N->Depth, C->Depth + 1);
      N->Cond = std::move(C);
    }
    return N;
  }
  NodePtr parseLogicalOr(unsigned Depth) {
    return parseBinary(Depth, [this](unsigned D) { return parseLogicalAnd(D); },
                       {{"||", ExprKind::LogicalOr}});
  }
  NodePtr parseLogicalAnd(unsigned Depth) {
    return parseBinary(Depth, [this](unsigned D) { return parseEquality(D); },
                       {{"&&", ExprKind::LogicalAnd}});
  }
  NodePtr parseEquality(unsigned Depth) {
    return parseBinary(Depth, [this](unsigned D) { return parseRelational(D); },
                       {{"==", ExprKind::Equal}, {"!=", ExprKind::NotEqual}});
  }
  NodePtr parseRelational(unsigned Depth) {
    return parseBinary(Depth, [this](unsigned D) { return parseShift(D); },
                       {{"<", ExprKind::Less},
                        {">", ExprKind::Greater},
                        {"<=", ExprKind::LessEqual},
                        {">=", ExprKind::GreaterEqual}});
  }
  NodePtr parseShift(unsigned Depth) {
    return parseBinary(Depth, [this](unsigned D) { return parseSum(D); },
                       {{"<<", ExprKind::Shl}, {">>", ExprKind::Shr}});
  }
  NodePtr parseSum(unsigned Depth) {
    return parseBinary(Depth, [this](unsigned D) { return parseProduct(D); },
                       {{"+", ExprKind::Add}, {"-", ExprKind::Sub}});
  }
  NodePtr parseProduct(unsigned Depth) {
    return parseBinary(Depth, [this](unsigned D) { return parseUnary(D); },
                       {{"*", ExprKind::Mul}, {"/", ExprKind::Div}, {"%", ExprKind::Rem}});
  }

  NodePtr parseUnary(unsigned Depth) {
    if (Depth >= MaxExprNesting) {
      diag(Diag::ExpressionTooDeep, Pos);
      return nullptr;
    }
    if (tok().isPunct("-")) {
      size_t OpTok = Pos;
      consume();
      NodePtr Operand = parseUnary(Depth + 1);
      return Operand ? makeNode(ExprKind::Negate, OpTok, std::move(Operand)) : nullptr;
    }
    if (consumePunct("+"))
      return parseUnary(Depth + 1);
    if (tok().isPunct("!")) {
      size_t OpTok = Pos;
      consume();
      NodePtr Operand = parseUnary(Depth + 1);
      return Operand ? makeNode(ExprKind::LogicalNot, OpTok, std::move(Operand)) : nullptr;
    }
    if (std::optional<size_t> Close = castAt(Pos)) {
      size_t Open = Pos;
      std::optional<ClauseType> T = typeBetween(Pos + 1, *Close);
      if (!T)
        return nullptr;
      if (!T->Scalar) {
        diag(Diag::CastToNonScalar, Pos + 1, {T->Spelling});
        return nullptr;
      }
      Pos = *Close + 1;
      NodePtr Operand = parseUnary(Depth + 1);
      if (!Operand)
        return nullptr;
      std::shared_ptr<ExprNode> N = makeNode(ExprKind::Cast, Open, std::move(Operand));
      if (N)
        N->Type = std::move(T);
      return N;
    }
    return parsePrimary(Depth);
  }

  // Where '(' at Open starts a cast, the index of its ')': the words between
  // begin a type name, and nothing but identifiers and '::' stands there.
  std::optional<size_t> castAt(size_t Open) const {
    if (!Toks[Open].isPunct("(") || !Toks[Open + 1].is(TokKind::Identifier) ||
        !beginsTypeName(Toks[Open + 1].Text))
      return std::nullopt;
    size_t I = Open + 1;
    while (Toks[I].is(TokKind::Identifier) || Toks[I].isPunct("::"))
      ++I;
    return Toks[I].isPunct(")") ? std::optional<size_t>(I) : std::nullopt;
  }

  // The type named by the tokens [Begin, End): identifiers and '::'.
  std::optional<ClauseType> typeBetween(size_t Begin, size_t End) {
    std::string Words;
    for (size_t I = Begin; I < End; ++I) {
      if (!Words.empty() && Toks[I].is(TokKind::Identifier) && !Toks[I - 1].isPunct("::"))
        Words += ' ';
      Words += Toks[I].Text;
    }
    std::optional<ClauseType> T = clauseTypeNamed(Words);
    if (!T)
      diag(Diag::UnknownTypeName, Begin, {Words});
    return T;
  }

  // sizeof(T): T a scalar or CUDA vector type.
  NodePtr parseSizeof(size_t Token) {
    consume(); // 'sizeof'
    size_t Open = Pos;
    if (!tok().isPunct("(")) {
      diag(Diag::SizeofNeedsType, Pos);
      return nullptr;
    }
    size_t Close = Open + 1;
    while (Toks[Close].is(TokKind::Identifier) || Toks[Close].isPunct("::"))
      ++Close;
    if (Close == Open + 1 || !Toks[Close].isPunct(")")) {
      diag(Diag::SizeofNeedsType, Open + 1);
      return nullptr;
    }
    std::optional<ClauseType> T = typeBetween(Open + 1, Close);
    if (!T)
      return nullptr;
    Pos = Close + 1;
    std::shared_ptr<ExprNode> N = makeNode(ExprKind::Sizeof, Token);
    if (N) {
      N->IntValue = T->Bytes;
      N->Type = std::move(T);
    }
    return N;
  }

  // NAME '(' args ')' where NAME (Spelling, from token Token) is a clause function.
  NodePtr parseCall(size_t Token, std::string Name, unsigned Depth) {
    consume(); // '('
    unsigned Arity = clauseFunctionArity(Name);
    NodePtr Args[2];
    for (unsigned I = 0; I < Arity; ++I) {
      if (I > 0 && !consumePunct(",")) {
        diag(Diag::FunctionArguments, Pos, {Name, std::to_string(Arity), describeToken(tok())});
        return nullptr;
      }
      Args[I] = parseConditional(Depth + 1);
      if (!Args[I])
        return nullptr;
    }
    if (!consumePunct(")")) {
      diag(Diag::FunctionArguments, Pos, {Name, std::to_string(Arity), describeToken(tok())});
      return nullptr;
    }
    std::shared_ptr<ExprNode> N =
        makeNode(ExprKind::Call, Token, std::move(Args[0]), std::move(Args[1]));
    if (N)
      N->Spelling = std::move(Name);
    return N;
  }

  NodePtr parsePrimary(unsigned Depth) {
    size_t Token = Pos;
    const ClauseToken &T = tok();
    if (T.is(TokKind::Number)) {
      llvm::Expected<ClauseNumber> V = parseNumberLiteral(T.Text);
      if (!V) {
        bool TooLarge = llvm::errorToErrorCode(V.takeError()) == std::errc::result_out_of_range;
        diag(TooLarge ? Diag::NumberTooLarge : Diag::InvalidNumber, Token, {T.Text});
        return nullptr;
      }
      bool Floating = std::holds_alternative<double>(*V);
      std::shared_ptr<ExprNode> N = makeNode(Floating ? ExprKind::Float : ExprKind::Integer, Token);
      if (!N)
        return nullptr;
      N->Spelling = T.Text;
      if (Floating) {
        N->FloatValue = std::get<double>(*V);
        N->SinglePrecision = llvm::StringRef(T.Text).ends_with_insensitive("f") &&
                             !llvm::StringRef(T.Text).starts_with_insensitive("0x");
      } else {
        N->IntValue = std::get<int64_t>(*V);
      }
      consume();
      return N;
    }
    // std::ceil(...) and ::ceil(...): a qualified function.
    std::string Qualifier;
    if (T.isIdentifier("std") && peek().isPunct("::")) {
      Qualifier = "std::";
      Pos += 2;
    } else if (T.isPunct("::") && peek().is(TokKind::Identifier)) {
      Qualifier = "::";
      Pos += 1;
    }
    if (tok().is(TokKind::Identifier)) {
      std::string Name = Qualifier + tok().Text;
      if (Name == "sizeof")
        return parseSizeof(Token);
      if (peek().isPunct("(")) {
        if (!isClauseFunction(Name)) {
          unsupported(Token, "a call to '" + Name + "'");
          return nullptr;
        }
        consume();
        return parseCall(Token, std::move(Name), Depth);
      }
      // A qualified name (Mode::Fast, ns::MODE_0, ::MODE_0) can only be an
      // enumerator, which the front end replaces by its value.
      while (peek().isPunct("::") &&
             Toks[std::min(Pos + 2, Toks.size() - 1)].is(TokKind::Identifier)) {
        Pos += 2;
        Name += "::" + tok().Text;
      }
      if (peek().isPunct("(")) {
        unsupported(Token, "a call to '" + Name + "'");
        return nullptr;
      }
      std::shared_ptr<ExprNode> N = makeNode(ExprKind::Name, Token);
      if (!N)
        return nullptr;
      N->Spelling = std::move(Name);
      consume();
      return N;
    }
    if (T.isPunct("(")) {
      // (T)x with a type kopt does not know: say so rather than "expected ')'".
      if (peek().is(TokKind::Identifier) && Toks[std::min(Pos + 2, Toks.size() - 1)].isPunct(")") &&
          startsOperand(Toks[std::min(Pos + 3, Toks.size() - 1)])) {
        diag(Diag::UnknownTypeName, Pos + 1, {peek().Text});
        return nullptr;
      }
      consume();
      NodePtr Inner = parseConditional(Depth + 1);
      if (!Inner)
        return nullptr;
      if (!consumePunct(")")) {
        if (isUnsupportedAfter(tok(), ExprContext{}))
          unsupported(Pos, "operator '" + tok().Text + "'");
        else {
          diag(Diag::ExpectedCloseParen, Pos, {describeToken(tok())});
          diag(Diag::NoteMatchingParen, Token);
        }
        return nullptr;
      }
      return Inner;
    }
    if (T.is(TokKind::Punct) && llvm::is_contained(UnsupportedBefore, T.Text)) {
      unsupported(Token, "operator '" + T.Text + "'");
      return nullptr;
    }
    diag(Diag::ExpectedExpression, Token, {describeToken(T)});
    return nullptr;
  }

  // A token that can begin an operand (after a cast's ')').
  static bool startsOperand(const ClauseToken &T) {
    return T.is(TokKind::Identifier) || T.is(TokKind::Number) || T.isPunct("(");
  }

  llvm::ArrayRef<ClauseToken> Toks;
  size_t Pos = 0;
  unsigned ExprNodes = 0; // Made for the expression being parsed.
  PragmaClauses Clauses;
  llvm::StringMap<size_t> SeenClauses;
  PragmaParseResult Result;
};

} // namespace

PragmaParseResult parsePragma(llvm::ArrayRef<ClauseToken> Tokens) {
  if (!Tokens.empty() && Tokens.back().is(TokKind::End))
    return ClauseParser(Tokens).run();
  std::vector<ClauseToken> Terminated(Tokens.begin(), Tokens.end());
  ClauseToken End;
  End.Offset =
      Terminated.empty() ? 0 : Terminated.back().Offset + unsigned(Terminated.back().Text.size());
  Terminated.push_back(End);
  return ClauseParser(Terminated).run();
}

PragmaParseResult parsePragmaText(llvm::StringRef Text) { return parsePragma(lexPragmaText(Text)); }

llvm::Expected<ClauseExpr> parseExprText(llvm::StringRef Text) {
  std::vector<ClauseToken> Tokens = lexPragmaText(Text);
  auto [Expr, Diags] = ClauseParser(Tokens).runExpression();
  if (Expr)
    return std::move(*Expr);
  std::string Message = renderDiagnostics(Diags, Tokens);
  while (!Message.empty() && Message.back() == '\n')
    Message.pop_back();
  return llvm::createStringError("in '%s': %s", Text.str().c_str(), Message.c_str());
}

} // namespace kopt::frontend
