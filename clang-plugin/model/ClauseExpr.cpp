#include "clang-plugin/model/ClauseExpr.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/MathExtras.h>

#include <algorithm>
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
  case ExprKind::Less:
    return "<";
  case ExprKind::Greater:
    return ">";
  case ExprKind::LessEqual:
    return "<=";
  case ExprKind::GreaterEqual:
    return ">=";
  case ExprKind::Equal:
    return "==";
  case ExprKind::NotEqual:
    return "!=";
  case ExprKind::LogicalAnd:
    return "&&";
  case ExprKind::LogicalOr:
    return "||";
  case ExprKind::LogicalNot:
    return "!";
  case ExprKind::Conditional:
    return "?:";
  default:
    break;
  }
  return "";
}

// The function a call names, without std:: or ::.
llvm::StringRef baseFunction(llvm::StringRef Name) {
  Name.consume_front("std::");
  Name.consume_front("::");
  return Name;
}

// <cmath>'s one-argument functions that clauses take, by their double
// spelling; each also has its float spelling with an 'f' (logf).
constexpr llvm::StringLiteral UnaryMath[] = {"ceil",  "floor", "log", "log2",
                                             "log10", "exp",   "sqrt"};

// F's double spelling where F is one of UnaryMath, in either spelling ("logf"
// gives "log"), else empty.
llvm::StringRef unaryMathBase(llvm::StringRef F) {
  if (llvm::is_contained(UnaryMath, F))
    return F;
  if (F.consume_back("f") && llvm::is_contained(UnaryMath, F))
    return F;
  return {};
}

bool isUnaryMath(llvm::StringRef F) { return !unaryMathBase(F).empty(); }

// The type of a <cmath> call's result as C++ gives it: the f spellings take
// and give float, the others give float for float arguments (<cmath>'s
// overloads) and double for any integer or double argument.
NumKind mathResultKind(llvm::StringRef F, NumKind A, NumKind B) {
  bool FloatSpelling = F == "powf" || (isUnaryMath(F) && unaryMathBase(F) != F);
  if (FloatSpelling)
    return NumKind::Float;
  return A == NumKind::Float && B == NumKind::Float ? NumKind::Float : NumKind::Double;
}

bool isPow(llvm::StringRef F) { return F == "pow" || F == "powf"; }

// In T's arithmetic: float for the f spellings, as the C library computes them.
template <typename T> T applyUnaryMath(llvm::StringRef Base, T X) {
  if (Base == "ceil")
    return std::ceil(X);
  if (Base == "floor")
    return std::floor(X);
  if (Base == "log")
    return std::log(X);
  if (Base == "log2")
    return std::log2(X);
  if (Base == "log10")
    return std::log10(X);
  if (Base == "exp")
    return std::exp(X);
  return std::sqrt(X);
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
  default:
    break;
  }
  return failure("not a binary operator");
}

// A value as C types it: the int types (in 64 bits), float, double.
struct Value {
  NumKind Kind = NumKind::Integer;
  int64_t I = 0;
  double D = 0; // Float: a value that a float holds exactly.

  static Value integer(int64_t V) { return {NumKind::Integer, V, 0}; }
  static Value floating(NumKind K, double V) {
    return {K, 0, K == NumKind::Float ? static_cast<double>(static_cast<float>(V)) : V};
  }
  double asDouble() const { return Kind == NumKind::Integer ? static_cast<double>(I) : D; }
};

// C's usual arithmetic conversions: the common type of two operands.
NumKind commonKind(NumKind L, NumKind R) {
  if (L == NumKind::Double || R == NumKind::Double)
    return NumKind::Double;
  if (L == NumKind::Float || R == NumKind::Float)
    return NumKind::Float;
  return NumKind::Integer;
}

bool isComparison(ExprKind K) {
  return K == ExprKind::Less || K == ExprKind::Greater || K == ExprKind::LessEqual ||
         K == ExprKind::GreaterEqual || K == ExprKind::Equal || K == ExprKind::NotEqual;
}

