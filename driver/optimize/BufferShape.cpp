#include "driver/optimize/BufferShape.h"

#include <llvm/Support/raw_ostream.h>

#include <string>

namespace kopt::driver {

namespace {
std::string declared(const frontend::KernelParam &P) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << P.ElementType << " [";
  if (P.DeclaredRows)
    OS << *P.DeclaredRows;
  OS << "]";
  for (uint64_t E : P.RowExtents)
    OS << "[" << E << "]";
  return S;
}
} // namespace

llvm::Expected<BufferElement> bufferElementType(const frontend::KernelParam &P) {
  if (!P.ExtentsConstant)
    return llvm::createStringError("the array extents of '%s' ('%s') are not constants",
                                   P.Name.c_str(), P.Type.c_str());
  llvm::StringRef Element = P.ElementType.empty() ? llvm::StringRef(P.Type) : P.ElementType;
  if (std::optional<evaluator::ScalarType> T = evaluator::scalarTypeOfCType(Element))
    return BufferElement{*T, 1};
  if (std::optional<evaluator::VectorType> V = evaluator::vectorTypeOfCType(Element);
      V && P.RowExtents.empty())
    return BufferElement{V->Scalar, V->Lanes};
  return llvm::createStringError("cannot generate elements of type '%s' for buffer '%s'",
                                 P.Type.c_str(), P.Name.c_str());
}

llvm::Error checkBufferCount(const frontend::KernelParam &P, uint64_t Count) {
  if (P.RowExtents.empty())
    return llvm::Error::success();
  uint64_t Row = frontend::rowElements(P);
  if (Row == 0)
    return llvm::createStringError("'%s' is declared '%s', whose rows hold no elements",
                                   P.Name.c_str(), declared(P).c_str());
  if (Count % Row != 0)
    return llvm::createStringError(
        "buffers(%s[...]) gives %llu elements, not a whole number of the %llu-element rows of "
        "'%s' (declared '%s'); the size counts %s elements, not rows",
        P.Name.c_str(), (unsigned long long)Count, (unsigned long long)Row, P.Name.c_str(),
        declared(P).c_str(), P.ElementType.c_str());
  if (P.DeclaredRows && Count / Row != *P.DeclaredRows)
    return llvm::createStringError(
        "buffers(%s[...]) gives %llu elements (%llu rows), but '%s' is declared '%s': %llu "
        "elements; the size counts %s elements, not rows",
        P.Name.c_str(), (unsigned long long)Count, (unsigned long long)(Count / Row),
        P.Name.c_str(), declared(P).c_str(), (unsigned long long)(*P.DeclaredRows * Row),
        P.ElementType.c_str());
  return llvm::Error::success();
}

} // namespace kopt::driver
