// The syntax inside nvcc's option values, checked against nvcc 13.0.
//
// A list value (-I, -D, -Xcompiler, ...) splits at commas outside double
// quotes; "\," is a literal comma and empty items vanish:
//   -DA=(1,2)        -> "A=(1" "2)"
//   -DA="x,y"        -> "A=\"x,y\""   (the quotes stay)
//   -Xcompiler -Wl\,-rpath,-fPIC -> "-Wl,-rpath" "-fPIC"
// Paths (-I, -isystem, -include) also lose their quotes: -I"a,b" -> "a,b".
//
// A --generate-code value is keyword=value items, arch and code, each once;
// a code value lists several codes in brackets or double quotes:
//   arch=compute_90,code=sm_90
//   arch=compute_90,code=[sm_90,compute_90]
//   arch=compute_90,code="sm_90,compute_90"
// (Without brackets or quotes, "code=sm_90,compute_90" is an error in nvcc.)
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace kopt::driver {

std::vector<std::string> splitNvccList(llvm::StringRef Value, bool StripQuotes);

struct NvccGenerateCode {
  std::string Arch;
  std::vector<std::string> Codes;
  size_t ArgIndex = 0; // Into NvccCommandLine::Args.
};

// Fails with nvcc's complaint: an item that is not keyword=value, an unknown
// or repeated keyword, a missing or empty arch or code, an unclosed '[' or '"'.
llvm::Expected<NvccGenerateCode> parseNvccGenerateCode(llvm::StringRef Value);

} // namespace kopt::driver
