// A kernel parameter as the front end reports it.
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
};

} // namespace kopt::frontend
