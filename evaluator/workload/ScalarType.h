// The element and scalar types the evaluator can generate, copy and compare.
#pragma once

#include <llvm/ADT/StringRef.h>

#include <cstddef>
#include <cstdint>
#include <optional>

namespace kopt::evaluator {

enum class ScalarType : uint8_t { Bool, I8, U8, I16, U16, I32, U32, I64, U64, F16, BF16, F32, F64 };

size_t sizeOf(ScalarType T);
bool isFloating(ScalarType T);
llvm::StringRef spelling(ScalarType T); // "f32", "i32", ...
std::optional<ScalarType> parseSpelling(llvm::StringRef S);

// The type of a C/CUDA type as clang prints it, qualifiers and pointers
// stripped: "const float *__restrict" -> F32, "unsigned int" -> U32,
// "__half" -> F16. Empty for structs and other types kopt cannot generate.
std::optional<ScalarType> scalarTypeOfCType(llvm::StringRef CType);

// CUDA's vector types (float4, int2, double2, __half2, ...): Lanes scalars of
// Scalar each, which the evaluator generates and compares as scalars.
struct VectorType {
  ScalarType Scalar;
  unsigned Lanes;
};
std::optional<VectorType> vectorTypeOfCType(llvm::StringRef CType);

// True for pointer types ("float *", "const int *__restrict").
bool isPointerCType(llvm::StringRef CType);

// Conversions between the types' bit patterns and double.
double loadAsDouble(ScalarType T, const void *P);
void storeFromDouble(ScalarType T, double V, void *P);

} // namespace kopt::evaluator
