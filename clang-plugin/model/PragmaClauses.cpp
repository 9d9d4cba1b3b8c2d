#include "clang-plugin/model/PragmaClauses.h"

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

NumberBindings resolveArgValues(const PragmaClauses &P, const NumberBindings &Known,
                                llvm::ArrayRef<size_t> Choice) {
  NumberBindings Values = Known;
  if (!P.Args)
    return Values;
  auto ValueOf = [&](size_t I) -> const ClauseExpr & {
    const ArgValue &A = (*P.Args)[I];
    size_t Pick = I < Choice.size() ? Choice[I] : 0;
    return Pick == 0 || Pick > A.MoreValues.size() ? A.Value : A.MoreValues[Pick - 1];
  };
  // Each round resolves at least one more value, or nothing more can be.
  for (bool Progress = true; Progress;) {
    Progress = false;
    for (size_t I = 0; I < P.Args->size(); ++I) {
      const ArgValue &A = (*P.Args)[I];
      if (Values.count(A.Name))
        continue;
      if (llvm::Expected<ClauseNumber> V = evaluateNumber(ValueOf(I), Values)) {
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
