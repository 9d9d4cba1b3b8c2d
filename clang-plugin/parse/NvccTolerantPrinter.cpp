#include "clang-plugin/parse/NvccTolerantPrinter.h"

#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/Basic/DiagnosticParse.h>
#include <clang/Basic/DiagnosticSema.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Sema/Sema.h>
#include <llvm/ADT/StringSwitch.h>

#include <algorithm>

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
// Whether Info is located in a `#pragma kopt` directive (on its first line or
// on a line it continues with a backslash): clang's warnings there are about
// kopt's own syntax, and kopt gives them.
bool inKoptPragma(const clang::Diagnostic &Info) {
  if (!Info.hasSourceManager() || Info.getLocation().isInvalid())
    return false;
  const clang::SourceManager &SM = Info.getSourceManager();
  clang::SourceLocation Loc = SM.getSpellingLoc(Info.getLocation());
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(SM.getFileID(Loc), &Invalid);
  if (Invalid)
    return false;
  size_t Offset = std::min<size_t>(SM.getFileOffset(Loc), Buffer.size());
  size_t Start = Buffer.rfind('\n', Offset == 0 ? 0 : Offset - 1);
  Start = Start == llvm::StringRef::npos ? 0 : Start + 1;
  // Back over the lines this one continues.
  while (Start >= 2 && Buffer.substr(0, Start - 1).rtrim(" \t\r").ends_with("\\")) {
    size_t Previous = Buffer.rfind('\n', Start - 2);
    Start = Previous == llvm::StringRef::npos ? 0 : Previous + 1;
  }
  llvm::StringRef Line = Buffer.substr(Start).ltrim(" \t");
  if (!Line.consume_front("#"))
    return false;
  Line = Line.ltrim(" \t");
  if (!Line.consume_front("pragma"))
    return false;
  return Line.ltrim(" \t").starts_with("kopt");
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
  // clang's own warnings about the user's code are nvcc's to give (it compiles
  // the same file and warns as it does); kopt's (custom IDs) stay, and so do
  // clang's inside a `#pragma kopt`.
  if (Level == clang::DiagnosticsEngine::Warning && Info.getID() < clang::diag::DIAG_UPPER_LIMIT &&
      !inKoptPragma(Info)) {
    DroppingNotes = true;
    return;
  }
  if (Level >= clang::DiagnosticsEngine::Error && nvccAccepts(Info)) {
    ++Tolerated;
    DroppingNotes = true;
    return;
  }
  TextDiagnosticPrinter::HandleDiagnostic(Level, Info);
}

} // namespace kopt::frontend
