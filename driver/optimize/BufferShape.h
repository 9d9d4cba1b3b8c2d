// How a pointer parameter becomes one of the evaluator's flat buffers. A
// pointer to arrays ("float A[K][N][M]", "float A[][N][M]", "float (*A)[N][M]")
// is a buffer of its innermost scalar; buffers(A[count]) gives the count in
// those scalars (K*N*M here), as for a plain pointer, never in rows.
#pragma once

#include "clang-plugin/model/KernelParam.h"
#include "evaluator/workload/ScalarType.h"

#include <llvm/Support/Error.h>

#include <cstdint>
#include <optional>

namespace kopt::driver {

// The scalar type of P's elements; an error that names the type where the
// evaluator cannot generate it or an array extent is not a constant.
llvm::Expected<evaluator::ScalarType> bufferElementType(const frontend::KernelParam &P);

// The type a scalar parameter's value is passed as: an enum's underlying type,
// a template-typed parameter's type in the instantiation evaluated.
std::optional<evaluator::ScalarType> scalarValueType(const frontend::KernelParam &P);

// Checks a buffers(...) element count against P's declared extents: a whole
// number of rows (N*M scalars each, for "float A[][N][M]"), and exactly K rows
// where the declaration spells K.
llvm::Error checkBufferCount(const frontend::KernelParam &P, uint64_t Count);

} // namespace kopt::driver
