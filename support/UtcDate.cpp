#include "support/UtcDate.h"

#include <ctime>

namespace kopt {

std::string utcNow() {
  std::time_t T = std::time(nullptr);
  std::tm Utc{};
  gmtime_r(&T, &Utc);
  char Buffer[32];
  std::strftime(Buffer, sizeof(Buffer), "%Y-%m-%dT%H:%M:%SZ", &Utc);
  return Buffer;
}

} // namespace kopt
