// A diagnostic printer for kopt's own parses that lets through what nvcc compiles
// and clang 19 rejects, where clang's recovery leaves the AST kopt analyses intact:
//
//  - `alignas(...)` or `[[...]]` right after a CUDA qualifier (`__shared__ alignas(16)
//    float t[32];`): clang says "an attribute list cannot appear here" and drops the
//    attribute; the declaration is whole, its text (which units copy) keeps it;
//  - a kernel launched from device code (dynamic parallelism, `k<<<g, b>>>(...)` in a
//    __global__ or __device__ function) whose name is overloaded or a template: clang
//    has no device-side launch and finds no viable candidate; the launch is left out
//    of the AST (kopt optimizes host launches) and the enclosing kernel is whole;
//  - a `__shared__` object of a class with a constructor, without an initializer
//    (`__shared__ cuda::pipeline_shared_state<...> state;`): nvcc warns that the
//    constructor does not run; clang says "initialization is not supported for
//    __shared__ variables" and marks the declaration invalid, so expressions that
//    use it (and declarations initialized from them) are left out of the AST. The
//    kernel is not whole: KernelFinder does not optimize an annotated kernel that
//    holds an invalid declaration (a warning says so).
//
// Such an error and its notes are neither printed nor counted, so the parse succeeds.
// clang's own warnings (and their notes) are dropped too, except inside a
// `#pragma kopt`: nvcc compiles the same file and gives its own, so a user would
// see each twice, and some in clang's words only. kopt's diagnostics (custom IDs:
// the pragma's) print at every level.
// Everything else prints and counts as with clang's TextDiagnosticPrinter. kopt parses
// with it; the plugin does not (there clang compiles the code and must not drop it).
#pragma once

#include <clang/Frontend/TextDiagnosticPrinter.h>

namespace clang {
class CompilerInstance;
}

namespace kopt::frontend {

class NvccTolerantPrinter : public clang::TextDiagnosticPrinter {
public:
  using TextDiagnosticPrinter::TextDiagnosticPrinter;

  // The compiler instance whose Sema tells where a diagnostic arose (the device-side
  // launch needs it); without one, that case is not tolerated.
  void attach(const clang::CompilerInstance &Instance) { CI = &Instance; }

  void BeginSourceFile(const clang::LangOptions &LO, const clang::Preprocessor *PP) override;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;

  // How many errors were let through.
  unsigned tolerated() const { return Tolerated; }

private:
  bool nvccAccepts(const clang::Diagnostic &Info) const;

  const clang::CompilerInstance *CI = nullptr;
  const clang::LangOptions *Lang = nullptr;
  bool DroppingNotes = false; // The notes of a tolerated error.
  unsigned Tolerated = 0;
};

} // namespace kopt::frontend
