// One #include directive on the way from a translation unit's main file to the
// user header that defines a kernel: what kcc needs to splice such a kernel's
// variant into the TU (units/HeaderInline.h). Recorded by the parse
// (parse/IncludeDirectives.h); needs no clang.
#pragma once

#include <string>

namespace kopt::frontend {

struct IncludeStep {
  std::string Includer; // The file holding the directive, as the parse named it.
  bool IncluderIsMain = false;
  std::string Included; // The file it includes, as the parse opened it.
  unsigned Begin = 0;   // Offset of its '#' in the includer.
  unsigned End = 0;     // Offset just past its file name.
  unsigned Line = 0;    // Its line in the includer.
  unsigned Times = 0;   // Directives in the TU (entered or skipped) naming Included.
};

} // namespace kopt::frontend
