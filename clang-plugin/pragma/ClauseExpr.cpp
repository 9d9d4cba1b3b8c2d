#include "clang-plugin/pragma/ClauseExpr.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/MathExtras.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace kopt::frontend {

namespace {

llvm::Error failure(const llvm::Twine &Message) {
  return llvm::createStringError(std::make_error_code(std::errc::invalid_argument), Message);
}

const char *operatorSpelling(ExprKind K) {
  switch (K) {
  case ExprKind::Add:
    return "+";
  case ExprKind::Sub:
  case ExprKind::Negate:
    return "-";
  case ExprKind::Mul:
    return "*";
  case ExprKind::Div:
    return "/";
  case ExprKind::Rem:
    return "%";
  case ExprKind::Shl:
    return "<<";
  case ExprKind::Shr:
    return ">>";
  case ExprKind::Integer:
  case ExprKind::Float:
  case ExprKind::Name:
    break;
  }
  return "";
}

llvm::Expected<int64_t> integerOp(ExprKind K, int64_t L, int64_t R) {
  constexpr int64_t Min = std::numeric_limits<int64_t>::min();
  int64_t Result = 0;
  auto Overflow = [&] {
    return failure(llvm::Twine("integer overflow in '") + operatorSpelling(K) + "'");
  };
  switch (K) {
  case ExprKind::Add:
    if (llvm::AddOverflow(L, R, Result))
      return Overflow();
    return Result;
  case ExprKind::Sub:
    if (llvm::SubOverflow(L, R, Result))
      return Overflow();
    return Result;
  case ExprKind::Mul:
    if (llvm::MulOverflow(L, R, Result))
      return Overflow();
    return Result;
  case ExprKind::Div:
  case ExprKind::Rem:
    if (R == 0)
      return failure("division by zero");
    if (L == Min && R == -1)
      return Overflow();
    return K == ExprKind::Div ? L / R : L % R;
  case ExprKind::Shl:
  case ExprKind::Shr:
    if (R < 0 || R >= 64)
      return failure("shift by " + llvm::Twine(R) + " is out of range (0 to 63)");
    if (K == ExprKind::Shr)
      return L >> R;
    if (L < 0)
      return failure("left shift of a negative value");
    if (L > (std::numeric_limits<int64_t>::max() >> R))
      return Overflow();
    return L << R;
  case ExprKind::Integer:
  case ExprKind::Float:
  case ExprKind::Name:
  case ExprKind::Negate:
    break;
  }
  return failure("not a binary operator");
}

llvm::Expected<double> floatOp(ExprKind K, double L, double R) {
  switch (K) {
  case ExprKind::Add:
    return L + R;
  case ExprKind::Sub:
    return L - R;
  case ExprKind::Mul:
    return L * R;
  case ExprKind::Div:
    if (R == 0)
      return failure("division by zero");
    return L / R;
  default:
    return failure(llvm::Twine("operands of '") + operatorSpelling(K) + "' must be integers");
  }
}

double toDouble(const ClauseNumber &V) {
  if (const int64_t *I = std::get_if<int64_t>(&V))
    return static_cast<double>(*I);
  return std::get<double>(V);
}

class Evaluator {
public:
  explicit Evaluator(const NumberBindings &Bindings) : Names(Bindings) {}

  llvm::Expected<ClauseNumber> eval(const ExprNode &N) {
    switch (N.Kind) {
    case ExprKind::Integer:
      return ClauseNumber(N.IntValue);
    case ExprKind::Float:
      return ClauseNumber(N.FloatValue);
    case ExprKind::Name: {
      auto It = Names.find(N.Spelling);
      if (It == Names.end())
        return failure("no value for '" + N.Spelling + "'");
      return It->second;
    }
    case ExprKind::Negate: {
      if (!N.LHS)
        return failure("malformed expression");
      llvm::Expected<ClauseNumber> V = eval(*N.LHS);
      if (!V)
        return V.takeError();
      if (const int64_t *I = std::get_if<int64_t>(&*V)) {
        if (*I == std::numeric_limits<int64_t>::min())
          return failure("integer overflow in '-'");
        return ClauseNumber(-*I);
      }
      return ClauseNumber(-std::get<double>(*V));
    }
    default:
      break;
    }
    if (!N.LHS || !N.RHS)
      return failure("malformed expression");
    llvm::Expected<ClauseNumber> L = eval(*N.LHS);
    if (!L)
      return L.takeError();
    llvm::Expected<ClauseNumber> R = eval(*N.RHS);
    if (!R)
      return R.takeError();
    const int64_t *LI = std::get_if<int64_t>(&*L);
    const int64_t *RI = std::get_if<int64_t>(&*R);
    if (LI && RI) {
      llvm::Expected<int64_t> V = integerOp(N.Kind, *LI, *RI);
      if (!V)
        return V.takeError();
      return ClauseNumber(*V);
    }
    llvm::Expected<double> V = floatOp(N.Kind, toDouble(*L), toDouble(*R));
    if (!V)
      return V.takeError();
    return ClauseNumber(*V);
  }

private:
  const NumberBindings &Names;
};

llvm::Error withContext(const ClauseExpr &E, llvm::Error Err) {
  std::string Message = llvm::toString(std::move(Err));
  return failure("cannot evaluate '" + E.Text + "': " + Message);
}

} // namespace

