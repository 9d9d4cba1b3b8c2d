// Where a transform keeps one buffer's values apart from memory (bins in
// shared memory, a value in a register) and another pointer may alias it
// (no noalias clause, no __restrict__): the pragma's buffer sizes, and the
// test, made at run time, that no such pointer's buffer overlaps it. Where
// the test fails the variant does what the original does.
#pragma once

#include "clang-plugin/transforms/framework/UnitRewriter.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/Error.h>

#include <cstdint>
#include <map>
#include <string>

namespace clang {
class ParmVarDecl;
} // namespace clang

namespace kopt::frontend {
struct KernelSummary;
} // namespace kopt::frontend

namespace kopt::transform {

// The pragma's buffers: every size as written, and the constant ones (naming
// no parameter after macro expansion).
struct BufferSizes {
  std::map<std::string, int64_t> Constant;
  std::map<std::string, std::string> Text;
};
BufferSizes bufferSizes(const frontend::KernelSummary &Kernel);

// The condition that the KeptBytes bytes at Kept overlap none of Others'
// buffers (each by its pragma size): "true" where NoAlias or Kept is
// __restrict__, or there are no Others. Fails, naming the pointer, where one
// of Others has no size in the pragma.
llvm::Expected<std::string> apartTest(const UnitAST &U, const clang::ParmVarDecl &Kept,
                                      const std::string &KeptBytes,
                                      llvm::ArrayRef<const clang::ParmVarDecl *> Others,
                                      const BufferSizes &Sizes, bool NoAlias);

// The bytes of Param's buffer by its pragma size ("(unsigned long long)(n) * sizeof(*p)"),
// or none where the pragma gives it no size.
std::optional<std::string> bufferBytesText(const clang::ParmVarDecl &Param,
                                           const BufferSizes &Sizes);

} // namespace kopt::transform
