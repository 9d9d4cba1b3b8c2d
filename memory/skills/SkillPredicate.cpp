#include "memory/skills/SkillPredicate.h"

#include "support/Spelling.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/raw_ostream.h>

#include <cctype>
#include <optional>
#include <vector>

namespace kopt::memory {

char PredicateError::ID;

void PredicateError::log(llvm::raw_ostream &OS) const {
  OS << "column " << Offset + 1 << ": " << Message;
}

// Values are doubles; booleans are 0 and 1; nullopt is unknown.
struct Predicate::Node {
  enum class Op { Number, Fact, Not, And, Or, Lt, Le, Gt, Ge, Eq, Ne };
  Op Kind = Op::Number;
  double Value = 0;
  std::string Name;
  std::shared_ptr<const Node> L, R;

  std::optional<double> eval(const Facts &F) const {
    switch (Kind) {
    case Op::Number:
      return Value;
    case Op::Fact:
      return F.get(Name);
    case Op::Not: {
      std::optional<double> V = L->eval(F);
      return V ? std::optional<double>(*V == 0) : std::nullopt;
    }
    case Op::And:
    case Op::Or: {
      // false dominates and, true dominates or, unknown otherwise.
      double Dominant = Kind == Op::And ? 0 : 1;
      std::optional<double> A = L->eval(F), B = R->eval(F);
      if ((A && *A == Dominant) || (B && *B == Dominant))
        return Dominant;
      if (!A || !B)
        return std::nullopt;
      return 1 - Dominant;
    }
    default:
      break;
    }
    std::optional<double> A = L->eval(F), B = R->eval(F);
    if (!A || !B)
      return std::nullopt;
    switch (Kind) {
    case Op::Lt:
      return *A < *B;
    case Op::Le:
      return *A <= *B;
    case Op::Gt:
      return *A > *B;
    case Op::Ge:
      return *A >= *B;
    case Op::Eq:
      return *A == *B;
    default:
      return *A != *B;
    }
  }
};

namespace {
using Node = Predicate::Node;
using NodePtr = std::shared_ptr<const Node>;

struct Typed {
  NodePtr N;
  FactType Type;
};

struct Token {
  enum class Kind { End, Number, Word, Symbol } K = Kind::End;
  std::string Text;
  size_t Offset = 0;
};

class Parser {
public:
  explicit Parser(llvm::StringRef Source) : Text(Source) { next(); }

  llvm::Expected<NodePtr> parseAll() {
    llvm::Expected<Typed> E = parseOr();
    if (!E)
      return E.takeError();
    if (Tok.K != Token::Kind::End)
      return error(Tok.Offset, "unexpected '" + Tok.Text + "'");
    if (E->Type != FactType::Boolean)
      return error(0, "the predicate is a number; compare it (for example 'x > 0')");
    return E->N;
  }

private:
  llvm::StringRef Text;
  size_t Pos = 0;
  Token Tok;

  static llvm::Error error(size_t Offset, const llvm::Twine &Message) {
    return llvm::make_error<PredicateError>(Offset, Message.str());
  }

  void next() {
    while (Pos < Text.size() && std::isspace(static_cast<unsigned char>(Text[Pos])))
      ++Pos;
    Tok = Token{Token::Kind::End, "", Pos};
    if (Pos >= Text.size())
      return;
    char C = Text[Pos];
    size_t Start = Pos;
    if (std::isdigit(static_cast<unsigned char>(C)) || C == '.') {
      while (Pos < Text.size() && (std::isalnum(static_cast<unsigned char>(Text[Pos])) ||
                                   Text[Pos] == '.' || Text[Pos] == '_'))
        ++Pos;
      Tok = {Token::Kind::Number, Text.slice(Start, Pos).str(), Start};
    } else if (std::isalpha(static_cast<unsigned char>(C)) || C == '_') {
      while (Pos < Text.size() &&
             (std::isalnum(static_cast<unsigned char>(Text[Pos])) || Text[Pos] == '_'))
        ++Pos;
      Tok = {Token::Kind::Word, Text.slice(Start, Pos).str(), Start};
    } else {
      llvm::StringRef Rest = Text.substr(Pos);
      size_t Len = Rest.starts_with("<=") || Rest.starts_with(">=") || Rest.starts_with("==") ||
                           Rest.starts_with("!=")
                       ? 2
                       : 1;
      Pos += Len;
      Tok = {Token::Kind::Symbol, Rest.take_front(Len).str(), Start};
    }
  }

  bool isWord(llvm::StringRef W) const { return Tok.K == Token::Kind::Word && Tok.Text == W; }

