// How a pointer parameter becomes one of the evaluator's flat buffers. A
// pointer to arrays ("float A[K][N][M]", "float A[][N][M]", "float (*A)[N][M]")
// is a buffer of its innermost scalar; buffers(A[count]) gives the count in
// those scalars (K*N*M here), as for a plain pointer, never in rows. A pointer
// to a CUDA vector type (float4 *) counts vectors, each its lanes' scalars.
#pragma once

#include "clang-plugin/model/KernelParam.h"
#include "evaluator/workload/ScalarType.h"

#include <llvm/Support/Error.h>

#include <cstdint>

namespace kopt::driver {

// P's elements: a scalar type, or a CUDA vector type (float4: 4 F32 lanes,
// buffers(pos[n]) counting float4s); an error that names the type where the
// evaluator cannot generate it or an array extent is not a constant.
struct BufferElement {
  evaluator::ScalarType Scalar;
  unsigned Lanes = 1; // Scalars an element.
};
llvm::Expected<BufferElement> bufferElementType(const frontend::KernelParam &P);

// Checks a buffers(...) element count against P's declared extents: a whole
// number of rows (N*M scalars each, for "float A[][N][M]"), and exactly K rows
// where the declaration spells K.
llvm::Error checkBufferCount(const frontend::KernelParam &P, uint64_t Count);

} // namespace kopt::driver
