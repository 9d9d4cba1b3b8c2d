// A kernel template's variant for one instantiation as an explicit
// specialization (issue 16.3), so that a change verified for that instantiation
// (a __launch_bounds__, a tiling sized for its block) never reaches the others:
//   template <int B> __global__ void __launch_bounds__(B) k(float *x) { BODY }
// for "32" becomes
//   template <> __global__ void __launch_bounds__((32)) k<32>(float *x) {
//   constexpr int B = (32); BODY }
// The parameters are bound at the body's start and replaced in the declaration.
#pragma once

#include <llvm/Support/Error.h>

#include <string>

namespace kopt::frontend {

// Code: the variant (a template definition of a function named Name). Args: the
// instantiation's arguments as the front end prints them ("float, 128"). Fails
// on code of another shape and on a template template parameter.
llvm::Expected<std::string> explicitSpecialization(llvm::StringRef Code, llvm::StringRef Name,
                                                   llvm::StringRef Args);

// Whether Args names nothing declared in the user's code (only built-in types,
// numbers and bool literals): a specialization placed right after the template
// can then name them.
bool argsNeedNoDeclarations(llvm::StringRef Args);

// Whether two printings of template arguments are the same arguments, spacing
// aside: "float,128" and "float, 128".
bool sameTemplateArgs(llvm::StringRef A, llvm::StringRef B);

} // namespace kopt::frontend
