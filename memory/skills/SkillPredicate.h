// The `when:` language of skills: a small, strictly typed boolean expression
// over named facts (memory/experience/KernelFacts.h).
//
//   expr    := or
//   or      := and ('or' and)*
//   and     := not ('and' not)*
//   not     := 'not' not | compare
//   compare := primary (('<' | '<=' | '>' | '>=' | '==' | '!=') primary)?
//   primary := NUMBER | 'true' | 'false' | FACT | '(' expr ')'
//
// Types are checked when parsing: ordering compares numbers, == and != compare
// two operands of one type, and/or/not take booleans, the whole is boolean. A
// name that knownFacts() does not list is an error.
//
// Evaluation is three-valued: a measured fact that is absent is unknown, and
// unknown propagates (not unknown = unknown; false and unknown = false; true or
// unknown = true). A predicate that ends unknown does not hold.
#pragma once

#include "memory/experience/KernelFacts.h"

#include <llvm/Support/Error.h>

#include <memory>
#include <string>

namespace kopt::memory {

// A parse or type error at a byte offset of the predicate's text.
class PredicateError : public llvm::ErrorInfo<PredicateError> {
public:
  static char ID;
  PredicateError(size_t At, std::string Text) : Offset(At), Message(std::move(Text)) {}
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override { return llvm::inconvertibleErrorCode(); }

  size_t Offset;
  std::string Message;
};

class Predicate {
public:
  struct Node;

  // Parses and checks Text; errors are PredicateError.
  static llvm::Expected<Predicate> parse(llvm::StringRef Text);
  // A predicate that always holds (a skill without `when:`).
  static Predicate always();

  bool holds(const Facts &F) const;
  const std::string &text() const { return Text; }

private:
  std::string Text;
  std::shared_ptr<const Node> Root; // Immutable, so copies share it.
};

} // namespace kopt::memory
