// Expressions in '#pragma kopt optimize' clauses: a small AST with the text after
// macro expansion, and its evaluation. Written as host code writes a launch:
//   expr    := shift
//   shift   := sum (('<<' | '>>') sum)*
//   sum     := product (('+' | '-') product)*
//   product := unary (('*' | '/' | '%') unary)*
//   unary   := ('-' | '+') unary | '(' type ')' unary | primary
//   primary := integer-literal | floating-literal | name | '(' expr ')'
//            | function '(' expr (',' expr)? ')' | 'sizeof' '(' type ')'
//   name    := '::'? identifier ('::' identifier)*: a scalar or non-type template
//              parameter of the kernel, or an enumerator (MODE_0, Mode::Fast), which
//              the front end replaces by its value (model/ClauseConstants.h)
//   function:= ('std::' | '::')? (math | math 'f' | 'pow' | 'powf' | 'min' | 'max'
//            | 'fmin' | 'fmax' | 'fminf' | 'fmaxf');  math := 'ceil' | 'floor' | 'log'
//            | 'log2' | 'log10' | 'exp' | 'sqrt' (one argument; pow takes two)
//   type    := an integer or floating scalar type: int, unsigned, size_t, float,
//              double, __half, ...; sizeof also takes CUDA vector types (float4)
// Arithmetic follows C: integer operations stay in 64-bit integers (division
// truncates), float with float is done in float, anything else with a double in
// double; '%', '<<' and '>>' need integers. <cmath>'s functions compute in float
// for their f spellings and for float arguments, else in double; a result that is
// not finite (log(0)) is an error. A cast to an integer type truncates toward zero
// and must fit the type; a cast to float rounds. Where C has undefined behaviour
// (overflow, division by zero, shifting by a negative amount or by 64 or more,
// shifting a negative value left) evaluation fails with an error instead.
#pragma once

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace kopt::frontend {

enum class ExprKind : uint8_t {
  Integer, // 1024, 0x400, 1'024u
  Float,   // 1e-5, 2.5f
  Name,    // A kernel parameter or template parameter.
  Negate,  // -E (unary '+' leaves no node)
  Add,
  Sub,
  Mul,
  Div,
  Rem,
  Shl,
  Shr,
  Less, // Comparisons and logical operators give 0 or 1, as in C.
  Greater,
  LessEqual,
  GreaterEqual,
  Equal,
  NotEqual,
  LogicalAnd, // Short-circuit: the right operand is evaluated only where needed.
  LogicalOr,
  LogicalNot,  // !E: LHS is E.
  Conditional, // C ? L : R: Cond is C, LHS and RHS the branches; only the one taken is evaluated.
  Cast,        // (T)E: Type is T, LHS is E.
  Call,        // Spelling is the function (ceil, log, pow, min, ...), LHS and RHS its arguments.
  Sizeof,      // sizeof(T): IntValue is the size in bytes.
};

// The arithmetic type of a value: C's int types (all evaluated in 64 bits),
// float and double.
enum class NumKind : uint8_t { Integer, Float, Double };

// A scalar type named in a cast or sizeof.
struct ClauseType {
  std::string Spelling; // As written: "size_t", "unsigned int", "float".
  NumKind Kind = NumKind::Integer;
  unsigned Bytes = 4;
  bool Signed = true;
  bool Scalar = true; // False for vector types (float4), which only sizeof takes.
};

// The type named by Words ("unsigned long long", "std::size_t", "float4"), if
// clause expressions know it.
std::optional<ClauseType> clauseTypeNamed(llvm::StringRef Words);
// True where Word can begin a type name ("unsigned", "int", "size_t", "std").
bool beginsTypeName(llvm::StringRef Word);
// True for the functions a clause may call, with or without std::.
bool isClauseFunction(llvm::StringRef Name);
// How many arguments a clause function takes (1 or 2).
unsigned clauseFunctionArity(llvm::StringRef Name);

struct ExprNode {
  ExprKind Kind = ExprKind::Integer;
  int64_t IntValue = 0;           // Integer, Sizeof.
  double FloatValue = 0;          // Float.
  bool SinglePrecision = false;   // Float: a literal with an f suffix.
  std::string Spelling;           // Name: the name; literals: as written; Call: the function.
  std::optional<ClauseType> Type; // Cast, Sizeof.
  std::shared_ptr<const ExprNode> LHS, RHS; // Negate, LogicalNot and Cast use LHS only.
  std::shared_ptr<const ExprNode> Cond;     // Conditional's condition.
  unsigned Token = 0; // The literal, name, operator, function or '(' of a cast among the tokens.
  unsigned Depth = 1; // Height of the tree under this node.
};

struct ClauseExpr {
  std::shared_ptr<const ExprNode> Root; // Never null in a parsed clause.
  std::string Text;                     // Source text after macro expansion.
};

// An integer or a floating-point value, as C would type it.
using ClauseNumber = std::variant<int64_t, double>;

// Maps parameter names to values for evaluation.
using IntBindings = std::map<std::string, int64_t>;
using NumberBindings = std::map<std::string, ClauseNumber>;

// Where an evaluation failed: the token of the node (an operator, a cast, a
// name without a value) and the reason, without the expression around it.
struct EvalFailure {
  unsigned Token = 0;
  std::string Reason;
};

// Evaluates an integer expression. Fails on a floating-point result, an unknown
// name, division by zero and overflow, saying which.
llvm::Expected<int64_t> evaluate(const ClauseExpr &E, const IntBindings &Names);
// Evaluates with C's usual arithmetic conversions: an integer unless a floating
// literal, cast or value takes part. With Failure, a failing evaluation also
// says where.
llvm::Expected<ClauseNumber> evaluateNumber(const ClauseExpr &E, const NumberBindings &Names,
                                            EvalFailure *Failure = nullptr);

// The value of a numeric literal's spelling (a C pp-number): integers in decimal,
// hex (0x), octal (0) or binary (0b) with digit separators and u/l suffixes;
// floating literals with f/l suffixes. Fails on anything else, or an integer that
// does not fit int64_t.
llvm::Expected<ClauseNumber> parseNumberLiteral(llvm::StringRef Spelling);

// The type of N's value without evaluating it; NameKind gives each name's. The
// node that makes it floating (where it is) goes to FloatingCause: a floating
// literal, a cast to a floating type, a floating function or name.
NumKind staticKind(const ExprNode &N, llvm::function_ref<NumKind(const ExprNode &)> NameKind,
                   const ExprNode **FloatingCause = nullptr);
// How a diagnostic names a node: a literal's or name's spelling, "(float)",
// "ceil(...)", "sizeof(int)".
std::string describeNode(const ExprNode &N);

// The nodes of kind Name, left to right.
void collectNames(const ExprNode &N, std::vector<const ExprNode *> &Out);
// Fully parenthesized form, "((1 + n) * 2)", for tests and debugging.
std::string printExpr(const ExprNode &N);

} // namespace kopt::frontend
