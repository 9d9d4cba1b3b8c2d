// The dependency file (nvcc -MD/-MMD) of a compile of kcc's rewritten sources
// must be the one nvcc writes for the user's: it names the user's source where
// nvcc named the rewritten file, the user's headers whose copies kcc inlined,
// and no file that does not exist. nvcc lists the file names of `#line`
// directives as dependencies, and kopt's rewrite names each spliced variant in
// one (`main.cu (kopt variant of matmul)`): a name no build tool finds, so
// Ninja and Make would rebuild every time.
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace kopt::driver {

// What one rewritten source changes in the dependency file.
struct DependencyEdit {
  std::string Temporary;            // The rewritten file, as nvcc was given it.
  std::string Original;             // The user's source, as written on kcc's command line.
  std::vector<std::string> Inlined; // The user's headers inlined into it, named after it.
  std::vector<std::string> Unreal;  // Names of the rewrite's #line directives: removed.
};

// The names the `#line` directives of Rewritten (Source's rewrite) give that
// Original's (Source's text) do not, other than Source, and that are no file:
// kopt's pseudo-file names for variants.
std::vector<std::string> unrealLineNames(llvm::StringRef Source, llvm::StringRef Original,
                                         llvm::StringRef Rewritten);

// Text (a make rule per target, as nvcc writes it: spaces in paths escaped
// "\ ", nothing else) with the edits made, each prerequisite once a rule, in
// nvcc's layout. Targets stay as written.
std::string editDependencies(llvm::StringRef Text, llvm::ArrayRef<DependencyEdit> Edits);

// The same on the file at DepFile, rewritten in place.
llvm::Error editDependencyFile(const std::string &DepFile, llvm::ArrayRef<DependencyEdit> Edits);

} // namespace kopt::driver
