// Expressions in '#pragma kopt optimize' clauses: a small AST, kept together
// with the expression's text after macro expansion, and its evaluation.
//
//   expr    := shift
//   shift   := sum (('<<' | '>>') sum)*
//   sum     := product (('+' | '-') product)*
//   product := unary (('*' | '/' | '%') unary)*
//   unary   := ('-' | '+') unary | primary
//   primary := integer-literal | floating-literal | parameter-name | '(' expr ')'
//
// Arithmetic follows C: integer operations stay in 64-bit integers (division
// truncates), an operation with a floating operand is done in double, and '%',
// '<<' and '>>' need integer operands. Where C has undefined behaviour (overflow,
// division by zero, shifting by a negative amount or by 64 or more, shifting a
// negative value left) evaluation fails with an error instead.
#pragma once

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
  Name,    // A kernel parameter.
  Negate,  // -E (unary '+' leaves no node)
  Add,
  Sub,
  Mul,
  Div,
  Rem,
  Shl,
  Shr,
};

struct ExprNode {
  ExprKind Kind = ExprKind::Integer;
  int64_t IntValue = 0;                     // Integer.
  double FloatValue = 0;                    // Float.
  std::string Spelling;                     // Name: the name; literals: the literal as written.
  std::shared_ptr<const ExprNode> LHS, RHS; // Negate uses LHS only.
  unsigned Token = 0; // The literal, name or operator among the pragma's tokens.
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

// Evaluates an integer expression. Fails on a floating-point result, an unknown
// name, division by zero and overflow, saying which.
llvm::Expected<int64_t> evaluate(const ClauseExpr &E, const IntBindings &Names);
// Evaluates with C's usual arithmetic conversions: an integer unless a floating
// literal or value takes part.
llvm::Expected<ClauseNumber> evaluateNumber(const ClauseExpr &E, const NumberBindings &Names);

// The value of a numeric literal's spelling (a C pp-number): integers in decimal,
// hex (0x), octal (0) or binary (0b) with digit separators and u/l suffixes;
// floating literals with f/l suffixes. Fails on anything else, or an integer that
// does not fit int64_t.
llvm::Expected<ClauseNumber> parseNumberLiteral(llvm::StringRef Spelling);

// True where no floating literal occurs in the expression.
bool isIntegerExpr(const ExprNode &N);
// The nodes of kind Name, left to right.
void collectNames(const ExprNode &N, std::vector<const ExprNode *> &Out);
// The first floating literal, or null.
const ExprNode *findFloatLiteral(const ExprNode &N);
// Fully parenthesized form, "((1 + n) * 2)", for tests and debugging.
std::string printExpr(const ExprNode &N);

} // namespace kopt::frontend