llvm::Expected<ClauseNumber> evaluateNumber(const ClauseExpr &E, const NumberBindings &Names) {
  if (!E.Root)
    return failure("empty expression");
  llvm::Expected<ClauseNumber> V = Evaluator(Names).eval(*E.Root);
  if (!V)
    return withContext(E, V.takeError());
  return V;
}

llvm::Expected<int64_t> evaluate(const ClauseExpr &E, const IntBindings &Names) {
  NumberBindings Numbers(Names.begin(), Names.end());
  llvm::Expected<ClauseNumber> V = evaluateNumber(E, Numbers);
  if (!V)
    return V.takeError();
  if (const int64_t *I = std::get_if<int64_t>(&*V))
    return *I;
  return failure("cannot evaluate '" + E.Text + "': not an integer expression");
}

llvm::Expected<ClauseNumber> parseNumberLiteral(llvm::StringRef Spelling) {
  auto Invalid = [&] {
    return llvm::createStringError(std::make_error_code(std::errc::invalid_argument),
                                   "invalid number '%s'", Spelling.str().c_str());
  };
  std::string Clean;
  for (char C : Spelling)
    if (C != '\'')
      Clean.push_back(C);
  llvm::StringRef S = Clean;
  if (S.empty() || !(llvm::isDigit(S[0]) || (S[0] == '.' && S.size() > 1 && llvm::isDigit(S[1]))))
    return Invalid();
  bool Hex = S.starts_with_insensitive("0x");
  bool Binary = S.starts_with_insensitive("0b");
  bool Floating = Hex ? S.find_first_of(".pP") != llvm::StringRef::npos
                      : !Binary && S.find_first_of(".eE") != llvm::StringRef::npos;

  if (Floating) {
    if (S.ends_with("f") || S.ends_with("F") || S.ends_with("l") || S.ends_with("L"))
      S = S.drop_back();
    std::string Digits = S.str();
    char *End = nullptr;
    errno = 0;
    double V = std::strtod(Digits.c_str(), &End);
    if (End != Digits.c_str() + Digits.size())
      return Invalid();
    if (errno == ERANGE && !std::isfinite(V))
      return llvm::createStringError(std::make_error_code(std::errc::result_out_of_range),
                                     "floating-point literal '%s' is too large",
                                     Spelling.str().c_str());
    return ClauseNumber(V);
  }

  size_t Suffix = 0;
  while (Suffix < 3 && Suffix < S.size() &&
         llvm::StringRef("uUlL").contains(S[S.size() - 1 - Suffix]))
    ++Suffix;
  S = S.drop_back(Suffix);
  unsigned Radix = 10;
  if (Hex || Binary) {
    Radix = Hex ? 16 : 2;
    S = S.drop_front(2);
  } else if (S.size() > 1 && S[0] == '0') {
    Radix = 8;
    S = S.drop_front(1);
  }
  if (S.empty())
    return Invalid();
  for (char C : S) {
    unsigned Digit = llvm::isDigit(C)      ? unsigned(C - '0')
                     : llvm::isHexDigit(C) ? llvm::hexDigitValue(C)
                                           : 99;
    if (Digit >= Radix)
      return Invalid();
  }
  uint64_t V = 0;
  if (S.getAsInteger(Radix, V) || V > uint64_t(std::numeric_limits<int64_t>::max()))
    return llvm::createStringError(std::make_error_code(std::errc::result_out_of_range),
                                   "integer literal '%s' is too large", Spelling.str().c_str());
  return ClauseNumber(int64_t(V));
}

bool isIntegerExpr(const ExprNode &N) { return findFloatLiteral(N) == nullptr; }

const ExprNode *findFloatLiteral(const ExprNode &N) {
  if (N.Kind == ExprKind::Float)
    return &N;
  if (const ExprNode *F = N.LHS ? findFloatLiteral(*N.LHS) : nullptr)
    return F;
  return N.RHS ? findFloatLiteral(*N.RHS) : nullptr;
}

void collectNames(const ExprNode &N, std::vector<const ExprNode *> &Out) {
  if (N.Kind == ExprKind::Name)
    Out.push_back(&N);
  if (N.LHS)
    collectNames(*N.LHS, Out);
  if (N.RHS)
    collectNames(*N.RHS, Out);
}

std::string printExpr(const ExprNode &N) {
  switch (N.Kind) {
  case ExprKind::Integer:
    return std::to_string(N.IntValue);
  case ExprKind::Float:
  case ExprKind::Name:
    return N.Spelling;
  case ExprKind::Negate:
    return ("(-" + llvm::Twine(N.LHS ? printExpr(*N.LHS) : "?") + ")").str();
  default:
    return ("(" + llvm::Twine(N.LHS ? printExpr(*N.LHS) : "?") + " " + operatorSpelling(N.Kind) +
            " " + (N.RHS ? printExpr(*N.RHS) : "?") + ")")
        .str();
  }
}

} // namespace kopt::frontend
