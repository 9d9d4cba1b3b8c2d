#include "clang-plugin/analysis/ast/DeclOrder.h"

#include <clang/AST/DeclBase.h>

#include <functional>

namespace kopt::transform {

bool WrittenBefore::operator()(const clang::Decl *A, const clang::Decl *B) const {
  // Within one parse, raw encodings follow the order of the text (files in the
  // order they were entered); equal ones (implicit declarations) fall back to
  // the address, which is all there is.
  auto At = [](const clang::Decl *D) { return D ? D->getLocation().getRawEncoding() : 0u; };
  if (At(A) != At(B))
    return At(A) < At(B);
  return std::less<const clang::Decl *>()(A, B);
}

} // namespace kopt::transform