// A comparison in the operands' common type, as C's usual conversions give it.
template <typename T> int64_t compare(ExprKind K, T L, T R) {
  switch (K) {
  case ExprKind::Less:
    return L < R;
  case ExprKind::Greater:
    return L > R;
  case ExprKind::LessEqual:
    return L <= R;
  case ExprKind::GreaterEqual:
    return L >= R;
  case ExprKind::Equal:
    return L == R;
  default:
    return L != R;
  }
}

bool isTrue(const Value &V) { return V.Kind == NumKind::Integer ? V.I != 0 : V.D != 0; }

llvm::Expected<Value> floatingOp(ExprKind K, NumKind Kind, double L, double R) {
  if (K == ExprKind::Div && R == 0)
    return failure("division by zero");
  // In the operands' type: float arithmetic, as C does it on float operands.
  auto Apply = [K](auto A, auto B) -> std::optional<double> {
    switch (K) {
    case ExprKind::Add:
      return A + B;
    case ExprKind::Sub:
      return A - B;
    case ExprKind::Mul:
      return A * B;
    case ExprKind::Div:
      return A / B;
    default:
      return std::nullopt;
    }
  };
  std::optional<double> V =
      Kind == NumKind::Float ? Apply(static_cast<float>(L), static_cast<float>(R)) : Apply(L, R);
  if (V)
    return Value::floating(Kind, *V);
  return failure(llvm::Twine("operands of '") + operatorSpelling(K) + "' must be integers");
}

// The range of an integer type of Bytes bytes, clipped to int64_t.
std::pair<int64_t, int64_t> integerRange(const ClauseType &T) {
  if (T.Spelling == "bool")
    return {0, 1};
  unsigned Bits = T.Bytes * 8;
  if (T.Signed)
    return Bits >= 64
               ? std::pair{std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()}
               : std::pair{-(int64_t(1) << (Bits - 1)), (int64_t(1) << (Bits - 1)) - 1};
  return {0, Bits >= 64 ? std::numeric_limits<int64_t>::max() : (int64_t(1) << Bits) - 1};
}

llvm::Expected<Value> castTo(const ClauseType &T, const Value &V) {
  if (T.Kind != NumKind::Integer)
    return Value::floating(T.Kind, V.asDouble());
  auto OutOfRange = [&](const std::string &What) {
    return failure("'(" + T.Spelling + ")' of " + What + " is out of the type's range");
  };
  int64_t I = V.I;
  if (V.Kind != NumKind::Integer) {
    if (!std::isfinite(V.D))
      return OutOfRange(llvm::formatv("{0}", V.D).str());
    double Truncated = std::trunc(V.D);
    if (!(Truncated >= -0x1p63 && Truncated < 0x1p63))
      return OutOfRange(llvm::formatv("{0}", V.D).str());
    I = static_cast<int64_t>(Truncated);
  }
  if (T.Spelling == "bool")
    return Value::integer(I != 0);
  auto [Lo, Hi] = integerRange(T);
  if (I < Lo || I > Hi)
    return OutOfRange(std::to_string(I));
  return Value::integer(I);
}

// A <cmath> call's value in its result type (float arithmetic for float, as
// the f functions compute); a result that is not finite (log(0), sqrt(-1),
// exp(1000)) fails.
llvm::Expected<Value> mathCall(llvm::StringRef Name, llvm::StringRef F, const Value &A,
                               const std::optional<Value> &B) {
  NumKind Kind = mathResultKind(F, A.Kind == NumKind::Integer ? NumKind::Double : A.Kind,
                                B ? (B->Kind == NumKind::Integer ? NumKind::Double : B->Kind)
                                  : NumKind::Float);
  double Result = 0;
  if (Kind == NumKind::Float) {
    float X = static_cast<float>(A.asDouble());
    Result = isPow(F) ? std::pow(X, static_cast<float>(B->asDouble()))
                      : applyUnaryMath(unaryMathBase(F), X);
  } else {
    Result = isPow(F) ? std::pow(A.asDouble(), B->asDouble())
                      : applyUnaryMath(unaryMathBase(F), A.asDouble());
  }
  if (!std::isfinite(Result))
    return failure("'" + Name + "' gives no finite value here");
  return Value::floating(Kind, Result);
}

