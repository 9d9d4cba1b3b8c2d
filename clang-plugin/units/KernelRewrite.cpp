#include "clang-plugin/units/KernelRewrite.h"

#include "support/LineDirective.h"

#include <algorithm>
#include <vector>

namespace kopt::frontend {

llvm::Expected<std::string>
replaceKernelDefinitions(llvm::StringRef OriginalText, llvm::StringRef PathAsWritten,
                         llvm::ArrayRef<KernelReplacement> Replacements) {
  std::vector<const KernelReplacement *> Order;
  for (const KernelReplacement &R : Replacements) {
    if (R.Begin > R.End || R.End > OriginalText.size())
      return llvm::createStringError("replacement of %s: range [%u, %u) is outside the text (%zu "
                                     "bytes)",
                                     R.KernelName.c_str(), R.Begin, R.End, OriginalText.size());
    Order.push_back(&R);
  }
  std::sort(Order.begin(), Order.end(), [](const KernelReplacement *A, const KernelReplacement *B) {
    return A->Begin < B->Begin;
  });
  for (size_t I = 1; I < Order.size(); ++I)
    if (Order[I]->Begin < Order[I - 1]->End)
      return llvm::createStringError("replacements of %s and %s overlap",
                                     Order[I - 1]->KernelName.c_str(),
                                     Order[I]->KernelName.c_str());

  std::string Out;
  size_t Copied = 0;
  for (const KernelReplacement *R : Order) {
    Out += OriginalText.slice(Copied, R->Begin);
    if (!Out.empty() && Out.back() != '\n')
      Out += '\n';
    Out += lineDirective((PathAsWritten + " (kopt variant of " + R->KernelName + ")").str(), 1);
    Out += R->Text;
    if (Out.back() != '\n')
      Out += '\n';
    // The line where the original kernel ended continues at its own number.
    unsigned EndLine = 1 + OriginalText.take_front(R->End).count('\n');
    Out += lineDirective(PathAsWritten, EndLine);
    // The rest of that line, if there is any, moved to a line of its own: indent
    // it to its column.
    llvm::StringRef Rest = OriginalText.substr(R->End);
    if (!Rest.take_until([](char C) { return C == '\n'; }).trim().empty()) {
      size_t LineStart = OriginalText.take_front(R->End).rfind('\n');
      LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
      Out += std::string(R->End - LineStart, ' ');
    }
    Copied = R->End;
  }
  Out += OriginalText.substr(Copied);
  return Out;
}

} // namespace kopt::frontend
