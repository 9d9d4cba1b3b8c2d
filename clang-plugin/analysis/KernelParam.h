// A kernel parameter as the front end reports it; also a template parameter
// (Type "typename" for a type parameter, Category Other).
#pragma once

#include <cstdint>
#include <string>

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
};

} // namespace kopt::frontend
