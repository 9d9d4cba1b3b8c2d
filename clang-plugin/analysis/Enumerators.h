// The enumerators a translation unit declares, by the names a pragma's clause
// expressions may give them: args(mode = MODE_0), args(act = Activation::Gelu).
#pragma once

#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <optional>

namespace clang {
class ASTContext;
} // namespace clang

namespace kopt::frontend {

class EnumeratorIndex {
public:
  // Every enumerator of Ctx's translation unit whose value is known (not one
  // of a class template's dependent enums).
  explicit EnumeratorIndex(const clang::ASTContext &Ctx);

  // The value of the enumerator Name names: its qualified name ("ns::Mode::Fast",
  // with or without a leading "::"), or any shorter qualification of it ("Mode::Fast",
  // "Fast"; an unscoped enum's enumerators also without the enum's name). Empty for
  // an unknown name, and for a short name that enumerators of different values share.
  std::optional<int64_t> valueOf(llvm::StringRef Name) const;

private:
  void add(llvm::StringRef Name, int64_t Value, bool Qualified);

  struct Entry {
    std::optional<int64_t> Value; // Empty: names several values.
    bool Qualified = false;       // The enumerator's whole name, which wins over short ones.
  };
  llvm::StringMap<Entry> Names;
};

} // namespace kopt::frontend