llvm::Expected<Value> callFunction(llvm::StringRef Name, const Value &A,
                                   const std::optional<Value> &B) {
  llvm::StringRef F = baseFunction(Name);
  if (isUnaryMath(F))
    return mathCall(Name, F, A, std::nullopt);
  if (!B)
    return failure("'" + Name + "' needs two arguments");
  if (isPow(F))
    return mathCall(Name, F, A, B);
  bool Min = F == "min" || F == "fmin" || F == "fminf";
  NumKind Kind = commonKind(A.Kind, B->Kind);
  if (F.starts_with("f"))
    Kind = F.ends_with("f") ? NumKind::Float : NumKind::Double;
  if (Kind == NumKind::Integer)
    return Value::integer(Min ? std::min(A.I, B->I) : std::max(A.I, B->I));
  double X = Value::floating(Kind, A.asDouble()).D, Y = Value::floating(Kind, B->asDouble()).D;
  return Value::floating(Kind, Min ? std::min(X, Y) : std::max(X, Y));
}

class Evaluator {
public:
  Evaluator(const NumberBindings &Bindings, EvalFailure &Where) : Names(Bindings), Failure(Where) {}

  llvm::Expected<Value> eval(const ExprNode &N) {
    llvm::Expected<Value> V = evalNode(N);
    if (!V && !Located) { // The innermost node that failed is where it failed.
      Located = true;
      Failure.Token = N.Token;
    }
    return V;
  }

private:
  llvm::Expected<Value> evalNode(const ExprNode &N) {
    switch (N.Kind) {
    case ExprKind::Integer:
    case ExprKind::Sizeof:
      return Value::integer(N.IntValue);
    case ExprKind::Float:
      return Value::floating(N.SinglePrecision ? NumKind::Float : NumKind::Double, N.FloatValue);
    case ExprKind::Name: {
      auto It = Names.find(N.Spelling);
      if (It == Names.end())
        return failure("no value for '" + N.Spelling + "'");
      if (const int64_t *I = std::get_if<int64_t>(&It->second))
        return Value::integer(*I);
      return Value::floating(NumKind::Double, std::get<double>(It->second));
    }
    case ExprKind::Negate: {
      llvm::Expected<Value> V = operand(N.LHS);
      if (!V)
        return V.takeError();
      if (V->Kind != NumKind::Integer)
        return Value::floating(V->Kind, -V->D);
      if (V->I == std::numeric_limits<int64_t>::min())
        return failure("integer overflow in '-'");
      return Value::integer(-V->I);
    }
    case ExprKind::Cast: {
      llvm::Expected<Value> V = operand(N.LHS);
      if (!V)
        return V.takeError();
      if (!N.Type)
        return failure("malformed expression");
      return castTo(*N.Type, *V);
    }
    case ExprKind::Call: {
      llvm::Expected<Value> A = operand(N.LHS);
      if (!A)
        return A.takeError();
      std::optional<Value> B;
      if (N.RHS) {
        llvm::Expected<Value> Second = operand(N.RHS);
        if (!Second)
          return Second.takeError();
        B = *Second;
      }
      return callFunction(N.Spelling, *A, B);
    }
    case ExprKind::LogicalNot: {
      llvm::Expected<Value> V = operand(N.LHS);
      if (!V)
        return V.takeError();
      return Value::integer(!isTrue(*V));
    }
    case ExprKind::LogicalAnd:
    case ExprKind::LogicalOr: {
      llvm::Expected<Value> L = operand(N.LHS);
      if (!L)
        return L.takeError();
      if (isTrue(*L) == (N.Kind == ExprKind::LogicalOr))
        return Value::integer(isTrue(*L));
      llvm::Expected<Value> R = operand(N.RHS);
      if (!R)
        return R.takeError();
      return Value::integer(isTrue(*R));
    }
    case ExprKind::Conditional: {
      llvm::Expected<Value> C = operand(N.Cond);
      if (!C)
        return C.takeError();
      return operand(isTrue(*C) ? N.LHS : N.RHS);
    }
    default:
      break;
    }
    llvm::Expected<Value> L = operand(N.LHS);
    if (!L)
      return L.takeError();
    llvm::Expected<Value> R = operand(N.RHS);
    if (!R)
      return R.takeError();
    NumKind Kind = commonKind(L->Kind, R->Kind);
    if (isComparison(N.Kind))
      return Value::integer(Kind == NumKind::Integer
                                ? compare(N.Kind, L->I, R->I)
                                : compare(N.Kind, L->asDouble(), R->asDouble()));
    if (Kind == NumKind::Integer) {
      llvm::Expected<int64_t> V = integerOp(N.Kind, L->I, R->I);
      if (!V)
        return V.takeError();
      return Value::integer(*V);
    }
    return floatingOp(N.Kind, Kind, L->asDouble(), R->asDouble());
  }

