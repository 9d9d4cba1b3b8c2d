// A kernel's declaration as JSON (name, symbols, position, parameters, pragma
// clauses): what `kopt inspect` prints first for each kernel and what the clang
// plugin's manifest lists for each annotated kernel.
#pragma once

#include "clang-plugin/model/KernelSummary.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace kopt::frontend {

// {"name", "mangled_name", "template", "line", "column", "params", "pragma"}.
nlohmann::ordered_json kernelDeclarationToJson(const KernelSummary &K);

// [{"template_args", "mangled_name"}, ...] of a template's instantiations.
nlohmann::ordered_json instantiationsToJson(const std::vector<KernelInstantiation> &I);

// The manifest of a translation unit's annotated kernels:
// {"format": "kopt-manifest-1", "file", "kopt_version", "kernels": [declaration
// + "instantiations", ...]}, kernels without '#pragma kopt optimize' left out.
nlohmann::ordered_json kernelManifestToJson(const std::string &File,
                                            const std::vector<KernelSummary> &Kernels);

} // namespace kopt::frontend
