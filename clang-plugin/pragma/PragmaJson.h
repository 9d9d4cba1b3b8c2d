// The '#pragma kopt optimize' clauses of a kernel as JSON, for kopt inspect and the
// clang plugin's manifest.
#pragma once

#include "clang-plugin/model/PragmaClauses.h"

#include <nlohmann/json.hpp>

#include <optional>

namespace kopt::frontend {

// An object with every clause (null where absent). Each expression is
// {"text": "...", "value": V}: its text after macro expansion, and its value
// where it evaluates given the args clause's values (else null).
nlohmann::ordered_json pragmaToJson(const PragmaClauses &P);

// null for a kernel without the pragma.
nlohmann::ordered_json pragmaToJson(const std::optional<PragmaClauses> &P);

} // namespace kopt::frontend
