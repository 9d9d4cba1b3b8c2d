#include "clang-plugin/units/VariantSwitch.h"

#include "clang-plugin/units/ArchSplice.h"

#include <llvm/ADT/StringExtras.h>

namespace kopt::frontend {

std::string variantSwitchPrelude() {
  // Plain C library calls: the prelude comes before any of the user's includes.
  return "#include <cstdio>\n#include <cstdlib>\n#include <cstring>\n"
         "static inline bool kopt_variants_enabled(const char *kopt_kernel) { static const char "
         "*const kopt_set = std::getenv(\"KOPT_VARIANTS\"); bool kopt_on = true; if (kopt_set && "
         "*kopt_set && std::strcmp(kopt_set, \"on\") != 0) { if (std::strcmp(kopt_set, \"off\") "
         "== 0) { kopt_on = false; } else if (std::strncmp(kopt_set, \"off:\", 4) == 0) { const "
         "std::size_t kopt_len = std::strlen(kopt_kernel); for (const char *kopt_p = kopt_set + "
         "4; kopt_p && *kopt_p;) { const char *kopt_end = std::strchr(kopt_p, ','); const "
         "std::size_t kopt_n = kopt_end ? std::size_t(kopt_end - kopt_p) : std::strlen(kopt_p); "
         "if (kopt_n == kopt_len && std::strncmp(kopt_p, kopt_kernel, kopt_n) == 0) kopt_on = "
         "false; kopt_p = kopt_end ? kopt_end + 1 : nullptr; } } else { std::fprintf(stderr, "
         "\"kopt: KOPT_VARIANTS=%s is not on, off or off:K1,K2,...; %s runs its variant\\n\", "
         "kopt_set, kopt_kernel); } } const char *kopt_log = std::getenv(\"KOPT_VARIANTS_LOG\"); "
         "if (kopt_log && *kopt_log) { if (std::FILE *kopt_f = std::fopen(kopt_log, \"a\")) { "
         "std::fprintf(kopt_f, \"%s %s\\n\", kopt_kernel, kopt_on ? \"variant\" : \"original\"); "
         "std::fclose(kopt_f); } } return kopt_on; }\n";
}

std::string originalKernelName(llvm::StringRef KernelName) {
  llvm::StringRef Short = KernelName.rsplit("::").second;
  return (Short.empty() ? KernelName : Short).str() + "__kopt_original";
}

llvm::Expected<std::string> renamedDefinition(llvm::StringRef Definition,
                                              llvm::StringRef KernelName, llvm::StringRef NewName) {
  llvm::StringRef Short = KernelName.rsplit("::").second;
  if (Short.empty())
    Short = KernelName;
  llvm::Expected<FunctionText> Function = lastFunction(Definition);
  if (!Function)
    return Function.takeError();
  auto IsIdentifierChar = [](char C) { return llvm::isAlnum(C) || C == '_'; };
  llvm::StringRef Declarator = Definition.slice(Function->Begin, Function->Body);
  for (size_t At = Declarator.find(Short); At != llvm::StringRef::npos;
       At = Declarator.find(Short, At + 1)) {
    size_t End = At + Short.size();
    if (At > 0 && IsIdentifierChar(Declarator[At - 1]))
      continue;
    if (End < Declarator.size() && IsIdentifierChar(Declarator[End]))
      continue;
    if (!Declarator.substr(End).ltrim().starts_with("("))
      continue;
    size_t Offset = Function->Begin + At;
    return (Definition.take_front(Offset) + NewName + Definition.substr(Offset + Short.size()))
        .str();
  }
  return llvm::createStringError("the definition of %s does not name it before its parameters",
                                 KernelName.str().c_str());
}

} // namespace kopt::frontend
