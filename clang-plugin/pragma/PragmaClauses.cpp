#include "clang-plugin/pragma/PragmaClauses.h"

namespace kopt::frontend {

llvm::StringRef spelling(BufferAccess A) {
  switch (A) {
  case BufferAccess::In:
    return "in";
  case BufferAccess::Out:
    return "out";
  case BufferAccess::InOut:
    return "inout";
  }
  return "";
}

llvm::StringRef spelling(EngineKind E) {
  switch (E) {
  case EngineKind::Skills:
    return "skills";
  case EngineKind::Llm:
    return "llm";
  case EngineKind::Auto:
    return "auto";
  }
  return "";
}

NumberBindings resolveArgValues(const PragmaClauses &P) {
  NumberBindings Values;
  if (!P.Args)
    return Values;
  // Each round resolves at least one more value, or nothing more can be.
  for (bool Progress = true; Progress;) {
    Progress = false;
    for (const ArgValue &A : *P.Args) {
      if (Values.count(A.Name))
        continue;
      if (llvm::Expected<ClauseNumber> V = evaluateNumber(A.Value, Values)) {
        Values.emplace(A.Name, *V);
        Progress = true;
      } else {
        llvm::consumeError(V.takeError());
      }
    }
  }
  return Values;
}

} // namespace kopt::frontend
