// A kernel parameter as the front end reports it; also a template parameter
// (Type "typename" for a type parameter, Category Other).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kopt::frontend {

enum class ParamCategory : uint8_t {
  Integer,  // Integers, enums and bool: args may give them integer values.
  Floating, // float, double, half.
  Pointer,  // Buffers.
  Other,    // Structs, references, templates' dependent types.
};

struct KernelParam {
  std::string Name; // Empty for an unnamed parameter.
  std::string Type; // Typedefs resolved, as clang prints it: "const float *__restrict".
  ParamCategory Category = ParamCategory::Other;
  bool PointeeIsConst = false; // For pointers: const T *.
  // For pointers: what the elements are (Integer, Floating, or Other: bool,
  // structs, dependent types). Bool counts as Other here: it has no range.
  ParamCategory Pointee = ParamCategory::Other;
  // Pointers: the scalar held past pointers and arrays ("const float" for "const float *");
  // scalars: the type a value is passed as (an enum's underlying type; IdxT's instance).
  std::string ElementType{};
  // For a pointer to arrays (declared "float A[K][N][M]", "float A[][N][M]" or
  // "float (*A)[N][M]"): the extents {N, M} that each step of the pointer
  // spans; empty for a plain pointer. Macros, constexpr values and template
  // arguments are resolved (a template's from the instantiation evaluated).
  std::vector<uint64_t> RowExtents{};
  std::optional<uint64_t> DeclaredRows{}; // K, where the declaration spells it.
  bool ExtentsConstant = true;            // False for a variable or dependent extent.
};

// Scalars in one step of the pointer: the product of RowExtents (1 for a plain
// pointer).
inline uint64_t rowElements(const KernelParam &P) {
  uint64_t N = 1;
  for (uint64_t E : P.RowExtents)
    N *= E;
  return N;
}

} // namespace kopt::frontend
