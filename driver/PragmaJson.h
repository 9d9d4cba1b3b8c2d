// The '#pragma kopt optimize' clauses of a kernel as JSON, for kopt inspect.
#pragma once

#include "clang-plugin/PragmaClauses.h"

#include <nlohmann/json.hpp>

#include <optional>

namespace kopt::driver {

// An object with every clause (null where absent). Each expression is
// {"text": "...", "value": V}: its text after macro expansion, and its value
// where it evaluates given the args clause's values (else null).
nlohmann::ordered_json pragmaToJson(const frontend::PragmaClauses &P);

// null for a kernel without the pragma.
nlohmann::ordered_json pragmaToJson(const std::optional<frontend::PragmaClauses> &P);

} // namespace kopt::driver