  llvm::Expected<Typed> parseLogic(bool IsOr) {
    llvm::StringRef Word = IsOr ? "or" : "and";
    llvm::Expected<Typed> L = IsOr ? parseLogic(false) : parseNot();
    if (!L)
      return L.takeError();
    while (isWord(Word)) {
      size_t At = Tok.Offset;
      next();
      llvm::Expected<Typed> R = IsOr ? parseLogic(false) : parseNot();
      if (!R)
        return R.takeError();
      if (L->Type != FactType::Boolean || R->Type != FactType::Boolean)
        return error(At, "'" + Word + "' needs boolean operands");
      auto N = std::make_shared<Node>();
      N->Kind = IsOr ? Node::Op::Or : Node::Op::And;
      N->L = L->N;
      N->R = R->N;
      L = Typed{N, FactType::Boolean};
    }
    return L;
  }
  llvm::Expected<Typed> parseOr() { return parseLogic(true); }

  llvm::Expected<Typed> parseNot() {
    if (!isWord("not"))
      return parseCompare();
    size_t At = Tok.Offset;
    next();
    llvm::Expected<Typed> E = parseNot();
    if (!E)
      return E.takeError();
    if (E->Type != FactType::Boolean)
      return error(At, "'not' needs a boolean operand");
    auto N = std::make_shared<Node>();
    N->Kind = Node::Op::Not;
    N->L = E->N;
    return Typed{N, FactType::Boolean};
  }

  llvm::Expected<Typed> parseCompare() {
    llvm::Expected<Typed> L = parsePrimary();
    if (!L)
      return L.takeError();
    static const std::pair<const char *, Node::Op> Ops[] = {
        {"<", Node::Op::Lt},  {"<=", Node::Op::Le}, {">", Node::Op::Gt},
        {">=", Node::Op::Ge}, {"==", Node::Op::Eq}, {"!=", Node::Op::Ne}};
    if (Tok.K != Token::Kind::Symbol)
      return L;
    for (const auto &[Spelling, Op] : Ops) {
      if (Tok.Text != Spelling)
        continue;
      size_t At = Tok.Offset;
      next();
      llvm::Expected<Typed> R = parsePrimary();
      if (!R)
        return R.takeError();
      bool Ordering = Op != Node::Op::Eq && Op != Node::Op::Ne;
      if (Ordering && (L->Type != FactType::Number || R->Type != FactType::Number))
        return error(At, "'" + llvm::Twine(Spelling) + "' compares numbers, not booleans");
      if (L->Type != R->Type)
        return error(At, "'" + llvm::Twine(Spelling) + "' compares a number with a boolean");
      auto N = std::make_shared<Node>();
      N->Kind = Op;
      N->L = L->N;
      N->R = R->N;
      return Typed{N, FactType::Boolean};
    }
    return L;
  }

  llvm::Expected<Typed> parsePrimary() {
    Token T = Tok;
    auto N = std::make_shared<Node>();
    switch (T.K) {
    case Token::Kind::End:
      return error(T.Offset, "expected a fact, a number or '(' at the end");
    case Token::Kind::Number: {
      if (llvm::StringRef(T.Text).getAsDouble(N->Value))
        return error(T.Offset, "invalid number '" + T.Text + "'");
      next();
      return Typed{N, FactType::Number};
    }
    case Token::Kind::Word: {
      if (T.Text == "true" || T.Text == "false") {
        N->Value = T.Text == "true";
        next();
        return Typed{N, FactType::Boolean};
      }
      if (T.Text == "and" || T.Text == "or" || T.Text == "not")
        return error(T.Offset, "expected a fact, a number or '(' before '" + T.Text + "'");
      const FactInfo *Info = findFact(T.Text);
      if (!Info)
        return error(T.Offset, "unknown fact '" + T.Text + "'" + suggestion(T.Text));
      N->Kind = Node::Op::Fact;
      N->Name = T.Text;
      next();
      return Typed{N, Info->Type};
    }
    case Token::Kind::Symbol:
      break;
    }
    if (T.Text != "(")
      return error(T.Offset, "unexpected '" + T.Text + "'");
    next();
    llvm::Expected<Typed> E = parseOr();
    if (!E)
      return E.takeError();
    if (Tok.Text != ")" || Tok.K != Token::Kind::Symbol)
      return error(Tok.Offset,
                   "expected ')' to close the '(' at column " + llvm::Twine(T.Offset + 1));
    next();
    return E;
  }

  static std::string suggestion(llvm::StringRef Name) {
    std::vector<llvm::StringRef> Names;
    for (const FactInfo &F : knownFacts())
      Names.push_back(F.Name);
    return didYouMean(closestSpelling(Name, Names, 3));
  }
};
} // namespace

llvm::Expected<Predicate> Predicate::parse(llvm::StringRef Text) {
  Parser P(Text);
  llvm::Expected<NodePtr> Root = P.parseAll();
  if (!Root)
    return Root.takeError();
  Predicate Out;
  Out.Text = Text.str();
  Out.Root = std::move(*Root);
  return Out;
}

Predicate Predicate::always() {
  Predicate Out;
  Out.Text = "true";
  auto N = std::make_shared<Node>();
  N->Value = 1;
  Out.Root = N;
  return Out;
}

bool Predicate::holds(const Facts &F) const {
  std::optional<double> V = Root->eval(F);
  return V && *V != 0;
}

} // namespace kopt::memory
