// Builds a kernel's unit (KernelUnit.h) from the parsed translation unit.
//
// What is copied: the kernel and, transitively, the functions and function
// templates it calls, the records, enums, typedefs and templates it names, the
// namespace-scope variables (__constant__, __device__) it reads, namespace
// aliases and using-declarations it goes through, and the using-directives of
// the namespaces it uses; each with its source text (template header included),
// in translation-unit order (the order the original compiled in), wrapped in
// its namespaces. Declarations from the main file and from user headers (not
// system headers) are copied, so the unit needs no user header and its hash
// covers them. Declarations from system and CUDA headers are not copied: the
// #include line of a user file that brought their header in is kept.
//
// Macros: every identifier of the copied text that names a macro at that place,
// and transitively every macro named in those macros' bodies; their #define
// lines are copied from user files, or their header's #include kept. Macros
// from the command line are not copied (the unit compiles with the same -D).
// The definitions of the macros the text uses and does not define (command
// line, predefined, system headers), and of the command-line macros that the
// headers it includes look at (CommandLineMacroTests.h), make its Environment.
//
// `#pragma kopt` lines inside copied text are blanked.
#pragma once

#include "clang-plugin/model/KernelUnit.h"

namespace clang {
class FunctionDecl;
class ASTContext;
class Preprocessor;
} // namespace clang

namespace kopt::frontend {

class CommandLineMacroTests;

// Kernel: a kernel's definition in the main file (for a template, its
// templated declaration). PP: the preprocessor that read the TU; its macro
// history is consulted. Tests: what PP recorded about command-line macros
// (null: none recorded, the environment holds only the macros the text uses).
KernelUnit buildKernelUnit(const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx,
                           clang::Preprocessor &PP, const CommandLineMacroTests *Tests = nullptr);

} // namespace kopt::frontend
