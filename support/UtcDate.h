// Now, as kopt records dates (cache entries, build logs): "2026-11-23T13:16:23Z".
#pragma once

#include <string>

namespace kopt {

std::string utcNow();

} // namespace kopt
