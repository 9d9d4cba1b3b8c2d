// Declarations in the order they are written. What a transform writes must not
// depend on where a parse happened to allocate its declarations (a precompiled
// header changes that), so containers that a transform iterates to write text
// order declarations by their source location, not by address.
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class Decl;
}

namespace kopt::transform {

struct WrittenBefore {
  bool operator()(const clang::Decl *A, const clang::Decl *B) const;
  // A declaration and a text (a subscript) that names a place in memory.
  template <typename D>
  bool operator()(const std::pair<D, std::string> &A, const std::pair<D, std::string> &B) const {
    if (A.first != B.first)
      return (*this)(A.first, B.first);
    return A.second < B.second;
  }
  // Products of variables, each sorted by WrittenBefore.
  template <typename D> bool operator()(const std::vector<D> &A, const std::vector<D> &B) const {
    return std::lexicographical_compare(A.begin(), A.end(), B.begin(), B.end(), *this);
  }
};

} // namespace kopt::transform