  llvm::Expected<Value> operand(const std::shared_ptr<const ExprNode> &N) {
    if (!N)
      return failure("malformed expression");
    return eval(*N);
  }

  const NumberBindings &Names;
  EvalFailure &Failure;
  bool Located = false;
};

} // namespace

llvm::Expected<ClauseNumber> evaluateNumber(const ClauseExpr &E, const NumberBindings &Names,
                                            EvalFailure *Failure) {
  if (!E.Root)
    return failure("empty expression");
  EvalFailure Where;
  llvm::Expected<Value> V = Evaluator(Names, Where).eval(*E.Root);
  if (!V) {
    std::string Reason = llvm::toString(V.takeError());
    if (Failure)
      *Failure = {Where.Token, Reason};
    return failure("cannot evaluate '" + E.Text + "': " + Reason);
  }
  if (V->Kind == NumKind::Integer)
    return ClauseNumber(V->I);
  return ClauseNumber(V->D);
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
  // A digit separator stands between two digits ('1'e5' and '0x'1' are not
  // numbers to clang); in a hex literal those are hex digits.
  bool HexSpelling = Spelling.starts_with_insensitive("0x");
  auto IsDigit = [&](char C) { return HexSpelling ? llvm::isHexDigit(C) : llvm::isDigit(C); };
  std::string Clean;
  for (size_t I = 0; I < Spelling.size(); ++I) {
    if (Spelling[I] != '\'') {
      Clean.push_back(Spelling[I]);
      continue;
    }
    if (I == 0 || I + 1 == Spelling.size() || !IsDigit(Spelling[I - 1]) ||
        !IsDigit(Spelling[I + 1]))
      return Invalid();
  }
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

namespace {
struct TypeEntry {
  const char *Words;
  NumKind Kind;
  unsigned Bytes;
  bool Signed;
  bool Scalar;
};

// The types clause expressions know, by their words (after std::).
constexpr TypeEntry Types[] = {
    {"bool", NumKind::Integer, 1, false, true},
    {"char", NumKind::Integer, 1, true, true},
    {"signed char", NumKind::Integer, 1, true, true},
    {"unsigned char", NumKind::Integer, 1, false, true},
    {"short", NumKind::Integer, 2, true, true},
    {"short int", NumKind::Integer, 2, true, true},
    {"unsigned short", NumKind::Integer, 2, false, true},
    {"unsigned short int", NumKind::Integer, 2, false, true},
    {"int", NumKind::Integer, 4, true, true},
    {"signed", NumKind::Integer, 4, true, true},
    {"signed int", NumKind::Integer, 4, true, true},
    {"unsigned", NumKind::Integer, 4, false, true},
    {"unsigned int", NumKind::Integer, 4, false, true},
    {"long", NumKind::Integer, 8, true, true},
    {"long int", NumKind::Integer, 8, true, true},
    {"unsigned long", NumKind::Integer, 8, false, true},
    {"unsigned long int", NumKind::Integer, 8, false, true},
    {"long long", NumKind::Integer, 8, true, true},
    {"long long int", NumKind::Integer, 8, true, true},
    {"unsigned long long", NumKind::Integer, 8, false, true},
    {"unsigned long long int", NumKind::Integer, 8, false, true},
    {"int8_t", NumKind::Integer, 1, true, true},
    {"uint8_t", NumKind::Integer, 1, false, true},
    {"int16_t", NumKind::Integer, 2, true, true},
    {"uint16_t", NumKind::Integer, 2, false, true},
    {"int32_t", NumKind::Integer, 4, true, true},
    {"uint32_t", NumKind::Integer, 4, false, true},
    {"int64_t", NumKind::Integer, 8, true, true},
    {"uint64_t", NumKind::Integer, 8, false, true},
    {"size_t", NumKind::Integer, 8, false, true},
    {"ptrdiff_t", NumKind::Integer, 8, true, true},
    {"ssize_t", NumKind::Integer, 8, true, true},
    {"float", NumKind::Float, 4, true, true},
    {"double", NumKind::Double, 8, true, true},
    // sizeof only: 16-bit floating types and CUDA's vector types.
    {"half", NumKind::Float, 2, true, false},
    {"__half", NumKind::Float, 2, true, false},
    {"__nv_bfloat16", NumKind::Float, 2, true, false},
    {"half2", NumKind::Float, 4, true, false},
    {"__half2", NumKind::Float, 4, true, false},
    {"float2", NumKind::Float, 8, true, false},
    {"float3", NumKind::Float, 12, true, false},
    {"float4", NumKind::Float, 16, true, false},
    {"double2", NumKind::Double, 16, true, false},
    {"double4", NumKind::Double, 32, true, false},
    {"int2", NumKind::Integer, 8, true, false},
    {"int3", NumKind::Integer, 12, true, false},
    {"int4", NumKind::Integer, 16, true, false},
    {"uint2", NumKind::Integer, 8, false, false},
    {"uint4", NumKind::Integer, 16, false, false},
    {"char4", NumKind::Integer, 4, true, false},
    {"uchar4", NumKind::Integer, 4, false, false},
    {"short2", NumKind::Integer, 4, true, false},
    {"longlong2", NumKind::Integer, 16, true, false},
};

constexpr llvm::StringLiteral BinaryFunctions[] = {"min",   "max",   "fmin", "fmax",
                                                   "fminf", "fmaxf", "pow",  "powf"};
} // namespace

std::optional<ClauseType> clauseTypeNamed(llvm::StringRef Words) {
  llvm::StringRef Base = Words;
  Base.consume_front("std::");
  for (const TypeEntry &T : Types)
    if (Base == T.Words)
      return ClauseType{Words.str(), T.Kind, T.Bytes, T.Signed, T.Scalar};
  return std::nullopt;
}

bool beginsTypeName(llvm::StringRef Word) {
  if (Word == "std")
    return true;
  for (const TypeEntry &T : Types)
    if (llvm::StringRef(T.Words).split(' ').first == Word)
      return true;
  return false;
}

bool isClauseFunction(llvm::StringRef Name) {
  llvm::StringRef F = baseFunction(Name);
  return isUnaryMath(F) || llvm::is_contained(BinaryFunctions, F);
}

unsigned clauseFunctionArity(llvm::StringRef Name) {
  return isUnaryMath(baseFunction(Name)) ? 1 : 2;
}

NumKind staticKind(const ExprNode &N, llvm::function_ref<NumKind(const ExprNode &)> NameKind,
                   const ExprNode **FloatingCause) {
  auto Mark = [&](NumKind K, const ExprNode &Cause) {
    if (FloatingCause && K != NumKind::Integer && !*FloatingCause)
      *FloatingCause = &Cause;
    return K;
  };
  auto Sub = [&](const std::shared_ptr<const ExprNode> &Child) {
    return Child ? staticKind(*Child, NameKind, FloatingCause) : NumKind::Integer;
  };
  switch (N.Kind) {
  case ExprKind::Integer:
  case ExprKind::Sizeof:
    return NumKind::Integer;
  case ExprKind::Float:
    return Mark(N.SinglePrecision ? NumKind::Float : NumKind::Double, N);
  case ExprKind::Name:
    return Mark(NameKind(N), N);
  case ExprKind::Cast:
    return Mark(N.Type ? N.Type->Kind : NumKind::Integer, N);
  case ExprKind::Call: {
    llvm::StringRef F = baseFunction(N.Spelling);
    const ExprNode **Inner = FloatingCause;
    FloatingCause = nullptr; // The call itself is the cause, not its arguments.
    NumKind A = Sub(N.LHS), B = N.RHS ? Sub(N.RHS) : NumKind::Integer;
    FloatingCause = Inner;
    NumKind K = commonKind(A, B);
    auto Floating = [](NumKind X) { return X == NumKind::Integer ? NumKind::Double : X; };
    if (isUnaryMath(F))
      K = mathResultKind(F, Floating(A), NumKind::Float);
    else if (isPow(F))
      K = mathResultKind(F, Floating(A), Floating(B));
    else if (F.starts_with("f"))
      K = F.ends_with("f") ? NumKind::Float : NumKind::Double;
    return Mark(K, N);
  }
  case ExprKind::LogicalNot:
  case ExprKind::LogicalAnd:
  case ExprKind::LogicalOr:
    return NumKind::Integer; // 0 or 1, whatever the operands.
  default:
    break;
  }
  if (isComparison(N.Kind))
    return NumKind::Integer;
  NumKind L = Sub(N.LHS);
  NumKind R = Sub(N.RHS);
  return commonKind(L, R);
}

std::string describeNode(const ExprNode &N) {
  switch (N.Kind) {
  case ExprKind::Cast:
    return "(" + (N.Type ? N.Type->Spelling : std::string("?")) + ")";
  case ExprKind::Call:
    return N.Spelling + "(...)";
  case ExprKind::Sizeof:
    return "sizeof(" + (N.Type ? N.Type->Spelling : std::string("?")) + ")";
  case ExprKind::Integer:
  case ExprKind::Float:
  case ExprKind::Name:
    return N.Spelling;
  default:
    return operatorSpelling(N.Kind);
  }
}

void collectNames(const ExprNode &N, std::vector<const ExprNode *> &Out) {
  if (N.Kind == ExprKind::Name)
    Out.push_back(&N);
  if (N.Cond)
    collectNames(*N.Cond, Out);
  if (N.LHS)
    collectNames(*N.LHS, Out);
  if (N.RHS)
    collectNames(*N.RHS, Out);
}

std::string printExpr(const ExprNode &N) {
  auto Sub = [](const std::shared_ptr<const ExprNode> &C) { return C ? printExpr(*C) : "?"; };
  // Appended piece by piece: GCC 12 warns (-Wrestrict) on chains of '+' here.
  std::string Out;
  switch (N.Kind) {
  case ExprKind::Integer:
    return std::to_string(N.IntValue);
  case ExprKind::Float:
  case ExprKind::Name:
    return N.Spelling;
  case ExprKind::Sizeof:
    return describeNode(N);
  case ExprKind::Negate:
    Out.append("(-").append(Sub(N.LHS)).append(")");
    return Out;
  case ExprKind::LogicalNot:
    Out.append("(!").append(Sub(N.LHS)).append(")");
    return Out;
  case ExprKind::Conditional:
    Out.append("(").append(Sub(N.Cond)).append(" ? ").append(Sub(N.LHS)).append(" : ");
    Out.append(Sub(N.RHS)).append(")");
    return Out;
  case ExprKind::Cast:
    Out.append("(").append(describeNode(N)).append(Sub(N.LHS)).append(")");
    return Out;
  case ExprKind::Call:
    Out.append(N.Spelling).append("(").append(Sub(N.LHS));
    if (N.RHS)
      Out.append(", ").append(Sub(N.RHS));
    Out.append(")");
    return Out;
  default:
    Out.append("(").append(Sub(N.LHS)).append(" ").append(operatorSpelling(N.Kind));
    Out.append(" ").append(Sub(N.RHS)).append(")");
    return Out;
  }
}

} // namespace kopt::frontend
