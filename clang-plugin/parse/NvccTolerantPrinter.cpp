#include "clang-plugin/parse/NvccTolerantPrinter.h"

#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/Basic/DiagnosticParse.h>
#include <clang/Basic/DiagnosticSema.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Sema/Sema.h>
#include <llvm/ADT/StringSwitch.h>

namespace kopt::frontend {

namespace {
// The file text from Loc's spelling on, and the text before it.
struct TextAround {
  llvm::StringRef Before, After;
};

std::optional<TextAround> textAround(const clang::SourceManager &SM, clang::SourceLocation Loc) {
  clang::SourceLocation Spelling = SM.getSpellingLoc(Loc);
  if (Spelling.isInvalid())
    return std::nullopt;
  auto [File, Offset] = SM.getDecomposedLoc(Spelling);
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid || Offset > Buffer.size())
    return std::nullopt;
  return TextAround{Buffer.take_front(Offset), Buffer.drop_front(Offset)};
}

bool isIdentifierChar(char C) { return llvm::isAlnum(C) || C == '_'; }

// `alignas(...)` or `[[...]]` written right after a CUDA qualifier.
bool followsCudaQualifier(llvm::StringRef Before) {
  Before = Before.rtrim();
  size_t Start = Before.size();
  while (Start > 0 && isIdentifierChar(Before[Start - 1]))
    --Start;
  return llvm::StringSwitch<bool>(Before.drop_front(Start))
      .Cases("__shared__", "__device__", "__constant__", "__managed__", true)
      .Cases("__host__", "__global__", "__forceinline__", "__noinline__", true)
      .Default(false);
}

// The name at the start of After, its template arguments if any, then `<<<`.
bool isKernelLaunch(llvm::StringRef After) {
  After = After.drop_while(isIdentifierChar).ltrim();
  if (After.starts_with("<<<"))
    return true;
  if (!After.starts_with("<"))
    return false;
  int Depth = 0;
  size_t I = 0;
  for (; I < After.size(); ++I) {
    if (After[I] == '<' || After[I] == '(')
      ++Depth;
    else if ((After[I] == '>' || After[I] == ')') && --Depth == 0)
      break;
  }
  return I < After.size() && After.drop_front(I + 1).ltrim().starts_with("<<<");
}

// A declared name with no initializer written after it: `t;`, `t[4];`, `a, b;`.
bool hasNoWrittenInitializer(llvm::StringRef After) {
  After = After.drop_while(isIdentifierChar).ltrim();
  while (After.consume_front("[")) {
    After = After.drop_until([](char C) { return C == ']' || C == ';' || C == '='; });
    if (!After.consume_front("]"))
      return false;
    After = After.ltrim();
  }
  return After.starts_with(";") || After.starts_with(",");
}

// Whether Sema is inside device code: a __global__ or __device__-only function.
bool inDeviceFunction(const clang::CompilerInstance *CI) {
  if (!CI || !CI->hasSema())
    return false;
  const clang::FunctionDecl *FD = CI->getSema().getCurFunctionDecl(/*AllowLambda=*/true);
  if (!FD)
    return false;
  return FD->hasAttr<clang::CUDAGlobalAttr>() ||
         (FD->hasAttr<clang::CUDADeviceAttr>() && !FD->hasAttr<clang::CUDAHostAttr>());
}
} // namespace

void NvccTolerantPrinter::BeginSourceFile(const clang::LangOptions &LO,
                                          const clang::Preprocessor *PP) {
  Lang = &LO;
  TextDiagnosticPrinter::BeginSourceFile(LO, PP);
}

bool NvccTolerantPrinter::nvccAccepts(const clang::Diagnostic &Info) const {
  if (!Lang || !Lang->CUDA || !Info.hasSourceManager())
    return false;
  std::optional<TextAround> Text = textAround(Info.getSourceManager(), Info.getLocation());
  if (!Text)
    return false;
  switch (Info.getID()) {
  case clang::diag::err_attributes_not_allowed:
    return (Text->After.starts_with("alignas") || Text->After.starts_with("[[")) &&
           followsCudaQualifier(Text->Before);
  case clang::diag::err_shared_var_init:
    // A class with a constructor, default-initialized: nvcc warns that the
    // constructor does not run. A written initializer nvcc rejects too.
    return hasNoWrittenInitializer(Text->After);
  case clang::diag::err_ovl_no_viable_function_in_call:
    return isKernelLaunch(Text->After) && inDeviceFunction(CI);
  default:
    return false;
  }
}

void NvccTolerantPrinter::HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                                           const clang::Diagnostic &Info) {
  if (Level == clang::DiagnosticsEngine::Note && DroppingNotes)
    return;
  DroppingNotes = false;
  if (Level >= clang::DiagnosticsEngine::Error && nvccAccepts(Info)) {
    ++Tolerated;
    DroppingNotes = true;
    return;
  }
  TextDiagnosticPrinter::HandleDiagnostic(Level, Info);
}

} // namespace kopt::frontend
